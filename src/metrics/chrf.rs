//! `ChrfCore`, the native half of `mtalign.Chrf`.

use crate::batch::BatchScorer;
use crate::convert::stats_slice;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::chrf::ChrfConfig;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// The native half of `mtalign.Chrf`: statistics rows (texts read as code points) and the
/// scores of rows.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct ChrfCore {
    pub(crate) lowercase: bool,
    pub(crate) config: ChrfConfig,
}

impl BatchScorer for ChrfCore {
    type Core = ChrfConfig;
    fn encoder(&self) -> Encoder {
        Encoder::plain(Tokenizer::new(TokenizerKind::Codepoint, self.lowercase))
    }
    fn shape(&self) -> Vec<usize> {
        vec![self.config.width()]
    }
    fn core(&self) -> &ChrfConfig {
        &self.config
    }
    fn cell_score(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        Some(Box::new(|row| self.config.score(row)))
    }
}

batch_pymethods! {
    impl ChrfCore {
        #[new]
        #[pyo3(signature = (char_order, word_order, beta, lowercase, whitespace, eps_smoothing))]
        fn new(
            char_order: usize,
            word_order: usize,
            beta: f64,
            lowercase: bool,
            whitespace: bool,
            eps_smoothing: bool,
        ) -> PyResult<Self> {
            let config = ChrfConfig::new(char_order, word_order, beta, whitespace, eps_smoothing)
                .map_err(to_py)?;
            Ok(Self { lowercase, config })
        }

        /// Reference aggregation: statistics rows of `hyps` against the weighted mean of the
        /// `samples`' n-gram counts (`weights`: probabilities; None = uniform), shape
        /// (n, width).
        #[pyo3(signature = (hyps, samples, weights=None, threads=None))]
        fn score_aggregate<'py>(
            &self,
            py: Python<'py>,
            hyps: &Bound<'py, PyAny>,
            samples: &Bound<'py, PyAny>,
            weights: Option<Vec<f64>>,
            threads: Option<usize>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let config = &self.config;
            crate::batch::score_text_aggregate(
                py,
                BatchScorer::encoder(self),
                hyps,
                samples,
                weights,
                threads,
                config.width(),
                |docs, h, s, w| mtalign_core::metrics::chrf::aggregate_rows(config, docs, h, s, w),
            )
        }

        /// The score of each statistics row (sentence chrF), shape (n,).
        fn sentence_scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<Bound<'py, PyArray1<f64>>> {
            let w = self.config.width();
            let rows = stats_slice(&stats, w)?;
            let scores: Vec<f64> = rows.chunks_exact(w).map(|r| self.config.score(r)).collect();
            Ok(PyArray1::from_vec(py, scores))
        }

        /// Corpus chrF: the score of the summed rows.
        fn corpus(&self, stats: PyReadonlyArray2<'_, f64>) -> PyResult<f64> {
            let w = self.config.width();
            let mut total = vec![0.0; w];
            for row in stats_slice(&stats, w)?.chunks_exact(w) {
                total.iter_mut().zip(row).for_each(|(t, x)| *t += x);
            }
            Ok(self.config.score(&total))
        }
    }
}
