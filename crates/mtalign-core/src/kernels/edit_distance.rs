//! Word-level Levenshtein distance: Myers' bit-vector algorithm (in Hyyrö's formulation)
//! when the shorter sequence fits in 64 words, its block form (`edit_distance_bits.rs`:
//! n·⌈m/64⌉ word operations, linear memory) otherwise; the one-row dynamic programme is the
//! test oracle.

use crate::kernels::edit_distance_bits::BlockMyers;

/// Bit masks of the pattern's positions per token id, indexed by id (ids may be sparse:
/// character tokenizers use code points), cleared after each use.
#[derive(Debug, Default)]
pub struct EditScratch {
    peq: Vec<u64>,
    row: Vec<usize>,
    blocks: BlockMyers,
}

impl EditScratch {
    /// Levenshtein distance between `a` and `b` (unit costs).
    pub fn distance(&mut self, a: &[u32], b: &[u32]) -> usize {
        let (pattern, text) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        if pattern.is_empty() {
            return text.len();
        }
        if pattern.len() <= 64 {
            self.myers(pattern, text)
        } else {
            self.blocks.distance(pattern, text)
        }
    }

    fn myers(&mut self, pattern: &[u32], text: &[u32]) -> usize {
        let m = pattern.len();
        if let Some(&max) = pattern.iter().max() {
            if self.peq.len() <= max as usize {
                self.peq.resize(max as usize + 1, 0);
            }
        }
        for (j, &t) in pattern.iter().enumerate() {
            self.peq[t as usize] |= 1 << j;
        }
        let mask = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        let top = 1u64 << (m - 1);
        let (mut pv, mut mv) = (mask, 0u64);
        let mut score = m;
        for &t in text {
            let eq = self.peq.get(t as usize).copied().unwrap_or(0);
            let xv = eq | mv;
            let xh = (((eq & pv).wrapping_add(pv)) ^ pv) | eq;
            let mut ph = mv | !(xh | pv);
            let mut mh = pv & xh;
            if ph & top != 0 {
                score += 1;
            } else if mh & top != 0 {
                score -= 1;
            }
            // Row 0 of the DP grows by one per text token: a +1 enters at the bottom.
            ph = (ph << 1) | 1;
            mh <<= 1;
            pv = (mh | !(xv | ph)) & mask;
            mv = ph & xv & mask;
        }
        for &t in pattern {
            self.peq[t as usize] = 0;
        }
        score
    }

    fn dp(&mut self, a: &[u32], b: &[u32]) -> usize {
        self.row.clear();
        self.row.extend(0..=a.len());
        for (i, &y) in b.iter().enumerate() {
            let mut diag = self.row[0];
            self.row[0] = i + 1;
            for (j, &x) in a.iter().enumerate() {
                let up = self.row[j + 1];
                let cost = diag + usize::from(x != y);
                self.row[j + 1] = cost.min(up + 1).min(self.row[j] + 1);
                diag = up;
            }
        }
        self.row[a.len()]
    }
}

/// Levenshtein distance by the textbook dynamic programme (the test oracle).
pub fn distance_dp(a: &[u32], b: &[u32]) -> usize {
    EditScratch::default().dp(a, b)
}

/// Levenshtein distance of one pair (convenience).
///
/// ```
/// use mtalign_core::kernels::edit_distance::distance;
/// assert_eq!(distance(&[1, 2, 3], &[1, 3, 4]), 2); // delete 2, insert 4
/// ```
pub fn distance(a: &[u32], b: &[u32]) -> usize {
    EditScratch::default().distance(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_cases() {
        assert_eq!(distance(&[], &[1, 2]), 2);
        assert_eq!(distance(&[1, 2, 3], &[1, 3]), 1);
        assert_eq!(distance(&[1, 2, 3], &[3, 2, 1]), 2);
        assert_eq!(distance(&[5; 70], &[5; 65]), 5);
    }

    proptest! {
        #[test]
        fn myers_equals_dp(a in prop::collection::vec(0u32..5, 0..200),
                           b in prop::collection::vec(0u32..5, 0..200)) {
            prop_assert_eq!(distance(&a, &b), distance_dp(&a, &b));
        }
    }
}
