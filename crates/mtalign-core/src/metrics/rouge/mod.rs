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
        max_gap: Option<usize>,
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
    pub precision: f64,
    pub recall: f64,
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

#[derive(Debug, Clone, PartialEq)]
pub struct RougeConfig {
    pub variants: Vec<Variant>,
    pub beta: f64,
    pub multi_ref: MultiRef,
    pub jackknife: bool,
    pub compat: Compat,
}

impl RougeConfig {
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
        })
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
            let fn_ = n.powf(w);
            out.extend(refs.map(|r| {
                let hit = scratch.wlcs.wlcs(r, hyp, w);
                Counts::new(hit, fn_, (r.len() as f64).powf(w))
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
