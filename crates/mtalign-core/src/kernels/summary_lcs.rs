//! Summary-level LCS (`rougeLsum`) as rouge-score 0.1.2 defines it (Lin 2004, section 3.2,
//! with ROUGE-1.5.5's guard against double counting).
//!
//! Reference and candidate are lists of lines. For each reference line r, the union of the
//! reference positions of one LCS of r with each candidate line is taken (rouge-score's
//! traceback: diagonal on a match, otherwise left only when the left cell is strictly larger);
//! each token of that union is a hit while both sides still have an unused occurrence of it
//! (counts over the whole texts). R = hits / m, P = hits / n with m, n the total token counts.

use crate::kernels::counts::Counts;

use crate::kernels::lcs_long::LongLcs;

/// Reusable buffers for summary-level LCS (`rougeLsum`): the per-line LCS rows and the
/// unused-occurrence counts (see the module docs).
#[derive(Debug, Default)]
pub struct SummaryLcsScratch {
    /// Bit-parallel LCS rows and rouge-score's traceback from them (`lcs_long.rs`).
    lcs: LongLcs,
    /// Union marks of every reference token, reference lines end to end.
    union: Vec<bool>,
    /// The whole table of a tiny pair.
    table: Vec<u32>,
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
        // The union of each reference line is an OR over candidate lines, so each candidate
        // line's masks are prepared once and met by every reference line.
        self.union.clear();
        self.union.resize(m, false);
        if let ([c], [r]) = (cand, refs) {
            if r.len() * c.len() <= TINY_TABLE {
                // One short line a side (a sentence): the plain table is cheaper than masks.
                mark_tiny(r, c, &mut self.table, &mut self.union);
                return self.hits(refs, n, m);
            }
        }
        for c in cand {
            self.lcs.prepare(c);
            let mut at = 0;
            for r in refs {
                self.lcs.mark_union(r, &mut self.union[at..at + r.len()]);
                at += r.len();
            }
        }
        self.hits(refs, n, m)
    }

    /// The hits of the marked union, clipped by the token counts; resets the counts.
    fn hits(&mut self, refs: &[&[u32]], n: usize, m: usize) -> Counts {
        let mut hits = 0usize;
        for (&t, &hit) in refs.iter().flat_map(|r| r.iter()).zip(&self.union) {
            let t = t as usize;
            if hit && self.left_c[t] > 0 && self.left_r[t] > 0 {
                hits += 1;
                self.left_c[t] -= 1;
                self.left_r[t] -= 1;
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

/// One-line pairs of at most this many cells take the plain table.
const TINY_TABLE: usize = 1 << 10;

/// rouge-score's traceback over the whole table of `r` (rows) and `c`, into `union` (also
/// the tests' oracle for the bit-parallel alignments).
pub(crate) fn mark_tiny(r: &[u32], c: &[u32], table: &mut Vec<u32>, union: &mut [bool]) {
    let w = c.len() + 1;
    table.clear();
    table.resize((r.len() + 1) * w, 0);
    for i in 1..=r.len() {
        for j in 1..=c.len() {
            table[i * w + j] = if r[i - 1] == c[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (r.len(), c.len());
    while i > 0 && j > 0 {
        if r[i - 1] == c[j - 1] {
            union[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if table[i * w + j - 1] > table[(i - 1) * w + j] {
            j -= 1;
        } else {
            i -= 1;
        }
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

    /// The counts as rouge-score computes them: per reference line, one whole LCS table per
    /// candidate line and its traceback (the oracle).
    fn counts_dp(cand: &[&[u32]], refs: &[&[u32]]) -> (usize, usize, usize) {
        let n: usize = cand.iter().map(|l| l.len()).sum();
        let m: usize = refs.iter().map(|l| l.len()).sum();
        let mut left_c = std::collections::HashMap::new();
        let mut left_r = std::collections::HashMap::new();
        for &t in cand.iter().flat_map(|l| l.iter()) {
            *left_c.entry(t).or_insert(0) += 1;
        }
        for &t in refs.iter().flat_map(|l| l.iter()) {
            *left_r.entry(t).or_insert(0) += 1;
        }
        let mut hits = 0;
        for r in refs {
            let mut union = vec![false; r.len()];
            let mut table = Vec::new();
            for c in cand {
                mark_tiny(r, c, &mut table, &mut union);
            }
            for (k, t) in r.iter().enumerate() {
                let (c, rr) = (left_c.entry(*t).or_insert(0), left_r.get_mut(t).unwrap());
                if union[k] && *c > 0 && *rr > 0 {
                    hits += 1;
                    *c -= 1;
                    *rr -= 1;
                }
            }
        }
        (hits, n, m)
    }

    proptest::proptest! {
        #[test]
        fn bit_parallel_union_equals_the_tables(
            cand in proptest::collection::vec(proptest::collection::vec(0u32..6, 0..40), 0..5),
            refs in proptest::collection::vec(proptest::collection::vec(0u32..6, 0..40), 0..5),
        ) {
            let cand: Vec<&[u32]> = cand.iter().map(|l| l.as_slice()).collect();
            let refs: Vec<&[u32]> = refs.iter().map(|l| l.as_slice()).collect();
            let got = SummaryLcsScratch::default().counts(&cand, &refs);
            let (h, n, m) = counts_dp(&cand, &refs);
            proptest::prop_assert_eq!(
                (got.hit, got.hyp_total, got.ref_total),
                (h as f64, n as f64, m as f64)
            );
        }
    }

    #[test]
    fn long_lines_equal_the_tables() {
        let r: Vec<u32> = (0..3000u32).map(|i| (i * 7) % 13).collect();
        let c: Vec<u32> = (0..2500u32).map(|i| (i * 5) % 11).collect();
        let got = SummaryLcsScratch::default().counts(&[&c, &r[..100]], &[&r, &c[7..900]]);
        let (h, _, _) = counts_dp(&[&c, &r[..100]], &[&r, &c[7..900]]);
        assert_eq!(got.hit, h as f64);
    }

    #[test]
    fn hits_are_clipped_by_token_counts() {
        // Two reference lines both match the single candidate "a": only one hit.
        let mut s = SummaryLcsScratch::default();
        let c = s.counts(&[&[7]], &[&[7], &[7]]);
        assert_eq!((c.hit, c.hyp_total, c.ref_total), (1.0, 1.0, 2.0));
    }
}
