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
//! Consequences kept on purpose: cs0 is not always the LCS, values can exceed 1, and
//! swapping the arguments can change the result.

use crate::metrics::metric::{statistics_of_sentences, Metric, Pair};
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::Result;

/// A kept block: its length and end positions (1-based, exclusive-style end like the
/// authors' code: the run covers x[x_end-len..x_end]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub len: u32,
    pub x_end: u32,
    pub y_end: u32,
}

const NONE: u32 = u32::MAX;

/// Reusable buffers for [`dcs`].
#[derive(Debug, Default)]
pub struct DcsScratch {
    head: Vec<u32>,
    next: Vec<u32>,
    runs: Vec<Block>,
    sorted: Vec<Block>,
    len_start: Vec<usize>,
    x_used: Vec<bool>,
    y_used: Vec<bool>,
    kept: Vec<Block>,
    by_y: Vec<(u32, u32)>,
    y_rank_by_x: Vec<u32>,
}

/// The four DCS scores: cs0, cs1, cs2, dcs.
pub type DcsScores = [f64; 4];

impl DcsScratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Step 1: every maximal diagonal run, in (y start, x start) order — for runs of equal
    /// length the same as the (y_end, x_end) order step 2 needs.
    ///
    /// Only cells where the symbols are equal are visited: for each y position the
    /// positions of the same symbol in x are walked through a linked list threaded over x
    /// (`head` indexed by symbol id, `next` by x position), and each run is followed from
    /// its first cell. Work is O(|x| + |y| + matching cells), not O(|x|·|y|).
    fn maximal_runs(&mut self, x: &[u32], y: &[u32]) {
        let m = x.len();
        self.runs.clear();
        let max_id = x.iter().copied().max().unwrap_or(0) as usize;
        if self.head.len() <= max_id {
            self.head.resize(max_id + 1, NONE);
        }
        self.next.clear();
        self.next.resize(m, NONE);
        for (i, &s) in x.iter().enumerate().rev() {
            self.next[i] = self.head[s as usize];
            self.head[s as usize] = i as u32;
        }
        for (j, &s) in y.iter().enumerate() {
            let mut i = match self.head.get(s as usize) {
                Some(&i) => i,
                None => continue,
            };
            while i != NONE {
                let iu = i as usize;
                // (i, j) starts a run unless (i-1, j-1) matches too.
                if iu == 0 || j == 0 || x[iu - 1] != y[j - 1] {
                    let len = x[iu..]
                        .iter()
                        .zip(&y[j..])
                        .take_while(|(a, b)| a == b)
                        .count();
                    self.runs.push(Block {
                        len: len as u32,
                        x_end: (iu + len) as u32,
                        y_end: (j + len) as u32,
                    });
                }
                i = self.next[iu];
            }
        }
        for &s in x {
            self.head[s as usize] = NONE;
        }
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
    fn select(&mut self, m: usize, n: usize) {
        self.sort_runs();
        debug_assert!(self.runs.windows(2).all(|w| {
            (std::cmp::Reverse(w[0].len), w[0].y_end, w[0].x_end)
                < (std::cmp::Reverse(w[1].len), w[1].y_end, w[1].x_end)
        }));
        self.x_used.clear();
        self.x_used.resize(m, false);
        self.y_used.clear();
        self.y_used.resize(n, false);
        self.kept.clear();
        for b in &self.runs {
            let xs = (b.x_end - b.len) as usize..b.x_end as usize;
            let ys = (b.y_end - b.len) as usize..b.y_end as usize;
            if self.x_used[xs.clone()].iter().all(|&u| u)
                || self.y_used[ys.clone()].iter().all(|&u| u)
            {
                continue;
            }
            self.x_used[xs].fill(true);
            self.y_used[ys].fill(true);
            self.kept.push(*b);
        }
    }

    /// Scores of reference `x` and candidate `y`.
    pub fn dcs(&mut self, x: &[u32], y: &[u32]) -> DcsScores {
        if x.is_empty() || y.is_empty() {
            return [0.0; 4];
        }
        self.maximal_runs(x, y);
        self.select(x.len(), y.len());
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
        let a = ((x.len() * y.len()) as f64).sqrt();
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

    fn width(&self) -> usize {
        4
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

    #[test]
    fn scratch_reuse() {
        let mut s = DcsScratch::new();
        let first = s.dcs(&ids("ABCDE"), &ids("EABFD"));
        s.dcs(&ids("XXYYXX"), &ids("XYX"));
        assert_eq!(s.dcs(&ids("ABCDE"), &ids("EABFD")), first);
    }
}
