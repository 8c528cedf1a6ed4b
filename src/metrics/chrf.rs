//! `ChrfCore`, the native half of `mtalign.Chrf`.

use crate::batch::BatchScorer;
use crate::convert::stats_slice;
use crate::errors::to_py;
use crate::methods::{batch_pymethods, RowScores};
use mtalign_core::metrics::chrf::ChrfConfig;
use mtalign_core::text::docs::Docs;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use numpy::PyReadonlyArray2;
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

impl RowScores for ChrfCore {
    fn width(&self) -> usize {
        self.config.width()
    }
    fn row_score(&self, row: &[f64]) -> f64 {
        self.config.score(row)
    }
    fn aggregate_rows(&self, docs: &Docs<'_>, h: &[u32], s: &[u32], w: &[f64]) -> Vec<f64> {
        mtalign_core::metrics::chrf::aggregate_rows(&self.config, docs, h, s, w)
    }
}

batch_pymethods! {
    impl ChrfCore with rows {
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
