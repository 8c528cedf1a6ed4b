//! A short text's token ids held as 16-bit lanes, so that each token of another text finds
//! its positions in it (a bit set, bit j for position j) by one comparison with every lane
//! at once (SSE2 on x86_64), with no table indexed by id to fill, read from memory and clear.
//! For a text met once, a reference of its own in a batch where nothing repeats, filling
//! such a table cost more than the comparisons it saved (ROUGE-L's LCS, BLEU's clipped
//! matches).

/// Ids at or above this are never held; a text's larger ids are compared as this value,
/// which no held id equals.
pub const LANE_LIMIT: u32 = 0xFFFF;
/// The longest text held: one bit of a `u64` per position.
pub const LANES_MAX_LEN: usize = 64;
/// Lanes compared at once: two SSE2 registers of eight.
const GROUP: usize = 16;

/// A text of at most [`LANES_MAX_LEN`] ids below [`LANE_LIMIT`], as 16-bit lanes.
#[derive(Debug, Clone)]
pub struct Lanes {
    /// Lane `4w + k` in bits `16k..16k + 16` of word `w`; [`LANE_LIMIT`] past the text.
    words: [u64; LANES_MAX_LEN / 4],
    len: usize,
}

impl Default for Lanes {
    fn default() -> Self {
        Self {
            words: [0; LANES_MAX_LEN / 4],
            len: 0,
        }
    }
}

impl Lanes {
    /// Holds `text`, or returns false (holding nothing) when it has more than
    /// [`LANES_MAX_LEN`] ids or one at or above [`LANE_LIMIT`].
    pub fn fill(&mut self, text: &[u32]) -> bool {
        if text.len() > LANES_MAX_LEN || text.iter().any(|&t| t >= LANE_LIMIT) {
            self.len = 0;
            return false;
        }
        self.len = text.len();
        let groups = self.groups();
        for (w, word) in self.words[..groups * GROUP / 4].iter_mut().enumerate() {
            *word = (0..4).fold(0, |acc, k| {
                let lane = text.get(4 * w + k).map_or(LANE_LIMIT, |&t| t);
                acc | u64::from(lane) << (16 * k)
            });
        }
        true
    }

    /// The number of ids held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no id is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Groups of [`GROUP`] lanes that hold the text (at least one).
    fn groups(&self) -> usize {
        self.len.div_ceil(GROUP).max(1)
    }

    /// Calls `f` with the positions in the held text of each token of `text`, in order.
    #[inline]
    #[allow(unsafe_code)]
    pub fn scan(&self, text: &[u32], f: impl FnMut(u64)) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline: every x86_64 processor has it.
        unsafe {
            match self.groups() {
                1 => self.scan_sse2::<1>(text, f),
                2 => self.scan_sse2::<2>(text, f),
                3 => self.scan_sse2::<3>(text, f),
                _ => self.scan_sse2::<4>(text, f),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.scan_by_lanes(text, f)
    }

    /// [`Lanes::scan`] with `G` groups held in registers for the whole text: a token's
    /// positions are two 16-bit compares per group, packed to bytes and gathered by
    /// `movemask`.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    #[target_feature(enable = "sse2")]
    fn scan_sse2<const G: usize>(&self, text: &[u32], mut f: impl FnMut(u64)) {
        use std::arch::x86_64::{
            _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_packs_epi16, _mm_set1_epi16, _mm_set_epi64x,
        };
        let w = &self.words;
        let held: [_; G] = std::array::from_fn(|g| {
            let half =
                |h: usize| _mm_set_epi64x(w[4 * g + 2 * h + 1] as i64, w[4 * g + 2 * h] as i64);
            [half(0), half(1)]
        });
        let live = live_bits(self.len);
        for &t in text {
            let t = _mm_set1_epi16(t.min(LANE_LIMIT) as u16 as i16);
            let mut positions = 0u64;
            for (g, [low, high]) in held.iter().enumerate() {
                // Equal lanes are all ones, which pack (signed, saturating) to bytes 0xFF.
                let equal = _mm_packs_epi16(_mm_cmpeq_epi16(*low, t), _mm_cmpeq_epi16(*high, t));
                positions |= u64::from(_mm_movemask_epi8(equal) as u16) << (GROUP * g);
            }
            f(positions & live);
        }
    }

    /// [`Lanes::scan`] lane by lane (the portable fallback, and the tests' oracle).
    #[cfg(any(test, not(target_arch = "x86_64")))]
    fn scan_by_lanes(&self, text: &[u32], mut f: impl FnMut(u64)) {
        for &t in text {
            let t = t.min(LANE_LIMIT);
            let positions = (0..self.len)
                .filter(|&j| (self.words[j / 4] >> (16 * (j % 4))) as u16 as u32 == t)
                .fold(0u64, |m, j| m | 1 << j);
            f(positions);
        }
    }
}

/// The bits of positions `0..len` (`len` ≤ 64).
#[cfg(target_arch = "x86_64")]
fn live_bits(len: usize) -> u64 {
    if len >= 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The positions of each token of `text` in `held`, by comparing ids one by one.
    fn positions(held: &[u32], text: &[u32]) -> Vec<u64> {
        text.iter()
            .map(|&t| {
                held.iter()
                    .enumerate()
                    .filter(|&(_, &h)| h == t)
                    .fold(0, |m, (j, _)| m | 1 << j)
            })
            .collect()
    }

    #[test]
    fn refuses_long_texts_and_large_ids() {
        let mut lanes = Lanes::default();
        assert!(lanes.fill(&[0; 64]));
        assert!(!lanes.fill(&[0; 65]));
        assert!(!lanes.fill(&[1, LANE_LIMIT]));
        assert!(lanes.is_empty());
        assert!(lanes.fill(&[LANE_LIMIT - 1]));
        let mut seen = Vec::new();
        lanes.scan(&[LANE_LIMIT - 1, LANE_LIMIT, u32::MAX], |p| seen.push(p));
        assert_eq!(seen, [1, 0, 0]);
    }

    proptest! {
        /// Held texts of every group count, ids on both sides of the limit in the scanned
        /// text: the positions equal a comparison of ids one by one, in both scans.
        #[test]
        fn positions_equal_comparing_ids(
            held in prop::collection::vec(prop_oneof![0u32..6, (LANE_LIMIT - 3)..LANE_LIMIT], 0..=64),
            text in prop::collection::vec(
                prop_oneof![0u32..6, (LANE_LIMIT - 3)..(LANE_LIMIT + 3), Just(u32::MAX)],
                0..40,
            ),
        ) {
            let mut lanes = Lanes::default();
            prop_assert!(lanes.fill(&held));
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            lanes.scan(&text, |p| fast.push(p));
            lanes.scan_by_lanes(&text, |p| slow.push(p));
            let want = positions(&held, &text);
            prop_assert_eq!(&fast, &want);
            prop_assert_eq!(&slow, &want);
        }
    }
}
