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
}

const NONE: u32 = u32::MAX;

impl LcsMatcher {
    /// An empty matcher (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Encodes `pattern`; replaces any previous pattern.
    pub fn prepare(&mut self, pattern: &[u32]) {
        if self.pattern == pattern && !self.symbols.is_empty() {
            return;
        }
        self.pattern.clear();
        self.pattern.extend_from_slice(pattern);
        for &s in &self.symbols {
            self.slot[s as usize] = NONE;
        }
        self.symbols.clear();
        self.pattern_len = pattern.len();
        self.words = pattern.len().div_ceil(64).max(1);
        if let Some(&max_id) = pattern.iter().max() {
            if max_id as usize >= self.slot.len() {
                self.slot.resize(max_id as usize + 1, NONE);
            }
        }
        if self.words == 1 {
            // At most one row per token, 64 rows kept: a symbol's row is written whole where
            // it first occurs, so no row is cleared before.
            if self.masks.len() < 64 {
                self.masks.resize(64, 0);
            }
            let masks = &mut self.masks[..64];
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
        if self.words == 1 {
            self.lcs_one_word(text)
        } else {
            self.lcs_multi_word(text)
        }
    }

    fn lcs_one_word(&self, text: &[u32]) -> usize {
        let mut v: u64 = !0;
        for &c in text {
            if let Some(row) = self.mask_row(c) {
                let u = v & self.masks[row];
                v = v.wrapping_add(u) | (v & !u);
            }
        }
        let live = if self.pattern_len == 64 {
            !0u64
        } else {
            (1u64 << self.pattern_len) - 1
        };
        (!v & live).count_ones() as usize
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
