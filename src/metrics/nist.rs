//! `NistCore`, the native half of `mtalign.Nist`.

use crate::batch::batch_pymethods;
use crate::batch::{BatchKernel, BatchScorer};
use crate::convert::stats_slice;
use crate::errors::to_py;
use mtalign_core::metrics::{bleu, nist};
use mtalign_core::text::intern::Sentences;
use mtalign_core::text::refs::RefSets;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// The native half of `mtalign.Nist`: statistics rows with sentence or corpus weights.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct NistCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) max_order: usize,
    pub(crate) corpus_weights: bool,
}

impl BatchScorer for NistCore {
    fn tokenizer(&self) -> Tokenizer {
        self.tokenizer
    }
    fn shape(&self) -> Vec<usize> {
        vec![nist::width(self.max_order)]
    }
    fn kernel(&self) -> impl BatchKernel + '_ {
        move |s: &Sentences, h: &[u32], r: &RefSets| {
            if self.corpus_weights {
                nist::stats_corpus(self.max_order, s, h, r)
            } else {
                nist::stats_sentences(self.max_order, s, h, r)
            }
        }
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
            nist::check_order(max_order).map_err(to_py)?;
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            Ok(Self {
                tokenizer: Tokenizer::new(kind, lowercase),
                max_order,
                corpus_weights,
            })
        }

        /// NIST of each row, shape (n,), and of the summed rows.
        fn scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<(Bound<'py, PyArray1<f64>>, f64)> {
            let (n, w) = (self.max_order, nist::width(self.max_order));
            let rows = stats_slice(&stats, w)?;
            let each: Vec<f64> = rows.chunks_exact(w).map(|r| nist::score(n, r)).collect();
            let total = nist::score(n, &bleu::sum_rows(rows, w));
            Ok((PyArray1::from_vec(py, each), total))
        }
    }
}
