//! How a metric wants its text turned into ids, as data: a tokenizer, an optional stemmer,
//! and whether texts are split into lines (`rougeLsum`). One [`Encoder::encode_texts`] serves
//! every metric, instead of one copied text runner per metric.

use crate::text::docs::Docs;
use crate::text::intern::{encode_texts, encode_texts_into, encode_tokens, Encoded, Vocab};
use crate::text::stem::{stem_encoded, Stemmer};
use crate::text::tokenize::Tokenizer;
use crate::Result;

/// Text → ids, as one metric configures it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoder {
    pub tokenizer: Tokenizer,
    /// Stems every distinct token once (ROUGE's `stem=True`).
    pub stemmer: Option<Stemmer>,
    /// Splits texts into lines at `'\n'` (empty lines dropped, as rouge-score does).
    pub lines: bool,
}

/// Encoded texts: ids (by line when the encoder splits lines) and which texts vanished
/// (non-space characters but no token).
#[derive(Debug, Clone, Default)]
pub struct EncodedTexts {
    pub encoded: Encoded,
    /// Text `d` is lines `ends[d-1]..ends[d]` (None: every text is one line).
    ends: Option<Vec<usize>>,
    /// Indices of texts with non-space characters that produced no token.
    pub vanished: Vec<usize>,
}

impl EncodedTexts {
    /// The texts as kernels see them.
    pub fn docs(&self) -> Result<Docs<'_>> {
        let docs = match &self.ends {
            None => Docs::single_lines(&self.encoded.sentences),
            Some(ends) => Docs::from_lines(&self.encoded.sentences, ends)?,
        };
        Ok(docs.with_vocab(&self.encoded.vocab))
    }
}

impl Encoder {
    /// Plain tokens: no stemming, no lines.
    pub fn plain(tokenizer: Tokenizer) -> Self {
        Self {
            tokenizer,
            stemmer: None,
            lines: false,
        }
    }

    /// Tokenizes (by line if asked), interns and stems `texts`; on the current rayon pool,
    /// or on this thread for a handful of texts.
    pub fn encode_texts<S: AsRef<str> + Sync>(&self, texts: &[S]) -> EncodedTexts {
        if !self.lines {
            let mut encoded = encode_texts(&self.tokenizer, texts);
            self.stem(&mut encoded);
            let vanished = std::mem::take(&mut encoded.vanished);
            return EncodedTexts {
                encoded,
                ends: None,
                vanished,
            };
        }
        let mut lines: Vec<&str> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(texts.len());
        for text in texts {
            lines.extend(text.as_ref().split('\n').filter(|l| !l.is_empty()));
            ends.push(lines.len());
        }
        let mut encoded = encode_texts(&self.tokenizer, &lines);
        self.stem(&mut encoded);
        let empty = |d: usize| {
            let start = if d == 0 { 0 } else { ends[d - 1] };
            let sentences = &encoded.sentences;
            (start..ends[d]).all(|k| sentences.get(k).is_empty())
        };
        let vanished = (0..texts.len())
            .filter(|&d| empty(d) && texts[d].as_ref().chars().any(|c| !c.is_whitespace()))
            .collect();
        encoded.vanished.clear();
        EncodedTexts {
            encoded,
            ends: Some(ends),
            vanished,
        }
    }

    /// [`Encoder::encode_texts`] into `out`, reusing its memory for a handful of plain texts
    /// (one sentence pair: no allocation once `out` is warm); the same result, with other
    /// ids when `vocab` is [`Vocab::Warm`] (see there).
    pub fn encode_texts_into<S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
        out: &mut EncodedTexts,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
        vocab: Vocab,
    ) {
        if self.lines || self.stemmer.is_some() {
            *out = self.encode_texts(texts);
            return;
        }
        encode_texts_into(&self.tokenizer, texts, &mut out.encoded, buf, spans, vocab);
        out.ends = None;
        out.vanished.clear();
        out.vanished.append(&mut out.encoded.vanished);
    }

    /// Interns pre-tokenized sentences (tokens verbatim) and stems them if asked; a
    /// pre-tokenized text is one line.
    pub fn encode_tokens<T: AsRef<str> + Sync, S: AsRef<[T]> + Sync>(
        &self,
        sentences: &[S],
    ) -> EncodedTexts {
        let mut encoded = encode_tokens(sentences);
        self.stem(&mut encoded);
        EncodedTexts {
            encoded,
            ends: None,
            vanished: Vec::new(),
        }
    }

    fn stem(&self, encoded: &mut Encoded) {
        if let Some(stemmer) = self.stemmer {
            stem_encoded(encoded, stemmer);
        }
    }
}
