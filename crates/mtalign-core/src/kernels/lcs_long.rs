//! Bit-parallel LCS for long texts in memory linear in the input (Allison–Dix / Hyyrö), and
//! rouge-score's LCS *alignment* (for `rougeLsum`) from the same bit rows.
//!
//! [`PatternMasks`] holds the pattern's position masks (bit j of a symbol's mask set where
//! the pattern has that symbol at j). A mask costs ⌈m/64⌉ words, so keeping one per distinct
//! symbol is quadratic when most symbols are distinct; here only a symbol seen at least
//! ⌈m/64⌉ / 8 times keeps a dense mask (at most 8·64 = 512 such symbols, 64 bytes per pattern
//! token in all), the others keep their position list and are written into one reusable mask
//! when the text reaches them. One text step costs ⌈m/64⌉ word operations either way.
//!
//! Row vector V_i (after i text symbols): bit j is 0 exactly where L(i, j+1) = L(i, j) + 1, so
//! L(i, j) = the number of zero bits of V_i below j. The step is
//! `U = V & M[c]; V = (V + U) | (V & !M[c])`, the addition carrying across words.

use crate::interrupt::Poll;

const NONE: u32 = u32::MAX;

/// A symbol keeps a dense mask when it occurs at least `words / DENSE_DIVISOR` times.
const DENSE_DIVISOR: usize = 8;

/// The position masks of one prepared pattern, in memory linear in its length.
#[derive(Debug, Default)]
pub struct PatternMasks {
    /// `slot[id]` = index of the symbol among the pattern's distinct symbols, or `NONE`.
    slot: Vec<u32>,
    symbols: Vec<u32>,
    /// Per distinct symbol: its dense row, or `NONE`.
    dense_row: Vec<u32>,
    /// Per distinct symbol k: its positions are `positions[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    fill: Vec<u32>,
    positions: Vec<u32>,
    dense: Vec<u64>,
    /// The mask of the last sparse symbol asked for (its bits cleared on the next call).
    sparse: Vec<u64>,
    dirty: std::ops::Range<usize>,
    /// All zeros: the mask of a symbol absent from the pattern.
    zeros: Vec<u64>,
    words: usize,
    pattern: Vec<u32>,
}

impl PatternMasks {
    /// Encodes `pattern`, replacing the previous one.
    pub fn prepare(&mut self, pattern: &[u32]) {
        for &s in &self.symbols {
            self.slot[s as usize] = NONE;
        }
        self.symbols.clear();
        self.pattern.clear();
        self.pattern.extend_from_slice(pattern);
        let words = pattern.len().div_ceil(64).max(1);
        self.words = words;
        if let Some(&max) = pattern.iter().max() {
            if max as usize >= self.slot.len() {
                self.slot.resize(max as usize + 1, NONE);
            }
        }
        // Counting sort of the positions by symbol (symbols in first-seen order).
        self.start.clear();
        for &s in pattern {
            let k = match self.slot[s as usize] {
                NONE => {
                    let k = self.symbols.len() as u32;
                    self.slot[s as usize] = k;
                    self.symbols.push(s);
                    self.start.push(0);
                    k
                }
                k => k,
            };
            self.start[k as usize] += 1;
        }
        let mut total = 0u32;
        for c in self.start.iter_mut() {
            let n = *c;
            *c = total;
            total += n;
        }
        self.start.push(total);
        self.positions.clear();
        self.positions.resize(pattern.len(), 0);
        self.fill.clear();
        self.fill
            .extend_from_slice(&self.start[..self.symbols.len()]);
        for (j, &s) in pattern.iter().enumerate() {
            let k = self.slot[s as usize] as usize;
            self.positions[self.fill[k] as usize] = j as u32;
            self.fill[k] += 1;
        }
        // Dense rows for frequent symbols.
        self.dense.clear();
        self.dense_row.clear();
        let threshold = words.div_ceil(DENSE_DIVISOR);
        for k in 0..self.symbols.len() {
            let range = self.start[k] as usize..self.start[k + 1] as usize;
            if range.len() >= threshold {
                let row = self.dense.len() / words;
                self.dense.resize(self.dense.len() + words, 0);
                let mask = &mut self.dense[row * words..];
                for &p in &self.positions[range] {
                    mask[p as usize / 64] |= 1 << (p % 64);
                }
                self.dense_row.push(row as u32);
            } else {
                self.dense_row.push(NONE);
            }
        }
        self.sparse.clear();
        self.sparse.resize(words, 0);
        self.dirty = 0..0;
        self.zeros.clear();
        self.zeros.resize(words, 0);
    }

    /// Words of a mask (⌈m/64⌉, at least 1).
    pub fn words(&self) -> usize {
        self.words
    }

    /// The prepared pattern.
    pub fn pattern(&self) -> &[u32] {
        &self.pattern
    }

    /// The mask of `symbol`, or `None` when the pattern lacks it.
    #[inline]
    pub fn get(&mut self, symbol: u32) -> Option<&[u64]> {
        let k = match self.slot.get(symbol as usize) {
            Some(&k) if k != NONE => k as usize,
            _ => return None,
        };
        let row = self.dense_row[k];
        if row != NONE {
            let w = self.words;
            return Some(&self.dense[row as usize * w..(row as usize + 1) * w]);
        }
        for &p in &self.positions[self.dirty.clone()] {
            self.sparse[p as usize / 64] = 0;
        }
        let range = self.start[k] as usize..self.start[k + 1] as usize;
        for &p in &self.positions[range.clone()] {
            self.sparse[p as usize / 64] |= 1 << (p % 64);
        }
        self.dirty = range;
        Some(&self.sparse)
    }

    /// The mask of `symbol`, all zeros when the pattern lacks it.
    #[inline]
    pub fn get_or_zeros(&mut self, symbol: u32) -> &[u64] {
        if self.slot.get(symbol as usize).is_some_and(|&k| k != NONE) {
            self.get(symbol).unwrap_or(&[])
        } else {
            &self.zeros
        }
    }
}

/// One LCS step over the words of `row` (a prefix of the mask's words may be given).
#[inline]
pub fn step(row: &mut [u64], mask: &[u64]) {
    let mut carry = 0u64;
    for (v, &m) in row.iter_mut().zip(mask) {
        let u = *v & m;
        let (s1, c1) = v.overflowing_add(u);
        let (s2, c2) = s1.overflowing_add(carry);
        carry = (c1 | c2) as u64;
        *v = s2 | (*v & !m);
    }
}

/// Number of zero bits of `row` below bit `j`.
#[inline]
fn zeros_below(row: &[u64], j: usize) -> usize {
    let full: usize = row[..j / 64].iter().map(|w| w.count_zeros() as usize).sum();
    let rest = j % 64;
    if rest == 0 {
        full
    } else {
        full + (!row[j / 64] & ((1u64 << rest) - 1)).count_ones() as usize
    }
}

/// Reusable state of the long-text LCS kernels.
#[derive(Debug, Default)]
pub struct LongLcs {
    masks: PatternMasks,
    row: Vec<u64>,
    /// Checkpoint rows (every `band` rows) and one band's rows, for the traceback.
    saved: Vec<u64>,
    band_rows: Vec<u64>,
    /// Per band row: zeros in the words before each word (`words + 1` entries a row).
    before: Vec<u32>,
}

impl LongLcs {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Prepares `pattern` (the columns).
    pub fn prepare(&mut self, pattern: &[u32]) {
        self.masks.prepare(pattern);
    }

    /// LCS length of the prepared pattern and `text`.
    pub fn lcs(&mut self, text: &[u32]) -> usize {
        let m = self.masks.pattern().len();
        if m == 0 || text.is_empty() {
            return 0;
        }
        let words = self.masks.words();
        self.row.clear();
        self.row.resize(words, !0);
        let mut poll = Poll::new(words);
        for &c in text {
            if let Some(mask) = self.masks.get(c) {
                step(&mut self.row, mask);
            }
            if poll.stop() {
                break;
            }
        }
        let len = zeros_below(&self.row, m);
        if words > 1 << 12 {
            self.row = Vec::new();
        }
        len
    }

    /// Marks in `union` (indexed like `r`) the positions of `r` on rouge-score's traceback of
    /// the LCS table of `r` (rows) and the prepared pattern (columns): diagonal on a match,
    /// otherwise left only when the left cell is strictly larger than the upper one.
    /// Checkpoint rows keep memory at O(√|r| · |pattern| / 64) words for long pairs.
    pub fn mark_union(&mut self, r: &[u32], union: &mut [bool]) {
        let words = self.masks.words();
        let band = if r.len() * words <= 1 << 18 {
            r.len().max(1)
        } else {
            // Saved rows (8 bytes a word) and a band's rows and counts (12) balance here.
            (((8 * r.len()) as f64 / 12.0).sqrt() as usize).max(64)
        };
        self.mark_union_banded(r, union, band);
    }

    fn mark_union_banded(&mut self, r: &[u32], union: &mut [bool], band: usize) {
        let cols = self.masks.pattern().len();
        let rows = r.len();
        if rows == 0 || cols == 0 {
            return;
        }
        let words = self.masks.words();
        let mut poll = Poll::new(words);
        let bands = rows.div_ceil(band);
        self.saved.clear();
        if bands > 1 {
            self.row.clear();
            self.row.resize(words, !0);
            for (i, &x) in r.iter().enumerate() {
                if let Some(mask) = self.masks.get(x) {
                    step(&mut self.row, mask);
                }
                if (i + 1).is_multiple_of(band) && i + 1 < rows {
                    self.saved.extend_from_slice(&self.row);
                }
                if poll.stop() {
                    return;
                }
            }
        }
        let (mut i, mut j) = (rows, cols);
        for b in (0..bands).rev() {
            let start = b * band;
            if i == 0 || j == 0 {
                break;
            }
            if start >= i {
                continue;
            }
            // Rows start..=i over the words holding columns < j.
            let w = j.div_ceil(64);
            let n_rows = i - start + 1;
            self.band_rows.clear();
            if start == 0 {
                self.band_rows.resize(w, !0);
            } else {
                let at = (start / band - 1) * words;
                self.band_rows.extend_from_slice(&self.saved[at..at + w]);
            }
            self.band_rows.resize(n_rows * w, 0);
            for k in 1..n_rows {
                let (done, next) = self.band_rows.split_at_mut(k * w);
                let row = &mut next[..w];
                row.copy_from_slice(&done[(k - 1) * w..]);
                if let Some(mask) = self.masks.get(r[start + k - 1]) {
                    step(row, &mask[..w]);
                }
                if poll.stop() {
                    return;
                }
            }
            self.before.clear();
            for k in 0..n_rows {
                let mut zeros = 0u32;
                self.before.push(0);
                for v in &self.band_rows[k * w..(k + 1) * w] {
                    zeros += v.count_zeros();
                    self.before.push(zeros);
                }
            }
            let pattern = &self.masks.pattern;
            let (rows_, before) = (&self.band_rows, &self.before);
            // L(i, j) from the band's rows: zeros of row i below bit j.
            let lcs_at = |i: usize, j: usize| -> u32 {
                let k = i - start;
                let row = &rows_[k * w..(k + 1) * w];
                let mut z = before[k * (w + 1) + j / 64];
                if !j.is_multiple_of(64) {
                    z += (!row[j / 64] & ((1u64 << (j % 64)) - 1)).count_ones();
                }
                z
            };
            while i > start && j > 0 {
                if r[i - 1] == pattern[j - 1] {
                    union[i - 1] = true;
                    i -= 1;
                    j -= 1;
                } else if lcs_at(i, j - 1) > lcs_at(i - 1, j) {
                    j -= 1;
                } else {
                    i -= 1;
                }
            }
        }
        if words * band > 1 << 16 {
            // A long pair's rows are not kept for the next (mostly short) ones.
            self.saved = Vec::new();
            self.band_rows = Vec::new();
            self.before = Vec::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::lcs::lcs_length_dp;
    use proptest::prelude::*;

    /// rouge-score's traceback over the whole table (the oracle).
    fn union_dp(r: &[u32], c: &[u32]) -> Vec<bool> {
        let mut union = vec![false; r.len()];
        crate::kernels::summary_lcs::mark_tiny(r, c, &mut Vec::new(), &mut union);
        union
    }

    fn symbols(alphabet: u32, len: usize) -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(0..alphabet, 0..len)
    }

    #[test]
    fn sparse_and_dense_masks_agree_at_word_boundaries() {
        for len in [1usize, 63, 64, 65, 127, 128, 129, 700, 2000] {
            // Mostly distinct symbols (sparse masks) with a few frequent ones (dense).
            let a: Vec<u32> = (0..len as u32)
                .map(|i| if i % 3 == 0 { i % 4 } else { 10 + i })
                .collect();
            let b: Vec<u32> = (0..len as u32)
                .map(|i| {
                    if i % 2 == 0 {
                        (i * 7) % 4
                    } else {
                        10 + (i * 5) % len as u32
                    }
                })
                .collect();
            let mut k = LongLcs::new();
            k.prepare(&a);
            assert_eq!(k.lcs(&b), lcs_length_dp(&a, &b), "len {len}");
            assert_eq!(k.lcs(&a), len);
            let mut union = vec![false; b.len()];
            k.mark_union(&b, &mut union);
            assert_eq!(union, union_dp(&b, &a), "len {len}");
        }
    }

    #[test]
    fn reuse_forgets_the_previous_pattern() {
        let mut k = LongLcs::new();
        k.prepare(&[5, 6, 7]);
        assert_eq!(k.lcs(&[5, 7]), 2);
        k.prepare(&[1, 2]);
        assert_eq!(k.lcs(&[5, 6, 7]), 0);
        assert_eq!(k.lcs(&[2, 1, 2]), 2);
        k.prepare(&[]);
        assert_eq!(k.lcs(&[1]), 0);
    }

    proptest! {
        #[test]
        fn lcs_equals_dp(a in symbols(6, 300), b in symbols(6, 300)) {
            let mut k = LongLcs::new();
            k.prepare(&a);
            prop_assert_eq!(k.lcs(&b), lcs_length_dp(&a, &b));
        }

        #[test]
        fn lcs_equals_dp_many_symbols(a in symbols(400, 900), b in symbols(400, 900)) {
            let mut k = LongLcs::new();
            k.prepare(&a);
            prop_assert_eq!(k.lcs(&b), lcs_length_dp(&a, &b));
        }

        #[test]
        fn union_equals_the_full_table(
            r in symbols(5, 200),
            c in symbols(5, 200),
            band in 1usize..40,
        ) {
            let mut k = LongLcs::new();
            k.prepare(&c);
            let want = union_dp(&r, &c);
            let mut union = vec![false; r.len()];
            k.mark_union(&r, &mut union);
            prop_assert_eq!(&union, &want);
            let mut union = vec![false; r.len()];
            k.mark_union_banded(&r, &mut union, band);
            prop_assert_eq!(&union, &want);
        }

        #[test]
        fn union_equals_the_full_table_long_rows(
            r in symbols(30, 120),
            c in symbols(30, 700),
            band in 1usize..30,
        ) {
            let mut k = LongLcs::new();
            k.prepare(&c);
            let mut union = vec![false; r.len()];
            k.mark_union_banded(&r, &mut union, band);
            prop_assert_eq!(union, union_dp(&r, &c));
        }
    }

    #[test]
    fn long_pair_in_linear_memory() {
        // 20k distinct-ish symbols: dense masks for all would take 20k × 313 words (50 MB).
        let a: Vec<u32> = (0..20_000u32).map(|i| (i * 7919) % 15_000).collect();
        let b: Vec<u32> = (0..20_000u32).map(|i| (i * 104_729) % 15_000).collect();
        let mut k = LongLcs::new();
        k.prepare(&a);
        assert!(k.masks.dense.len() <= 512 * k.masks.words());
        let got = k.lcs(&b);
        assert_eq!(got, lcs_length_dp(&a, &b));
    }
}
