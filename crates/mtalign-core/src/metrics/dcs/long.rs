//! Step 2 of DCS (the greedy selection) for long pairs, without meeting the runs one by one.
//!
//! Long texts at character level have billions of maximal runs (≈ 2.6·10¹⁰ equal-symbol
//! pairs for 500k characters of English against German), almost none of which can be kept.
//! This path finds the same kept blocks, in the same order, from one fact about the greedy:
//!
//! **While runs of length L are selected, any equal pair of L-grams x[i..i+L) = y[j..j+L)
//! whose x window holds an unused position u and whose y window an unused position v is a
//! maximal run.** Otherwise the maximal run through that diagonal is longer than L, so it
//! was met earlier, when u and v were unused too (used positions only grow): it was kept,
//! and u and v are used. A contradiction.
//!
//! Runs of length L are met in (y start, x start) order, and once one is kept at y start
//! j its whole y window is used, so nothing more is kept there at this length. Hence the
//! selection at length L is: for each y start j in ascending order whose window
//! y[j..j+L) still holds an unused position, keep (i, j, L) for the smallest i whose L-gram
//! equals y's and whose window x[i..i+L) still holds an unused position — no maximality
//! check, and no run that cannot be kept is looked at.
//!
//! Windows whose L-grams are equal are one interval of the suffix array of `x ␣ y ␣`
//! (adjacent LCPs ≥ L), a class; a union-find over suffix-array ranks joins the neighbours
//! whose LCP is L as L falls. Each class keeps its x starts and its y starts in two pairing
//! heaps (smallest first), melded when classes join. A window that is used up stays so at
//! every shorter length, so a dead smallest start is dropped for good. A class is *active*
//! when it has a live x start and a live y start: then its smallest live y start keeps a
//! block with its smallest live x start. At each length the active classes are queued by
//! their smallest live y start and served in that order (the global y order), each
//! re-queued with its next live y start after a keep; a class that finds no live x start
//! leaves the queue. Every class looked at either keeps a block or loses a side (until a
//! join), so the work is O(N log N) for N = |x| + |y| (the suffix array by prefix
//! doubling, the heaps), plus O(1) per length. The selection stops once every x or every y
//! position is used. Memory is O(N), about 50 bytes a symbol.

use super::Block;
use crate::interrupt::Poll;
use crate::kernels::suffix_array::{suffix_array, SuffixArray};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

/// The root of `a` in a forest of parent pointers (a root points to itself), halving the
/// path on the way.
#[inline]
fn find_root(parent: &mut [u32], mut a: usize) -> usize {
    while parent[a] as usize != a {
        let up = parent[parent[a] as usize];
        parent[a] = up;
        a = up as usize;
    }
    a
}

/// The smallest unused position at or after each position (union-find "next" pointers,
/// path halving); position `len` is a sentinel that is never used.
struct Free {
    next: Vec<u32>,
    unused: usize,
}

impl Free {
    fn new(len: usize) -> Self {
        Self {
            next: (0..=len as u32).collect(),
            unused: len,
        }
    }

    #[inline]
    fn find(&mut self, i: usize) -> usize {
        find_root(&mut self.next, i)
    }

    /// Whether the window `start..start + len` holds an unused position.
    #[inline]
    fn alive(&mut self, start: usize, len: usize) -> bool {
        self.find(start) < start + len
    }

    fn use_range(&mut self, start: usize, end: usize) {
        let mut p = self.find(start);
        while p < end {
            self.next[p] = p as u32 + 1;
            self.unused -= 1;
            p = self.find(p + 1);
        }
    }
}

/// Pairing heaps of text positions (smallest first); a node is a position of `x ␣ y ␣`,
/// in at most one heap.
struct Heaps {
    child: Vec<u32>,
    sibling: Vec<u32>,
    pairs: Vec<u32>,
}

impl Heaps {
    fn new(len: usize) -> Self {
        Self {
            child: vec![NONE; len],
            sibling: vec![NONE; len],
            pairs: Vec::new(),
        }
    }

    #[inline]
    fn meld(&mut self, a: u32, b: u32) -> u32 {
        if a == NONE {
            return b;
        }
        if b == NONE {
            return a;
        }
        let (top, below) = if a < b { (a, b) } else { (b, a) };
        self.sibling[below as usize] = self.child[top as usize];
        self.child[top as usize] = below;
        top
    }

    /// The heap without its smallest node `top` (two-pass pairing of its children).
    fn pop(&mut self, top: u32) -> u32 {
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        let mut c = self.child[top as usize];
        self.child[top as usize] = NONE;
        while c != NONE {
            let a = c;
            let b = self.sibling[a as usize];
            self.sibling[a as usize] = NONE;
            if b == NONE {
                pairs.push(a);
                break;
            }
            c = self.sibling[b as usize];
            self.sibling[b as usize] = NONE;
            pairs.push(self.meld(a, b));
        }
        let mut root = NONE;
        while let Some(p) = pairs.pop() {
            root = self.meld(p, root);
        }
        self.pairs = pairs;
        root
    }
}

/// Classes of suffix-array ranks joined so far (union by size, path halving), each with its
/// x starts and y starts in two heaps (positions of `x ␣ y ␣`).
struct Classes {
    parent: Vec<u32>,
    size: Vec<u32>,
    /// Heap roots per class root (NONE: empty).
    xs: Vec<u32>,
    ys: Vec<u32>,
    heaps: Heaps,
    /// Class roots that may be active (stale entries are dropped when met), and a flag per
    /// rank saying whether it is listed.
    active: Vec<u32>,
    listed: Vec<bool>,
}

impl Classes {
    /// One class per rank: `sa[r]` is the position of the suffix of rank r, x at positions
    /// below `m`, y at `y0..y0 + n`.
    fn new(sa: &[u32], m: usize, y0: usize, n: usize) -> Self {
        let len = sa.len();
        let (mut xs, mut ys) = (vec![NONE; len], vec![NONE; len]);
        for (r, &p) in sa.iter().enumerate() {
            let p = p as usize;
            if p < m {
                xs[r] = p as u32;
            } else if p >= y0 && p < y0 + n {
                ys[r] = p as u32;
            }
        }
        Self {
            parent: (0..len as u32).collect(),
            size: vec![1; len],
            xs,
            ys,
            heaps: Heaps::new(len),
            active: Vec::new(),
            listed: vec![false; len],
        }
    }

    #[inline]
    fn find(&mut self, a: usize) -> usize {
        find_root(&mut self.parent, a)
    }

    /// Joins the classes of ranks `a` and `b`; the joined class is listed once it has both
    /// x and y starts.
    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a as u32;
        self.size[a] += self.size[b];
        self.xs[a] = self.heaps.meld(self.xs[a], self.xs[b]);
        self.ys[a] = self.heaps.meld(self.ys[a], self.ys[b]);
        if self.xs[a] != NONE && self.ys[a] != NONE && !self.listed[a] {
            self.listed[a] = true;
            self.active.push(a as u32);
        }
    }

    /// The smallest start in heap `heap` of class `root` whose window of `len` holds an
    /// unused position (`offset`: the side's first position in `x ␣ y ␣`); dead ones are
    /// dropped.
    fn first_alive(
        &mut self,
        root: usize,
        y_side: bool,
        len: usize,
        free: &mut Free,
        offset: usize,
    ) -> Option<usize> {
        loop {
            let top = if y_side { self.ys[root] } else { self.xs[root] };
            if top == NONE {
                return None;
            }
            let start = top as usize - offset;
            if free.alive(start, len) {
                return Some(start);
            }
            let rest = self.heaps.pop(top);
            if y_side {
                self.ys[root] = rest;
            } else {
                self.xs[root] = rest;
            }
        }
    }
}

/// Positions in descending order of `key` (ascending position within a key).
fn by_key_descending(key: &[u32]) -> Vec<u32> {
    let top = key.iter().copied().max().unwrap_or(0) as usize;
    let mut start = vec![0u32; top + 2];
    for &k in key {
        start[top - k as usize + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut out = vec![0u32; key.len()];
    for (p, &k) in key.iter().enumerate() {
        let slot = &mut start[top - k as usize];
        out[*slot as usize] = p as u32;
        *slot += 1;
    }
    out
}

/// Appends to `kept` the blocks the greedy selection keeps from x and y (both non-empty),
/// in the order it keeps them. None when `poll` asks to stop.
pub(super) fn select(x: &[u32], y: &[u32], kept: &mut Vec<Block>) -> Option<()> {
    let (m, n) = (x.len(), y.len());
    let total = m + n + 2;
    // A pair's other references come here after a Ctrl-C too: look at the flag first.
    if crate::interrupt::is_set(&crate::interrupt::current()) {
        return None;
    }
    let mut poll = Poll::new(total);
    // x ␣ y ␣ over dense symbols 2.. in first-seen order, the two separators 0 and 1
    // (unique); only equality matters.
    let mut ids: rustc_hash::FxHashMap<u32, u32> = Default::default();
    let mut text: Vec<u32> = Vec::with_capacity(total);
    let mut dense = |s: &u32| {
        let next = ids.len() as u32 + 2;
        *ids.entry(*s).or_insert(next)
    };
    text.extend(x.iter().map(&mut dense));
    text.push(0);
    text.extend(y.iter().map(&mut dense));
    text.push(1);
    drop(ids);
    let SuffixArray { sa, rank, lcp } = suffix_array(&text, &mut poll)?;
    drop(text);
    let y0 = m + 1;
    let mut classes = Classes::new(&sa, m, y0, n);
    drop(sa);
    let rank_of = |p: usize| rank[p] as usize;
    // Suffix-array neighbours in descending order of LCP: joined as L falls.
    let edges = by_key_descending(&lcp);
    let mut e = 0;
    let (mut fx, mut fy) = (Free::new(m), Free::new(n));
    let mut queue: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
    let mut len = lcp.iter().copied().max().unwrap_or(0) as usize;
    while len >= 1 && fx.unused > 0 && fy.unused > 0 {
        if poll.stop() {
            return None;
        }
        while e < edges.len() && lcp[edges[e] as usize] as usize >= len {
            let r = edges[e] as usize;
            classes.union(r - 1, r);
            e += 1;
        }
        // The active classes, queued by their smallest live y start.
        let mut active = std::mem::take(&mut classes.active);
        active.retain(|&root| {
            let root = root as usize;
            let live = classes.find(root) == root
                && classes.first_alive(root, false, len, &mut fx, 0).is_some()
                && match classes.first_alive(root, true, len, &mut fy, y0) {
                    Some(j) => {
                        queue.push(Reverse((j as u32, root as u32)));
                        true
                    }
                    None => false,
                };
            classes.listed[root] = live;
            live
        });
        classes.active = active;
        while let Some(Reverse((_, root))) = queue.pop() {
            let root = root as usize;
            // Keeps since it was queued may have used up its y start or all its x starts.
            let Some(j) = classes.first_alive(root, true, len, &mut fy, y0) else {
                continue;
            };
            if queue
                .peek()
                .is_some_and(|Reverse((next, _))| (*next as usize) < j)
            {
                queue.push(Reverse((j as u32, root as u32)));
                continue;
            }
            let Some(i) = classes.first_alive(root, false, len, &mut fx, 0) else {
                continue;
            };
            debug_assert_eq!(classes.find(rank_of(i)), classes.find(rank_of(y0 + j)));
            kept.push(Block::starting_at(i, j, len));
            fx.use_range(i, i + len);
            fy.use_range(j, j + len);
            if fx.unused == 0 || fy.unused == 0 {
                break;
            }
            if let Some(next) = classes.first_alive(root, true, len, &mut fy, y0) {
                queue.push(Reverse((next as u32, root as u32)));
            }
        }
        queue.clear();
        len -= 1;
    }
    Some(())
}
