//! `GtmCore`, the native half of `mtalign.Gtm`.

use crate::batch::BatchScorer;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::gtm;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use pyo3::prelude::*;

/// The native half of `mtalign.Gtm`.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct GtmCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: gtm::GtmConfig,
}

impl BatchScorer for GtmCore {
    type Core = gtm::GtmConfig;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![3]
    }
    fn core(&self) -> &gtm::GtmConfig {
        &self.config
    }
    fn cell_score(&self, _k: usize) -> Option<crate::batch::CellScore<'_>> {
        let e = self.config.exponent;
        Some(Box::new(move |row| gtm::prf(row, e).2))
    }
    /// One pair's (F, precision, recall, MMS): the figures of its result (the corpus of one
    /// sentence), made from the row without NumPy.
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        let e = self.config.exponent;
        let (p, r, f) = gtm::prf(&row, e);
        Ok((f, p, r, gtm::mms(row[0], e)).into_pyobject(py)?.into_any())
    }
}

batch_pymethods! {
    impl GtmCore {
        #[new]
        #[pyo3(signature = (exponent, tokenize, lowercase, max_words=None))]
        fn new(
            exponent: f64,
            tokenize: &str,
            lowercase: bool,
            max_words: Option<usize>,
        ) -> PyResult<Self> {
            let config = gtm::GtmConfig {
                max_words,
                ..gtm::GtmConfig::new(exponent).map_err(to_py)?
            };
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self { tokenizer, config })
        }
    }
}
