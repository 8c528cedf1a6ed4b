//! `BleuCore`, the native half of `mtalign.Bleu`.

use crate::batch::BatchScorer;
use crate::convert::stats_slice;
use crate::errors::to_py;
use crate::methods::{batch_pymethods, RowScores};
use mtalign_core::metrics::bleu;
use mtalign_core::text::docs::Docs;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use numpy::PyReadonlyArray2;
use pyo3::prelude::*;

/// The native half of `mtalign.Bleu`: statistics rows and scores from them.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct BleuCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: bleu::BleuConfig,
}

/// Corpus BLEU figures: score, bp, precisions, sys_len, ref_len, counts, totals.
pub(crate) type BleuCorpus = (f64, f64, Vec<f64>, f64, f64, Vec<f64>, Vec<f64>);

impl BatchScorer for BleuCore {
    type Core = bleu::BleuConfig;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![self.config.width()]
    }
    fn core(&self) -> &bleu::BleuConfig {
        &self.config
    }
    fn cell_score(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        Some(Box::new(|row| bleu::sentence_score(&self.config, row)))
    }
    /// One pair's BLEU is the corpus BLEU of its row: (that score, the row). The other
    /// figures are made from the row when the result is first asked for them (`corpus`):
    /// converting them here costs a sentence_score call more than scoring.
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        let score = bleu::score(&self.config, &row).score;
        Ok((score, row).into_pyobject(py)?.into_any())
    }
}

impl RowScores for BleuCore {
    fn width(&self) -> usize {
        self.config.width()
    }
    fn row_score(&self, row: &[f64]) -> f64 {
        bleu::sentence_score(&self.config, row)
    }
    fn aggregate_rows(&self, docs: &Docs<'_>, h: &[u32], s: &[u32], w: &[f64]) -> Vec<f64> {
        bleu::aggregate_rows(&self.config, docs, h, s, w)
    }
}

batch_pymethods! {
    impl BleuCore with rows {
        #[new]
        #[pyo3(signature = (max_order, smooth, smooth_value, ref_length, effective_order, tokenize, lowercase))]
        fn new(
            max_order: usize,
            smooth: &str,
            smooth_value: Option<f64>,
            ref_length: &str,
            effective_order: bool,
            tokenize: &str,
            lowercase: bool,
        ) -> PyResult<Self> {
            let config =
                bleu::BleuConfig::new(max_order, smooth, smooth_value, ref_length, effective_order)
                    .map_err(to_py)?;
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self {
                tokenizer,
                config,
            })
        }

        /// Columns of a statistics row.
        #[getter]
        fn width(&self) -> usize {
            self.config.width()
        }

        /// Corpus BLEU of the summed rows.
        fn corpus(&self, stats: PyReadonlyArray2<'_, f64>) -> PyResult<BleuCorpus> {
            let w = self.config.width();
            let total = bleu::sum_rows(stats_slice(&stats, w)?, w);
            Ok(self.figures(&total))
        }
    }
}

impl BleuCore {
    /// The corpus figures of a (summed) statistics row.
    fn figures(&self, total: &[f64]) -> BleuCorpus {
        let d = bleu::score(&self.config, total);
        let (k, n) = (self.config.orders(), self.config.max_order);
        (
            d.score,
            d.bp,
            d.precisions,
            d.sys_len,
            d.ref_len,
            total[2..2 + n].to_vec(),
            total[2 + k..2 + k + n].to_vec(),
        )
    }
}
