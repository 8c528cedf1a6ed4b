//! Skip-bigram co-occurrence (ROUGE-S, ROUGE-SU; Lin & Och 2004, section 4).
//!
//! A skip-bigram is an ordered pair (t_i, t_j), i < j, with at most `max_gap` tokens between
//! them (j − i − 1 ≤ max_gap; `None` = any distance, so `Some(0)` is plain bigrams). Matches
//! are clipped counts; the totals are the numbers of within-distance skip-bigrams of each
//! side. With `unigrams` (ROUGE-SU) every token also counts as a unit.
//!
//! Only tokens present on both sides can match, so each comparison first numbers the common
//! types 0..k and counts skip-bigrams of common tokens in a dense k×k table (no hashing, no
//! sorting; the table is reset by undoing the hypothesis's increments). When k is large the
//! exact fallback packs each pair into a `u64` key and intersects sorted key lists.

use crate::kernels::counts::{clipped_intersection, Counts};

/// Beyond this many common types the dense table would be too large: sort-merge instead.
const MAX_DENSE_TYPES: usize = 512;
const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct SkipBigramScratch {
    max_gap: Option<usize>,
    unigrams: bool,
    hyp: Vec<u32>,
    /// `stamp[id] == generation` marks the types of the current reference.
    stamp: Vec<u32>,
    generation: u32,
    /// `local[id]` = dense number of a common type (valid where stamped).
    local: Vec<u32>,
    hyp_local: Vec<u32>,
    ref_local: Vec<u32>,
    pair_counts: Vec<u32>,
    unigram_counts: Vec<u32>,
    hyp_pairs: Vec<u64>,
    hyp_unigrams: Vec<u32>,
    ref_pairs: Vec<u64>,
    ref_unigrams: Vec<u32>,
}

/// Calls `f(a, b)` for every within-distance pair of common tokens (`NONE` = not common).
#[inline]
fn for_each_pair(local: &[u32], max_gap: Option<usize>, mut f: impl FnMut(u32, u32)) {
    let n = local.len();
    for (i, &a) in local.iter().enumerate() {
        if a == NONE {
            continue;
        }
        let end = match max_gap {
            Some(d) => (i + d + 2).min(n),
            None => n,
        };
        for &b in &local[i + 1..end] {
            if b != NONE {
                f(a, b);
            }
        }
    }
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
        self.hyp.clear();
        self.hyp.extend_from_slice(hyp);
        // The sorted keys are built only if a comparison needs the fallback.
        self.hyp_pairs.clear();
        self.hyp_unigrams.clear();
    }

    /// Counts of the prepared hypothesis against `reference`.
    pub fn overlap(&mut self, reference: &[u32]) -> Counts {
        let units =
            |len: usize| skip_bigram_count(len, self.max_gap) + if self.unigrams { len } else { 0 };
        let (hyp_total, ref_total) = (units(self.hyp.len()), units(reference.len()));
        let common = self.number_common_types(reference);
        let hit = if common == 0 {
            0
        } else if common <= MAX_DENSE_TYPES {
            self.dense_hits(common)
        } else {
            self.sorted_hits(reference)
        };
        Counts::new(hit as f64, hyp_total as f64, ref_total as f64)
    }

    /// Numbers the types shared by the hypothesis and `reference` 0..k; fills `hyp_local`
    /// and `ref_local` (`NONE` where a token is not shared) and returns k.
    fn number_common_types(&mut self, reference: &[u32]) -> usize {
        let max_id = self.hyp.iter().chain(reference).copied().max().unwrap_or(0) as usize;
        if self.stamp.len() <= max_id {
            self.stamp.resize(max_id + 1, 0);
            self.local.resize(max_id + 1, NONE);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        for &t in reference {
            self.stamp[t as usize] = g;
            self.local[t as usize] = NONE;
        }
        let mut k = 0u32;
        self.hyp_local.clear();
        for &t in &self.hyp {
            let t = t as usize;
            if self.stamp[t] != g {
                self.hyp_local.push(NONE);
                continue;
            }
            if self.local[t] == NONE {
                self.local[t] = k;
                k += 1;
            }
            self.hyp_local.push(self.local[t]);
        }
        self.ref_local.clear();
        self.ref_local
            .extend(reference.iter().map(|&t| self.local[t as usize]));
        k as usize
    }

    fn dense_hits(&mut self, k: usize) -> usize {
        if self.pair_counts.len() < k * k {
            self.pair_counts.resize(k * k, 0);
        }
        let counts = &mut self.pair_counts;
        let key = |a: u32, b: u32| a as usize * k + b as usize;
        for_each_pair(&self.hyp_local, self.max_gap, |a, b| counts[key(a, b)] += 1);
        let mut hit = 0;
        for_each_pair(&self.ref_local, self.max_gap, |a, b| {
            let c = &mut counts[key(a, b)];
            if *c > 0 {
                *c -= 1;
                hit += 1;
            }
        });
        // Leave the table all zero for the next comparison.
        for_each_pair(&self.hyp_local, self.max_gap, |a, b| counts[key(a, b)] = 0);
        if self.unigrams {
            if self.unigram_counts.len() < k {
                self.unigram_counts.resize(k, 0);
            }
            let uni = &mut self.unigram_counts;
            for &a in self.hyp_local.iter().filter(|&&a| a != NONE) {
                uni[a as usize] += 1;
            }
            for &b in self.ref_local.iter().filter(|&&b| b != NONE) {
                if uni[b as usize] > 0 {
                    uni[b as usize] -= 1;
                    hit += 1;
                }
            }
            for &a in self.hyp_local.iter().filter(|&&a| a != NONE) {
                uni[a as usize] = 0;
            }
        }
        hit
    }

    /// Exact fallback for sentences with very many shared types: sorted `u64` keys.
    fn sorted_hits(&mut self, reference: &[u32]) -> usize {
        if self.hyp_pairs.is_empty() {
            collect_pairs(&self.hyp, self.max_gap, &mut self.hyp_pairs);
            if self.unigrams {
                collect_unigrams(&self.hyp, &mut self.hyp_unigrams);
            }
        }
        collect_pairs(reference, self.max_gap, &mut self.ref_pairs);
        let mut hit = clipped_intersection(&self.hyp_pairs, &self.ref_pairs);
        if self.unigrams {
            collect_unigrams(reference, &mut self.ref_unigrams);
            hit += clipped_intersection(&self.hyp_unigrams, &self.ref_unigrams);
        }
        hit
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
    use crate::kernels::ngram::ngram_overlap;

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
    fn dense_and_sorted_paths_agree() {
        // 600 shared types force the sorted fallback; compare with a small-alphabet twin
        // relabelled so that it takes the dense path.
        let a: Vec<u32> = (0..1500u32).map(|i| (i * 7919) % 600).collect();
        let b: Vec<u32> = (0..1400u32).map(|i| (i * 104_729) % 600).collect();
        for (gap, uni) in [(Some(0), false), (Some(4), true), (None, true)] {
            let big = skip_bigram_overlap(&a, &b, gap, uni);
            let mut s = SkipBigramScratch::new();
            s.prepare(&a, gap, uni);
            let common = s.number_common_types(&b);
            assert!(common > MAX_DENSE_TYPES);
            let dense_hits = s.dense_hits(common);
            assert_eq!(big.hit as usize, dense_hits);
        }
    }

    #[test]
    fn scratch_reuse_keeps_tables_clean() {
        let mut s = SkipBigramScratch::new();
        s.prepare(&[1, 2, 1, 2], Some(1), true);
        let first = s.overlap(&[1, 2, 2]);
        s.prepare(&[5, 6], None, false);
        assert_eq!(s.overlap(&[6, 5]).hit, 0.0);
        s.prepare(&[1, 2, 1, 2], Some(1), true);
        assert_eq!(s.overlap(&[1, 2, 2]), first);
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
