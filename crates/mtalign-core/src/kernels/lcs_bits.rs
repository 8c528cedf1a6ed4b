//! LCS lengths of one row text against many column texts, bit-parallel (Allison–Dix /
//! Hyyrö), for matrices (minimum-Bayes-risk decoding, where every sample meets every other).
//!
//! Texts are numbered with dense block-local symbol ids (`0..vocabulary`). The row's match
//! masks (`peq[symbol]`: bit i set where the row has that symbol at position i) are built
//! once per row in a dense table over the block's vocabulary and reused for every column;
//! a symbol absent from the row has the zero mask, so the inner loop has no branch:
//! `U = V & peq[c]; V = (V + U) | (V - U)`, and the LCS is the number of zero bits of V
//! among the row's positions. Rows longer than 64 symbols use [`LcsMatcher`]'s multi-word
//! vectors.

use crate::kernels::lcs::LcsMatcher;

/// A row prepared for bit-parallel LCS against many columns.
#[derive(Debug, Default)]
pub struct LcsBits {
    /// One-word masks, dense over the vocabulary (zero outside the row's symbols).
    peq: Vec<u64>,
    /// Symbols whose mask is set (to clear them for the next row).
    set: Vec<u32>,
    row_len: usize,
    /// Rows longer than 64 symbols.
    long: LcsMatcher,
}

impl LcsBits {
    /// Makes `row` the row; its symbols must be below `vocabulary`.
    pub fn set_row(&mut self, row: &[u32], vocabulary: usize) {
        for &s in &self.set {
            self.peq[s as usize] = 0;
        }
        self.set.clear();
        self.row_len = row.len();
        if row.len() > 64 {
            self.long.prepare(row);
            return;
        }
        if self.peq.len() < vocabulary {
            self.peq.resize(vocabulary, 0);
        }
        for (i, &s) in row.iter().enumerate() {
            if self.peq[s as usize] == 0 {
                self.set.push(s);
            }
            self.peq[s as usize] |= 1u64 << i;
        }
    }

    /// LCS length of the row and `col`.
    #[inline]
    pub fn lcs(&mut self, col: &[u32]) -> usize {
        if self.row_len == 0 || col.is_empty() {
            return 0;
        }
        if self.row_len > 64 {
            return self.long.lcs(col);
        }
        let mut v: u64 = !0;
        for &c in col {
            let u = v & self.peq[c as usize];
            v = v.wrapping_add(u) | (v - u);
        }
        let live = if self.row_len == 64 {
            !0u64
        } else {
            (1u64 << self.row_len) - 1
        };
        (!v & live).count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::lcs::lcs_length_dp;
    use proptest::prelude::*;

    #[test]
    fn paper_example_and_reuse() {
        // police killed the gunman / police kill the gunman / the gunman kill police
        let mut b = LcsBits::default();
        b.set_row(&[0, 1, 2, 3], 5);
        assert_eq!(b.lcs(&[0, 4, 2, 3]), 3);
        assert_eq!(b.lcs(&[2, 3, 4, 0]), 2);
        b.set_row(&[4, 4], 5);
        assert_eq!(b.lcs(&[0, 1, 2, 3]), 0);
        assert_eq!(b.lcs(&[4, 0, 4]), 2);
        b.set_row(&[], 5);
        assert_eq!(b.lcs(&[4]), 0);
    }

    proptest! {
        #[test]
        fn equals_the_dp(
            rows in prop::collection::vec(prop::collection::vec(0u32..6, 0..140), 1..4),
            col in prop::collection::vec(0u32..6, 0..140),
        ) {
            let mut b = LcsBits::default();
            for row in &rows {
                b.set_row(row, 6);
                prop_assert_eq!(b.lcs(&col), lcs_length_dp(row, &col));
            }
        }
    }
}
