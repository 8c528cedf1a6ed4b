//! SIA's chain search in memory linear in the texts: the cells are generated row by row from
//! the words (never stored as a grid), and only what a later cell can still take as its
//! best predecessor is kept.
//!
//! The search computes exactly what [`super::best_chain_with`] computes over the same cells
//! (the same best value of every cell, the same predecessor, the same chain), with the same
//! scans and the same bounds; only where it finds the cells differs:
//!
//! * **The recent rows** (a window of at most [`WINDOW_CELLS`] cells, at least the last row
//!   with cells) are kept whole, by row: a cell on or right of the diagonal (j ≥ i) scans
//!   them downwards as [`super::best_chain_with`] scans rows.
//! * **Every column** keeps a stack of its cells, in row order, from which every cell that a
//!   later cell of the same column beats for *every* later query is dropped: a later cell of
//!   column b is nearer to any later query (a larger term, the same column gap) and, once its
//!   best value exceeds the earlier one's by more than the rounding of one addition can undo
//!   (`margin`), it gives a strictly larger value, so the earlier cell can never be a
//!   predecessor again (not even by a tie). A cell left of the diagonal (j < i) scans these
//!   stacks leftwards as [`super::best_chain_with`] scans columns; a row scan that reaches the
//!   end of the window without being stopped by its bound goes on over the stacks' older
//!   cells, column by column, with the same staircase rule (a cell strictly inside the box
//!   between a visited cell and the query is never the best predecessor) and a bound of its
//!   own.
//! * **Chains** are kept as a tree of back pointers with reference counts: a cell's node
//!   lives while the window, a column stack, the best cell so far or a later node points at
//!   it, so the best chain is read back at the end without a second pass.
//!
//! What is kept is linear in the texts on MT-like and unrelated text, but not for every
//! input: in a long run of one repeated word, each column's best values fall with the row
//! and every cell stays a possible predecessor. The search counts what it keeps and gives up
//! past a budget ([`live_budget`]); the caller then refuses the pair by name or uses the
//! full-grid search where that is within its own limit.

use super::{term, Chain, MaxTree};
use crate::interrupt::Poll;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Cells the window of recent rows holds at most (it always holds the last row with cells).
pub const WINDOW_CELLS: usize = 1 << 18;

/// Rows of at least this many cells are searched in parallel on the current pool, in chunks
/// of [`PAR_CHUNK`] cells (the same values for any thread count: the cells of a row are
/// independent of each other).
const PAR_CELLS: usize = 256;
const PAR_CHUNK: usize = 64;

/// Column-stack entries and chain nodes kept at most for a pair of `m` and `n` words (16
/// bytes each, and the window's cells' nodes count too): 67 MB for a 100k-word pair, 17 MB
/// at least. MT-like and unrelated text keep about 2 column entries per column and the
/// window's nodes plus a few per row.
pub fn live_budget(m: usize, n: usize) -> usize {
    #[cfg(test)]
    if let Some(b) = BUDGET.with(|b| b.get()) {
        return b;
    }
    (1 << 20) + 16 * (m + n)
}

#[cfg(test)]
thread_local! {
    /// A budget for this thread's searches (tests of what happens past it).
    pub static BUDGET: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

const NIL: u32 = u32::MAX;

/// The cells a reference offers to each MT word: per distinct MT word, the reference words
/// it matches (weight > 0; identical words weigh 1) and their weights; per distinct
/// reference word, its positions.
#[derive(Debug, Default)]
pub struct Matches {
    /// Per MT position (0-based): its group, or NIL when its word matches nothing.
    mt_group: Vec<u32>,
    /// Per group: its range in `members`.
    groups: Vec<(u32, u32)>,
    /// (reference word slot, weight).
    members: Vec<(u32, f64)>,
    /// Per reference word slot: its range in `positions`.
    slots: Vec<(u32, u32)>,
    /// 1-based reference positions, increasing within a slot.
    positions: Vec<u32>,
    /// The largest weight (at least 1).
    pub wmax: f64,
    /// Matching cells of the whole grid.
    pub cells: u64,
}

impl Matches {
    /// The matches of `mt` against `reference` under `weight` (called once per pair of
    /// distinct words).
    pub fn new(mt: &[u32], reference: &[u32], weight: &impl Fn(u32, u32) -> f64) -> Self {
        let mut slot_of: FxHashMap<u32, u32> = FxHashMap::default();
        let mut words: Vec<u32> = Vec::new();
        let mut count: Vec<u32> = Vec::new();
        for &b in reference {
            let s = *slot_of.entry(b).or_insert_with(|| {
                words.push(b);
                count.push(0);
                (words.len() - 1) as u32
            });
            count[s as usize] += 1;
        }
        let mut slots = Vec::with_capacity(words.len());
        let mut at = 0u32;
        for &c in &count {
            slots.push((at, at));
            at += c;
        }
        let mut positions = vec![0u32; reference.len()];
        for (j, &b) in reference.iter().enumerate() {
            let s = slot_of[&b] as usize;
            positions[slots[s].1 as usize] = j as u32 + 1;
            slots[s].1 += 1;
        }
        let mut group_of: FxHashMap<u32, u32> = FxHashMap::default();
        let mut groups: Vec<(u32, u32)> = Vec::new();
        let mut members: Vec<(u32, f64)> = Vec::new();
        let mut mt_group = Vec::with_capacity(mt.len());
        let mut wmax = 1.0f64;
        let mut cells = 0u64;
        for &a in mt {
            let g = *group_of.entry(a).or_insert_with(|| {
                let start = members.len() as u32;
                for (s, &b) in words.iter().enumerate() {
                    let w = if a == b { 1.0 } else { weight(a, b) };
                    if w > 0.0 {
                        members.push((s as u32, w));
                        wmax = wmax.max(w);
                    }
                }
                let end = members.len() as u32;
                if end == start {
                    NIL
                } else {
                    groups.push((start, end));
                    (groups.len() - 1) as u32
                }
            });
            if g != NIL {
                let (s, e) = groups[g as usize];
                for &(slot, _) in &members[s as usize..e as usize] {
                    cells += count[slot as usize] as u64;
                }
            }
            mt_group.push(g);
        }
        Self {
            mt_group,
            groups,
            members,
            slots,
            positions,
            wmax,
            cells,
        }
    }

    /// The unblocked cells of row `i` (1-based), (column, weight) by column, into `out`.
    fn row(&self, i: usize, ref_blocked: &[bool], out: &mut Vec<(u32, f64)>) {
        out.clear();
        let g = self.mt_group[i - 1];
        if g == NIL {
            return;
        }
        let (s, e) = self.groups[g as usize];
        let members = &self.members[s as usize..e as usize];
        for &(slot, w) in members {
            let (ps, pe) = self.slots[slot as usize];
            for &j in &self.positions[ps as usize..pe as usize] {
                if !ref_blocked[j as usize] {
                    out.push((j, w));
                }
            }
        }
        if members.len() > 1 {
            out.sort_unstable_by_key(|c| c.0);
        }
    }
}

/// How much larger a later cell's best value `v` must be than an earlier one's in the same
/// column for the earlier to lose every later comparison: more than the rounding of
/// `x + t` (t ≤ `wmax`) can undo.
#[inline]
fn margin(v: f64, wmax: f64) -> f64 {
    (v.abs() + wmax + 1.0) * f64::EPSILON * 16.0
}

/// Drops from a column's stack (rows increasing, the last one just committed at row `r`)
/// every cell that another cell of the stack beats, by more than `margin`, in every
/// comparison a query of a later row can make (column gap d ≥ 1, weight w ≤ `wmax`, so a
/// term `c·g(i − a)` with g(x) = 1/√x and c = w/√d ≤ `wmax`):
///
/// * a **later** cell l with a larger best value: its term is the larger one (it is nearer),
///   so it wins whatever the query;
/// * an **earlier** cell l with `s_l ≥ s_k` + margin, where s = best + wmax·g(r + 1 − a):
///   the later cell's advantage in term, c·(g(i − a_k) − g(i − a_l)), is largest for the
///   first later row and c = wmax (g is convex, so the difference shrinks as i grows), and
///   that is `s_k − s_l` minus the difference of best values.
///
/// A dropped cell never wins again, not even a tie (the margin covers the rounding of the
/// additions and of the terms), so the best predecessor of every later cell is unchanged.
fn prune(stack: &mut Vec<Kept>, r: u32, wmax: f64, released: &mut Vec<u32>) {
    if stack.len() < 2 {
        return;
    }
    // Later and larger: keep the cells not beaten by the largest later value.
    let mut later_max = f64::NEG_INFINITY;
    let mut keep = stack.len();
    for k in (0..stack.len()).rev() {
        let e = stack[k];
        if later_max - e.best > margin(later_max, wmax) {
            released.push(e.node);
            continue;
        }
        later_max = later_max.max(e.best);
        keep -= 1;
        stack[keep] = e;
    }
    stack.drain(..keep);
    // Earlier and larger after the term: keep the cells not beaten by the largest s before.
    let s_of = |e: &Kept| e.best + wmax / ((r + 1 - e.at) as f64).sqrt();
    let mut earlier_max = f64::NEG_INFINITY;
    let mut kept = 0;
    for k in 0..stack.len() {
        let e = stack[k];
        let s = s_of(&e);
        if earlier_max - s > margin(earlier_max.max(s), wmax) {
            released.push(e.node);
            continue;
        }
        earlier_max = earlier_max.max(s);
        stack[kept] = e;
        kept += 1;
    }
    stack.truncate(kept);
}

#[derive(Debug, Clone, Copy)]
struct Node {
    i: u32,
    j: u32,
    parent: u32,
    refs: u32,
}

/// A cell kept: its row or column (the other is where it is kept), best value and node.
#[derive(Debug, Clone, Copy)]
struct Kept {
    at: u32,
    node: u32,
    best: f64,
}

/// Point raises and prefix maxima (a Fenwick tree): cheaper than [`MaxTree`] for the
/// maxima of columns 0..=b.
#[derive(Debug, Default)]
struct PrefixMax {
    t: Vec<f64>,
}

impl PrefixMax {
    fn reset(&mut self, len: usize) {
        self.t.clear();
        self.t.resize(len + 1, f64::NEG_INFINITY);
    }

    /// Each node after `at + 1` on the way up covers the columns of the one before and more,
    /// so it holds at least as much: the first node already at `v` ends the raise.
    #[inline]
    fn raise(&mut self, at: usize, v: f64) {
        let mut k = at + 1;
        while k < self.t.len() {
            if self.t[k] >= v {
                return;
            }
            self.t[k] = v;
            k += k & k.wrapping_neg();
        }
    }

    /// The maximum over `0..=at`.
    #[inline]
    fn max_upto(&self, at: usize) -> f64 {
        let mut k = at + 1;
        let mut m = f64::NEG_INFINITY;
        while k > 0 {
            m = m.max(self.t[k]);
            k -= k & k.wrapping_neg();
        }
        m
    }
}

/// A cell of the window: its column, node, best value, and the highest best value of its
/// row up to it (the bound of the cells left of it).
#[derive(Debug, Clone, Copy)]
struct WinCell {
    at: u32,
    node: u32,
    best: f64,
    pmax: f64,
}

/// Reusable buffers of [`stream_chain`].
#[derive(Debug, Default)]
pub struct StreamScratch {
    nodes: Vec<Node>,
    free: Vec<u32>,
    live_nodes: usize,
    /// Per column: its kept cells (`at` = row), rows increasing.
    stacks: Vec<Vec<Kept>>,
    stacked: usize,
    /// The window: (row, its cells (`at` = column), columns increasing), oldest first.
    window: VecDeque<(u32, Vec<WinCell>)>,
    window_cells: usize,
    spare: Vec<Vec<WinCell>>,
    /// Per column: the highest row below the window with a cell there (0 for none).
    old_top: Vec<u32>,
    /// Per column: the highest row with a cell there (0 for none).
    col_top: Vec<u32>,
    upto: Vec<f64>,
    columns: MaxTree,
    /// The same column maxima, for prefix queries (columns 0..=b).
    prefix: PrefixMax,
    rows: MaxTree,
    row: Vec<(u32, f64)>,
    /// The row's results: (best, predecessor node).
    found: Vec<(f64, u32)>,
    /// Nodes to release once the row is committed.
    to_release: Vec<u32>,
    /// Per window row, newest first: how many of its cells are left of the current cell
    /// (the cells of a row come by column, so each only moves right within a row).
    cursors: Vec<u32>,
}

impl StreamScratch {
    fn alloc(&mut self, i: u32, j: u32, parent: u32) -> u32 {
        if parent != NIL {
            self.nodes[parent as usize].refs += 1;
        }
        self.live_nodes += 1;
        let node = Node {
            i,
            j,
            parent,
            refs: 0,
        };
        match self.free.pop() {
            Some(k) => {
                self.nodes[k as usize] = node;
                k
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    fn release(&mut self, mut k: u32) {
        while k != NIL {
            let n = &mut self.nodes[k as usize];
            n.refs -= 1;
            if n.refs > 0 {
                return;
            }
            let parent = n.parent;
            self.free.push(k);
            self.live_nodes -= 1;
            k = parent;
        }
    }

    fn reset(&mut self, m: usize, n: usize) {
        self.nodes.clear();
        self.free.clear();
        self.live_nodes = 0;
        for s in &mut self.stacks {
            s.clear();
        }
        self.stacks.resize_with(n + 1, Vec::new);
        self.stacks.truncate(n + 1);
        self.stacked = 0;
        self.window.clear();
        self.spare.clear();
        self.window_cells = 0;
        self.old_top.clear();
        self.old_top.resize(n + 1, 0);
        self.col_top.clear();
        self.col_top.resize(n + 1, 0);
        self.upto.clear();
        self.upto.resize(m + 1, f64::NEG_INFINITY);
        self.columns.reset(n + 1);
        self.prefix.reset(n + 1);
        self.rows.reset(m + 1);
    }
}

/// The best chain of `mt` (its words' `matches` against a reference of `n` words) over the
/// unblocked positions, as [`super::best_chain_with`] finds it over the same cells; `None`
/// once more than `budget` column entries and nodes would be kept. The window keeps at most
/// `window` cells ([`WINDOW_CELLS`]; tests use small ones to reach the rows below it).
pub fn stream_chain(
    matches: &Matches,
    n: usize,
    mt_blocked: &[bool],
    ref_blocked: &[bool],
    budget: usize,
    window: usize,
    s: &mut StreamScratch,
) -> Option<Chain> {
    let m = matches.mt_group.len();
    s.reset(m, n);
    let wmax = matches.wmax;
    let mut gbest = f64::NEG_INFINITY;
    let mut gnode = NIL;
    // The rows below `old_below` have left the window.
    let mut old_below = 1u32;
    let mut poll = Poll::new(m.max(n));
    let mut row = std::mem::take(&mut s.row);
    let mut found = std::mem::take(&mut s.found);
    for (i, &blocked) in mt_blocked.iter().enumerate().take(m + 1).skip(1) {
        let iu = i as u32;
        row.clear();
        if !blocked {
            matches.row(i, ref_blocked, &mut row);
        }
        found.clear();
        // The flag is this thread's: polled here, once per cell, before any cell is done.
        if row.iter().any(|_| poll.stop()) {
            s.row = row;
            s.found = found;
            return Some(Chain::default());
        }
        let mut cursors = std::mem::take(&mut s.cursors);
        cursors.clear();
        if row.len() >= PAR_CELLS && rayon::current_num_threads() > 1 {
            // A cell's best value and predecessor depend only on the rows committed before
            // its own, so the cells of a long row are done in parallel, each exactly as alone
            // (a chunk's cursors start at the row's beginning: they only speed the search up).
            found.resize(row.len(), (0.0, NIL));
            let done: &StreamScratch = s;
            found
                .par_chunks_mut(PAR_CHUNK)
                .zip(row.par_chunks(PAR_CHUNK))
                .for_each_init(Vec::new, |cursors, (out, cells)| {
                    cursors.clear();
                    for (o, &(j, w)) in out.iter_mut().zip(cells) {
                        *o = best_of(done, cursors, iu, j, w, old_below);
                    }
                });
        } else {
            for &(j, w) in &row {
                found.push(best_of(s, &mut cursors, iu, j, w, old_below));
            }
        }
        s.cursors = cursors;
        // Commit the row: nodes, window, column stacks, bounds.
        // A reused row keeps at most about twice its cells' room: the window's memory stays
        // proportional to its cells even when rows shrink (later rounds block positions).
        let mut kept = s.spare.pop().unwrap_or_default();
        kept.clear();
        if kept.capacity() > 2 * row.len() + 16 {
            kept.shrink_to(row.len());
        }
        let mut row_max = f64::NEG_INFINITY;
        for (&(j, _), &(best, pred)) in row.iter().zip(&found) {
            let node = s.alloc(iu, j, pred);
            s.nodes[node as usize].refs += 2; // the window and the column stack
            let pmax = kept.last().map_or(best, |c: &WinCell| c.pmax.max(best));
            kept.push(WinCell {
                at: j,
                node,
                best,
                pmax,
            });
            s.col_top[j as usize] = iu;
            let stack = &mut s.stacks[j as usize];
            let before = stack.len();
            stack.push(Kept { at: iu, node, best });
            prune(stack, iu, wmax, &mut s.to_release);
            s.stacked = s.stacked + stack.len() - before;
            if best > gbest {
                gbest = best;
                s.nodes[node as usize].refs += 1;
                if gnode != NIL {
                    s.to_release.push(gnode);
                }
                gnode = node;
            }
            row_max = row_max.max(best);
            s.columns.raise(j as usize, best);
            s.prefix.raise(j as usize, best);
        }
        while let Some(k) = s.to_release.pop() {
            s.release(k);
        }
        s.upto[i] = s.upto[i - 1].max(row_max);
        if row_max > f64::NEG_INFINITY {
            s.rows.raise(i, row_max);
        }
        if kept.is_empty() {
            s.spare.push(kept);
        } else {
            s.window_cells += kept.len();
            s.window.push_back((iu, kept));
        }
        while s.window_cells > window && s.window.len() > 1 {
            let (a, mut cells) = s.window.pop_front().expect("window has rows");
            s.window_cells -= cells.len();
            for c in &cells {
                s.old_top[c.at as usize] = a;
                s.release(c.node);
            }
            cells.clear();
            s.spare.push(cells);
            old_below = a + 1;
        }
        if s.stacked + s.live_nodes > budget {
            s.row = row;
            s.found = found;
            return None;
        }
    }
    s.row = row;
    s.found = found;
    if gnode == NIL {
        return Some(Chain::default());
    }
    let mut pairs = Vec::new();
    let mut k = gnode;
    while k != NIL {
        let nd = s.nodes[k as usize];
        pairs.push((nd.i, nd.j));
        k = nd.parent;
    }
    pairs.reverse();
    Some(Chain { raw: gbest, pairs })
}

/// A candidate predecessor: value, (row, column) for the tie-break, node.
struct Best {
    v: f64,
    key: (u32, u32),
    node: u32,
}

impl Best {
    /// Row-major order decides ties: the start (`node == NIL`), then the lowest cell.
    #[inline]
    fn offer(&mut self, v: f64, key: (u32, u32), node: u32) {
        if v > self.v || (v == self.v && self.node != NIL && key < self.key) {
            self.v = v;
            self.key = key;
            self.node = node;
        }
    }
}

/// How many cells of a window row (columns increasing) lie left of column `j`, given that at
/// least `from` do: a galloping search from `from`, O(log distance). A row of a rare word
/// moves its cursors in long jumps through the rows of frequent words above it, and a step
/// a cell made that cost grow with the rows' length.
#[inline]
fn gallop(cells: &[WinCell], from: usize, j: u32) -> usize {
    if from >= cells.len() || cells[from].at >= j {
        return from;
    }
    // cells[lo - 1].at < j; cells[hi..] (if any) are at or right of j.
    let mut lo = from + 1;
    let mut step = 1;
    let hi = loop {
        let probe = from + step;
        if probe >= cells.len() {
            break cells.len();
        }
        if cells[probe].at >= j {
            break probe;
        }
        lo = probe + 1;
        step *= 2;
    };
    lo + cells[lo..hi].partition_point(|c| c.at < j)
}

/// The best value of cell (i, j) of weight `w` and its predecessor's node (NIL: the start),
/// over the cells of rows before `i` (the window's rows and the column stacks).
fn best_of(
    s: &StreamScratch,
    cursors: &mut Vec<u32>,
    i: u32,
    j: u32,
    w: f64,
    old_below: u32,
) -> (f64, u32) {
    let mut best = Best {
        v: term(w, i, j),
        key: (0, 0),
        node: NIL,
    };
    if j < i {
        // Leftwards over columns, with the highest row seen so far (as `best_chain_with`).
        // The two bounds are looked up only now and then: min(x, y) + t < v exactly when
        // x + t < v or y + t < v (rounding is monotone), and a bound over more rows than
        // needed (`in_rows` before `lo` moved up) or more columns (`pre`, the prefix maximum
        // up to a column further right) is larger, so it breaks no sooner; a tree query costs
        // more than a column.
        let mut lo = 0u32;
        let mut in_rows = f64::INFINITY;
        let mut rows_from = u32::MAX;
        let mut pre = f64::INFINITY;
        let mut pre_at = usize::MAX;
        for b in (1..j as usize).rev() {
            let t = term(w, 1, j - b as u32);
            if pre + t < best.v || in_rows + t < best.v {
                break;
            }
            if pre_at - b >= 4 {
                pre_at = b;
                pre = s.prefix.max_upto(b);
                if pre + t < best.v {
                    break;
                }
            }
            if rows_from != lo && (j as usize - b).is_multiple_of(8) {
                rows_from = lo;
                in_rows = s.rows.max(lo as usize, i as usize);
                if in_rows + t < best.v {
                    break;
                }
            }
            let top = s.col_top[b];
            if top == 0 {
                continue;
            }
            // The stack is short: from its top down to row `lo`.
            for e in s.stacks[b].iter().rev() {
                if e.at < lo {
                    break;
                }
                let v = e.best + term(w, i - e.at, j - b as u32);
                best.offer(v, (e.at, b as u32), e.node);
            }
            lo = lo.max(top);
        }
        return (best.v, best.node);
    }
    // Downwards over the window's rows, with the highest column seen so far (the same lazy
    // bounds).
    let mut lo = 0u32;
    let mut in_columns = f64::INFINITY;
    let mut columns_from = u32::MAX;
    let mut refresh = 0u32;
    for (d, (a, cells)) in s.window.iter().rev().enumerate() {
        let a = *a;
        let t = term(w, i - a, 1);
        if s.upto[a as usize] + t < best.v {
            return (best.v, best.node);
        }
        if in_columns + t < best.v {
            return (best.v, best.node);
        }
        // Refreshed every few rows only: a tree query costs more than a row. (Counted at 10k
        // words: on MT-like text `upto` stops 99% of these scans, about 3 rows deep; on
        // unrelated text this bound stops 94%, at a refresh mostly, about 21 rows deep, the
        // best predecessor being about 9 rows up.)
        refresh += 1;
        if columns_from != lo && refresh.is_multiple_of(8) {
            columns_from = lo;
            in_columns = s.columns.max(lo as usize, j as usize);
            if in_columns + t < best.v {
                return (best.v, best.node);
            }
        }
        if d == cursors.len() {
            cursors.push(0);
        }
        let end = gallop(cells, cursors[d] as usize, j);
        cursors[d] = end as u32;
        if end == 0 {
            continue;
        }
        // Right to left down to column `lo`: the cells left of x are at most x's `pmax`,
        // their term at most x's.
        for x in cells[..end].iter().rev() {
            if x.at < lo {
                break;
            }
            let t = term(w, i - a, j - x.at);
            if x.pmax + t < best.v {
                break;
            }
            best.offer(x.best + t, (a, x.at), x.node);
        }
        lo = lo.max(cells[end - 1].at);
    }
    if old_below <= 1 {
        return (best.v, best.node);
    }
    if columns_from != lo {
        in_columns = s.columns.max(lo as usize, j as usize);
    }
    // The rows below the window: the row scan would go on at row `old_below - 1`.
    let top_old = old_below - 1;
    if s.upto[top_old as usize].min(in_columns) + term(w, i - top_old, 1) < best.v {
        return (best.v, best.node);
    }
    // Their cells left are in columns lo..j (a cell left of `lo` has the window's cell at
    // column `lo` strictly inside its box), by column leftwards with the highest old row
    // seen so far; each is at most the highest value in its columns and in the old rows
    // from that row, and its term at most that of a gap of `i - top_old` rows.
    let mut lo_row = 0u32;
    let mut in_rows = s.rows.max(0, old_below as usize);
    for b in (lo.max(1) as usize..j as usize).rev() {
        let left = s.columns.max(lo as usize, b + 1);
        if left.min(in_rows) + term(w, i - top_old, j - b as u32) < best.v {
            break;
        }
        let col = &s.stacks[b];
        let end = col.partition_point(|e| e.at < old_below);
        let start = col[..end].partition_point(|e| e.at < lo_row);
        for e in &col[start..end] {
            let v = e.best + term(w, i - e.at, j - b as u32);
            best.offer(v, (e.at, b as u32), e.node);
        }
        let top = s.old_top[b];
        if top > lo_row {
            lo_row = top;
            in_rows = s.rows.max(lo_row as usize, old_below as usize);
        }
    }
    (best.v, best.node)
}

#[cfg(test)]
mod tests {
    use super::super::{all_cells, best_chain};
    use super::*;
    use proptest::prelude::*;

    /// The stream's chain, with a window of `window` cells and positions blocked by `block`.
    fn streamed(
        mt: &[u32],
        r: &[u32],
        weight: &impl Fn(u32, u32) -> f64,
        window: usize,
        block: &[(u32, u32)],
    ) -> Chain {
        let mut mb = vec![false; mt.len() + 1];
        let mut rb = vec![false; r.len() + 1];
        for &(i, j) in block {
            mb[i as usize % (mt.len() + 1)] = true;
            rb[j as usize % (r.len() + 1)] = true;
        }
        mb[0] = false;
        rb[0] = false;
        let m = Matches::new(mt, r, weight);
        let mut s = StreamScratch::default();
        let got = stream_chain(&m, r.len(), &mb, &rb, usize::MAX, window, &mut s).unwrap();
        // The same scratch again gives the same chain.
        let again = stream_chain(&m, r.len(), &mb, &rb, usize::MAX, window, &mut s).unwrap();
        assert_eq!(got, again);
        let cells: Vec<_> = all_cells(mt, r, weight)
            .into_iter()
            .filter(|c| !mb[c.i as usize] && !rb[c.j as usize])
            .collect();
        let want = best_chain(&cells);
        assert_eq!(got, want);
        got
    }

    proptest! {
        #[test]
        fn stream_equals_full_grid(
            mt in proptest::collection::vec(0u32..6, 0..60),
            r in proptest::collection::vec(0u32..6, 0..60),
            window in 1usize..40,
            kind in 0u32..3,
            block in proptest::collection::vec((0u32..60, 0u32..60), 0..6),
        ) {
            let sim = move |a: u32, b: u32| match kind {
                0 => 0.0,
                1 => if (a + b).is_multiple_of(3) { 0.25 } else { 0.0 },
                _ => if a.abs_diff(b) == 1 { 0.5 + a as f64 / 16.0 } else { 0.0 },
            };
            streamed(&mt, &r, &sim, window, &block);
        }

        #[test]
        fn stream_equals_full_grid_on_repetitive_text(
            mt in proptest::collection::vec(0u32..2, 0..80),
            r in proptest::collection::vec(0u32..2, 0..80),
            window in 1usize..300,
        ) {
            streamed(&mt, &r, &super::super::exact, window, &[]);
        }

        #[test]
        fn stream_equals_full_grid_on_mt_like_text(
            r in proptest::collection::vec(0u32..40, 20..200),
            edits in proptest::collection::vec((0usize..200, 0u32..45), 0..30),
            window in 1usize..100,
        ) {
            // A copy of the reference with words replaced (ids past 40 match nothing).
            let mut mt = r.clone();
            for &(at, w) in &edits {
                let k = at % mt.len();
                mt[k] = w;
            }
            streamed(&mt, &r, &super::super::exact, window, &[]);
        }
    }

    #[test]
    fn long_rows_in_parallel_equal_the_full_grid_for_any_thread_count() {
        // Rows of more than PAR_CELLS cells are searched in parallel chunks: the same chain
        // as the full grid on pools of 1 and 3 threads, with the whole window and with a
        // small one (so that the rows below it are searched too).
        let repetitive: Vec<u32> = (0..500u32).map(|k| (k * 7 + k / 13) % 3).collect();
        let other: Vec<u32> = (0..900u32).map(|k| (k * 5 + k / 11) % 3).collect();
        let mut x = 7u64;
        let mut zipf = |n: usize| -> Vec<u32> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    ((1 << 20) / (x % (1 << 20) + 1)).min(60) as u32
                })
                .collect()
        };
        let r = zipf(800);
        let mut mt = r.clone();
        for (k, w) in zipf(800).into_iter().enumerate() {
            if k % 7 == 0 {
                mt[k] = w;
            }
        }
        mt.rotate_left(40);
        let exact = super::super::exact;
        for (a, b) in [(&repetitive, &other), (&mt, &r)] {
            let m = Matches::new(a, b, &exact);
            let row_cells = |w: u32| b.iter().filter(|&&x| x == w).count();
            assert!(a.iter().any(|&w| row_cells(w) >= PAR_CELLS), "long rows");
            let mut mb = vec![false; a.len() + 1];
            let mut rb = vec![false; b.len() + 1];
            (mb[5], rb[9]) = (true, true);
            let cells: Vec<_> = all_cells(a, b, &exact)
                .into_iter()
                .filter(|c| !mb[c.i as usize] && !rb[c.j as usize])
                .collect();
            let want = best_chain(&cells);
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                for window in [WINDOW_CELLS, 2000] {
                    let mut s = StreamScratch::default();
                    let got = pool.install(|| {
                        stream_chain(&m, b.len(), &mb, &rb, usize::MAX, window, &mut s)
                    });
                    assert_eq!(
                        got.as_ref(),
                        Some(&want),
                        "{threads} threads, window {window}"
                    );
                }
            }
        }
    }

    #[test]
    fn gives_up_past_its_budget() {
        let mt = vec![7u32; 300];
        let m = Matches::new(&mt, &mt, &super::super::exact);
        assert_eq!(m.cells, 90_000);
        let mut s = StreamScratch::default();
        let blocked = vec![false; 301];
        assert!(stream_chain(&m, 300, &blocked, &blocked, 1000, WINDOW_CELLS, &mut s).is_none());
        let chain = stream_chain(
            &m,
            300,
            &blocked,
            &blocked,
            usize::MAX,
            WINDOW_CELLS,
            &mut s,
        )
        .unwrap();
        let cells = all_cells(&mt, &mt, &super::super::exact);
        assert_eq!(chain, best_chain(&cells));
    }
}
