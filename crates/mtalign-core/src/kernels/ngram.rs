//! Clipped n-gram overlap (ROUGE-N): hit = Σ_g min(count_hyp(g), count_ref(g)).
//!
//! n-grams are compared exactly: for n ≤ 2 each n-gram packs into a `u64` key; longer ones
//! are sorted by their token slices. The hypothesis side is prepared once and reused for
//! each of its references; buffers live in the scratch, so nothing is allocated per pair.

use crate::kernels::counts::{clipped_intersection, clipped_intersection_by, Counts};

/// Reusable buffers for clipped n-gram overlap: the prepared hypothesis's n-gram keys and
/// the current reference's (see the module docs).
#[derive(Debug, Default)]
pub struct NgramScratch {
    n: usize,
    hyp_keys: Vec<u64>,
    ref_keys: Vec<u64>,
    hyp_pos: Vec<u32>,
    ref_pos: Vec<u32>,
}

fn count_of(len: usize, n: usize) -> usize {
    (len + 1).saturating_sub(n)
}

fn pack(tokens: &[u32], n: usize, out: &mut Vec<u64>) {
    out.clear();
    if n == 1 {
        out.extend(tokens.iter().map(|&t| t as u64));
    } else {
        out.extend(
            tokens
                .windows(2)
                .map(|w| ((w[0] as u64) << 32) | w[1] as u64),
        );
    }
    out.sort_unstable();
}

fn sorted_positions(tokens: &[u32], n: usize, out: &mut Vec<u32>) {
    out.clear();
    out.extend(0..count_of(tokens.len(), n) as u32);
    out.sort_unstable_by(|&a, &b| {
        tokens[a as usize..a as usize + n].cmp(&tokens[b as usize..b as usize + n])
    });
}

impl NgramScratch {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Prepares the hypothesis side for order `n` (n ≥ 1).
    pub fn prepare(&mut self, hyp: &[u32], n: usize) {
        assert!(n >= 1, "n-gram order must be at least 1");
        self.n = n;
        if n <= 2 {
            pack(hyp, n, &mut self.hyp_keys);
        } else {
            sorted_positions(hyp, n, &mut self.hyp_pos);
        }
    }

    /// Counts of the prepared hypothesis (`hyp` must be the same slice) against `reference`.
    pub fn overlap(&mut self, hyp: &[u32], reference: &[u32]) -> Counts {
        let n = self.n;
        let hyp_total = count_of(hyp.len(), n);
        let ref_total = count_of(reference.len(), n);
        let hit = if hyp_total == 0 || ref_total == 0 {
            0
        } else if n <= 2 {
            pack(reference, n, &mut self.ref_keys);
            clipped_intersection(&self.hyp_keys, &self.ref_keys)
        } else {
            sorted_positions(reference, n, &mut self.ref_pos);
            let (hp, rp) = (&self.hyp_pos, &self.ref_pos);
            clipped_intersection_by(hp.len(), rp.len(), |i, j| {
                let (a, b) = (hp[i] as usize, rp[j] as usize);
                hyp[a..a + n].cmp(&reference[b..b + n])
            })
        };
        Counts::new(hit as f64, hyp_total as f64, ref_total as f64)
    }
}

/// Clipped n-gram overlap of one pair (convenience).
///
/// ```
/// use mtalign_core::kernels::ngram::ngram_overlap;
/// // Bigrams: (1 2) twice in the hypothesis but once in the reference, so it counts once.
/// let c = ngram_overlap(&[1, 2, 1, 2], &[1, 2, 3], 2);
/// assert_eq!((c.hit, c.hyp_total, c.ref_total), (1.0, 3.0, 2.0));
/// ```
pub fn ngram_overlap(hyp: &[u32], reference: &[u32], n: usize) -> Counts {
    let mut s = NgramScratch::new();
    s.prepare(hyp, n);
    s.overlap(hyp, reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_unigrams_and_bigrams() {
        // hyp: the the the cat ; ref: the cat sat on the mat
        let hyp = [0, 0, 0, 1];
        let r = [0, 1, 2, 3, 0, 4];
        assert_eq!(ngram_overlap(&hyp, &r, 1), Counts::new(3.0, 4.0, 6.0));
        assert_eq!(ngram_overlap(&hyp, &r, 2), Counts::new(1.0, 3.0, 5.0));
        assert_eq!(ngram_overlap(&hyp, &r, 3), Counts::new(0.0, 2.0, 4.0));
        assert_eq!(ngram_overlap(&[0], &r, 2), Counts::new(0.0, 0.0, 5.0));
    }

    #[test]
    fn long_orders_compare_slices() {
        let a = [1, 2, 3, 1, 2, 3, 1, 2, 3];
        let b = [3, 1, 2, 3, 1, 2, 3];
        // trigrams of a: 123,231,312,123,231,312,123 ; of b: 312,123,231,312,123
        assert_eq!(ngram_overlap(&a, &b, 3).hit, 5.0);
        assert_eq!(ngram_overlap(&a, &b, 7).hit, 1.0);
    }
}
