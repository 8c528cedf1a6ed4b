//! Stemmers of the compatibility profiles, applied once per distinct token.
//!
//! * [`Stemmer::Rouge155`] — ROUGE-1.5.5 `-m`: the WordNet 2.0 exception list first
//!   (`went → go`), otherwise the Porter (1980) stemmer as ROUGE-1.5.5 runs it: Martin
//!   Porter's Perl "Release 1" with the ROUGE author's 2004 change to step 4
//!   ([`porter1980`]). Tokens are ASCII-lowercased first, as the script's `MorphStem` does.
//! * [`Stemmer::NltkPorter`] — rouge-score's `use_stemmer=True`: nltk's `PorterStemmer()` in
//!   its default `NLTK_EXTENSIONS` mode ([`nltk_porter`]).
//!
//! Both stem only tokens longer than 3 characters, as both tools do. Stemming happens after
//! interning ([`stem_encoded`]): each distinct token is stemmed once and the ids are mapped to
//! the ids of the stems, so a corpus costs one stem per vocabulary entry, not per token.

pub mod nltk_porter;
pub mod porter1980;

use crate::choice::choice_enum;
use crate::text::intern::{Encoded, StrTable};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// The WordNet 2.0 exception list as ROUGE-1.5.5 holds it (`inflected<TAB>base` lines).
/// In the crate's `data/` with its license (`WORDNET-2.0-LICENSE`).
const WORDNET_EXCEPTIONS: &str = include_str!("../../../data/wordnet-2.0-exceptions.tsv");

fn wordnet_exceptions() -> &'static FxHashMap<&'static str, &'static str> {
    static TABLE: OnceLock<FxHashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        WORDNET_EXCEPTIONS
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .collect()
    })
}

choice_enum! {
    /// The stemmers: each reproduces one tool's.
    pub enum Stemmer, "stemmer" {
        /// ROUGE-1.5.5 (`MorphStem`): WordNet 2.0 exceptions, then Porter (1980) as the
        /// script has it.
        Rouge155 => "rouge155",
        /// nltk's PorterStemmer (NLTK_EXTENSIONS), as rouge-score uses it.
        NltkPorter => "nltk_porter",
    }
}

impl Stemmer {
    /// The stem of one token (tokens of 3 characters or fewer are returned as they are).
    pub fn stem(self, token: &str) -> String {
        match self {
            Self::Rouge155 => {
                // Perl counts bytes; ROUGE-1.5.5's tokens are ASCII. Other tokens are left
                // alone rather than cut inside a UTF-8 sequence.
                if token.len() <= 3 || !token.is_ascii() {
                    return token.to_string();
                }
                // As ROUGE-1.5.5's MorphStem: ASCII-lowercase, exceptions, then Porter.
                let lower = token.to_ascii_lowercase();
                match wordnet_exceptions().get(lower.as_str()) {
                    Some(base) => base.to_string(),
                    None => porter1980::stem(&lower),
                }
            }
            Self::NltkPorter => {
                if token.chars().nth(3).is_none() {
                    return token.to_string();
                }
                nltk_porter::stem(token)
            }
        }
    }
}

/// Replaces every token id of `enc` by the id of its stem (ids renumbered densely in order of
/// first appearance of the stems in the vocabulary, so the result is deterministic).
pub fn stem_encoded(enc: &mut Encoded, stemmer: Stemmer) {
    let vocab = &enc.vocab;
    let stem_of = |id: u32| stemmer.stem(vocab.get(id));
    // A small vocabulary (one sentence pair) is stemmed here, without touching a pool.
    let stems: Vec<String> = if vocab.len() <= 256 {
        (0..vocab.len() as u32).map(stem_of).collect()
    } else {
        (0..vocab.len() as u32)
            .into_par_iter()
            .with_min_len(256)
            .map(stem_of)
            .collect()
    };
    let mut table = StrTable::with_capacity(stems.len());
    let remap: Vec<u32> = stems.iter().map(|s| table.intern(s).0).collect();
    enc.sentences.remap_ids(&remap);
    enc.vocab_size = table.len();
    enc.vocab = table;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::intern::encode_texts;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};

    #[test]
    fn rouge155_uses_exceptions_first_and_skips_short_tokens() {
        let s = Stemmer::Rouge155;
        assert_eq!(s.stem("went"), "go");
        assert_eq!(s.stem("were"), "be");
        assert_eq!(s.stem("said"), "say");
        assert_eq!(s.stem("mice"), "mouse");
        assert_eq!(s.stem("goes"), "go");
        assert_eq!(s.stem("monday"), "mondai");
        assert_eq!(s.stem("was"), "was");
        assert_eq!(s.stem("café"), "café");
        // MorphStem lowercases ASCII before the exceptions and Porter.
        assert_eq!(s.stem("WENT"), "go");
        assert_eq!(s.stem("Running"), "run");
        assert_eq!(wordnet_exceptions().len(), 5930);
    }

    #[test]
    fn nltk_skips_short_tokens() {
        let s = Stemmer::NltkPorter;
        assert_eq!(s.stem("ties"), "tie");
        assert_eq!(s.stem("bed"), "bed");
        assert_eq!(s.stem("running"), "run");
    }

    #[test]
    fn stemming_merges_ids() {
        let t = Tokenizer::new(TokenizerKind::Unicode, true);
        let mut enc = encode_texts(&t, &["cats running", "cat runs"]);
        assert_eq!(enc.vocab_size, 4);
        stem_encoded(&mut enc, Stemmer::NltkPorter);
        assert_eq!(enc.sentences.get(0), &[0, 1]);
        assert_eq!(enc.sentences.get(1), &[0, 1]);
        assert_eq!(enc.vocab_size, 2);
        assert_eq!(enc.vocab.iter().collect::<Vec<_>>(), ["cat", "run"]);
        assert_eq!(Stemmer::parse("nltk_porter").unwrap(), Stemmer::NltkPorter);
        assert!(Stemmer::parse("snowball").is_err());
    }
}
