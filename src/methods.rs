//! The Python methods every native metric shares, written once as functions generic over
//! [`BatchScorer`]: `NativeMetric` ([`crate::metrics`]) calls them for whichever metric it
//! holds. Apart from [`crate::batch`] and [`crate::ranking`], so that neither imports the
//! other.

use crate::batch::{self, BatchOut, BatchScorer, BlocksOut, OneOut};
use crate::convert::stats_slice;
use crate::errors::input_err;
use crate::ids;
use crate::ranking::{self, OrangeManyOut, OrangeOut, OrangeTexts};
use mtalign_core::metrics::contract::{Configured, Contract};
use mtalign_core::text::docs::Docs;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A Python object as the methods take it.
pub(crate) type Obj<'py> = Bound<'py, PyAny>;

/// What a batch method reads: texts (tokenized here) or pre-tokenized lists.
pub(crate) enum Input {
    Texts,
    Tokens,
}

/// `score_texts` and `score_tokens`: a batch of `input`, by the paths of
/// [`batch::score_text_batch`] or [`batch::score_token_batch`].
pub(crate) fn score_batch<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    input: Input,
    hyps: &Obj<'py>,
    refs: &Obj<'py>,
    threads: Option<usize>,
) -> PyResult<BatchOut<'py>> {
    let (encoder, shape, kernel) = (s.encoder(), s.shape(), batch::kernel(s.core()));
    match input {
        Input::Texts => {
            let rows = batch::text_rows(s.core(), &encoder);
            batch::score_text_batch(py, hyps, refs, threads, &shape, rows)
        }
        Input::Tokens => batch::score_token_batch(py, encoder, hyps, refs, threads, &shape, kernel),
    }
}

/// `score_ids`: a batch of token ids ([`crate::ids`]).
pub(crate) fn score_ids<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    hyps: &Obj<'py>,
    refs: &Obj<'py>,
    ref_ends: Option<PyReadonlyArray1<'py, i64>>,
    threads: Option<usize>,
    line_sep: Option<i64>,
) -> PyResult<BatchOut<'py>> {
    let (encoder, shape) = (s.encoder(), s.shape());
    ids::score_id_batch(
        py,
        encoder,
        s.core(),
        hyps,
        refs,
        ref_ends,
        line_sep,
        threads,
        &shape,
    )
}

/// `score_ids_matrices`: symmetric matrices of token ids, one per group.
pub(crate) fn score_ids_matrices<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    hyps: &Obj<'py>,
    group_ends: PyReadonlyArray1<'py, i64>,
    threads: Option<usize>,
    scalar: Option<usize>,
    line_sep: Option<i64>,
) -> PyResult<Vec<Obj<'py>>> {
    let cell = scalar.and_then(|k| s.cell_score(k));
    let (encoder, shape) = (s.encoder(), s.shape());
    ids::score_id_matrices(
        py,
        encoder,
        s.core(),
        hyps,
        group_ends,
        line_sep,
        threads,
        &shape,
        cell,
    )
}

/// `score_one_ids`: one pair of token ids, as `score_one` returns a text pair's row.
pub(crate) fn score_one_ids<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    hyp: &Obj<'py>,
    refs: &Obj<'py>,
) -> PyResult<Obj<'py>> {
    let row = ids::score_one_ids(py, s.encoder(), s.core(), hyp, refs)?;
    s.one_result(py, row)
}

/// `score_matrix`: every hypothesis against every pseudo-reference.
pub(crate) fn score_matrix<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    hyps: &Obj<'py>,
    refs: Option<&Obj<'py>>,
    threads: Option<usize>,
    scalar: Option<usize>,
) -> PyResult<BatchOut<'py>> {
    let cell = scalar.and_then(|k| s.cell_score(k));
    batch::score_text_matrix(
        py,
        s.encoder(),
        hyps,
        refs,
        threads,
        &s.shape(),
        s.core(),
        cell,
    )
}

/// `score_matrices`: one matrix per block.
pub(crate) fn score_matrices<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    blocks: &Obj<'py>,
    threads: Option<usize>,
    scalar: Option<usize>,
) -> PyResult<BlocksOut<'py>> {
    let cell = scalar.and_then(|k| s.cell_score(k));
    batch::score_text_matrices(py, s.encoder(), blocks, threads, &s.shape(), s.core(), cell)
}

/// `orange_scores`: ORANGE's candidate and reference scores of one scalar.
pub(crate) fn orange_scores<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    candidates: &Obj<'py>,
    refs: &Obj<'py>,
    threads: Option<usize>,
    scalar: usize,
    group_cells: Option<usize>,
) -> PyResult<OrangeOut<'py>> {
    ranking::orange_text_scores(py, s, candidates, refs, threads, scalar, group_cells)
}

/// `orange_scores_of`: ORANGE's scores of texts read once, for several scalars.
pub(crate) fn orange_scores_of<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    texts: &Bound<'py, OrangeTexts>,
    scalars: &[usize],
    threads: Option<usize>,
    group_cells: Option<usize>,
) -> PyResult<OrangeManyOut<'py>> {
    ranking::orange_many_scores(py, s, texts.get(), threads, scalars, group_cells)
}

/// `row_scores`: [`BatchScorer::cell_score`] of each row, or None.
pub(crate) fn row_scores<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    k: usize,
) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
    let Some(cell) = s.cell_score(k) else {
        return Ok(None);
    };
    let w: usize = s.shape().iter().product();
    let rows = stats_slice(&stats, w)?;
    Ok(Some(PyArray1::from_vec(
        py,
        rows.chunks_exact(w).map(cell).collect(),
    )))
}

/// `set_scores`: [`BatchScorer::combine_single`] of each row of single-reference rows, or
/// None.
pub(crate) fn set_scores<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    k: usize,
) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
    let Some(combine) = s.combine_single(k) else {
        return Ok(None);
    };
    let w: usize = s.shape().iter().product();
    let (n, cols) = (stats.shape()[0], stats.shape()[1]);
    if cols == 0 {
        // Empty reference sets (or no rows): the metric's score of an empty set.
        return Ok(Some(PyArray1::from_vec(py, vec![combine(&[]); n])));
    }
    if cols % w != 0 {
        return Err(input_err(format!(
            "a row of single-reference statistics has a multiple of {w} values (got {cols})"
        )));
    }
    let rows = stats_slice(&stats, cols)?;
    Ok(Some(PyArray1::from_vec(
        py,
        rows.chunks_exact(cols).map(combine).collect(),
    )))
}

/// `result_of_row`: what `score_one` makes of a statistics row, the row's width checked.
pub(crate) fn result_of_row<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    row: Vec<f64>,
) -> PyResult<Obj<'py>> {
    let width: usize = s.shape().iter().product();
    if row.len() != width {
        return Err(input_err(format!(
            "a statistics row has {width} values (got {})",
            row.len()
        )));
    }
    s.one_result(py, row)
}

/// `score_one`: one text pair by the one-pair path.
pub(crate) fn score_one<'py, S: BatchScorer>(
    s: &S,
    py: Python<'py>,
    hyp: &Obj<'py>,
    refs: &Obj<'py>,
) -> PyResult<OneOut<'py>> {
    let (row, hyp_vanished, ref_vanished) =
        batch::score_one_pair(py, s.encoder(), s.one_pair_vocab(), hyp, refs, s.core())?;
    Ok((s.one_result(py, row)?, hyp_vanished, ref_vanished))
}

/// `score_aggregate`: reference aggregation rows, shape (n, width).
pub(crate) fn score_aggregate<'py, M: Contract>(
    s: &Configured<M>,
    py: Python<'py>,
    hyps: &Obj<'py>,
    samples: &Obj<'py>,
    weights: Option<Vec<f64>>,
    threads: Option<usize>,
) -> PyResult<Obj<'py>> {
    let rows =
        |docs: &Docs<'_>, h: &[u32], m: &[u32], w: &[f64]| s.metric.aggregate_rows(docs, h, m, w);
    batch::score_text_aggregate(
        py,
        s.encoder(),
        hyps,
        samples,
        weights,
        threads,
        s.shape().iter().product(),
        rows,
    )
}
