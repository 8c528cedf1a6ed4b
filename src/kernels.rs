//! Tokenizers, stemmers and the bare kernels over integer sequences (`mtalign.kernels`).

use crate::convert::{counts_tuple, dense_ids};
use crate::errors::{to_py, ConfigError};
use mtalign_core::kernels::{edit_distance, lcs, ngram, skip_bigram, wlcs};
use mtalign_core::metrics::dcs;
use mtalign_core::pool;
use mtalign_core::text::stem::Stemmer;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use pyo3::prelude::*;

/// Tokenizes one text (exposed as `mtalign.tokenize`).
#[pyfunction]
#[pyo3(signature = (text, tokenize="unicode", lowercase=true))]
pub(crate) fn tokenize(text: &str, tokenize: &str, lowercase: bool) -> PyResult<Vec<String>> {
    let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
    Ok(Tokenizer::new(kind, lowercase).tokenize(text))
}

/// Stems words as a ROUGE profile does (exposed as `mtalign.stem`): words of 3 characters or
/// fewer are returned unchanged.
#[pyfunction]
#[pyo3(name = "stem", signature = (words, stemmer="nltk_porter"))]
pub(crate) fn stem_py(words: Vec<String>, stemmer: &str) -> PyResult<Vec<String>> {
    let stemmer = Stemmer::parse(stemmer).map_err(to_py)?;
    Ok(words.iter().map(|w| stemmer.stem(w)).collect())
}

/// LCS length, bit-parallel.
#[pyfunction]
pub(crate) fn lcs_length(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    lcs::lcs_length(&a, &b)
}

/// LCS length by the O(mn) dynamic programme (the test oracle).
#[pyfunction]
pub(crate) fn lcs_length_dp(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    lcs::lcs_length_dp(&a, &b)
}

/// Weighted LCS of reference `x` and candidate `y` with f(k) = k^weight.
#[pyfunction]
#[pyo3(name = "wlcs")]
pub(crate) fn wlcs_py(x: Vec<i64>, y: Vec<i64>, weight: f64) -> PyResult<f64> {
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
pub(crate) fn dcs_py(x: Vec<i64>, y: Vec<i64>) -> PyResult<(f64, f64, f64, f64)> {
    let (x, y) = dense_ids(&x, &y);
    if let Some(message) = dcs::check_pair_length("DCS of x and y", y.len(), x.len()) {
        return Err(crate::errors::input_err(message));
    }
    let [a, b, c, d] = dcs::dcs(&x, &y);
    Ok((a, b, c, d))
}

/// Clipped n-gram overlap: (hit, hypothesis n-grams, reference n-grams).
#[pyfunction]
pub(crate) fn ngram_overlap(
    hyp: Vec<i64>,
    reference: Vec<i64>,
    n: usize,
) -> PyResult<(u64, u64, u64)> {
    if n == 0 {
        return Err(ConfigError::new_err("n must be >= 1"));
    }
    let (h, r) = dense_ids(&hyp, &reference);
    Ok(counts_tuple(ngram::ngram_overlap(&h, &r, n)))
}

/// Skip-bigram overlap: (hit, hypothesis units, reference units).
#[pyfunction]
#[pyo3(signature = (hyp, reference, max_gap=None, unigrams=false))]
pub(crate) fn skip_bigram_overlap(
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
pub(crate) fn default_threads() -> PyResult<usize> {
    pool::default_threads().map_err(to_py)
}

/// Word-level Levenshtein distance (bit-parallel; the WER kernel).
#[pyfunction]
#[pyo3(name = "edit_distance")]
pub(crate) fn edit_distance_py(a: Vec<i64>, b: Vec<i64>) -> usize {
    let (a, b) = dense_ids(&a, &b);
    edit_distance::distance(&a, &b)
}

/// The stem METEOR's stem stage uses: nltk's `PorterStemmer().stem(word)`.
#[pyfunction]
fn meteor_stem(word: &str) -> String {
    mtalign_core::text::stem::nltk_porter::stem(&word.to_lowercase())
}

/// TER's edit script of word ids `hyp` against `ref_`: (shifts as (start, length, target,
/// words after), final words, operations as a str of ' ' (match), 's', 'i' (reference word
/// inserted), 'd' (hypothesis word deleted)).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn ter_explain_ids(
    hyp: Vec<u32>,
    ref_: Vec<u32>,
) -> (Vec<(usize, usize, usize, Vec<u32>)>, Vec<u32>, String) {
    use mtalign_core::metrics::ter;
    let e = ter::explain(&hyp, &ref_);
    let shifts = e
        .shifts
        .into_iter()
        .map(|s| (s.start, s.length, s.target, s.words))
        .collect();
    let ops = e
        .trace
        .iter()
        .map(|o| match o {
            ter::Op::Nop => ' ',
            ter::Op::Sub => 's',
            ter::Op::Ins => 'i',
            ter::Op::Del => 'd',
            ter::Op::Undef => 'x',
        })
        .collect();
    (shifts, e.words, ops)
}

/// Every kernel function, once, and the names of every named-choice option
/// (`CHOICES: dict[str, tuple[str, ...]]`, from the core's one declaration of each).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let choices = pyo3::types::PyDict::new(m.py());
    for (option, names) in mtalign_core::metrics::choices::CHOICES {
        choices.set_item(*option, pyo3::types::PyTuple::new(m.py(), names.iter())?)?;
    }
    m.add("CHOICES", choices)?;
    m.add_function(wrap_pyfunction!(dcs_py, m)?)?;
    m.add_function(wrap_pyfunction!(crate::enter::_detached_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(lcs_length, m)?)?;
    m.add_function(wrap_pyfunction!(lcs_length_dp, m)?)?;
    m.add_function(wrap_pyfunction!(wlcs_py, m)?)?;
    m.add_function(wrap_pyfunction!(ngram_overlap, m)?)?;
    m.add_function(wrap_pyfunction!(skip_bigram_overlap, m)?)?;
    m.add_function(wrap_pyfunction!(edit_distance_py, m)?)?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    m.add_function(wrap_pyfunction!(stem_py, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_stem, m)?)?;
    m.add_function(wrap_pyfunction!(ter_explain_ids, m)?)?;
    Ok(())
}
