//! RIBES (Isozaki et al. 2010) as nltk's `sentence_ribes` computes it: Kendall's τ over the
//! word-rank alignment (normalised to [0, 1]) × unigram precision^α × brevity penalty^β,
//! the best over references.
//!
//! The alignment follows nltk's `word_rank_alignment`: a hypothesis word found once in both
//! sentences aligns directly; otherwise the shortest context n-gram (to the right first,
//! then to the left, growing one word at a time) occurring exactly once in both places it.

use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RibesConfig {
    pub alpha: f64,
    pub beta: f64,
}

impl RibesConfig {
    pub fn new(alpha: f64, beta: f64) -> Result<Self> {
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::Config(format!(
                    "{name} must be a finite number >= 0 (got {v})"
                )));
            }
        }
        Ok(Self { alpha, beta })
    }
}

/// Occurrences of `pattern` in `seq`, counting at most to 2 (only "exactly once" matters).
fn count_upto2(seq: &[u32], pattern: &[u32]) -> usize {
    if pattern.len() > seq.len() {
        return 0;
    }
    let mut n = 0;
    for w in seq.windows(pattern.len()) {
        if w == pattern {
            n += 1;
            if n == 2 {
                break;
            }
        }
    }
    n
}

fn position(seq: &[u32], pattern: &[u32]) -> usize {
    seq.windows(pattern.len())
        .position(|w| w == pattern)
        .unwrap_or(0)
}

/// nltk's `word_rank_alignment(reference, hypothesis)`.
pub fn word_rank_alignment(reference: &[u32], hypothesis: &[u32]) -> Vec<usize> {
    let mut worder = Vec::new();
    let hyp_len = hypothesis.len();
    for (i, &w) in hypothesis.iter().enumerate() {
        let in_ref = count_upto2(reference, &[w]);
        if in_ref == 0 {
            continue;
        }
        if in_ref == 1 && count_upto2(hypothesis, &[w]) == 1 {
            worder.push(position(reference, &[w]));
            continue;
        }
        let max_window = i.max(hyp_len - i + 1).min(reference.len());
        for window in 1..max_window {
            if i + window < hyp_len {
                let right = &hypothesis[i..i + window + 1];
                if count_upto2(reference, right) == 1 && count_upto2(hypothesis, right) == 1 {
                    worder.push(position(reference, right));
                    break;
                }
            }
            if window <= i {
                let left = &hypothesis[i - window..i + 1];
                if count_upto2(reference, left) == 1 && count_upto2(hypothesis, left) == 1 {
                    worder.push(position(reference, left) + window);
                    break;
                }
            }
        }
    }
    worder
}

/// Kendall's τ normalised to [0, 1]: the share of increasing pairs (0 for fewer than 2).
pub fn kendall_tau(worder: &[usize]) -> f64 {
    let n = worder.len();
    if n < 2 {
        return 0.0;
    }
    let mut increasing = 0u64;
    for i in 0..n {
        for j in i + 1..n {
            increasing += u64::from(worder[i] < worder[j]);
        }
    }
    let pairs = (n * (n - 1) / 2) as f64;
    let tau = 2.0 * increasing as f64 / pairs - 1.0;
    (tau + 1.0) / 2.0
}

/// RIBES of `hyp` against its best reference.
pub fn sentence_ribes<'a>(
    cfg: &RibesConfig,
    hyp: &[u32],
    refs: impl Iterator<Item = &'a [u32]>,
) -> f64 {
    if hyp.is_empty() {
        return 0.0;
    }
    let mut best = -1.0;
    for r in refs {
        let worder = word_rank_alignment(r, hyp);
        let nkt = kendall_tau(&worder);
        let bp = f64::min(1.0, (1.0 - r.len() as f64 / hyp.len() as f64).exp());
        let p1 = worder.len() as f64 / hyp.len() as f64;
        let ribes = nkt * p1.powf(cfg.alpha) * bp.powf(cfg.beta);
        if ribes > best {
            best = ribes;
        }
    }
    best
}

/// RIBES as a metric: a one-column row, the best RIBES over the references.
impl Metric for RibesConfig {
    type Scratch = ();
    type Context = ();

    fn width(&self) -> usize {
        1
    }

    fn pair_statistics(&self, _: &(), _: &mut (), pair: Pair<'_>, row: &mut [f64]) {
        row[0] = sentence_ribes(self, pair.hyp(), pair.refs());
    }
}

/// RIBES of every hypothesis.
pub fn score_batch(
    cfg: &RibesConfig,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_of_sentences(cfg, sentences, hyps, ref_sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_examples_from_nltk_docs() {
        // (H1, R1): "Bob hit John yesterday" vs "John hit Bob yesterday" -> [2, 1, 0, 3]
        let (john, hit, bob, yesterday) = (0, 1, 2, 3);
        let w = word_rank_alignment(&[john, hit, bob, yesterday], &[bob, hit, john, yesterday]);
        assert_eq!(w, [2, 1, 0, 3]);
        assert_eq!(kendall_tau(&w), 0.5);
        assert_eq!(
            kendall_tau(&[7, 8, 9, 10, 6, 0, 1, 2, 3, 4, 5]),
            (2.0 * 21.0 / 55.0 - 1.0 + 1.0) / 2.0
        );
    }
}
