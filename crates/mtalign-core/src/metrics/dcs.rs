//! DCS, the double common subsequence score (Ding, Utiyama & Sumita), exactly as the
//! authors' published code computes it (their Table 1), which is how the WAT numbers were
//! produced. Argument order is (reference `x`, candidate `y`).
//!
//! 1. First matching: every maximal diagonal run (a common substring at fixed positions
//!    that extends at neither end), taken at its end cell in (y_end, x_end) order.
//! 2. Greedy selection: longer runs first (a stable sort, so equal lengths keep step 1's
//!    order); a run is kept if at least one of its x positions and at least one of its y
//!    positions are still unused, then all its positions become used. Kept runs may
//!    therefore overlap, and their shared positions count twice.
//! 3. Each kept block is ranked by its end position in x and in y (ends are distinct).
//! 4. Second matching: chains are maximal runs of blocks whose x rank and y rank both rise
//!    by exactly 1 — found in one pass over the blocks in x-rank order, no B×B table.
//! 5. With A = √(|x|·|y|): cs0 = (largest summed length of a chain)/A, cs1 = √ΣL²/A,
//!    cs2 = √(Σ L_a·L_b over chain neighbours)/A, dcs = √(S1 + S2)/A.
//!
//! Steps 1 and 2 are done two ways, with the same kept blocks in the same order: short pairs
//! generate the runs as above; long pairs (`takes_long_path`) select from a suffix array of
//! both texts and never meet a run that cannot be kept (`dcs/long.rs` says why that is exact).
//!
//! Consequences kept on purpose: cs0 is not always the LCS, values can exceed 1, and
//! swapping the arguments can change the result.

use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};

mod long;

/// A kept block: its length and end positions (1-based, exclusive-style end like the
/// authors' code: the run covers x[x_end-len..x_end]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The block's length (symbols).
    pub len: u32,
    /// Where the block ends in `x` (exclusive).
    pub x_end: u32,
    /// Where the block ends in `y` (exclusive).
    pub y_end: u32,
}

impl Block {
    /// The run of `len` symbols that starts at position `x_start` of x and `y_start` of y.
    fn starting_at(x_start: usize, y_start: usize, len: usize) -> Self {
        Block {
            len: len as u32,
            x_end: (x_start + len) as u32,
            y_end: (y_start + len) as u32,
        }
    }
}

const NONE: u32 = u32::MAX;

/// Reusable buffers for [`dcs`].
#[derive(Debug, Default)]
pub struct DcsScratch {
    occ: Occurrences,
    grams: Grams,
    runs: Vec<Block>,
    sorted: Vec<Block>,
    len_start: Vec<usize>,
    x_used: Vec<bool>,
    y_used: Vec<bool>,
    kept: Vec<Block>,
    by_y: Vec<(u32, u32)>,
    y_rank_by_x: Vec<u32>,
    /// Runs per length (for the banded selection of long texts).
    len_hist: Vec<usize>,
    /// Positions used so far, in x and in y.
    used: (usize, usize),
}

/// Runs sorted in one buffer at most (12 bytes each): longer texts select band by band.
const MAX_BUFFERED_RUNS: usize = 1 << 21;

/// Pairs with fewer cells (|x|·|y|) take the buffered selection without counting their
/// matching cells.
const LONG_PAIR_CELLS: u64 = 1 << 16;

/// Pairs with at least [`LONG_PAIR_CELLS`] cells take the suffix-array selection once
/// their matching cells (the buffered path's work) reach this many per symbol (its work):
/// the two cost the same near 300 characters against 300 at character level and near 4000
/// words against 4000 at word level (measured on WMT21 en-de text).
const LONG_PAIR_CELLS_PER_SYMBOL: u64 = 16;

/// Whether the pair takes the suffix-array selection (`dcs/long.rs`).
fn takes_long_path(x: &[u32], y: &[u32]) -> bool {
    let (m, n) = (x.len() as u64, y.len() as u64);
    // Past 2^32 cells the count (two sorts) is skipped: the buffered path could only be as
    // fast with under 16 matching cells per symbol, and then both take milliseconds.
    m * n >= 1 << 32
        || (m * n >= LONG_PAIR_CELLS
            && matching_cells(x, y) >= LONG_PAIR_CELLS_PER_SYMBOL * (m + n))
}

/// Symbols of one pair at most (|x| + |y|): a long pair's selection holds about 60 bytes a
/// symbol (its suffix array and position tables), so beyond this (about 1 GB) a pair is
/// refused before anything is allocated.
pub const MAX_PAIR_SYMBOLS: u64 = 1 << 24;

/// The refusal of a pair over [`MAX_PAIR_SYMBOLS`] (None when it fits): `what` names the
/// pair, e.g. "DCS against reference 2".
pub fn check_pair_length(what: &str, hyp: usize, reference: usize) -> Option<String> {
    let symbols = hyp as u64 + reference as u64;
    (symbols > MAX_PAIR_SYMBOLS).then(|| {
        format!(
            "{what} has {symbols} symbols (hypothesis {hyp}, reference {reference}; the \
             limit is {MAX_PAIR_SYMBOLS}, about 60 bytes each): score at word level or split \
             the document"
        )
    })
}

/// The number of (i, j) with `x[i] == y[j]`, in O(|x| + |y|) (sorted copies, merged).
pub fn matching_cells(x: &[u32], y: &[u32]) -> u64 {
    let (mut a, mut b) = (x.to_vec(), y.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j, mut cells) = (0, 0, 0u64);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let v = a[i];
                let i0 = i;
                while i < a.len() && a[i] == v {
                    i += 1;
                }
                let j0 = j;
                while j < b.len() && b[j] == v {
                    j += 1;
                }
                cells += ((i - i0) as u64) * ((j - j0) as u64);
            }
        }
    }
    cells
}

/// Calls `f` on every maximal diagonal run of (x, y), in (y start, x start) order.
///
/// Only cells where the symbols are equal are visited: for each y position the positions of
/// the same symbol in x are read from a list grouped by symbol ([`Occurrences`]), and each
/// run is followed from its first cell. Work is O(|x| + |y| + matching cells), not
/// O(|x|·|y|); memory O(|x| + alphabet).
fn for_each_run(occ: &mut Occurrences, x: &[u32], y: &[u32], mut f: impl FnMut(Block)) {
    for_each_run_until(occ, x, y, |_, b| {
        if let Some(b) = b {
            f(b)
        }
        true
    });
}

/// [`for_each_run`] with early exits: `f(j, None)` is asked at the start of column `j`
/// (the runs starting at y position `j`) and `f(j, Some(run))` for each run; either
/// returning false skips the rest of the column.
///
/// The positions of each symbol in x are kept contiguous, ascending, each with its two
/// neighbours in x, so a column reads one array in order: a cell starts a run unless its
/// left neighbours match, and a run of one (most of them) is told by the right neighbours
/// without reading x.
fn for_each_run_until(
    occ: &mut Occurrences,
    x: &[u32],
    y: &[u32],
    mut f: impl FnMut(usize, Option<Block>) -> bool,
) {
    occ.prepare(x);
    let n = y.len();
    for (j, &s) in y.iter().enumerate() {
        let list = occ.of(s);
        if list.is_empty() || !f(j, None) {
            continue;
        }
        let left = if j > 0 { y[j - 1] } else { EDGE_Y };
        let right = if j + 1 < n { y[j + 1] } else { EDGE_Y };
        for o in list {
            // (p, j) starts a run unless (p-1, j-1) matches too.
            if o.left == left {
                continue;
            }
            let p = o.at as usize;
            let len = if o.right != right {
                1
            } else {
                2 + x[p + 2..]
                    .iter()
                    .zip(&y[j + 2..])
                    .take_while(|(a, b)| a == b)
                    .count()
            };
            if !f(j, Some(Block::starting_at(p, j, len))) {
                break;
            }
        }
    }
    occ.release(x);
}

/// Longest run length streamed through [`for_each_run_of_len`] (its L-gram ids cost L passes
/// over both texts); longer lengths are streamed by [`for_each_run_until`].
const MAX_GRAM: usize = 16;

/// The maximal runs of exactly `len` (2 ≤ `len`), in the order [`for_each_run_until`] meets
/// them, with its early exits; only pairs of positions whose `len`-grams are equal are
/// visited (far fewer than the equal-symbol pairs once `len` > 1). Each `len`-gram of x gets
/// an id (a prefix's id and one more symbol, through one hash map); a y position whose
/// `len`-gram is absent from x is skipped.
fn for_each_run_of_len(
    grams: &mut Grams,
    x: &[u32],
    y: &[u32],
    len: usize,
    mut f: impl FnMut(usize, Option<Block>) -> bool,
) {
    let (m, n) = (x.len(), y.len());
    if len > m || len > n {
        return;
    }
    grams.ids(x, y, len);
    let Grams { gx, gy, occ, .. } = grams;
    // Group x positions by gram id: the ids are dense, so they stand in for symbols.
    let xs: Vec<u32> = gx[..=m - len].to_vec();
    occ.prepare_with(&xs, |p| {
        (
            if p > 0 { x[p - 1] } else { EDGE_X },
            x.get(p + len).copied().unwrap_or(EDGE_X),
        )
    });
    for j in 0..=n - len {
        let g = gy[j];
        if g == NONE {
            continue;
        }
        let list = occ.of(g);
        if list.is_empty() || !f(j, None) {
            continue;
        }
        let left = if j > 0 { y[j - 1] } else { EDGE_Y };
        let right = y.get(j + len).copied().unwrap_or(EDGE_Y);
        for o in list {
            // Left-maximal and not longer than `len`.
            if o.left == left || o.right == right {
                continue;
            }
            let p = o.at as usize;
            if !f(j, Some(Block::starting_at(p, j, len))) {
                break;
            }
        }
    }
    occ.release(&xs);
}

/// Ids of the L-grams of x and y (y's absent from x: NONE).
#[derive(Debug, Default)]
struct Grams {
    map: rustc_hash::FxHashMap<(u32, u32), u32>,
    gx: Vec<u32>,
    gy: Vec<u32>,
    occ: Occurrences,
}

impl Grams {
    /// `gx[p]` / `gy[j]`: the id of the `len`-gram starting there (positions with a whole
    /// `len`-gram only), built from the 1-grams up.
    fn ids(&mut self, x: &[u32], y: &[u32], len: usize) {
        self.gx.clear();
        self.gx.extend_from_slice(x);
        self.gy.clear();
        self.gy.extend_from_slice(y);
        for l in 2..=len {
            self.map.clear();
            let mut next = 0u32;
            for p in 0..=x.len() - l {
                let key = (self.gx[p], x[p + l - 1]);
                self.gx[p] = *self.map.entry(key).or_insert_with(|| {
                    next += 1;
                    next - 1
                });
            }
            for j in 0..=y.len() - l {
                let key = (self.gy[j], y[j + l - 1]);
                self.gy[j] = match self.gy[j] {
                    NONE => NONE,
                    _ => self.map.get(&key).copied().unwrap_or(NONE),
                };
            }
        }
        // A 1-gram of y absent from x is NONE too (only used when len == 1).
        self.map = Default::default();
    }
}

/// Neighbours beyond the ends of x and of y (never equal to each other or to a symbol).
const EDGE_X: u32 = u32::MAX;
const EDGE_Y: u32 = u32::MAX - 1;

/// One position of a symbol in x with its neighbours there.
#[derive(Debug, Clone, Copy, Default)]
struct Occurrence {
    at: u32,
    left: u32,
    right: u32,
}

/// The positions of every symbol of x, grouped by symbol, ascending within a group.
#[derive(Debug, Default)]
struct Occurrences {
    /// Group of each symbol id (NONE when absent from x).
    group: Vec<u32>,
    start: Vec<u32>,
    list: Vec<Occurrence>,
}

impl Occurrences {
    fn prepare(&mut self, x: &[u32]) {
        self.prepare_with(x, |p| {
            (
                if p > 0 { x[p - 1] } else { EDGE_X },
                x.get(p + 1).copied().unwrap_or(EDGE_X),
            )
        });
    }

    /// Groups the positions of `x` by symbol, each with `neighbours(position)`.
    fn prepare_with(&mut self, x: &[u32], neighbours: impl Fn(usize) -> (u32, u32)) {
        let max_id = x.iter().copied().max().unwrap_or(0) as usize;
        if self.group.len() <= max_id {
            self.group.resize(max_id + 1, NONE);
        }
        self.start.clear();
        for &s in x {
            let g = &mut self.group[s as usize];
            if *g == NONE {
                *g = self.start.len() as u32;
                self.start.push(0);
            }
            self.start[*g as usize] += 1;
        }
        let mut total = 0;
        for c in self.start.iter_mut() {
            let k = *c;
            *c = total;
            total += k;
        }
        self.start.push(total);
        self.list.clear();
        self.list.resize(x.len(), Occurrence::default());
        let mut fill = self.start.clone();
        for (p, &s) in x.iter().enumerate() {
            let g = self.group[s as usize] as usize;
            let (left, right) = neighbours(p);
            self.list[fill[g] as usize] = Occurrence {
                at: p as u32,
                left,
                right,
            };
            fill[g] += 1;
        }
    }

    #[inline]
    fn of(&self, s: u32) -> &[Occurrence] {
        match self.group.get(s as usize) {
            Some(&g) if g != NONE => {
                &self.list[self.start[g as usize] as usize..self.start[g as usize + 1] as usize]
            }
            _ => &[],
        }
    }

    /// Clears the symbol table (kept for the next pair) and drops a long pair's lists.
    fn release(&mut self, x: &[u32]) {
        for &s in x {
            self.group[s as usize] = NONE;
        }
        if self.list.len() > 1 << 16 {
            self.list = Vec::new();
        }
    }
}

/// Whether run `b` touches an unused x and an unused y position.
fn could_keep(x_used: &[bool], y_used: &[bool], b: &Block) -> bool {
    let xs = (b.x_end - b.len) as usize..b.x_end as usize;
    let ys = (b.y_end - b.len) as usize..b.y_end as usize;
    !x_used[xs].iter().all(|&u| u) && !y_used[ys].iter().all(|&u| u)
}

/// Step 2 for one run: kept if it touches an unused x and an unused y position.
fn keep_if_free(
    x_used: &mut [bool],
    y_used: &mut [bool],
    kept: &mut Vec<Block>,
    used: &mut (usize, usize),
    b: Block,
) {
    let xs = (b.x_end - b.len) as usize..b.x_end as usize;
    let ys = (b.y_end - b.len) as usize..b.y_end as usize;
    if x_used[xs.clone()].iter().all(|&u| u) || y_used[ys.clone()].iter().all(|&u| u) {
        return;
    }
    used.0 += x_used[xs.clone()].iter().filter(|&&u| !u).count();
    used.1 += y_used[ys.clone()].iter().filter(|&&u| !u).count();
    x_used[xs].fill(true);
    y_used[ys].fill(true);
    kept.push(b);
}

/// The four DCS scores: cs0, cs1, cs2, dcs.
pub type DcsScores = [f64; 4];

impl DcsScratch {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step 1: every maximal diagonal run, in (y start, x start) order — for runs of equal
    /// length the same as the (y_end, x_end) order step 2 needs.
    #[cfg(test)]
    fn maximal_runs(&mut self, x: &[u32], y: &[u32]) {
        let mut runs = std::mem::take(&mut self.runs);
        runs.clear();
        for_each_run(&mut self.occ, x, y, |b| runs.push(b));
        self.runs = runs;
    }

    /// Orders the runs longest first, equal lengths keeping step 1's (y_end, x_end) order:
    /// the order the authors' table walk meets run ends, column by column. A stable counting
    /// sort on the length, O(runs + longest run) — long alphabetic sentences have thousands
    /// of short runs (every repeated letter starts one).
    fn sort_runs(&mut self) {
        let longest = self.runs.iter().map(|b| b.len).max().unwrap_or(0) as usize;
        self.len_start.clear();
        self.len_start.resize(longest + 2, 0);
        for b in &self.runs {
            // Bucket k holds length longest - k, so the buckets run longest first.
            self.len_start[longest - b.len as usize + 1] += 1;
        }
        for k in 1..self.len_start.len() {
            self.len_start[k] += self.len_start[k - 1];
        }
        self.sorted.clear();
        self.sorted.resize(
            self.runs.len(),
            Block {
                len: 0,
                x_end: 0,
                y_end: 0,
            },
        );
        for b in &self.runs {
            let slot = &mut self.len_start[longest - b.len as usize];
            self.sorted[*slot] = *b;
            *slot += 1;
        }
        std::mem::swap(&mut self.runs, &mut self.sorted);
    }

    /// Step 2: greedy, longest first, keeping runs that touch an unused x and y position.
    ///
    /// Up to [`MAX_BUFFERED_RUNS`] runs are sorted in one buffer. Beyond that (long texts at
    /// character level have billions of short runs) the runs are regenerated once per band
    /// of lengths, longest band first, each band holding at most that many runs; a length
    /// with more runs than that is a band of its own, taken in generation order, which is
    /// already the order equal lengths need. The same runs meet the same checks in the same
    /// order, so the kept blocks are identical; memory stays O(|x| + |y| + band).
    fn select(&mut self, x: &[u32], y: &[u32], max_buffered: usize) {
        let (m, n) = (x.len(), y.len());
        self.x_used.clear();
        self.x_used.resize(m, false);
        self.y_used.clear();
        self.y_used.resize(n, false);
        self.kept.clear();
        self.used = (0, 0);
        let mut runs = std::mem::take(&mut self.runs);
        let mut hist = std::mem::take(&mut self.len_hist);
        runs.clear();
        hist.clear();
        hist.resize(m.min(n) + 1, 0);
        for_each_run(&mut self.occ, x, y, |b| {
            hist[b.len as usize] += 1;
            if runs.len() < max_buffered {
                runs.push(b);
            }
        });
        let total: usize = hist.iter().sum();
        if total <= max_buffered {
            self.runs = runs;
            self.sort_runs();
            debug_assert!(self.runs.windows(2).all(|w| {
                (std::cmp::Reverse(w[0].len), w[0].y_end, w[0].x_end)
                    < (std::cmp::Reverse(w[1].len), w[1].y_end, w[1].x_end)
            }));
            let runs = std::mem::take(&mut self.runs);
            for b in &runs {
                self.keep_if_free(*b);
            }
            self.runs = runs;
        } else {
            // While a band is processed, the shorter runs that can still be kept (an unused
            // x and y position now, so possibly later: used positions only grow) are
            // collected too; once they fit in one buffer they are the last band.
            let mut ahead: Vec<Block> = Vec::new();
            let mut hi = hist.len() - 1;
            while hi >= 1 && self.used.0 < m && self.used.1 < n {
                if hist[hi] == 0 {
                    hi -= 1;
                    continue;
                }
                let mut lo = hi;
                ahead.clear();
                let mut ahead_fits = true;
                let mut look_ahead =
                    |b: Block, xu: &[bool], yu: &[bool], ahead: &mut Vec<Block>| {
                        if ahead_fits && could_keep(xu, yu, &b) {
                            if ahead.len() < max_buffered {
                                ahead.push(b);
                            } else {
                                ahead_fits = false;
                                ahead.clear();
                            }
                        }
                    };
                let mut no_look_ahead = false;
                if hist[hi] > max_buffered && (2..=MAX_GRAM).contains(&hi) {
                    // One length, streamed from the pairs of equal hi-grams, with the column
                    // skips below; no look-ahead (shorter runs are not visited).
                    no_look_ahead = true;
                    for_each_run_of_len(&mut self.grams, x, y, hi, |j, b| {
                        let (xu, yu) = (&mut self.x_used, &mut self.y_used);
                        let Some(b) = b else {
                            return !yu[j..j + hi].iter().all(|&u| u);
                        };
                        let before = self.kept.len();
                        keep_if_free(xu, yu, &mut self.kept, &mut self.used, b);
                        self.kept.len() == before
                    });
                } else if hist[hi] > max_buffered {
                    // One length, streamed in generation order. A column whose y positions
                    // j..j+hi are all used holds no run of this length that can be kept
                    // (nor, used positions only growing, of any shorter one starting there:
                    // its y positions lie inside), and once one is kept its column is used up:
                    // such columns are skipped.
                    for_each_run_until(&mut self.occ, x, y, |j, b| {
                        let (xu, yu) = (&mut self.x_used, &mut self.y_used);
                        let Some(b) = b else {
                            return !yu[j..(j + hi).min(yu.len())].iter().all(|&u| u);
                        };
                        if b.len as usize == hi {
                            let before = self.kept.len();
                            keep_if_free(xu, yu, &mut self.kept, &mut self.used, b);
                            if self.kept.len() > before {
                                return false;
                            }
                        } else if (b.len as usize) < hi {
                            look_ahead(b, xu, yu, &mut ahead);
                        }
                        true
                    });
                } else {
                    let mut held = hist[hi];
                    while lo > 1 && hist[lo - 1] <= max_buffered - held {
                        lo -= 1;
                        held += hist[lo];
                    }
                    runs.clear();
                    let band = lo as u32..=hi as u32;
                    let (xu, yu) = (&self.x_used, &self.y_used);
                    for_each_run(&mut self.occ, x, y, |b| {
                        if band.contains(&b.len) {
                            runs.push(b);
                        } else if b.len < lo as u32 {
                            look_ahead(b, xu, yu, &mut ahead);
                        }
                    });
                    self.runs = std::mem::take(&mut runs);
                    self.sort_runs();
                    runs = std::mem::take(&mut self.runs);
                    for b in &runs {
                        self.keep_if_free(*b);
                    }
                }
                if ahead_fits && !no_look_ahead {
                    // Every shorter run that could still be kept: sort and finish.
                    self.runs = std::mem::take(&mut ahead);
                    self.sort_runs();
                    ahead = std::mem::take(&mut self.runs);
                    for b in &ahead {
                        self.keep_if_free(*b);
                    }
                    break;
                }
                hi = lo - 1;
            }
            self.runs = runs;
            // A long pair's buffers are not kept for the next (mostly short) ones.
            self.runs = Vec::new();
            self.sorted = Vec::new();
        }
        self.len_hist = hist;
    }

    fn keep_if_free(&mut self, b: Block) {
        keep_if_free(
            &mut self.x_used,
            &mut self.y_used,
            &mut self.kept,
            &mut self.used,
            b,
        );
    }

    /// Scores of reference `x` and candidate `y`.
    ///
    /// Pairs with many matching cells per symbol (`takes_long_path`) select their blocks
    /// on the suffix-array path (`dcs/long.rs`), which never meets a run that cannot be
    /// kept; the kept blocks are the same, in the same order (proptests below).
    pub fn dcs(&mut self, x: &[u32], y: &[u32]) -> DcsScores {
        if takes_long_path(x, y) {
            self.dcs_long(x, y)
        } else {
            self.dcs_buffering(x, y, MAX_BUFFERED_RUNS)
        }
    }

    /// [`Self::dcs`] on the suffix-array path (`dcs/long.rs`), whatever the length.
    fn dcs_long(&mut self, x: &[u32], y: &[u32]) -> DcsScores {
        if x.is_empty() || y.is_empty() {
            return [0.0; 4];
        }
        self.kept.clear();
        if long::select(x, y, &mut self.kept).is_none() {
            // Interrupted: the batch runner discards the result.
            self.kept.clear();
            return [0.0; 4];
        }
        self.score_kept(x.len(), y.len())
    }

    /// [`Self::dcs`], sorting at most `max_buffered` runs at a time.
    fn dcs_buffering(&mut self, x: &[u32], y: &[u32], max_buffered: usize) -> DcsScores {
        if x.is_empty() || y.is_empty() {
            return [0.0; 4];
        }
        self.select(x, y, max_buffered);
        self.score_kept(x.len(), y.len())
    }

    /// Steps 3 to 5 on the kept blocks (in selection order; left in x order).
    fn score_kept(&mut self, m: usize, n: usize) -> DcsScores {
        if self.kept.is_empty() {
            return [0.0; 4];
        }
        // Step 3: order blocks by x end (x rank) and record each one's y rank.
        self.kept.sort_by_key(|b| b.x_end);
        let blocks = self.kept.len();
        self.by_y.clear();
        let by_y = &mut self.by_y;
        by_y.extend(
            self.kept
                .iter()
                .enumerate()
                .map(|(k, b)| (b.y_end, k as u32)),
        );
        by_y.sort_unstable();
        self.y_rank_by_x.clear();
        self.y_rank_by_x.resize(blocks, 0);
        for (rank, &(_, k)) in self.by_y.iter().enumerate() {
            self.y_rank_by_x[k as usize] = rank as u32;
        }
        // Steps 4 and 5: chains break where the y rank does not rise by exactly 1.
        let (mut s0_best, mut s0_chain, mut s1, mut s2) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for k in 0..blocks {
            let len = self.kept[k].len as f64;
            let continues = k > 0 && self.y_rank_by_x[k] == self.y_rank_by_x[k - 1] + 1;
            if continues {
                s0_chain += len;
                s2 += self.kept[k - 1].len as f64 * len;
            } else {
                s0_chain = len;
            }
            s0_best = s0_best.max(s0_chain);
            s1 += len * len;
        }
        let a = ((m * n) as f64).sqrt();
        [
            s0_best / a,
            s1.sqrt() / a,
            s2.sqrt() / a,
            (s1 + s2).sqrt() / a,
        ]
    }

    /// The blocks kept by the last call, in x order (for explanations and tests).
    pub fn kept_blocks(&self) -> &[Block] {
        &self.kept
    }
}

/// DCS of one pair with a fresh scratch (convenience).
pub fn dcs(x: &[u32], y: &[u32]) -> DcsScores {
    DcsScratch::new().dcs(x, y)
}

/// DCS as a metric: the row (cs0, cs1, cs2, dcs) of the reference with the highest dcs
/// (first on ties). Character or word level is the tokenizer's business.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dcs;

impl Metric for Dcs {
    type Scratch = DcsScratch;
    type Context = ();
    const TASK_PAIRS: usize = 16;

    const CHECKS_PAIRS: bool = true;

    fn width(&self) -> usize {
        4
    }

    fn check_pair(&self, pair: Pair<'_>) -> Result<()> {
        let hyp = pair.hyp();
        for (k, r) in pair.refs().enumerate() {
            let what = format!("DCS against reference {k}");
            if let Some(message) = check_pair_length(&what, hyp.len(), r.len()) {
                return Err(Error::Input(message));
            }
        }
        Ok(())
    }

    fn pair_statistics(&self, _: &(), scratch: &mut DcsScratch, pair: Pair<'_>, row: &mut [f64]) {
        let hyp = pair.hyp();
        let mut best: Option<DcsScores> = None;
        for r in pair.refs() {
            let s = scratch.dcs(r, hyp);
            if best.is_none_or(|b| s[3] > b[3]) {
                best = Some(s);
            }
        }
        row.copy_from_slice(&best.unwrap_or_default());
    }
}

/// Scores hypotheses `hyps[i]` against the references `ref_sets.get(i)` (indices into
/// `sentences`), keeping for each hypothesis the reference with the highest dcs (first on
/// ties). Returns a row-major `n × 4` array (cs0, cs1, cs2, dcs).
pub fn score_batch(sentences: &Sentences, hyps: &[u32], ref_sets: &RefSets) -> Result<Vec<f64>> {
    statistics_of_sentences(&Dcs, sentences, hyps, ref_sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str) -> Vec<u32> {
        s.chars().map(|c| c as u32).collect()
    }

    fn close(a: DcsScores, b: [f64; 4]) -> bool {
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-12)
    }

    #[test]
    fn paper_figure_1() {
        let s = dcs(&ids("ABCDE"), &ids("EABFD"));
        let want = [0.6, 6f64.sqrt() / 5.0, 2f64.sqrt() / 5.0, 8f64.sqrt() / 5.0];
        assert!(close(s, want), "{s:?}");
    }

    #[test]
    fn documented_quirks() {
        // cs0 is not the LCS: ABC vs ACB gives 1/3.
        assert!((dcs(&ids("ABC"), &ids("ACB"))[0] - 1.0 / 3.0).abs() < 1e-12);
        // Values can exceed 1: CBBA vs CBA, cs0 = 4/√12.
        let s = dcs(&ids("CBBA"), &ids("CBA"));
        assert!((s[0] - 4.0 / 12f64.sqrt()).abs() < 1e-12, "{s:?}");
        // Argument order matters.
        let a = dcs(&ids("DADD"), &ids("DDAAD"))[3];
        let b = dcs(&ids("DDAAD"), &ids("DADD"))[3];
        assert!((a - b).abs() > 0.1, "{a} {b}");
    }

    #[test]
    fn empty_and_disjoint() {
        assert_eq!(dcs(&[], &[1]), [0.0; 4]);
        assert_eq!(dcs(&[1], &[]), [0.0; 4]);
        assert_eq!(dcs(&[1, 2], &[3, 4]), [0.0; 4]);
        assert_eq!(dcs(&[7], &[7]), [1.0, 1.0, 0.0, 1.0]);
    }

    /// The O(|x|·|y|) table walk, as the authors' code does it: the oracle for step 1.
    fn maximal_runs_dense(x: &[u32], y: &[u32]) -> Vec<Block> {
        let (m, n) = (x.len(), y.len());
        let mut runs = Vec::new();
        for j in 1..=n {
            for i in 1..=m {
                if x[i - 1] != y[j - 1] || (i < m && j < n && x[i] == y[j]) {
                    continue;
                }
                let len = (1..=i.min(j)).take_while(|&k| x[i - k] == y[j - k]).count();
                runs.push(Block {
                    len: len as u32,
                    x_end: i as u32,
                    y_end: j as u32,
                });
            }
        }
        runs
    }

    proptest::proptest! {
        #[test]
        fn sparse_runs_equal_table_walk(
            x in proptest::collection::vec(0u32..3, 0..40),
            y in proptest::collection::vec(0u32..3, 0..40),
        ) {
            let mut s = DcsScratch::new();
            s.maximal_runs(&x, &y);
            let mut got = s.runs.clone();
            got.sort_unstable_by_key(|b| (b.y_end, b.x_end));
            proptest::prop_assert_eq!(&got, &maximal_runs_dense(&x, &y));
        }
    }

    /// Steps 1 and 2 as the authors' code does them: the dense table walk, a stable sort by
    /// length, the greedy check. The kept blocks, in x order.
    fn kept_by_table_walk(x: &[u32], y: &[u32]) -> Vec<Block> {
        let mut runs = maximal_runs_dense(x, y);
        runs.sort_by_key(|b| std::cmp::Reverse(b.len));
        let (mut xu, mut yu) = (vec![false; x.len()], vec![false; y.len()]);
        let mut kept = Vec::new();
        for b in runs {
            let xs = (b.x_end - b.len) as usize..b.x_end as usize;
            let ys = (b.y_end - b.len) as usize..b.y_end as usize;
            if xu[xs.clone()].contains(&false) && yu[ys.clone()].contains(&false) {
                xu[xs].fill(true);
                yu[ys].fill(true);
                kept.push(b);
            }
        }
        kept.sort_by_key(|b| b.x_end);
        kept
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        #[test]
        fn selection_equals_the_table_walk(
            x in proptest::collection::vec(0u32..4, 0..90),
            y in proptest::collection::vec(0u32..4, 0..90),
            limit in 1usize..40,
        ) {
            // Every path: one buffer, bands of lengths, single lengths streamed with their
            // columns skipped once used.
            let want = kept_by_table_walk(&x, &y);
            let mut s = DcsScratch::new();
            s.dcs(&x, &y);
            proptest::prop_assert_eq!(s.kept_blocks(), &want[..]);
            s.dcs_buffering(&x, &y, limit);
            proptest::prop_assert_eq!(s.kept_blocks(), &want[..]);
        }
    }

    proptest::proptest! {
        #[test]
        fn banded_selection_equals_one_buffer(
            x in proptest::collection::vec(0u32..4, 0..120),
            y in proptest::collection::vec(0u32..4, 0..120),
            limit in 1usize..12,
        ) {
            let mut s = DcsScratch::new();
            let want = s.dcs(&x, &y);
            let kept = s.kept_blocks().to_vec();
            let got = s.dcs_buffering(&x, &y, limit);
            proptest::prop_assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits));
            proptest::prop_assert_eq!(s.kept_blocks(), &kept[..]);
        }

        #[test]
        fn matching_cells_counts_equal_pairs(
            x in proptest::collection::vec(0u32..5, 0..60),
            y in proptest::collection::vec(0u32..5, 0..60),
        ) {
            let want = x.iter().map(|a| y.iter().filter(|b| *b == a).count() as u64).sum::<u64>();
            proptest::prop_assert_eq!(matching_cells(&x, &y), want);
        }
    }

    #[test]
    fn long_identical_text_stops_after_the_diagonal() {
        // 4000 symbols of a 3-letter alphabet: 5e6 matching cells and ~1e6 runs, selected
        // band by band; the whole diagonal is one block.
        let x: Vec<u32> = (0..4000u32).map(|i| (i * i + 7 * i) % 3).collect();
        let mut s = DcsScratch::new();
        let got = s.dcs_buffering(&x, &x, 1 << 12);
        assert_eq!(s.kept_blocks().len(), 1);
        assert_eq!(got[0], 1.0);
    }

    /// The suffix-array selection (`dcs/long.rs`): its blocks in the order it keeps them.
    fn kept_long(x: &[u32], y: &[u32]) -> Vec<Block> {
        let mut kept = Vec::new();
        if !x.is_empty() && !y.is_empty() {
            long::select(x, y, &mut kept).unwrap();
        }
        kept
    }

    /// The buffered selection's blocks in the order it keeps them (before step 3 sorts).
    fn kept_buffered(x: &[u32], y: &[u32]) -> Vec<Block> {
        let mut s = DcsScratch::new();
        if !x.is_empty() && !y.is_empty() {
            s.select(x, y, MAX_BUFFERED_RUNS);
        }
        s.kept
    }

    /// The suffix-array selection keeps the buffered path's blocks in its order, the table
    /// walk's blocks, and gives the same scores bit for bit.
    fn check_long(
        x: &[u32],
        y: &[u32],
    ) -> std::result::Result<(), proptest::test_runner::TestCaseError> {
        let mut got = kept_long(x, y);
        proptest::prop_assert_eq!(&got, &kept_buffered(x, y));
        got.sort_by_key(|b| b.x_end);
        proptest::prop_assert_eq!(got, kept_by_table_walk(x, y));
        let mut s = DcsScratch::new();
        let want = s.dcs_buffering(x, y, MAX_BUFFERED_RUNS);
        let got = s.dcs_long(x, y);
        proptest::prop_assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits));
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn long_selection_equals_the_table_walk(
            x in proptest::collection::vec(0u32..4, 0..90),
            y in proptest::collection::vec(0u32..4, 0..90),
        ) {
            check_long(&x, &y)?;
        }

        #[test]
        fn long_selection_on_binary_texts(
            x in proptest::collection::vec(0u32..2, 0..70),
            y in proptest::collection::vec(0u32..2, 0..70),
        ) {
            check_long(&x, &y)?;
        }

        #[test]
        fn long_selection_on_repeats(
            unit_x in proptest::collection::vec(0u32..3, 1..5),
            unit_y in proptest::collection::vec(0u32..3, 1..5),
            times in (1usize..30, 1usize..30),
            edits in proptest::collection::vec((0usize..120, 0u32..4), 0..4),
        ) {
            let mut x: Vec<u32> = unit_x.iter().copied().cycle().take(unit_x.len() * times.0).collect();
            let y: Vec<u32> = unit_y.iter().copied().cycle().take(unit_y.len() * times.1).collect();
            for (at, s) in edits {
                if at < x.len() {
                    x[at] = s;
                }
            }
            for (a, b) in [(&x, &y), (&y, &x), (&x, &x)] {
                check_long(a, b)?;
            }
        }
    }

    /// Pseudo-text: words of 1 to 8 letters from a 26-letter alphabet with skewed letter
    /// frequencies, separated by spaces, and a few repeated phrases.
    fn pseudo_text(chars: usize, seed: u64) -> Vec<u32> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let phrase: Vec<u32> = "the european commission "
            .chars()
            .map(|c| c as u32)
            .collect();
        let mut out = Vec::with_capacity(chars);
        while out.len() < chars {
            if next() % 40 == 0 {
                out.extend(&phrase);
                continue;
            }
            for _ in 0..1 + next() % 8 {
                let r = next() % 100;
                out.push(b'a' as u32 + (r * r / 400) % 26);
            }
            out.push(b' ' as u32);
        }
        out.truncate(chars);
        out
    }

    #[test]
    fn long_selection_equals_buffered_at_5k_chars() {
        let x = pseudo_text(5000, 1);
        let y = pseudo_text(5200, 2);
        let near: Vec<u32> = x
            .iter()
            .enumerate()
            .map(|(i, &c)| if i % 97 == 0 { b'q' as u32 } else { c })
            .collect();
        let periodic: Vec<u32> = (0..5000u32).map(|i| (i % 7) + (i / 1000) % 2).collect();
        for (a, b) in [
            (&x, &y),
            (&y, &x),
            (&x, &x),
            (&x, &near),
            (&periodic, &x),
            (&periodic, &near),
        ] {
            let mut s = DcsScratch::new();
            // The buffered path, and the banded one (lengths regenerated, some streamed).
            let want = s.dcs_buffering(a, b, MAX_BUFFERED_RUNS);
            let want_kept = s.kept_blocks().to_vec();
            assert_eq!(s.dcs_buffering(a, b, 1 << 12), want);
            assert_eq!(s.kept_blocks(), &want_kept[..]);
            let got = s.dcs_long(a, b);
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits));
            assert_eq!(s.kept_blocks(), &want_kept[..]);
            assert_eq!(kept_long(a, b), kept_buffered(a, b));
        }
    }

    #[test]
    fn scratch_reuse() {
        let mut s = DcsScratch::new();
        let first = s.dcs(&ids("ABCDE"), &ids("EABFD"));
        s.dcs(&ids("XXYYXX"), &ids("XYX"));
        assert_eq!(s.dcs(&ids("ABCDE"), &ids("EABFD")), first);
    }
}

/// DCS's contract: options (the tokenizer decides character or word level) and columns.
mod native {
    use super::Dcs;
    use crate::metrics::contract::{Configured, Contract};
    use crate::options::{DefaultValue as D, Kind, OptionSpec, Options};
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};
    use crate::Result;

    impl Contract for Dcs {
        const NAME: &'static str = "dcs";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "tokenize",
                Kind::Str,
                D::Str("codepoint"),
                "the symbols compared (char, codepoint: characters; else words)",
            )
            .choices(TokenizerKind::NAMES),
            OptionSpec::new(
                "lowercase",
                Kind::Bool,
                D::Bool(false),
                "lowercase before matching",
            ),
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric: Dcs,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![4]
        }

        fn columns(&self) -> Vec<String> {
            ["cs0", "cs1", "cs2", "dcs"].map(String::from).to_vec()
        }
    }
}
