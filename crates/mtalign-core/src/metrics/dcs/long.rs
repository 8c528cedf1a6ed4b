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
//! check, no run that cannot be kept is ever looked at. Windows whose L-grams are equal are
//! one interval of the suffix array of `x ␣ y ␣` (adjacent LCPs ≥ L): a union-find over
//! suffix-array ranks joins the neighbours whose LCP is L as L falls. The windows looked at
//! are those that still hold an unused position and whose L-gram occurs in the other text
//! (matching statistics from the suffix array); a window that is used up stays so at every
//! shorter length. Lengths are skipped down to the longest common substring that covers an
//! unused position of x, and of y (no run can be kept above it), and the selection stops
//! once every x or every y position is used.
//!
//! Memory is O(|x| + |y|) (about 60 bytes a symbol); time O(N log N) for the suffix array
//! (N = |x| + |y|) plus O(N) per length that has candidate windows on both sides.

use super::Block;
use crate::interrupt::Poll;
use crate::kernels::suffix_array::suffix_array;

const NONE: u32 = u32::MAX;

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
    fn find(&mut self, mut i: usize) -> usize {
        while self.next[i] as usize != i {
            let up = self.next[self.next[i] as usize];
            self.next[i] = up;
            i = up as usize;
        }
        i
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

    #[inline]
    fn is_used(&mut self, p: usize) -> bool {
        self.find(p) != p
    }
}

/// Classes of suffix-array ranks joined so far (union by size, path halving).
struct Classes {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Classes {
    fn new(len: usize) -> Self {
        Self {
            parent: (0..len as u32).collect(),
            size: vec![1; len],
        }
    }

    #[inline]
    fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] as usize != a {
            let up = self.parent[self.parent[a] as usize];
            self.parent[a] = up;
            a = up as usize;
        }
        a
    }

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
    }
}

/// `cover[q]`: the length of the longest common substring (with the other text) that covers
/// position q, from the matching statistics `ms` (ms[s]: the longest prefix of the suffix at
/// s that occurs in the other text). s + ms[s] never decreases, so the starts covering q are
/// one window [s0, q]: a sliding maximum.
fn cover(ms: &[u32]) -> Vec<u32> {
    let mut out = vec![0u32; ms.len()];
    let mut window: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for q in 0..ms.len() {
        while window.back().is_some_and(|&s| ms[s] <= ms[q]) {
            window.pop_back();
        }
        window.push_back(q);
        while window.front().is_some_and(|&s| s + ms[s] as usize <= q) {
            window.pop_front();
        }
        out[q] = window.front().map_or(0, |&s| ms[s]);
    }
    out
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

/// The largest cover of a still unused position (0 when none): positions in descending
/// order of cover, passed once (used positions only grow).
struct Bound {
    order: Vec<u32>,
    cover: Vec<u32>,
    at: usize,
}

impl Bound {
    fn new(ms: &[u32]) -> Self {
        let cover = cover(ms);
        Self {
            order: by_key_descending(&cover),
            cover,
            at: 0,
        }
    }

    fn max(&mut self, free: &mut Free) -> usize {
        while self.at < self.order.len() && free.is_used(self.order[self.at] as usize) {
            self.at += 1;
        }
        self.order
            .get(self.at)
            .map_or(0, |&p| self.cover[p as usize] as usize)
    }
}

/// One side's candidate windows: starts whose L-gram occurs in the other text (added in
/// descending order of matching statistic as L falls) and whose window holds an unused
/// position (dropped for good once used up).
struct Candidates {
    ms: Vec<u32>,
    order: Vec<u32>,
    at: usize,
    starts: Vec<u32>,
}

impl Candidates {
    fn new(ms: Vec<u32>) -> Self {
        Self {
            order: by_key_descending(&ms),
            ms,
            at: 0,
            starts: Vec::new(),
        }
    }

    /// The candidates at length `len`, ascending.
    fn update(&mut self, len: usize, free: &mut Free) {
        let before = self.starts.len();
        while self.at < self.order.len() && self.ms[self.order[self.at] as usize] as usize >= len {
            self.starts.push(self.order[self.at]);
            self.at += 1;
        }
        let added = self.starts.len() > before;
        self.starts.retain(|&p| free.alive(p as usize, len));
        if added {
            self.starts.sort_unstable();
        }
    }
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
    // x ␣ y ␣ over dense symbols 2.., the two separators 0 and 1 (unique).
    let mut alphabet: Vec<u32> = x.iter().chain(y).copied().collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    let dense = |s: &u32| alphabet.binary_search(s).unwrap_or(0) as u32 + 2;
    let mut text: Vec<u32> = Vec::with_capacity(total);
    text.extend(x.iter().map(dense));
    text.push(0);
    text.extend(y.iter().map(dense));
    text.push(1);
    drop(alphabet);
    let sa = suffix_array(&text, &mut poll)?;
    drop(text);
    let y0 = m + 1;
    // Matching statistics: the LCP of each suffix with its nearest suffix of the other text
    // above and below in suffix order.
    let (mut msx, mut msy) = (vec![0u32; m], vec![0u32; n]);
    let mut visit = |r: usize, l: u32, near: &mut (u32, u32)| {
        near.0 = near.0.min(l);
        near.1 = near.1.min(l);
        let p = sa.sa[r] as usize;
        if p < m {
            msx[p] = msx[p].max(near.1);
            near.0 = u32::MAX;
        } else if p > m && p < y0 + n {
            msy[p - y0] = msy[p - y0].max(near.0);
            near.1 = u32::MAX;
        }
    };
    let mut near = (0, 0);
    for r in 0..total {
        visit(r, sa.lcp[r], &mut near);
    }
    near = (0, 0);
    for r in (0..total).rev() {
        visit(r, sa.lcp.get(r + 1).copied().unwrap_or(0), &mut near);
    }
    // Suffix-array neighbours in descending order of LCP: joined as L falls.
    let edges = by_key_descending(&sa.lcp);
    let mut e = 0;
    let mut classes = Classes::new(total);
    let (mut fx, mut fy) = (Free::new(m), Free::new(n));
    let (mut bx, mut by) = (Bound::new(&msx), Bound::new(&msy));
    let (mut cx, mut cy) = (Candidates::new(msx), Candidates::new(msy));
    let mut first = vec![NONE; total];
    let mut link: Vec<u32> = Vec::new();
    let mut len = bx.max(&mut fx).min(by.max(&mut fy));
    while len >= 1 && fx.unused > 0 && fy.unused > 0 {
        if poll.stop() {
            return None;
        }
        while e < edges.len() && sa.lcp[edges[e] as usize] as usize >= len {
            let r = edges[e] as usize;
            classes.union(r - 1, r);
            e += 1;
        }
        cy.update(len, &mut fy);
        if !cy.starts.is_empty() {
            cx.update(len, &mut fx);
        }
        if !cy.starts.is_empty() && !cx.starts.is_empty() {
            // Each class's x candidates as a list, ascending.
            link.clear();
            link.resize(cx.starts.len(), NONE);
            for (k, &i) in cx.starts.iter().enumerate().rev() {
                let root = classes.find(sa.rank[i as usize] as usize);
                link[k] = first[root];
                first[root] = k as u32;
            }
            for &j in &cy.starts {
                let j = j as usize;
                if !fy.alive(j, len) {
                    continue;
                }
                let root = classes.find(sa.rank[y0 + j] as usize);
                let mut k = first[root];
                while k != NONE && !fx.alive(cx.starts[k as usize] as usize, len) {
                    k = link[k as usize];
                }
                first[root] = k;
                if k == NONE {
                    continue;
                }
                let i = cx.starts[k as usize] as usize;
                kept.push(Block {
                    len: len as u32,
                    x_end: (i + len) as u32,
                    y_end: (j + len) as u32,
                });
                fx.use_range(i, i + len);
                fy.use_range(j, j + len);
                if fx.unused == 0 || fy.unused == 0 {
                    break;
                }
            }
            for &i in &cx.starts {
                let root = classes.find(sa.rank[i as usize] as usize);
                first[root] = NONE;
            }
        }
        len = (len - 1).min(bx.max(&mut fx)).min(by.max(&mut fy));
    }
    Some(())
}
