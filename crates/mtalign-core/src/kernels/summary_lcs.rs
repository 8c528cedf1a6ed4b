//! Summary-level LCS (`rougeLsum`) as rouge-score 0.1.2 defines it (Lin 2004, section 3.2,
//! with ROUGE-1.5.5's guard against double counting).
//!
//! Reference and candidate are lists of lines. For each reference line r, the union of the
//! reference positions of one LCS of r with each candidate line is taken (rouge-score's
//! traceback: diagonal on a match, otherwise left only when the left cell is strictly larger);
//! each token of that union is a hit while both sides still have an unused occurrence of it
//! (counts over the whole texts). R = hits / m, P = hits / n with m, n the total token counts.

use crate::kernels::counts::Counts;

/// Tables of at most this many cells are kept whole; larger ones keep checkpoint rows and
/// recompute one band of rows at a time for the traceback (linear memory).
const FULL_TABLE_CELLS: usize = 1 << 24;

#[derive(Debug, Default)]
pub struct SummaryLcsScratch {
    table: Vec<u32>,
    prev: Vec<u32>,
    cur: Vec<u32>,
    /// Rows saved every `band` rows, and one band's "left is larger" bits.
    saved: Vec<u32>,
    left: Vec<u64>,
    union: Vec<bool>,
    /// Remaining occurrences per token id, candidate and reference side (sparse reset).
    left_c: Vec<u32>,
    left_r: Vec<u32>,
    touched: Vec<u32>,
}

impl SummaryLcsScratch {
    fn count(&mut self, lines: &[&[u32]], reference: bool) {
        for &t in lines.iter().flat_map(|l| l.iter()) {
            let t = t as usize;
            if t >= self.left_c.len() {
                self.left_c.resize(t + 1, 0);
                self.left_r.resize(t + 1, 0);
            }
            if self.left_c[t] == 0 && self.left_r[t] == 0 {
                self.touched.push(t as u32);
            }
            if reference {
                self.left_r[t] += 1;
            } else {
                self.left_c[t] += 1;
            }
        }
    }

    /// Marks in `self.union` the reference positions of rouge-score's LCS of `r` and `c`.
    fn mark_lcs(&mut self, r: &[u32], c: &[u32]) {
        if r.len().saturating_mul(c.len()) <= FULL_TABLE_CELLS {
            self.mark_lcs_full(r, c);
        } else {
            // Saved rows (4 bytes a column) and a band of bits balance at band ≈ √(32·rows).
            let band = (((32 * r.len()) as f64).sqrt() as usize).max(64);
            self.mark_lcs_banded(r, c, band);
            self.saved = Vec::new();
            self.left = Vec::new();
        }
    }

    fn mark_lcs_full(&mut self, r: &[u32], c: &[u32]) {
        let (rows, cols) = (r.len(), c.len());
        let w = cols + 1;
        self.table.clear();
        self.table.resize((rows + 1) * w, 0);
        for i in 1..=rows {
            for j in 1..=cols {
                self.table[i * w + j] = if r[i - 1] == c[j - 1] {
                    self.table[(i - 1) * w + j - 1] + 1
                } else {
                    self.table[(i - 1) * w + j].max(self.table[i * w + j - 1])
                };
            }
        }
        let (mut i, mut j) = (rows, cols);
        while i > 0 && j > 0 {
            if r[i - 1] == c[j - 1] {
                self.union[i - 1] = true;
                i -= 1;
                j -= 1;
            } else if self.table[i * w + j - 1] > self.table[(i - 1) * w + j] {
                j -= 1;
            } else {
                i -= 1;
            }
        }
    }

    /// Rows `rows` of the LCS table (columns 1..=`cols`) from `self.prev` (the row before),
    /// leaving the last in `self.prev`; with `bits` (words a row), records for each cell
    /// whether its left neighbour is larger than its upper one (the traceback's choice); with
    /// `save`, copies every `save`-th row into `self.saved`.
    fn rows(
        &mut self,
        r: &[u32],
        c: &[u32],
        rows: std::ops::Range<usize>,
        cols: usize,
        bits: Option<usize>,
        save: Option<usize>,
    ) {
        let first = rows.start;
        for i in rows {
            self.cur[0] = 0;
            for (j, &cj) in c[..cols].iter().enumerate() {
                self.cur[j + 1] = if r[i] == cj {
                    self.prev[j] + 1
                } else {
                    let (up, left) = (self.prev[j + 1], self.cur[j]);
                    if left > up {
                        if let Some(stride) = bits {
                            let bit = (i - first) * stride * 64 + j;
                            self.left[bit / 64] |= 1 << (bit % 64);
                        }
                    }
                    up.max(left)
                };
            }
            std::mem::swap(&mut self.prev, &mut self.cur);
            if let Some(every) = save {
                if (i + 1) % every == 0 && i + 1 < r.len() {
                    self.saved.extend_from_slice(&self.prev[..=c.len()]);
                }
            }
        }
    }

    /// [`Self::mark_lcs_full`]'s traceback from checkpoints every `band` rows: the same
    /// choices, O((rows / band + band / 64)·cols) memory.
    fn mark_lcs_banded(&mut self, r: &[u32], c: &[u32], band: usize) {
        let (rows, cols) = (r.len(), c.len());
        if rows == 0 || cols == 0 {
            return;
        }
        for v in [&mut self.prev, &mut self.cur] {
            v.clear();
            v.resize(cols + 1, 0);
        }
        self.saved.clear();
        let bands = rows.div_ceil(band);
        if bands > 1 {
            self.rows(r, c, 0..rows, cols, None, Some(band));
        }
        let stride = cols.div_ceil(64);
        let (mut i, mut j) = (rows, cols);
        for b in (0..bands).rev() {
            let start = b * band;
            if i == 0 || j == 0 {
                break;
            }
            if start >= i {
                continue;
            }
            if start == 0 {
                self.prev.fill(0);
            } else {
                let at = (start / band - 1) * (cols + 1);
                self.prev.copy_from_slice(&self.saved[at..at + cols + 1]);
            }
            self.left.clear();
            self.left.resize((i - start) * stride, 0);
            self.rows(r, c, start..i, j, Some(stride), None);
            while i > start && j > 0 {
                if r[i - 1] == c[j - 1] {
                    self.union[i - 1] = true;
                    i -= 1;
                    j -= 1;
                } else {
                    let bit = (i - 1 - start) * stride * 64 + (j - 1);
                    if self.left[bit / 64] >> (bit % 64) & 1 == 1 {
                        j -= 1;
                    } else {
                        i -= 1;
                    }
                }
            }
        }
    }

    /// (hits, candidate tokens, reference tokens) of candidate lines `cand` against reference
    /// lines `refs`.
    pub fn counts(&mut self, cand: &[&[u32]], refs: &[&[u32]]) -> Counts {
        let n: usize = cand.iter().map(|l| l.len()).sum();
        let m: usize = refs.iter().map(|l| l.len()).sum();
        if n == 0 || m == 0 {
            return Counts::new(0.0, n as f64, m as f64);
        }
        self.count(cand, false);
        self.count(refs, true);
        let mut hits = 0usize;
        for r in refs {
            self.union.clear();
            self.union.resize(r.len(), false);
            for c in cand {
                self.mark_lcs(r, c);
            }
            for (k, &t) in r.iter().enumerate() {
                let t = t as usize;
                if self.union[k] && self.left_c[t] > 0 && self.left_r[t] > 0 {
                    hits += 1;
                    self.left_c[t] -= 1;
                    self.left_r[t] -= 1;
                }
            }
        }
        for &t in &self.touched {
            self.left_c[t as usize] = 0;
            self.left_r[t as usize] = 0;
        }
        self.touched.clear();
        Counts::new(hits as f64, n as f64, m as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_union_lcs_example() {
        // Lin (2004): r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5:
        // union LCS = w1 w2 w3 w5, so 4 hits of 5 reference words.
        let mut s = SummaryLcsScratch::default();
        let c = s.counts(&[&[1, 2, 6, 7, 8], &[1, 3, 8, 9, 5]], &[&[1, 2, 3, 4, 5]]);
        assert_eq!((c.hit, c.hyp_total, c.ref_total), (4.0, 10.0, 5.0));
        // Scratch reuse: counts are reset.
        let c = s.counts(&[&[1, 2]], &[&[1, 2]]);
        assert_eq!(c.hit, 2.0);
        assert_eq!(s.counts(&[], &[&[1]]).hit, 0.0);
    }

    proptest::proptest! {
        #[test]
        fn banded_traceback_marks_the_same_positions(
            r in proptest::collection::vec(0u32..4, 0..80),
            c in proptest::collection::vec(0u32..4, 0..80),
            band in 1usize..20,
        ) {
            let mut s = SummaryLcsScratch {
                union: vec![false; r.len()],
                ..Default::default()
            };
            s.mark_lcs_full(&r, &c);
            let want = s.union.clone();
            s.union = vec![false; r.len()];
            s.mark_lcs_banded(&r, &c, band);
            proptest::prop_assert_eq!(&s.union, &want);
        }
    }

    #[test]
    fn long_lines_in_linear_memory() {
        // 5000 × 4000 cells: banded; the same hits as one whole table.
        let r: Vec<u32> = (0..5000u32).map(|i| (i * 7) % 13).collect();
        let c: Vec<u32> = (0..4000u32).map(|i| (i * 5) % 11).collect();
        let mut s = SummaryLcsScratch::default();
        let got = s.counts(&[&c], &[&r]);
        s.union = vec![false; r.len()];
        s.mark_lcs_full(&r, &c);
        let want = s.union.iter().filter(|&&u| u).count();
        assert!(got.hit as usize <= want && got.hit > 0.0);
        assert_eq!(s.saved.capacity(), 0);
    }

    #[test]
    fn hits_are_clipped_by_token_counts() {
        // Two reference lines both match the single candidate "a": only one hit.
        let mut s = SummaryLcsScratch::default();
        let c = s.counts(&[&[7]], &[&[7], &[7]]);
        assert_eq!((c.hit, c.hyp_total, c.ref_total), (1.0, 1.0, 2.0));
    }
}
