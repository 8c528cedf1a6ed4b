//! Skip-bigram co-occurrence (ROUGE-S, ROUGE-SU; Lin & Och 2004, section 4).
//!
//! A skip-bigram is an ordered pair (t_i, t_j), i < j, with at most `max_gap` tokens between
//! them (j − i − 1 ≤ max_gap; `None` = any distance, so `Some(0)` is plain bigrams). Matches
//! are clipped counts; the totals are the numbers of within-distance skip-bigrams of each
//! side. With `unigrams` (ROUGE-SU) every token also counts as a unit. Each pair packs into
//! an exact `u64` key; the hypothesis keys are sorted once and reused for every reference.

use crate::counts::{clipped_intersection, Counts};

#[derive(Debug, Default)]
pub struct SkipBigramScratch {
    max_gap: Option<usize>,
    unigrams: bool,
    hyp_pairs: Vec<u64>,
    hyp_unigrams: Vec<u32>,
    ref_pairs: Vec<u64>,
    ref_unigrams: Vec<u32>,
}

fn collect_pairs(tokens: &[u32], max_gap: Option<usize>, out: &mut Vec<u64>) {
    out.clear();
    for (i, &a) in tokens.iter().enumerate() {
        let end = match max_gap {
            Some(d) => (i + d + 2).min(tokens.len()),
            None => tokens.len(),
        };
        let hi = (a as u64) << 32;
        out.extend(tokens[i + 1..end].iter().map(|&b| hi | b as u64));
    }
    out.sort_unstable();
}

fn collect_unigrams(tokens: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.extend_from_slice(tokens);
    out.sort_unstable();
}

impl SkipBigramScratch {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn prepare(&mut self, hyp: &[u32], max_gap: Option<usize>, unigrams: bool) {
        self.max_gap = max_gap;
        self.unigrams = unigrams;
        collect_pairs(hyp, max_gap, &mut self.hyp_pairs);
        if unigrams {
            collect_unigrams(hyp, &mut self.hyp_unigrams);
        }
    }

    /// Counts of the prepared hypothesis against `reference`.
    pub fn overlap(&mut self, reference: &[u32]) -> Counts {
        collect_pairs(reference, self.max_gap, &mut self.ref_pairs);
        let mut hit = clipped_intersection(&self.hyp_pairs, &self.ref_pairs);
        let mut hyp_total = self.hyp_pairs.len();
        let mut ref_total = self.ref_pairs.len();
        if self.unigrams {
            collect_unigrams(reference, &mut self.ref_unigrams);
            hit += clipped_intersection(&self.hyp_unigrams, &self.ref_unigrams);
            hyp_total += self.hyp_unigrams.len();
            ref_total += reference.len();
        }
        Counts::new(hit as f64, hyp_total as f64, ref_total as f64)
    }
}

/// Number of within-distance skip-bigrams of a sentence of `len` tokens:
/// Σ_i min(d + 1, len − 1 − i), or C(len, 2) without a limit.
pub fn skip_bigram_count(len: usize, max_gap: Option<usize>) -> usize {
    match max_gap {
        None => len * len.saturating_sub(1) / 2,
        Some(d) => (0..len).map(|i| (d + 1).min(len - 1 - i)).sum(),
    }
}

/// Skip-bigram counts of one pair (convenience).
pub fn skip_bigram_overlap(
    hyp: &[u32],
    reference: &[u32],
    max_gap: Option<usize>,
    unigrams: bool,
) -> Counts {
    let mut s = SkipBigramScratch::new();
    s.prepare(hyp, max_gap, unigrams);
    s.overlap(reference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ngram::ngram_overlap;

    // S1 police killed the gunman; S2 police kill the gunman; S3 the gunman kill police;
    // S4 the gunman police killed.
    const S1: [u32; 4] = [0, 1, 2, 3];
    const S2: [u32; 4] = [0, 4, 2, 3];
    const S3: [u32; 4] = [2, 3, 4, 0];
    const S4: [u32; 4] = [2, 3, 0, 1];

    #[test]
    fn paper_examples() {
        assert_eq!(
            skip_bigram_overlap(&S2, &S1, None, false),
            Counts::new(3.0, 6.0, 6.0)
        );
        assert_eq!(skip_bigram_overlap(&S3, &S1, None, false).hit, 1.0);
        assert_eq!(skip_bigram_overlap(&S4, &S1, None, false).hit, 2.0);
        // SU* of S2: (3 + 3) / (6 + 4)
        assert_eq!(
            skip_bigram_overlap(&S2, &S1, None, true),
            Counts::new(6.0, 10.0, 10.0)
        );
    }

    #[test]
    fn gap_zero_is_bigrams() {
        let a = [1, 2, 1, 2, 3, 1];
        let b = [2, 1, 2, 3, 3, 1, 2];
        assert_eq!(
            skip_bigram_overlap(&a, &b, Some(0), false),
            ngram_overlap(&a, &b, 2)
        );
    }

    #[test]
    fn counts_of_pairs() {
        for len in 0..20 {
            for d in [Some(0), Some(1), Some(4), None] {
                let toks: Vec<u32> = (0..len as u32).collect();
                let c = skip_bigram_overlap(&toks, &toks, d, false);
                assert_eq!(c.hyp_total as usize, skip_bigram_count(len, d));
                assert_eq!(c.hit, c.hyp_total);
            }
        }
        assert_eq!(skip_bigram_count(4, Some(4)), 6);
        assert_eq!(skip_bigram_count(10, Some(1)), 9 + 8);
    }
}
