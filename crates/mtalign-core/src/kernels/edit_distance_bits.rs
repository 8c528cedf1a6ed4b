//! Levenshtein distance of long sequences: Myers' (1999) bit-vector algorithm over blocks of
//! 64 pattern positions, with the horizontal delta passed from block to block (Hyyrö 2003's
//! formulation of the block step). n·⌈m/64⌉ word operations, O(m) memory: the pattern's
//! masks are [`PatternMasks`] (dense only for frequent symbols).
//!
//! Per block, Pv / Mv hold the vertical deltas +1 / −1 of the DP column; a text symbol
//! advances every block from the top, the first block receiving the +1 of row 0
//! (D(0, j) = j), each next one the horizontal delta leaving the block above.

use crate::interrupt::Poll;
use crate::kernels::lcs_long::PatternMasks;

/// Reusable state of the block-based Myers kernel.
#[derive(Debug, Default)]
pub struct BlockMyers {
    masks: PatternMasks,
    pv: Vec<u64>,
    mv: Vec<u64>,
}

/// Advances one block by one text symbol; `hin` / the result are the horizontal deltas
/// entering at the block's top and leaving at its bottom (−1, 0 or +1).
#[inline]
fn advance(pv: &mut u64, mv: &mut u64, eq: u64, hin: i32) -> (u64, u64) {
    let hin_neg = u64::from(hin < 0);
    let xv = eq | *mv;
    let eq = eq | hin_neg;
    let xh = ((eq & *pv).wrapping_add(*pv) ^ *pv) | eq;
    let ph = *mv | !(xh | *pv);
    let mh = *pv & xh;
    let (ph_out, mh_out) = (ph, mh);
    let ph = (ph << 1) | u64::from(hin > 0);
    let mh = (mh << 1) | hin_neg;
    *pv = mh | !(xv | ph);
    *mv = ph & xv;
    (ph_out, mh_out)
}

impl BlockMyers {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Levenshtein distance (unit costs) between `pattern` and `text`.
    pub fn distance(&mut self, pattern: &[u32], text: &[u32]) -> usize {
        let m = pattern.len();
        if m == 0 {
            return text.len();
        }
        self.masks.prepare(pattern);
        let words = self.masks.words();
        self.pv.clear();
        self.pv.resize(words, !0);
        self.mv.clear();
        self.mv.resize(words, 0);
        let last = words - 1;
        let top = 1u64 << ((m - 1) % 64);
        let mut score = m;
        let mut poll = Poll::new(words);
        for &t in text {
            let eq = self.masks.get_or_zeros(t);
            let mut hin = 1i32;
            for (b, (pv, mv)) in self.pv.iter_mut().zip(self.mv.iter_mut()).enumerate() {
                let (ph, mh) = advance(pv, mv, eq[b], hin);
                if b == last {
                    if ph & top != 0 {
                        score += 1;
                    } else if mh & top != 0 {
                        score -= 1;
                    }
                } else {
                    hin = (ph >> 63) as i32 - (mh >> 63) as i32;
                }
            }
            if poll.stop() {
                break;
            }
        }
        if words > 1 << 12 {
            // A long pair's vectors are not kept for the next (mostly short) ones.
            self.pv = Vec::new();
            self.mv = Vec::new();
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::edit_distance::distance_dp;
    use proptest::prelude::*;

    #[test]
    fn word_boundaries() {
        for len in [1usize, 63, 64, 65, 127, 128, 129, 300] {
            let a: Vec<u32> = (0..len as u32).map(|i| i % 5).collect();
            let b: Vec<u32> = (0..len as u32 + 3).map(|i| (i * 3) % 7).collect();
            let mut k = BlockMyers::new();
            assert_eq!(k.distance(&a, &b), distance_dp(&a, &b), "len {len}");
            assert_eq!(k.distance(&b, &a), distance_dp(&a, &b), "len {len}");
            assert_eq!(k.distance(&a, &a), 0);
            assert_eq!(k.distance(&a, &[]), len);
        }
    }

    proptest! {
        #[test]
        fn blocks_equal_dp(a in prop::collection::vec(0u32..5, 0..300),
                           b in prop::collection::vec(0u32..5, 0..300)) {
            prop_assert_eq!(BlockMyers::new().distance(&a, &b), distance_dp(&a, &b));
        }

        #[test]
        fn blocks_equal_dp_many_symbols(a in prop::collection::vec(0u32..300, 0..400),
                                        b in prop::collection::vec(0u32..300, 0..400)) {
            prop_assert_eq!(BlockMyers::new().distance(&a, &b), distance_dp(&a, &b));
        }

        #[test]
        fn blocks_equal_dp_similar_texts(
            a in prop::collection::vec(0u32..40, 0..400),
            edits in prop::collection::vec((0usize..400, 0u32..40, 0u8..3), 0..20),
        ) {
            let mut b = a.clone();
            for (at, s, op) in edits {
                let at = at.min(b.len());
                match op {
                    0 => b.insert(at, s),
                    1 if at < b.len() => { b.remove(at); }
                    _ if at < b.len() => b[at] = s,
                    _ => {}
                }
            }
            prop_assert_eq!(BlockMyers::new().distance(&a, &b), distance_dp(&a, &b));
        }
    }
}
