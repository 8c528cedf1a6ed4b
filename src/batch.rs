//! The batch methods every native metric shares (`score_texts`, `score_tokens`), written
//! once: text or token input → ids → the metric's kernel → a NumPy array.

use crate::convert::{read_text_batch, read_token_batch, to_array, TextBatch};
use crate::enter::run_detached;
use mtalign_core::text::intern::{encode_texts, encode_tokens, Encoded, Sentences};
use mtalign_core::text::refs::RefSets;
use mtalign_core::text::tokenize::Tokenizer;
use mtalign_core::Error;
use pyo3::prelude::*;

/// What a batch returns: scores (n, variants, 3), vanished hypothesis indices, vanished
/// references as (i, j) positions.
pub(crate) type BatchOut<'py> = (Bound<'py, PyAny>, Vec<usize>, Vec<(usize, usize)>);

/// A native scorer whose whole work is one [`BatchKernel`] over interned sentences: its
/// `score_texts` / `score_tokens` methods are written once, by [`batch_pymethods!`].
pub(crate) trait BatchScorer {
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
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                threads: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                let shape = crate::batch::BatchScorer::shape(self);
                let tokenizer = crate::batch::BatchScorer::tokenizer(self);
                crate::batch::score_text_batch(py, tokenizer, hyps, refs, threads, &shape, self.kernel())
            }

            /// Scores pre-tokenized input (tokens verbatim).
            #[pyo3(signature = (hyps, refs, threads=None))]
            fn score_tokens<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                threads: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                let shape = crate::batch::BatchScorer::shape(self);
                crate::batch::score_token_batch(py, hyps, refs, threads, &shape, self.kernel())
            }
        }
    };
}
pub(crate) use batch_pymethods;

/// A batch kernel: sentences, the sentence index of each hypothesis, their reference sets →
/// a row-major score array.
pub(crate) trait BatchKernel:
    Fn(&Sentences, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync
{
}
impl<F: Fn(&Sentences, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync> BatchKernel for F {}

/// Text input → (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
pub(crate) fn score_text_batch<'py>(
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
pub(crate) fn finish_text_batch<'py>(
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
pub(crate) fn score_token_batch<'py>(
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
