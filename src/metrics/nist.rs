//! `NistCore`, the native half of `mtalign.Nist`.

use crate::batch::BatchScorer;
use crate::convert::stats_slice;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::{bleu, nist};
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// The native half of `mtalign.Nist`: statistics rows with sentence or corpus weights.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct NistCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) nist: nist::Nist,
}

impl BatchScorer for NistCore {
    type Core = nist::Nist;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![nist::width(self.nist.max_order())]
    }
    fn core(&self) -> &nist::Nist {
        &self.nist
    }
    /// Sentence NIST weighs each pair by its own references.
    fn pairs_independent(&self) -> bool {
        !self.nist.corpus_weights()
    }
    /// Sentence NIST (each pair's own weights) only: corpus weights depend on the batch.
    fn cell_score(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        let n = self.nist.max_order();
        (!self.nist.corpus_weights())
            .then(|| -> crate::batch::CellScore<'_> { Box::new(move |row| nist::score(n, row)) })
    }
    /// One pair's (NIST, hypothesis length, mean reference length): the figures of its
    /// result (the corpus of one sentence), made from the row without NumPy.
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.nist.max_order();
        // Counts are whole numbers, so the sum is exact in any order.
        let ref_len = row[1..1 + n].iter().sum::<f64>() / n as f64;
        let figures = (nist::score(n, &row), row[0] as i64, ref_len);
        Ok(figures.into_pyobject(py)?.into_any())
    }
}

batch_pymethods! {
    impl NistCore {
        #[new]
        #[pyo3(signature = (max_order, corpus_weights, tokenize, lowercase))]
        fn new(
            max_order: usize,
            corpus_weights: bool,
            tokenize: &str,
            lowercase: bool,
        ) -> PyResult<Self> {
            let nist = nist::Nist::new(max_order, corpus_weights).map_err(to_py)?;
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self {
                tokenizer,
                nist,
            })
        }

        /// NIST of each row, shape (n,), and of the summed rows.
        fn scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<(Bound<'py, PyArray1<f64>>, f64)> {
            let n = self.nist.max_order();
            let w = nist::width(n);
            let rows = stats_slice(&stats, w)?;
            let each: Vec<f64> = rows.chunks_exact(w).map(|r| nist::score(n, r)).collect();
            let total = nist::score(n, &bleu::sum_rows(rows, w));
            Ok((PyArray1::from_vec(py, each), total))
        }
    }
}
