//! Token ids in: batches of integer sequences (a decoder's or a trainer's output) read
//! straight from the caller's memory, for metrics that compare words by equality.
//!
//! The input abstraction is [`IdSeqs`]: one borrowed buffer of integers of any width
//! ([`IdData`]) and, per sequence, where it starts and how long it is. A padded 2-D batch
//! (rows of one width), a flat buffer with offsets and a concatenation of 1-D arrays are all
//! this shape, so a binding only hands over pointers: no object per token, and the ids are
//! read with no interpreter lock held.
//!
//! [`encode_ids`] turns the sequences into the core's `u32` ids. Ids are what text would
//! become with a whitespace tokenizer over the decimal ids joined by spaces: equal ids are
//! one word. [`IdMapping::Dense`] numbers the distinct ids in order of first appearance,
//! exactly as the text path numbers the words of those texts (so metrics that look at id
//! values see the same numbers); [`IdMapping::Direct`] keeps the
//! ids themselves when they are small, for metrics that see ids only through their
//! equality within a pair (no hashing at all).

use crate::text::intern::{Encoded, Sentences, StrTable};
use crate::{Error, Result};
use rustc_hash::FxHashMap;

/// Integer ids of one buffer, borrowed, in the width the caller holds them.
#[derive(Debug, Clone, Copy)]
pub enum IdData<'a> {
    /// Signed bytes.
    I8(&'a [i8]),
    /// Signed 16-bit ids.
    I16(&'a [i16]),
    /// Signed 32-bit ids.
    I32(&'a [i32]),
    /// Signed 64-bit ids.
    I64(&'a [i64]),
    /// Unsigned bytes.
    U8(&'a [u8]),
    /// Unsigned 16-bit ids.
    U16(&'a [u16]),
    /// Unsigned 32-bit ids.
    U32(&'a [u32]),
    /// Unsigned 64-bit ids.
    U64(&'a [u64]),
}

/// Calls `$f` on the typed slice of an [`IdData`] (one body for every width).
macro_rules! with_slice {
    ($data:expr, |$s:ident| $body:expr) => {
        match $data {
            IdData::I8($s) => $body,
            IdData::I16($s) => $body,
            IdData::I32($s) => $body,
            IdData::I64($s) => $body,
            IdData::U8($s) => $body,
            IdData::U16($s) => $body,
            IdData::U32($s) => $body,
            IdData::U64($s) => $body,
        }
    };
}

/// One id as a key that is equal exactly when the integers are equal, whatever their types
/// (an `int32` -1 and a `uint64` 2^64-1 differ).
trait IdKey: Copy {
    fn key(self) -> i128;
    /// The id as a direct `u32` id when it is below [`DIRECT_LIMIT`].
    fn small(self) -> Option<u32>;
}

macro_rules! id_key {
    ($($t:ty),*) => {$(
        impl IdKey for $t {
            #[inline]
            fn key(self) -> i128 {
                self as i128
            }
            #[inline]
            #[allow(unused_comparisons)]
            fn small(self) -> Option<u32> {
                (self >= 0 && (self as u64) < DIRECT_LIMIT as u64).then_some(self as u32)
            }
        }
    )*};
}
id_key!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Ids below this bound are used as they are by [`IdMapping::Direct`]. Kernels size
/// per-thread tables by the largest id of a pair (as they do for code points, up to
/// 0x10FFFF), so the bound keeps those tables small; every tokenizer's vocabulary is far
/// below it. Larger ids are numbered ([`IdMapping::Dense`]).
pub const DIRECT_LIMIT: u32 = 1 << 21;

impl IdData<'_> {
    /// The number of ids.
    pub fn len(&self) -> usize {
        with_slice!(self, |s| s.len())
    }

    /// Whether there is no id.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Sequences over one buffer: sequence `i` is `data[starts[i]..starts[i] + lengths[i]]`.
#[derive(Debug, Clone, Copy)]
pub struct IdSeqs<'a> {
    data: IdData<'a>,
    starts: &'a [i64],
    lengths: &'a [i64],
}

impl<'a> IdSeqs<'a> {
    /// The sequences, checked: as many starts as lengths, none negative, every sequence
    /// inside the buffer. A refusal names the sequence, `what[i]`.
    pub fn new(
        data: IdData<'a>,
        starts: &'a [i64],
        lengths: &'a [i64],
        what: &str,
    ) -> Result<Self> {
        if starts.len() != lengths.len() {
            return Err(Error::Input(format!(
                "{what}: {} starts for {} lengths",
                starts.len(),
                lengths.len()
            )));
        }
        let size = data.len() as i64;
        for (i, (&s, &n)) in starts.iter().zip(lengths).enumerate() {
            if n < 0 {
                return Err(Error::Input(format!(
                    "{what}[{i}] has a negative length ({n})"
                )));
            }
            if s < 0 || s.checked_add(n).is_none_or(|end| end > size) {
                return Err(Error::Input(format!(
                    "{what}[{i}] (ids {s}..{}) lies outside its buffer of {size} ids",
                    s.saturating_add(n)
                )));
            }
        }
        Ok(Self {
            data,
            starts,
            lengths,
        })
    }

    /// The number of sequences.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether there is no sequence.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// The number of ids of all sequences together.
    pub fn total(&self) -> usize {
        self.lengths.iter().map(|&n| n as usize).sum()
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let s = self.starts[i] as usize;
        s..s + self.lengths[i] as usize
    }
}

/// How ids become the core's ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdMapping {
    /// Distinct ids numbered 0, 1, … in order of first appearance (the text path's ids).
    Dense,
    /// The ids themselves where all are below [`DIRECT_LIMIT`] (else [`IdMapping::Dense`]);
    /// only for metrics that see ids through their equality within a pair.
    Direct,
}

/// Where a line separator stood in an encoded sentence (see [`encode_ids`]); never an id.
pub const LINE_BREAK: u32 = u32::MAX;

/// The sequences of every part in order (hypotheses, then references) as one batch of
/// sentences. Each id equal to `line_sep` is written as [`LINE_BREAK`] and takes no number,
/// as a line break in text is no word. No vocabulary is kept: the words are the ids, and no
/// metric that reads words (stems, synonyms, characters) takes ids.
pub fn encode_ids(parts: &[IdSeqs<'_>], mapping: IdMapping, line_sep: Option<i64>) -> Encoded {
    let total: usize = parts.iter().map(IdSeqs::total).sum();
    let count: usize = parts.iter().map(IdSeqs::len).sum();
    let sep = line_sep.map(i128::from);
    let mut sentences = Sentences::with_capacity(total, count);
    if mapping == IdMapping::Direct && direct_into(parts, sep, &mut sentences) {
        let vocab_size = sentences
            .iter()
            .flat_map(|ids| ids.iter().copied())
            .filter(|&id| id != LINE_BREAK)
            .max()
            .map_or(0, |m| m as usize + 1);
        return encoded(sentences, vocab_size);
    }
    sentences.clear();
    let mut numbers: FxHashMap<i128, u32> = FxHashMap::default();
    for part in parts {
        with_slice!(part.data, |s| {
            for i in 0..part.len() {
                for &id in &s[part.range(i)] {
                    let key = id.key();
                    if Some(key) == sep {
                        sentences.push_id(LINE_BREAK);
                        continue;
                    }
                    let next = numbers.len() as u32;
                    sentences.push_id(*numbers.entry(key).or_insert(next));
                }
                sentences.end_sentence();
            }
        });
    }
    encoded(sentences, numbers.len())
}

fn encoded(sentences: Sentences, vocab_size: usize) -> Encoded {
    Encoded {
        sentences,
        vocab_size,
        vocab: StrTable::default(),
        vanished: Vec::new(),
    }
}

/// Copies every id as it is into `out` (`sep` as [`LINE_BREAK`]); false (with `out` partly
/// filled) as soon as one is not below [`DIRECT_LIMIT`].
fn direct_into(parts: &[IdSeqs<'_>], sep: Option<i128>, out: &mut Sentences) -> bool {
    for part in parts {
        let ok = with_slice!(part.data, |s| {
            (0..part.len()).all(|i| {
                let mut small = true;
                let ids = s[part.range(i)].iter();
                match sep {
                    None => out.extend_ids(ids.map(|&id| {
                        let v = id.small();
                        small &= v.is_some();
                        v.unwrap_or(0)
                    })),
                    Some(sep) => out.extend_ids(ids.map(|&id| {
                        if id.key() == sep {
                            return LINE_BREAK;
                        }
                        let v = id.small();
                        small &= v.is_some();
                        v.unwrap_or(0)
                    })),
                }
                out.end_sentence();
                small
            })
        });
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::intern::encode_texts;
    use crate::text::tokenize::Tokenizer;

    fn seqs<'a>(data: IdData<'a>, starts: &'a [i64], lengths: &'a [i64]) -> IdSeqs<'a> {
        IdSeqs::new(data, starts, lengths, "hyps").unwrap()
    }

    #[test]
    fn dense_ids_are_the_ids_of_the_space_joined_text() {
        let flat: [i64; 7] = [7, -3, 7, 1 << 40, 5, 7, 5];
        let hyps = seqs(IdData::I64(&flat), &[0, 3], &[3, 0]);
        let refs_data: [u64; 4] = [5, 7, 1 << 40, u64::MAX];
        let refs = seqs(IdData::U64(&refs_data), &[0, 2], &[2, 2]);
        let enc = encode_ids(&[hyps, refs], IdMapping::Dense, None);
        let texts = ["7 -3 7", "", "5 7", &format!("{} {}", 1u64 << 40, u64::MAX)];
        let text = encode_texts(&Tokenizer::parse("whitespace", false).unwrap(), &texts);
        assert_eq!(enc.sentences, text.sentences);
        assert_eq!(enc.vocab_size, text.vocab_size);
    }

    #[test]
    fn direct_ids_are_kept_when_small_and_numbered_when_not() {
        let flat: [u32; 4] = [9, 4, 9, DIRECT_LIMIT];
        let small = seqs(IdData::U32(&flat), &[0], &[3]);
        let enc = encode_ids(&[small], IdMapping::Direct, None);
        assert_eq!(enc.sentences.get(0), &[9, 4, 9]);
        let large = seqs(IdData::U32(&flat), &[0, 2], &[2, 2]);
        let enc = encode_ids(&[large], IdMapping::Direct, None);
        assert_eq!(enc.sentences.get(0), &[0, 1]);
        assert_eq!(enc.sentences.get(1), &[0, 2]);
    }

    #[test]
    fn bad_sequences_are_named() {
        let flat: [i32; 3] = [1, 2, 3];
        let err = |s: &[i64], n: &[i64]| {
            IdSeqs::new(IdData::I32(&flat), s, n, "refs")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err(&[0, 1], &[1, -1]), "refs[1] has a negative length (-1)");
        assert_eq!(
            err(&[0, 2], &[1, 2]),
            "refs[1] (ids 2..4) lies outside its buffer of 3 ids"
        );
        assert_eq!(err(&[0], &[1, 1]), "refs: 1 starts for 2 lengths");
    }

    #[test]
    fn a_line_separator_takes_no_number() {
        let flat: [i64; 6] = [1 << 40, 13, 5, 13, 13, 1 << 40];
        for mapping in [IdMapping::Dense, IdMapping::Direct] {
            let all = seqs(IdData::I64(&flat), &[0], &[6]);
            let enc = encode_ids(&[all], mapping, Some(13));
            assert_eq!(
                enc.sentences.get(0),
                &[0, LINE_BREAK, 1, LINE_BREAK, LINE_BREAK, 0]
            );
            assert_eq!(enc.vocab_size, 2);
        }
        let small = seqs(IdData::I64(&flat[1..5]), &[0], &[4]);
        let enc = encode_ids(&[small], IdMapping::Direct, Some(13));
        assert_eq!(
            enc.sentences.get(0),
            &[LINE_BREAK, 5, LINE_BREAK, LINE_BREAK]
        );
        assert_eq!(enc.vocab_size, 6);
    }
}
