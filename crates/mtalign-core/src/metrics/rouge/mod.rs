//! ROUGE-N, L, W, S and SU (Lin & Och 2004) over interned sentences, with reference sets.
//!
//! Per (hypothesis, reference) pair each variant yields sufficient statistics
//! ([`Counts`]: hit, hypothesis units, reference units); a hypothesis's references are then
//! aggregated by the `multi_ref` rule, optionally jackknifed. Everything after the counts is
//! plain arithmetic in a fixed order, so results never depend on the thread count.

pub mod rouge155;

use crate::choice::choice_enum;
use crate::error::{Error, Result};
use crate::kernels::counts::Counts;
use crate::kernels::lcs::LcsMatcher;
use crate::kernels::lcs_bits::LcsBits;
use crate::kernels::lcs_long::LongLcs;
use crate::kernels::ngram::NgramScratch;
use crate::kernels::skip_bigram::SkipBigramScratch;
use crate::kernels::summary_lcs::SummaryLcsScratch;
use crate::kernels::wlcs::WlcsScratch;
use crate::metrics::metric::{statistics_batch, with_scratch, Metric, Pair, Prepared};
use crate::metrics::rouge::rouge155::{round5, Wlcs155Scratch};
use crate::metrics::sia::RAISE_LIMIT;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use std::collections::HashMap;

pub use crate::text::docs::Docs;

/// One ROUGE variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Variant {
    /// ROUGE-N: clipped n-gram overlap (`rouge1`..`rouge9`).
    Ngram(usize),
    /// ROUGE-L: LCS (`rougeL`).
    Lcs,
    /// ROUGE-W: weighted LCS with f(k) = k^weight (`rougeW-1.2`).
    Wlcs(f64),
    /// ROUGE-S / ROUGE-SU (`rougeS4`, `rougeS*`, `rougeSU4`, `rougeSU*`).
    Skip {
        /// At most this many words apart (`None`: any distance, `rougeS*`).
        max_gap: Option<usize>,
        /// Unigrams count too (ROUGE-SU).
        unigrams: bool,
    },
    /// Summary-level LCS over the lines of a text, as rouge-score defines it (`rougeLsum`).
    LcsSum,
}

/// The largest ROUGE-W weight: n^w stays finite for any n < 2^32 (2^(32·30) < f64::MAX).
pub const MAX_WLCS_WEIGHT: f64 = 30.0;

/// The largest weight under `compat="rouge155"`, whose recall divides by m^(w·w).
pub const MAX_WLCS155_WEIGHT: f64 = 5.0;

const VARIANT_HELP: &str = "expected rouge1..rouge9, rougeL, rougeLsum, rougeW-<weight>, \
     rougeS<d>, rougeS*, rougeSU<d>, rougeSU*";

impl Variant {
    /// The variant named `name` (`rouge1`..`rouge9`, `rougeL`, `rougeLsum`, `rougeW-1.2`,
    /// `rougeS4`, `rougeS*`, `rougeSU4`, ...); `Error::Config` otherwise.
    ///
    /// ```
    /// use mtalign_core::metrics::rouge::Variant;
    /// assert_eq!(Variant::parse("rouge2")?, Variant::Ngram(2));
    /// assert_eq!(Variant::parse("rougeS*")?, Variant::Skip { max_gap: None, unigrams: false });
    /// assert!(Variant::parse("bleu").is_err());
    /// # Ok::<(), mtalign_core::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<Self> {
        let unknown = || Error::Config(format!("unknown variant '{name}' ({VARIANT_HELP})"));
        let rest = name.strip_prefix("rouge").ok_or_else(unknown)?;
        if rest == "L" {
            return Ok(Variant::Lcs);
        }
        if rest == "Lsum" {
            return Ok(Variant::LcsSum);
        }
        if let Some(w) = rest.strip_prefix("W-") {
            let weight: f64 = w.parse().map_err(|_| unknown())?;
            if !(weight.is_finite() && weight >= 1.0) {
                return Err(Error::Config(format!(
                    "variant '{name}': the ROUGE-W weight must be a finite number >= 1 \
                     (f(k) = k^w must reward consecutive matches)"
                )));
            }
            if weight > MAX_WLCS_WEIGHT {
                return Err(Error::Config(format!(
                    "variant '{name}': the ROUGE-W weight must be at most {MAX_WLCS_WEIGHT} \
                     (f(n) = n^w must stay finite for every text length)"
                )));
            }
            return Ok(Variant::Wlcs(weight));
        }
        let (skip, unigrams) = if let Some(d) = rest.strip_prefix("SU") {
            (Some(d), true)
        } else if let Some(d) = rest.strip_prefix('S') {
            (Some(d), false)
        } else {
            (None, false)
        };
        if let Some(d) = skip {
            let max_gap = match d {
                "*" => None,
                _ if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => {
                    match d.parse::<u32>() {
                        Ok(gap) => Some(gap as usize),
                        Err(_) => {
                            return Err(Error::Config(format!(
                                "variant '{name}': the skip distance must be at most {} \
                                 (rougeS* / rougeSU* for no limit)",
                                u32::MAX
                            )))
                        }
                    }
                }
                _ => return Err(unknown()),
            };
            return Ok(Variant::Skip { max_gap, unigrams });
        }
        match rest.parse::<usize>() {
            Ok(n) if (1..=9).contains(&n) && rest.len() == 1 => Ok(Variant::Ngram(n)),
            _ => Err(unknown()),
        }
    }

    /// Whether the variant's time can grow with the product of a pair's lengths past ROUGE's
    /// budget at lengths users meet, so that it checks `max_words` (see
    /// [`DEFAULT_MAX_WORDS`]). ROUGE-W's dynamic programme visits every cell of the grid;
    /// ROUGE-S and SU (any distance) sweep each text once per common type repeated in it,
    /// up to min(m, n)·(m + n) steps when many types repeat (every type twice a side:
    /// 36 s for rougeS*, 23 s for rougeSU4 at 170,000 words). The others stay inside the
    /// budget at 170,000 words a side (a 1 MB line): ROUGE-L and ROUGE-Lsum are
    /// bit-parallel, 64 cells a step (1.2 s and 2.9 s), ROUGE-N is linear.
    pub fn checks_size(self) -> bool {
        matches!(self, Variant::Wlcs(_) | Variant::Skip { .. })
    }

    /// Maps a count ratio to a score: f⁻¹ for ROUGE-W, the identity otherwise.
    fn finalize(self, ratio: f64) -> f64 {
        match self {
            Variant::Wlcs(w) => ratio.powf(1.0 / w),
            _ => ratio,
        }
    }
}

choice_enum! {
    /// How the scores against several references become one (see the Python docs).
    pub enum MultiRef, "multi_ref" {
        /// Lin & Och eqs. 7–9: R = max_j R_j, P = max_j P_j, F from those.
        Max => "max",
        /// ROUGE-1.5.5 `-f A`: counts pooled over the references.
        Average => "average",
        /// ROUGE-1.5.5 `-f B`: the reference with the highest recall (first on ties).
        Best => "best",
        /// rouge-score `score_multi`: the reference with the highest F (first on ties).
        BestF => "best_f",
    }
}

choice_enum! {
    /// Which published convention the numbers follow.
    pub enum Compat, "compat" {
        /// Lin & Och (2004) as written.
        Paper => "paper",
        /// ROUGE-1.5.5 (see [`crate::metrics::rouge::rouge155`]): ROUGE-W recount and
        /// m^(w·w), SU without the last unigram, `-f B` by 5-decimal recalls.
        Rouge155 => "rouge155",
        /// rouge-score 0.1.2: scores as the paper's; the profile fixes tokenizer and stemmer.
        RougeScore => "rouge_score",
    }
}

/// Precision, recall and F of one variant.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    /// Precision (0-1).
    pub precision: f64,
    /// Recall (0-1).
    pub recall: f64,
    /// F with the configuration's β ([`f_measure`]).
    pub fmeasure: f64,
}

/// Eq. 6: F = (1 + β²)·R·P / (R + β²·P), and 0 when R or P is 0.
pub fn f_measure(precision: f64, recall: f64, beta: f64) -> f64 {
    if precision <= 0.0 || recall <= 0.0 {
        return 0.0;
    }
    let b2 = beta * beta;
    let f = (1.0 + b2) * recall * precision / (recall + b2 * precision);
    if f.is_finite() {
        return f;
    }
    // β² so large that the products overflow (β = 1e200): the same formula divided
    // through by β², which tends to R.
    let w = 1.0 / b2;
    (w + 1.0) * recall * precision / (w * recall + precision)
}

fn ratio(hit: f64, total: f64) -> f64 {
    if total > 0.0 {
        hit / total
    } else {
        0.0
    }
}

/// The default of ROUGE's size limit (`max_words`): a hypothesis and a reference of m and n
/// words are refused before any work when m·n > max_words² and a variant grows with that
/// product ([`Variant::checks_size`]: ROUGE-W, ROUGE-S/SU). ROUGE-W's dynamic programme
/// costs about a nanosecond a cell on the 2-core development machine under load (one pair:
/// 2.8 s at 50,000 words a side, 11 s at 100,000, 32 s at 170,000, a 1 MB line; ROUGE-1.5.5's
/// variant 1.4 s, 6.3 s and 44 s), ROUGE-S about as much per step of its at most 2·m·n, so
/// the limit keeps a pair within the 10 s budget with room for the load, a second reference
/// or a second variant (docs/reference.md, ROUGE "Size limit").
pub const DEFAULT_MAX_WORDS: usize = 50_000;

/// ROUGE's configuration: the variants scored together, β of the F-measure, how several
/// references combine and which tool's conventions hold. Build it with [`RougeConfig::new`].
#[derive(Debug, Clone, PartialEq)]
pub struct RougeConfig {
    /// The variants, one score each, in this order.
    pub variants: Vec<Variant>,
    /// β of the F-measure (1: F1).
    pub beta: f64,
    /// How the scores against several references become one.
    pub multi_ref: MultiRef,
    /// Jackknifing: with N >= 2 references, the mean of P, R and F over the N leave-one-out
    /// reference sets.
    pub jackknife: bool,
    /// Whose conventions the numbers follow (the paper's, ROUGE-1.5.5's, rouge-score's).
    pub compat: Compat,
    /// The size limit (see [`DEFAULT_MAX_WORDS`]); `None`: no limit. Never changes a score.
    pub max_words: Option<usize>,
}

impl RougeConfig {
    /// A checked configuration (at least one variant, β finite and > 0, weights in range for
    /// the chosen `compat`).
    pub fn new(
        variants: Vec<Variant>,
        beta: f64,
        multi_ref: MultiRef,
        jackknife: bool,
        compat: Compat,
    ) -> Result<Self> {
        if variants.is_empty() {
            return Err(Error::Config("no ROUGE variant given".into()));
        }
        if !(beta.is_finite() && beta > 0.0) {
            return Err(Error::Config(format!("beta must be > 0 (got {beta})")));
        }
        for v in &variants {
            if let (Variant::Wlcs(w), Compat::Rouge155) = (v, compat) {
                if *w > MAX_WLCS155_WEIGHT {
                    return Err(Error::Config(format!(
                        "ROUGE-W weight {w} with compat=\"rouge155\": at most \
                         {MAX_WLCS155_WEIGHT} (ROUGE-1.5.5 divides by m^(w·w), which must \
                         stay finite)"
                    )));
                }
            }
        }
        Ok(Self {
            variants,
            beta,
            multi_ref,
            jackknife,
            compat,
            max_words: Some(DEFAULT_MAX_WORDS),
        })
    }

    /// The same configuration with the size limit `max_words` (`None`: no limit).
    pub fn with_max_words(self, max_words: Option<usize>) -> Result<Self> {
        if max_words == Some(0) {
            return Err(Error::Config(
                "max_words must be a positive number of words, or None for no limit".into(),
            ));
        }
        Ok(Self { max_words, ..self })
    }

    /// The largest grid (hypothesis words × reference words) a pair may have: max_words²,
    /// when a variant checks it ([`Variant::checks_size`]).
    fn grid_limit(&self) -> Option<u64> {
        let words = self.max_words? as u64;
        let checks = self.variants.iter().any(|v| v.checks_size());
        checks.then(|| words.saturating_mul(words))
    }

    /// Refuses a pair whose hypothesis and a reference make a grid over
    /// [`RougeConfig::grid_limit`], naming them `hyps[i]` and `refs[i][k]` for `at = Some(i)`
    /// (else "the hypothesis" and "reference k"). Token counts only: nothing is read but the
    /// lengths, and nothing is allocated unless the pair is refused.
    fn check_size<'a>(
        &self,
        hyp: &[u32],
        refs: impl Iterator<Item = &'a [u32]>,
        at: Option<usize>,
    ) -> Result<()> {
        let Some(limit) = self.grid_limit() else {
            return Ok(());
        };
        let m = hyp.len() as u64;
        for (k, r) in refs.enumerate() {
            let n = r.len() as u64;
            if m.saturating_mul(n) > limit {
                let max_words = self.max_words.unwrap_or_default();
                let (hyp_name, ref_name) = match at {
                    Some(i) => (format!("hyps[{i}]"), format!("refs[{i}][{k}]")),
                    None => ("the hypothesis".into(), format!("reference {k}")),
                };
                return Err(Error::Input(format!(
                    "{hyp_name} and {ref_name} have {m} × {n} words, over ROUGE's limit of \
                     max_words² = {limit} word pairs for max_words={max_words} (the time of {} \
                     grows with the product of the lengths); split the texts (into sentences, or \
                     sections scored apart) or {RAISE_LIMIT}",
                    self.checked_names()
                )));
            }
        }
        Ok(())
    }

    /// The families of the configured variants that check the size limit, for its refusal
    /// ("ROUGE-W", "ROUGE-W and ROUGE-SU").
    fn checked_names(&self) -> String {
        let mut families: Vec<&str> = Vec::new();
        for v in &self.variants {
            let family = match v {
                Variant::Wlcs(_) => "ROUGE-W",
                Variant::Skip {
                    unigrams: false, ..
                } => "ROUGE-S",
                Variant::Skip { unigrams: true, .. } => "ROUGE-SU",
                _ => continue,
            };
            if !families.contains(&family) {
                families.push(family);
            }
        }
        families.join(" and ")
    }

    fn prf(&self, variant: Variant, c: Counts) -> Prf {
        let recall = variant.finalize(ratio(c.hit, c.ref_total));
        let precision = variant.finalize(ratio(c.hit, c.hyp_total));
        Prf {
            precision,
            recall,
            fmeasure: f_measure(precision, recall, self.beta),
        }
    }

    /// The recall `-f B` compares. ROUGE-1.5.5 has already rounded ROUGE-N and S/SU recalls
    /// to 5 decimals when it compares them, and for ROUGE-W it compares the paper's recall
    /// (hit / m^w)^(1/w), not the m^(w·w) one it reports.
    fn best_key(&self, variant: Variant, c: Counts, recall: f64) -> f64 {
        match (self.compat, variant) {
            (Compat::Rouge155, Variant::Ngram(_) | Variant::Skip { .. }) => round5(recall),
            (Compat::Rouge155, Variant::Wlcs(w)) => {
                // ref_total is m^(w·w); m is a token count.
                let m = c.ref_total.powf(1.0 / (w * w)).round();
                variant.finalize(ratio(c.hit, m.powf(w)))
            }
            _ => recall,
        }
    }

    /// Whether a score against a set is a function of the rows against each member alone
    /// (`multi_ref="max"` without jackknife): [`RougeConfig::max_of_singles`] then gives it.
    pub fn combines_singles(&self) -> bool {
        self.multi_ref == MultiRef::Max && !self.jackknife
    }

    /// The F-measure of variant `k` against a set, from the statistics rows against each of
    /// its references alone (`rows`: contiguous, `3 · variants` each): P and R are the
    /// maxima (eqs. 7-9), bit-identical to scoring the set when [`Self::combines_singles`].
    pub fn max_of_singles(&self, k: usize, rows: &[f64]) -> f64 {
        let (mut p, mut r) = (0.0f64, 0.0f64);
        for row in rows.chunks_exact(3 * self.variants.len()) {
            p = p.max(row[3 * k]);
            r = r.max(row[3 * k + 1]);
        }
        f_measure(p, r, self.beta)
    }

    /// Whether a variant needs the lines of the texts.
    pub fn needs_lines(&self) -> bool {
        self.variants.contains(&Variant::LcsSum)
    }

    /// Aggregates the per-reference counts of the references in `subset`.
    fn aggregate(&self, variant: Variant, per_ref: &[Counts], subset: &[usize]) -> Prf {
        match self.multi_ref {
            MultiRef::Max => {
                let (mut p, mut r) = (0.0f64, 0.0f64);
                for &j in subset {
                    let s = self.prf(variant, per_ref[j]);
                    p = p.max(s.precision);
                    r = r.max(s.recall);
                }
                Prf {
                    precision: p,
                    recall: r,
                    fmeasure: f_measure(p, r, self.beta),
                }
            }
            MultiRef::Average => {
                let mut pooled = Counts::default();
                for &j in subset {
                    pooled = pooled + per_ref[j];
                }
                // Each reference is compared with the same hypothesis, so the pooled
                // hypothesis total is N times its own.
                self.prf(variant, pooled)
            }
            MultiRef::Best | MultiRef::BestF => {
                let mut best: Option<(Prf, f64)> = None;
                for &j in subset {
                    let s = self.prf(variant, per_ref[j]);
                    let key = match self.multi_ref {
                        MultiRef::Best => self.best_key(variant, per_ref[j], s.recall),
                        _ => s.fmeasure,
                    };
                    if best.is_none_or(|(_, b)| key > b) {
                        best = Some((s, key));
                    }
                }
                best.map(|(s, _)| s).unwrap_or_default()
            }
        }
    }

    /// Final scores of one variant from its per-reference counts.
    fn combine(&self, variant: Variant, per_ref: &[Counts], subset: &mut Vec<usize>) -> Prf {
        let n = per_ref.len();
        if !self.jackknife || n < 2 {
            subset.clear();
            subset.extend(0..n);
            return self.aggregate(variant, per_ref, subset);
        }
        let mut sum = Prf::default();
        for left_out in 0..n {
            subset.clear();
            subset.extend((0..n).filter(|&j| j != left_out));
            let s = self.aggregate(variant, per_ref, subset);
            sum.precision += s.precision;
            sum.recall += s.recall;
            sum.fmeasure += s.fmeasure;
        }
        let k = n as f64;
        Prf {
            precision: sum.precision / k,
            recall: sum.recall / k,
            fmeasure: sum.fmeasure / k,
        }
    }
}

/// Hypotheses longer than this take the linear-memory LCS masks (`kernels/lcs_long.rs`).
const LONG_LCS: usize = 4096;

/// Per-thread buffers: every kernel's tables, kept between pairs and between calls.
#[derive(Default)]
pub struct Scratch {
    lcs: LcsMatcher,
    long_lcs: LongLcs,
    wlcs: WlcsScratch,
    ngram: NgramScratch,
    skip: SkipBigramScratch,
    wlcs155: Wlcs155Scratch,
    summary: SummaryLcsScratch,
    per_ref: Vec<Counts>,
    subset: Vec<usize>,
}

/// Sufficient statistics of one variant for `hyp` against each reference, into `out`. A text
/// is one line here (`rougeLsum` equals `rougeL` with clipping); see [`score_docs`] for lines.
pub fn variant_counts<'a>(
    scratch: &mut Scratch,
    variant: Variant,
    compat: Compat,
    hyp: &[u32],
    refs: impl Iterator<Item = &'a [u32]>,
    out: &mut Vec<Counts>,
) {
    out.clear();
    let n = hyp.len() as f64;
    match (variant, compat) {
        (Variant::Ngram(order), _) => {
            scratch.ngram.prepare(hyp, order);
            out.extend(refs.map(|r| scratch.ngram.overlap(hyp, r)));
        }
        (Variant::Lcs, _) if hyp.len() > LONG_LCS => {
            // Masks in linear memory (one dense mask per distinct symbol would be quadratic).
            scratch.long_lcs.prepare(hyp);
            out.extend(refs.map(|r| {
                let hit = scratch.long_lcs.lcs(r) as f64;
                Counts::new(hit, n, r.len() as f64)
            }));
        }
        (Variant::Lcs, _) => {
            let mut refs = refs.peekable();
            match (refs.next(), refs.peek()) {
                (Some(r), None) if r.len() <= LONG_LCS => {
                    // One reference: it is the pattern (the LCS length is symmetric), so the
                    // pairs that share it, consecutive in a batch, prepare its masks once.
                    scratch.lcs.prepare(r);
                    out.push(Counts::new(scratch.lcs.lcs(hyp) as f64, n, r.len() as f64));
                }
                (first, _) => {
                    scratch.lcs.prepare(hyp);
                    out.extend(
                        first
                            .into_iter()
                            .chain(refs)
                            .map(|r| Counts::new(scratch.lcs.lcs(r) as f64, n, r.len() as f64)),
                    );
                }
            }
        }
        (Variant::Wlcs(w), Compat::Rouge155) => {
            out.extend(refs.map(|r| scratch.wlcs155.counts(r, hyp, w)));
        }
        (Variant::Wlcs(w), _) => {
            let fn_ = scratch.wlcs.length_power(hyp.len(), w);
            out.extend(refs.map(|r| {
                let hit = scratch.wlcs.wlcs(r, hyp, w);
                Counts::new(hit, fn_, scratch.wlcs.length_power(r.len(), w))
            }));
        }
        (Variant::Skip { max_gap, unigrams }, Compat::Rouge155) if unigrams => {
            // Skip-bigrams, plus the unigrams of every token but the last.
            let head = &hyp[..hyp.len().saturating_sub(1)];
            scratch.ngram.prepare(head, 1);
            out.extend(refs.map(|r| {
                let r_head = &r[..r.len().saturating_sub(1)];
                scratch.skip.counts(hyp, r, max_gap, false) + scratch.ngram.overlap(head, r_head)
            }));
        }
        (Variant::Skip { max_gap, unigrams }, _) => {
            // The texts that pairs share (a reference of several systems) are prepared once.
            out.extend(refs.map(|r| scratch.skip.counts(hyp, r, max_gap, unigrams)));
        }
        (Variant::LcsSum, _) => {
            out.extend(refs.map(|r| scratch.summary.counts(&[hyp], &[r])));
        }
    }
}

/// Runs `counts_of(scratch, variant, per_ref)` for each variant and writes P, R, F to `out`.
fn score_with(
    config: &RougeConfig,
    scratch: &mut Scratch,
    out: &mut [f64],
    mut counts_of: impl FnMut(&mut Scratch, Variant, &mut Vec<Counts>),
) {
    let mut per_ref = std::mem::take(&mut scratch.per_ref);
    let mut subset = std::mem::take(&mut scratch.subset);
    for (k, &variant) in config.variants.iter().enumerate() {
        counts_of(scratch, variant, &mut per_ref);
        let s = config.combine(variant, &per_ref, &mut subset);
        out[3 * k] = s.precision;
        out[3 * k + 1] = s.recall;
        out[3 * k + 2] = s.fmeasure;
    }
    scratch.per_ref = per_ref;
    scratch.subset = subset;
}

/// Scores one hypothesis against its references: `out` gets P, R, F for each variant.
pub fn score_hypothesis<'a>(
    config: &RougeConfig,
    hyp: &[u32],
    refs: impl Iterator<Item = &'a [u32]> + Clone,
    out: &mut [f64],
) {
    with_scratch(|scratch: &mut Scratch| {
        score_with(config, scratch, out, |scratch, variant, per_ref| {
            variant_counts(scratch, variant, config.compat, hyp, refs.clone(), per_ref)
        })
    });
}

/// ROUGE's statistics row: P, R, F of each variant (the corpus score is their mean).
impl Metric for RougeConfig {
    type Scratch = Scratch;
    type Context = ();
    const PAIR_LOCAL_IDS: bool = true;
    const TASK_PAIRS: usize = 64;

    fn width(&self) -> usize {
        3 * self.variants.len()
    }

    /// Only under a limit and with a variant that checks it (ROUGE-W): every other
    /// configuration has no pass over its pairs at all.
    fn checks_pairs(&self) -> bool {
        self.grid_limit().is_some()
    }

    fn check_pair(&self, pair: Pair<'_>) -> Result<()> {
        self.check_size(pair.hyp(), pair.refs(), None)
    }

    /// Names the reference too (`refs[i][k]`), so the command line can give its file and line.
    fn check_batch_pair(&self, pair: Pair<'_>, i: usize) -> Result<()> {
        self.check_size(pair.hyp(), pair.refs(), Some(i))
    }

    /// One reference each way: the counts of (b, a) are those of (a, b) with the two totals
    /// swapped, so P and R swap and F is recomputed. Only for the variants whose counts are
    /// symmetric (n-grams, LCS, skip-bigrams), the paper's and rouge-score's conventions,
    /// and no jackknife.
    fn has_mirror(&self) -> bool {
        !self.jackknife
            && self.compat != Compat::Rouge155
            && self
                .variants
                .iter()
                .all(|v| matches!(v, Variant::Ngram(_) | Variant::Lcs | Variant::Skip { .. }))
    }

    /// ROUGE-L alone: the block's texts renumbered with dense local symbols, so each row's
    /// bit-parallel masks are built once in a small dense table ([`LcsBits`]).
    fn prepare_matrix(&self, docs: &Docs<'_>, texts: &[u32]) -> Option<Prepared> {
        if !self.variants.iter().all(|&v| v == Variant::Lcs) {
            return None;
        }
        let mut local: HashMap<u32, u32> = HashMap::new();
        let mut block = LcsBlock {
            tokens: Vec::new(),
            offsets: vec![0],
            vocabulary: 0,
        };
        for &t in texts {
            for &id in docs.tokens(t as usize) {
                let next = local.len() as u32;
                block.tokens.push(*local.entry(id).or_insert(next));
            }
            block.offsets.push(block.tokens.len());
        }
        block.vocabulary = local.len();
        Some(Box::new(block))
    }

    fn prepared_row(&self, prepared: &Prepared, row: usize, cols: &[u32], cells: &mut [f64]) {
        let Some(block) = prepared.downcast_ref::<LcsBlock>() else {
            unreachable!("a ROUGE-L block")
        };
        let hyp = block.text(row);
        let n = hyp.len() as f64;
        with_scratch(|s: &mut LcsRowScratch| {
            s.bits.set_row(hyp, block.vocabulary);
            for (&c, out) in cols.iter().zip(cells.chunks_exact_mut(self.width())) {
                let r = block.text(c as usize);
                let counts = Counts::new(s.bits.lcs(r) as f64, n, r.len() as f64);
                s.per_ref.clear();
                s.per_ref.push(counts);
                let prf = self.combine(Variant::Lcs, &s.per_ref, &mut s.subset);
                for o in out.chunks_exact_mut(3) {
                    o[0] = prf.precision;
                    o[1] = prf.recall;
                    o[2] = prf.fmeasure;
                }
            }
        });
    }

    fn mirror(&self, _a: &[u32], _b: &[u32], row: &[f64], out: &mut [f64]) {
        for (o, r) in out.chunks_exact_mut(3).zip(row.chunks_exact(3)) {
            let (precision, recall) = (r[1], r[0]);
            o[0] = precision;
            o[1] = recall;
            o[2] = f_measure(precision, recall, self.beta);
        }
    }

    fn pair_statistics(&self, _: &(), scratch: &mut Scratch, pair: Pair<'_>, row: &mut [f64]) {
        // Line lists borrow the pair, so they live here (empty, unallocated, without lines).
        let (mut hyp_lines, mut ref_lines) = (Vec::new(), Vec::new());
        score_with(self, scratch, row, |scratch, variant, per_ref| {
            if variant == Variant::LcsSum && pair.has_lines() {
                per_ref.clear();
                pair.hyp_lines(&mut hyp_lines);
                for k in 0..pair.n_refs() {
                    pair.ref_lines(k, &mut ref_lines);
                    per_ref.push(scratch.summary.counts(&hyp_lines, &ref_lines));
                }
            } else {
                variant_counts(
                    scratch,
                    variant,
                    self.compat,
                    pair.hyp(),
                    pair.refs(),
                    per_ref,
                );
            }
        });
    }
}

/// A matrix block prepared for ROUGE-L: its texts in dense local symbols.
struct LcsBlock {
    tokens: Vec<u32>,
    offsets: Vec<usize>,
    vocabulary: usize,
}

impl LcsBlock {
    fn text(&self, t: usize) -> &[u32] {
        &self.tokens[self.offsets[t]..self.offsets[t + 1]]
    }
}

#[derive(Default)]
struct LcsRowScratch {
    bits: LcsBits,
    per_ref: Vec<Counts>,
    subset: Vec<usize>,
}

/// Scores hypotheses `hyps[i]` (text indices into `docs`) against `ref_sets.get(i)`, on the
/// current rayon pool. Returns a row-major `n × variants × 3` array of P, R, F.
pub fn score_docs(
    config: &RougeConfig,
    docs: &Docs<'_>,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_batch(config, docs, hyps, ref_sets)
}

/// Scores hypotheses `hyps[i]` (indices into `sentences`) against `ref_sets.get(i)`, on the
/// current rayon pool. Returns a row-major `n × variants × 3` array of P, R, F.
pub fn score_batch(
    config: &RougeConfig,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    score_docs(config, &Docs::single_lines(sentences), hyps, ref_sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(variants: &[&str], multi_ref: MultiRef, jackknife: bool) -> RougeConfig {
        let v = variants
            .iter()
            .map(|n| Variant::parse(n).unwrap())
            .collect();
        RougeConfig::new(v, 1.0, multi_ref, jackknife, Compat::Paper).unwrap()
    }

    fn score(config: &RougeConfig, hyp: &[u32], refs: &[&[u32]]) -> Vec<f64> {
        let mut out = vec![0.0; 3 * config.variants.len()];
        score_hypothesis(config, hyp, refs.iter().copied(), &mut out);
        out
    }

    #[test]
    fn parse_variants() {
        assert_eq!(Variant::parse("rouge1").unwrap(), Variant::Ngram(1));
        assert_eq!(Variant::parse("rouge9").unwrap(), Variant::Ngram(9));
        assert_eq!(Variant::parse("rougeL").unwrap(), Variant::Lcs);
        assert_eq!(Variant::parse("rougeW-1.2").unwrap(), Variant::Wlcs(1.2));
        assert_eq!(
            Variant::parse("rougeS4").unwrap(),
            Variant::Skip {
                max_gap: Some(4),
                unigrams: false
            }
        );
        assert_eq!(
            Variant::parse("rougeSU*").unwrap(),
            Variant::Skip {
                max_gap: None,
                unigrams: true
            }
        );
        for bad in [
            "rouge0",
            "rouge10",
            "rougeQ",
            "rougeW-",
            "rougeW-0.5",
            "rougeS",
            "rougeS-1",
            "L",
        ] {
            let e = Variant::parse(bad).unwrap_err();
            assert!(matches!(e, Error::Config(_)), "{bad}");
        }
        assert!(Variant::parse("rougeQ")
            .unwrap_err()
            .to_string()
            .contains("'rougeQ'"));
    }

    #[test]
    fn paper_s1_to_s4() {
        let c = cfg(&["rougeL", "rougeS*"], MultiRef::Max, false);
        let s1: &[u32] = &[0, 1, 2, 3];
        let s2 = score(&c, &[0, 4, 2, 3], &[s1]);
        assert_eq!((s2[2], s2[5]), (0.75, 0.5));
        let s3 = score(&c, &[2, 3, 4, 0], &[s1]);
        assert_eq!(s3[2], 0.5);
        assert!((s3[5] - 1.0 / 6.0).abs() < 1e-15);
        let s4 = score(&c, &[2, 3, 0, 1], &[s1]);
        assert_eq!(s4[2], 0.5);
        assert!((s4[5] - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn multi_ref_rules() {
        // hyp a b c d ; ref1 a b (R 1, P .5) ; ref2 a x c y d z (R .5, P .75)
        let hyp: &[u32] = &[0, 1, 2, 3];
        let r1: &[u32] = &[0, 1];
        let r2: &[u32] = &[0, 9, 2, 8, 3, 7];
        let max = score(&cfg(&["rouge1"], MultiRef::Max, false), hyp, &[r1, r2]);
        assert_eq!(&max[..2], &[0.75, 1.0]);
        let avg = score(&cfg(&["rouge1"], MultiRef::Average, false), hyp, &[r1, r2]);
        assert_eq!(&avg[..2], &[5.0 / 8.0, 5.0 / 8.0]);
        let best = score(&cfg(&["rouge1"], MultiRef::Best, false), hyp, &[r1, r2]);
        assert_eq!(&best[..2], &[0.5, 1.0]);
        let best_f = score(&cfg(&["rouge1"], MultiRef::BestF, false), hyp, &[r1, r2]);
        // F(ref1) = 2/3, F(ref2) = 0.6
        assert_eq!(&best_f[..2], &[0.5, 1.0]);
        let jk = score(&cfg(&["rouge1"], MultiRef::Max, true), hyp, &[r1, r2]);
        // leave-one-out subsets are single references: mean of their P, R, F
        assert_eq!(&jk[..2], &[(0.5 + 0.75) / 2.0, (1.0 + 0.5) / 2.0]);
        assert!((jk[2] - (2.0 / 3.0 + 0.6) / 2.0).abs() < 1e-15);
    }

    #[test]
    fn empty_sides_score_zero() {
        let c = cfg(
            &["rouge1", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU*"],
            MultiRef::Max,
            false,
        );
        for (h, r) in [
            (&[][..], &[1u32][..]),
            (&[1][..], &[][..]),
            (&[][..], &[][..]),
        ] {
            let s = score(&c, h, &[r]);
            assert!(s.iter().all(|&x| x == 0.0), "{s:?}");
        }
        // One token each: no skip-bigrams, so ROUGE-S is 0, not NaN.
        let s = score(&c, &[1], &[&[1]]);
        assert_eq!(&s[9..12], &[0.0, 0.0, 0.0]);
        assert_eq!(&s[12..15], &[1.0, 1.0, 1.0]);
    }

    /// Skip-bigram rows of a batch whose references are shared by consecutive pairs (the
    /// systems of a segment; a prepared reference serves them) equal the rows of each pair
    /// scored alone with fresh buffers, bit for bit, for 1 and 3 threads.
    #[test]
    fn shared_references_score_as_pairs_alone() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as u32
        };
        let texts: Vec<Vec<u32>> = (0..300)
            .map(|i| {
                let len = next(40) as usize + if i % 50 == 0 { 300 } else { 0 };
                (0..len)
                    .map(|_| next(if i % 3 == 0 { 5 } else { 30 }))
                    .collect()
            })
            .collect();
        let sentences = Sentences::from_ids(&texts);
        let (mut hyps, mut sets) = (Vec::new(), RefSets::new());
        for segment in 0..60u32 {
            let n_refs = 1 + (segment % 4 == 0) as u32 + (segment % 8 == 0) as u32;
            for system in 0..1 + next(9) {
                hyps.push(100 + (segment * 7 + system * 13) % 200);
                sets.push((0..n_refs).map(|j| (segment + 37 * j) % 100));
            }
        }
        let names = [
            "rougeS4", "rougeSU4", "rougeS*", "rougeSU*", "rougeS0", "rougeSU9",
        ];
        for compat in [Compat::Paper, Compat::Rouge155] {
            let variants = names.iter().map(|n| Variant::parse(n).unwrap()).collect();
            let config = RougeConfig::new(variants, 1.0, MultiRef::Max, false, compat).unwrap();
            let width = config.width();
            let mut alone = vec![0.0; hyps.len() * width];
            for (i, row) in alone.chunks_exact_mut(width).enumerate() {
                let refs = sets.get(i).iter().map(|&r| sentences.get(r as usize));
                let hyp = sentences.get(hyps[i] as usize);
                score_with(&config, &mut Scratch::default(), row, |s, v, out| {
                    variant_counts(s, v, compat, hyp, refs.clone(), out)
                });
            }
            for threads in [1, 3] {
                let rows = crate::pool::run(Some(threads), || {
                    score_batch(&config, &sentences, &hyps, &sets)
                })
                .unwrap()
                .unwrap();
                let same = rows
                    .iter()
                    .zip(&alone)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{compat:?}, {threads} threads");
            }
        }
    }

    /// ROUGE-W and ROUGE-S/SU refuse a pair whose grid (hypothesis words × reference words)
    /// is over max_words², before any work, naming it `hyps[i]` and `refs[i][k]` (the lowest
    /// such pair of the batch, on the batch-wide and the chunked paths alike); other variants
    /// check nothing, and a limit never changes a row.
    #[test]
    fn size_limit_refuses_the_first_grid_over_max_words_squared() {
        use crate::metrics::chunked::{statistics_of_chunk, statistics_of_texts, CHUNK_PAIRS};
        use crate::metrics::metric::statistics_batch;
        use crate::text::encoder::Encoder;
        use crate::text::tokenize::{Tokenizer, TokenizerKind};
        let words = |n: usize| (0..n).map(|k| format!("w{}", k % 7)).collect::<Vec<_>>();
        let text = |n: usize| words(n).join(" ");
        // Pair 1 is 11 × 11 = 121 > 10², pair 700 is 101 × 1 = 101 > 100, pair 2 is 100 × 1.
        let mut texts: Vec<String> = vec![text(3), text(11), text(100), text(1), text(101)];
        texts.extend((0..CHUNK_PAIRS).map(|k| text(2 + k % 5)));
        let n = 3 * CHUNK_PAIRS;
        let mut hyps: Vec<u32> = (0..n).map(|i| 5 + (i % CHUNK_PAIRS) as u32).collect();
        let mut sets = RefSets::new();
        for i in 0..n {
            let (h, refs): (u32, Vec<u32>) = match i {
                1 => (1, vec![0, 1]),
                2 => (2, vec![3]),
                700 => (4, vec![3]),
                _ => (hyps[i], vec![hyps[(i + 1) % n]]),
            };
            hyps[i] = h;
            sets.push(refs);
        }
        let encoder = Encoder::plain(Tokenizer::new(TokenizerKind::Whitespace, false));
        let encoded = encoder.encode_texts(&texts);
        let docs = encoded.docs().unwrap();
        let limited = |names: &[&str], max_words| {
            let v = names.iter().map(|n| Variant::parse(n).unwrap()).collect();
            RougeConfig::new(v, 1.0, MultiRef::Max, false, Compat::Paper)
                .unwrap()
                .with_max_words(max_words)
                .unwrap()
        };
        let first = "hyps[1] and refs[1][1] have 11 × 11 words, over ROUGE's limit of \
                     max_words² = 100 word pairs for max_words=10 (the time of ROUGE-W grows \
                     with the product of the lengths)";
        let w = limited(&["rouge1", "rougeW-1.2"], Some(10));
        assert!(w.checks_pairs());
        let refused = |e: Error| match e {
            Error::Input(m) => m,
            other => panic!("{other:?}"),
        };
        let batch = refused(statistics_batch(&w, &docs, &hyps, &sets).unwrap_err());
        assert!(batch.starts_with(first), "{batch}");
        assert!(batch.contains("max_words=None"), "{batch}");
        for threads in [1, 3] {
            let e = crate::pool::run(Some(threads), || {
                statistics_of_texts(&w, &encoder, &texts, &hyps, &sets)
            })
            .unwrap()
            .unwrap_err();
            assert_eq!(refused(e), batch, "{threads} threads");
        }
        // A chunk names its pairs by their batch indices (pair 700 alone here).
        let (hyp_texts, mut part) = (vec![texts[4].as_str(), texts[0].as_str()], RefSets::new());
        part.push([3]);
        part.push([0]);
        let refusal = statistics_of_chunk(&w, &encoder, &hyp_texts, &texts, &part, &[700, 9])
            .unwrap()
            .unwrap_err();
        assert_eq!(refusal.pair, 700);
        assert!(refused(refusal.error).starts_with("hyps[700] and refs[700][0] have 101 × 1"));
        let s = limited(&["rougeSU4"], Some(10));
        let e = refused(statistics_batch(&s, &docs, &hyps, &sets).unwrap_err());
        assert!(e.contains("(the time of ROUGE-SU grows"), "{e}");
        // Within the limit, without one, or with variants that check nothing: the same rows.
        let names = ["rouge2", "rougeL", "rougeW-1.2", "rougeS*", "rougeSU4"];
        let free = statistics_batch(&limited(&names, None), &docs, &hyps, &sets).unwrap();
        let wide = statistics_batch(&limited(&names, Some(11)), &docs, &hyps, &sets).unwrap();
        assert_eq!(free, wide);
        let unchecked = limited(&["rouge2", "rougeL", "rougeLsum"], Some(1));
        assert!(!unchecked.checks_pairs() && !limited(&names, None).checks_pairs());
        let rows = statistics_batch(&unchecked, &docs, &hyps, &sets).unwrap();
        let by_chunks = statistics_of_texts(&unchecked, &encoder, &texts, &hyps, &sets);
        assert_eq!(rows, by_chunks.unwrap().0);
        assert_eq!(
            RougeConfig::new(vec![Variant::Lcs], 1.0, MultiRef::Max, false, Compat::Paper)
                .unwrap()
                .max_words,
            Some(DEFAULT_MAX_WORDS)
        );
        assert!(limited(&["rougeL"], None).with_max_words(Some(0)).is_err());
    }

    #[test]
    fn config_errors() {
        let v = vec![Variant::Lcs];
        for beta in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                RougeConfig::new(v.clone(), beta, MultiRef::Max, false, Compat::Paper).is_err()
            );
        }
        assert!(RougeConfig::new(vec![], 1.0, MultiRef::Max, false, Compat::Paper).is_err());
        assert!(MultiRef::parse("mean").is_err());
        assert!(Compat::parse("rouge156").is_err());
    }
}

/// ROUGE's contract: options (variants, the stemmer, the size limit), columns.
mod native {
    use super::{Compat, MultiRef, RougeConfig, Variant, DEFAULT_MAX_WORDS};
    use crate::metrics::contract::{CellScore, Configured, Contract};
    use crate::options::{
        max_words, DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_YES, TOKENIZE_UNICODE,
    };
    use crate::text::encoder::Encoder;
    use crate::text::stem::Stemmer;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};
    use crate::{Error, Result};

    /// Options that cannot go together: stemming needs word tokens, lines need '\n' to
    /// separate.
    fn check_tokenizer(kind: TokenizerKind, stem: bool, lines: bool) -> Result<()> {
        let chars = matches!(kind, TokenizerKind::Char | TokenizerKind::Codepoint);
        if stem && chars {
            return Err(Error::Config(format!(
                "stem=True needs word tokens, not tokenize='{}'",
                kind.name()
            )));
        }
        if lines && kind == TokenizerKind::Codepoint {
            return Err(Error::Config(
                "rougeLsum splits texts into lines, which tokenize='codepoint' would keep as \
                 tokens"
                    .into(),
            ));
        }
        Ok(())
    }

    /// A variant's name as `Variant::parse` reads it.
    fn name(v: &Variant) -> String {
        let gap = |g: &Option<usize>| g.map_or("*".to_string(), |d| d.to_string());
        match v {
            Variant::Ngram(n) => format!("rouge{n}"),
            Variant::Lcs => "rougeL".into(),
            Variant::LcsSum => "rougeLsum".into(),
            Variant::Wlcs(w) => format!("rougeW-{w}"),
            Variant::Skip { max_gap, unigrams } => {
                format!(
                    "rouge{}{}",
                    if *unigrams { "SU" } else { "S" },
                    gap(max_gap)
                )
            }
        }
    }

    impl Contract for RougeConfig {
        const NAME: &'static str = "rouge";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "variants",
                Kind::Names,
                D::Required,
                "the ROUGE variants scored",
            ),
            TOKENIZE_UNICODE,
            LOWERCASE_YES,
            OptionSpec::new(
                "beta",
                Kind::Float,
                D::Float(1.0),
                "the F-measure's beta (> 0)",
            ),
            OptionSpec::new(
                "multi_ref",
                Kind::Str,
                D::Str("max"),
                "how several references combine",
            )
            .choices(MultiRef::NAMES),
            OptionSpec::new(
                "jackknife",
                Kind::Bool,
                D::Bool(false),
                "mean over leave-one-out reference sets",
            ),
            OptionSpec::new(
                "compat",
                Kind::Str,
                D::Str("paper"),
                "the convention followed",
            )
            .choices(Compat::NAMES),
            OptionSpec::new(
                "stemmer",
                Kind::Str,
                D::None,
                "the stemmer (None: no stemming)",
            )
            .choices(Stemmer::NAMES),
            max_words(DEFAULT_MAX_WORDS),
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let variants = o
                .names("variants")
                .iter()
                .map(|v| Variant::parse(v))
                .collect::<Result<Vec<_>>>()?;
            let metric = RougeConfig::new(
                variants,
                o.f64("beta"),
                MultiRef::parse(o.str("multi_ref"))?,
                o.bool("jackknife"),
                Compat::parse(o.str("compat"))?,
            )
            .and_then(|c| c.with_max_words(o.opt_usize("max_words")?))?;
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            let stemmer = o.opt_str("stemmer").map(Stemmer::parse).transpose()?;
            let lines = metric.needs_lines();
            check_tokenizer(tokenizer.kind, stemmer.is_some(), lines)?;
            Ok(Configured {
                metric,
                encoder: Encoder {
                    tokenizer,
                    stemmer,
                    lines,
                },
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![self.variants.len(), 3]
        }

        /// Per variant: precision, recall, F.
        fn columns(&self) -> Vec<String> {
            let prf = ["precision", "recall", "fmeasure"];
            self.variants
                .iter()
                .flat_map(|v| prf.map(|s| format!("{}_{s}", name(v))))
                .collect()
        }

        /// Scalar k is the F-measure of variant k.
        fn row_score(&self, k: usize) -> Option<CellScore<'_>> {
            (k < self.variants.len())
                .then(|| -> CellScore<'_> { Box::new(move |row| row[3 * k + 2]) })
        }

        /// `multi_ref="max"` without jackknife (eqs. 7-9): P and R are the maxima of the
        /// single references' and F is computed from them, as scoring the set does.
        fn combine_single(&self, k: usize) -> Option<CellScore<'_>> {
            (k < self.variants.len() && self.combines_singles())
                .then(|| -> CellScore<'_> { Box::new(move |rows| self.max_of_singles(k, rows)) })
        }
    }
}
