//! `ErrorRateCore`, the native half of `mtalign.Wer` and `mtalign.Per`.

use crate::batch::BatchScorer;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::error_rate;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use pyo3::prelude::*;

/// The native half of `mtalign.Wer` and `mtalign.Per`: `[errors, ref_len]` rows.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct ErrorRateCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) kind: error_rate::ErrorRate,
}

impl BatchScorer for ErrorRateCore {
    type Core = error_rate::ErrorRate;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![2]
    }
    fn core(&self) -> &error_rate::ErrorRate {
        &self.kind
    }
    fn cell_score(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        Some(Box::new(|row| error_rate::rate(row[0], row[1])))
    }
    /// A set's rate is its best reference's: the minimum of the single rates.
    fn combine_single(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        Some(Box::new(error_rate::best_rate))
    }
    /// One pair's (rate, errors, reference length), the figures of its result.
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        let (errors, ref_len) = (row[0], row[1]);
        let figures = (
            error_rate::rate(errors, ref_len),
            errors as i64,
            ref_len as i64,
        );
        Ok(figures.into_pyobject(py)?.into_any())
    }
}

batch_pymethods! {
    impl ErrorRateCore {
        #[new]
        #[pyo3(signature = (kind, tokenize, lowercase))]
        fn new(kind: &str, tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let kind = error_rate::ErrorRate::parse(kind).map_err(to_py)?;
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self {
                tokenizer,
                kind,
            })
        }
    }
}
