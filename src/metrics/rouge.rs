//! `RougeCore`, the native half of `mtalign.Rouge`.

use crate::batch::finish_text_batch;
use crate::batch::BatchOut;
use crate::convert::{read_text_batch, read_token_batch, to_array};
use crate::enter::run_detached;
use crate::errors::{to_py, ConfigError};
use mtalign_core::metrics::rouge::{
    score_batch, score_docs, Compat, Docs, MultiRef, RougeConfig, Variant,
};
use mtalign_core::text::intern::{encode_texts, encode_tokens, Encoded};
use mtalign_core::text::stem::{stem_encoded, Stemmer};
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use pyo3::prelude::*;

/// The native half of `mtalign.Rouge`: a validated configuration.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct RougeCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: RougeConfig,
    pub(crate) stemmer: Option<Stemmer>,
}

#[pymethods]
impl RougeCore {
    #[new]
    #[pyo3(signature = (variants, tokenize, lowercase, beta, multi_ref, jackknife, compat, stem=None))]
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
        .map_err(to_py)?;
        let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
        let stemmer = stem.map(Stemmer::parse).transpose().map_err(to_py)?;
        check_rouge_tokenizer(kind, stemmer.is_some(), config.needs_lines())?;
        Ok(Self {
            tokenizer: Tokenizer::new(kind, lowercase),
            config,
            stemmer,
        })
    }

    /// Scores text input; see `mtalign.Rouge.batch_score`.
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_texts<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        rouge_text_batch(py, self, hyps, refs, threads)
    }

    /// Scores pre-tokenized input (tokens verbatim).
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_tokens<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        refs: &Bound<'py, PyAny>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        let config = &self.config;
        let shape = [config.variants.len(), 3];
        let batch = read_token_batch(hyps, refs)?;
        let n = batch.n_hyps;
        let scores = run_detached(py, threads, || {
            let mut enc: Encoded = encode_tokens(&batch.sentences);
            if let Some(stemmer) = self.stemmer {
                stem_encoded(&mut enc, stemmer);
            }
            let hyp_ids: Vec<u32> = (0..n as u32).collect();
            score_batch(config, &enc.sentences, &hyp_ids, &batch.ref_sets)
        })?;
        Ok((to_array(py, scores, n, &shape)?, Vec::new(), Vec::new()))
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

/// Text input for ROUGE: tokenized (by line when `rougeLsum` is asked for), stemmed once per
/// distinct token, scored. Returns what [`score_text_batch`] returns.
pub(crate) fn rouge_text_batch<'py>(
    py: Python<'py>,
    core: &RougeCore,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
) -> PyResult<BatchOut<'py>> {
    let config = &core.config;
    let batch = read_text_batch(hyps, refs)?;
    let (scores, vanished) = run_detached(py, threads, || {
        let texts: Vec<&str> = batch.texts.iter().collect();
        if !config.needs_lines() {
            let mut enc = encode_texts(&core.tokenizer, &texts);
            if let Some(stemmer) = core.stemmer {
                stem_encoded(&mut enc, stemmer);
            }
            let scores = score_batch(config, &enc.sentences, &batch.hyp_ids, &batch.ref_sets)?;
            return Ok((scores, enc.vanished));
        }
        // rouge-score's lines: split on '\n', empty strings dropped.
        let mut lines: Vec<&str> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(texts.len());
        for text in &texts {
            lines.extend(text.split('\n').filter(|l| !l.is_empty()));
            ends.push(lines.len());
        }
        let mut enc = encode_texts(&core.tokenizer, &lines);
        if let Some(stemmer) = core.stemmer {
            stem_encoded(&mut enc, stemmer);
        }
        let docs = Docs::from_lines(&enc.sentences, &ends)?;
        let scores = score_docs(config, &docs, &batch.hyp_ids, &batch.ref_sets)?;
        let vanished = (0..texts.len())
            .filter(|&d| docs.tokens(d).is_empty() && texts[d].chars().any(|c| !c.is_whitespace()))
            .collect();
        Ok((scores, vanished))
    })?;
    finish_text_batch(py, &batch, scores, vanished, &[config.variants.len(), 3])
}
