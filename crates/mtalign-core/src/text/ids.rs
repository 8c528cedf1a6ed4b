//! Token ids in: batches of integer sequences (a decoder's or a trainer's output) read
//! straight from the caller's memory, for metrics that compare words by equality.
//!
//! The input abstraction is [`IdSeqs`]: one borrowed buffer of integers of any width
//! ([`IdData`]) and, per sequence, where it starts and how long it is. A padded 2-D batch
//! (rows of one width), a flat buffer with offsets and a concatenation of 1-D arrays are all
//! this shape, so a binding only hands over pointers: no object per token, and the ids are
//! read with no interpreter lock held.
//!
//! Ids are what text would become with a whitespace tokenizer over the decimal ids joined by
//! spaces: equal ids are one word. [`encode_ids`] numbers a batch's distinct ids in order of
//! first appearance, exactly as the text path numbers the words of those texts (so metrics
//! that look at id values see the same numbers); [`LocalIds`] encodes one pair for metrics
//! that see ids only through their equality within a pair (the ids themselves when small,
//! no hashing at all).

use crate::text::intern::{Encoded, Sentences, StrTable};
use crate::{Error, Result};
use rayon::prelude::*;
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
    /// The id's bits as a `u64` (a negative id wraps, to at least 2^63).
    fn wide(self) -> u64;
}

macro_rules! id_key {
    ($($t:ty),*) => {$(
        impl IdKey for $t {
            #[inline]
            fn key(self) -> i128 {
                self as i128
            }
            #[inline]
            fn wide(self) -> u64 {
                self as i64 as u64
            }
        }
    )*};
}
id_key!(i8, i16, i32, i64, u8, u16, u32, u64);

/// The largest bound below which [`LocalIds`] keeps ids as they are. Kernels size per-pair
/// tables by the largest id of a pair (as they do for code points, up to 0x10FFFF), so the
/// bound keeps those tables small; larger ids are numbered within the pair.
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

    /// The number of ids of sequence `i`.
    pub fn seq_len(&self, i: usize) -> usize {
        self.lengths[i] as usize
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        let s = self.starts[i] as usize;
        s..s + self.lengths[i] as usize
    }
}

/// Where a line separator stood in an encoded sentence (see [`encode_ids`]); never an id.
pub const LINE_BREAK: u32 = u32::MAX;

/// Ids per chunk of [`encode_ids`]: chunks are numbered apart on the pool, then their
/// distinct ids merged in order. Fixed, so no number depends on the thread count.
const CHUNK_IDS: usize = 1 << 17;

/// The line separator's key in a chunk's numbering: no integer of any width has it.
const SEP_KEY: i128 = i128::MIN;

/// The sequences of every part in order (hypotheses, then references) as one batch of
/// sentences, distinct ids numbered 0, 1, … in order of first appearance, as the text path
/// numbers the words of the same ids written as text. Each id equal to `line_sep` is written
/// as [`LINE_BREAK`] and takes no number, as a line break in text is no word. No vocabulary
/// is kept: the words are the ids, and no metric that reads words (stems, synonyms,
/// characters) takes ids.
///
/// Chunks of about `CHUNK_IDS` ids are numbered on the current rayon pool, each on its
/// own; then each chunk's distinct ids, in order, get the batch's numbers (the only serial
/// step, over distinct ids per chunk rather than every id); then each chunk is renumbered
/// on the pool.
pub fn encode_ids(parts: &[IdSeqs<'_>], line_sep: Option<i64>) -> Encoded {
    let sep = line_sep.map(i128::from);
    let seqs: Vec<(usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (0..part.len()).map(move |i| (p, i)))
        .collect();
    let mut bounds = vec![0];
    let mut ids = 0;
    for (k, &(p, i)) in seqs.iter().enumerate() {
        ids += parts[p].range(i).len();
        if ids >= CHUNK_IDS {
            bounds.push(k + 1);
            ids = 0;
        }
    }
    if bounds.last() != Some(&seqs.len()) {
        bounds.push(seqs.len());
    }
    let mut chunks: Vec<(Sentences, Vec<i128>)> = bounds
        .par_windows(2)
        .map(|w| number_chunk(parts, &seqs[w[0]..w[1]], sep))
        .collect();
    let mut numbers: FxHashMap<i128, u32> = FxHashMap::default();
    let maps: Vec<Vec<u32>> = chunks
        .iter()
        .map(|(_, distinct)| {
            let number = |&key: &i128| {
                if key == SEP_KEY {
                    return LINE_BREAK;
                }
                let next = numbers.len() as u32;
                *numbers.entry(key).or_insert(next)
            };
            distinct.iter().map(number).collect()
        })
        .collect();
    chunks
        .par_iter_mut()
        .zip(&maps)
        .for_each(|((sentences, _), map)| sentences.remap_ids(map));
    let total: usize = parts.iter().map(IdSeqs::total).sum();
    let mut sentences = Sentences::with_capacity(total, seqs.len());
    for (chunk, _) in &chunks {
        sentences.extend_from(chunk);
    }
    Encoded {
        sentences,
        vocab_size: numbers.len(),
        vocab: StrTable::default(),
        vanished: Vec::new(),
    }
}

/// The sequences `seqs` (part, index) numbered on their own: local ids in order of first
/// appearance, and the distinct keys in that order (`sep` as [`SEP_KEY`]).
fn number_chunk(
    parts: &[IdSeqs<'_>],
    seqs: &[(usize, usize)],
    sep: Option<i128>,
) -> (Sentences, Vec<i128>) {
    let total = seqs.iter().map(|&(p, i)| parts[p].range(i).len()).sum();
    let mut sentences = Sentences::with_capacity(total, seqs.len());
    let mut numbers: FxHashMap<i128, u32> = FxHashMap::default();
    let mut distinct = Vec::new();
    for &(p, i) in seqs {
        let part = &parts[p];
        with_slice!(part.data, |s| {
            for &id in &s[part.range(i)] {
                let mut key = id.key();
                if Some(key) == sep {
                    key = SEP_KEY;
                }
                let next = distinct.len() as u32;
                let id = *numbers.entry(key).or_insert_with(|| {
                    distinct.push(key);
                    next
                });
                sentences.push_id(id);
            }
        });
        sentences.end_sentence();
    }
    (sentences, distinct)
}

/// One pair's sequences as `u32` ids local to the pair, for metrics that see ids only
/// through their equality within a pair ([`crate::metrics::metric::Metric::PAIR_LOCAL_IDS`]):
/// the ids themselves when every one is below a bound the metric gives, else the pair's
/// distinct ids numbered in order of first appearance (so a pair has at most as many ids as
/// tokens, whatever the vocabulary): through a table indexed by id below [`DIRECT_LIMIT`],
/// by hashing above. Either way equal ids get equal numbers and different
/// ids different ones, which is all such a metric reads. The table is kept between pairs.
#[derive(Debug, Default)]
pub struct LocalIds {
    /// The pair's ids as read (below 2^32 when used), and each sequence's length.
    raw: Vec<u32>,
    lens: Vec<usize>,
    /// Ids below [`DIRECT_LIMIT`]: per id, the stamp of the last pair that saw it (high
    /// half) and its number there (low half).
    stamps: Vec<u64>,
    stamp: u32,
    /// Larger ids: open addressing over the exact integers.
    keys: Vec<i128>,
    ids: Vec<u32>,
    used: Vec<u32>,
    shift: u32,
}

impl LocalIds {
    /// An empty table (it grows on first use and is kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes sequence `i` of `part` for each `(part, i)` of `seqs`, in order, as one
    /// sentence each into `out` (cleared first): the ids as they are when all are in
    /// `0..limit` (a power of two at most [`DIRECT_LIMIT`], or 0), else numbered; an id equal to
    /// `line_sep` is written as [`LINE_BREAK`] and takes no number.
    pub fn encode<'s, 'a: 's>(
        &mut self,
        seqs: impl Iterator<Item = (&'s IdSeqs<'a>, usize)> + Clone,
        limit: u32,
        line_sep: Option<i64>,
        out: &mut Sentences,
    ) {
        debug_assert!((limit == 0 || limit.is_power_of_two()) && limit <= DIRECT_LIMIT);
        let sep = line_sep.map(i128::from);
        out.clear();
        // First the ids as they are, and the OR of them all: the bounds are powers of two,
        // so every id is below one when the OR is (a negative id wraps to a huge value).
        self.raw.clear();
        self.lens.clear();
        let mut bits = 0u64;
        for (part, i) in seqs.clone() {
            let start = self.raw.len();
            with_slice!(part.data, |s| {
                let ids = s[part.range(i)].iter();
                match sep {
                    None => self.raw.extend(ids.map(|&id| {
                        bits |= id.wide();
                        id.wide() as u32
                    })),
                    Some(sep) => self.raw.extend(ids.map(|&id| {
                        if id.key() == sep {
                            return LINE_BREAK;
                        }
                        bits |= id.wide();
                        id.wide() as u32
                    })),
                }
            });
            self.lens.push(self.raw.len() - start);
        }
        if bits < u64::from(limit) {
            let mut start = 0;
            for &len in &self.lens {
                out.extend_ids(self.raw[start..start + len].iter().copied());
                out.end_sentence();
                start += len;
            }
            return;
        }
        if bits < u64::from(DIRECT_LIMIT) {
            self.number_small(bits as usize + 1, out);
            return;
        }
        out.clear();
        let total: usize = seqs.clone().map(|(p, i)| p.range(i).len()).sum();
        self.reset(total);
        let mut next = 0u32;
        for (part, i) in seqs {
            with_slice!(part.data, |s| {
                for &id in &s[part.range(i)] {
                    let key = id.key();
                    if Some(key) == sep {
                        out.push_id(LINE_BREAK);
                        continue;
                    }
                    out.push_id(self.number(key, &mut next));
                }
            });
            out.end_sentence();
        }
    }

    /// Numbers the ids read into `raw` (all below `size` ≤ [`DIRECT_LIMIT`]) into `out`,
    /// through a table indexed by id: each slot holds the pair's stamp and the id's number,
    /// so nothing is cleared between pairs and nothing is hashed.
    fn number_small(&mut self, size: usize, out: &mut Sentences) {
        if self.stamps.len() < size {
            self.stamps.resize(size, 0);
        }
        if self.stamp == u32::MAX {
            // Stamps wrapped: no slot may keep one that a later pair could take for its own.
            self.stamps.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = u64::from(self.stamp) << 32;
        let (raw, stamps) = (&self.raw, &mut self.stamps);
        let mut next = 0u32;
        let mut start = 0;
        for &len in &self.lens {
            out.extend_ids(raw[start..start + len].iter().map(|&id| {
                if id == LINE_BREAK {
                    return LINE_BREAK;
                }
                // Without branches (whether an id was seen is not predictable).
                let slot = &mut stamps[id as usize];
                let seen = *slot & !0xFFFF_FFFF == stamp;
                let number = if seen { *slot as u32 } else { next };
                *slot = stamp | u64::from(number);
                next += u32::from(!seen);
                number
            }));
            out.end_sentence();
            start += len;
        }
    }

    /// Empties the table and sizes it for `tokens` keys (at most half full).
    fn reset(&mut self, tokens: usize) {
        for &s in &self.used {
            self.ids[s as usize] = u32::MAX;
        }
        self.used.clear();
        let cap = (2 * tokens).next_power_of_two().max(64);
        if self.ids.len() < cap {
            self.ids = vec![u32::MAX; cap];
            self.keys = vec![0; cap];
            self.shift = 64 - cap.trailing_zeros();
        }
    }

    /// The pair-local number of `key`, `next` (then incremented) when it is new.
    #[inline]
    fn number(&mut self, key: i128, next: &mut u32) -> u32 {
        let mask = self.ids.len() - 1;
        let mixed = (key as u64) ^ ((key >> 64) as u64).rotate_left(17);
        let mut s = (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let id = self.ids[s];
            if id == u32::MAX {
                self.ids[s] = *next;
                self.keys[s] = key;
                self.used.push(s as u32);
                *next += 1;
                return *next - 1;
            }
            if self.keys[s] == key {
                return id;
            }
            s = (s + 1) & mask;
        }
    }
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
        let enc = encode_ids(&[hyps, refs], None);
        let texts = ["7 -3 7", "", "5 7", &format!("{} {}", 1u64 << 40, u64::MAX)];
        let text = encode_texts(&Tokenizer::parse("whitespace", false).unwrap(), &texts);
        assert_eq!(enc.sentences, text.sentences);
        assert_eq!(enc.vocab_size, text.vocab_size);
    }

    #[test]
    fn chunks_numbered_apart_give_the_batch_numbering_on_any_pool() {
        // Over 4 chunks, ids repeating across chunks, a separator now and then.
        let flat: Vec<i64> = (0..4 * CHUNK_IDS as i64)
            .map(|k| (k * 7919) % 100_003 - 50)
            .collect();
        let n = flat.len() as i64 / 1000;
        let starts: Vec<i64> = (0..n).map(|i| i * 1000).collect();
        let lengths = vec![1000; n as usize];
        let all = seqs(IdData::I64(&flat), &starts, &lengths);
        let mut numbers = std::collections::HashMap::new();
        let want: Vec<Vec<u32>> = starts
            .iter()
            .map(|&s| {
                flat[s as usize..s as usize + 1000]
                    .iter()
                    .map(|&id| {
                        if id == 7 {
                            return LINE_BREAK;
                        }
                        let next = numbers.len() as u32;
                        *numbers.entry(id).or_insert(next)
                    })
                    .collect()
            })
            .collect();
        for threads in [1, 3] {
            let enc = crate::pool::run(Some(threads), || encode_ids(&[all], Some(7))).unwrap();
            assert_eq!(enc.sentences, Sentences::from_ids(&want));
            assert_eq!(enc.vocab_size, numbers.len());
        }
    }

    #[test]
    fn local_ids_are_kept_below_the_bound_and_numbered_above() {
        let flat: [u32; 4] = [9, 4, 9, 1 << 15];
        let all = seqs(IdData::U32(&flat), &[0, 2], &[2, 2]);
        let mut local = LocalIds::new();
        let mut out = Sentences::default();
        local.encode([(&all, 0)].into_iter(), 1 << 15, None, &mut out);
        assert_eq!(out, Sentences::from_ids(&[[9, 4]]));
        // The second sequence first: numbered in the order given.
        local.encode([(&all, 1), (&all, 0)].into_iter(), 1 << 15, None, &mut out);
        assert_eq!(out, Sentences::from_ids(&[vec![0, 1], vec![0, 2]]));
        local.encode(
            [(&all, 1), (&all, 0)].into_iter(),
            DIRECT_LIMIT,
            None,
            &mut out,
        );
        assert_eq!(out, Sentences::from_ids(&[vec![9, 1 << 15], vec![9, 4]]));
        // A bound of 0: always numbered.
        local.encode([(&all, 0)].into_iter(), 0, None, &mut out);
        assert_eq!(out, Sentences::from_ids(&[[0, 1]]));
        // An int64 -1 and a uint64 2^64 - 1 are different ids.
        let (minus, max) = ([-1i64, 5], [u64::MAX, 5]);
        let a = seqs(IdData::I64(&minus), &[0], &[2]);
        let b = seqs(IdData::U64(&max), &[0], &[2]);
        local.encode([(&a, 0), (&b, 0)].into_iter(), 1 << 15, None, &mut out);
        assert_eq!(out, Sentences::from_ids(&[vec![0, 1], vec![2, 1]]));
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
        let all = seqs(IdData::I64(&flat), &[0], &[6]);
        let enc = encode_ids(&[all], Some(13));
        let want = [0, LINE_BREAK, 1, LINE_BREAK, LINE_BREAK, 0];
        assert_eq!(enc.sentences.get(0), &want);
        assert_eq!(enc.vocab_size, 2);
        let mut out = Sentences::default();
        LocalIds::new().encode([(&all, 0)].into_iter(), 1 << 15, Some(13), &mut out);
        assert_eq!(out.get(0), &want);
        let small = seqs(IdData::I64(&flat[1..5]), &[0], &[4]);
        LocalIds::new().encode([(&small, 0)].into_iter(), 1 << 15, Some(13), &mut out);
        assert_eq!(out.get(0), &[LINE_BREAK, 5, LINE_BREAK, LINE_BREAK]);
    }
}
