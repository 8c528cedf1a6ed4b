//! The Python methods every native metric shares, written once: `batch_pymethods!` adds the
//! batch methods ([`crate::batch`]) and ORANGE's ([`crate::ranking`]) to a
//! [`crate::batch::BatchScorer`]'s own. Apart from both, so that neither imports the other.

/// `#[pymethods]` for a [`crate::batch::BatchScorer`]: the class's own methods plus `score_texts(hyps,
/// refs, threads=None)` and `score_tokens(hyps, refs, threads=None)`, each returning
/// (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
macro_rules! batch_pymethods {
    (impl $ty:ident { $($methods:tt)* }) => {
        #[pymethods]
        impl $ty {
            $($methods)*

            /// Scores text input (tokenized here: chunk by chunk for pair-local metrics,
            /// else each distinct text once).
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
                let chunked = crate::batch::chunked_kernel(crate::batch::BatchScorer::core(self));
                crate::batch::score_text_batch(py, encoder, hyps, refs, threads, &shape, crate::batch::kernel(crate::batch::BatchScorer::core(self)), chunked.as_ref())
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
                crate::batch::score_token_batch(py, encoder, hyps, refs, threads, &shape, crate::batch::kernel(crate::batch::BatchScorer::core(self)))
            }

            /// Every text hypothesis against every text pseudo-reference (`refs=None`: the
            /// hypotheses against themselves, each unordered pair scored once where the
            /// metric is symmetric): (scores shaped `[n, m, *shape]`, vanished hypotheses,
            /// vanished references).
            /// `scalar=k`: one number per cell (scalar k), shape `[n, m]`, where the metric
            /// computes it natively (else rows, as without it).
            #[pyo3(signature = (hyps, refs=None, threads=None, scalar=None))]
            fn score_matrix<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyps: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: Option<&pyo3::Bound<'py, pyo3::PyAny>>,
                threads: Option<usize>,
                scalar: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BatchOut<'py>> {
                let shape = crate::batch::BatchScorer::shape(self);
                let encoder = crate::batch::BatchScorer::encoder(self);
                let cell = scalar.and_then(|k| crate::batch::BatchScorer::cell_score(self, k));
                crate::batch::score_text_matrix(py, encoder, hyps, refs, threads, &shape, crate::batch::BatchScorer::core(self), cell)
            }

            /// One matrix per block, `blocks[b] = (hyps, refs)` (`refs` None: symmetric),
            /// every distinct text of every block encoded once: (list of score arrays shaped
            /// `[n_b, m_b, *shape]`, vanished hypotheses (b, i), vanished references
            /// (b, j, k)).
            #[pyo3(signature = (blocks, threads=None, scalar=None))]
            fn score_matrices<'py>(
                &self,
                py: pyo3::Python<'py>,
                blocks: &pyo3::Bound<'py, pyo3::PyAny>,
                threads: Option<usize>,
                scalar: Option<usize>,
            ) -> pyo3::PyResult<crate::batch::BlocksOut<'py>> {
                let shape = crate::batch::BatchScorer::shape(self);
                let encoder = crate::batch::BatchScorer::encoder(self);
                let cell = scalar.and_then(|k| crate::batch::BatchScorer::cell_score(self, k));
                crate::batch::score_text_matrices(py, encoder, blocks, threads, &shape, crate::batch::BatchScorer::core(self), cell)
            }

            /// ORANGE's scores with scalar `scalar`: `candidates[i]` and `refs[i]` are lists of
            /// str; returns (flat candidate scores, each the mean over the leave-one-out
            /// reference sets; flat reference scores, each against the other references), or
            /// None when the scalar is not computed natively. `group_cells` bounds the cells
            /// scored at once (memory only; never a result).
            #[pyo3(signature = (candidates, refs, threads=None, scalar=0, group_cells=None))]
            fn orange_scores<'py>(
                &self,
                py: pyo3::Python<'py>,
                candidates: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
                threads: Option<usize>,
                scalar: usize,
                group_cells: Option<usize>,
            ) -> pyo3::PyResult<crate::ranking::OrangeOut<'py>> {
                crate::ranking::orange_text_scores(py, self, candidates, refs, threads, scalar, group_cells)
            }

            /// ORANGE's scores of `texts` (an `OrangeTexts`: lists read once, encoded once
            /// per encoder) with each scalar of `scalars`: one (flat candidate scores, flat
            /// reference scores) per scalar, as `orange_scores`, or None when one of them is
            /// not computed natively.
            #[pyo3(signature = (texts, scalars, threads=None, group_cells=None))]
            fn orange_scores_of<'py>(
                &self,
                py: pyo3::Python<'py>,
                texts: &pyo3::Bound<'py, crate::ranking::OrangeTexts>,
                scalars: Vec<usize>,
                threads: Option<usize>,
                group_cells: Option<usize>,
            ) -> pyo3::PyResult<crate::ranking::OrangeManyOut<'py>> {
                crate::ranking::orange_many_scores(py, self, texts.get(), threads, &scalars, group_cells)
            }

            /// What `score_one` returns for the statistics row `row` (a list of floats):
            /// the row itself unless the metric makes its result from other figures.
            fn result_of_row<'py>(
                &self,
                py: pyo3::Python<'py>,
                row: Vec<f64>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                let width: usize = crate::batch::BatchScorer::shape(self).iter().product();
                if row.len() != width {
                    return Err(crate::errors::input_err(format!(
                        "a statistics row has {width} values (got {})",
                        row.len()
                    )));
                }
                crate::batch::BatchScorer::one_result(self, py, row)
            }

            /// Scores one text pair: `hyp` a str, `refs` a str or a list of str. Returns
            /// (the flat row, or what the metric's `one_result` makes of it; vanished
            /// hypothesis, vanished references) like `score_texts`, with None in place of
            /// an empty list.
            fn score_one<'py>(
                &self,
                py: pyo3::Python<'py>,
                hyp: &pyo3::Bound<'py, pyo3::PyAny>,
                refs: &pyo3::Bound<'py, pyo3::PyAny>,
            ) -> pyo3::PyResult<crate::batch::OneOut<'py>> {
                let encoder = crate::batch::BatchScorer::encoder(self);
                let vocab = crate::batch::BatchScorer::one_pair_vocab(self);
                let core = crate::batch::BatchScorer::core(self);
                let (row, hyp_vanished, ref_vanished) =
                    crate::batch::score_one_pair(py, encoder, vocab, hyp, refs, core)?;
                let row = crate::batch::BatchScorer::one_result(self, py, row)?;
                Ok((row, hyp_vanished, ref_vanished))
            }
        }
    };
}
pub(crate) use batch_pymethods;
