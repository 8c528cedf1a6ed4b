//! `DcsCore`, the native half of `mtalign.Dcs`.

use crate::batch::BatchScorer;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::dcs;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::Tokenizer;
use pyo3::prelude::*;

/// The native half of `mtalign.Dcs`: the tokenizer (character or word level).
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct DcsCore {
    pub(crate) tokenizer: Tokenizer,
}

impl BatchScorer for DcsCore {
    type Core = dcs::Dcs;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![4]
    }
    fn core(&self) -> &dcs::Dcs {
        &dcs::Dcs
    }
}

batch_pymethods! {
    impl DcsCore {
        #[new]
        #[pyo3(signature = (tokenize, lowercase))]
        fn new(tokenize: &str, lowercase: bool) -> PyResult<Self> {
            let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
            Ok(Self {
                tokenizer,
            })
        }
    }
}
