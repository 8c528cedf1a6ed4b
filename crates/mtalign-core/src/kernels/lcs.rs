//! Longest common subsequence length, bit-parallel (Allison–Dix / Hyyrö).
//!
//! The "pattern" side is encoded as one bit mask per distinct symbol (bit i set where the
//! pattern has that symbol at position i). Scanning the other side, each step updates the
//! row vector V with `U = V & M[c]; V = (V + U) | (V - U)`; LCS = number of zero bits of V.
//! Because U ⊆ V, `V - U` never borrows and equals `V & !U`, so only the addition carries
//! across words. One 64-bit word handles patterns up to 64 tokens; longer ones use
//! ⌈m/64⌉ words with carry propagation.
//!
//! [`LcsMatcher`] keeps its tables between calls: prepare a pattern once (a hypothesis), then
//! compare it with any number of texts (its references) without allocating.

use crate::kernels::lanes::Lanes;

/// Reusable state for bit-parallel LCS against one prepared pattern.
#[derive(Debug, Default)]
pub struct LcsMatcher {
    /// `slot[id]` = index of that symbol's mask row, or `NONE`.
    slot: Vec<u32>,
    /// Mask rows, `words` u64s each.
    masks: Vec<u64>,
    /// Distinct symbols of the prepared pattern (to reset `slot`).
    symbols: Vec<u32>,
    words: usize,
    pattern_len: usize,
    /// Row vector scratch for the multi-word case.
    row: Vec<u64>,
    /// The prepared pattern: preparing it again is a no-op (a hypothesis against many
    /// pseudo-references, as minimum-Bayes-risk matrices do).
    pattern: Vec<u32>,
    /// How the prepared pattern is held (none before the first `prepare`).
    form: Option<Form>,
    /// A [`Form::Lanes`] pattern.
    lanes: Lanes,
}

/// How [`LcsMatcher`] holds a prepared pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// At most 64 ids, each below [`LANE_LIMIT`], as [`Lanes`]: a text's token finds its
    /// mask by comparing it with every id at once, with no table indexed by id to fill,
    /// clear or read from memory: for a pattern met once (a reference of its own), filling
    /// that table cost three times the comparison itself.
    /// `compared`: a text was compared with it (the next one fills the table).
    Lanes { compared: bool },
    /// A mask row per distinct id, found through `slot` (longer patterns, larger ids).
    Table,
}

const NONE: u32 = u32::MAX;
/// The row of a one-word pattern's masks that stays zero: read for a symbol it lacks.
const ABSENT_ROW: usize = 64;

impl LcsMatcher {
    /// An empty matcher (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Encodes `pattern`; replaces any previous pattern.
    pub fn prepare(&mut self, pattern: &[u32]) {
        if self.form.is_some() && self.pattern == pattern {
            return;
        }
        self.pattern.clear();
        self.pattern.extend_from_slice(pattern);
        self.pattern_len = pattern.len();
        self.words = pattern.len().div_ceil(64).max(1);
        if self.lanes.fill(pattern) {
            // The table's rows of an earlier pattern stay: the next table pattern clears them.
            self.form = Some(Form::Lanes { compared: false });
            return;
        }
        self.fill_table();
    }

    /// Holds the prepared pattern as [`Form::Table`]: a mask row per distinct id.
    fn fill_table(&mut self) {
        self.form = Some(Form::Table);
        for &s in &self.symbols {
            self.slot[s as usize] = NONE;
        }
        self.symbols.clear();
        let pattern = &self.pattern[..];
        if let Some(&max_id) = pattern.iter().max() {
            if max_id as usize >= self.slot.len() {
                self.slot.resize(max_id as usize + 1, NONE);
            }
        }
        if self.words == 1 {
            // At most one row per token, 64 rows kept and [`ABSENT_ROW`] (zero) after them: a
            // symbol's row is written whole where it first occurs, so no row is cleared before.
            if self.masks.len() <= ABSENT_ROW {
                self.masks.resize(ABSENT_ROW + 1, 0);
            }
            // A multi-word pattern before may have written there.
            self.masks[ABSENT_ROW] = 0;
            let masks = &mut self.masks[..ABSENT_ROW];
            for (i, &s) in pattern.iter().enumerate() {
                let bit = 1u64 << i;
                let slot = &mut self.slot[s as usize];
                if *slot == NONE {
                    *slot = self.symbols.len() as u32;
                    masks[self.symbols.len()] = bit;
                    self.symbols.push(s);
                } else {
                    masks[*slot as usize] |= bit;
                }
            }
            return;
        }
        self.masks.clear();
        for (i, &s) in pattern.iter().enumerate() {
            let row = match self.slot[s as usize] {
                NONE => {
                    let row = self.symbols.len() as u32;
                    self.slot[s as usize] = row;
                    self.symbols.push(s);
                    self.masks.resize(self.masks.len() + self.words, 0);
                    row
                }
                row => row,
            };
            self.masks[row as usize * self.words + i / 64] |= 1u64 << (i % 64);
        }
    }

    #[inline]
    fn mask_row(&self, symbol: u32) -> Option<usize> {
        match self.slot.get(symbol as usize) {
            Some(&row) if row != NONE => Some(row as usize),
            _ => None,
        }
    }

    /// LCS length of the prepared pattern and `text`.
    pub fn lcs(&mut self, text: &[u32]) -> usize {
        if self.pattern_len == 0 || text.is_empty() {
            return 0;
        }
        match self.form {
            Some(Form::Lanes { compared: false }) => {
                self.form = Some(Form::Lanes { compared: true });
                let mut v: u64 = !0;
                self.lanes.scan(text, |mask| {
                    let u = v & mask;
                    v = v.wrapping_add(u) | (v & !u);
                });
                return self.zeros_of_one_word(v);
            }
            // A pattern met again (a reference shared by several systems): its table costs
            // less per token than the comparison, and is filled once for the rest.
            Some(Form::Lanes { compared: true }) => self.fill_table(),
            _ => {}
        }
        if self.words == 1 {
            self.lcs_one_word(text)
        } else {
            self.lcs_multi_word(text)
        }
    }

    /// The LCS length from a one-word row vector: its zero bits among the pattern's.
    fn zeros_of_one_word(&self, v: u64) -> usize {
        let live = if self.pattern_len == 64 {
            !0u64
        } else {
            (1u64 << self.pattern_len) - 1
        };
        (!v & live).count_ones() as usize
    }

    fn lcs_one_word(&self, text: &[u32]) -> usize {
        let mut v: u64 = !0;
        let masks = &self.masks[..=ABSENT_ROW];
        for &c in text {
            // A symbol the pattern lacks reads the zero row (no branch: about half of a
            // text's tokens are in the other text, in no predictable order); a zero row
            // leaves `v` as it is.
            let row = self
                .slot
                .get(c as usize)
                .map_or(ABSENT_ROW, |&r| (r as usize).min(ABSENT_ROW));
            let u = v & masks[row];
            v = v.wrapping_add(u) | (v & !u);
        }
        self.zeros_of_one_word(v)
    }

    fn lcs_multi_word(&mut self, text: &[u32]) -> usize {
        let words = self.words;
        self.row.clear();
        self.row.resize(words, !0);
        for &c in text {
            let Some(row) = self.mask_row(c) else {
                continue;
            };
            let masks = &self.masks[row * words..(row + 1) * words];
            let mut carry = false;
            for (v, &m) in self.row.iter_mut().zip(masks) {
                let u = *v & m;
                let (sum, c1) = v.overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(carry as u64);
                carry = c1 || c2;
                *v = sum | (*v & !u);
            }
        }
        let full_words = self.pattern_len / 64;
        let mut zeros: usize = self.row[..full_words]
            .iter()
            .map(|v| v.count_zeros() as usize)
            .sum();
        let rest = self.pattern_len % 64;
        if rest > 0 {
            zeros += (!self.row[full_words] & ((1u64 << rest) - 1)).count_ones() as usize;
        }
        zeros
    }
}

/// LCS length with a fresh matcher (convenience; batch code reuses a matcher).
///
/// ```
/// use mtalign_core::kernels::lcs::lcs_length;
/// assert_eq!(lcs_length(&[1, 2, 3, 4], &[1, 3, 4, 2]), 3); // 1 3 4
/// ```
pub fn lcs_length(a: &[u32], b: &[u32]) -> usize {
    let mut m = LcsMatcher::new();
    m.prepare(a);
    m.lcs(b)
}

/// The textbook O(mn) dynamic programme: the test oracle for the bit-parallel kernel.
pub fn lcs_length_dp(a: &[u32], b: &[u32]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::lanes::LANE_LIMIT;
    use proptest::prelude::*;

    #[test]
    fn paper_examples() {
        // S1 police killed the gunman; S2 police kill the gunman; S3 the gunman kill police
        let s1 = [0, 1, 2, 3];
        assert_eq!(lcs_length(&s1, &[0, 4, 2, 3]), 3);
        assert_eq!(lcs_length(&s1, &[2, 3, 4, 0]), 2);
        assert_eq!(lcs_length(&[], &s1), 0);
        assert_eq!(lcs_length(&s1, &[]), 0);
    }

    #[test]
    fn word_boundaries() {
        for len in [63usize, 64, 65, 127, 128, 129, 200] {
            let a: Vec<u32> = (0..len as u32).map(|i| i % 5).collect();
            let b: Vec<u32> = (0..len as u32).map(|i| (i * 3) % 5).collect();
            assert_eq!(lcs_length(&a, &b), lcs_length_dp(&a, &b), "len {len}");
            assert_eq!(lcs_length(&a, &a), len);
        }
    }

    #[test]
    fn matcher_is_reusable() {
        let mut m = LcsMatcher::new();
        m.prepare(&[5, 6, 7]);
        assert_eq!(m.lcs(&[5, 7]), 2);
        m.prepare(&[1, 2]);
        // Symbols of the old pattern must be forgotten.
        assert_eq!(m.lcs(&[5, 6, 7]), 0);
        assert_eq!(m.lcs(&[2, 1, 2]), 2);
    }

    proptest! {
        /// One matcher through patterns of any length in turn (one word and several, each
        /// leaving its rows behind), ids beyond every pattern's, as a batch uses it.
        #[test]
        fn a_reused_matcher_equals_dp(
            pairs in prop::collection::vec(
                (prop::collection::vec(0u32..70, 0..140), prop::collection::vec(0u32..90, 0..80)),
                1..6,
            ),
        ) {
            let mut m = LcsMatcher::new();
            for (pattern, text) in &pairs {
                m.prepare(pattern);
                prop_assert_eq!(m.lcs(text), lcs_length_dp(pattern, text));
            }
        }

        /// Patterns with ids on both sides of the lanes' limit (the lanes, then the table),
        /// texts with ids far above it; each pattern met twice (its lanes, then its table).
        #[test]
        fn lanes_and_table_patterns_equal_dp(
            pairs in prop::collection::vec(
                (
                    prop::collection::vec(prop_oneof![0u32..6, 0xFFFAu32..0x10005], 0..80),
                    prop::collection::vec(prop_oneof![0u32..6, (LANE_LIMIT - 3)..(LANE_LIMIT + 3), Just(u32::MAX)], 0..80),
                ),
                1..6,
            ),
        ) {
            let mut m = LcsMatcher::new();
            for (pattern, text) in &pairs {
                m.prepare(pattern);
                prop_assert_eq!(m.lcs(text), lcs_length_dp(pattern, text));
                // A second text: the pattern's table.
                prop_assert_eq!(m.lcs(pattern), pattern.len());
                prop_assert_eq!(m.lcs(text), lcs_length_dp(pattern, text));
            }
        }

        #[test]
        fn bit_parallel_equals_dp(
            a in prop::collection::vec(0u32..4, 0..150),
            b in prop::collection::vec(0u32..4, 0..150),
        ) {
            prop_assert_eq!(lcs_length(&a, &b), lcs_length_dp(&a, &b));
            prop_assert_eq!(lcs_length(&b, &a), lcs_length_dp(&a, &b));
        }
    }
}
