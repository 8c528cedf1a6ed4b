//! GTM, the General Text Matcher (Turian, Shen & Melamed 2003): precision and recall of the
//! maximum matching size (MMS) of a bitext grid, with longer aligned runs rewarded through an
//! exponent e.
//!
//! A *hit* is a cell (i, j) of the grid whose hypothesis word i equals reference word j. A
//! *matching* is a set of hits with at most one hit in each row and each column; its *runs*
//! are its maximal diagonal blocks of hits (i, j), (i+1, j+1), .... The size of a matching is
//! (Σ_runs |run|^e)^(1/e) and the MMS is the largest size of any matching. Then
//! P = MMS / |hyp|, R = MMS / |ref| and F = 2PR / (P + R).
//!
//! For e = 1 the size is the number of hits matched, and any maximal matching is maximum
//! (each word type's hits form a complete bipartite block). For e > 1 finding the MMS is hard,
//! and GTM approximates it greedily: here, the longest run of free hits (rows and columns
//! not yet used) is taken first, ties to the smallest hypothesis position, then the smallest
//! reference position, until no free hit remains (`docs/gtm.md` says why, and where this
//! differs from the exact MMS; the tests compare it with an exhaustive search).
//!
//! Statistics of a pair: [Σ_runs |run|^e, |hyp|, |ref|] for the reference with the best F
//! (the first on ties). The corpus grid is block-diagonal (a run never crosses a sentence
//! boundary), so corpus MMS = (Σ rows' weights)^(1/e), P and R over the summed lengths.

use crate::metrics::metric::{Metric, Pair};
use crate::metrics::sia::{max_identical_pairs, RAISE_LIMIT};
use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::collections::BinaryHeap;

/// The exponents GTM accepts: finite and at least 1 (below 1 a split run would be worth
/// more than the run, which is not what the measure rewards).
pub const MAX_EXPONENT: f64 = 64.0;

/// Hits one pair may have (Σ over word types of count in hyp × count in ref) before the pair
/// is refused by name: the greedy matcher keeps one entry per maximal diagonal of hits.
pub const MAX_HITS: u64 = 1 << 26;

/// GTM's configuration (Turian et al. 2003): the run-length exponent `e` of the maximum
/// matching size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GtmConfig {
    /// The exponent `e`: 1 counts matched words, larger values reward longer runs.
    pub exponent: f64,
    /// The time limit of a pair ([`Metric::check_pair`]): at most this many words in a text
    /// and [`max_identical_pairs`] hits with a reference. `None` (the default here; Python's
    /// `Gtm` sets 20,000): [`MAX_HITS`] only.
    pub max_words: Option<usize>,
}

impl GtmConfig {
    /// A checked configuration: `exponent` finite, in 1..=[`MAX_EXPONENT`].
    pub fn new(exponent: f64) -> Result<Self> {
        if !(exponent.is_finite() && (1.0..=MAX_EXPONENT).contains(&exponent)) {
            return Err(Error::Config(format!(
                "exponent must be a finite number from 1 to {MAX_EXPONENT} (got {exponent})"
            )));
        }
        Ok(Self {
            exponent,
            max_words: None,
        })
    }
}

/// A diagonal block of hits: `len` cells from (`hyp`, `reference`). Ordered so that the
/// heap's greatest is the longest, then the smallest hypothesis, then reference position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    len: u32,
    hyp: u32,
    reference: u32,
}

impl Ord for Block {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.len
            .cmp(&other.len)
            .then(other.hyp.cmp(&self.hyp))
            .then(other.reference.cmp(&self.reference))
    }
}

impl PartialOrd for Block {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    positions: FxHashMap<u32, Vec<u32>>,
    heap: BinaryHeap<Block>,
    hyp_used: Vec<bool>,
    ref_used: Vec<bool>,
    runs: Vec<u32>,
}

/// Number of hits of the grid (Σ over word types of count in hyp × count in ref).
pub fn hits(hyp: &[u32], reference: &[u32]) -> u64 {
    let mut counts: FxHashMap<u32, (u64, u64)> = FxHashMap::default();
    for &t in hyp {
        counts.entry(t).or_default().0 += 1;
    }
    for &t in reference {
        if let Some(c) = counts.get_mut(&t) {
            c.1 += 1;
        }
    }
    counts.values().map(|&(a, b)| a * b).sum()
}

/// The lengths of the runs the greedy matcher takes, in the order taken, into `s.runs`.
fn greedy_runs(s: &mut Scratch, hyp: &[u32], reference: &[u32]) {
    s.runs.clear();
    s.heap.clear();
    // The map keeps its lists between pairs (no allocation once warm); only the lists of
    // the previous reference's words are non-empty, and they were emptied after it.
    for (j, &t) in reference.iter().enumerate() {
        s.positions.entry(t).or_default().push(j as u32);
    }
    // Every maximal diagonal of hits, found from its first cell.
    for (i, &t) in hyp.iter().enumerate() {
        let Some(js) = s.positions.get(&t) else {
            continue;
        };
        for &j in js {
            let (iu, ju) = (i, j as usize);
            if iu > 0 && ju > 0 && hyp[iu - 1] == reference[ju - 1] {
                continue; // not the first cell of its diagonal
            }
            let mut len = 1;
            while iu + len < hyp.len() && ju + len < reference.len() {
                if hyp[iu + len] != reference[ju + len] {
                    break;
                }
                len += 1;
            }
            s.heap.push(Block {
                len: len as u32,
                hyp: i as u32,
                reference: j,
            });
        }
    }
    for &t in reference {
        if let Some(v) = s.positions.get_mut(&t) {
            v.clear();
        }
    }
    s.hyp_used.clear();
    s.hyp_used.resize(hyp.len(), false);
    s.ref_used.clear();
    s.ref_used.resize(reference.len(), false);
    // Lazy greedy: a block's free length only shrinks, so a popped block that is still
    // wholly free is the longest free block (ties by position, as the heap orders them);
    // one that is not gives back its free pieces.
    while let Some(b) = s.heap.pop() {
        let free =
            |k: u32| !s.hyp_used[(b.hyp + k) as usize] && !s.ref_used[(b.reference + k) as usize];
        if (0..b.len).all(free) {
            for k in 0..b.len {
                s.hyp_used[(b.hyp + k) as usize] = true;
                s.ref_used[(b.reference + k) as usize] = true;
            }
            s.runs.push(b.len);
            continue;
        }
        let mut k = 0;
        while k < b.len {
            if !free(k) {
                k += 1;
                continue;
            }
            let start = k;
            while k < b.len && free(k) {
                k += 1;
            }
            s.heap.push(Block {
                len: k - start,
                hyp: b.hyp + start,
                reference: b.reference + start,
            });
        }
    }
}

/// Σ_runs |run|^e of the greedy matching of `hyp` against `reference`.
pub fn greedy_weight(hyp: &[u32], reference: &[u32], exponent: f64) -> f64 {
    let mut s = Scratch::default();
    greedy_runs(&mut s, hyp, reference);
    weight_of(&s.runs, exponent)
}

fn weight_of(runs: &[u32], exponent: f64) -> f64 {
    if exponent == 1.0 {
        return runs.iter().map(|&r| r as f64).sum();
    }
    runs.iter().map(|&r| (r as f64).powf(exponent)).sum()
}

/// The maximum matching size of a weight Σ|run|^e.
pub fn mms(weight: f64, exponent: f64) -> f64 {
    if exponent == 1.0 {
        weight
    } else {
        weight.powf(1.0 / exponent)
    }
}

/// (precision, recall, F) of a statistics row `[weight, hyp_len, ref_len]` (or of summed
/// rows); 0 where a length or the matching is 0.
pub fn prf(row: &[f64], exponent: f64) -> (f64, f64, f64) {
    let m = mms(row[0], exponent);
    let p = if row[1] > 0.0 { m / row[1] } else { 0.0 };
    let r = if row[2] > 0.0 { m / row[2] } else { 0.0 };
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (p, r, f)
}

impl Metric for GtmConfig {
    type Scratch = Scratch;
    type Context = ();
    const CHECKS_PAIRS: bool = true;

    fn check_pair(&self, pair: Pair<'_>) -> Result<()> {
        // GTM's time grows with the hits (a long pair of running text has 1-2% of its grid),
        // so past `max_words` a pair is refused up front as SIA's is; MAX_HITS bounds memory.
        let words = |what: String, n: usize, max_words: usize| {
            Error::Input(format!(
                "GTM: {what} has {n} words, over the limit of max_words={max_words} (GTM's \
                 time grows faster than the length); split the text or {RAISE_LIMIT}"
            ))
        };
        if let Some(max_words) = self.max_words {
            if pair.hyp().len() > max_words {
                return Err(words("the hypothesis".into(), pair.hyp().len(), max_words));
            }
            for (k, reference) in pair.refs().enumerate() {
                if reference.len() > max_words {
                    return Err(words(format!("reference {k}"), reference.len(), max_words));
                }
            }
        }
        let time_limit = self.max_words.map_or(u64::MAX, max_identical_pairs);
        for (k, reference) in pair.refs().enumerate() {
            // The check runs on every pair before the parallel work: sentences (whose grid
            // is within both limits) skip counting.
            if (pair.hyp().len() as u64) * (reference.len() as u64) <= MAX_HITS.min(time_limit) {
                continue;
            }
            let n = hits(pair.hyp(), reference);
            if n > MAX_HITS {
                return Err(Error::Input(format!(
                    "GTM: {n} matching word pairs with reference {k}, more than the limit \
                     {MAX_HITS} (the grid of one pair is held in memory)"
                )));
            }
            if n > time_limit {
                let max_words = self.max_words.unwrap_or_default();
                return Err(Error::Input(format!(
                    "GTM: {n} matching word pairs with reference {k}, over the limit \
                     max_words²/100 = {time_limit} for max_words={max_words} (GTM's time \
                     grows with them); split the text or {RAISE_LIMIT}"
                )));
            }
        }
        Ok(())
    }

    fn width(&self) -> usize {
        3
    }

    fn pair_statistics(&self, _: &(), s: &mut Scratch, pair: Pair<'_>, row: &mut [f64]) {
        let hyp = pair.hyp();
        let mut best = f64::NEG_INFINITY;
        for reference in pair.refs() {
            greedy_runs(s, hyp, reference);
            let cand = [
                weight_of(&s.runs, self.exponent),
                hyp.len() as f64,
                reference.len() as f64,
            ];
            let f = prf(&cand, self.exponent).2;
            if f > best {
                best = f;
                row.copy_from_slice(&cand);
            }
        }
        if pair.n_refs() == 0 {
            row[1] = hyp.len() as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The weight Σ|run|^e of a matching given as the reference position of each
    /// hypothesis position (or none).
    fn weight_of_matching(at: &[Option<usize>], e: f64) -> f64 {
        let mut w = 0.0;
        let mut run = 0u32;
        for k in 0..at.len() {
            let extends = match (k.checked_sub(1).and_then(|p| at[p]), at[k]) {
                (Some(prev), Some(j)) => j == prev + 1,
                _ => false,
            };
            if !extends && run > 0 {
                w += (run as f64).powf(e);
                run = 0;
            }
            if at[k].is_some() {
                run += 1;
            }
        }
        if run > 0 {
            w += (run as f64).powf(e);
        }
        w
    }

    /// The exact MMS weight: every matching, exhaustively (tiny inputs only).
    fn exact_weight(hyp: &[u32], reference: &[u32], e: f64) -> f64 {
        fn go(
            i: usize,
            hyp: &[u32],
            r: &[u32],
            used: &mut [bool],
            at: &mut Vec<Option<usize>>,
            e: f64,
        ) -> f64 {
            if i == hyp.len() {
                return weight_of_matching(at, e);
            }
            at.push(None);
            let mut best = go(i + 1, hyp, r, used, at, e);
            at.pop();
            for j in 0..r.len() {
                if !used[j] && r[j] == hyp[i] {
                    used[j] = true;
                    at.push(Some(j));
                    best = best.max(go(i + 1, hyp, r, used, at, e));
                    at.pop();
                    used[j] = false;
                }
            }
            best
        }
        go(
            0,
            hyp,
            reference,
            &mut vec![false; reference.len()],
            &mut Vec::new(),
            e,
        )
    }

    #[test]
    fn too_many_hits_are_refused_by_name() {
        use crate::metrics::metric::statistics_of_sentences;
        use crate::text::intern::Sentences;
        use crate::text::refs::RefSets;
        let long = vec![7u32; 9000];
        let sentences = Sentences::from_ids(&[long.clone(), long]);
        let mut refs = RefSets::new();
        refs.push([1u32]);
        let cfg = GtmConfig::new(2.0).unwrap();
        let e = statistics_of_sentences(&cfg, &sentences, &[0], &refs).unwrap_err();
        assert!(e.to_string().contains("limit"), "{e}");
        assert_eq!(hits(&[1, 1, 2], &[1, 2, 2, 1]), 6);
    }

    #[test]
    fn a_pair_over_max_words_is_refused_by_name() {
        use crate::metrics::metric::statistics_of_sentences;
        use crate::text::intern::Sentences;
        use crate::text::refs::RefSets;
        let short: Vec<u32> = (0..10).collect();
        let sentences =
            Sentences::from_ids(&[short, (0..31).collect(), vec![7; 21], (100..110).collect()]);
        let run = |hyp: u32, r: u32, max_words| {
            let mut refs = RefSets::new();
            refs.push([3u32]);
            refs.push([3u32, r]);
            let cfg = GtmConfig {
                max_words,
                ..GtmConfig::new(1.0).unwrap()
            };
            statistics_of_sentences(&cfg, &sentences, &[0, hyp], &refs).map_err(|e| e.to_string())
        };
        let e = run(1, 0, Some(30)).unwrap_err();
        assert!(
            e.starts_with(
                "hyps[1]: GTM: the hypothesis has 31 words, over the limit of max_words=30"
            ),
            "{e}"
        );
        assert!(e.contains("max_words=None"), "{e}");
        let e = run(0, 1, Some(30)).unwrap_err();
        assert!(
            e.starts_with("hyps[1]: GTM: reference 1 has 31 words"),
            "{e}"
        );
        // 21 × 21 = 441 hits of one word, over 30²/100 = 9; 10 with a text of 10 words.
        let e = run(2, 2, Some(30)).unwrap_err();
        assert!(
            e.starts_with("hyps[1]: GTM: 441 matching word pairs with reference 1, over the limit max_words²/100 = 9 for max_words=30"),
            "{e}"
        );
        assert!(run(0, 0, Some(32)).is_ok()); // 10 hits, 32²/100 = 10
        assert_eq!(run(2, 2, None).unwrap(), run(2, 2, Some(300)).unwrap());
    }

    #[test]
    fn config_is_checked() {
        assert!(GtmConfig::new(0.5).is_err());
        assert!(GtmConfig::new(f64::NAN).is_err());
        assert!(GtmConfig::new(f64::INFINITY).is_err());
        assert!(GtmConfig::new(1.0).is_ok());
        assert!(GtmConfig::new(3.0).is_ok());
    }

    #[test]
    fn runs_by_hand() {
        // a b c d vs a b x c d: runs [a b], [c d] → weight 2^2 + 2^2 = 8 for e = 2.
        assert_eq!(greedy_weight(&[1, 2, 3, 4], &[1, 2, 9, 3, 4], 2.0), 8.0);
        // identical: one run of 4.
        assert_eq!(greedy_weight(&[1, 2, 3, 4], &[1, 2, 3, 4], 2.0), 16.0);
        // reversed: four runs of 1.
        assert_eq!(greedy_weight(&[1, 2, 3, 4], &[4, 3, 2, 1], 2.0), 4.0);
        // e = 1 is the bag-of-words overlap.
        assert_eq!(greedy_weight(&[1, 1, 2], &[1, 2, 2, 1], 1.0), 3.0);
    }

    #[test]
    fn greedy_below_exact_somewhere() {
        // Exhaustive over small alphabets: the greedy weight never exceeds the exact one,
        // equals it for e = 1, and is below it for some pair with e = 2.
        let mut below = None;
        let mut seqs: Vec<Vec<u32>> = Vec::new();
        for n in 1..=5usize {
            for code in 0..3u32.pow(n as u32) {
                let mut c = code;
                seqs.push(
                    (0..n)
                        .map(|_| {
                            let d = c % 3;
                            c /= 3;
                            d
                        })
                        .collect(),
                );
            }
        }
        for h in seqs.iter().filter(|s| s.len() >= 4) {
            for r in seqs.iter().filter(|s| s.len() == 5) {
                let g1 = greedy_weight(h, r, 1.0);
                assert_eq!(g1, exact_weight(h, r, 1.0));
                let g2 = greedy_weight(h, r, 2.0);
                let x2 = exact_weight(h, r, 2.0);
                assert!(g2 <= x2 + 1e-12);
                if g2 < x2 && below.is_none() {
                    below = Some((h.clone(), r.clone(), g2, x2));
                    eprintln!("greedy below exact: {h:?} {r:?} {g2} {x2}");
                }
            }
        }
        assert!(below.is_some());
    }

    proptest! {
        #[test]
        fn greedy_bounded_by_exact(
            h in proptest::collection::vec(0u32..3, 0..7),
            r in proptest::collection::vec(0u32..3, 0..7),
            e in prop_oneof![Just(1.0), Just(2.0), Just(3.0)],
        ) {
            let g = greedy_weight(&h, &r, e);
            let x = exact_weight(&h, &r, e);
            prop_assert!(g <= x + 1e-9);
            if e == 1.0 {
                prop_assert_eq!(g, x);
            }
            // The greedy matching is maximal: its cardinality is the bag-of-words overlap.
            let mut s = Scratch::default();
            greedy_runs(&mut s, &h, &r);
            let card: u32 = s.runs.iter().sum();
            prop_assert_eq!(card as f64, exact_weight(&h, &r, 1.0));
        }
    }
}

/// GTM's contract: options, columns and figures.
mod native {
    use super::{mms, prf, GtmConfig};
    use crate::metrics::contract::{sum_rows, CellScore, Configured, Contract, Figure, OneResult};
    use crate::metrics::sia::DEFAULT_MAX_WORDS;
    use crate::options::{
        max_words, DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_NO, TOKENIZE_13A,
    };
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::Tokenizer;
    use crate::Result;

    impl Contract for GtmConfig {
        const NAME: &'static str = "gtm";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "exponent",
                Kind::Float,
                D::Float(1.0),
                "the run-length exponent e (1 to 64)",
            ),
            TOKENIZE_13A,
            LOWERCASE_NO,
            max_words(DEFAULT_MAX_WORDS),
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = GtmConfig {
                max_words: o.opt_usize("max_words")?,
                ..GtmConfig::new(o.f64("exponent"))?
            };
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![3]
        }

        /// Σ|run|^e, |hyp|, |ref|.
        fn columns(&self) -> Vec<String> {
            vec!["weight".into(), "hyp_len".into(), "ref_len".into()]
        }

        fn fields(&self) -> Vec<String> {
            ["score", "precision", "recall", "mms"]
                .map(String::from)
                .to_vec()
        }

        /// F, precision, recall and MMS of the summed rows (GTM's document level).
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            let total = sum_rows(rows, 3);
            let (p, r, f) = prf(&total, self.exponent);
            Some(vec![f, p, r, mms(total[0], self.exponent)])
        }

        /// The sentence F.
        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            let e = self.exponent;
            Some(Box::new(move |row| prf(row, e).2))
        }

        /// One pair's (F, precision, recall, MMS): the figures of its result, made from the
        /// row without NumPy.
        fn one_result(&self, row: Vec<f64>) -> OneResult {
            let e = self.exponent;
            let (p, r, f) = prf(&row, e);
            OneResult::Figures([f, p, r, mms(row[0], e)].map(Figure::Real).to_vec())
        }
    }
}
