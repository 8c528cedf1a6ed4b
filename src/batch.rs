//! The batch work every native metric shares (`score_texts`, `score_tokens`, matrices),
//! written once: text or token input → ids → the metric's kernel → a NumPy array. The Python
//! methods that call it are `NativeMetric`'s ([`crate::methods`]).

use crate::convert::{
    as_str, items, matrix_items, one_pair_items, pair_texts, read_token_batch, text_batch_items,
    to_array,
};
use crate::enter::{enter, is_small, INLINE_BYTES};
use crate::errors::{input_err, to_py};
use mtalign_core::metrics::matrix::{MatrixBlock, MATRIX_INLINE_CELLS};
use mtalign_core::metrics::metric::{statistics_batch, statistics_of_pair, with_scratch, Metric};
use mtalign_core::run::{self, BatchRows, Collected};
use mtalign_core::text::docs::Docs;
use mtalign_core::text::encoder::{EncodedTexts, Encoder, RefMemo};
use mtalign_core::text::intern::{StrTable, Vocab};
use mtalign_core::text::refs::RefSets;
use mtalign_core::Error;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// What a batch returns: scores (n, variants, 3), vanished hypothesis indices, vanished
/// references as (i, j) positions.
pub(crate) type BatchOut<'py> = (Bound<'py, PyAny>, Vec<usize>, Vec<(usize, usize)>);

/// A native metric: how it encodes text, and the core [`Metric`] that scores the ids. Its
/// `score_texts` / `score_tokens` / `score_one` methods are written once, by
/// `NativeMetric` ([`crate::methods`]).
pub(crate) trait BatchScorer: Sync {
    type Core: Metric;
    fn encoder(&self) -> Encoder;
    /// The shape of one hypothesis's row (`[]` for one number).
    fn shape(&self) -> Vec<usize>;
    fn core(&self) -> &Self::Core;
    /// The one number of scalar `k` (as Python's `scalar_names`) from a statistics row, when
    /// it is computed natively the same way Python computes it (matrices then return
    /// numbers, not rows). `None`: matrices return rows.
    fn cell_score(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }
    /// Scalar `k` against a reference set from the rows against each member alone
    /// (contiguous, `width` each), bit-identical to scoring the set, where the statistics
    /// allow it (ORANGE's leave-one-out sets are then built from single-reference rows).
    fn combine_single(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }
    /// Whether each pair's statistics are independent of the rest of the batch (the core
    /// metric needs no batch context, or needs none in this configuration).
    fn pairs_independent(&self) -> bool {
        !<Self::Core as Metric>::NEEDS_CONTEXT
    }
    /// What the one-pair call (`score_one`) returns in place of the row: the row itself (a
    /// list of floats) unless the metric's Python result is made from other figures of it,
    /// which then cost no second call (BLEU: its corpus figures).
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        Ok(row.into_pyobject(py)?.into_any())
    }
    /// The one-pair call keeps this thread's vocabulary between calls when the metric sees
    /// ids only through their equality (its words are then mostly found, not inserted).
    fn one_pair_vocab(&self) -> Vocab {
        if <Self::Core as Metric>::PAIR_LOCAL_IDS {
            Vocab::Warm
        } else {
            Vocab::Fresh
        }
    }
}

/// The batch kernel of a native metric: its core's rows by the one batch runner (the
/// one-pair call, `score_one_pair`, is the same runner's batch of one).
pub(crate) fn kernel<M: Metric>(metric: &M) -> impl BatchKernel + '_ {
    |docs: &Docs<'_>, hyps: &[u32], refs: &RefSets| statistics_batch(metric, docs, hyps, refs)
}

/// A statistics row → one number.
pub(crate) type CellScore<'a> = Box<dyn Fn(&[f64]) -> f64 + Sync + 'a>;

/// A batch kernel: texts, the text index of each hypothesis, their reference sets →
/// row-major statistics.
pub(crate) trait BatchKernel:
    Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync
{
}
impl<F: Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync> BatchKernel for F {}

/// Text input → (scores shaped `[n, *shape]`, vanished hypotheses, vanished references):
/// the texts collected here in one pass under the GIL, everything else by `rows` (the core's
/// batch policy, [`mtalign_core::run`]) with the GIL released.
pub(crate) fn score_text_batch<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    rows: impl FnOnce(&Collected<'_>) -> Result<BatchRows, Error> + Send,
) -> PyResult<BatchOut<'py>> {
    let items = text_batch_items(hyps, refs)?;
    let batch = items.collect()?;
    let small = is_small(batch.len(), batch.bytes);
    let out = enter(py, threads, small, || rows(&batch))?;
    batch_out(py, out, batch.len(), shape)
}

/// The rows of [`score_text_batch`] for a native metric: by the core's policy.
pub(crate) fn text_rows<'a, M: Metric>(
    metric: &'a M,
    encoder: &'a Encoder,
) -> impl FnOnce(&Collected<'_>) -> Result<BatchRows, Error> + Send + 'a {
    move |batch| run::texts(metric, encoder, batch)
}

/// Rows and vanished places → what a batch method returns.
pub(crate) fn batch_out<'py>(
    py: Python<'py>,
    out: BatchRows,
    n: usize,
    shape: &[usize],
) -> PyResult<BatchOut<'py>> {
    let array = to_array(py, out.rows, n, shape)?;
    Ok((array, out.hyp_vanished, out.ref_vanished))
}

/// Every hypothesis against every pseudo-reference (`refs[j]`: a str or a list of str used
/// together; `None`: the hypotheses themselves, symmetric): scores shaped `[n, m, *shape]`,
/// vanished hypotheses `i`, vanished references `(j, k)`. Each distinct text is encoded
/// once; the n·m pairs never exist, as Python objects or as a pair list.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_text_matrix<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    shape: &[usize],
    metric: &M,
    cell: Option<CellScore<'_>>,
) -> PyResult<BatchOut<'py>> {
    let items = matrix_items(hyps, refs.unwrap_or(hyps))?;
    let batch = items.collect()?;
    let (n, m) = (batch.len(), batch.ref_sets.len());
    let small = is_small_matrix(n * m, batch.bytes);
    let symmetric = refs.is_none();
    let out = enter(py, threads, small, || {
        run::matrix(metric, &encoder, &batch, symmetric, cell.as_deref())
    })?;
    let mut matrix_shape = vec![m];
    if cell.is_none() {
        matrix_shape.extend_from_slice(shape);
    }
    batch_out(py, out, n, &matrix_shape)
}

/// Reference aggregation: hypotheses (texts) against the weighted mean of the samples'
/// statistics (`weights`: probabilities, one per sample; None = uniform), by `rows` (the
/// metric's `aggregate_rows`): statistics shaped `[n, width]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_text_aggregate<'py>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    samples: &Bound<'py, PyAny>,
    weights: Option<Vec<f64>>,
    threads: Option<usize>,
    width: usize,
    rows: impl Fn(&Docs<'_>, &[u32], &[u32], &[f64]) -> Vec<f64> + Send + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let items = matrix_items(hyps, samples)?;
    let batch = items.collect()?;
    let n = batch.len();
    let small = is_small(n + batch.ref_sets.len(), batch.bytes);
    let scores = enter(py, threads, small, || {
        run::aggregate(&encoder, &batch, weights, rows)
    })?;
    to_array(py, scores, n, &[width])
}

/// Whether a matrix runs inline (see [`MATRIX_INLINE_CELLS`]).
pub(crate) fn is_small_matrix(cells: usize, bytes: usize) -> bool {
    cells <= MATRIX_INLINE_CELLS && bytes <= INLINE_BYTES
}

/// What `score_matrices` returns: one array per block, vanished hypotheses (b, i),
/// vanished references (b, j, k).
pub(crate) type BlocksOut<'py> = (
    Vec<Bound<'py, PyAny>>,
    Vec<(usize, usize)>,
    Vec<(usize, usize, usize)>,
);

/// Many matrices in one call (one per source sentence in MBR decoding): `blocks[b]` is a
/// pair (hyps, refs) with `refs` a list as in [`score_text_matrix`] or None (symmetric).
pub(crate) fn score_text_matrices<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    blocks: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    metric: &M,
    cell: Option<CellScore<'_>>,
) -> PyResult<BlocksOut<'py>> {
    let (texts, specs) = read_blocks(blocks)?;
    let cells: usize = specs.iter().map(|b| b.hyps.len() * b.cols.len()).sum();
    let small = is_small_matrix(cells, texts.bytes());
    let out = enter(py, threads, small, || {
        let all: Vec<&str> = texts.iter().collect();
        run::matrices(metric, &encoder, &all, &specs, cell.as_deref())
    })?;
    let shape: &[usize] = if cell.is_some() { &[] } else { shape };
    let mut arrays = Vec::with_capacity(specs.len());
    for (spec, rows) in specs.iter().zip(out.rows) {
        let mut matrix_shape = vec![spec.cols.len()];
        matrix_shape.extend_from_slice(shape);
        arrays.push(to_array(py, rows, spec.hyps.len(), &matrix_shape)?);
    }
    Ok((arrays, out.hyp_vanished, out.ref_vanished))
}

/// Reads `blocks` (a list of (hyps, refs or None)): the distinct texts, and per block its
/// hypotheses and columns as text indices.
fn read_blocks(blocks: &Bound<'_, PyAny>) -> PyResult<(StrTable, Vec<MatrixBlock>)> {
    let mut texts = StrTable::with_capacity(64);
    let mut specs = Vec::new();
    for (b, item) in items(blocks, "blocks")?.iter().enumerate() {
        let pair = items(item, &format!("blocks[{b}]"))?;
        if pair.len() != 2 {
            return Err(input_err(format!(
                "blocks[{b}] must be a pair (hyps, pseudo_refs or None) (got {} items)",
                pair.len()
            )));
        }
        let mut hyps = Vec::new();
        for (i, h) in items(&pair[0], &format!("blocks[{b}][0]"))?
            .iter()
            .enumerate()
        {
            hyps.push(
                texts
                    .intern(as_str(h, || format!("blocks[{b}]: hyps[{i}]"))?)
                    .0,
            );
        }
        if pair[1].is_none() {
            specs.push(MatrixBlock::symmetric(hyps));
            continue;
        }
        let mut cols = RefSets::new();
        for (j, r) in items(&pair[1], &format!("blocks[{b}][1]"))?
            .iter()
            .enumerate()
        {
            if r.cast::<PyString>().is_ok() {
                cols.push([texts
                    .intern(as_str(r, || format!("blocks[{b}]: pseudo_refs[{j}]"))?)
                    .0]);
                continue;
            }
            let alternatives = items(r, &format!("blocks[{b}]: pseudo_refs[{j}]"))?;
            if alternatives.is_empty() {
                return Err(input_err(format!("blocks[{b}]: pseudo_refs[{j}] is empty")));
            }
            let mut members = Vec::with_capacity(alternatives.len());
            for (k, alt) in alternatives.iter().enumerate() {
                members.push(
                    texts
                        .intern(as_str(alt, || {
                            format!("blocks[{b}]: pseudo_refs[{j}][{k}]")
                        })?)
                        .0,
                );
            }
            cols.push(members);
        }
        specs.push(MatrixBlock {
            hyps,
            cols,
            symmetric: false,
        });
    }
    Ok((texts, specs))
}

/// What `score_one` returns: the row (or the metric's `one_result` of it), vanished
/// hypothesis (`[0]`), vanished references as (0, j); each None when nothing vanished (the
/// usual call then makes no list).
pub(crate) type OneOut<'py> = (
    Bound<'py, PyAny>,
    Option<Vec<usize>>,
    Option<Vec<(usize, usize)>>,
);

/// Vanished hypothesis, vanished references of one pair (see [`OneOut`]).
type OneVanished = (Option<Vec<usize>>, Option<Vec<(usize, usize)>>);

/// The row of one pair, vanished hypothesis, vanished references (see [`OneOut`]).
type OneRow = (Vec<f64>, Option<Vec<usize>>, Option<Vec<(usize, usize)>>);

/// Buffers of the one-pair path, kept per thread.
#[derive(Default)]
struct OnePairScratch {
    encoded: EncodedTexts,
    buf: String,
    spans: Vec<(u32, u32)>,
    /// The previous call's references, kept with a warm vocabulary.
    memo: RefMemo,
    /// The one reference set: texts 1.. of the pair.
    ref_set: RefSets,
}

/// One text pair scored by `metric`, inline when short (no copy of the text, no pool, no
/// batch tables: `statistics_of_pair`): the batch of one of [`kernel`].
pub(crate) fn score_one_pair<M: Metric>(
    py: Python<'_>,
    encoder: Encoder,
    vocab: Vocab,
    hyp: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
    metric: &M,
) -> PyResult<OneRow> {
    let items = one_pair_items(hyp, refs)?;
    let texts = pair_texts(&items)?;
    let bytes = texts.iter().map(|t| t.len()).sum();
    if is_small(1, bytes) {
        // No thread is used, so none is configured or checked; the encoding buffers are
        // this thread's, kept warm between calls.
        return with_scratch(|s: &mut OnePairScratch| {
            let (encoded, buf, spans) = (&mut s.encoded, &mut s.buf, &mut s.spans);
            match vocab {
                Vocab::Warm => encoder.encode_pair_warm(&texts, encoded, buf, spans, &mut s.memo),
                Vocab::Fresh => encoder.encode_texts_into(&texts, encoded, buf, spans, vocab),
            }
            s.ref_set.clear();
            s.ref_set.push(1..texts.len() as u32);
            let mut row = vec![0.0; metric.width()];
            statistics_of_pair(metric, &encoded.docs()?, 0, &s.ref_set, &mut row)?;
            let (hyp_vanished, ref_vanished) = split_vanished(&encoded.vanished);
            Ok((row, hyp_vanished, ref_vanished))
        })
        .map_err(to_py);
    }
    // Long texts: copied out, so the GIL can be released while they are scored (and the
    // batch runner can be cancelled).
    let owned: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    let mut sets = RefSets::new();
    sets.push(1..texts.len() as u32);
    let (row, vanished) = enter(py, None, false, || {
        let encoded = encoder.encode_texts(&owned);
        let row = statistics_batch(metric, &encoded.docs()?, &[0], &sets)?;
        Ok((row, encoded.vanished))
    })?;
    let (hyp_vanished, ref_vanished) = split_vanished(&vanished);
    Ok((row, hyp_vanished, ref_vanished))
}

/// The vanished texts of a pair (0: the hypothesis, k: reference k - 1) as [`OneOut`] gives
/// them: None when nothing vanished (the usual call then makes no list).
fn split_vanished(vanished: &[usize]) -> OneVanished {
    if vanished.is_empty() {
        return (None, None);
    }
    let hyp: Vec<usize> = vanished.iter().filter(|&&k| k == 0).copied().collect();
    let refs: Vec<(usize, usize)> = vanished
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| (0, k - 1))
        .collect();
    (
        (!hyp.is_empty()).then_some(hyp),
        (!refs.is_empty()).then_some(refs),
    )
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
