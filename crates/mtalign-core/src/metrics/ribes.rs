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
use rustc_hash::FxHashMap;

/// RIBES's configuration: the exponents of unigram precision (`alpha`) and of the brevity
/// penalty (`beta`); nltk's defaults are 0.25 and 0.10.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RibesConfig {
    /// The exponent of unigram precision.
    pub alpha: f64,
    /// The exponent of the brevity penalty.
    pub beta: f64,
}

impl RibesConfig {
    /// A checked configuration (both exponents finite and >= 0).
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

/// nltk's `word_rank_alignment(reference, hypothesis)`, in O((R + 1)·(n + m)) time and
/// O(n + m) memory for R rounds (the longest context needed).
///
/// nltk grows a context n-gram around each hypothesis word until one occurs exactly once in
/// both sentences, counting occurrences by scanning (O(n·m) per word and window). Here all
/// words advance together, one n-gram length per round: round L gives every n-gram of length
/// L of both sentences an exact id (the pair (id of its first L − 1 tokens, last token),
/// numbered through one hash map), counts each id in both sentences (up to 2) and notes its
/// first position in the reference. A word's right context of window w is the n-gram of
/// length w + 1 starting at it, its left context the one starting w earlier; each word takes
/// the first window, right before left, as nltk does.
pub fn word_rank_alignment(reference: &[u32], hypothesis: &[u32]) -> Vec<usize> {
    let (m, n) = (reference.len(), hypothesis.len());
    // Round 1: dense ids of the tokens of both sentences.
    let mut ids: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let number = |key: (u32, u32), ids: &mut FxHashMap<(u32, u32), u32>| -> u32 {
        let next = ids.len() as u32;
        *ids.entry(key).or_insert(next)
    };
    let mut ref_ids: Vec<u32> = reference
        .iter()
        .map(|&t| number((t, 0), &mut ids))
        .collect();
    let mut hyp_ids: Vec<u32> = hypothesis
        .iter()
        .map(|&t| number((t, 0), &mut ids))
        .collect();
    let mut stats = NgramStats::default();
    stats.count(&ref_ids, &hyp_ids, ids.len());
    // Per hypothesis position: its alignment, or the window bound while still open.
    const SKIP: usize = usize::MAX;
    let mut found = vec![SKIP; n];
    let mut open: Vec<(usize, usize)> = Vec::new(); // (position, max_window)
    for i in 0..n {
        let id = hyp_ids[i] as usize;
        match stats.in_ref[id] {
            0 => {}
            1 if stats.in_hyp[id] == 1 => found[i] = stats.first_ref[id] as usize,
            _ => {
                let max_window = i.max(n - i + 1).min(m);
                if max_window > 1 {
                    open.push((i, max_window));
                }
            }
        }
    }
    let mut window = 1;
    while !open.is_empty() {
        // n-grams of length window + 1 = (n-grams of length window) + the next token.
        let len = window + 1;
        ids.clear();
        let extend = |seq_ids: &mut Vec<u32>, tokens: &[u32], ids: &mut FxHashMap<_, _>| {
            let count = (tokens.len() + 1).saturating_sub(len);
            for p in 0..count {
                seq_ids[p] = number((seq_ids[p], tokens[p + len - 1]), ids);
            }
            seq_ids.truncate(count);
        };
        extend(&mut ref_ids, reference, &mut ids);
        extend(&mut hyp_ids, hypothesis, &mut ids);
        if ref_ids.is_empty() {
            break; // no n-gram this long in the reference: nothing can match any more
        }
        stats.count(&ref_ids, &hyp_ids, ids.len());
        let unique = |id: u32| stats.in_ref[id as usize] == 1 && stats.in_hyp[id as usize] == 1;
        let in_ref = |id: u32| stats.in_ref[id as usize] > 0;
        open.retain(|&(i, max_window)| {
            let (right, left) = (i + window < n, window <= i);
            if right && unique(hyp_ids[i]) {
                found[i] = stats.first_ref[hyp_ids[i] as usize] as usize;
                return false;
            }
            if left && unique(hyp_ids[i - window]) {
                found[i] = stats.first_ref[hyp_ids[i - window] as usize] as usize + window;
                return false;
            }
            // A context absent from the reference stays absent as it grows (and a side out
            // of range stays out): a word with neither side left can never align.
            let alive = (right && in_ref(hyp_ids[i])) || (left && in_ref(hyp_ids[i - window]));
            alive && window + 1 < max_window
        });
        window += 1;
    }
    found.into_iter().filter(|&p| p != SKIP).collect()
}

/// Per n-gram id of one round: occurrences in the reference and the hypothesis (capped at 2),
/// first position in the reference.
#[derive(Default)]
struct NgramStats {
    in_ref: Vec<u8>,
    in_hyp: Vec<u8>,
    first_ref: Vec<u32>,
}

impl NgramStats {
    fn count(&mut self, ref_ids: &[u32], hyp_ids: &[u32], k: usize) {
        for v in [&mut self.in_ref, &mut self.in_hyp] {
            v.clear();
            v.resize(k, 0);
        }
        self.first_ref.clear();
        self.first_ref.resize(k, 0);
        for (p, &id) in ref_ids.iter().enumerate() {
            let c = &mut self.in_ref[id as usize];
            if *c == 0 {
                self.first_ref[id as usize] = p as u32;
            }
            *c = (*c + 1).min(2);
        }
        for &id in hyp_ids {
            let c = &mut self.in_hyp[id as usize];
            *c = (*c + 1).min(2);
        }
    }
}

/// Kendall's τ normalised to [0, 1]: the share of increasing pairs (0 for fewer than 2).
/// Increasing pairs are counted with a Fenwick tree over the values, O(n log n).
pub fn kendall_tau(worder: &[usize]) -> f64 {
    let n = worder.len();
    if n < 2 {
        return 0.0;
    }
    // Values to ranks 1..=k (equal values share a rank; equal is not increasing).
    let mut sorted: Vec<usize> = worder.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut tree = vec![0u64; sorted.len() + 1];
    let mut increasing = 0u64;
    for &v in worder {
        let rank = sorted.partition_point(|&x| x < v); // values below v: ranks 1..=rank
        let mut k = rank;
        while k > 0 {
            increasing += tree[k];
            k &= k - 1;
        }
        let mut k = rank + 1;
        while k < tree.len() {
            tree[k] += 1;
            k += k & k.wrapping_neg();
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
    const PAIR_LOCAL_IDS: bool = true;

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
    use proptest::prelude::*;

    // The original scans, as nltk writes them: the oracles.
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
    fn word_rank_alignment_scan(reference: &[u32], hypothesis: &[u32]) -> Vec<usize> {
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
    fn kendall_tau_pairs(worder: &[usize]) -> f64 {
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

    proptest! {
        #[test]
        fn alignment_equals_the_scans(
            r in prop::collection::vec(0u32..6, 0..80),
            h in prop::collection::vec(0u32..6, 0..80),
        ) {
            let w = word_rank_alignment(&r, &h);
            prop_assert_eq!(&w, &word_rank_alignment_scan(&r, &h));
            prop_assert_eq!(kendall_tau(&w).to_bits(), kendall_tau_pairs(&w).to_bits());
        }

        #[test]
        fn alignment_on_repetitive_text_equals_the_scans(
            unit in prop::collection::vec(0u32..5, 1..6),
            reps in 1usize..30,
            noise in prop::collection::vec((0usize..200, 0u32..40), 0..10),
        ) {
            let r: Vec<u32> = unit.iter().copied().cycle().take(unit.len() * reps).collect();
            let mut h = r.clone();
            h.reverse();
            for (at, t) in noise {
                let k = at % h.len();
                h[k] = t;
            }
            prop_assert_eq!(word_rank_alignment(&r, &h), word_rank_alignment_scan(&r, &h));
        }

        #[test]
        fn kendall_tau_equals_pair_counting(w in prop::collection::vec(0usize..30, 0..200)) {
            prop_assert_eq!(kendall_tau(&w).to_bits(), kendall_tau_pairs(&w).to_bits());
        }
    }

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

/// RIBES's contract: options and its one column.
mod native {
    use super::RibesConfig;
    use crate::metrics::contract::{Configured, Contract};
    use crate::options::{
        DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_NO, TOKENIZE_13A,
    };
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::Tokenizer;
    use crate::Result;

    impl Contract for RibesConfig {
        const NAME: &'static str = "ribes";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "alpha",
                Kind::Float,
                D::Float(0.25),
                "the exponent of unigram precision (>= 0)",
            ),
            OptionSpec::new(
                "beta",
                Kind::Float,
                D::Float(0.10),
                "the exponent of the brevity penalty (>= 0)",
            ),
            TOKENIZE_13A,
            LOWERCASE_NO,
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = RibesConfig::new(o.f64("alpha"), o.f64("beta"))?;
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            Vec::new()
        }

        fn columns(&self) -> Vec<String> {
            vec!["ribes".into()]
        }
    }
}
