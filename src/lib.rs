//! PyO3 bindings of mtalign: conversion in, one GIL-release-and-error helper, pyclasses.
//! All computation lives in `mtalign-core`.

use mtalign_core::intern::{encode_texts, encode_tokens, Encoded, Sentences, StrTable};
use mtalign_core::refs::RefSets;
use mtalign_core::rouge::{score_batch, score_docs, Compat, Docs, MultiRef, RougeConfig, Variant};
use mtalign_core::stem::{stem_encoded, Stemmer};
use mtalign_core::tokenize::{Tokenizer, TokenizerKind};
use mtalign_core::{counts::Counts, dcs, lcs, ngram, pool, skip_bigram, wlcs, Error};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::collections::HashMap;

mod sia_py;

pyo3::create_exception!(
    _mtalign,
    MtalignError,
    PyValueError,
    "Base class of mtalign's errors (a ValueError)."
);
pyo3::create_exception!(
    _mtalign,
    ConfigError,
    MtalignError,
    "An option that cannot be used (unknown variant, beta <= 0, ...)."
);
pyo3::create_exception!(
    _mtalign,
    InputError,
    MtalignError,
    "Data that cannot be scored (mismatched lengths, empty reference lists, wrong types)."
);

fn to_py(e: Error) -> PyErr {
    match e {
        Error::Config(m) => ConfigError::new_err(m),
        Error::Input(m) => InputError::new_err(m),
    }
}

fn input_err(msg: String) -> PyErr {
    InputError::new_err(msg)
}

/// Runs `f` with the GIL released, on the private pool, converting core errors.
fn run_detached<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> PyResult<R> {
    py.detach(|| pool::run(threads, f).and_then(|r| r))
        .map_err(to_py)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A list or tuple, viewed as a sequence of items.
fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = obj.cast::<PyList>() {
        Ok(l.iter().collect())
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        Ok(t.iter().collect())
    } else {
        Err(input_err(format!(
            "{what} must be a list or tuple (got {})",
            type_name(obj)
        )))
    }
}

fn as_str<'a>(obj: &'a Bound<'_, PyAny>, what: impl FnOnce() -> String) -> PyResult<&'a str> {
    match obj.cast::<PyString>() {
        Ok(s) => s.to_str(),
        Err(_) => Err(input_err(format!(
            "{} is not a str (got {})",
            what(),
            type_name(obj)
        ))),
    }
}

/// Owned copy of a text batch: every distinct text (hypothesis or reference) once, in one
/// buffer, so the GIL can be released while it is tokenized and scored.
struct TextBatch {
    texts: StrTable,
    /// Sentence index of each hypothesis.
    hyp_ids: Vec<u32>,
    ref_sets: RefSets,
    /// Per distinct text, where it first appeared as a reference (i, j) = refs[i][j].
    ref_origin: Vec<Option<(usize, usize)>>,
}

impl TextBatch {
    /// The sentence index of `s`, storing it if it is new.
    fn intern(&mut self, s: &str) -> u32 {
        let (id, new) = self.texts.intern(s);
        if new {
            self.ref_origin.push(None);
        }
        id
    }
}

/// Reads `hyps` (list of str) and `refs` (list of str or list of str) into a [`TextBatch`].
/// Equal texts are stored (and later tokenized) once, however many places share them:
/// references repeated for every system, identical outputs of different systems.
fn read_text_batch(hyps: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<TextBatch> {
    let hyp_items = items(hyps, "hyps")?;
    let ref_items = items(refs, "refs")?;
    if hyp_items.len() != ref_items.len() {
        return Err(input_err(format!(
            "hyps has {} items but refs has {}",
            hyp_items.len(),
            ref_items.len()
        )));
    }
    let mut batch = TextBatch {
        texts: StrTable::with_capacity(hyp_items.len()),
        hyp_ids: Vec::with_capacity(hyp_items.len()),
        ref_sets: RefSets::new(),
        ref_origin: Vec::new(),
    };
    for (i, h) in hyp_items.iter().enumerate() {
        let id = batch.intern(as_str(h, || format!("hyps[{i}]"))?);
        batch.hyp_ids.push(id);
    }
    let mut members: Vec<u32> = Vec::new();
    for (i, r) in ref_items.iter().enumerate() {
        members.clear();
        if let Ok(s) = r.cast::<PyString>() {
            let id = batch.intern(s.to_str()?);
            batch.ref_origin[id as usize].get_or_insert((i, 0));
            members.push(id);
        } else if r.cast::<PyList>().is_ok() || r.cast::<PyTuple>().is_ok() {
            let alternatives = items(r, "")?;
            if alternatives.is_empty() {
                return Err(input_err(format!("refs[{i}] is empty")));
            }
            for (j, alt) in alternatives.iter().enumerate() {
                let id = batch.intern(as_str(alt, || format!("refs[{i}][{j}]"))?);
                batch.ref_origin[id as usize].get_or_insert((i, j));
                members.push(id);
            }
        } else {
            return Err(input_err(format!(
                "refs[{i}] must be a str or a list of str (got {})",
                type_name(r)
            )));
        }
        batch.ref_sets.push(members.iter().copied());
    }
    Ok(batch)
}

/// Owned pre-tokenized batch: hypotheses first, then distinct references.
struct TokenBatch {
    sentences: Vec<Vec<String>>,
    n_hyps: usize,
    ref_sets: RefSets,
}

/// Pre-tokenized batch: hyps is a list of token lists, refs a list of lists of token lists.
fn read_token_batch(hyps: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<TokenBatch> {
    let hyp_items = items(hyps, "hyps")?;
    let ref_items = items(refs, "refs")?;
    if hyp_items.len() != ref_items.len() {
        return Err(input_err(format!(
            "hyps has {} items but refs has {}",
            hyp_items.len(),
            ref_items.len()
        )));
    }
    let read_tokens = |obj: &Bound<'_, PyAny>, what: String| -> PyResult<Vec<String>> {
        if obj.cast::<PyString>().is_ok() {
            return Err(input_err(format!(
                "{what} must be a list of str tokens (got str; pre-tokenized input needs \
                 token lists everywhere)"
            )));
        }
        items(obj, &what)?
            .iter()
            .enumerate()
            .map(|(k, t)| as_str(t, || format!("{what}[{k}]")).map(str::to_owned))
            .collect()
    };
    let mut sentences: Vec<Vec<String>> = Vec::with_capacity(hyp_items.len() * 2);
    for (i, h) in hyp_items.iter().enumerate() {
        sentences.push(read_tokens(h, format!("hyps[{i}]"))?);
    }
    let n_hyps = sentences.len();
    let mut ref_sets = RefSets::new();
    let mut seen: HashMap<usize, u32> = HashMap::new();
    for (i, r) in ref_items.iter().enumerate() {
        if r.cast::<PyString>().is_ok() {
            return Err(input_err(format!(
                "refs[{i}] must be a list of references, each a list of str tokens (got str)"
            )));
        }
        let alternatives = items(r, &format!("refs[{i}]"))?;
        if alternatives.is_empty() {
            return Err(input_err(format!("refs[{i}] is empty")));
        }
        let mut members = Vec::with_capacity(alternatives.len());
        for (j, alt) in alternatives.iter().enumerate() {
            let key = alt.as_ptr() as usize;
            let id = match seen.get(&key) {
                Some(&id) => id,
                None => {
                    let id = sentences.len() as u32;
                    sentences.push(read_tokens(alt, format!("refs[{i}][{j}]"))?);
                    seen.insert(key, id);
                    id
                }
            };
            members.push(id);
        }
        ref_sets.push(members);
    }
    Ok(TokenBatch {
        sentences,
        n_hyps,
        ref_sets,
    })
}

/// The native half of `mtalign.Rouge`: a validated configuration.
#[pyclass(frozen, module = "mtalign._mtalign")]
struct RougeCore {
    tokenizer: Tokenizer,
    config: RougeConfig,
    stemmer: Option<Stemmer>,
}

/// What a batch returns: scores (n, variants, 3), vanished hypothesis indices, vanished
/// references as (i, j) positions.
type BatchOut<'py> = (Bound<'py, PyAny>, Vec<usize>, Vec<(usize, usize)>);

#[pymethods]
impl RougeCore {
    #[new]
    #[pyo3(signature = (variants, tokenize, lowercase, beta, multi_ref, jackknife, compat, stem=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variants: Vec<String>,
        tokenize: &str,
        lowercase: bool,
        beta: f64,
        multi_ref: &str,
        jackknife: bool,
        compat: &str,
        stem: Option<&str>,
    ) -> PyResult<Self> {
        let parsed = variants
            .iter()
            .map(|v| Variant::parse(v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(to_py)?;
        let config = RougeConfig::new(
            parsed,
            beta,
            MultiRef::parse(multi_ref).map_err(to_py)?,
            jackknife,
            Compat::parse(compat).map_err(to_py)?,
        )
        .map_err(to_py)?;
        let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
        let stemmer = stem.map(Stemmer::parse).transpose().map_err(to_py)?;
        check_rouge_tokenizer(kind, stemmer.is_some(), config.needs_lines())?;
        Ok(Self {
            tokenizer: Tokenizer::new(kind, lowercase),
            config,
            stemmer,
        })
    }

    /// Scores text input; see `mtalign.Rouge.batch_score`.
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_texts<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        rouge_text_batch(py, self, hyps, refs, threads)
    }

    /// Scores pre-tokenized input (tokens verbatim).
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_tokens<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        let config = &self.config;
        let shape = [config.variants.len(), 3];
        let batch = read_token_batch(hyps, refs)?;
        let n = batch.n_hyps;
        let scores = run_detached(py, threads, || {
            let mut enc: Encoded = encode_tokens(&batch.sentences);
            if let Some(stemmer) = self.stemmer {
                stem_encoded(&mut enc, stemmer);
            }
            let hyp_ids: Vec<u32> = (0..n as u32).collect();
            score_batch(config, &enc.sentences, &hyp_ids, &batch.ref_sets)
        })?;
        Ok((to_array(py, scores, n, &shape)?, Vec::new(), Vec::new()))
    }
}

/// Options that cannot go together: stemming needs word tokens, lines need '\n' to separate.
fn check_rouge_tokenizer(kind: TokenizerKind, stem: bool, lines: bool) -> PyResult<()> {
    let chars = matches!(kind, TokenizerKind::Char | TokenizerKind::Codepoint);
    if stem && chars {
        return Err(ConfigError::new_err(format!(
            "stem=True needs word tokens, not tokenize='{}'",
            kind.name()
        )));
    }
    if lines && kind == TokenizerKind::Codepoint {
        return Err(ConfigError::new_err(
            "rougeLsum splits texts into lines, which tokenize='codepoint' would keep as tokens",
        ));
    }
    Ok(())
}

/// Text input for ROUGE: tokenized (by line when `rougeLsum` is asked for), stemmed once per
/// distinct token, scored. Returns what [`score_text_batch`] returns.
fn rouge_text_batch<'py>(
    py: Python<'py>,
    core: &RougeCore,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<BatchOut<'py>> {
    let config = &core.config;
    let batch = read_text_batch(hyps, refs)?;
    let (scores, vanished) = run_detached(py, threads, || {
        let texts: Vec<&str> = batch.texts.iter().collect();
        if !config.needs_lines() {
            let mut enc = encode_texts(&core.tokenizer, &texts);
            if let Some(stemmer) = core.stemmer {
                stem_encoded(&mut enc, stemmer);
            }
            let scores = score_batch(config, &enc.sentences, &batch.hyp_ids, &batch.ref_sets)?;
            return Ok((scores, enc.vanished));
        }
        // rouge-score's lines: split on '\n', empty strings dropped.
        let mut lines: Vec<&str> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(texts.len());
        for text in &texts {
            lines.extend(text.split('\n').filter(|l| !l.is_empty()));
            ends.push(lines.len());
        }
        let mut enc = encode_texts(&core.tokenizer, &lines);
        if let Some(stemmer) = core.stemmer {
            stem_encoded(&mut enc, stemmer);
        }
        let docs = Docs::from_lines(&enc.sentences, &ends)?;
        let scores = score_docs(config, &docs, &batch.hyp_ids, &batch.ref_sets)?;
        let vanished = (0..texts.len())
            .filter(|&d| docs.tokens(d).is_empty() && texts[d].chars().any(|c| !c.is_whitespace()))
            .collect();
        Ok((scores, vanished))
    })?;
    finish_text_batch(py, &batch, scores, vanished, &[config.variants.len(), 3])
}

/// A native scorer whose whole work is one [`BatchKernel`] over interned sentences: its
/// `score_texts` / `score_tokens` methods are written once, by [`batch_pymethods!`].
trait BatchScorer {
    fn tokenizer(&self) -> Tokenizer;
    /// The shape of one hypothesis's scores (`[]` for one number).
    fn shape(&self) -> Vec<usize>;
    fn kernel(&self) -> impl BatchKernel + '_;
}

/// `#[pymethods]` for a [`BatchScorer`]: the class's own methods plus `score_texts(hyps,
/// refs, threads=None)` and `score_tokens(hyps, refs, threads=None)`, each returning
/// (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
macro_rules! batch_pymethods {
    (impl $ty:ident { $($methods:tt)* }) => {
        #[pymethods]
        impl $ty {
            $($methods)*

            /// Scores text input (tokenized here, each distinct text once).
            #[pyo3(signature = (hyps, refs, threads=None))]
            fn score_texts<'py>(
                &self,
                py: Python<'py>,
                hyps: &Bound<'py, PyAny>,
                refs: &Bound<'py, PyAny>,
                threads: Option<usize>,
            ) -> PyResult<BatchOut<'py>> {
                let shape = BatchScorer::shape(self);
                let tokenizer = BatchScorer::tokenizer(self);
                score_text_batch(py, tokenizer, hyps, refs, threads, &shape, self.kernel())
            }

            /// Scores pre-tokenized input (tokens verbatim).
            #[pyo3(signature = (hyps, refs, threads=None))]
            fn score_tokens<'py>(
                &self,
                py: Python<'py>,
                hyps: &Bound<'py, PyAny>,
                refs: &Bound<'py, PyAny>,
                threads: Option<usize>,
            ) -> PyResult<BatchOut<'py>> {
                let shape = BatchScorer::shape(self);
                score_token_batch(py, hyps, refs, threads, &shape, self.kernel())
            }
        }
    };
}

/// The native half of `mtalign.Dcs`: the tokenizer (character or word level).
#[pyclass(frozen, module = "mtalign._mtalign")]
struct DcsCore {
    tokenizer: Tokenizer,
}

impl BatchScorer for DcsCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        vec![4]
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        dcs::score_batch
    }
}

batch_pymethods! {
    impl DcsCore {
        #[new]
        #[pyo3(signature = (tokenize, lowercase))]
        fn new(tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(kind, lowercase),
            })
        }
    }
}

/// A batch kernel: sentences, the sentence index of each hypothesis, their reference sets →
/// a row-major score array.
trait BatchKernel: Fn(&Sentences, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync {}
impl<F: Fn(&Sentences, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync> BatchKernel for F {}

/// Text input → (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
fn score_text_batch<'py>(
    py: Python<'py>,
    tokenizer: Tokenizer,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
) -> PyResult<BatchOut<'py>> {
    let batch = read_text_batch(hyps, refs)?;
    let (scores, vanished) = run_detached(py, threads, || {
        let texts: Vec<&str> = batch.texts.iter().collect();
        let enc = encode_texts(&tokenizer, &texts);
        let scores = kernel(&enc.sentences, &batch.hyp_ids, &batch.ref_sets)?;
        Ok((scores, enc.vanished))
    })?;
    finish_text_batch(py, &batch, scores, vanished, shape)
}

/// Scores and vanished text indices → (array, vanished hypotheses, vanished references).
fn finish_text_batch<'py>(
    py: Python<'py>,
    batch: &TextBatch,
    scores: Vec<f64>,
    vanished: Vec<usize>,
    shape: &[usize],
) -> PyResult<BatchOut<'py>> {
    let mut is_vanished = vec![false; batch.texts.len()];
    vanished.iter().for_each(|&k| is_vanished[k] = true);
    let hyp_vanished = (0..batch.hyp_ids.len())
        .filter(|&i| is_vanished[batch.hyp_ids[i] as usize])
        .collect();
    let ref_vanished = vanished
        .iter()
        .filter_map(|&k| batch.ref_origin[k])
        .collect();
    let array = to_array(py, scores, batch.hyp_ids.len(), shape)?;
    Ok((array, hyp_vanished, ref_vanished))
}

/// Pre-tokenized input → scores shaped `[n, *shape]` (nothing can vanish).
fn score_token_batch<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
) -> PyResult<BatchOut<'py>> {
    let batch = read_token_batch(hyps, refs)?;
    let n = batch.n_hyps;
    let scores = run_detached(py, threads, || {
        let enc: Encoded = encode_tokens(&batch.sentences);
        let hyp_ids: Vec<u32> = (0..n as u32).collect();
        kernel(&enc.sentences, &hyp_ids, &batch.ref_sets)
    })?;
    Ok((to_array(py, scores, n, shape)?, Vec::new(), Vec::new()))
}

fn to_array<'py>(
    py: Python<'py>,
    scores: Vec<f64>,
    n: usize,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let mut dims = vec![n];
    dims.extend_from_slice(shape);
    Ok(PyArray1::from_vec(py, scores).reshape(dims)?.into_any())
}

/// Tokenizes one text (exposed as `mtalign.tokenize`).
#[pyfunction]
#[pyo3(signature = (text, tokenize="unicode", lowercase=true))]
fn tokenize(text: &str, tokenize: &str, lowercase: bool) -> PyResult<Vec<String>> {
    let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
    Ok(Tokenizer::new(kind, lowercase).tokenize(text))
}

/// Stems words as a ROUGE profile does (exposed as `mtalign.stem`): words of 3 characters or
/// fewer are returned unchanged.
#[pyfunction]
#[pyo3(name = "stem", signature = (words, stemmer="nltk_porter"))]
fn stem_py(words: Vec<String>, stemmer: &str) -> PyResult<Vec<String>> {
    let stemmer = Stemmer::parse(stemmer).map_err(to_py)?;
    Ok(words.iter().map(|w| stemmer.stem(w)).collect())
}

/// Maps arbitrary Python ints of two sequences to dense ids (kernels compare ids only).
fn dense_ids(a: &[i64], b: &[i64]) -> (Vec<u32>, Vec<u32>) {
    let mut map: HashMap<i64, u32> = HashMap::new();
    let mut id = |x: &i64| {
        let n = map.len() as u32;
        *map.entry(*x).or_insert(n)
    };
    let a2 = a.iter().map(&mut id).collect();
    let b2 = b.iter().map(&mut id).collect();
    (a2, b2)
}

fn counts_tuple(c: Counts) -> (u64, u64, u64) {
    (c.hit as u64, c.hyp_total as u64, c.ref_total as u64)
}

/// LCS length, bit-parallel.
#[pyfunction]
fn lcs_length(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    lcs::lcs_length(&a, &b)
}

/// LCS length by the O(mn) dynamic programme (the test oracle).
#[pyfunction]
fn lcs_length_dp(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    lcs::lcs_length_dp(&a, &b)
}

/// Weighted LCS of reference `x` and candidate `y` with f(k) = k^weight.
#[pyfunction]
#[pyo3(name = "wlcs")]
fn wlcs_py(x: Vec<i64>, y: Vec<i64>, weight: f64) -> PyResult<f64> {
    if !(weight.is_finite() && weight >= 1.0) {
        return Err(ConfigError::new_err(format!(
            "weight must be a finite number >= 1 (got {weight})"
        )));
    }
    let (x, y) = dense_ids(&x, &y);
    Ok(wlcs::wlcs(&x, &y, weight))
}

/// DCS of reference `x` and candidate `y`: (cs0, cs1, cs2, dcs).
#[pyfunction]
#[pyo3(name = "dcs")]
fn dcs_py(x: Vec<i64>, y: Vec<i64>) -> (f64, f64, f64, f64) {
    let (x, y) = dense_ids(&x, &y);
    let [a, b, c, d] = dcs::dcs(&x, &y);
    (a, b, c, d)
}

/// Clipped n-gram overlap: (hit, hypothesis n-grams, reference n-grams).
#[pyfunction]
fn ngram_overlap(hyp: Vec<i64>, reference: Vec<i64>, n: usize) -> PyResult<(u64, u64, u64)> {
    if n == 0 {
        return Err(ConfigError::new_err("n must be >= 1"));
    }
    let (h, r) = dense_ids(&hyp, &reference);
    Ok(counts_tuple(ngram::ngram_overlap(&h, &r, n)))
}

/// Skip-bigram overlap: (hit, hypothesis units, reference units).
#[pyfunction]
#[pyo3(signature = (hyp, reference, max_gap=None, unigrams=false))]
fn skip_bigram_overlap(
    hyp: Vec<i64>,
    reference: Vec<i64>,
    max_gap: Option<usize>,
    unigrams: bool,
) -> (u64, u64, u64) {
    let (h, r) = dense_ids(&hyp, &reference);
    counts_tuple(skip_bigram::skip_bigram_overlap(&h, &r, max_gap, unigrams))
}

/// The thread count used when `threads=None`.
#[pyfunction]
fn default_threads() -> PyResult<usize> {
    pool::default_threads().map_err(to_py)
}

#[pymodule]
fn _mtalign(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MtalignError", py.get_type::<MtalignError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add_class::<RougeCore>()?;
    m.add_class::<DcsCore>()?;
    m.add_function(wrap_pyfunction!(dcs_py, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(lcs_length, m)?)?;
    m.add_function(wrap_pyfunction!(lcs_length_dp, m)?)?;
    m.add_function(wrap_pyfunction!(wlcs_py, m)?)?;
    m.add_function(wrap_pyfunction!(ngram_overlap, m)?)?;
    m.add_function(wrap_pyfunction!(skip_bigram_overlap, m)?)?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    m.add_function(wrap_pyfunction!(stem_py, m)?)?;
    sia_py::register(m)?;
    add_issue4(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

// ---- BLEU, NIST, WER/PER, RIBES (issue 4) ------------------------------------------------

use mtalign_core::{bleu, error_rate, nist, ribes};
use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};

/// A C-contiguous (n, width) statistics array as a slice, checked.
fn stats_slice<'a>(stats: &'a PyReadonlyArray2<'_, f64>, width: usize) -> PyResult<&'a [f64]> {
    let shape = stats.shape();
    if shape[1] != width {
        return Err(input_err(format!(
            "statistics must have {width} columns (got {})",
            shape[1]
        )));
    }
    stats
        .as_slice()
        .map_err(|_| input_err("statistics must be a C-contiguous float64 array".into()))
}

/// The native half of `mtalign.Bleu`: statistics rows and scores from them.
#[pyclass(frozen, module = "mtalign._mtalign")]
struct BleuCore {
    tokenizer: Tokenizer,
    config: bleu::BleuConfig,
}

/// Corpus BLEU figures: score, bp, precisions, sys_len, ref_len, counts, totals.
type BleuCorpus = (f64, f64, Vec<f64>, f64, f64, Vec<f64>, Vec<f64>);

impl BatchScorer for BleuCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        vec![self.config.width()]
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        |s: &Sentences, h: &[u32], r: &RefSets| bleu::stats_batch(&self.config, s, h, r)
    }
}

batch_pymethods! {
    impl BleuCore {
        #[new]
        #[pyo3(signature = (max_order, smooth, smooth_value, ref_length, effective_order, tokenize, lowercase))]
        fn new(
            max_order: usize,
            smooth: &str,
            smooth_value: Option<f64>,
            ref_length: &str,
            effective_order: bool,
            tokenize: &str,
            lowercase: bool,
        ) -> PyResult<Self> {
            let config =
                bleu::BleuConfig::new(max_order, smooth, smooth_value, ref_length, effective_order)
                    .map_err(to_py)?;
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(kind, lowercase),
                config,
            })
        }

        /// Columns of a statistics row.
        #[getter]
        fn width(&self) -> usize {
            self.config.width()
        }

        /// The score of each statistics row (sentence BLEU), shape (n,).
        fn sentence_scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<Bound<'py, PyArray1<f64>>> {
            let w = self.config.width();
            let rows = stats_slice(&stats, w)?;
            let scores: Vec<f64> = rows
                .chunks_exact(w)
                .map(|row| bleu::score(&self.config, row).score)
                .collect();
            Ok(PyArray1::from_vec(py, scores))
        }

        /// Corpus BLEU of the summed rows.
        fn corpus(&self, stats: PyReadonlyArray2<'_, f64>) -> PyResult<BleuCorpus> {
            let w = self.config.width();
            let total = bleu::sum_rows(stats_slice(&stats, w)?, w);
            let d = bleu::score(&self.config, &total);
            let (k, n) = (self.config.orders(), self.config.max_order);
            Ok((
                d.score,
                d.bp,
                d.precisions,
                d.sys_len,
                d.ref_len,
                total[2..2 + n].to_vec(),
                total[2 + k..2 + k + n].to_vec(),
            ))
        }
    }
}

/// The native half of `mtalign.Nist`: statistics rows with sentence or corpus weights.
#[pyclass(frozen, module = "mtalign._mtalign")]
struct NistCore {
    tokenizer: Tokenizer,
    max_order: usize,
    corpus_weights: bool,
}

impl BatchScorer for NistCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        vec![nist::width(self.max_order)]
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        move |s: &Sentences, h: &[u32], r: &RefSets| {
            if self.corpus_weights {
                nist::stats_corpus(self.max_order, s, h, r)
            } else {
                nist::stats_sentences(self.max_order, s, h, r)
            }
        }
    }
}

batch_pymethods! {
    impl NistCore {
        #[new]
        #[pyo3(signature = (max_order, corpus_weights, tokenize, lowercase))]
        fn new(
            max_order: usize,
            corpus_weights: bool,
            tokenize: &str,
            lowercase: bool,
        ) -> PyResult<Self> {
            nist::check_order(max_order).map_err(to_py)?;
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(kind, lowercase),
                max_order,
                corpus_weights,
            })
        }

        /// NIST of each row, shape (n,), and of the summed rows.
        fn scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<(Bound<'py, PyArray1<f64>>, f64)> {
            let (n, w) = (self.max_order, nist::width(self.max_order));
            let rows = stats_slice(&stats, w)?;
            let each: Vec<f64> = rows.chunks_exact(w).map(|r| nist::score(n, r)).collect();
            let total = nist::score(n, &bleu::sum_rows(rows, w));
            Ok((PyArray1::from_vec(py, each), total))
        }
    }
}

/// The native half of `mtalign.Wer` and `mtalign.Per`: `[errors, ref_len]` rows.
#[pyclass(frozen, module = "mtalign._mtalign")]
struct ErrorRateCore {
    tokenizer: Tokenizer,
    kind: error_rate::ErrorRate,
}

impl BatchScorer for ErrorRateCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        vec![2]
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        |s: &Sentences, h: &[u32], r: &RefSets| error_rate::stats_batch(self.kind, s, h, r)
    }
}

batch_pymethods! {
    impl ErrorRateCore {
        #[new]
        #[pyo3(signature = (kind, tokenize, lowercase))]
        fn new(kind: &str, tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let kind = error_rate::ErrorRate::parse(kind).map_err(to_py)?;
            let tk = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(tk, lowercase),
                kind,
            })
        }
    }
}

/// The native half of `mtalign.Ribes`.
#[pyclass(frozen, module = "mtalign._mtalign")]
struct RibesCore {
    tokenizer: Tokenizer,
    config: ribes::RibesConfig,
}

impl BatchScorer for RibesCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        Vec::new()
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        |s: &Sentences, h: &[u32], r: &RefSets| ribes::score_batch(&self.config, s, h, r)
    }
}

batch_pymethods! {
    impl RibesCore {
        #[new]
        #[pyo3(signature = (alpha, beta, tokenize, lowercase))]
        fn new(alpha: f64, beta: f64, tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let config = ribes::RibesConfig::new(alpha, beta).map_err(to_py)?;
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(kind, lowercase),
                config,
            })
        }
    }
}

/// Word-level Levenshtein distance (bit-parallel; the WER kernel).
#[pyfunction]
#[pyo3(name = "edit_distance")]
fn edit_distance_py(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    mtalign_core::edit_distance::distance(&a, &b)
}

fn add_issue4(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BleuCore>()?;
    m.add_class::<NistCore>()?;
    m.add_class::<ErrorRateCore>()?;
    m.add_class::<RibesCore>()?;
    m.add_function(wrap_pyfunction!(edit_distance_py, m)?)?;
    Ok(())
}
