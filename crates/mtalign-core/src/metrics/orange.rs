//! ORANGE's scores (Lin & Och 2004, section 4) natively: for each source sentence, every
//! candidate scored against the R leave-one-out reference sets (the mean of the R scores:
//! jackknifing) and every reference against the other R−1 references.
//!
//! Two ways, the same numbers as `mtalign.orange` computes them in Python:
//!
//! * [`Scoring::Single`]: a metric whose score against a set is a function of its rows
//!   against each member alone (WER/PER take the best reference, ROUGE with
//!   `multi_ref="max"` the maximum P and R) scores each candidate against each reference
//!   *once* and builds the R leave-one-out sets from those rows (R comparisons instead of
//!   R·(R−1));
//! * [`Scoring::Sets`]: any other metric scores each candidate against each leave-one-out
//!   set.
//!
//! The scoring runs through the matrix runner ([`statistics_matrices`] /
//! [`scores_matrices`]: one task per candidate, per-text preparation, bit-identical to the
//! flat batch for any thread count) in groups of whole sentences of at most `max_cells`
//! cells, so memory holds one group's statistics whatever the list length. Identical
//! candidates of one sentence are scored once. The R values of a candidate are summed left
//! to right and divided by R, as Python's sequential mean does, so the numbers are
//! bit-identical to `mtalign.orange` for any thread count and group size.

use crate::metrics::matrix::{scores_matrices, statistics_matrices, MatrixBlock};
use crate::metrics::metric::{with_scratch, Metric};
use crate::text::docs::Docs;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use rayon::prelude::*;

/// Scalar score of one statistics row.
pub type RowScore<'a> = &'a (dyn Fn(&[f64]) -> f64 + Sync);

/// Scalar score against a set, from the rows against each member alone (contiguous,
/// `width` each, in the set's order).
pub type SetScore<'a> = &'a (dyn Fn(&[f64]) -> f64 + Sync);

/// How a candidate's score against a leave-one-out set is computed.
#[derive(Clone, Copy)]
pub enum Scoring<'a> {
    /// Scored against the set as a set: the scalar of its statistics row.
    Sets(RowScore<'a>),
    /// Combined from single-reference rows.
    Single(SetScore<'a>),
}

/// Source sentences: each one's candidates and references (text indices), CSR-style.
#[derive(Debug, Clone, Default)]
pub struct Lists {
    /// Per source sentence: its candidates (text indices).
    pub candidates: RefSets,
    /// Per source sentence: its references (text indices).
    pub references: RefSets,
}

/// ORANGE's scores of every sentence, flat in input order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrangeScores {
    /// Per candidate: the mean over the R leave-one-out sets.
    pub candidates: Vec<f64>,
    /// Per reference: its score against the other references.
    pub references: Vec<f64>,
}

/// Cells per group of sentences scored together (statistics of one group live at once).
pub const GROUP_CELLS: usize = 1 << 18;

/// ORANGE's candidate and reference scores (see the module doc). `max_cells` bounds the
/// cells of one group of sentences (at least one sentence per group); it changes memory,
/// never a result. A pair's statistics must not depend on the rest of the batch (the
/// bindings check it: not METEOR, not NIST with corpus weights), since groups are batches.
pub fn orange_scores<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    lists: &Lists,
    scoring: Scoring<'_>,
    max_cells: usize,
) -> Result<OrangeScores> {
    let mut out = orange_scores_many(metric, docs, lists, &[scoring], max_cells)?;
    Ok(out.pop().unwrap_or_default())
}

/// [`orange_scores`] of several scalars of one metric at once (e.g. ROUGE-L, ROUGE-W and
/// ROUGE-S4 of one `Rouge`), one result per scoring, each bit-identical to its own call:
/// the distinct candidates are found once per sentence, and the single-reference rows are
/// computed once for every [`Scoring::Single`] scoring.
pub fn orange_scores_many<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    lists: &Lists,
    scorings: &[Scoring<'_>],
    max_cells: usize,
) -> Result<Vec<OrangeScores>> {
    let n = lists.candidates.len();
    if lists.references.len() != n {
        return Err(Error::Input(format!(
            "candidates has {n} sentences but refs has {}",
            lists.references.len()
        )));
    }
    for i in 0..n {
        if lists.candidates.get(i).is_empty() {
            return Err(Error::Input(format!("candidates[{i}] is empty")));
        }
        let r = lists.references.get(i).len();
        if r < 2 {
            return Err(Error::Input(format!(
                "refs[{i}] has {r} reference(s); ORANGE needs at least 2 per sentence"
            )));
        }
    }
    let mut out = vec![OrangeScores::default(); scorings.len()];
    let mut dedup = Dedup::new(docs.len());
    let mut start = 0;
    while start < n {
        let mut end = start;
        let mut cells = 0;
        while end < n && (end == start || cells + sentence_cells(lists, end) <= max_cells) {
            cells += sentence_cells(lists, end);
            end += 1;
        }
        let group = Group::new(lists, start..end, &mut dedup);
        if scorings.iter().any(|s| matches!(s, Scoring::Single(_))) {
            group.single(metric, docs, lists, scorings, &mut out)?;
        }
        for (scoring, out) in scorings.iter().zip(out.iter_mut()) {
            if let Scoring::Sets(score) = *scoring {
                group.sets(metric, docs, lists, score, out)?;
            }
        }
        start = end;
    }
    Ok(out)
}

/// The cells one sentence costs at most (candidates × references, references × references).
fn sentence_cells(lists: &Lists, i: usize) -> usize {
    let r = lists.references.get(i).len();
    (lists.candidates.get(i).len() + r) * r
}

/// Distinct candidates of one sentence: text index → local index, reset by a stamp.
struct Dedup {
    stamp: Vec<u32>,
    local: Vec<u32>,
    round: u32,
}

impl Dedup {
    fn new(texts: usize) -> Self {
        Dedup {
            stamp: vec![0; texts],
            local: vec![0; texts],
            round: 0,
        }
    }

    /// The distinct texts of `cands` in first-seen order, and each candidate's position
    /// among them.
    fn split(&mut self, cands: &[u32], distinct: &mut Vec<u32>, which: &mut Vec<u32>) {
        self.round += 1;
        distinct.clear();
        which.clear();
        for &c in cands {
            let c_us = c as usize;
            if self.stamp[c_us] != self.round {
                self.stamp[c_us] = self.round;
                self.local[c_us] = distinct.len() as u32;
                distinct.push(c);
            }
            which.push(self.local[c_us]);
        }
    }
}

/// One group of sentences: each one's distinct candidates and each candidate's position
/// among them.
struct Group {
    sentences: std::ops::Range<usize>,
    distinct: Vec<Vec<u32>>,
    which: Vec<Vec<u32>>,
}

impl Group {
    fn new(lists: &Lists, sentences: std::ops::Range<usize>, dedup: &mut Dedup) -> Self {
        let mut distinct = Vec::with_capacity(sentences.len());
        let mut which = Vec::with_capacity(sentences.len());
        for i in sentences.clone() {
            let (mut d, mut w) = (Vec::new(), Vec::new());
            dedup.split(lists.candidates.get(i), &mut d, &mut w);
            distinct.push(d);
            which.push(w);
        }
        Group {
            sentences,
            distinct,
            which,
        }
    }

    /// Every [`Scoring::Single`] of `scorings` into its `outs`, from one computation of
    /// the rows of each distinct candidate and each reference against each reference.
    fn single<M: Metric>(
        &self,
        metric: &M,
        docs: &Docs<'_>,
        lists: &Lists,
        scorings: &[Scoring<'_>],
        outs: &mut [OrangeScores],
    ) -> Result<()> {
        let mut blocks: Vec<MatrixBlock> = Vec::with_capacity(2 * self.sentences.len());
        for (s, i) in self.sentences.clone().enumerate() {
            let refs = lists.references.get(i);
            let singles = single_columns(refs);
            blocks.push(MatrixBlock {
                hyps: self.distinct[s].clone(),
                cols: singles.clone(),
                symmetric: false,
            });
            blocks.push(MatrixBlock {
                hyps: refs.to_vec(),
                cols: singles,
                symmetric: false,
            });
        }
        let width = metric.width();
        let rows = statistics_matrices(metric, docs, &blocks)?;
        let mut set = Vec::new();
        for (scoring, out) in scorings.iter().zip(outs.iter_mut()) {
            let Scoring::Single(combine) = *scoring else {
                continue;
            };
            let mut pos = 0;
            for (s, i) in self.sentences.clone().enumerate() {
                let r = lists.references.get(i).len();
                let mut means = Vec::with_capacity(self.distinct[s].len());
                for _ in 0..self.distinct[s].len() {
                    let cand = &rows[pos..pos + r * width];
                    let mut acc = 0.0;
                    for left_out in 0..r {
                        gather(cand, width, left_out, &mut set);
                        acc += combine(&set);
                    }
                    means.push(acc / r as f64);
                    pos += r * width;
                }
                out.candidates
                    .extend(self.which[s].iter().map(|&k| means[k as usize]));
                for a in 0..r {
                    gather(&rows[pos..pos + r * width], width, a, &mut set);
                    out.references.push(combine(&set));
                    pos += r * width;
                }
            }
        }
        Ok(())
    }

    /// A [`Scoring::Sets`] scoring into `out`: each distinct candidate against each
    /// leave-one-out set (the metric's own leave-one-out rows where it has them), each
    /// reference against the others.
    fn sets<M: Metric>(
        &self,
        metric: &M,
        docs: &Docs<'_>,
        lists: &Lists,
        score: RowScore<'_>,
        out: &mut OrangeScores,
    ) -> Result<()> {
        let mut blocks: Vec<MatrixBlock> = Vec::new();
        // Candidates scored by the metric's own leave-one-out rows: (sentence, text).
        let loo_rows = metric.has_leave_one_out();
        let mut loo_items: Vec<(usize, u32)> = Vec::new();
        for (s, i) in self.sentences.clone().enumerate() {
            let refs = lists.references.get(i);
            if loo_rows {
                loo_items.extend(self.distinct[s].iter().map(|&c| (i, c)));
            } else {
                blocks.push(MatrixBlock {
                    hyps: self.distinct[s].clone(),
                    cols: leave_one_out(refs),
                    symmetric: false,
                });
            }
            for (a, &r) in refs.iter().enumerate() {
                let mut others = RefSets::new();
                others.push(
                    refs.iter()
                        .enumerate()
                        .filter(|&(b, _)| b != a)
                        .map(|(_, &t)| t),
                );
                blocks.push(MatrixBlock {
                    hyps: vec![r],
                    cols: others,
                    symmetric: false,
                });
            }
        }
        let cells = scores_matrices(metric, docs, &blocks, score)?;
        let loo = if loo_rows {
            leave_one_out_means(metric, docs, lists, &loo_items, score)?
        } else {
            Vec::new()
        };
        let (mut pos, mut loo_pos) = (0, 0);
        for (s, i) in self.sentences.clone().enumerate() {
            let r = lists.references.get(i).len();
            let n_distinct = self.distinct[s].len();
            let means: Vec<f64> = if loo_rows {
                loo_pos += n_distinct;
                loo[loo_pos - n_distinct..loo_pos].to_vec()
            } else {
                pos += n_distinct * r;
                cells[pos - n_distinct * r..pos]
                    .chunks_exact(r)
                    .map(mean)
                    .collect()
            };
            out.candidates
                .extend(self.which[s].iter().map(|&k| means[k as usize]));
            out.references.extend_from_slice(&cells[pos..pos + r]);
            pos += r;
        }
        Ok(())
    }
}

/// Where the references stand among the candidates (section 4 of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oracle {
    /// The rank of the mean reference score.
    AverageScore,
    /// The mean of each reference's own rank.
    AverageRank,
}

/// The oracle's ranks: at each list's own length, and at each length of a grid.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OracleRanks {
    /// Per list, the rank among all its candidates.
    pub last: Vec<f64>,
    /// Row-major `[lists, sizes]`: the rank among the first N candidates, N = `sizes[g]`;
    /// NaN where the list is shorter than N.
    pub grid: Vec<f64>,
}

/// The oracle's rank among the candidates of each list, 1 + #better + ½·#ties (better:
/// higher, or lower when `!higher_is_better`), at each list's length and at each length of
/// `sizes` (ascending, ≥ 1), in one pass over each list (counts carried from one N to the
/// next). `candidates` / `references` are flat with `cand_offsets` / `ref_offsets` (CSR,
/// `lists + 1` entries). The mean reference score and the mean of ranks are summed left to
/// right and the rank is `(1 + better) + 0.5 · ties`, as NumPy's cumulative sums in
/// `mtalign.orange` compute them, so the numbers are the same bits.
pub fn oracle_ranks(
    candidates: &[f64],
    cand_offsets: &[usize],
    references: &[f64],
    ref_offsets: &[usize],
    oracle: Oracle,
    higher_is_better: bool,
    sizes: &[usize],
) -> Result<OracleRanks> {
    let lists = cand_offsets.len().saturating_sub(1);
    let valid = |o: &[usize], len: usize| {
        o.first() == Some(&0) && o.last() == Some(&len) && o.windows(2).all(|w| w[0] <= w[1])
    };
    if !valid(cand_offsets, candidates.len())
        || !valid(ref_offsets, references.len())
        || ref_offsets.len() != cand_offsets.len()
    {
        return Err(Error::Input(
            "candidate and reference offsets must be CSR offsets of as many lists".into(),
        ));
    }
    if sizes.windows(2).any(|w| w[0] > w[1]) || sizes.first() == Some(&0) {
        return Err(Error::Input(
            "sizes must be ascending and at least 1".into(),
        ));
    }
    let mut out = OracleRanks {
        last: Vec::with_capacity(lists),
        grid: vec![f64::NAN; lists * sizes.len()],
    };
    let mut targets = Vec::new();
    let mut counts: Vec<(u64, u64)> = Vec::new();
    for i in 0..lists {
        let cands = &candidates[cand_offsets[i]..cand_offsets[i + 1]];
        let refs = &references[ref_offsets[i]..ref_offsets[i + 1]];
        targets.clear();
        match oracle {
            Oracle::AverageScore => {
                let sum = refs.iter().fold(0.0, |acc, &v| acc + v);
                targets.push(sum / refs.len() as f64);
            }
            Oracle::AverageRank => targets.extend_from_slice(refs),
        }
        counts.clear();
        counts.resize(targets.len(), (0, 0));
        let rank = |counts: &[(u64, u64)]| {
            let ranks = counts
                .iter()
                .map(|&(b, t)| (1.0 + b as f64) + 0.5 * t as f64);
            match oracle {
                Oracle::AverageScore => ranks.fold(0.0, |_, r| r),
                Oracle::AverageRank => ranks.fold(0.0, |acc, r| acc + r) / counts.len() as f64,
            }
        };
        let grid = &mut out.grid[i * sizes.len()..(i + 1) * sizes.len()];
        let mut g = 0;
        for (j, &c) in cands.iter().enumerate() {
            for (count, &t) in counts.iter_mut().zip(&targets) {
                let better = if higher_is_better { c > t } else { c < t };
                count.0 += u64::from(better);
                count.1 += u64::from(c == t);
            }
            while g < sizes.len() && sizes[g] == j + 1 {
                grid[g] = rank(&counts);
                g += 1;
            }
        }
        out.last.push(rank(&counts));
    }
    Ok(out)
}

/// The mean of `values` summed left to right (as Python's sequential mean).
fn mean(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |acc, &v| acc + v) / values.len() as f64
}

/// Candidates per parallel task in [`leave_one_out_means`].
const LOO_TASK: usize = 16;

/// The mean over the leave-one-out sets of each item (sentence, candidate text), from the
/// metric's [`Metric::leave_one_out_rows`], in parallel (each value a function of its own
/// item: the same for any thread count).
fn leave_one_out_means<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    lists: &Lists,
    items: &[(usize, u32)],
    score: RowScore<'_>,
) -> Result<Vec<f64>> {
    let width = metric.width();
    let mut out = vec![0.0; items.len()];
    let cancel = interrupt::current();
    let fill = |(s, c): (usize, u32), value: &mut f64, buf: &mut LooBuffers<M::Scratch>| {
        if interrupt::is_set(&cancel) {
            return;
        }
        let refs: Vec<&[u32]> = lists
            .references
            .get(s)
            .iter()
            .map(|&t| docs.tokens(t as usize))
            .collect();
        buf.rows.clear();
        buf.rows.resize(refs.len() * width, 0.0);
        metric.leave_one_out_rows(
            &mut buf.metric,
            docs.tokens(c as usize),
            &refs,
            &mut buf.rows,
        );
        buf.values.clear();
        buf.values.extend(buf.rows.chunks_exact(width).map(score));
        *value = mean(&buf.values);
    };
    if items.len() <= LOO_TASK {
        with_scratch(|b: &mut LooBuffers<M::Scratch>| {
            for (&item, value) in items.iter().zip(out.iter_mut()) {
                fill(item, value, b);
            }
        });
    } else {
        items
            .par_iter()
            .zip(out.par_iter_mut())
            .with_min_len(LOO_TASK)
            .for_each(|(&item, value)| {
                with_scratch(|b: &mut LooBuffers<M::Scratch>| fill(item, value, b))
            });
    }
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    Ok(out)
}

/// Buffers of one thread in [`leave_one_out_means`].
struct LooBuffers<S> {
    metric: S,
    rows: Vec<f64>,
    values: Vec<f64>,
}

impl<S: Default> Default for LooBuffers<S> {
    fn default() -> Self {
        LooBuffers {
            metric: S::default(),
            rows: Vec::new(),
            values: Vec::new(),
        }
    }
}

/// Each reference as a one-text column.
fn single_columns(refs: &[u32]) -> RefSets {
    let mut cols = RefSets::new();
    for &r in refs {
        cols.push([r]);
    }
    cols
}

/// The R leave-one-out sets (set `l` is every reference but `l`, in order).
fn leave_one_out(refs: &[u32]) -> RefSets {
    let mut cols = RefSets::new();
    for l in 0..refs.len() {
        cols.push(
            refs.iter()
                .enumerate()
                .filter(|&(b, _)| b != l)
                .map(|(_, &t)| t),
        );
    }
    cols
}

/// The rows of `rows` (`width` each) but row `skip`, contiguous in `out`.
fn gather(rows: &[f64], width: usize, skip: usize, out: &mut Vec<f64>) {
    out.clear();
    for (j, row) in rows.chunks_exact(width).enumerate() {
        if j != skip {
            out.extend_from_slice(row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{self, BleuConfig};
    use crate::metrics::error_rate::{self, ErrorRate};
    use crate::metrics::metric::statistics_batch;
    use crate::metrics::nist::{self, Nist};
    use crate::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
    use crate::text::intern::Sentences;
    use proptest::prelude::*;

    /// The obvious computation: every candidate (duplicates too) against every leave-one-out
    /// set as a set, one flat batch, means summed left to right; each reference against the
    /// others.
    fn oracle<M: Metric>(
        metric: &M,
        docs: &Docs<'_>,
        lists: &Lists,
        score: RowScore<'_>,
    ) -> OrangeScores {
        let mut out = OrangeScores::default();
        let width = metric.width();
        for i in 0..lists.candidates.len() {
            let refs = lists.references.get(i);
            let r = refs.len();
            let loo = leave_one_out(refs);
            let (mut hyps, mut sets) = (Vec::new(), RefSets::new());
            for &c in lists.candidates.get(i) {
                for l in 0..r {
                    hyps.push(c);
                    sets.push(loo.get(l).iter().copied());
                }
            }
            for (a, &t) in refs.iter().enumerate() {
                hyps.push(t);
                sets.push(loo.get(a).iter().copied());
            }
            let rows = statistics_batch(metric, docs, &hyps, &sets).unwrap();
            let flat: Vec<f64> = rows.chunks_exact(width).map(score).collect();
            let n_c = lists.candidates.get(i).len();
            for c in 0..n_c {
                let mut acc = 0.0;
                for l in 0..r {
                    acc += flat[c * r + l];
                }
                out.candidates.push(acc / r as f64);
            }
            out.references.extend_from_slice(&flat[n_c * r..]);
        }
        out
    }

    fn rouge(name: &str, multi_ref: MultiRef) -> RougeConfig {
        let v = vec![Variant::parse(name).unwrap()];
        RougeConfig::new(v, 1.0, multi_ref, false, Compat::Paper).unwrap()
    }

    fn lists_of(shape: &[(Vec<u32>, Vec<u32>)]) -> Lists {
        let mut lists = Lists::default();
        for (c, r) in shape {
            lists.candidates.push(c.iter().copied());
            lists.references.push(r.iter().copied());
        }
        lists
    }

    /// Every way (groups of 1 sentence to all, 1 and 2 threads) equals the oracle bit for
    /// bit, for metrics combined from single-reference rows and for metrics scored by set.
    fn check(texts: &[Vec<u32>], shape: &[(Vec<u32>, Vec<u32>)]) {
        let s = Sentences::from_ids(texts);
        let docs = Docs::single_lines(&s);
        let lists = lists_of(shape);
        let run = |f: &(dyn Fn(usize) -> OrangeScores + Sync)| {
            let mut all = Vec::new();
            for threads in [1, 2] {
                for cells in [0, 9, GROUP_CELLS] {
                    all.push(crate::pool::run(Some(threads), || f(cells)).unwrap());
                }
            }
            all
        };
        for name in ["rougeL", "rouge2", "rougeS4", "rougeW-1.2"] {
            let max = rouge(name, MultiRef::Max);
            let want = oracle(&max, &docs, &lists, &|row| row[2]);
            let single = |rows: &[f64]| max.max_of_singles(0, rows);
            for got in run(&|cells| {
                orange_scores(&max, &docs, &lists, Scoring::Single(&single), cells).unwrap()
            }) {
                assert_eq!(got, want, "{name} from single references");
            }
            for got in run(&|cells| {
                orange_scores(&max, &docs, &lists, Scoring::Sets(&|row| row[2]), cells).unwrap()
            }) {
                assert_eq!(got, want, "{name} by set");
            }
            let best = rouge(name, MultiRef::BestF);
            let want = oracle(&best, &docs, &lists, &|row| row[2]);
            for got in run(&|cells| {
                orange_scores(&best, &docs, &lists, Scoring::Sets(&|row| row[2]), cells).unwrap()
            }) {
                assert_eq!(got, want, "{name} best_f by set");
            }
        }
        // Several scalars of one metric at once (a ROUGE with four variants, each scored
        // from single-reference rows and by set): each equals its own oracle.
        let names = ["rougeL", "rouge2", "rougeS4", "rougeW-1.2"];
        let variants = names.iter().map(|n| Variant::parse(n).unwrap()).collect();
        let all = RougeConfig::new(variants, 1.0, MultiRef::Max, false, Compat::Paper).unwrap();
        let all = &all;
        let singles: Vec<_> = (0..names.len())
            .map(|k| move |rows: &[f64]| all.max_of_singles(k, rows))
            .collect();
        let sets: Vec<_> = (0..names.len())
            .map(|k| move |row: &[f64]| row[3 * k + 2])
            .collect();
        let mut scorings: Vec<Scoring> = singles.iter().map(|f| Scoring::Single(f)).collect();
        scorings.extend(sets.iter().map(|f| Scoring::Sets(f)));
        let wants: Vec<OrangeScores> = names
            .iter()
            .map(|name| oracle(&rouge(name, MultiRef::Max), &docs, &lists, &|row| row[2]))
            .collect();
        for threads in [1, 2] {
            for cells in [0, 9, GROUP_CELLS] {
                let got = crate::pool::run(Some(threads), || {
                    orange_scores_many(all, &docs, &lists, &scorings, cells)
                })
                .unwrap()
                .unwrap();
                for (k, got) in got.iter().enumerate() {
                    assert_eq!(
                        *got,
                        wants[k % names.len()],
                        "{} many",
                        names[k % names.len()]
                    );
                }
            }
        }
        for kind in [ErrorRate::Wer, ErrorRate::Per] {
            let rate = |row: &[f64]| error_rate::rate(row[0], row[1]);
            let want = oracle(&kind, &docs, &lists, &rate);
            for got in run(&|cells| {
                orange_scores(
                    &kind,
                    &docs,
                    &lists,
                    Scoring::Single(&error_rate::best_rate),
                    cells,
                )
                .unwrap()
            }) {
                assert_eq!(got, want, "{kind:?}");
            }
        }
        // Sentence NIST: each pair weighted by its own references (orders 3 and 5).
        for order in [3, 5] {
            let nist = Nist::new(order, false).unwrap();
            let score = |row: &[f64]| nist::score(order, row);
            let want = oracle(&nist, &docs, &lists, &score);
            for got in run(&|cells| {
                orange_scores(&nist, &docs, &lists, Scoring::Sets(&score), cells).unwrap()
            }) {
                assert_eq!(got, want, "nist {order}");
            }
        }
        // BLEU's own leave-one-out rows (every order, length rule and an extra order).
        for (order, smooth, length) in [
            (4, "add1", "closest"),
            (6, "add1", "average"),
            (2, "method7", "shortest"),
        ] {
            let bleu = BleuConfig::new(order, smooth, None, length, false).unwrap();
            let score = |row: &[f64]| bleu::score(&bleu, row).score;
            let want = oracle(&bleu, &docs, &lists, &score);
            for got in run(&|cells| {
                orange_scores(&bleu, &docs, &lists, Scoring::Sets(&score), cells).unwrap()
            }) {
                assert_eq!(got, want, "bleu {order} {smooth} {length}");
            }
        }
    }

    #[test]
    fn the_paper_shape_by_hand() {
        // Two sentences: duplicates among the candidates, a candidate equal to a reference.
        let texts: Vec<Vec<u32>> = vec![
            vec![1, 2, 3],
            vec![1, 2, 4],
            vec![5],
            vec![1, 2, 3, 4],
            vec![2, 3],
            vec![],
        ];
        check(
            &texts,
            &[
                (vec![0, 1, 0, 2, 5], vec![3, 4, 0]),
                (vec![2, 2], vec![1, 5]),
            ],
        );
        // ROUGE-1 F of the first sentence's candidate 2 ("5") is 0 against every set.
        let s = Sentences::from_ids(&texts);
        let docs = Docs::single_lines(&s);
        let cfg = rouge("rouge1", MultiRef::Max);
        let single = |rows: &[f64]| cfg.max_of_singles(0, rows);
        let lists = lists_of(&[(vec![1, 2], vec![3, 4, 0])]);
        let got = orange_scores(&cfg, &docs, &lists, Scoring::Single(&single), 0).unwrap();
        assert_eq!(got.candidates[1], 0.0);
        // "1 2 4" against "1 2 3 4" (P 1, R 3/4), "2 3" (1/3, 1/2: one hit of 3 words
        // and of 2), "1 2 3" (2/3, 2/3): the set without the first gives F 2/3, the other
        // two P 1, R 3/4, F 6/7.
        let want = (2.0 / 3.0 + 6.0 / 7.0 + 6.0 / 7.0) / 3.0;
        assert!(
            (got.candidates[0] - want).abs() < 1e-15,
            "{}",
            got.candidates[0]
        );
        // The references: "1 2 3 4" against {"2 3", "1 2 3"}: P 1, R 3/4.
        assert!((got.references[0] - 6.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn ranks_by_hand_and_at_every_prefix() {
        // Scores 0.9, 0.1, 0.5, 0.5 against the references 0.5 and 0.7 (mean 0.6).
        let cands = [0.9, 0.1, 0.5, 0.5];
        let refs = [0.5, 0.7];
        let sizes = [1, 2, 3, 4];
        let ranks = |cand_ends: &[usize], oracle, higher, sizes: &[usize]| {
            oracle_ranks(&cands, cand_ends, &refs, &[0, 2], oracle, higher, sizes)
        };
        let by_score = ranks(&[0, 4], Oracle::AverageScore, true, &sizes).unwrap();
        // One better (0.9) at every N.
        assert_eq!(by_score.last, [2.0]);
        assert_eq!(by_score.grid, [2.0, 2.0, 2.0, 2.0]);
        let by_rank = ranks(&[0, 4], Oracle::AverageRank, true, &sizes).unwrap();
        // 0.5: better 0.9, ties 0.5 ×2 → 2 + 1 = 3; 0.7: better 0.9 → 2; mean 2.5.
        assert_eq!(by_rank.last, [2.5]);
        assert_eq!(by_rank.grid, [2.0, 2.0, 2.25, 2.5]);
        // Lower is better (error rates): 0.1 is better than 0.6; 0.5 ×2 too.
        let low = ranks(&[0, 4], Oracle::AverageScore, false, &[2, 5]).unwrap();
        assert_eq!(low.last, [4.0]);
        assert_eq!(low.grid[0], 2.0);
        assert!(low.grid[1].is_nan());
        assert!(ranks(&[0, 3], Oracle::AverageScore, true, &[]).is_err());
        assert!(ranks(&[0, 4], Oracle::AverageScore, true, &[2, 1]).is_err());
    }

    #[test]
    fn refuses_short_reference_lists_and_empty_candidate_lists() {
        let s = Sentences::from_ids(&[vec![1u32], vec![2]]);
        let docs = Docs::single_lines(&s);
        let cfg = rouge("rouge1", MultiRef::Max);
        let f = |row: &[f64]| row[2];
        let one_ref = lists_of(&[(vec![0], vec![1])]);
        let err = orange_scores(&cfg, &docs, &one_ref, Scoring::Sets(&f), 0).unwrap_err();
        assert!(err.to_string().contains("refs[0] has 1 reference"), "{err}");
        let no_cand = lists_of(&[(vec![], vec![0, 1])]);
        let err = orange_scores(&cfg, &docs, &no_cand, Scoring::Sets(&f), 0).unwrap_err();
        assert!(err.to_string().contains("candidates[0] is empty"), "{err}");
    }

    fn sentence() -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(0u32..6, 0..9)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn equals_the_oracle(
            texts in prop::collection::vec(sentence(), 3..12),
            picks in prop::collection::vec(
                (prop::collection::vec(0usize..100, 1..7), prop::collection::vec(0usize..100, 2..5)),
                1..5),
        ) {
            let n = texts.len();
            let shape: Vec<(Vec<u32>, Vec<u32>)> = picks
                .iter()
                .map(|(c, r)| {
                    (c.iter().map(|&x| (x % n) as u32).collect(),
                     r.iter().map(|&x| (x % n) as u32).collect())
                })
                .collect();
            check(&texts, &shape);
            prop_assert!(!shape.is_empty());
        }
    }
}
