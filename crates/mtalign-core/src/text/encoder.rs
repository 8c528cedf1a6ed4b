//! How a metric wants its text turned into ids, as data: a tokenizer, an optional stemmer,
//! and whether texts are split into lines (`rougeLsum`). One [`Encoder::encode_texts`] serves
//! every metric, instead of one copied text runner per metric.

use crate::text::docs::Docs;
use crate::text::ids::{encode_ids, IdSeqs, LINE_BREAK};
use crate::text::intern::{
    encode_texts, encode_texts_into, encode_tokens, Encoded, Sentences, Vocab, WARM_VOCAB,
};
use crate::text::stem::{stem_encoded, Stemmer};
use crate::text::tokenize::{Tokenizer, TokenizerKind};
use crate::{Error, Result};

/// Text → ids, as one metric configures it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Encoder {
    /// How text is split into tokens.
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
    /// The ids, by line when the encoder splits lines.
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

/// The references of the previous one-pair call and their ids in the warm vocabulary
/// ([`Encoder::encode_pair_warm`]).
#[derive(Debug, Clone, Default)]
pub struct RefMemo {
    /// The encoder and the vocabulary's epoch they were encoded with (None: nothing held).
    encoder: Option<Encoder>,
    epoch: u64,
    texts: Vec<String>,
    sentences: Sentences,
    /// Which of them vanished (their indices in the pair, from 1).
    vanished: Vec<usize>,
}

impl RefMemo {
    fn holds<S: AsRef<str>>(&self, encoder: &Encoder, epoch: u64, refs: &[S]) -> bool {
        self.encoder.as_ref() == Some(encoder)
            && self.epoch == epoch
            && self.texts.len() == refs.len()
            && self.texts.iter().zip(refs).all(|(a, b)| a == b.as_ref())
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

    /// [`Encoder::encode_texts_into`] of one pair, `texts` = [hypothesis, references…], with
    /// a [`Vocab::Warm`] vocabulary: when the references are those of the previous call
    /// (`memo`) and the vocabulary keeps its ids, only the hypothesis is tokenized and the
    /// references' ids are taken from `memo` (a loop over the candidates of one reference:
    /// n-best reranking, the systems of a segment). The same tokens as encoding the pair.
    pub fn encode_pair_warm<S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
        out: &mut EncodedTexts,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
        memo: &mut RefMemo,
    ) {
        let by_words = !self.lines
            && self.stemmer.is_none()
            && !matches!(
                self.tokenizer.kind,
                TokenizerKind::Char | TokenizerKind::Codepoint
            );
        let (hyp, refs) = texts.split_at(1.min(texts.len()));
        // The vocabulary is emptied at the start of a call once it is past its bound, and by
        // any call with a fresh vocabulary (another metric on this thread): the memo's ids
        // are then stale, which its epoch tells.
        let keeps_ids = out.encoded.vocab.len() <= WARM_VOCAB;
        if by_words && keeps_ids && memo.holds(self, out.encoded.vocab.epoch(), refs) {
            self.encode_texts_into(hyp, out, buf, spans, Vocab::Warm);
            out.encoded.sentences.extend_from(&memo.sentences);
            out.vanished.extend_from_slice(&memo.vanished);
            return;
        }
        self.encode_texts_into(texts, out, buf, spans, Vocab::Warm);
        memo.encoder = None;
        if by_words {
            memo.encoder = Some(*self);
            memo.epoch = out.encoded.vocab.epoch();
            memo.texts.clear();
            memo.texts
                .extend(refs.iter().map(|r| r.as_ref().to_owned()));
            let ids: Vec<&[u32]> = (1..texts.len())
                .map(|k| out.encoded.sentences.get(k))
                .collect();
            memo.sentences = Sentences::from_ids(&ids);
            memo.vanished.clear();
            memo.vanished
                .extend(out.vanished.iter().copied().filter(|&k| k > 0));
        }
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

    /// Whether this encoder can take token ids: ids have no characters and no stems, so a
    /// character tokenizer or a stemmer is refused (`Error::Config`).
    pub fn check_ids(&self) -> Result<()> {
        if matches!(
            self.tokenizer.kind,
            TokenizerKind::Char | TokenizerKind::Codepoint
        ) {
            return Err(Error::Config(
                "a character-level metric cannot score token ids: ids have no characters \
                 (decode them to text first)"
                    .into(),
            ));
        }
        if self.stemmer.is_some() {
            return Err(Error::Config(
                "token ids cannot be stemmed: they are not words (score them without stemming)"
                    .into(),
            ));
        }
        Ok(())
    }

    /// Token ids (`parts`: hypotheses, then references; see [`crate::text::ids`]) as this
    /// encoder gives the same ids written as text, space-joined, to a whitespace tokenizer,
    /// with a line break in place of each `line_sep` id: texts of lines (`rougeLsum`) are
    /// split there (empty lines dropped), other texts lose the separators. Ids have no
    /// characters and no stems: a character tokenizer or a stemmer is refused.
    pub fn encode_ids(&self, parts: &[IdSeqs<'_>], line_sep: Option<i64>) -> Result<EncodedTexts> {
        self.check_ids()?;
        let mut encoded = encode_ids(parts, line_sep);
        if !self.lines && line_sep.is_none() {
            return Ok(EncodedTexts {
                encoded,
                ends: None,
                vanished: Vec::new(),
            });
        }
        let all = std::mem::take(&mut encoded.sentences);
        let ids: usize = all.iter().map(<[u32]>::len).sum();
        let mut lines = Sentences::with_capacity(ids, all.len());
        // ends[d]: the lines of texts 0..=d (an empty line adds none).
        let mut ends = Vec::with_capacity(all.len());
        for ids in all.iter() {
            for line in ids.split(|&id| id == LINE_BREAK) {
                if !line.is_empty() {
                    lines.extend_ids(line.iter().copied());
                    if self.lines {
                        lines.end_sentence();
                    }
                }
            }
            if !self.lines {
                lines.end_sentence();
            }
            ends.push(lines.len());
        }
        encoded.sentences = lines;
        Ok(EncodedTexts {
            encoded,
            ends: self.lines.then_some(ends),
            vanished: Vec::new(),
        })
    }

    fn stem(&self, encoded: &mut Encoded) {
        if let Some(stemmer) = self.stemmer {
            stem_encoded(encoded, stemmer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text of `enc` as its token strings.
    fn words(enc: &EncodedTexts) -> Vec<Vec<String>> {
        let v = &enc.encoded.vocab;
        enc.encoded
            .sentences
            .iter()
            .map(|s| s.iter().map(|&id| v.get(id).to_string()).collect())
            .collect()
    }

    #[test]
    fn a_remembered_reference_gives_the_tokens_of_the_pair() {
        let plain = Encoder::plain(Tokenizer::parse("13a", false).unwrap());
        let lower = Encoder::plain(Tokenizer::parse("unicode", true).unwrap());
        let (mut buf, mut spans) = (String::new(), Vec::new());
        let (mut out, mut memo) = (EncodedTexts::default(), RefMemo::default());
        let r = ["The cat sat .", "..."];
        let calls: Vec<(Encoder, [&str; 3], bool)> = vec![
            (plain, ["a cat", r[0], r[1]], false),
            (plain, ["The dog", r[0], r[1]], true),
            (plain, ["", r[0], r[1]], true),
            (lower, ["The CAT", r[0], r[1]], false),
            (lower, ["sat", r[0], r[1]], true),
            (plain, ["a cat", "The cat", r[1]], false),
            (plain, ["x y", "The cat", r[1]], true),
        ];
        for (k, (enc, texts, reused)) in calls.into_iter().enumerate() {
            if k == 6 {
                // Another metric on this thread with a fresh vocabulary: stale ids.
                enc.encode_texts_into(&["q"], &mut out, &mut buf, &mut spans, Vocab::Fresh);
            }
            let was = memo.holds(&enc, out.encoded.vocab.epoch(), &texts[1..]);
            enc.encode_pair_warm(&texts, &mut out, &mut buf, &mut spans, &mut memo);
            assert_eq!(was, reused && k != 6, "call {k}");
            let alone = enc.encode_texts(&texts);
            assert_eq!(words(&out), words(&alone), "call {k}");
            assert_eq!(out.vanished, alone.vanished, "call {k}");
        }
    }

    #[test]
    fn a_copied_table_gets_its_own_epoch() {
        let mut t = crate::text::intern::StrTable::default();
        t.intern("a");
        let e = t.epoch();
        assert_eq!(t.epoch(), e);
        t.intern("b");
        assert_eq!(t.epoch(), e);
        let mut c = t.clone();
        assert_ne!(c.epoch(), e);
        t.clear();
        assert_ne!(t.epoch(), e);
    }
}
