//! Summary-level LCS (`rougeLsum`) as rouge-score 0.1.2 defines it (Lin 2004, section 3.2,
//! with ROUGE-1.5.5's guard against double counting).
//!
//! Reference and candidate are lists of lines. For each reference line r, the union of the
//! reference positions of one LCS of r with each candidate line is taken (rouge-score's
//! traceback: diagonal on a match, otherwise left only when the left cell is strictly larger);
//! each token of that union is a hit while both sides still have an unused occurrence of it
//! (counts over the whole texts). R = hits / m, P = hits / n with m, n the total token counts.

use crate::kernels::counts::Counts;

#[derive(Debug, Default)]
pub struct SummaryLcsScratch {
    table: Vec<u32>,
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

    #[test]
    fn hits_are_clipped_by_token_counts() {
        // Two reference lines both match the single candidate "a": only one hit.
        let mut s = SummaryLcsScratch::default();
        let c = s.counts(&[&[7]], &[&[7], &[7]]);
        assert_eq!((c.hit, c.hyp_total, c.ref_total), (1.0, 1.0, 2.0));
    }
}
