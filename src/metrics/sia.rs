//! Bindings of SIA's own objects: translation tables (read or trained by IBM-1), word
//! similarity tables, and `explain` (SIA's rounds of one hypothesis). The SIA scorer itself
//! is in the list of native metrics. Thin: conversion, GIL release, error mapping.

use crate::convert::{items, type_name};
use crate::enter::run_detached;
use crate::errors::{input_err, to_py, ConfigError};
use mtalign_core::metrics::contract::Configured;
use mtalign_core::metrics::sia::ibm1;
use mtalign_core::metrics::sia::lexfile::{self, Entry};
use mtalign_core::metrics::sia::similarity::WordSimilarity;
use mtalign_core::metrics::sia::{self, SiaMetric};
use mtalign_core::text::intern::encode_tokens;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::sync::{Arc, Mutex};

fn read_utf8(path: &str) -> PyResult<String> {
    let bytes = std::fs::read(path).map_err(|e| input_err(format!("cannot read {path}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        input_err(format!(
            "{path}: not valid UTF-8 (byte offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A lexical translation table: (e, f, p(e|f)) entries, read from a file or trained.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub struct TranslationTableCore {
    entries: Arc<Vec<Entry>>,
}

#[pymethods]
impl TranslationTableCore {
    /// Reads `path` in `format` (tsv, fast_align, moses, giza; giza needs both .vcb files).
    #[staticmethod]
    #[pyo3(signature = (path, format, src_vcb=None, tgt_vcb=None))]
    fn read(
        py: Python<'_>,
        path: &str,
        format: &str,
        src_vcb: Option<&str>,
        tgt_vcb: Option<&str>,
    ) -> PyResult<Self> {
        if format != "giza" && (src_vcb.is_some() || tgt_vcb.is_some()) {
            return Err(ConfigError::new_err(
                "src_vcb/tgt_vcb apply to format='giza' only",
            ));
        }
        let text = read_utf8(path)?;
        let entries = match format {
            "tsv" => run_detached(py, None, || lexfile::parse_tsv(&text, path)),
            "fast_align" => run_detached(py, None, || lexfile::parse_fast_align(&text, path)),
            "moses" => run_detached(py, None, || lexfile::parse_moses(&text, path)),
            "giza" => {
                let (Some(sv), Some(tv)) = (src_vcb, tgt_vcb) else {
                    return Err(ConfigError::new_err(
                        "format='giza' needs src_vcb and tgt_vcb (the .vcb files of the run)",
                    ));
                };
                let svt = read_utf8(sv)?;
                let tvt = read_utf8(tv)?;
                run_detached(py, None, || {
                    let s = lexfile::parse_vcb(&svt, sv)?;
                    let t = lexfile::parse_vcb(&tvt, tv)?;
                    lexfile::parse_giza(&text, path, &s, &t)
                })
            }
            _ => {
                return Err(ConfigError::new_err(format!(
                    "unknown format {format:?} (choose from: {})",
                    lexfile::FORMATS.join(", ")
                )))
            }
        }?;
        Ok(Self {
            entries: Arc::new(entries),
        })
    }

    /// Trains IBM Model 1 on aligned texts (source = pivot language f, target = e).
    #[staticmethod]
    #[pyo3(signature = (src, tgt, iterations, src_tokenize, tgt_tokenize, lowercase, min_prob,
                        threads=None, progress=None))]
    #[allow(clippy::too_many_arguments)]
    fn train(
        py: Python<'_>,
        src: Vec<String>,
        tgt: Vec<String>,
        iterations: usize,
        src_tokenize: &str,
        tgt_tokenize: &str,
        lowercase: bool,
        min_prob: f64,
        threads: Option<usize>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        if iterations == 0 {
            return Err(ConfigError::new_err("iterations must be >= 1"));
        }
        if !(min_prob.is_finite() && min_prob >= 0.0) {
            return Err(ConfigError::new_err(format!(
                "min_prob must be a finite number >= 0 (got {min_prob})"
            )));
        }
        let st = Tokenizer::new(
            TokenizerKind::parse(src_tokenize).map_err(to_py)?,
            lowercase,
        );
        let tt = Tokenizer::new(
            TokenizerKind::parse(tgt_tokenize).map_err(to_py)?,
            lowercase,
        );
        let failure: Mutex<Option<PyErr>> = Mutex::new(None);
        let result = run_detached(py, threads, || {
            ibm1::train_texts(&src, &tgt, &st, &tt, iterations, min_prob, |it, ll| {
                let Some(cb) = &progress else { return true };
                Python::attach(|py| match cb.call1(py, (it, iterations, ll)) {
                    Ok(_) => true,
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        false
                    }
                })
            })
        });
        if let Some(e) = failure.lock().unwrap_or_else(|p| p.into_inner()).take() {
            return Err(e);
        }
        Ok(Self {
            entries: Arc::new(result?),
        })
    }

    /// p(e|f), 0 for an absent pair.
    fn prob(&self, e: &str, f: &str) -> f64 {
        self.entries
            .iter()
            .find(|x| x.0 == e && x.1 == f)
            .map_or(0.0, |x| x.2)
    }

    fn entries(&self) -> Vec<(String, String, f64)> {
        self.entries.as_ref().clone()
    }

    /// A table of the given (e, f, p(e|f)) entries, as [`Self::entries`] returns them (for
    /// pickling and copying).
    #[staticmethod]
    fn from_entries(entries: Vec<(String, String, f64)>) -> PyResult<Self> {
        if let Some((k, e)) = entries
            .iter()
            .enumerate()
            .find(|(_, e)| !(e.2.is_finite() && e.2 >= 0.0))
        {
            return Err(input_err(format!(
                "entries[{k}] has probability {} (must be a finite number >= 0)",
                e.2
            )));
        }
        Ok(Self {
            entries: Arc::new(entries),
        })
    }

    fn __len__(&self) -> usize {
        self.entries.len()
    }
}

/// The native half of `mtalign.WordSimilarity`.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub struct WordSimilarityCore {
    pub(crate) table: Arc<WordSimilarity>,
}

#[pymethods]
impl WordSimilarityCore {
    #[staticmethod]
    fn from_pairs(pairs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut triples: Vec<(String, String, f64)> = Vec::new();
        for (k, item) in items(pairs, "pairs")?.iter().enumerate() {
            let t: (String, String, f64) = item.extract().map_err(|_| {
                input_err(format!(
                    "pairs[{k}] must be a (mt_word, ref_word, value) tuple (got {})",
                    type_name(item)
                ))
            })?;
            triples.push(t);
        }
        let table = WordSimilarity::from_pairs(&triples).map_err(to_py)?;
        Ok(Self {
            table: Arc::new(table),
        })
    }

    #[staticmethod]
    #[pyo3(signature = (table, top, min_prob, threads=None))]
    fn from_translation_table(
        py: Python<'_>,
        table: &TranslationTableCore,
        top: usize,
        min_prob: f64,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        let entries = table.entries.clone();
        let sim = run_detached(py, threads, || {
            WordSimilarity::from_translation_table(&entries, top, min_prob)
        })?;
        Ok(Self {
            table: Arc::new(sim),
        })
    }

    #[staticmethod]
    fn load(py: Python<'_>, path: &str) -> PyResult<Self> {
        let text = read_utf8(path)?;
        let table = run_detached(py, None, || WordSimilarity::from_text(&text, path))?;
        Ok(Self {
            table: Arc::new(table),
        })
    }

    #[staticmethod]
    fn from_text(text: &str) -> PyResult<Self> {
        let table = WordSimilarity::from_text(text, "<text>").map_err(to_py)?;
        Ok(Self {
            table: Arc::new(table),
        })
    }

    fn to_text(&self, py: Python<'_>) -> PyResult<String> {
        let t = self.table.clone();
        run_detached(py, None, move || Ok(t.to_text()))
    }

    fn save(&self, py: Python<'_>, path: &str) -> PyResult<()> {
        let text = self.to_text(py)?;
        std::fs::write(path, text).map_err(|e| input_err(format!("cannot write {path}: {e}")))
    }

    fn lookup(&self, mt_word: &str, ref_word: &str) -> f64 {
        self.table.lookup(mt_word, ref_word)
    }

    fn neighbors(&self, word: &str) -> Vec<(String, f64)> {
        self.table
            .neighbors(word)
            .into_iter()
            .map(|(w, v)| (w.to_string(), v))
            .collect()
    }

    fn n_words(&self) -> usize {
        self.table.len()
    }

    fn n_entries(&self) -> usize {
        self.table.n_entries()
    }

    fn same_as(&self, other: &WordSimilarityCore) -> bool {
        Arc::ptr_eq(&self.table, &other.table) || self.table.to_text() == other.table.to_text()
    }
}

/// One round for Python: (reference index, score, weight, [(mt position, ref position)] 0-based).
type PyRound = (usize, f64, f64, Vec<(u32, u32)>);
/// explain(): score, before LP, LP, first-round raw per reference, rounds, mt tokens, ref tokens.
pub(crate) type Explained = (
    f64,
    f64,
    f64,
    Vec<f64>,
    Vec<PyRound>,
    Vec<String>,
    Vec<Vec<String>>,
);

/// SIA's rounds of one hypothesis (`NativeMetric.explain`): `hyp` a str or token list,
/// `refs` a list of the same kind. `naive` uses the O(M²N²) programme (tests).
pub(crate) fn explain(
    sia: &Configured<SiaMetric>,
    hyp: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
    naive: bool,
) -> PyResult<Explained> {
    let (tokenizer, metric) = (sia.encoder.tokenizer, &sia.metric);
    let tokens = |obj: &Bound<'_, PyAny>, what: &str| -> PyResult<Vec<String>> {
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(tokenizer.tokenize(s.to_str()?));
        }
        if obj.cast::<PyList>().is_ok() || obj.cast::<PyTuple>().is_ok() {
            return items(obj, what)?
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    t.extract::<String>()
                        .map_err(|_| input_err(format!("{what}[{k}] is not a str")))
                })
                .collect();
        }
        Err(input_err(format!(
            "{what} must be a str or a list of str tokens (got {})",
            type_name(obj)
        )))
    };
    let mt = tokens(hyp, "hyp")?;
    let ref_items = items(refs, "refs")?;
    if ref_items.is_empty() {
        return Err(input_err(
            "refs is empty: SIA needs at least one reference".into(),
        ));
    }
    let rs: Vec<Vec<String>> = ref_items
        .iter()
        .enumerate()
        .map(|(k, r)| tokens(r, &format!("refs[{k}]")))
        .collect::<PyResult<_>>()?;
    let mut all = vec![mt.clone()];
    all.extend(rs.iter().cloned());
    let sentences = match &metric.table {
        Some(t) => t.encode_tokens(&all),
        None => encode_tokens(&all).sentences,
    };
    let ref_ids: Vec<&[u32]> = (1..all.len()).map(|k| sentences.get(k)).collect();
    if let Some(max_words) = metric.max_words {
        sia::check_pair_size(max_words, sentences.get(0), &ref_ids, "hyp", |k| {
            format!("refs[{k}]")
        })
        .map_err(to_py)?;
    }
    let (fast, config) = (!naive, &metric.config);
    let d = match &metric.table {
        None => sia::try_sia_detail(sentences.get(0), &ref_ids, sia::exact, config, fast),
        Some(t) => {
            sia::try_sia_detail(sentences.get(0), &ref_ids, |a, b| t.get(a, b), config, fast)
        }
    }
    .map_err(to_py)?;
    let rounds = d
        .rounds
        .into_iter()
        .map(|r| {
            let pairs = r.pairs.iter().map(|&(i, j)| (i - 1, j - 1)).collect();
            (r.reference, r.score, r.weight, pairs)
        })
        .collect();
    Ok((
        d.score,
        d.before_length_penalty,
        d.length_penalty,
        d.first_round_raw,
        rounds,
        mt,
        rs,
    ))
}
