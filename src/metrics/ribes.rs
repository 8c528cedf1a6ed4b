//! `RibesCore`, the native half of `mtalign.Ribes`.

use crate::batch::BatchScorer;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::ribes;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use pyo3::prelude::*;

/// The native half of `mtalign.Ribes`.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct RibesCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: ribes::RibesConfig,
}

impl BatchScorer for RibesCore {
    type Core = ribes::RibesConfig;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        Vec::new()
    }
    fn core(&self) -> &ribes::RibesConfig {
        &self.config
    }
}

batch_pymethods! {
    impl RibesCore {
        #[new]
        #[pyo3(signature = (alpha, beta, tokenize, lowercase))]
        fn new(alpha: f64, beta: f64, tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let config = ribes::RibesConfig::new(alpha, beta).map_err(to_py)?;
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self {
                tokenizer,
                config,
            })
        }
    }
}
