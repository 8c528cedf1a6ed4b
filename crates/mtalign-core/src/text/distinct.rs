//! The distinct texts of a batch, borrowed from the caller and numbered in first-seen order.
//!
//! A batch names each text once however often it appears (a reference shared by every
//! system, identical outputs), so equal texts are tokenized once. The texts are borrowed,
//! not copied: reading a batch then costs one hash and, for a repeated text, one comparison.

use crate::prefetch::prefetch;
use hashbrown::HashTable;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Distinct borrowed strings numbered 0, 1, 2, … in first-seen order.
#[derive(Debug, Clone, Default)]
pub struct DistinctTexts<'a> {
    texts: Vec<&'a str>,
    table: HashTable<u32>,
    bytes: usize,
}

impl<'a> DistinctTexts<'a> {
    /// An empty set with room for `texts` strings.
    pub fn with_capacity(texts: usize) -> Self {
        Self {
            texts: Vec::with_capacity(texts),
            table: HashTable::with_capacity(texts),
            bytes: 0,
        }
    }

    /// The hash [`DistinctTexts::intern`] gives `s`.
    pub fn hash(s: &str) -> u64 {
        FxBuildHasher.hash_one(s)
    }

    /// [`DistinctTexts::hash`] of each text, on the current rayon pool: the part of reading
    /// a batch that needs no order (the numbering itself is serial, in first-seen order).
    pub fn hashes(texts: &[&str]) -> Vec<u64> {
        texts.par_iter().map(|s| Self::hash(s)).collect()
    }

    /// The number of `s`, and whether it was new.
    pub fn intern(&mut self, s: &'a str) -> (u32, bool) {
        self.intern_hashed(s, Self::hash(s))
    }

    /// [`DistinctTexts::intern`] of `s` whose [`DistinctTexts::hash`] is `hash`.
    pub fn intern_hashed(&mut self, s: &'a str, hash: u64) -> (u32, bool) {
        let texts = &self.texts;
        if let Some(&id) = self.table.find(hash, |&id| texts[id as usize] == s) {
            return (id, false);
        }
        let id = self.texts.len() as u32;
        self.texts.push(s);
        self.bytes += s.len();
        let texts = &self.texts;
        self.table
            .insert_unique(hash, id, |&id| FxBuildHasher.hash_one(texts[id as usize]));
        (id, true)
    }

    /// The number of distinct texts.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether there is no text.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    /// Bytes of all distinct texts together.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The texts in number order.
    pub fn as_slice(&self) -> &[&'a str] {
        &self.texts
    }
}

/// The number of distinct texts of `texts`, as [`DistinctTexts`] would count them, reading
/// a few bytes of a distinct text instead of all of it: the hash is of each text's length and
/// its first, middle and last 8 bytes (equal texts hash equal), and texts are compared whole
/// only when their hashes are equal. Counting a batch's hypotheses this way reads a cache
/// line or two of each, not the whole batch.
pub fn count_distinct(texts: &[&str]) -> usize {
    let mut table: HashTable<(u64, u32)> = HashTable::with_capacity(texts.len());
    let mut count = 0;
    for (k, s) in texts.iter().enumerate() {
        if let Some(ahead) = texts.get(k + PREFETCH_TEXTS) {
            // The texts are scattered in memory and read nowhere else before: the wait for
            // each one's first and last lines is all this costs unless asked for ahead.
            prefetch(ahead.as_ptr());
            prefetch(ahead.as_ptr().wrapping_add(ahead.len().saturating_sub(8)));
        }
        let hash = sketch_hash(s);
        let same = |&(h, j): &(u64, u32)| h == hash && texts[j as usize] == *s;
        if table.find(hash, same).is_none() {
            table.insert_unique(hash, (hash, k as u32), |&(h, _)| h);
            count += 1;
        }
    }
    count
}

/// How many texts ahead [`count_distinct`] asks for a text's lines.
const PREFETCH_TEXTS: usize = 8;

/// The hash [`count_distinct`] gives `s`: of its length and its first, middle and last 8
/// bytes (the whole text when it is shorter).
fn sketch_hash(s: &str) -> u64 {
    let b = s.as_bytes();
    let word = |at: usize| b[at..].first_chunk::<8>().map(|w| u64::from_le_bytes(*w));
    let parts = match (
        word(0),
        word((b.len() / 2).saturating_sub(4)),
        b.last_chunk::<8>(),
    ) {
        (Some(first), Some(middle), Some(last)) => [first, middle, u64::from_le_bytes(*last)],
        _ => [b.iter().fold(0, |a, &c| (a << 8) | u64::from(c)), 0, 0],
    };
    FxBuildHasher.hash_one((b.len(), parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_texts_in_first_seen_order() {
        let owned: Vec<String> = ["b a", "a", "b a", "", "a", "a much longer text here"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut set = DistinctTexts::with_capacity(2);
        let ids: Vec<(u32, bool)> = owned.iter().map(|s| set.intern(s)).collect();
        assert_eq!(
            ids,
            [
                (0, true),
                (1, true),
                (0, false),
                (2, true),
                (1, false),
                (3, true)
            ]
        );
        assert_eq!(set.as_slice(), ["b a", "a", "", "a much longer text here"]);
        assert_eq!((set.len(), set.bytes()), (4, 3 + 1 + 23));
        let borrowed: Vec<&str> = owned.iter().map(String::as_str).collect();
        let mut hashed = DistinctTexts::with_capacity(2);
        let hashes = DistinctTexts::hashes(&borrowed);
        let again: Vec<(u32, bool)> = borrowed
            .iter()
            .zip(hashes)
            .map(|(s, h)| hashed.intern_hashed(s, h))
            .collect();
        assert_eq!(again, ids);
    }

    proptest::proptest! {
        /// The sketched count is the number of distinct texts, for texts that differ only
        /// between their first and last 8 bytes or in length, and short ones.
        #[test]
        fn count_distinct_counts_distinct_texts(
            texts in proptest::collection::vec("(abcdefgh)?[ab]{0,3}(é|x)?[ab]{0,3}(stuvwxyz)?", 0..40),
        ) {
            let borrowed: Vec<&str> = texts.iter().map(String::as_str).collect();
            let mut set = DistinctTexts::with_capacity(0);
            borrowed.iter().for_each(|s| { set.intern(s); });
            proptest::prop_assert_eq!(count_distinct(&borrowed), set.len());
        }
    }
}
