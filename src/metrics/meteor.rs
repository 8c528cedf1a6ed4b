//! `MeteorCore`, the native half of `mtalign.Meteor`.

use crate::batch::BatchScorer;
use crate::enter::run_detached;
use crate::errors::to_py;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::meteor;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::stem::nltk_porter;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use mtalign_core::text::wordnet::WordNet;
use mtalign_core::Error;
use pyo3::prelude::*;
use std::path::Path;

/// The stages, in the only order they run.
const STAGES: [&str; 3] = ["exact", "stem", "synonym"];

/// The native half of `mtalign.Meteor`.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct MeteorCore {
    pub(crate) tokenizer: Tokenizer,
    pub(crate) config: meteor::MeteorConfig,
}

impl BatchScorer for MeteorCore {
    type Core = meteor::MeteorConfig;
    fn encoder(&self) -> Encoder {
        Encoder::plain(self.tokenizer)
    }
    fn shape(&self) -> Vec<usize> {
        vec![5]
    }
    fn core(&self) -> &meteor::MeteorConfig {
        &self.config
    }
}

/// (exact, stem, synonym) from stage names: known, distinct, in the order they run.
fn parse_stages(stages: &[String]) -> Result<[bool; 3], Error> {
    let mut on = [false; 3];
    let mut last = None;
    for s in stages {
        let Some(k) = STAGES.iter().position(|n| n == s) else {
            return Err(Error::Config(format!(
                "stages: unknown stage {s:?} (choose from: exact, stem, synonym)"
            )));
        };
        if last.is_some_and(|l| k <= l) {
            return Err(Error::Config(
                "stages must be distinct and in the order they run: exact, stem, synonym".into(),
            ));
        }
        on[k] = true;
        last = Some(k);
    }
    if stages.is_empty() {
        return Err(Error::Config("stages: give at least one stage".into()));
    }
    Ok(on)
}

batch_pymethods! {
    impl MeteorCore {
        #[new]
        #[pyo3(signature = (alpha, beta, gamma, stages, wordnet, tokenize))]
        fn new(
            py: Python<'_>,
            alpha: f64,
            beta: f64,
            gamma: f64,
            stages: Vec<String>,
            wordnet: Option<String>,
            tokenize: &str,
        ) -> PyResult<Self> {
            let [exact, stem, synonym] = parse_stages(&stages).map_err(to_py)?;
            let kind = TokenizerKind::parse(tokenize).map_err(to_py)?;
            if matches!(kind, TokenizerKind::Char | TokenizerKind::Codepoint) {
                return Err(to_py(Error::Config(format!(
                    "tokenize={tokenize:?}: METEOR matches words; use a word tokenizer"
                ))));
            }
            let tokenizer = Tokenizer::parse(tokenize, kind.always_lowercases()).map_err(to_py)?;
            // A WordNet directory given is read (and checked) even when the synonym stage is
            // off, so a bad path is never silently ignored.
            let wn = match wordnet {
                Some(dir) => Some(run_detached(py, None, || {
                    WordNet::load_cached(Path::new(&dir))
                })?),
                None => None,
            };
            let wn = if synonym { wn } else { None };
            let config = meteor::MeteorConfig::new(alpha, beta, gamma, exact, stem, wn)
                .map_err(to_py)?;
            Ok(Self { tokenizer, config })
        }

        /// Whether the synonym stage runs (it needs both the stage and a WordNet).
        #[getter]
        fn synonyms_on(&self) -> bool {
            self.config.wordnet.is_some()
        }

        /// The lemma names (without `_`) of WordNet's synsets of `word` (nltk's
        /// `wordnet.synsets(word)`), sorted; empty without a WordNet.
        fn synonyms(&self, word: &str) -> Vec<String> {
            let mut out = Vec::new();
            if let Some(wn) = &self.config.wordnet {
                wn.for_each_synonym(word, |n| {
                    if !n.contains('_') {
                        out.push(n.to_string())
                    }
                });
            }
            out.sort();
            out.dedup();
            out
        }

        /// The stem METEOR's stem stage uses: nltk's `PorterStemmer().stem(word)`.
        #[staticmethod]
        fn stem(word: &str) -> String {
            nltk_porter::stem(&word.to_lowercase())
        }
    }
}
