//! NIST (Doddington 2002) as nltk's `corpus_nist` / `sentence_nist` compute it.
//!
//! * Information weights come from the reference n-grams of the scored set (every
//!   reference of every segment, duplicates counted): Info(w1..wn) = log2(count(w1..wn-1) /
//!   count(w1..wn)), with the total number of reference words for unigrams.
//! * For each order separately, the reference kept is the one with the highest information
//!   weighted precision (then numerator, then the longer reference), as nltk's `max` over
//!   `(precision, numerator, denominator, ref_len)` tuples does; its length enters the
//!   length penalty once per order.
//!
//! A statistics row is `[hyp_len, ref_len_1..n, num_1..n, den_1..n]`; rows add up to the
//! corpus row. Sentence-level NIST (nltk's `sentence_nist`) takes its weights from that
//! sentence's references only.

use crate::kernels::ngram_ids::{NgramIds, MISSING};
use crate::kernels::ref_ngrams::{HypNgrams, RefNgrams};
use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
use crate::text::docs::Docs;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};

/// The highest n-gram order NIST accepts.
pub const MAX_ORDER: usize = 12;

/// `Error::Config` unless `n` is an order in 1..=[`MAX_ORDER`].
pub fn check_order(n: usize) -> Result<()> {
    if (1..=MAX_ORDER).contains(&n) {
        Ok(())
    } else {
        Err(Error::Config(format!(
            "max_order must be between 1 and {MAX_ORDER} (got {n})"
        )))
    }
}

/// Width of a statistics row.
pub fn width(n: usize) -> usize {
    1 + 3 * n
}

/// Reference n-grams and their information weights.
#[derive(Debug, Default)]
pub struct InfoWeights {
    ids: NgramIds,
    info: Vec<f64>,
}

impl InfoWeights {
    /// Counts the n-grams of `refs` (orders 1..=n) and computes their weights.
    pub fn build<'a>(&mut self, refs: impl Iterator<Item = &'a [u32]>, n: usize) {
        self.ids.clear();
        let mut counts: Vec<u64> = Vec::new();
        let mut words = 0u64;
        for r in refs {
            words += r.len() as u64;
            self.ids.insert_all(r, n, |_, id| {
                if id as usize == counts.len() {
                    counts.push(0);
                }
                counts[id as usize] += 1;
            });
        }
        self.info.clear();
        self.info.extend((0..counts.len()).map(|id| {
            let parent = self.ids.parent(id as u32);
            let numerator = if parent == MISSING {
                words
            } else {
                counts[parent as usize]
            };
            (numerator as f64 / counts[id] as f64).ln() / 2f64.ln()
        }));
    }
}

/// Reusable buffers of one thread: n-gram tables of the references and of the hypothesis,
/// and a sentence's own weights.
#[derive(Debug, Default)]
pub struct NistScratch {
    /// A sentence's own weights (sentence-level NIST).
    own: InfoWeights,
    hyp: NgramIds,
    hyp_count: Vec<u32>,
    ref_count: Vec<u32>,
    /// Per hypothesis n-gram: its order and its weight (0 when no reference has it).
    order: Vec<u8>,
    info: Vec<f64>,
    local_window: Vec<u32>,
    global_window: Vec<u32>,
    /// Leave-one-out rows: the reference list's n-grams, each set's weight of each
    /// (set-major), and the hypothesis's n-grams among them.
    loo: RefNgrams,
    loo_info: Vec<f64>,
    loo_hyp: HypNgrams,
}

impl NistScratch {
    /// Interns the hypothesis n-grams (ids by order, then first occurrence) and looks each
    /// up in `weights` through the same prefix chain.
    fn prepare(&mut self, weights: &InfoWeights, hyp: &[u32], n: usize) {
        self.hyp.clear();
        self.hyp_count.clear();
        self.order.clear();
        self.info.clear();
        let len = hyp.len();
        self.local_window.clear();
        self.local_window.resize(len, MISSING);
        self.global_window.clear();
        self.global_window.resize(len, MISSING);
        for k in 1..=n.min(len) {
            for pos in 0..=len - k {
                let token = hyp[pos + k - 1];
                let (lp, gp) = if k == 1 {
                    (MISSING, MISSING)
                } else {
                    (self.local_window[pos], self.global_window[pos])
                };
                let lid = self.hyp.intern(lp, token);
                let gid = if k > 1 && gp == MISSING {
                    MISSING
                } else {
                    weights.ids.get(gp, token)
                };
                self.local_window[pos] = lid;
                self.global_window[pos] = gid;
                if lid as usize == self.hyp_count.len() {
                    self.hyp_count.push(0);
                    self.order.push(k as u8);
                    self.info.push(if gid == MISSING {
                        0.0
                    } else {
                        weights.info[gid as usize]
                    });
                }
                self.hyp_count[lid as usize] += 1;
            }
        }
    }

    /// The statistics row of `hyp` against `refs`, with `weights`.
    fn stats<'a>(
        &mut self,
        weights: &InfoWeights,
        hyp: &[u32],
        refs: impl Iterator<Item = &'a [u32]>,
        n: usize,
        row: &mut [f64],
    ) {
        row.fill(0.0);
        row[0] = hyp.len() as f64;
        self.prepare(weights, hyp, n);
        let mut best = vec![(f64::NEG_INFINITY, 0.0, 0.0, 0.0); n];
        let mut num = vec![0.0f64; n];
        for r in refs {
            self.ref_count.clear();
            self.ref_count.resize(self.hyp_count.len(), 0);
            let ref_count = &mut self.ref_count;
            self.hyp
                .lookup_all(r, n, |_, id| ref_count[id as usize] += 1);
            num.fill(0.0);
            // Hypothesis n-grams in first-occurrence order, as nltk's Counter iterates them.
            for id in 0..self.hyp_count.len() {
                let c = self.hyp_count[id].min(self.ref_count[id]);
                if c > 0 {
                    num[self.order[id] as usize - 1] += self.info[id] * c as f64;
                }
            }
            for k in 0..n {
                let den = (hyp.len() + 1).saturating_sub(k + 1) as f64;
                let precision = if den == 0.0 { 0.0 } else { num[k] / den };
                let cand = (precision, num[k], den, r.len() as f64);
                if greater(cand, best[k]) {
                    best[k] = cand;
                }
            }
        }
        for (k, &(_, num, den, ref_len)) in best.iter().enumerate() {
            row[1 + k] = ref_len;
            row[1 + n + k] = num;
            row[1 + 2 * n + k] = den;
        }
    }
}

impl NistScratch {
    /// [`Metric::leave_one_out_rows`]: the references' n-grams counted once per reference
    /// list (an n-best list's candidates share it) with each leave-one-out set's weights
    /// from those counts; the hypothesis read once. For set `l` and reference `j` the
    /// matched n-grams are summed in the order [`NistScratch::stats`] sums them (the
    /// hypothesis's n-grams by order, then first occurrence; those in no reference match
    /// nothing), with the same weights: the same bits as [`NistScratch::stats`] of the set.
    fn leave_one_out(&mut self, hyp: &[u32], refs: &[&[u32]], n: usize, rows: &mut [f64]) {
        let r = refs.len();
        if self.loo.prepare(refs, n) {
            self.build_loo_info();
        }
        self.loo.hyp_counts(hyp, &mut self.loo_hyp);
        let len = self.loo.len();
        let (ids, counts) = (&self.loo_hyp.ids, &self.loo_hyp.counts);
        for (l, row) in rows.chunks_exact_mut(width(n)).enumerate() {
            row.fill(0.0);
            row[0] = hyp.len() as f64;
            let info = &self.loo_info[l * len..(l + 1) * len];
            let mut best = [(f64::NEG_INFINITY, 0.0, 0.0, 0.0); MAX_ORDER];
            let mut num = [0.0f64; MAX_ORDER];
            for j in (0..r).filter(|&j| j != l) {
                num.fill(0.0);
                let ref_count = self.loo.counts(j);
                for (&id, &h) in ids.iter().zip(counts) {
                    let c = h.min(ref_count[id as usize]);
                    if c > 0 {
                        num[self.loo.order(id) - 1] += info[id as usize] * c as f64;
                    }
                }
                for k in 0..n {
                    let den = (hyp.len() + 1).saturating_sub(k + 1) as f64;
                    let precision = if den == 0.0 { 0.0 } else { num[k] / den };
                    let cand = (precision, num[k], den, self.loo.ref_len(j) as f64);
                    if greater(cand, best[k]) {
                        best[k] = cand;
                    }
                }
            }
            for (k, &(_, num, den, ref_len)) in best[..n].iter().enumerate() {
                row[1 + k] = ref_len;
                row[1 + n + k] = num;
                row[1 + 2 * n + k] = den;
            }
        }
    }

    /// Each leave-one-out set's information weights, per reference n-gram (0 where the set
    /// lacks it), as [`InfoWeights::build`] computes them from the set's counts.
    fn build_loo_info(&mut self) {
        let (r, len) = (self.loo.n_refs(), self.loo.len());
        self.loo_info.clear();
        self.loo_info.resize(r * len, 0.0);
        let mut count = vec![0u64; len];
        for l in 0..r {
            count.fill(0);
            let mut words = 0u64;
            for j in (0..r).filter(|&j| j != l) {
                words += self.loo.ref_len(j) as u64;
                for (c, &x) in count.iter_mut().zip(self.loo.counts(j)) {
                    *c += u64::from(x);
                }
            }
            let info = &mut self.loo_info[l * len..(l + 1) * len];
            for id in 0..len {
                if count[id] == 0 {
                    continue;
                }
                let parent = self.loo.parent(id as u32);
                let numerator = if parent == MISSING {
                    words
                } else {
                    count[parent as usize]
                };
                info[id] = (numerator as f64 / count[id] as f64).ln() / 2f64.ln();
            }
        }
    }
}

/// Python's tuple comparison `a > b` for (precision, numerator, denominator, ref_len).
fn greater(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    [a.0, a.1, a.2, a.3]
        .into_iter()
        .zip([b.0, b.1, b.2, b.3])
        .find(|(x, y)| x != y)
        .is_some_and(|(x, y)| x > y)
}

/// NIST as a metric: n-gram orders 1..=`max_order`, information weights from every reference
/// of the batch (`corpus_weights`, nltk's `corpus_nist`) or from each sentence's own
/// references (`sentence_nist`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nist {
    max_order: usize,
    corpus_weights: bool,
}

impl Nist {
    /// NIST up to `max_order` (nltk's default 5), with the batch's weights (`corpus_weights`)
    /// or each sentence's own.
    pub fn new(max_order: usize, corpus_weights: bool) -> Result<Self> {
        check_order(max_order)?;
        Ok(Self {
            max_order,
            corpus_weights,
        })
    }

    /// Whether information weights come from the whole batch's references (corpus NIST).
    pub fn corpus_weights(&self) -> bool {
        self.corpus_weights
    }

    /// The highest n-gram order.
    pub fn max_order(&self) -> usize {
        self.max_order
    }
}

impl Metric for Nist {
    type Scratch = NistScratch;
    /// The batch's weights (corpus mode only).
    type Context = Option<InfoWeights>;

    fn width(&self) -> usize {
        width(self.max_order)
    }

    const NEEDS_CONTEXT: bool = true;

    fn context(&self, docs: &Docs<'_>, hyps: &[u32], ref_sets: &RefSets) -> Self::Context {
        if !self.corpus_weights {
            return None;
        }
        let mut weights = InfoWeights::default();
        let refs = (0..hyps.len()).flat_map(|i| ref_sets.get(i).iter());
        weights.build(refs.map(|&r| docs.tokens(r as usize)), self.max_order);
        Some(weights)
    }

    /// Sentence NIST: the references' n-grams and each leave-one-out set's weights built
    /// once per reference list (`NistScratch::leave_one_out`).
    fn has_leave_one_out(&self) -> bool {
        !self.corpus_weights
    }

    fn leave_one_out_rows(
        &self,
        s: &mut NistScratch,
        hyp: &[u32],
        refs: &[&[u32]],
        rows: &mut [f64],
    ) {
        s.leave_one_out(hyp, refs, self.max_order, rows);
    }

    fn pair_statistics(
        &self,
        corpus: &Option<InfoWeights>,
        s: &mut NistScratch,
        pair: Pair<'_>,
        row: &mut [f64],
    ) {
        let n = self.max_order;
        match corpus {
            Some(weights) => s.stats(weights, pair.hyp(), pair.refs(), n, row),
            None => {
                let mut own = std::mem::take(&mut s.own);
                own.build(pair.refs(), n);
                s.stats(&own, pair.hyp(), pair.refs(), n, row);
                s.own = own;
            }
        }
    }
}

/// Statistics rows with weights from all references of the batch (nltk's `corpus_nist`).
pub fn stats_corpus(
    n: usize,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_of_sentences(&Nist::new(n, true)?, sentences, hyps, ref_sets)
}

/// Statistics rows with each sentence's weights from its own references (`sentence_nist`).
pub fn stats_sentences(
    n: usize,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_of_sentences(&Nist::new(n, false)?, sentences, hyps, ref_sets)
}

/// NIST from a statistics row or a sum of rows.
pub fn score(n: usize, row: &[f64]) -> f64 {
    let sys_len = row[0] * n as f64;
    let ref_len: f64 = row[1..1 + n].iter().sum();
    let mut precision = 0.0;
    for k in 0..n {
        let den = row[1 + 2 * n + k];
        if den > 0.0 {
            precision += row[1 + n + k] / den;
        }
    }
    precision * length_penalty(ref_len, sys_len)
}

/// Doddington's penalty: 0.5 when the output is 2/3 of the reference length.
pub fn length_penalty(ref_len: f64, hyp_len: f64) -> f64 {
    if ref_len == 0.0 {
        return if hyp_len > 0.0 { 1.0 } else { 0.0 };
    }
    let ratio = hyp_len / ref_len;
    if 0.0 < ratio && ratio < 1.0 {
        let beta = 0.5f64.ln() / 1.5f64.ln().powi(2);
        (beta * ratio.ln().powi(2)).exp()
    } else {
        ratio.clamp(0.0, 1.0)
    }
}

/// NIST's contract: options, columns and figures.
mod native {
    use super::{score, width, Nist};
    use crate::metrics::contract::{
        numbered, sum_rows, CellScore, Configured, Contract, Figure, OneResult,
    };
    use crate::options::{
        DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_NO, TOKENIZE_13A,
    };
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::Tokenizer;
    use crate::Result;

    impl Contract for Nist {
        const NAME: &'static str = "nist";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "max_order",
                Kind::Int,
                D::Int(5),
                "the longest n-gram, 1 to 12",
            ),
            OptionSpec::new(
                "corpus_weights",
                Kind::Bool,
                D::Bool(false),
                "information weights from every reference of the batch (corpus NIST)",
            ),
            TOKENIZE_13A,
            LOWERCASE_NO,
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = Nist::new(o.usize("max_order")?, o.bool("corpus_weights"))?;
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![width(self.max_order())]
        }

        /// |hyp|, then per order the reference length, information and hypothesis n-grams.
        fn columns(&self) -> Vec<String> {
            let n = self.max_order();
            let mut c = vec!["sys_len".to_string()];
            c.extend(numbered("ref_len", n));
            c.extend(numbered("info", n));
            c.extend(numbered("ngrams", n));
            c
        }

        fn fields(&self) -> Vec<String> {
            vec!["score".into()]
        }

        /// NIST of the summed rows.
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            let n = self.max_order();
            Some(vec![score(n, &sum_rows(rows, width(n)))])
        }

        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            let n = self.max_order();
            Some(Box::new(move |row| score(n, row)))
        }

        /// Sentence NIST (each pair's own weights) only: corpus weights depend on the batch.
        fn cell_score(&self, k: usize) -> Option<CellScore<'_>> {
            (!self.corpus_weights())
                .then(|| self.row_score(k))
                .flatten()
        }

        /// Sentence NIST weighs each pair by its own references.
        fn pairs_independent(&self) -> bool {
            !self.corpus_weights()
        }

        /// One pair's (NIST, hypothesis length, mean reference length): the figures of its
        /// result (the corpus of one sentence), made from the row without NumPy.
        fn one_result(&self, row: Vec<f64>) -> OneResult {
            let n = self.max_order();
            // Counts are whole numbers, so the sum is exact in any order.
            let ref_len = row[1..1 + n].iter().sum::<f64>() / n as f64;
            let sys_len = Figure::Count(row[0] as i64);
            OneResult::Figures(vec![
                Figure::Real(score(n, &row)),
                sys_len,
                Figure::Real(ref_len),
            ])
        }
    }
}
