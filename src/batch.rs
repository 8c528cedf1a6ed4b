//! The batch methods every native metric shares (`score_texts`, `score_tokens`), written
//! once: text or token input → ids → the metric's kernel → a NumPy array.

use crate::convert::{
    one_pair_items, pair_texts, read_text_batch, read_token_batch, to_array, TextBatch,
};
use crate::enter::{enter, is_small};
use crate::errors::to_py;
use mtalign_core::metrics::metric::{statistics_batch, with_scratch, Metric};
use mtalign_core::text::docs::Docs;
use mtalign_core::text::encoder::{EncodedTexts, Encoder};
use mtalign_core::text::refs::RefSets;
use mtalign_core::Error;
use pyo3::prelude::*;

/// What a batch returns: scores (n, variants, 3), vanished hypothesis indices, vanished
/// references as (i, j) positions.
pub(crate) type BatchOut<'py> = (Bound<'py, PyAny>, Vec<usize>, Vec<(usize, usize)>);

/// A native metric: how it encodes text, and the core [`Metric`] that scores the ids. Its
/// `score_texts` / `score_tokens` / `score_one` methods are written once, by
/// [`batch_pymethods!`].
pub(crate) trait BatchScorer: Sync {
    type Core: Metric;
    fn encoder(&self) -> Encoder;
    /// The shape of one hypothesis's row (`[]` for one number).
    fn shape(&self) -> Vec<usize>;
    fn core(&self) -> &Self::Core;
    fn kernel(&self) -> impl BatchKernel + '_ {
        |docs: &Docs<'_>, hyps: &[u32], refs: &RefSets| {
            statistics_batch(self.core(), docs, hyps, refs)
        }
    }
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
                let encoder = crate::batch::BatchScorer::encoder(self);
                crate::batch::score_text_batch(py, encoder, hyps, refs, threads, &shape, self.kernel())
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
                let encoder = crate::batch::BatchScorer::encoder(self);
                crate::batch::score_token_batch(py, encoder, hyps, refs, threads, &shape, self.kernel())
            }

            /// Scores one text pair: `hyp` a str, `refs` a str or a list of str. Returns
            /// (the flat row, vanished hypothesis, vanished references) like `score_texts`.
            fn score_one(
                &self,
                py: pyo3::Python<'_>,
                hyp: &pyo3::Bound<'_, pyo3::PyAny>,
                refs: &pyo3::Bound<'_, pyo3::PyAny>,
            ) -> pyo3::PyResult<crate::batch::OneOut> {
                let encoder = crate::batch::BatchScorer::encoder(self);
                crate::batch::score_one_pair(py, encoder, hyp, refs, self.kernel())
            }
        }
    };
}
pub(crate) use batch_pymethods;

/// A batch kernel: texts, the text index of each hypothesis, their reference sets →
/// row-major statistics.
pub(crate) trait BatchKernel:
    Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync
{
}
impl<F: Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync> BatchKernel for F {}

/// Text input → (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
pub(crate) fn score_text_batch<'py>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
) -> PyResult<BatchOut<'py>> {
    let batch = read_text_batch(hyps, refs)?;
    let small = is_small(batch.hyp_ids.len(), batch.texts.bytes());
    let (scores, vanished) = enter(py, threads, small, || {
        let texts: Vec<&str> = batch.texts.iter().collect();
        let encoded = encoder.encode_texts(&texts);
        let scores = kernel(&encoded.docs()?, &batch.hyp_ids, &batch.ref_sets)?;
        Ok((scores, encoded.vanished))
    })?;
    finish_text_batch(py, &batch, scores, vanished, shape)
}

/// What `score_one` returns: the row, vanished hypothesis (`[0]` or `[]`), vanished
/// references as (0, j).
pub(crate) type OneOut = (Vec<f64>, Vec<usize>, Vec<(usize, usize)>);

/// Buffers of the one-pair path, kept per thread.
#[derive(Default)]
struct OnePairScratch {
    encoded: EncodedTexts,
    buf: String,
    spans: Vec<(u32, u32)>,
}

/// One text pair, scored inline when short (no copy of the text, no pool, no array).
pub(crate) fn score_one_pair(
    py: Python<'_>,
    encoder: Encoder,
    hyp: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
    kernel: impl BatchKernel,
) -> PyResult<OneOut> {
    let items = one_pair_items(hyp, refs)?;
    let texts = pair_texts(&items)?;
    let bytes = texts.iter().map(|t| t.len()).sum();
    let mut sets = RefSets::new();
    sets.push(1..texts.len() as u32);
    let (row, vanished) = if is_small(1, bytes) {
        // No thread is used, so none is configured or checked; the encoding buffers are
        // this thread's, kept warm between calls.
        with_scratch(|s: &mut OnePairScratch| {
            let (encoded, buf, spans) = (&mut s.encoded, &mut s.buf, &mut s.spans);
            encoder.encode_texts_into(&texts, encoded, buf, spans);
            let row = kernel(&encoded.docs()?, &[0], &sets)?;
            Ok((row, encoded.vanished.clone()))
        })
        .map_err(to_py)?
    } else {
        // Long texts: copied out, so the GIL can be released while they are scored.
        let owned: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        enter(py, None, false, || {
            let encoded = encoder.encode_texts(&owned);
            let row = kernel(&encoded.docs()?, &[0], &sets)?;
            Ok((row, encoded.vanished))
        })?
    };
    let hyp_vanished = vanished.iter().filter(|&&k| k == 0).copied().collect();
    let ref_vanished = vanished
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| (0, k - 1))
        .collect();
    Ok((row, hyp_vanished, ref_vanished))
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
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
) -> PyResult<BatchOut<'py>> {
    let batch = read_token_batch(hyps, refs)?;
    let n = batch.n_hyps;
    let bytes = batch.sentences.iter().flatten().map(|t| t.len() + 1).sum();
    let scores = enter(py, threads, is_small(n, bytes), || {
        let encoded = encoder.encode_tokens(&batch.sentences);
        let hyp_ids: Vec<u32> = (0..n as u32).collect();
        kernel(&encoded.docs()?, &hyp_ids, &batch.ref_sets)
    })?;
    Ok((to_array(py, scores, n, shape)?, Vec::new(), Vec::new()))
}
