//! `RougeCore`, the native half of `mtalign.Rouge`.

use crate::batch::BatchScorer;
use crate::errors::{to_py, ConfigError};
use crate::methods::batch_pymethods;
use mtalign_core::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant, DEFAULT_MAX_WORDS};
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::stem::Stemmer;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use pyo3::prelude::*;

/// The native half of `mtalign.Rouge`: a validated configuration.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct RougeCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: RougeConfig,
    pub(crate) stemmer: Option<Stemmer>,
}

batch_pymethods! {
impl RougeCore {
    #[new]
    #[pyo3(signature = (variants, tokenize, lowercase, beta, multi_ref, jackknife, compat, stem=None, max_words=Some(DEFAULT_MAX_WORDS)))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variants: Vec<String>,
        tokenize: &str,
        lowercase: bool,
        beta: f64,
        multi_ref: &str,
        jackknife: bool,
        compat: &str,
        stem: Option<&str>,
        max_words: Option<usize>,
    ) -> PyResult<Self> {
        let parsed = variants
            .iter()
            .map(|v| Variant::parse(v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(to_py)?;
        let config = RougeConfig::new(
            parsed,
            beta,
            MultiRef::parse(multi_ref).map_err(to_py)?,
            jackknife,
            Compat::parse(compat).map_err(to_py)?,
        )
        .and_then(|c| c.with_max_words(max_words))
        .map_err(to_py)?;
        let tokenizer = Tokenizer::parse(tokenize, lowercase).map_err(to_py)?;
        let stemmer = stem.map(Stemmer::parse).transpose().map_err(to_py)?;
        check_rouge_tokenizer(tokenizer.kind, stemmer.is_some(), config.needs_lines())?;
        Ok(Self {
            tokenizer,
            config,
            stemmer,
        })
    }
    }
}

/// Options that cannot go together: stemming needs word tokens, lines need '\n' to separate.
pub(crate) fn check_rouge_tokenizer(kind: TokenizerKind, stem: bool, lines: bool) -> PyResult<()> {
    let chars = matches!(kind, TokenizerKind::Char | TokenizerKind::Codepoint);
    if stem && chars {
        return Err(ConfigError::new_err(format!(
            "stem=True needs word tokens, not tokenize='{}'",
            kind.name()
        )));
    }
    if lines && kind == TokenizerKind::Codepoint {
        return Err(ConfigError::new_err(
            "rougeLsum splits texts into lines, which tokenize='codepoint' would keep as tokens",
        ));
    }
    Ok(())
}

impl BatchScorer for RougeCore {
    type Core = RougeConfig;
    fn encoder(&self) -> Encoder {
        Encoder {
            tokenizer: self.tokenizer,
            stemmer: self.stemmer,
            lines: self.config.needs_lines(),
        }
    }
    fn shape(&self) -> Vec<usize> {
        vec![self.config.variants.len(), 3]
    }
    fn core(&self) -> &RougeConfig {
        &self.config
    }
    /// Scalar k is the F-measure of variant k.
    fn cell_score(&self, k: usize) -> Option<crate::batch::CellScore<'_>> {
        (k < self.config.variants.len())
            .then(|| -> crate::batch::CellScore<'_> { Box::new(move |row| row[3 * k + 2]) })
    }
    /// `multi_ref="max"` without jackknife (eqs. 7-9): P and R are the maxima of the single
    /// references' and F is computed from them, as scoring the set does.
    fn combine_single(&self, k: usize) -> Option<crate::batch::CellScore<'_>> {
        let c = &self.config;
        (k < c.variants.len() && c.combines_singles()).then(|| -> crate::batch::CellScore<'_> {
            Box::new(move |rows| c.max_of_singles(k, rows))
        })
    }
}
