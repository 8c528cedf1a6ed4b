//! Token interning: sentences of tokens → sentences of dense `u32` ids.
//!
//! Every sentence of a batch (hypotheses and references together) is tokenized once and its
//! tokens mapped to ids shared across the batch, so kernels compare `u32`s, never strings.
//!
//! Work is split into fixed-size chunks (independent of the thread count): each chunk is
//! tokenized and interned locally in parallel, then local vocabularies are merged in chunk
//! order. Ids are therefore assigned in order of first appearance, whatever the thread count.

use crate::prefetch::prefetch;
use crate::text::tokenize::{sacrebleu, Tokenizer, TokenizerKind};
use hashbrown::HashTable;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Sentences as one flat id buffer plus end offsets (sentence `i` is
/// `ids[ends[i-1]..ends[i]]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sentences {
    ids: Vec<u32>,
    ends: Vec<usize>,
}

impl Sentences {
    /// The number of sentences.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no sentence.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The token ids of sentence `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.ids[start..self.ends[i]]
    }

    /// The token ids of each sentence, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The ids of sentences `range` (consecutive, so one slice): a document made of lines.
    pub fn span(&self, range: std::ops::Range<usize>) -> &[u32] {
        if range.is_empty() {
            return &[];
        }
        let start = if range.start == 0 {
            0
        } else {
            self.ends[range.start - 1]
        };
        &self.ids[start..self.ends[range.end - 1]]
    }

    /// Appends the sentences of `other`.
    pub fn extend_from(&mut self, other: &Sentences) {
        let base = self.ids.len();
        self.ids.extend_from_slice(&other.ids);
        self.ends.extend(other.ends.iter().map(|&e| base + e));
    }

    /// Replaces every id by `map[id]` (stemming merges ids this way).
    pub fn remap_ids(&mut self, map: &[u32]) {
        self.ids.iter_mut().for_each(|id| *id = map[*id as usize]);
    }

    /// Room for `ids` ids in `sentences` sentences.
    pub fn with_capacity(ids: usize, sentences: usize) -> Self {
        Self {
            ids: Vec::with_capacity(ids),
            ends: Vec::with_capacity(sentences),
        }
    }

    /// Forgets every sentence, keeping the memory.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.ends.clear();
    }

    /// Appends one id to the sentence being built ([`Sentences::end_sentence`] ends it).
    #[inline]
    pub fn push_id(&mut self, id: u32) {
        self.ids.push(id);
    }

    /// Appends ids to the sentence being built.
    pub fn extend_ids(&mut self, ids: impl IntoIterator<Item = u32>) {
        self.ids.extend(ids);
    }

    /// Ends the sentence being built (its ids are those pushed since the last end).
    pub fn end_sentence(&mut self) {
        self.ends.push(self.ids.len());
    }

    /// The largest id of every sentence (None when there is none).
    pub fn max_id(&self) -> Option<u32> {
        self.ids.iter().copied().max()
    }

    /// Builds sentences from id lists (tests, and callers that intern elsewhere).
    pub fn from_ids<S: AsRef<[u32]>>(sentences: &[S]) -> Self {
        let mut out = Sentences::default();
        for s in sentences {
            out.ids.extend_from_slice(s.as_ref());
            out.ends.push(out.ids.len());
        }
        out
    }
}

/// The result of encoding a batch.
#[derive(Debug, Clone, Default)]
pub struct Encoded {
    /// The token ids of each text.
    pub sentences: Sentences,
    /// Number of distinct tokens (ids are `0..vocab_size`).
    pub vocab_size: usize,
    /// The distinct tokens in id order (empty for the character tokenizers, whose ids are
    /// code points).
    pub vocab: StrTable,
    /// Indices of sentences whose text had non-space characters but produced no token.
    pub vanished: Vec<usize>,
}

/// Sentences per chunk: fixed, so interning order never depends on the thread count.
const CHUNK: usize = 1024;

/// Distinct strings numbered 0, 1, 2, … in first-seen order, stored in one buffer: the
/// hash table holds only ids and compares against that buffer, so interning allocates
/// nothing per string. Used for the tokens of a chunk and for the texts of a batch.
///
/// Strings of at most 12 bytes (99% of English words) go to a second table keyed by their
/// bytes packed into a `u64` and a `u32`: hashed by multiplications and compared as integers,
/// never against the buffer (measured: 2x fewer instructions per token than the byte-string
/// path).
#[derive(Debug, Default)]
pub struct StrTable {
    table: HashTable<u32>,
    short: ShortTable,
    /// The strings' bytes, one after another (`ends[id]` is where string `id` ends): the
    /// bytes of strs, kept as bytes so that a short string is appended by one fixed-size
    /// copy of its packed form (no call to `memcpy`, no validation).
    text: Vec<u8>,
    ends: Vec<usize>,
    /// Changes whenever the ids stop meaning what they meant (the table is emptied); 0
    /// until [`StrTable::epoch`] is first asked. Callers that keep ids between uses of the
    /// table compare it.
    epoch: u64,
}

impl Clone for StrTable {
    /// A copy with its own epoch: the two tables may give the same new id to different
    /// strings from now on.
    fn clone(&self) -> Self {
        Self {
            table: self.table.clone(),
            short: self.short.clone(),
            text: self.text.clone(),
            ends: self.ends.clone(),
            epoch: 0,
        }
    }
}

/// The last epoch given to a table (epochs are unique in the process).
static EPOCHS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A string of at most [`SHORT_MAX`] bytes whose last byte is not NUL ([`packs`]): its bytes
/// (zero-padded, little-endian; bytes 0–7 in `low`, 8–11 in `high`), which also tell its
/// length, and its id. 16 bytes: four slots to a cache line.
#[derive(Debug, Clone, Copy)]
struct ShortKey {
    low: u64,
    high: u32,
    id: u32,
}

/// The longest string the packed table holds.
const SHORT_MAX: usize = 12;

/// Whether `bytes` go to the packed table: at most [`SHORT_MAX`] of them, the last not NUL
/// (their packed form, zero-padded, then tells their length).
#[inline]
fn packs(bytes: &[u8]) -> bool {
    bytes.len() <= SHORT_MAX && bytes.last() != Some(&0)
}

const EMPTY: u32 = u32::MAX;

/// Open addressing with linear probing over [`ShortKey`]s, at most half full: a look-up is a
/// multiply, a shift and (almost always) one slot compared as integers.
#[derive(Debug, Clone, Default)]
struct ShortTable {
    slots: Vec<ShortKey>,
    len: usize,
    /// The occupied slots, so that emptying a table that grew large for an earlier batch
    /// costs what it holds, not its size (a one-pair call after a warm vocabulary).
    used: Vec<u32>,
}

impl ShortTable {
    fn with_capacity(strings: usize) -> Self {
        let mut table = Self::default();
        // Grows as needed: a table of long texts (a batch's) should not zero a big array.
        table.resize((strings * 2).clamp(16, 1 << 15).next_power_of_two());
        table
    }

    fn slot_of(&self, low: u64, high: u32) -> usize {
        // Fibonacci hashing: the high bits of a multiplication depend on every input bit
        // (`high`, zero for most words, by a multiplication of its own, done alongside:
        // the slot's address waits for one multiplication, not two in a row).
        let x = low
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(u64::from(high).wrapping_mul(0xC2B2_AE3D_27D4_EB4F));
        let bits = self.slots.len().trailing_zeros();
        (x >> (64 - bits)) as usize
    }

    /// The id of the key, or where it goes.
    #[inline]
    fn find(&self, low: u64, high: u32) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = self.slot_of(low, high);
        loop {
            let slot = self.slots[i];
            if slot.id == EMPTY {
                return Err(i);
            }
            if slot.low == low && slot.high == high {
                return Ok(slot.id);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert_at(&mut self, i: usize, key: ShortKey) {
        self.slots[i] = key;
        self.used.push(i as u32);
        self.len += 1;
        if 2 * self.len > self.slots.len() {
            self.resize(self.slots.len() * 2);
        }
    }

    fn resize(&mut self, capacity: usize) {
        let empty = ShortKey {
            low: 0,
            high: 0,
            id: EMPTY,
        };
        let old = std::mem::replace(&mut self.slots, vec![empty; capacity]);
        self.used.clear();
        for key in old.into_iter().filter(|k| k.id != EMPTY) {
            if let Err(i) = self.find(key.low, key.high) {
                self.slots[i] = key;
                self.used.push(i as u32);
            }
        }
    }

    fn clear(&mut self) {
        if 4 * self.used.len() < self.slots.len() {
            for &i in &self.used {
                self.slots[i as usize].id = EMPTY;
            }
        } else {
            self.slots.iter_mut().for_each(|k| k.id = EMPTY);
        }
        self.used.clear();
        self.len = 0;
    }
}

impl StrTable {
    /// An empty table with room for `strings` strings.
    pub fn with_capacity(strings: usize) -> Self {
        Self {
            table: HashTable::with_capacity(strings),
            short: ShortTable::with_capacity(strings),
            text: Vec::new(),
            ends: Vec::with_capacity(strings),
            epoch: 0,
        }
    }

    /// The number of distinct strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the table holds no string.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The string of `id` (an id the table gave).
    pub fn get(&self, id: u32) -> &str {
        str_at(&self.text, &self.ends, id)
    }

    /// Forgets every string, keeping the memory for the next use.
    pub fn clear(&mut self) {
        self.table.clear();
        self.short.clear();
        self.text.clear();
        self.ends.clear();
        self.epoch = 0;
    }

    /// A number that stays the same while the ids keep their strings (the table only grows)
    /// and differs from every other table's and from this table's before it was emptied.
    pub fn epoch(&mut self) -> u64 {
        if self.epoch == 0 {
            self.epoch = EPOCHS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        }
        self.epoch
    }

    /// Bytes of all strings together.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    /// The strings in id order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len() as u32).map(move |id| self.get(id))
    }

    /// The id of `s`, and whether it was new.
    pub fn intern(&mut self, s: &str) -> (u32, bool) {
        if packs(s.as_bytes()) {
            return self.intern_short(s);
        }
        let hash = FxBuildHasher.hash_one(s);
        let (text, ends) = (&self.text, &self.ends);
        if let Some(&id) = self
            .table
            .find(hash, |&id| bytes_at(text, ends, id) == s.as_bytes())
        {
            return (id, false);
        }
        let id = self.ends.len() as u32;
        self.text.extend_from_slice(s.as_bytes());
        self.ends.push(self.text.len());
        let (text, ends) = (&self.text, &self.ends);
        self.table.insert_unique(hash, id, |&id| {
            FxBuildHasher.hash_one(str_at(text, ends, id))
        });
        (id, true)
    }
}

impl StrTable {
    /// [`StrTable::intern`] of `text[start..end]`, a token inside a longer buffer: a short
    /// one is packed by whole-word loads from the buffer (one or two, instead of a loop over
    /// its bytes). The short table has slots ([`StrTable::ensure_short_table`]).
    #[inline]
    fn intern_span(&mut self, text: &str, start: usize, end: usize) -> (u32, bool) {
        let len = end - start;
        let bytes = text.as_bytes();
        if !packs(&bytes[start..end]) {
            return self.intern(&text[start..end]);
        }
        let low = pack_word(bytes, start, len.min(8));
        let high = if len > 8 {
            pack_word(bytes, start + 8, len - 8)
        } else {
            0
        };
        self.intern_packed(low, high as u32, len as u32)
    }

    fn intern_short(&mut self, s: &str) -> (u32, bool) {
        self.ensure_short_table();
        let [low, high] = pack_short_word(s.as_bytes(), 0, s.len());
        self.intern_packed(low, high as u32, s.len() as u32)
    }

    /// A default (empty) table has no slots yet: [`StrTable::intern_packed`] needs some.
    fn ensure_short_table(&mut self) {
        if self.short.slots.is_empty() {
            self.short.resize(16);
        }
    }

    /// [`StrTable::intern`] of the string of `len` bytes that [`packs`] accepts, packed
    /// little-endian in `low` and `high` (zero above `len`), the bytes of a str (or of that
    /// str lowercased). The short table has slots ([`StrTable::ensure_short_table`]).
    #[inline]
    fn intern_packed(&mut self, low: u64, high: u32, len: u32) -> (u32, bool) {
        // A hit is inlined into the word reader; a new string (rarer) is a call.
        match self.short.find(low, high) {
            Ok(id) => (id, false),
            Err(slot) => (self.insert_packed(slot, (low, high), len), true),
        }
    }

    /// Adds the packed string at the free slot `slot` of the short table: its new id. Its
    /// bytes are appended from the packed form: 12 bytes, then cut to its length.
    #[inline(never)]
    fn insert_packed(&mut self, slot: usize, (low, high): (u64, u32), len: u32) -> u32 {
        let id = self.ends.len() as u32;
        let mut bytes = [0u8; SHORT_MAX];
        bytes[..8].copy_from_slice(&low.to_le_bytes());
        bytes[8..].copy_from_slice(&high.to_le_bytes());
        let start = self.text.len();
        self.text.extend_from_slice(&bytes);
        self.text.truncate(start + len as usize);
        self.ends.push(self.text.len());
        self.short.insert_at(slot, ShortKey { low, high, id });
        id
    }
}

/// The `len` ≤ 8 bytes of `bytes` from `start`, packed little-endian (zero above `len`): one
/// unaligned load where 8 bytes are readable, byte by byte near the end of the text.
#[inline]
fn pack_word(bytes: &[u8], start: usize, len: usize) -> u64 {
    match bytes.get(start..start + 8) {
        Some(eight) => {
            let word = u64::from_le_bytes(eight.try_into().unwrap_or_default());
            if len >= 8 {
                word
            } else {
                word & ((1u64 << (8 * len)) - 1)
            }
        }
        None => bytes[start..start + len]
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
    }
}

/// The `len` ≤ [`SHORT_MAX`] bytes of `bytes` from `start`, packed little-endian in two words
/// (zero above `len`): two unaligned loads where 16 bytes are readable, masked with no branch
/// on the length (words of 1–8 and 9–12 bytes are mixed in any text).
#[inline(always)]
fn pack_short_word(bytes: &[u8], start: usize, len: usize) -> [u64; 2] {
    match bytes.get(start..start + 16) {
        Some(sixteen) if len > 0 => {
            let low = u64::from_le_bytes(sixteen[..8].try_into().unwrap_or_default());
            let high = u64::from_le_bytes(sixteen[8..].try_into().unwrap_or_default());
            // The bytes to keep, as two words read from a table by the length (a shift of
            // a u128 is a sequence of shifts and conditional moves).
            let [keep_low, keep_high] = KEEP_BYTES[len];
            [low & keep_low, high & keep_high]
        }
        _ => {
            let high = if len > 8 {
                pack_word(bytes, start + 8, len - 8)
            } else {
                0
            };
            [pack_word(bytes, start, len.min(8)), high]
        }
    }
}

/// `KEEP_BYTES[len]`: the masks of the first `len` ≤ [`SHORT_MAX`] bytes of two words.
const KEEP_BYTES: [[u64; 2]; SHORT_MAX + 1] = {
    let mut t = [[0u64; 2]; SHORT_MAX + 1];
    let mut len = 1;
    while len <= SHORT_MAX {
        let keep = u128::MAX >> (128 - 8 * len);
        t[len] = [keep as u64, (keep >> 64) as u64];
        len += 1;
    }
    t
};

/// ASCII letters and digits packed in a `u64` (zero padding), with `A`–`Z` lowercased:
/// `keep` masks the word's bytes ([`KEEP_BYTES`]), each of which gets bit 0x20, the bit that
/// lowercases a capital and that lowercase letters and digits already have (one operation
/// between the word's load and its hash: the slot's address waits for it).
#[inline]
fn lowercase_packed_word(word: u64, keep: u64) -> u64 {
    word | (0x2020_2020_2020_2020 & keep)
}

/// One class of bytes for [`range_masks`]: the union of these ASCII byte ranges (inclusive).
pub(crate) type ByteRanges = &'static [(u8, u8)];

/// The 64 bytes of `bytes` from `i`, packed little-endian in eight words (zero bytes past the
/// end of `bytes`).
#[inline(always)]
pub(crate) fn block_words(bytes: &[u8], i: usize) -> [u64; 8] {
    let mut tail = [0u8; 64];
    let block = match bytes[i..].first_chunk::<64>() {
        Some(block) => block,
        None => {
            // One copy of the last bytes (a text's last block is mostly partial).
            let rest = &bytes[i..];
            tail[..rest.len()].copy_from_slice(rest);
            &tail
        }
    };
    let mut words = [0u64; 8];
    for (k, word) in words.iter_mut().enumerate() {
        let eight = block[8 * k..8 * k + 8].try_into().unwrap_or_default();
        *word = u64::from_le_bytes(eight);
    }
    words
}

/// [`range_masks`] of the 64 bytes of `bytes` from `i` < `bytes.len()` (bytes past its end in
/// no class). A text's last block is nearly always partial: where the text has 64 bytes, its
/// last 64 are classified and the masks shifted down to start at `i`, with no copy of the
/// partial block into a zeroed one.
#[inline(always)]
pub(crate) fn block_masks<const K: usize>(
    bytes: &[u8],
    i: usize,
    classes: &[ByteRanges; K],
) -> ([u64; K], u64) {
    let n = bytes.len();
    let left = n - i;
    if left < 64 && n >= 64 {
        let shift = 64 - left;
        let (masks, high) = range_masks(&block_words(bytes, n - 64), classes);
        return (masks.map(|m| m >> shift), high >> shift);
    }
    range_masks(&block_words(bytes, i), classes)
}

/// The classes of 64 bytes (packed in `words` as by [`block_words`]) as bit masks, bit j for
/// byte j: for each of `classes`, the bytes in one of its ranges; then the bytes ≥ 0x80.
/// Both text readers ([`LocalChunk::push_words`], sacrebleu's 13a reader) find their tokens
/// with it. `classes` are constants, so the loops over them unroll.
#[inline]
#[allow(unsafe_code)]
pub(crate) fn range_masks<const K: usize>(
    words: &[u64; 8],
    classes: &[ByteRanges; K],
) -> ([u64; K], u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 processor has it.
    return unsafe { range_masks_sse2(words, classes) };
    #[cfg(not(target_arch = "x86_64"))]
    range_masks_by_words(words, classes)
}

/// [`range_masks`] 16 bytes at a time by SSE2 compares.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse2")]
fn range_masks_sse2<const K: usize>(
    words: &[u64; 8],
    classes: &[ByteRanges; K],
) -> ([u64; K], u64) {
    use std::arch::x86_64::{
        _mm_add_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_set_epi64x, _mm_setzero_si128,
    };
    let mut masks = [0u64; K];
    let mut high = 0u64;
    for k in 0..4 {
        let x = _mm_set_epi64x(words[2 * k + 1] as i64, words[2 * k] as i64);
        for (mask, ranges) in masks.iter_mut().zip(classes) {
            let mut any = _mm_setzero_si128();
            for &(lo, hi) in ranges.iter() {
                // Signed compares of bytes shifted so that the range starts at -128: a byte
                // is in `lo..=hi` when `b + (0x80 - lo)` (wrapping) is below `-128 + count`.
                let shifted = _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
                let count = hi.wrapping_sub(lo).wrapping_add(1);
                let below = _mm_set1_epi8(0x80u8.wrapping_add(count) as i8);
                any = _mm_or_si128(any, _mm_cmplt_epi8(shifted, below));
            }
            *mask |= u64::from(_mm_movemask_epi8(any) as u16) << (16 * k);
        }
        high |= u64::from(_mm_movemask_epi8(x) as u16) << (16 * k);
    }
    (masks, high)
}

/// [`range_masks`] eight bytes at a time in a `u64` (the portable fallback).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn range_masks_by_words<const K: usize>(
    words: &[u64; 8],
    classes: &[ByteRanges; K],
) -> ([u64; K], u64) {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    // Bit 7 of each byte → bit k of one byte (no two products overlap).
    let gather = |high: u64| ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
    let mut masks = [0u64; K];
    let mut high = 0u64;
    for (k, &word) in words.iter().enumerate() {
        let x = word & LOW7;
        // With each byte below 0x80, adding 0x80 - lo never carries into the next byte and
        // sets bit 7 exactly where the byte is ≥ lo (lo ≤ 0x80).
        let at_least = |lo: u8| x + ONES * u64::from(0x80 - lo);
        for (mask, ranges) in masks.iter_mut().zip(classes) {
            let mut any = 0;
            for &(lo, hi) in ranges.iter() {
                any |= at_least(lo) & !at_least(hi + 1);
            }
            *mask |= gather(any & !word & HIGH_BITS) << (8 * k);
        }
        high |= gather(word & HIGH_BITS) << (8 * k);
    }
    (masks, high)
}

/// The classes of 64 bytes of text as bit masks (bit j for byte j): `word` the bytes that are
/// not ASCII separators (ASCII letters and digits, every byte ≥ 0x80), `upper` the ASCII
/// capitals, `non_ascii` the bytes ≥ 0x80. Bytes past the text's end count as separators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockClasses {
    word: u64,
    upper: u64,
    non_ascii: u64,
}

impl BlockClasses {
    /// The classes of `bytes[i..i + 64]` (`i` < `bytes.len()`; bytes past the end in no class).
    #[inline]
    fn at(bytes: &[u8], i: usize) -> Self {
        // Capitals are one class of their own: letters and digits are it and the other
        // (three ranges compared, not four).
        const LOWER_OR_DIGIT: ByteRanges = &[(b'0', b'9'), (b'a', b'z')];
        const UPPER: ByteRanges = &[(b'A', b'Z')];
        let ([lower_or_digit, upper], non_ascii) = block_masks(bytes, i, &[LOWER_OR_DIGIT, UPPER]);
        Self {
            word: lower_or_digit | upper | non_ascii,
            upper,
            non_ascii,
        }
    }
}

impl BlockClasses {
    /// Makes the characters of Unicode's General Punctuation block (U+2000–U+206F: spaces,
    /// dashes, quotation marks, ellipsis; none a letter, digit or mark, so the tokenizer
    /// splits at each) separators, as ASCII punctuation is: English text's curly quotes and
    /// dashes then leave its words on the ASCII path. `block` starts at the block's first
    /// byte. A character that crosses the block's end is left as it was (its run takes the
    /// tokenizer's path, which gives the same tokens).
    fn split_at_punctuation(&mut self, block: &[u8]) {
        let mut punctuation = 0u64;
        // Lead bytes of 3-byte characters that may be U+2000–U+206F (UTF-8 E2 80 xx or
        // E2 81 80–AF), with their two continuation bytes in the block.
        let mut leads = self.non_ascii & (u64::MAX >> 2);
        while leads != 0 {
            let j = leads.trailing_zeros() as usize;
            leads &= leads - 1;
            let Some(&[lead, second, third]) = block.get(j..j + 3) else {
                continue;
            };
            if lead == 0xE2 && (second == 0x80 || second == 0x81 && third < 0xB0) {
                punctuation |= 0b111 << j;
                leads &= !(0b110 << j);
            }
        }
        self.word &= !punctuation;
        self.non_ascii &= !punctuation;
    }
}

/// Byte classes of the run reader ([`LocalChunk::push_words`]): 0 an ASCII separator, else
/// a bit set of [`LOWER`] (lowercase letter or digit), [`UPPER`] (uppercase letter),
/// [`OTHER`] (a byte of a non-ASCII character).
const RUN_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            t[b] = LOWER;
        } else if c.is_ascii_uppercase() {
            t[b] = UPPER;
        } else if c >= 0x80 {
            t[b] = OTHER;
        }
        b += 1;
    }
    t
};
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const OTHER: u8 = 4;

fn bytes_at<'a>(text: &'a [u8], ends: &[usize], id: u32) -> &'a [u8] {
    let k = id as usize;
    let start = if k == 0 { 0 } else { ends[k - 1] };
    &text[start..ends[k]]
}

/// String `id` of a [`StrTable`]'s bytes: every string was interned from a str (or packed
/// from one), so the check never fails (an empty string if it did).
fn str_at<'a>(text: &'a [u8], ends: &[usize], id: u32) -> &'a str {
    std::str::from_utf8(bytes_at(text, ends, id)).unwrap_or_default()
}

/// One chunk interned on its own: local ids, sentence ends and the local vocabulary.
struct LocalChunk {
    vocab: StrTable,
    ids: Vec<u32>,
    ends: Vec<usize>,
    /// Chunk-relative indices of sentences that vanished in tokenization.
    vanished: Vec<usize>,
    /// Scratch of the 13a reader ([`sacrebleu::scan_13a_plain`]).
    blocks_13a: Vec<[u64; 6]>,
}

/// How many texts ahead [`LocalChunk::fill`] asks for a text's first bytes.
const PREFETCH_TEXTS: usize = 8;

impl LocalChunk {
    fn new(sentences: usize) -> Self {
        // Sized for typical sentences, so the table rarely grows.
        Self {
            vocab: StrTable::with_capacity(sentences * 8),
            ids: Vec::with_capacity(sentences * 24),
            ends: Vec::with_capacity(sentences),
            vanished: Vec::new(),
            blocks_13a: Vec::new(),
        }
    }

    /// Tokenizes and interns `texts` into this (empty) chunk.
    fn fill<S: AsRef<str>>(
        &mut self,
        tokenizer: &Tokenizer,
        texts: &[S],
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) {
        let unicode = tokenizer.kind == TokenizerKind::Unicode;
        for (k, text) in texts.iter().enumerate() {
            if let Some(ahead) = texts.get(k + PREFETCH_TEXTS) {
                // A batch's texts are read once, from memory: a text's first lines were the
                // one wait the tokenizer could not hide (ROUGE-L, 46,701 distinct pairs, one
                // thread: 69 -> 62 ms).
                let ahead = ahead.as_ref();
                for line in (0..ahead.len().min(256)).step_by(64) {
                    prefetch(ahead.as_ptr().wrapping_add(line));
                }
            }
            let text = text.as_ref();
            if unicode {
                // The common case in one pass: words read, lowercased and interned as they
                // end, with no copy of the text and no span list (same tokens as below).
                let before = self.ids.len();
                if self.push_words(text, tokenizer.lowercase, buf, spans) {
                    if self.ids.len() == before && text.chars().any(|c| !c.is_whitespace()) {
                        self.vanished.push(k);
                    }
                    self.end_sentence();
                    continue;
                }
                // A capital sigma: the text goes through the tokenizer. The words read before
                // it are that text's first tokens, interned in the same order: they keep the
                // ids they were given.
                self.ids.truncate(before);
            }
            let plain_13a = tokenizer.kind == TokenizerKind::Sacre13a && !tokenizer.lowercase;
            let before = self.ids.len();
            if plain_13a && self.push_13a_plain(text) {
                if self.ids.len() == before && text.chars().any(|c| !c.is_whitespace()) {
                    self.vanished.push(k);
                }
                self.end_sentence();
                continue;
            }
            // 13a's tokens are ranges of the text itself unless it lowercases or rewrites it.
            let source = if plain_13a && sacrebleu::spans_13a_in_place(text, spans) {
                text
            } else {
                tokenizer.tokenize_into(text, buf, spans);
                buf.as_str()
            };
            if spans.is_empty() && text.chars().any(|c| !c.is_whitespace()) {
                self.vanished.push(k);
            }
            self.vocab.ensure_short_table();
            for &(s, e) in spans.iter() {
                let (id, _) = self.vocab.intern_span(source, s as usize, e as usize);
                self.ids.push(id);
            }
            self.end_sentence();
        }
    }

    /// The `unicode` tokenizer, on a text without a capital sigma (lowercasing is per
    /// character except for a capital sigma, whose lowercase depends on the letters around
    /// it, so such a text can be lowercased word by word). ASCII bytes other than letters and
    /// digits always end a token, so the text is read as runs between them, found 64 bytes at
    /// a time by bit masks ([`BlockClasses`]): a run of ASCII letters and digits is one word
    /// (packed and lowercased in registers when it has at most 12 bytes), a run with other
    /// characters goes through the tokenizer. False, with the words before it pushed, when a
    /// run has a capital sigma (found there rather than by a pass over every text: the text
    /// is read from memory once).
    fn push_words(
        &mut self,
        text: &str,
        lowercase: bool,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
        self.vocab.ensure_short_table();
        // The ids are pushed to a local vector: its length then stays in a register (the
        // vocabulary's insertions are calls that could otherwise change `self.ids`).
        let mut ids = std::mem::take(&mut self.ids);
        let whole = self.push_words_into(&mut ids, text, lowercase, buf, spans);
        self.ids = ids;
        whole
    }

    /// [`LocalChunk::push_words`] with the ids pushed to `ids` (`self.ids` taken out).
    fn push_words_into(
        &mut self,
        ids: &mut Vec<u32>,
        text: &str,
        lowercase: bool,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        while i < n {
            let mut classes = BlockClasses::at(bytes, i);
            if classes.non_ascii != 0 {
                classes.split_at_punctuation(&bytes[i..]);
            }
            // Text goes on past the block: a run that reaches its last byte may go on too.
            let open_end = n - i > 64;
            let mut rest = classes.word;
            loop {
                if rest == 0 {
                    i += 64;
                    break;
                }
                let s = rest.trailing_zeros() as usize;
                let len = (!(rest >> s)).trailing_zeros() as usize;
                if s + len == 64 && open_end {
                    if s > 0 {
                        i += s; // the run is read again from a block that starts with it
                    } else {
                        // 64 bytes or more of one run: read byte by byte.
                        let mut seen = 0;
                        let mut end = i;
                        while end < n && RUN_BYTE[bytes[end] as usize] != 0 {
                            seen |= RUN_BYTE[bytes[end] as usize];
                            end += 1;
                        }
                        let (other, upper) = (seen & OTHER != 0, seen & UPPER != 0);
                        std::mem::swap(ids, &mut self.ids);
                        let pushed =
                            self.push_run(text, i, end, other, upper, lowercase, buf, spans);
                        std::mem::swap(ids, &mut self.ids);
                        if !pushed {
                            return false;
                        }
                        i = end;
                    }
                    break;
                }
                let run = (u64::MAX >> (64 - len)) << s;
                rest &= !run;
                let (start, end) = (i + s, i + s + len);
                if classes.non_ascii & run == 0 && len <= SHORT_MAX {
                    // The common case, inlined: a short ASCII word.
                    let [mut low, mut high] = pack_short_word(bytes, start, len);
                    // A word's case is not predictable, the batch's setting is: lowercasing a
                    // word that has no capital leaves it as it is.
                    if lowercase {
                        let [keep_low, keep_high] = KEEP_BYTES[len];
                        low = lowercase_packed_word(low, keep_low);
                        high = lowercase_packed_word(high, keep_high);
                    }
                    let (id, _) = self.vocab.intern_packed(low, high as u32, len as u32);
                    ids.push(id);
                    continue;
                }
                let (other, upper) = (classes.non_ascii & run != 0, classes.upper & run != 0);
                std::mem::swap(ids, &mut self.ids);
                let pushed = self.push_run(text, start, end, other, upper, lowercase, buf, spans);
                std::mem::swap(ids, &mut self.ids);
                if !pushed {
                    return false;
                }
            }
        }
        true
    }

    /// sacrebleu's 13a tokens of plain `text` (see [`sacrebleu::scan_13a_plain`]), interned
    /// as each ends (a short one packed in registers), with no span list. False, with
    /// nothing pushed, for any other text.
    fn push_13a_plain(&mut self, text: &str) -> bool {
        self.vocab.ensure_short_table();
        let (vocab, ids) = (&mut self.vocab, &mut self.ids);
        let bytes = text.as_bytes();
        sacrebleu::scan_13a_plain(text, &mut self.blocks_13a, |start, end| {
            let len = end - start;
            let id = if packs(&bytes[start..end]) {
                let [low, high] = pack_short_word(bytes, start, len);
                vocab.intern_packed(low, high as u32, len as u32)
            } else {
                vocab.intern(&text[start..end])
            };
            ids.push(id.0);
        })
    }

    /// The tokens of the run `text[start..end]` (between ASCII separators or the text's ends)
    /// other than a short ASCII word: `other` when it has non-ASCII characters, `upper` when
    /// it has ASCII capitals. False (nothing pushed) when it has a capital sigma.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn push_run(
        &mut self,
        text: &str,
        start: usize,
        end: usize,
        other: bool,
        upper: bool,
        lowercase: bool,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
        let run = &text[start..end];
        if other {
            if run.contains('Σ') {
                return false;
            }
            self.push_mixed_run(run, lowercase, buf, spans);
        } else if lowercase && upper {
            buf.clear();
            buf.push_str(run);
            buf.make_ascii_lowercase();
            let (id, _) = self.vocab.intern(buf);
            self.ids.push(id);
        } else {
            self.push_token(run);
        }
        true
    }

    /// A run with non-ASCII characters, tokenized as the `unicode` tokenizer does the whole
    /// text (its context never reaches past the ASCII separators around the run).
    fn push_mixed_run(
        &mut self,
        run: &str,
        lowercase: bool,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) {
        buf.clear();
        if lowercase {
            buf.extend(run.chars().flat_map(char::to_lowercase));
        } else {
            buf.push_str(run);
        }
        spans.clear();
        crate::text::tokenize::unicode_spans(buf, spans);
        for &(s, e) in spans.iter() {
            let (id, _) = self.vocab.intern(&buf[s as usize..e as usize]);
            self.ids.push(id);
        }
    }

    fn push_token(&mut self, token: &str) {
        let (id, _) = self.vocab.intern(token);
        self.ids.push(id);
    }

    fn end_sentence(&mut self) {
        self.ends.push(self.ids.len());
    }
}

/// One chunk's local ids are already the ids in order of first appearance.
fn single_chunk(only: LocalChunk) -> Encoded {
    Encoded {
        vocab_size: only.vocab.len(),
        sentences: Sentences {
            ids: only.ids,
            ends: only.ends,
        },
        vocab: only.vocab,
        vanished: only.vanished,
    }
}

/// Merges locally interned chunks into one id space, in chunk order.
fn merge(mut chunks: Vec<LocalChunk>) -> Encoded {
    if chunks.len() == 1 {
        if let Some(only) = chunks.pop() {
            return single_chunk(only);
        }
    }
    let mut global = StrTable::with_capacity(chunks.first().map_or(0, |c| c.vocab.len()));
    let mut remaps: Vec<Vec<u32>> = Vec::with_capacity(chunks.len());
    for chunk in &chunks {
        let remap = chunk
            .vocab
            .iter()
            .map(|token| global.intern(token).0)
            .collect();
        remaps.push(remap);
    }
    let vocab_size = global.len();

    let total_tokens: usize = chunks.iter().map(|c| c.ids.len()).sum();
    let total_sentences: usize = chunks.iter().map(|c| c.ends.len()).sum();
    let mut sentences = Sentences {
        ids: Vec::with_capacity(total_tokens),
        ends: Vec::with_capacity(total_sentences),
    };
    let mut vanished = Vec::new();
    for (chunk, remap) in chunks.iter().zip(&remaps) {
        let base_tokens = sentences.ids.len();
        let base_sentences = sentences.ends.len();
        sentences
            .ids
            .extend(chunk.ids.iter().map(|&id| remap[id as usize]));
        sentences
            .ends
            .extend(chunk.ends.iter().map(|&e| base_tokens + e));
        vanished.extend(chunk.vanished.iter().map(|&i| base_sentences + i));
    }
    Encoded {
        sentences,
        vocab_size,
        vocab: global,
        vanished,
    }
}

/// `f` of each chunk of `CHUNK` items, in order: in parallel on the current rayon pool, or on
/// this thread when there is a single chunk (so one sentence pair never touches a pool).
fn map_chunks<T: Sync, R: Send>(items: &[T], f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    if items.len() <= CHUNK {
        return vec![f(items)];
    }
    items.par_chunks(CHUNK).map(&f).collect()
}

/// Tokenizes and interns `texts`. Runs on the current rayon pool.
///
/// ```
/// use mtalign_core::text::intern::encode_texts;
/// use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
/// let enc = encode_texts(&Tokenizer::new(TokenizerKind::Whitespace, true), &["a b", "B c"]);
/// assert_eq!(enc.sentences.get(0), [0, 1]);
/// assert_eq!(enc.sentences.get(1), [1, 2]); // "b" is "B" lowercased: the same id
/// assert_eq!((enc.vocab_size, enc.vocab.get(2)), (3, "c"));
/// ```
pub fn encode_texts<S: AsRef<str> + Sync>(tokenizer: &Tokenizer, texts: &[S]) -> Encoded {
    if matches!(
        tokenizer.kind,
        TokenizerKind::Char | TokenizerKind::Codepoint
    ) {
        return encode_code_points(tokenizer, texts);
    }
    let chunks = map_chunks(texts, |chunk| {
        let mut local = LocalChunk::new(chunk.len());
        local.fill(tokenizer, chunk, &mut String::new(), &mut Vec::new());
        local
    });
    merge(chunks)
}

/// What [`encode_texts_into`] does with the vocabulary `out` already holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vocab {
    /// Emptied first: the same ids as [`encode_texts`].
    Fresh,
    /// Kept while it holds at most [`WARM_VOCAB`] strings, so that the words of earlier
    /// calls are found rather than inserted again (in a one-pair call, most of the words of
    /// a sentence): other ids than [`encode_texts`] gives, for callers whose metric sees ids
    /// only through their equality ([`crate::metrics::metric::Metric::PAIR_LOCAL_IDS`]).
    Warm,
}

/// The most strings a [`Vocab::Warm`] vocabulary keeps between calls: its table stays in a
/// core's cache, and its ids stay below 2^15 (BLEU's packed n-gram keys) unless one call
/// brings more than 2^14 new strings.
pub const WARM_VOCAB: usize = 1 << 13;

/// [`encode_texts`] into `out`, reusing its memory when `texts` fit in one chunk (one
/// sentence pair allocates nothing once `out` is warm); with [`Vocab::Fresh`], the same ids
/// as [`encode_texts`].
pub fn encode_texts_into<S: AsRef<str> + Sync>(
    tokenizer: &Tokenizer,
    texts: &[S],
    out: &mut Encoded,
    buf: &mut String,
    spans: &mut Vec<(u32, u32)>,
    vocab: Vocab,
) {
    let chars = matches!(
        tokenizer.kind,
        TokenizerKind::Char | TokenizerKind::Codepoint
    );
    if chars || texts.len() > CHUNK {
        *out = encode_texts(tokenizer, texts);
        return;
    }
    let mut local = LocalChunk {
        vocab: std::mem::take(&mut out.vocab),
        ids: std::mem::take(&mut out.sentences.ids),
        ends: std::mem::take(&mut out.sentences.ends),
        vanished: std::mem::take(&mut out.vanished),
        blocks_13a: Vec::new(),
    };
    if vocab == Vocab::Fresh || local.vocab.len() > WARM_VOCAB {
        local.vocab.clear();
    }
    local.ids.clear();
    local.ends.clear();
    local.vanished.clear();
    local.fill(tokenizer, texts, buf, spans);
    *out = single_chunk(local);
}

/// Character tokenizers need no table: a code point is its own id (ids are then sparse,
/// below 0x110000, which every kernel's id-indexed scratch accepts).
fn encode_code_points<S: AsRef<str> + Sync>(tokenizer: &Tokenizer, texts: &[S]) -> Encoded {
    let keep_spaces = tokenizer.kind == TokenizerKind::Codepoint;
    // Nothing can vanish: every non-space character is a token.
    let chunks: Vec<(Vec<u32>, Vec<usize>)> = map_chunks(texts, |chunk| {
        let mut ids = Vec::new();
        let mut ends = Vec::with_capacity(chunk.len());
        let mut lowered = String::new();
        for text in chunk {
            let mut text = text.as_ref();
            if tokenizer.lowercase {
                lowered.clear();
                lowered.push_str(&text.to_lowercase());
                text = &lowered;
            }
            ids.extend(
                text.chars()
                    .filter(|c| keep_spaces || !c.is_whitespace())
                    .map(|c| c as u32),
            );
            ends.push(ids.len());
        }
        (ids, ends)
    });
    let mut sentences = Sentences::default();
    let mut max_id = 0;
    for (ids, ends) in chunks {
        let base = sentences.ids.len();
        max_id = ids.iter().copied().fold(max_id, u32::max);
        sentences.ids.extend_from_slice(&ids);
        sentences.ends.extend(ends.iter().map(|&e| base + e));
    }
    Encoded {
        vocab_size: if sentences.ids.is_empty() {
            0
        } else {
            max_id as usize + 1
        },
        sentences,
        vocab: StrTable::default(),
        vanished: Vec::new(),
    }
}

/// Interns pre-tokenized sentences (tokens verbatim: no lowercasing, no splitting).
pub fn encode_tokens<T: AsRef<str> + Sync, S: AsRef<[T]> + Sync>(sentences: &[S]) -> Encoded {
    let chunks = map_chunks(sentences, |chunk| {
        let mut local = LocalChunk::new(chunk.len());
        for sentence in chunk {
            for token in sentence.as_ref() {
                local.push_token(token.as_ref());
            }
            local.end_sentence();
        }
        local
    });
    merge(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenize::TokenizerKind;
    use rustc_hash::FxHashMap;

    /// The strings of one encoded sentence.
    fn words(e: &Encoded, k: usize) -> Vec<String> {
        e.sentences
            .get(k)
            .iter()
            .map(|&id| e.vocab.get(id).to_string())
            .collect()
    }

    #[test]
    fn a_warm_vocabulary_keeps_earlier_ids_and_gives_the_same_tokens() {
        let tok = Tokenizer::parse("13a", false).unwrap();
        let (mut buf, mut spans) = (String::new(), Vec::new());
        let mut warm = Encoded::default();
        let mut fresh = Encoded::default();
        let calls = [["the cat sat", "a cat"], ["the dog", "dog sat on the cat"]];
        let mut first_ids = Vec::new();
        for (c, texts) in calls.iter().enumerate() {
            encode_texts_into(&tok, texts, &mut warm, &mut buf, &mut spans, Vocab::Warm);
            encode_texts_into(&tok, texts, &mut fresh, &mut buf, &mut spans, Vocab::Fresh);
            let batch = encode_texts(&tok, texts);
            assert_eq!(fresh.sentences, batch.sentences);
            for k in 0..texts.len() {
                assert_eq!(words(&warm, k), words(&batch, k));
            }
            if c == 0 {
                first_ids = warm.sentences.get(0).to_vec();
            }
        }
        // "the" and "cat" keep the ids of the first call; "dog" is new.
        let (the, cat) = (first_ids[0], first_ids[1]);
        assert_eq!(warm.sentences.get(0)[0], the);
        assert_eq!(warm.sentences.get(1)[4], cat);
        assert_eq!(warm.vocab.len(), 6);
        assert_eq!(fresh.vocab.len(), 5);
    }

    #[test]
    fn a_table_emptied_after_growing_holds_nothing_of_before() {
        let mut t = StrTable::default();
        for round in 0..3 {
            let n = if round == 1 { 5 } else { 10_000 };
            for i in 0..n {
                assert_eq!(t.intern(&format!("w{i}")), (i as u32, true));
            }
            assert_eq!(t.intern("w3"), (3, false));
            t.clear();
            assert_eq!(t.intern("w3"), (0, true));
            assert_eq!(t.intern("w0"), (1, true));
            t.clear();
        }
    }

    #[test]
    fn a_warm_vocabulary_is_emptied_past_its_bound() {
        let tok = Tokenizer::parse("whitespace", false).unwrap();
        let (mut buf, mut spans) = (String::new(), Vec::new());
        let mut warm = Encoded::default();
        let many: String = (0..=WARM_VOCAB).map(|i| format!("w{i} ")).collect();
        encode_texts_into(
            &tok,
            &[many.as_str()],
            &mut warm,
            &mut buf,
            &mut spans,
            Vocab::Warm,
        );
        assert_eq!(warm.vocab.len(), WARM_VOCAB + 1);
        encode_texts_into(
            &tok,
            &["x w0"],
            &mut warm,
            &mut buf,
            &mut spans,
            Vocab::Warm,
        );
        assert_eq!(warm.vocab.len(), 2);
        assert_eq!(warm.sentences.get(0), &[0, 1]);
    }

    /// The tokens of each text by the plain tokenizer, interned in first-seen order.
    fn interned_one_by_one(tokenizer: &Tokenizer, texts: &[String]) -> Vec<Vec<u32>> {
        let mut map = FxHashMap::default();
        texts
            .iter()
            .map(|t| {
                let tokens = tokenizer.tokenize(t);
                tokens
                    .into_iter()
                    .map(|tok| {
                        let n = map.len() as u32;
                        *map.entry(tok).or_insert(n)
                    })
                    .collect()
            })
            .collect()
    }

    /// `encode_texts` with the `unicode` tokenizer gives the tokenizer's tokens, ids in
    /// first-seen order and vanished texts.
    fn encoded_as_the_tokenizer_says(
        texts: &[String],
        lowercase: bool,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        encoded_as_tokenized(TokenizerKind::Unicode, texts, lowercase)
    }

    /// [`encode_texts`] gives the ids of the tokens of `kind`'s tokenizer (interned one by
    /// one, in order) and its vanished texts.
    fn encoded_as_tokenized(
        kind: TokenizerKind,
        texts: &[String],
        lowercase: bool,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let tokenizer = Tokenizer::new(kind, lowercase);
        let enc = encode_texts(&tokenizer, texts);
        let want = interned_one_by_one(&tokenizer, texts);
        let got: Vec<Vec<u32>> = enc.sentences.iter().map(<[u32]>::to_vec).collect();
        proptest::prop_assert_eq!(got, want);
        let vanished: Vec<usize> = (0..texts.len())
            .filter(|&k| {
                tokenizer.tokenize(&texts[k]).is_empty()
                    && texts[k].chars().any(|c| !c.is_whitespace())
            })
            .collect();
        proptest::prop_assert_eq!(enc.vanished, vanished);
        Ok(())
    }

    proptest::proptest! {
        /// Short (packed) and long strings share one id space in first-seen order; strings
        /// that differ only by trailing NUL bytes or length stay apart.
        #[test]
        fn str_table_numbers_strings_in_first_seen_order(
            strings in proptest::collection::vec("[ab\\x00é]{0,10}", 0..60),
        ) {
            let mut table = StrTable::default();
            let mut map: FxHashMap<String, u32> = FxHashMap::default();
            for s in &strings {
                let n = map.len() as u32;
                let want = *map.entry(s.clone()).or_insert(n);
                let (got, new) = table.intern(s);
                proptest::prop_assert_eq!(got, want);
                proptest::prop_assert_eq!(new, want == n && table.len() as u32 == n + 1);
                proptest::prop_assert_eq!(table.get(got), s.as_str());
            }
        }
    }

    proptest::proptest! {
        /// The one-pass ASCII path gives the tokenizer's tokens, ids and vanished texts.
        #[test]
        fn one_pass_ascii_words_equal_the_tokenizer(
            texts in proptest::collection::vec("[aAbB1 .,\\x0b\\t-]{0,12}", 0..12),
            lowercase: bool,
        ) {
            encoded_as_the_tokenizer_says(&texts, lowercase)?;
        }
    }

    proptest::proptest! {
        /// A span of a buffer gets the id its text gets, packed by loads or byte by byte
        /// (spans of 0–20 bytes anywhere, near the buffer's end too).
        #[test]
        fn spans_are_interned_as_their_text(
            text in "[ab\\x00é]{0,24}",
            cuts in proptest::collection::vec((0usize..48, 0usize..21), 0..30),
        ) {
            let mut by_span = StrTable::default();
            by_span.ensure_short_table();
            let mut by_text = StrTable::default();
            for (start, len) in cuts {
                let start = start.min(text.len());
                let end = (start + len).min(text.len());
                if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                    continue;
                }
                let want = by_text.intern(&text[start..end]);
                proptest::prop_assert_eq!(by_span.intern_span(&text, start, end), want);
            }
        }
    }

    proptest::proptest! {
        /// ASCII words of every length around the reader's 8- and 16-byte windows (the word
        /// and the separators before it in one window, a second window for words of 8–15
        /// bytes, byte by byte near the text's end and beyond 15 bytes).
        #[test]
        fn ascii_words_of_any_length_equal_the_tokenizer(
            texts in proptest::collection::vec(
                "([a-zA-Z0-9]{1,20}[ .,-]{1,3}){0,12}[a-zA-Z0-9]{0,20}",
                0..8,
            ),
            lowercase: bool,
        ) {
            encoded_as_the_tokenizer_says(&texts, lowercase)?;
        }
    }

    proptest::proptest! {
        /// The run reader gives the tokenizer's tokens on any text: long texts (runs across
        /// several words), long words, non-ASCII letters, marks, ideographs, capital sigma
        /// (whole-text lowercasing), dotted capital I (lowercase longer than the letter).
        #[test]
        fn run_reader_equals_the_tokenizer_on_any_text(
            texts in proptest::collection::vec(
                "([aAbZz09 .,_\\t@`{\\[-]|éÉ|中|Σ|σ|İ|ẞ|\u{301}|—|’|“|\u{2000}|\u{200d}|\u{2044}|\u{206f}|\u{2070}|\u{2071}|\u{207f}|\u{1fff}|internationalization|Übergröße){0,60}",
                0..6,
            ),
            lowercase: bool,
        ) {
            encoded_as_the_tokenizer_says(&texts, lowercase)?;
        }
    }

    #[test]
    fn general_punctuation_is_all_separators() {
        let tokenizer = Tokenizer::new(TokenizerKind::Unicode, false);
        for c in '\u{2000}'..='\u{206f}' {
            let text = format!("a{c}b");
            assert_eq!(tokenizer.tokenize(&text), ["a", "b"], "U+{:04X}", c as u32);
        }
        // Just past the block: superscript zero is a number, a word of its own here.
        assert_eq!(tokenizer.tokenize("a\u{2070}b"), ["a\u{2070}b"]);
    }

    /// The block classifier agrees with the byte table on every byte value at every
    /// position, whatever the other bytes are.
    #[test]
    fn block_classes_equal_the_byte_table() {
        for filler in [
            0u8, b'a', b'Z', b'5', b' ', 0x7F, 0x80, 0xCE, 0xFF, b'@', b'`',
        ] {
            for k in 0..64 {
                for b in 0..=255u8 {
                    let mut bytes = [filler; 64];
                    bytes[k] = b;
                    let classes = BlockClasses::at(&bytes, 0);
                    let class = RUN_BYTE[b as usize];
                    let bit = |mask: u64| mask >> k & 1 == 1;
                    assert_eq!(bit(classes.word), class != 0, "byte {b:#x} at {k}");
                    assert_eq!(bit(classes.upper), class == UPPER, "byte {b:#x} at {k}");
                    assert_eq!(bit(classes.non_ascii), class == OTHER, "byte {b:#x} at {k}");
                }
            }
        }
        // Past the end of the text: separators.
        let classes = BlockClasses::at(b"ab Cd\xCE\xA3", 1);
        assert_eq!(
            (classes.word, classes.upper, classes.non_ascii),
            (0b11_1101, 0b100, 0b11_0000)
        );
    }

    /// The range classifier (SSE2 on x86_64) and its portable fallback agree with a byte
    /// by byte check on every byte value at every position, whatever the other bytes are,
    /// for ranges at the ends of ASCII and single bytes.
    #[test]
    fn range_masks_equal_a_byte_by_byte_check() {
        const CLASSES: [ByteRanges; 4] = [
            &[(0, 0), (0x7F, 0x7F)],
            &[(b'\t', b'\r'), (0x1c, b' ')],
            &[(0, 0x7F)],
            &[(b'0', b'9'), (b'A', b'Z'), (b'a', b'z'), (b'\'', b'\'')],
        ];
        for filler in [
            0u8, b'a', b'Z', b'5', b' ', 0x7F, 0x80, 0xCE, 0xFF, b'@', b'`',
        ] {
            for k in 0..64 {
                for b in 0..=255u8 {
                    let mut bytes = [filler; 64];
                    bytes[k] = b;
                    let words = block_words(&bytes, 0);
                    let (masks, high) = range_masks(&words, &CLASSES);
                    assert_eq!((masks, high), range_masks_by_words(&words, &CLASSES));
                    assert_eq!(high >> k & 1 == 1, b >= 0x80);
                    for (mask, ranges) in masks.iter().zip(CLASSES) {
                        let inside = ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&b));
                        assert_eq!(mask >> k & 1 == 1, inside, "byte {b:#x} at {k}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// sacrebleu's 13a, read 64 bytes at a time on plain texts and by the tokenizer on
        /// the others, gives the tokenizer's tokens, ids and vanished texts: periods, commas
        /// and dashes around digits, symbols, Python's ASCII whitespace (U+001C..U+001F
        /// too), control bytes, the replacements' patterns, non-ASCII letters and spaces,
        /// tokens over 16 bytes, texts across 64-byte edges, empty texts.
        #[test]
        fn sacrebleu_13a_blocks_equal_the_tokenizer(
            texts in proptest::collection::vec(
                "([a-cA-C0-9' .,\\-]|é|“|’|中|[!-%(-/:-;=-@\\[-`{-~]|\t|\r|\x0b|\x0c|[\x1c-\x1f]\
                 |\x00|\x7f|internationalization12345|3,000.50|1.5|--){0,80}\
                 (<skipped>|&quot;|&amp;|-\n|\n|<|&|\u{a0}|\u{3000}|\u{2028}|a..5|,.)?\
                 ([a-c0-9 .,\\-]|internationalization12345){0,10}",
                0..6,
            ),
            lowercase: bool,
        ) {
            encoded_as_tokenized(TokenizerKind::Sacre13a, &texts, lowercase)?;
        }
    }

    proptest::proptest! {
        /// Texts read 64 bytes at a time give the tokenizer's tokens: runs across block
        /// boundaries, runs of 64 bytes and more (ASCII, or with non-ASCII letters), words
        /// of 8, 16 and 17 bytes, capitals, capital sigma after other words (the text then
        /// goes through the tokenizer, the ids of its earlier words kept), digits, empty
        /// texts.
        #[test]
        fn blocks_of_text_equal_the_tokenizer(
            texts in proptest::collection::vec(
                "(([a-zA-Z0-9]{0,9}|[aB7]{15,17}|[a-z]{60,70}|x{8}|é|Σ|ς|中)[ .,\t-]{0,3}){0,24}",
                0..6,
            ),
            lowercase: bool,
        ) {
            encoded_as_the_tokenizer_says(&texts, lowercase)?;
        }
    }

    proptest::proptest! {
        /// A word packed by one load (and lowercased in the register) is the word packed
        /// byte by byte from its lowercased text, wherever it sits in the text.
        #[test]
        fn packed_words_equal_their_bytes(
            text in "[a-zA-Z0-9]{1,20}",
            start in 0usize..20,
            len in 1usize..=8,
        ) {
            let bytes = text.as_bytes();
            proptest::prop_assume!(start + len <= bytes.len());
            let by_bytes = |b: &[u8]| b.iter().rev().fold(0u64, |a, &c| (a << 8) | u64::from(c));
            let word = &bytes[start..start + len];
            proptest::prop_assert_eq!(pack_word(bytes, start, len), by_bytes(word));
            let lower = word.to_ascii_lowercase();
            proptest::prop_assert_eq!(
                lowercase_packed_word(pack_word(bytes, start, len), KEEP_BYTES[len][0]),
                by_bytes(&lower)
            );
        }
    }

    #[test]
    fn ids_follow_first_appearance_across_chunks() {
        let texts: Vec<String> = (0..3000)
            .map(|i| format!("w{} common w{}", i % 7, i))
            .collect();
        let enc = encode_texts(&Tokenizer::new(TokenizerKind::Unicode, true), &texts);
        assert_eq!(enc.sentences.len(), 3000);
        assert_eq!(enc.sentences.get(0), &[0, 1, 0]);
        assert_eq!(enc.sentences.get(1), &[2, 1, 2]);
        // w0..w6 and "common" and w7..w2999
        assert_eq!(enc.vocab_size, 7 + 1 + (3000 - 7));
        // Same as one-by-one sequential interning.
        let mut map = FxHashMap::default();
        for (i, text) in texts.iter().enumerate() {
            let want: Vec<u32> = text
                .split(' ')
                .map(|t| {
                    let n = map.len() as u32;
                    *map.entry(t.to_string()).or_insert(n)
                })
                .collect();
            assert_eq!(enc.sentences.get(i), want.as_slice());
        }
    }

    #[test]
    fn str_table_numbers_in_first_seen_order() {
        let mut t = StrTable::with_capacity(2);
        assert_eq!(t.intern("b"), (0, true));
        assert_eq!(t.intern(""), (1, true));
        assert_eq!(t.intern("ab"), (2, true));
        assert_eq!(t.intern("b"), (0, false));
        assert_eq!(t.intern(""), (1, false));
        assert_eq!(t.iter().collect::<Vec<_>>(), ["b", "", "ab"]);
    }

    #[test]
    fn vanished_sentences_are_reported() {
        let texts = ["a b", "", "   ", "...", "ok"];
        let enc = encode_texts(&Tokenizer::new(TokenizerKind::Unicode, true), &texts);
        assert_eq!(enc.vanished, vec![3]);
        assert!(enc.sentences.get(1).is_empty());
    }

    #[test]
    fn characters_are_their_own_ids() {
        let t = Tokenizer::new(TokenizerKind::Codepoint, true);
        let enc = encode_texts(&t, &["Ab c", "𠮷"]);
        assert_eq!(
            enc.sentences.get(0),
            &['a' as u32, 'b' as u32, ' ' as u32, 'c' as u32]
        );
        assert_eq!(enc.sentences.get(1), &[0x20BB7]);
        let t = Tokenizer::new(TokenizerKind::Char, false);
        let enc = encode_texts(&t, &["a b", " "]);
        assert_eq!(enc.sentences.get(0), &['a' as u32, 'b' as u32]);
        assert!(enc.vanished.is_empty());
    }

    #[test]
    fn pre_tokenized_input_is_verbatim() {
        let sents = vec![vec!["The", "cat"], vec!["the", "The"]];
        let enc = encode_tokens(&sents);
        assert_eq!(enc.sentences.get(0), &[0, 1]);
        assert_eq!(enc.sentences.get(1), &[2, 0]);
    }
}
