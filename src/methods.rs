//! The Python methods every native metric shares, written once: `batch_pymethods!` adds the
//! batch methods ([`crate::batch`]) and ORANGE's ([`crate::ranking`]) to a
//! [`BatchScorer`]'s own. Apart from both, so that neither imports the other. The macro only
//! declares the methods (PyO3 needs them spelled out in the class); each body is one call to
//! a function of this file.

use crate::batch::{self, BatchOut, BatchScorer, BlocksOut, OneOut};
use crate::convert::stats_slice;
use crate::errors::input_err;
use crate::ids;
use crate::ranking::{self, OrangeManyOut, OrangeOut, OrangeTexts};
use mtalign_core::text::docs::Docs;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A Python object as the methods take it.
pub(crate) type Obj<'py> = Bound<'py, PyAny>;

/// `#[pymethods]` for a [`BatchScorer`]: the class's own methods plus `score_texts`,
/// `score_tokens`, `score_ids`, `score_one_ids`, `score_matrix`, `score_matrices`, `orange_scores`, `orange_scores_of`,
/// `result_of_row` and `score_one` (see the functions of this file for what each does).
/// `impl Name with rows { ... }` adds `score_aggregate` and `sentence_scores` for a
/// [`RowScores`] metric.
macro_rules! batch_pymethods {
    (impl $ty:ident with rows { $($methods:tt)* }) => {
        crate::methods::batch_pymethods! {
            impl $ty {
                $($methods)*

                /// Reference aggregation: statistics rows of `hyps` against the weighted
                /// mean of the `samples`' n-gram counts (`weights`: probabilities; None =
                /// uniform), shape (n, width).
                #[pyo3(signature = (hyps, samples, weights=None, threads=None))]
                fn score_aggregate<'py>(
                    &self, py: pyo3::Python<'py>, hyps: &crate::methods::Obj<'py>,
                    samples: &crate::methods::Obj<'py>, weights: Option<Vec<f64>>,
                    threads: Option<usize>,
                ) -> pyo3::PyResult<crate::methods::Obj<'py>> {
                    crate::methods::score_aggregate(self, py, hyps, samples, weights, threads)
                }

                /// The sentence score of each statistics row, shape (n,).
                fn sentence_scores<'py>(
                    &self, py: pyo3::Python<'py>, stats: numpy::PyReadonlyArray2<'py, f64>,
                ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<f64>>> {
                    crate::methods::sentence_scores(self, py, stats)
                }
            }
        }
    };
    (impl $ty:ident { $($methods:tt)* }) => {
        #[pymethods]
        impl $ty {
            $($methods)*

            /// Scores text input (tokenized here: chunk by chunk for pair-local metrics,
            /// else each distinct text once).
            #[pyo3(signature = (hyps, refs, threads=None))]
            fn score_texts<'py>(
                &self, py: pyo3::Python<'py>, hyps: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>, threads: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                let input = crate::methods::Input::Texts;
                crate::methods::score_batch(self, py, input, hyps, refs, threads)
            }

            /// Scores pre-tokenized input (tokens verbatim).
            #[pyo3(signature = (hyps, refs, threads=None))]
            fn score_tokens<'py>(
                &self, py: pyo3::Python<'py>, hyps: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>, threads: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                let input = crate::methods::Input::Tokens;
                crate::methods::score_batch(self, py, input, hyps, refs, threads)
            }

            /// Scores token ids: `hyps` and `refs` each (ids, starts, lengths) as
            /// `mtalign.TokenIds` hands them over; `ref_ends` None: one reference per
            /// hypothesis, else set i is references `ref_ends[i-1]..ref_ends[i]`;
            /// `line_sep`: the id that separates lines (`rougeLsum`).
            #[pyo3(signature = (hyps, refs, ref_ends=None, threads=None, line_sep=None))]
            fn score_ids<'py>(
                &self, py: pyo3::Python<'py>, hyps: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>,
                ref_ends: Option<numpy::PyReadonlyArray1<'py, i64>>, threads: Option<usize>,
                line_sep: Option<i64>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                crate::methods::score_ids(self, py, hyps, refs, ref_ends, threads, line_sep)
            }

            /// Scores one pair of token ids: `hyp` a 1-D integer array, `refs` a list of
            /// them; returns what `score_one` returns for text (the row, or the metric's
            /// `one_result` of it).
            fn score_one_ids<'py>(
                &self, py: pyo3::Python<'py>, hyp: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>,
            ) -> pyo3::PyResult<crate::methods::Obj<'py>> {
                crate::methods::score_one_ids(self, py, hyp, refs)
            }

            /// Every text hypothesis against every text pseudo-reference (`refs=None`: the
            /// hypotheses against themselves, each unordered pair scored once where the
            /// metric is symmetric): (scores shaped `[n, m, *shape]`, vanished hypotheses,
            /// vanished references).
            /// `scalar=k`: one number per cell (scalar k), shape `[n, m]`, where the metric
            /// computes it natively (else rows, as without it).
            #[pyo3(signature = (hyps, refs=None, threads=None, scalar=None))]
            fn score_matrix<'py>(
                &self, py: pyo3::Python<'py>, hyps: &crate::methods::Obj<'py>,
                refs: Option<&crate::methods::Obj<'py>>, threads: Option<usize>,
                scalar: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                crate::methods::score_matrix(self, py, hyps, refs, threads, scalar)
            }

            /// One matrix per block, `blocks[b] = (hyps, refs)` (`refs` None: symmetric),
            /// every distinct text of every block encoded once: (list of score arrays shaped
            /// `[n_b, m_b, *shape]`, vanished hypotheses (b, i), vanished references
            /// (b, j, k)).
            #[pyo3(signature = (blocks, threads=None, scalar=None))]
            fn score_matrices<'py>(
                &self, py: pyo3::Python<'py>, blocks: &crate::methods::Obj<'py>,
                threads: Option<usize>, scalar: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BlocksOut<'py>> {
                crate::methods::score_matrices(self, py, blocks, threads, scalar)
            }

            /// ORANGE's scores with scalar `scalar`: `candidates[i]` and `refs[i]` are lists of
            /// str; returns (flat candidate scores, each the mean over the leave-one-out
            /// reference sets; flat reference scores, each against the other references), or
            /// None when the scalar is not computed natively. `group_cells` bounds the cells
            /// scored at once (memory only; never a result).
            #[pyo3(signature = (candidates, refs, threads=None, scalar=0, group_cells=None))]
            fn orange_scores<'py>(
                &self, py: pyo3::Python<'py>, candidates: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>, threads: Option<usize>, scalar: usize,
                group_cells: Option<usize>,
            ) -> pyo3::PyResult<crate::ranking::OrangeOut<'py>> {
                let (c, g) = (candidates, group_cells);
                crate::methods::orange_scores(self, py, c, refs, threads, scalar, g)
            }

            /// ORANGE's scores of `texts` (an `OrangeTexts`: lists read once, encoded once
            /// per encoder) with each scalar of `scalars`: one (flat candidate scores, flat
            /// reference scores) per scalar, as `orange_scores`, or None when one of them is
            /// not computed natively.
            #[pyo3(signature = (texts, scalars, threads=None, group_cells=None))]
            fn orange_scores_of<'py>(
                &self, py: pyo3::Python<'py>,
                texts: &pyo3::Bound<'py, crate::ranking::OrangeTexts>, scalars: Vec<usize>,
                threads: Option<usize>, group_cells: Option<usize>,
            ) -> pyo3::PyResult<crate::ranking::OrangeManyOut<'py>> {
                crate::methods::orange_scores_of(self, py, texts, &scalars, threads, group_cells)
            }

            /// Scalar `scalar` of each statistics row, computed natively as `score_matrix`
            /// computes a cell, shape (n,); None where the metric has no native row score.
            #[pyo3(signature = (stats, scalar=0))]
            fn row_scores<'py>(
                &self, py: pyo3::Python<'py>, stats: numpy::PyReadonlyArray2<'py, f64>,
                scalar: usize,
            ) -> pyo3::PyResult<Option<pyo3::Bound<'py, numpy::PyArray1<f64>>>> {
                crate::methods::row_scores(self, py, stats, scalar)
            }

            /// Scalar `scalar` of each hypothesis against a reference set from its rows
            /// against each member alone (`stats` shaped `[n, set size * width]`), shape
            /// (n,), bit-identical to scoring the set; None where the statistics do not
            /// allow it.
            #[pyo3(signature = (stats, scalar=0))]
            fn set_scores<'py>(
                &self, py: pyo3::Python<'py>, stats: numpy::PyReadonlyArray2<'py, f64>,
                scalar: usize,
            ) -> pyo3::PyResult<Option<pyo3::Bound<'py, numpy::PyArray1<f64>>>> {
                crate::methods::set_scores(self, py, stats, scalar)
            }

            /// What `score_one` returns for the statistics row `row` (a list of floats):
            /// the row itself unless the metric makes its result from other figures.
            fn result_of_row<'py>(
                &self, py: pyo3::Python<'py>, row: Vec<f64>,
            ) -> pyo3::PyResult<crate::methods::Obj<'py>> {
                crate::methods::result_of_row(self, py, row)
            }

            /// Scores one text pair: `hyp` a str, `refs` a str or a list of str. Returns
            /// (the flat row, or what the metric's `one_result` makes of it; vanished
            /// hypothesis, vanished references) like `score_texts`, with None in place of
            /// an empty list.
            fn score_one<'py>(
                &self, py: pyo3::Python<'py>, hyp: &crate::methods::Obj<'py>,
                refs: &crate::methods::Obj<'py>,
            ) -> pyo3::PyResult<crate::batch::OneOut<'py>> {
                crate::methods::score_one(self, py, hyp, refs)
            }
        }
    };
}
pub(crate) use batch_pymethods;

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
            let chunked = batch::chunked_kernel(s.core());
            batch::score_text_batch(
                py,
                encoder,
                hyps,
                refs,
                threads,
                &shape,
                kernel,
                chunked.as_ref(),
            )
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

/// A metric whose statistics rows have sentence scores of their own and a reference
/// aggregation for MBR (BLEU, chrF): `impl Name with rows` in [`batch_pymethods!`].
pub(crate) trait RowScores: BatchScorer {
    /// Columns of one statistics row.
    fn width(&self) -> usize;
    /// The sentence score of one row.
    fn row_score(&self, row: &[f64]) -> f64;
    /// Rows of `hyps` against the weighted mean of the `samples`' counts.
    fn aggregate_rows(
        &self,
        docs: &Docs<'_>,
        hyps: &[u32],
        samples: &[u32],
        weights: &[f64],
    ) -> Vec<f64>;
}

/// `score_aggregate`: reference aggregation rows, shape (n, width).
pub(crate) fn score_aggregate<'py, S: RowScores>(
    s: &S,
    py: Python<'py>,
    hyps: &Obj<'py>,
    samples: &Obj<'py>,
    weights: Option<Vec<f64>>,
    threads: Option<usize>,
) -> PyResult<Obj<'py>> {
    let rows = |docs: &Docs<'_>, h: &[u32], m: &[u32], w: &[f64]| s.aggregate_rows(docs, h, m, w);
    batch::score_text_aggregate(
        py,
        s.encoder(),
        hyps,
        samples,
        weights,
        threads,
        s.width(),
        rows,
    )
}

/// `sentence_scores`: the sentence score of each statistics row, shape (n,).
pub(crate) fn sentence_scores<'py, S: RowScores>(
    s: &S,
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let w = s.width();
    let rows = stats_slice(&stats, w)?;
    let scores: Vec<f64> = rows.chunks_exact(w).map(|r| s.row_score(r)).collect();
    Ok(PyArray1::from_vec(py, scores))
}
