//! Texts as kernels see them: token ids, optionally split into lines (summary-level metrics).

use crate::text::intern::{Sentences, StrTable};
use crate::{Error, Result};
use std::ops::Range;

/// Texts made of lines: text `d` is the consecutive sentences `ends[d-1]..ends[d]` of `lines`
/// (or, without `ends`, sentence `d` alone). Metrics that look at lines (`rougeLsum`) read them
/// with [`Docs::lines_of`]; every other metric sees a text's tokens as one sequence.
#[derive(Debug, Clone, Copy)]
pub struct Docs<'a> {
    lines: &'a Sentences,
    ends: Option<&'a [usize]>,
    vocab: Option<&'a StrTable>,
}

impl<'a> Docs<'a> {
    /// Every sentence is a one-line text.
    pub fn single_lines(sentences: &'a Sentences) -> Self {
        Self {
            lines: sentences,
            ends: None,
            vocab: None,
        }
    }

    /// Text `d` is lines `ends[d-1]..ends[d]` (`ends` non-decreasing, last <= lines.len()).
    pub fn from_lines(lines: &'a Sentences, ends: &'a [usize]) -> Result<Self> {
        let sorted = ends.windows(2).all(|w| w[0] <= w[1]);
        if !sorted || ends.last().is_some_and(|&e| e > lines.len()) {
            return Err(Error::Input(
                "line ends out of order or out of range".into(),
            ));
        }
        Ok(Self {
            lines,
            ends: Some(ends),
            vocab: None,
        })
    }

    /// The same texts, with the strings of their token ids (for metrics that look at the
    /// words themselves: METEOR's stems and synonyms).
    pub fn with_vocab(self, vocab: &'a StrTable) -> Self {
        Self {
            vocab: Some(vocab),
            ..self
        }
    }

    /// The string of every token id, when the encoder kept them (word tokenizers do; the
    /// character tokenizers, whose ids are code points, do not).
    pub fn vocab(&self) -> Option<&'a StrTable> {
        self.vocab
    }

    /// The number of texts.
    pub fn len(&self) -> usize {
        self.ends.map_or(self.lines.len(), |e| e.len())
    }

    /// Whether there is no text.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The line indices of text `d`.
    pub fn range(&self, d: usize) -> Range<usize> {
        match self.ends {
            None => d..d + 1,
            Some(e) => (if d == 0 { 0 } else { e[d - 1] })..e[d],
        }
    }

    /// All tokens of text `d`.
    pub fn tokens(&self, d: usize) -> &'a [u32] {
        self.lines.span(self.range(d))
    }

    /// The lines of text `d`, into `out`.
    pub fn lines_of(&self, d: usize, out: &mut Vec<&'a [u32]>) {
        out.clear();
        out.extend(self.range(d).map(|k| self.lines.get(k)));
    }

    /// Whether texts are split into lines (else every text is one line).
    pub fn has_lines(&self) -> bool {
        self.ends.is_some()
    }

    /// Checks that every index of `hyps` and of `ref_sets` names a text.
    pub fn check_indices(&self, hyps: &[u32], ref_sets: &crate::text::refs::RefSets) -> Result<()> {
        let n = self.len();
        if hyps.iter().any(|&h| h as usize >= n)
            || (0..hyps.len()).any(|i| ref_sets.get(i).iter().any(|&r| r as usize >= n))
        {
            return Err(Error::Input("text index out of range".into()));
        }
        Ok(())
    }
}
