//! The distinct texts of a batch, borrowed from the caller and numbered in first-seen order.
//!
//! A batch names each text once however often it appears (a reference shared by every
//! system, identical outputs), so equal texts are tokenized once. The texts are borrowed,
//! not copied: reading a batch then costs one hash and, for a repeated text, one comparison.

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
}
