//! SIA, stochastic iterative alignment (Liu & Gildea 2006), with the paper's pseudo-code
//! repaired as settled in the golden README (section SIA).
//!
//! * A **candidate** is a cell (i, j) (1-based) with match weight w > 0 whose MT position i and
//!   reference position j are both unblocked. Mismatched cells are never states.
//! * A **chain** of candidates strictly increasing on both sides scores
//!   Σ w(i_k, j_k) / √((i_k − i_{k−1})(j_k − j_{k−1})) from a virtual start (0, 0); gaps are
//!   measured in original positions. The alignment score is the best chain over all end cells,
//!   divided by M = |mt|.
//! * **Iteration** (Figure 6): each round aligns every reference, keeps the best (lowest index
//!   on ties), adds score × weight, blocks the aligned positions in the MT output and in that
//!   reference; stops when no candidate is left. Weights α, α², α⁴, … (`Decay::Figure`, the
//!   literal `α ×= α`) or α, α², α³, … (`Decay::Geometric`).
//! * **Length penalty**: 1 if |mt| > mean reference length, else |mt| / mean reference length.
//!
//! The fast kernel ([`best_chain`]) uses that the best predecessor of a candidate is always a
//! *maximal* candidate below-left of it: a candidate strictly inside the box between a
//! predecessor and the cell could be inserted into the chain and would raise its score
//! (its own term is positive and it shrinks the last gap). Scanning rows downwards while
//! tracking the highest column seen so far visits exactly those, O(M + N) per candidate, so
//! O(K·(M+N)) for K candidates at worst. The scan stops as soon as no cell left in it can
//! reach the best value found: each is at most the highest chain score in its rows
//! (`upto`) and in its columns (a max segment tree over the columns of the rows done), and
//! its term at most that of a one-column gap; the bound is strict, so ties are unaffected.
//! Within a row the cells are visited from the nearest column leftwards and the visit stops
//! once the row's running maximum of `best` up to the cell (`row_pm`, kept when the row is
//! done) plus the cell's term is below the best value found: the cells further left are each
//! at most that maximum and their terms smaller. The column scans stop the same way on a
//! column's running maximum (`col_pm`). Without these, a cell under a row of a frequent word
//! visited every cell of that row between the staircase and its column; they are kept for
//! lists of at least `RUNNING_MAX_CELLS` cells (on sentence pairs they cost more than they
//! save).
//! A cell below the diagonal (j < i) scans columns leftwards instead (the same cells, rows
//! and columns swapped): the scan that crosses the shorter side stops sooner, which matters
//! for the cells off the alignment's path in long, alike texts.
//! The rounds stop once a round leaves the total unchanged ([`sia_score`]: neither the
//! round's best score nor its weight can grow later, so no later round can change it). [`best_chain_naive`] is the paper's O(M²N²) programme, kept as
//! the test oracle.
//!
//! Tie-break (it decides which positions are blocked): candidates in row-major order; each
//! keeps the first predecessor reaching its maximum (the start first, then predecessors in
//! row-major order, strict >); the chain ends at the first cell holding the global maximum.

pub mod ibm1;
pub mod lexfile;
pub mod native;
pub mod similarity;
pub mod stream;

use crate::choice::choice_enum;
use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
use crate::text::docs::Docs;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};

pub use native::SiaMetric;

choice_enum! {
    /// How the round weight decays.
    pub enum Decay, "decay" {
        /// Figure 6 read literally (`α ×= α`): α, α², α⁴, α⁸, …
        Figure => "figure",
        /// α, α², α³, …
        Geometric => "geometric",
    }
}

/// A validated SIA configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiaConfig {
    /// The weight of the first round (0 < α <= 1); later rounds decay from it.
    pub alpha: f64,
    /// How round weights decay.
    pub decay: Decay,
}

impl SiaConfig {
    /// A checked configuration (`alpha` in (0, 1]).
    pub fn new(alpha: f64, decay: Decay) -> Result<Self> {
        if !(alpha > 0.0 && alpha <= 1.0) {
            return Err(Error::Config(format!(
                "alpha must be in (0, 1] (got {alpha})"
            )));
        }
        Ok(Self { alpha, decay })
    }
}

/// A candidate cell: 1-based positions and its match weight (> 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Position in the MT output (1-based).
    pub i: u32,
    /// Position in the reference (1-based).
    pub j: u32,
    /// The match weight (> 0).
    pub w: f64,
}

/// The best chain: its un-normalised score and its cells as (i, j), 1-based, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chain {
    /// The chain's score before normalisation.
    pub raw: f64,
    /// Its cells as (i, j), 1-based, in order.
    pub pairs: Vec<(u32, u32)>,
}

/// The score a candidate adds after predecessor (n, p).
#[inline]
fn term(w: f64, di: u32, dj: u32) -> f64 {
    w / ((di as u64 * dj as u64) as f64).sqrt()
}

const START: usize = usize::MAX;

/// Reusable buffers for [`best_chain_with`].
#[derive(Debug, Default)]
pub struct ChainScratch {
    best: Vec<f64>,
    back: Vec<usize>,
    row_start: Vec<usize>,
    /// `upto[a]`: the highest `best` of the cells in rows 1..=a (rows done so far).
    upto: Vec<f64>,
    /// The highest `best` per column over the rows done so far, as a max segment tree.
    columns: MaxTree,
    /// The highest `best` per row done, as a max segment tree.
    rows: MaxTree,
    /// `col_cells[col_start[b]..col_start[b+1]]`: the cells of column b, by row.
    col_start: Vec<usize>,
    col_cells: Vec<u32>,
    /// `row_pm[k]`: the highest `best` of cell k's row up to k (cells of a done row only).
    row_pm: Vec<f64>,
    /// `col_pm[q]`: the highest `best` of the cells of `col_cells[q]`'s column up to it
    /// (rows done only; `col_done[b]` of them are filled for column b).
    col_pm: Vec<f64>,
    col_done: Vec<usize>,
}

/// Cell lists at least this long keep the running maxima of their rows and columns (the
/// scans' per-cell bound in [`best_chain_with`]); the tests use a small bound, so that their
/// proptests against the O(M²N²) programme see both ways.
const RUNNING_MAX_CELLS: usize = if cfg!(test) { 64 } else { 1024 };

/// Point updates (raise to a maximum) and range maxima over `0..len`, in O(log len).
#[derive(Debug, Default)]
struct MaxTree {
    half: usize,
    t: Vec<f64>,
}

impl MaxTree {
    fn reset(&mut self, len: usize) {
        self.half = len.next_power_of_two();
        self.t.clear();
        self.t.resize(2 * self.half, f64::NEG_INFINITY);
    }

    fn raise(&mut self, at: usize, v: f64) {
        let mut k = at + self.half;
        while k >= 1 && self.t[k] < v {
            self.t[k] = v;
            k /= 2;
        }
    }

    /// The maximum over `lo..hi`.
    fn max(&self, lo: usize, hi: usize) -> f64 {
        let (mut l, mut r) = (lo + self.half, hi + self.half);
        let mut m = f64::NEG_INFINITY;
        while l < r {
            if l & 1 == 1 {
                m = m.max(self.t[l]);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                m = m.max(self.t[r]);
            }
            l /= 2;
            r /= 2;
        }
        m
    }
}

/// The best chain through `cells` (row-major order, unblocked, w > 0), fast.
pub fn best_chain(cells: &[Cell]) -> Chain {
    best_chain_with(cells, &mut ChainScratch::default())
}

/// Counting-sort offsets: `starts[k]..starts[k + 1]` is where the items of key `k` (keys
/// `0..=max`, one per item) go when the items are grouped by key.
fn bucket_starts(starts: &mut Vec<usize>, max: usize, keys: impl Iterator<Item = usize>) {
    starts.clear();
    starts.resize(max + 2, 0);
    for k in keys {
        starts[k + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
}

/// [`best_chain`] with caller-owned buffers.
pub fn best_chain_with(cells: &[Cell], s: &mut ChainScratch) -> Chain {
    if cells.is_empty() {
        return Chain::default();
    }
    let rows = cells[cells.len() - 1].i as usize;
    // row_start[r]..row_start[r+1]: the cells of row r (rows 1..=rows).
    bucket_starts(&mut s.row_start, rows, cells.iter().map(|c| c.i as usize));
    s.best.clear();
    s.back.clear();
    s.upto.clear();
    s.upto.resize(rows + 1, f64::NEG_INFINITY);
    let cols = cells.iter().map(|c| c.j).max().unwrap_or(0) as usize;
    s.columns.reset(cols + 1);
    s.rows.reset(rows + 1);
    bucket_starts(&mut s.col_start, cols, cells.iter().map(|c| c.j as usize));
    s.col_cells.clear();
    s.col_cells.resize(cells.len(), 0);
    // Fill column by column in row-major order, moving each column's start as a cursor,
    // then move the starts back.
    for (k, c) in cells.iter().enumerate() {
        let b = c.j as usize;
        s.col_cells[s.col_start[b]] = k as u32;
        s.col_start[b] += 1;
    }
    for b in (1..s.col_start.len()).rev() {
        s.col_start[b] = s.col_start[b - 1];
    }
    s.col_start[0] = 0;
    // The running maxima pay only where rows and columns are long: a sentence pair's scans
    // are short, and keeping them cost it 11% (callgrind, 20k pairs of 25 words).
    let bounded = cells.len() >= RUNNING_MAX_CELLS;
    s.row_pm.clear();
    s.col_pm.clear();
    s.col_done.clear();
    if bounded {
        s.row_pm.resize(cells.len(), f64::NEG_INFINITY);
        s.col_pm.resize(cells.len(), f64::NEG_INFINITY);
        s.col_done.extend_from_slice(&s.col_start[..cols + 1]);
    }
    let mut done = 0; // rows 1..=done are complete in `upto` and `columns`
                      // A cell looks at the rows above it: a Ctrl-C is seen within a few million steps.
    let mut poll = crate::interrupt::Poll::new(rows);
    for (k, c) in cells.iter().enumerate() {
        if poll.stop() {
            return Chain::default();
        }
        while done + 1 < c.i as usize {
            done += 1;
            let mut row_max = f64::NEG_INFINITY;
            let span = s.row_start[done]..s.row_start[done + 1];
            for k in span {
                let (b, v) = (cells[k].j as usize, s.best[k]);
                row_max = row_max.max(v);
                s.columns.raise(b, v);
                if !bounded {
                    continue;
                }
                s.row_pm[k] = row_max;
                let q = s.col_done[b];
                s.col_pm[q] = if q > s.col_start[b] {
                    s.col_pm[q - 1].max(v)
                } else {
                    v
                };
                s.col_done[b] = q + 1;
            }
            s.upto[done] = s.upto[done - 1].max(row_max);
            s.rows.raise(done, row_max);
        }
        let mut best_v = term(c.w, c.i, c.j);
        let mut best_p = START;
        if c.j < c.i {
            // Fewer columns than rows below-left: the same scan with rows and columns swapped,
            // leftwards over columns with the highest row seen so far. It visits the same
            // cells that are not strictly dominated (and stops by the same bound, by columns),
            // and the comparison does not depend on the order of the visits.
            let mut lo = 0u32;
            let mut in_rows = s.rows.max(0, c.i as usize);
            for b in (1..c.j as usize).rev() {
                let left = s.columns.max(0, b + 1);
                if left.min(in_rows) + term(c.w, 1, c.j - b as u32) < best_v {
                    break;
                }
                let col = &s.col_cells[s.col_start[b]..s.col_start[b + 1]];
                let end = col.partition_point(|&x| cells[x as usize].i < c.i);
                if end == 0 {
                    continue;
                }
                let start = col[..end].partition_point(|&x| cells[x as usize].i < lo);
                // Upwards from the nearest row: the cells below x are at most x's running
                // maximum of the column and their term at most x's (strict: a tie must be seen).
                for q in (start..end).rev() {
                    let idx = col[q] as usize;
                    let p = &cells[idx];
                    let t = term(c.w, c.i - p.i, c.j - p.j);
                    if bounded && s.col_pm[s.col_start[b] + q] + t < best_v {
                        break;
                    }
                    let v = s.best[idx] + t;
                    if v > best_v || (v == best_v && best_p != START && idx < best_p) {
                        best_v = v;
                        best_p = idx;
                    }
                }
                let top = cells[col[end - 1] as usize].i;
                if top > lo {
                    lo = top;
                    in_rows = s.rows.max(lo as usize, c.i as usize);
                }
            }
            s.best.push(best_v);
            s.back.push(best_p);
            continue;
        }
        // Highest column (< c.j) among candidates in the rows already scanned: a cell of a
        // lower row with a smaller column has one of them strictly inside its box.
        let mut lo = 0u32;
        // The highest `best` in columns lo..c.j of the rows done.
        let mut in_columns = s.columns.max(0, c.j as usize);
        for a in (1..c.i as usize).rev() {
            // The cells left to look at (rows 1..=a, columns lo..c.j) are each at most
            // `upto[a]` and `in_columns`, and their term at most that of a one-column gap; the
            // float operations are monotone, so once that bound is below `best_v` none can
            // reach it and the scan stops (strictly: a tie could change the predecessor).
            if s.upto[a].min(in_columns) + term(c.w, c.i - a as u32, 1) < best_v {
                break;
            }
            let row = &cells[s.row_start[a]..s.row_start[a + 1]];
            let end = row.partition_point(|x| x.j < c.j);
            if end == 0 {
                continue;
            }
            let start = row[..end].partition_point(|x| x.j < lo);
            // Leftwards from the nearest column: the cells left of x are at most x's running
            // maximum of the row (`row_pm`) and their term at most x's, so once that is below
            // `best_v` none of them can reach it (strict: a tie must still be seen, the lowest
            // index wins it; the order of the visits decides nothing else).
            for q in (start..end).rev() {
                let idx = s.row_start[a] + q;
                let x = &row[q];
                let t = term(c.w, c.i - x.i, c.j - x.j);
                if bounded && s.row_pm[idx] + t < best_v {
                    break;
                }
                let v = s.best[idx] + t;
                // Row-major order decides ties: the start, then the lowest index.
                if v > best_v || (v == best_v && best_p != START && idx < best_p) {
                    best_v = v;
                    best_p = idx;
                }
            }
            if row[end - 1].j > lo {
                lo = row[end - 1].j;
                in_columns = s.columns.max(lo as usize, c.j as usize);
            }
        }
        debug_assert_eq!(s.best.len(), k);
        s.best.push(best_v);
        s.back.push(best_p);
    }
    finish(cells, &s.best, &s.back)
}

/// Picks the first cell holding the global maximum and traces its chain back.
fn finish(cells: &[Cell], best: &[f64], back: &[usize]) -> Chain {
    let mut end = 0;
    for k in 1..best.len() {
        if best[k] > best[end] {
            end = k;
        }
    }
    let mut pairs = Vec::new();
    let mut k = end;
    while k != START {
        pairs.push((cells[k].i, cells[k].j));
        k = back[k];
    }
    pairs.reverse();
    Chain {
        raw: best[end],
        pairs,
    }
}

/// The paper's dynamic programme (Figures 3 and 7), O(M²N²): every candidate looks at every
/// position (n, p) below-left of it, candidate or not, in row-major order. The test oracle for
/// [`best_chain`]; `m` and `n` are the sentence lengths.
pub fn best_chain_naive(cells: &[Cell], m: usize, n: usize) -> Chain {
    if cells.is_empty() {
        return Chain::default();
    }
    // Dense grid of cell indices (usize::MAX where there is no candidate).
    let mut grid = vec![START; (m + 1) * (n + 1)];
    for (k, c) in cells.iter().enumerate() {
        grid[c.i as usize * (n + 1) + c.j as usize] = k;
    }
    let mut best = vec![f64::NEG_INFINITY; cells.len()];
    let mut back = vec![START; cells.len()];
    for (k, c) in cells.iter().enumerate() {
        let mut best_v = term(c.w, c.i, c.j);
        let mut best_p = START;
        for a in 1..c.i {
            for b in 1..c.j {
                let idx = grid[a as usize * (n + 1) + b as usize];
                if idx == START {
                    continue;
                }
                let v: f64 = best[idx] + term(c.w, c.i - a, c.j - b);
                if v > best_v {
                    best_v = v;
                    best_p = idx;
                }
            }
        }
        best[k] = best_v;
        back[k] = best_p;
    }
    finish(cells, &best, &back)
}

/// One alignment round: the reference chosen, its score (raw / M), the round weight and the
/// aligned pairs (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    /// The index of the reference chosen in this round.
    pub reference: usize,
    /// The round's score (raw / M).
    pub score: f64,
    /// The round's weight.
    pub weight: f64,
    /// The aligned pairs (i, j), 1-based.
    pub pairs: Vec<(u32, u32)>,
}

/// Everything about one sentence's SIA score.
#[derive(Debug, Clone, PartialEq)]
pub struct SiaDetail {
    /// The sentence's SIA score.
    pub score: f64,
    /// The score before the length penalty.
    pub before_length_penalty: f64,
    /// The length penalty ([`length_penalty`]).
    pub length_penalty: f64,
    /// Every alignment round, in order.
    pub rounds: Vec<Round>,
    /// Best un-normalised chain per reference with nothing blocked.
    pub first_round_raw: Vec<f64>,
}

/// The length penalty: 1 if |mt| > mean reference length, else |mt| / mean (0 for an empty
/// MT output; 1 when every reference is empty).
pub fn length_penalty(m: usize, ref_lens: &[usize]) -> f64 {
    if m == 0 {
        return 0.0;
    }
    if ref_lens.is_empty() {
        return 1.0;
    }
    let mean = ref_lens.iter().sum::<usize>() as f64 / ref_lens.len() as f64;
    if m as f64 > mean {
        1.0
    } else {
        m as f64 / mean
    }
}

/// The largest word grid (MT words × reference words) the full-grid search takes: it keeps
/// every matching cell (16 bytes each, and its chain state). The linear-memory search
/// ([`stream`]) has no such limit; the full-grid search is its fallback on grids up to
/// this size when the texts repeat too much for it.
pub const MAX_GRID_CELLS: usize = 1 << 27;

/// The largest word grid searched on the full grid even when the linear-memory search could
/// take it (sentences: building a few small lists is cheaper than its position lists).
pub const SMALL_GRID: usize = 1 << 16;

/// Why a pair is refused: the linear-memory search went over its budget ([`stream::live_budget`])
/// and the grid is over [`MAX_GRID_CELLS`] for the full-grid search. `mt_len` and `ref_lens`
/// are the pair's lengths in words.
pub fn refusal(mt_len: usize, ref_lens: &[usize]) -> String {
    let (k, n) = ref_lens
        .iter()
        .copied()
        .enumerate()
        .find(|&(_, n)| mt_len.saturating_mul(n) > MAX_GRID_CELLS)
        .unwrap_or((0, ref_lens.first().copied().unwrap_or(0)));
    format!(
        "SIA's linear-memory search would keep more than {} alignment states for {mt_len} \
         words × {n} words of reference {k} (the texts repeat too much), and the grid of {} \
         cells is over the full-grid search's limit of {MAX_GRID_CELLS}; score shorter \
         segments",
        stream::live_budget(mt_len, n),
        mt_len.saturating_mul(n)
    )
}

/// Scores of [`Sia`] rows, or the refusal of the first pair the metric could not score (its
/// row is NaN; `lengths(k)` gives the pair's MT length and reference lengths).
pub fn refuse_unscored(
    scores: Vec<f64>,
    lengths: impl Fn(usize) -> (usize, Vec<usize>),
) -> Result<Vec<f64>> {
    match scores.iter().position(|x| x.is_nan()) {
        None => Ok(scores),
        Some(k) => {
            let (m, lens) = lengths(k);
            Err(Error::Input(format!("hyps[{k}]: {}", refusal(m, &lens))))
        }
    }
}

/// The default of SIA's size limit (`max_words`; see [`check_pair_size`]). SIA's time grows
/// faster than a pair's length: with the matching cells of the pair (about 1 to 2% of the
/// grid in running text), and per cell with how often its word repeats (the chain search
/// scans the cells of a repeated word below and left of each of them). A pair over the limit
/// is refused before any work rather than left to run for minutes or hours. Near the limit, a
/// pair took at most about 7 s on one core of the 2-core development machine (see
/// docs/sia.md, "Size limit").
pub const DEFAULT_MAX_WORDS: usize = 20_000;

/// The identical-word pairs (cells (i, j) with `mt[i] == ref[j]`) allowed under `max_words`:
/// `max_words² / 100` (4,000,000 at the default), about what two texts of `max_words` words
/// of running text have. Pairs of a word-similarity table count identical words only.
pub fn max_identical_pairs(max_words: usize) -> u64 {
    (max_words as u64).saturating_mul(max_words as u64) / 100
}

/// The repetition cost allowed under `max_words`: `max_words³ / 4000` (2·10⁹ at the
/// default: one word 1,260 times in both texts, or 5 times in one and 20,000 in the other).
/// A word found a times in the hypothesis and b times in the reference costs `a·b·max(a, b)`.
pub fn max_repetition(max_words: usize) -> u64 {
    let w = max_words as u64;
    w.saturating_mul(w).saturating_mul(w) / 4000
}

/// How to lift a size limit (SIA's, GTM's), for their refusals.
pub const RAISE_LIMIT: &str = "raise the limit: max_words=N, or max_words=None for none \
                               (mtalign score --max-words N, 0 for none)";

/// How to get under SIA's limit, for the refusals of [`check_pair_size`].
const HOW: &str = "split the text into sentences (SIA is a sentence-level metric) or";

/// Identical-word pairs of `a` and `b`, their repetition cost (see [`max_repetition`]) and
/// the counts (in a, in b) of the costliest word, in O((m + n) log(m + n)).
fn repetition(a: &[u32], b: &[u32]) -> (u64, u64, (u64, u64)) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j) = (0, 0);
    let (mut pairs, mut cost, mut worst, mut worst_cost) = (0u64, 0u64, (0, 0), 0u64);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let (i0, j0) = (i, j);
                while i < a.len() && a[i] == a[i0] {
                    i += 1;
                }
                while j < b.len() && b[j] == b[j0] {
                    j += 1;
                }
                let (x, y) = ((i - i0) as u64, (j - j0) as u64);
                let c = x.saturating_mul(y).saturating_mul(x.max(y));
                pairs = pairs.saturating_add(x * y);
                cost = cost.saturating_add(c);
                if c > worst_cost {
                    (worst, worst_cost) = ((x, y), c);
                }
            }
        }
    }
    (pairs, cost, worst)
}

/// Refuses a pair over SIA's size limit (see [`DEFAULT_MAX_WORDS`]) before any work: a text
/// of more than `max_words` words, or a hypothesis and a reference with more than
/// [`max_identical_pairs`] identical-word pairs or a repetition cost over [`max_repetition`].
/// `hyp_name` names the hypothesis (`hyps[3]`), `ref_name(k)` its reference k (`refs[3][1]`).
/// Counted (O((m + n) log(m + n)) per reference) only where the grid could exceed a limit.
pub fn check_pair_size(
    max_words: usize,
    hyp: &[u32],
    refs: &[&[u32]],
    hyp_name: &str,
    ref_name: impl Fn(usize) -> String,
) -> Result<()> {
    let over = |name: &str, words: usize| {
        Error::Input(format!(
            "{name} has {words} words, over SIA's limit of max_words={max_words} (its time \
             grows faster than the length); {HOW} {RAISE_LIMIT}"
        ))
    };
    if hyp.len() > max_words {
        return Err(over(hyp_name, hyp.len()));
    }
    for (k, r) in refs.iter().enumerate() {
        if r.len() > max_words {
            return Err(over(&ref_name(k), r.len()));
        }
    }
    let (pair_limit, cost_limit) = (max_identical_pairs(max_words), max_repetition(max_words));
    let m = hyp.len() as u64;
    for (k, r) in refs.iter().enumerate() {
        let (n, grid) = (r.len() as u64, m * r.len() as u64);
        if grid <= pair_limit && grid.saturating_mul(m.max(n)) <= cost_limit {
            continue; // sentences: no count needed
        }
        let (pairs, cost, (x, y)) = repetition(hyp, r);
        if pairs > pair_limit {
            return Err(Error::Input(format!(
                "{hyp_name} and {} have {pairs} pairs of identical words ({m} × {n} words), \
                 over SIA's limit of max_words²/100 = {pair_limit} for max_words={max_words} \
                 (its time grows faster than that count); {HOW} {RAISE_LIMIT}",
                ref_name(k)
            )));
        }
        if cost > cost_limit {
            return Err(Error::Input(format!(
                "{hyp_name} and {} repeat their words too much for SIA: a word found a times \
                 in one and b in the other costs a·b·max(a, b), {cost} in all (the costliest \
                 word: {x} × {y} times), over the limit max_words³/4000 = {cost_limit} for \
                 max_words={max_words}; {HOW} {RAISE_LIMIT}",
                ref_name(k)
            )));
        }
    }
    Ok(())
}

/// [`check_pair_size`] of every pair of a batch, in order (the first pair over the limit is
/// named `hyps[i]` / `refs[i][k]`); `tokens(t)` gives text `t`'s tokens. `None`: no limit.
pub fn check_batch_size<'a>(
    max_words: Option<usize>,
    hyps: &[u32],
    ref_sets: &RefSets,
    tokens: impl Fn(usize) -> &'a [u32],
) -> Result<()> {
    let Some(max_words) = max_words else {
        return Ok(());
    };
    let mut refs: Vec<&[u32]> = Vec::new();
    for (i, &h) in hyps.iter().enumerate() {
        refs.clear();
        refs.extend(ref_sets.get(i).iter().map(|&r| tokens(r as usize)));
        check_pair_size(
            max_words,
            tokens(h as usize),
            &refs,
            &format!("hyps[{i}]"),
            |k| format!("refs[{i}][{k}]"),
        )?;
    }
    Ok(())
}

/// All cells of (mt, reference) with weight > 0, row-major.
fn all_cells(mt: &[u32], reference: &[u32], weight: &impl Fn(u32, u32) -> f64) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (i, &a) in mt.iter().enumerate() {
        for (j, &b) in reference.iter().enumerate() {
            let w = if a == b { 1.0 } else { weight(a, b) };
            if w > 0.0 {
                cells.push(Cell {
                    i: i as u32 + 1,
                    j: j as u32 + 1,
                    w,
                });
            }
        }
    }
    cells
}

/// SIA of one MT output against its references. `weight(mt_token, ref_token)` gives the
/// similarity of two different tokens (0 for none); identical tokens always weigh 1.
/// `fast = false` uses the naive programme (tests and benchmarks only). Always completes: a
/// pair too repetitive for the linear-memory search is searched on the full grid whatever
/// its size ([`try_sia_detail`] refuses it past [`MAX_GRID_CELLS`] instead).
pub fn sia_detail(
    mt: &[u32],
    refs: &[&[u32]],
    weight: impl Fn(u32, u32) -> f64,
    config: &SiaConfig,
    fast: bool,
) -> SiaDetail {
    sia_rounds(mt, refs, weight, config, fast, true, false).expect("never refuses")
}

/// [`sia_detail`], or `Error::Input` ([`refusal`]) for a pair whose texts repeat too much for
/// the linear-memory search and whose grid is over [`MAX_GRID_CELLS`].
pub fn try_sia_detail(
    mt: &[u32],
    refs: &[&[u32]],
    weight: impl Fn(u32, u32) -> f64,
    config: &SiaConfig,
    fast: bool,
) -> Result<SiaDetail> {
    sia_rounds(mt, refs, weight, config, fast, true, true)
}

/// The score of [`sia_detail`], bit for bit, with the rounds that can no longer change it
/// left out (fast only): a round adds `score × weight` to the total, and neither factor
/// grows from one round to the next (blocking only removes candidates, every chain keeps its
/// score; the weights decay), so once a round's addition leaves the total unchanged, no
/// later one can change it (float addition and multiplication are monotone).
pub fn sia_score(
    mt: &[u32],
    refs: &[&[u32]],
    weight: impl Fn(u32, u32) -> f64,
    config: &SiaConfig,
) -> f64 {
    sia_rounds(mt, refs, weight, config, true, false, false)
        .expect("never refuses")
        .score
}

/// [`sia_score`], refusing as [`try_sia_detail`] does.
pub fn try_sia_score(
    mt: &[u32],
    refs: &[&[u32]],
    weight: impl Fn(u32, u32) -> f64,
    config: &SiaConfig,
) -> Result<f64> {
    Ok(sia_rounds(mt, refs, weight, config, true, false, true)?.score)
}

/// The rounds of SIA: all of them (`all_rounds`), or until the total stops changing.
/// `refuse`: an error instead of the full-grid search past [`MAX_GRID_CELLS`].
fn sia_rounds(
    mt: &[u32],
    refs: &[&[u32]],
    weight: impl Fn(u32, u32) -> f64,
    config: &SiaConfig,
    fast: bool,
    all_rounds: bool,
    refuse: bool,
) -> Result<SiaDetail> {
    let m = mt.len();
    let ref_lens: Vec<usize> = refs.iter().map(|r| r.len()).collect();
    let lp = length_penalty(m, &ref_lens);
    let max_n = ref_lens.iter().copied().max().unwrap_or(0);
    // Fast on a grid over SMALL_GRID cells: the reference's matches, and its full grid only
    // once the linear-memory search gives up on it. Naive, or a small grid: the full grid.
    let streamed = |n: usize| fast && m.saturating_mul(n) > SMALL_GRID;
    let matches: Vec<Option<stream::Matches>> = refs
        .iter()
        .map(|r| streamed(r.len()).then(|| stream::Matches::new(mt, r, &weight)))
        .collect();
    let mut full: Vec<Option<Vec<Cell>>> = refs
        .iter()
        .map(|r| (!streamed(r.len())).then(|| all_cells(mt, r, &weight)))
        .collect();
    let mut scratch = ChainScratch::default();
    let mut stream_scratch = stream::StreamScratch::default();
    let mut live: Vec<Cell> = Vec::new();
    let mut mt_blocked = vec![false; m + 1];
    let mut ref_blocked: Vec<Vec<bool>> = refs.iter().map(|r| vec![false; r.len() + 1]).collect();
    let mut align = |r: usize, mt_blocked: &[bool], ref_blocked: &[bool]| -> Result<Chain> {
        let n = ref_lens[r];
        if let (Some(matches), None) = (&matches[r], &full[r]) {
            let budget = stream::live_budget(m, n);
            if let Some(chain) = stream::stream_chain(
                matches,
                n,
                mt_blocked,
                ref_blocked,
                budget,
                stream::WINDOW_CELLS,
                &mut stream_scratch,
            ) {
                return Ok(chain);
            }
            if refuse && m.saturating_mul(n) > MAX_GRID_CELLS {
                return Err(Error::Input(refusal(m, &ref_lens)));
            }
            full[r] = Some(all_cells(mt, refs[r], &weight));
        }
        let cells = full[r].as_deref().expect("full grid made");
        live.clear();
        live.extend(
            cells
                .iter()
                .filter(|c| !mt_blocked[c.i as usize] && !ref_blocked[c.j as usize]),
        );
        Ok(if fast {
            best_chain_with(&live, &mut scratch)
        } else {
            best_chain_naive(&live, m, max_n)
        })
    };
    let mut chains: Vec<Chain> = Vec::with_capacity(refs.len());
    for (r, blocked) in ref_blocked.iter().enumerate() {
        chains.push(align(r, &mt_blocked, blocked)?);
    }
    let first_round_raw = chains.iter().map(|c| c.raw).collect();
    let mut dirty = vec![false; refs.len()];
    let mut rounds = Vec::new();
    let mut total = 0.0;
    let mut weight_now = config.alpha;
    loop {
        // The next round adds at most the last round's score times its weight: if even that
        // leaves the total unchanged, so does the round (no need to align for it).
        if let (false, Some(last)) = (all_rounds, rounds.last()) {
            let last: &Round = last;
            if total + last.score * weight_now == total {
                break;
            }
        }
        for r in 0..refs.len() {
            if dirty[r] {
                chains[r] = align(r, &mt_blocked, &ref_blocked[r])?;
                dirty[r] = false;
            }
        }
        let mut max_score = 0.0;
        let mut max_ref = None;
        for (r, chain) in chains.iter().enumerate() {
            let s = chain.raw / m as f64;
            if s > max_score {
                max_score = s;
                max_ref = Some(r);
            }
        }
        let Some(r) = max_ref else { break };
        let before = total;
        total += max_score * weight_now;
        if !all_rounds && total == before {
            break;
        }
        let pairs = std::mem::take(&mut chains[r].pairs);
        chains[r].raw = 0.0;
        for &(i, j) in &pairs {
            mt_blocked[i as usize] = true;
            ref_blocked[r][j as usize] = true;
        }
        // A reference whose best chain avoids every newly blocked position keeps it: blocking
        // only removes candidates, and the tie-break picks the same chain again.
        for (q, chain) in chains.iter().enumerate() {
            // The naive path realigns everything, so the tests also check this shortcut.
            dirty[q] = !fast || q == r || chain.pairs.iter().any(|&(i, _)| mt_blocked[i as usize]);
        }
        rounds.push(Round {
            reference: r,
            score: max_score,
            weight: weight_now,
            pairs,
        });
        weight_now = match config.decay {
            Decay::Figure => weight_now * weight_now,
            Decay::Geometric => weight_now * config.alpha,
        };
    }
    Ok(SiaDetail {
        score: total * lp,
        before_length_penalty: total,
        length_penalty: lp,
        rounds,
        first_round_raw,
    })
}

/// SIA as a metric: a one-column row, with word similarity `weight` (0 for different tokens
/// under exact matching) and the fast or the paper's naive chain search.
pub struct Sia<'a, W> {
    /// The configuration.
    pub config: &'a SiaConfig,
    /// The similarity of two word ids (0 for words that cannot match).
    pub weight: &'a W,
    /// The fast chain search (else the paper's naive one, for checking).
    pub fast: bool,
}

impl<W: Fn(u32, u32) -> f64 + Sync> Metric for Sia<'_, W> {
    type Scratch = ();
    type Context = ();
    const TASK_PAIRS: usize = 16;

    fn width(&self) -> usize {
        1
    }

    fn pair_statistics(&self, _: &(), _: &mut (), pair: Pair<'_>, row: &mut [f64]) {
        let refs: Vec<&[u32]> = pair.refs().collect();
        // A pair the fast search refuses gets NaN, which the batch functions turn into the
        // refusal ([`refuse_unscored`]): a score is never NaN.
        row[0] = if self.fast {
            try_sia_score(pair.hyp(), &refs, self.weight, self.config).unwrap_or(f64::NAN)
        } else {
            sia_detail(pair.hyp(), &refs, self.weight, self.config, false).score
        };
    }
}

/// SIA scores of a batch: `hyps[i]` (a sentence index) against the sentences of
/// `ref_sets.get(i)`, in parallel. `weight` and `fast` as for [`sia_detail`]; a pair over
/// `max_words` ([`check_pair_size`]; `None`: no limit) is refused before any pair is scored.
pub fn score_batch(
    config: &SiaConfig,
    weight: &(impl Fn(u32, u32) -> f64 + Sync),
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
    fast: bool,
    max_words: Option<usize>,
) -> Result<Vec<f64>> {
    ref_sets.check(hyps.len())?;
    Docs::single_lines(sentences).check_indices(hyps, ref_sets)?;
    check_batch_size(max_words, hyps, ref_sets, |t| sentences.get(t))?;
    let metric = Sia {
        config,
        weight,
        fast,
    };
    let scores = statistics_of_sentences(&metric, sentences, hyps, ref_sets)?;
    refuse_unscored(scores, |k| {
        let refs = ref_sets
            .get(k)
            .iter()
            .map(|&r| sentences.get(r as usize).len());
        (sentences.get(hyps[k] as usize).len(), refs.collect())
    })
}

/// Exact matching: different tokens never match.
pub fn exact(_: u32, _: u32) -> f64 {
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn ids(words: &str, vocab: &mut HashMap<String, u32>) -> Vec<u32> {
        words
            .split_whitespace()
            .map(|w| {
                let n = vocab.len() as u32;
                *vocab.entry(w.to_string()).or_insert(n)
            })
            .collect()
    }

    fn cfg(alpha: f64) -> SiaConfig {
        SiaConfig::new(alpha, Decay::Figure).unwrap()
    }

    #[test]
    fn paper_figure_1() {
        let mut v = HashMap::new();
        let r = ids("life is just like a box of tasty chocolate", &mut v);
        let mt1 = ids("life is like one nice chocolate in box", &mut v);
        let mt2 = ids("life is of one nice chocolate in box", &mut v);
        let d1 = sia_detail(&mt1, &[&r], exact, &cfg(1.0), true);
        let want1 = (2.0 + 1.0 / 2f64.sqrt() + 1.0 / 10f64.sqrt()) / 8.0;
        assert!((d1.rounds[0].score - want1).abs() < 1e-15);
        assert!((d1.rounds[0].score - 0.3779).abs() < 5e-5);
        assert_eq!(d1.rounds[0].pairs, vec![(1, 1), (2, 2), (3, 4), (8, 6)]);
        let d2 = sia_detail(&mt2, &[&r], exact, &cfg(1.0), true);
        assert!((d2.rounds[0].score - 0.357).abs() < 5e-4);
        assert_eq!(d2.rounds[0].pairs, vec![(1, 1), (2, 2), (3, 7), (6, 9)]);
    }

    #[test]
    fn paper_figure_8() {
        let mut v = HashMap::new();
        let mt = ids(
            "England with France discussed this crisis in London",
            &mut v,
        );
        let r1 = ids(
            "Britain and France consulted about this crisis in London with each other",
            &mut v,
        );
        let r2 = ids("England and France discussed the crisis in London", &mut v);
        let d = sia_detail(&mt, &[&r1, &r2], exact, &cfg(1.0), true);
        let refs: Vec<usize> = d.rounds.iter().map(|r| r.reference).collect();
        assert_eq!(refs, vec![1, 0, 0]);
        assert_eq!(d.rounds[0].score, 0.625);
        assert_eq!(d.rounds[1].pairs, vec![(2, 10)]);
        assert_eq!(d.rounds[2].pairs, vec![(5, 6)]);
        assert!((d.length_penalty - 0.8).abs() < 1e-15);
        assert!((d.score - 0.5406).abs() < 5e-5);
    }

    #[test]
    fn edge_cases() {
        assert_eq!(
            sia_detail(&[], &[&[1, 2]], exact, &cfg(0.5), true).score,
            0.0
        );
        assert_eq!(sia_detail(&[1], &[&[2]], exact, &cfg(0.5), true).score, 0.0);
        assert!(SiaConfig::new(0.0, Decay::Figure).is_err());
        assert!(SiaConfig::new(1.5, Decay::Figure).is_err());
        assert!(SiaConfig::new(f64::NAN, Decay::Figure).is_err());
        assert_eq!(length_penalty(3, &[0, 0]), 1.0);
    }

    #[test]
    fn a_pair_over_the_size_limit_is_refused_by_name_before_any_work() {
        let c = cfg(0.5);
        let short: Vec<u32> = (0..10).collect();
        let long: Vec<u32> = (0..21).collect();
        let mut repeated = vec![7; 3];
        repeated.extend(100..150);
        let texts = Sentences::from_ids(&[
            short.clone(),
            long.clone(),
            vec![7; 15],
            repeated,
            vec![7; 50],
            (200..210).collect(),
        ]);
        let batch = |pairs: &[(u32, &[u32])], max_words| {
            let mut sets = RefSets::new();
            for (_, refs) in pairs {
                sets.push(refs.iter().copied());
            }
            let hyps: Vec<u32> = pairs.iter().map(|p| p.0).collect();
            score_batch(&c, &exact, &texts, &hyps, &sets, true, max_words)
        };
        let message = |r: Result<Vec<f64>>| match r {
            Err(Error::Input(m)) => m,
            other => panic!("not refused: {other:?}"),
        };
        // A hypothesis, then a reference, over 20 words: named as Python names them.
        let m = message(batch(&[(0, &[5]), (1, &[0])], Some(20)));
        assert!(
            m.starts_with("hyps[1] has 21 words, over SIA's limit of max_words=20 "),
            "{m}"
        );
        assert!(m.contains("split the text into sentences"), "{m}");
        assert!(m.contains("max_words=None"), "{m}");
        let m = message(batch(&[(0, &[5]), (0, &[5, 1])], Some(20)));
        assert!(m.starts_with("refs[1][1] has 21 words"), "{m}");
        // max_words=300: 900 identical pairs, a repetition cost of 300³/4000 = 6750.
        assert_eq!((max_identical_pairs(300), max_repetition(300)), (900, 6750));
        // One word 15 times a side: 225 pairs, a cost of 15³ = 3375: within both.
        assert!(batch(&[(2, &[2]), (0, &[1])], Some(300)).is_ok());
        // One word 50 times in the reference, 3 times in a hypothesis of 53 words: 150
        // pairs, but a cost of 3·50·50 = 7500 ...
        assert!(batch(&[(3, &[4])], Some(320)).is_ok());
        // ... and 50 a side: 2500 pairs, over 900.
        let m = message(batch(&[(0, &[0]), (4, &[4])], Some(300)));
        assert!(
            m.starts_with("hyps[1] and refs[1][0] have 2500 pairs of identical words (50 × 50"),
            "{m}"
        );
        assert!(m.contains("max_words²/100 = 900 for max_words=300"), "{m}");
        // ... within 320³/4000 = 8192, over 300³/4000 = 6750.
        let m = message(batch(&[(3, &[4])], Some(300)));
        assert!(
            m.starts_with("hyps[0] and refs[0][0] repeat their words too much for SIA"),
            "{m}"
        );
        assert!(
            m.contains("7500 in all (the costliest word: 3 × 50 times)"),
            "{m}"
        );
        assert!(
            m.contains("max_words³/4000 = 6750 for max_words=300"),
            "{m}"
        );
        // No limit: scored as without the check.
        let free = batch(&[(4, &[4]), (1, &[0])], None).unwrap();
        assert_eq!(free[0], sia_score(&[7; 50], &[&[7; 50]], exact, &c));
        assert_eq!(max_identical_pairs(DEFAULT_MAX_WORDS), 4_000_000);
        assert_eq!(max_repetition(DEFAULT_MAX_WORDS), 2_000_000_000);
        let e = check_pair_size(10, &short, &[&long], "hyp", |k| format!("refs[{k}]"));
        assert!(e.unwrap_err().to_string().contains("refs[0] has 21 words"));
    }

    #[test]
    fn past_the_search_budget_the_full_grid_or_a_refusal() {
        let mut v = HashMap::new();
        let text: String = (0..400).map(|k| format!("w{} ", (k * 7) % 13)).collect();
        let mt = ids(&text, &mut v);
        let r: Vec<u32> = mt.iter().rev().copied().collect();
        let c = cfg(0.5);
        let free = sia_detail(&mt, &[&r, &mt], exact, &c, true);
        stream::BUDGET.with(|b| b.set(Some(10)));
        // Over the budget but within the full grid's limit: the full-grid search, same result.
        assert_eq!(
            try_sia_detail(&mt, &[&r, &mt], exact, &c, true).unwrap(),
            free
        );
        assert_eq!(
            try_sia_score(&mt, &[&r, &mt], exact, &c).unwrap().to_bits(),
            free.score.to_bits()
        );
        // Over both: refused, naming the lengths and the limit; sia_detail still scores.
        let long: Vec<u32> = (0..12_000u32).map(|k| k % 50).collect();
        let e = try_sia_detail(&long, &[&mt, &long], exact, &c, true).unwrap_err();
        let Error::Input(m) = e else {
            panic!("not an input error: {e:?}")
        };
        assert!(m.contains("10 alignment states for 12000 words × 12000 words of reference 1"));
        assert!(m.contains("144000000 cells is over the full-grid search's limit of 134217728"));
        assert!(try_sia_score(&long, &[&long], exact, &c).is_err());
        let texts = Sentences::from_ids(&[mt.clone(), long.clone()]);
        let mut sets = RefSets::new();
        sets.push([0]);
        sets.push([1]);
        let e = score_batch(&c, &exact, &texts, &[0, 1], &sets, true, None).unwrap_err();
        assert!(
            e.to_string()
                .contains("hyps[1]: SIA's linear-memory search"),
            "{e}"
        );
        stream::BUDGET.with(|b| b.set(None));
    }

    fn cells_strategy() -> impl Strategy<Value = Vec<Cell>> {
        (1u32..9, 1u32..9, 0u32..3).prop_flat_map(|(m, n, kind)| {
            proptest::collection::vec(0u32..4, (m * n) as usize).prop_map(move |ws| {
                let mut cells = Vec::new();
                for i in 1..=m {
                    for j in 1..=n {
                        let code = ws[((i - 1) * n + j - 1) as usize];
                        let w = match (kind, code) {
                            (_, 0) => 0.0,
                            (0, _) => 1.0,
                            (1, c) => c as f64 / 4.0,
                            (_, c) => 1.0 / (c as f64 + 2.0),
                        };
                        if w > 0.0 {
                            cells.push(Cell { i, j, w });
                        }
                    }
                }
                cells
            })
        })
    }

    proptest! {
        #[test]
        fn fast_equals_naive(cells in cells_strategy()) {
            let a = best_chain(&cells);
            let b = best_chain_naive(&cells, 9, 9);
            prop_assert_eq!(a, b);
        }

        #[test]
        fn longer_chains_fast_equals_naive(
            mt in proptest::collection::vec(0u32..5, 0..45),
            r in proptest::collection::vec(0u32..5, 0..45),
            rare in 0u32..3,
        ) {
            // Repeated words on long-ish sentences: the scan's bounds stop it early often.
            let sim = |a: u32, b: u32| if a + b == rare + 1 { 0.5 } else { 0.0 };
            let cells = all_cells(&mt, &r, &sim);
            prop_assert_eq!(best_chain(&cells), best_chain_naive(&cells, mt.len(), r.len()));
        }

        #[test]
        fn long_repetitive_rows_fast_equals_naive(
            mt in proptest::collection::vec(0u32..3, 20..60),
            r in proptest::collection::vec(0u32..3, 20..60),
            kind in 0u32..3,
        ) {
            // Long rows and columns of few words: the scans leftwards along a row and upwards
            // along a column stop on their running maxima, and ties (equal weights, equal
            // gaps) are everywhere.
            let sim = move |a: u32, b: u32| match kind {
                0 => 0.0,
                1 => 0.5,
                _ => if a < b { 0.25 } else { 0.0 },
            };
            let cells = all_cells(&mt, &r, &sim);
            prop_assert_eq!(best_chain(&cells), best_chain_naive(&cells, mt.len(), r.len()));
        }

        #[test]
        fn sentence_fast_equals_naive(
            mt in proptest::collection::vec(0u32..4, 0..12),
            r1 in proptest::collection::vec(0u32..4, 0..12),
            r2 in proptest::collection::vec(0u32..4, 0..12),
            alpha in 0.1f64..1.0,
        ) {
            let sim = |a: u32, b: u32| if (a + b).is_multiple_of(3) { 0.25 } else { 0.0 };
            let c = cfg(alpha);
            prop_assert_eq!(
                sia_detail(&mt, &[&r1, &r2], sim, &c, true),
                sia_detail(&mt, &[&r1, &r2], sim, &c, false)
            );
            prop_assert_eq!(
                sia_detail(&mt, &[&r1, &r2], exact, &c, true),
                sia_detail(&mt, &[&r1, &r2], exact, &c, false)
            );
            for d in [Decay::Figure, Decay::Geometric] {
                let c = SiaConfig::new(alpha, d).unwrap();
                let all = sia_detail(&mt, &[&r1, &r2], sim, &c, false).score;
                prop_assert_eq!(sia_score(&mt, &[&r1, &r2], sim, &c).to_bits(), all.to_bits());
            }
        }
    }
}
