//! TER (Snover et al. 2006), as sacrebleu 2.6.0's `lib_ter` computes it: greedy shifts
//! (span ≤ 10 words, distance ≤ 50, at most 1000 candidates per sentence pair, candidates
//! ranked as Tercom ranks them) and a beam edit distance around the length-scaled diagonal
//! (width 25), every step in sacrebleu's order so that edit counts are identical.
//!
//! A statistics row is sacrebleu's: `[edits, ref_len]`, the fewest edits over the references
//! and the *average* reference length (not the chosen reference's). Corpus TER is
//! Σ edits / Σ ref_len; rows add up. sacrebleu's edit-distance row cache only saves work (a
//! row depends on the hypothesis prefix alone), so it is replaced here by reusing the rows
//! of the hypothesis being shifted up to the first changed word; past the last changed word
//! a candidate's rows stop as soon as one equals the unshifted hypothesis's row up to a
//! constant (then so does every later row, and the distance is known). A shift candidate
//! thus costs rows near the shift, not the whole hypothesis: 100k words take under a second
//! (was ~1 min); the proptests compare it with the rows computed to the end.
//!
//! With [`TerConfig::ops`] the row also carries the edit operations of the chosen reference
//! (`[edits, ref_len, insertions, deletions, substitutions, shifts]`), read from the trace of
//! the final edit distance as sacrebleu computes it (before its insertion/deletion flip):
//! an insertion is a reference word missing from the shifted hypothesis, a deletion a
//! hypothesis word with no reference word. [`explain`] gives the whole edit script.

use crate::metrics::metric::{Metric, Pair};

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INF: i64 = 10_000_000_000_000_000;

/// One step of the edit script (hypothesis → reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Both words equal (no edit).
    Nop,
    /// A substitution.
    Sub,
    /// An insertion (a reference word).
    Ins,
    /// A deletion (a hypothesis word).
    Del,
    /// A cell outside the beam, never computed (sacrebleu's untouched cells).
    Undef,
}

/// TER's configuration: the tokenization is the encoder's; `ops` widens the row with the
/// operation counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerConfig {
    /// Widen the row with the operation counts (insertions, deletions, substitutions, shifts).
    pub ops: bool,
}

/// The edit operations behind one TER value: `insertions + deletions + substitutions` is
/// the edit distance after the shifts, and adding `shifts` gives TER's edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EditCounts {
    /// Reference words missing from the hypothesis.
    pub insertions: usize,
    /// Hypothesis words missing from the reference.
    pub deletions: usize,
    /// Words replaced.
    pub substitutions: usize,
    /// Block moves (each one edit whatever its length).
    pub shifts: usize,
}

impl EditCounts {
    /// TER's number of edits.
    pub fn edits(&self) -> usize {
        self.insertions + self.deletions + self.substitutions + self.shifts
    }

    fn of_trace(trace: &[Op], shifts: usize) -> Self {
        let count = |o: Op| trace.iter().filter(|&&t| t == o).count();
        Self {
            insertions: count(Op::Ins),
            deletions: count(Op::Del),
            substitutions: count(Op::Sub),
            shifts,
        }
    }
}

/// One shift as sacrebleu applies it: `length` words from `start` moved to `target`
/// (sacrebleu's `_perform_shift` arguments), and the hypothesis after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// The first word moved (an index into the hypothesis before the shift).
    pub start: usize,
    /// How many words are moved.
    pub length: usize,
    /// Where they go (sacrebleu's `target`).
    pub target: usize,
    /// The hypothesis after the shift.
    pub words: Vec<u32>,
}

/// TER's edit script of a hypothesis against one reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The shifts, in the order they were applied.
    pub shifts: Vec<Shift>,
    /// The hypothesis after every shift.
    pub words: Vec<u32>,
    /// The edit script of `words` into the reference: `Nop`/`Sub` take a word of each,
    /// `Del` a hypothesis word, `Ins` a reference word.
    pub trace: Vec<Op>,
    /// The edit counts (TER = `counts.edits()` / reference length).
    pub counts: EditCounts,
}

/// Beam edit distance of hypotheses against one reference (sacrebleu's `BeamEditDistance`).
/// Only the cells sacrebleu computes are stored (row i keeps its beam, `row_range`; row 0
/// and the last row are whole), so memory is linear in the lengths; the others read as
/// sacrebleu's untouched cells (infinite cost, no operation).
#[derive(Debug, Default)]
struct Beam {
    n_ref: usize,
    /// Row i's cells `row_lo[i]..row_hi[i]` are `cost[row_start[i]..]` (and `op`).
    cost: Vec<i64>,
    op: Vec<Op>,
    row_lo: Vec<usize>,
    row_hi: Vec<usize>,
    row_start: Vec<usize>,
    /// Two rolling rows for candidates (whole width, infinite outside their beams).
    prev: Vec<i64>,
    cur: Vec<i64>,
    /// The full matrix's distance (its last cell).
    final_cost: i64,
    /// Compute every row of every candidate (the test oracle: no early stop).
    exhaustive: bool,
    /// Rows computed for candidates so far (tests check that the early stop happens).
    rows: u64,
}

fn beam_params(n_h: usize, n_ref: usize) -> (f64, i64) {
    let ratio = if n_h > 0 {
        n_ref as f64 / n_h as f64
    } else {
        1.0
    };
    let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
        (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
    } else {
        BEAM_WIDTH as i64
    };
    (ratio, beam)
}

/// The cells `min_j..max_j` of row `i` that sacrebleu computes.
fn row_range(i: usize, n_h: usize, n_ref: usize, ratio: f64, beam: i64) -> (usize, usize) {
    let diag = (i as f64 * ratio).floor() as i64;
    let min_j = (diag - beam).max(0) as usize;
    let mut max_j = (diag + beam).min(n_ref as i64 + 1).max(0) as usize;
    if i == n_h {
        max_j = n_ref + 1;
    }
    (min_j, max_j)
}

impl Beam {
    /// Where cell (i, j) is stored, if it is.
    #[inline]
    fn at(&self, i: usize, j: usize) -> Option<usize> {
        let lo = self.row_lo[i];
        (j >= lo && j < self.row_hi[i]).then(|| self.row_start[i] + j - lo)
    }

    #[inline]
    fn cost_at(&self, i: usize, j: usize) -> i64 {
        self.at(i, j).map_or(INF, |k| self.cost[k])
    }

    /// Fills the matrix's beam (costs and operations) of `h` against `r`; returns the distance.
    fn full(&mut self, h: &[u32], r: &[u32]) -> i64 {
        let (n_h, n_ref) = (h.len(), r.len());
        self.n_ref = n_ref;
        let w = n_ref + 1;
        self.cost.clear();
        self.op.clear();
        self.row_lo.clear();
        self.row_hi.clear();
        self.row_start.clear();
        self.cost.extend(0..w as i64);
        self.op.resize(w, Op::Ins);
        self.row_lo.push(0);
        self.row_hi.push(w);
        self.row_start.push(0);
        let (ratio, beam) = beam_params(n_h, n_ref);
        for i in 1..=n_h {
            let (min_j, max_j) = row_range(i, n_h, n_ref, ratio, beam);
            let max_j = max_j.max(min_j);
            let start = self.cost.len();
            self.row_lo.push(min_j);
            self.row_hi.push(max_j);
            self.row_start.push(start);
            self.cost.resize(start + max_j - min_j, INF);
            self.op.resize(start + max_j - min_j, Op::Undef);
            // Row i − 1 (stored before row i) read in place: infinite outside its beam.
            let (plo, phi, pstart) = (
                self.row_lo[i - 1],
                self.row_hi[i - 1],
                self.row_start[i - 1],
            );
            let (before, row) = self.cost.split_at_mut(start);
            let ops = &mut self.op[start..];
            let up = |j: usize| {
                if j >= plo && j < phi {
                    before[pstart + j - plo]
                } else {
                    INF
                }
            };
            for j in min_j..max_j {
                let here = j - min_j;
                if j == 0 {
                    row[here] = up(0) + 1;
                    ops[here] = Op::Del;
                    continue;
                }
                let (c_sub, o_sub) = if h[i - 1] == r[j - 1] {
                    (0, Op::Nop)
                } else {
                    (1, Op::Sub)
                };
                let left = if j > min_j { row[here - 1] } else { INF };
                for (c, o) in [
                    (up(j - 1) + c_sub, o_sub),
                    (up(j) + 1, Op::Del),
                    (left + 1, Op::Ins),
                ] {
                    if row[here] > c {
                        row[here] = c;
                        ops[here] = o;
                    }
                }
            }
        }
        self.final_cost = self.cost_at(n_h, n_ref);
        self.final_cost
    }

    /// The trace of the full matrix (flipped, insertions ↔ deletions, when `flip`), into
    /// `out`.
    fn trace(&self, n_h: usize, flip: bool, out: &mut Vec<Op>) {
        out.clear();
        let (mut i, mut j) = (n_h, self.n_ref);
        while i > 0 || j > 0 {
            let op = self.at(i, j).map_or(Op::Undef, |k| self.op[k]);
            match op {
                Op::Nop | Op::Sub => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                Op::Undef => unreachable!("the last row of the beam is complete"),
            }
            out.push(match op {
                Op::Ins if flip => Op::Del,
                Op::Del if flip => Op::Ins,
                o => o,
            });
        }
        out.reverse();
    }

    /// The distance of `h` (same length as the hypothesis of [`Beam::full`], equal to it in
    /// its first `same` words and from word `diff_end` on) against `r`.
    ///
    /// Rows up to `same` are the full matrix's. Past `diff_end` the rows are computed from
    /// the same words as the full matrix's, so once a row equals the full matrix's row up to
    /// a constant `c` (every finite cell `c` apart, the infinite ones equal), every later row
    /// does too (the recurrence takes minima of sums, and an infinite cell never wins over a
    /// finite one): the distance is the full matrix's plus `c`, with no further row.
    fn distance_from(&mut self, h: &[u32], r: &[u32], same: usize, diff_end: usize) -> i64 {
        let (n_h, n_ref) = (h.len(), r.len());
        let w = n_ref + 1;
        // `prev` and `cur` are infinite outside the cells in use, between calls too.
        if self.prev.len() != w {
            self.prev.clear();
            self.prev.resize(w, INF);
            self.cur.clear();
            self.cur.resize(w, INF);
        }
        let (lo, hi, at) = (self.row_lo[same], self.row_hi[same], self.row_start[same]);
        self.prev[lo..hi].copy_from_slice(&self.cost[at..at + hi - lo]);
        // The cells of `prev` and `cur` that hold values (the rest is infinite).
        let (mut prev_cells, mut cur_cells) = (lo..hi, 0..0);
        let (ratio, beam) = beam_params(n_h, n_ref);
        let mut result = None;
        for i in same + 1..=n_h {
            self.cur[cur_cells].fill(INF);
            let (min_j, max_j) = row_range(i, n_h, n_ref, ratio, beam);
            let max_j = max_j.max(min_j);
            for j in min_j..max_j {
                if j == 0 {
                    self.cur[0] = self.prev[0] + 1;
                    continue;
                }
                let c_sub = i64::from(h[i - 1] != r[j - 1]);
                let best = (self.prev[j - 1] + c_sub)
                    .min(self.prev[j] + 1)
                    .min(self.cur[j - 1] + 1);
                self.cur[j] = self.cur[j].min(best);
            }
            std::mem::swap(&mut self.prev, &mut self.cur);
            cur_cells = prev_cells;
            prev_cells = min_j..max_j;
            self.rows += 1;
            if i >= diff_end && i < n_h && !self.exhaustive {
                if let Some(c) = self.offset_from_full(i, min_j..max_j) {
                    result = Some(if self.final_cost < INF / 2 {
                        self.final_cost + c
                    } else {
                        self.final_cost
                    });
                    break;
                }
            }
        }
        let d = result.unwrap_or(self.prev[n_ref]);
        self.prev[prev_cells].fill(INF);
        self.cur[cur_cells].fill(INF);
        d
    }

    /// `Some(c)` when `prev`'s cells `cells` (row `i` of a shifted hypothesis, infinite
    /// elsewhere) are the full matrix's row `i` plus `c`: finite cells `c` apart, infinite
    /// cells (≥ INF / 2) equal.
    fn offset_from_full(&self, i: usize, cells: std::ops::Range<usize>) -> Option<i64> {
        debug_assert_eq!((self.row_lo[i], self.row_hi[i]), (cells.start, cells.end));
        let at = self.row_start[i];
        let stored = &self.cost[at..at + cells.len()];
        let mut c = None;
        for (&new, &old) in self.prev[cells].iter().zip(stored) {
            match (new < INF / 2, old < INF / 2) {
                (true, true) => match c {
                    None => c = Some(new - old),
                    Some(c) if c != new - old => return None,
                    _ => {}
                },
                (false, false) if new == old => {}
                _ => return None,
            }
        }
        Some(c.unwrap_or(0))
    }
}

/// Working memory of one thread.
#[derive(Debug, Default)]
pub struct TerScratch {
    beam: Beam,
    words: Vec<u32>,
    shifted: Vec<u32>,
    best_words: Vec<u32>,
    trace: Vec<Op>,
    align: Vec<i64>,
    ref_err: Vec<u8>,
    hyp_err: Vec<u8>,
}

/// `words[start..start+len]` moved to before index `target` (sacrebleu's `_perform_shift`).
/// Returns the end of the changed words: `out` equals `words` from there on.
fn perform_shift(
    words: &[u32],
    start: usize,
    len: usize,
    target: usize,
    out: &mut Vec<u32>,
) -> usize {
    out.clear();
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + len..]);
        start + len
    } else if target > start + len {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..]);
        target
    } else {
        // Python's slices stop at the end: `len + target` may pass it.
        let cut = (len + target).min(words.len());
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..cut]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[cut..]);
        cut
    }
}

impl TerScratch {
    /// sacrebleu's `_shift`: the best shift of `self.words` (whose full matrix is in the
    /// beam), as (gain, candidates checked so far, (start, length, target) of the best
    /// shift); the shifted words go to `best_words`.
    fn best_shift(
        &mut self,
        r: &[u32],
        pre_score: i64,
        mut checked: usize,
    ) -> (i64, usize, (usize, usize, usize)) {
        let h = std::mem::take(&mut self.words);
        let n_h = h.len();
        self.beam.trace(n_h, true, &mut self.trace);
        // trace_to_alignment
        self.align.clear();
        self.align.resize(r.len(), i64::MIN);
        self.ref_err.clear();
        self.hyp_err.clear();
        let (mut ph, mut pr) = (-1i64, -1i64);
        for &op in &self.trace {
            match op {
                Op::Nop | Op::Sub => {
                    ph += 1;
                    pr += 1;
                    self.align[pr as usize] = ph;
                    let e = u8::from(op == Op::Sub);
                    self.hyp_err.push(e);
                    self.ref_err.push(e);
                }
                Op::Ins => {
                    ph += 1;
                    self.hyp_err.push(1);
                }
                Op::Del => {
                    pr += 1;
                    self.align[pr as usize] = ph;
                    self.ref_err.push(1);
                }
                Op::Undef => unreachable!(),
            }
        }
        // (gain, length, -start_h, -idx): the best so far, compared as sacrebleu's tuples.
        let mut best: Option<(i64, usize, i64, i64)> = None;
        let n_r = r.len();
        // A candidate recomputes up to n_h rows of the beam: a Ctrl-C is seen between them.
        let mut poll = crate::interrupt::Poll::new(n_h * (2 * BEAM_WIDTH + 1));
        for start_h in 0..n_h {
            let lo = start_h.saturating_sub(MAX_SHIFT_DIST);
            let hi = (start_h + MAX_SHIFT_DIST).min(n_r.saturating_sub(1));
            for start_r in lo..=hi.min(n_r.saturating_sub(1)) {
                if n_r == 0 {
                    break;
                }
                let mut length = 0;
                while length < MAX_SHIFT_SIZE
                    && start_h + length < n_h
                    && start_r + length < n_r
                    && h[start_h + length] == r[start_r + length]
                {
                    length += 1;
                    // A candidate (start_h, start_r, length).
                    let hyp_ok = self.hyp_err[start_h..start_h + length]
                        .iter()
                        .all(|&e| e == 0);
                    let ref_ok = self.ref_err[start_r..start_r + length]
                        .iter()
                        .all(|&e| e == 0);
                    let a = self.align[start_r];
                    let inside = start_h as i64 <= a && a < (start_h + length) as i64;
                    if !(hyp_ok || ref_ok || inside) {
                        let mut prev_idx = -1i64;
                        for offset in -1..length as i64 {
                            let pos = start_r as i64 + offset;
                            let idx = if pos == -1 {
                                0
                            } else if (pos as usize) < n_r && self.align[pos as usize] != i64::MIN {
                                self.align[pos as usize] + 1
                            } else {
                                break;
                            };
                            if idx == prev_idx {
                                continue;
                            }
                            prev_idx = idx;
                            if poll.stop() {
                                // The result is discarded: the batch runner sees the flag.
                                self.words = h;
                                return (0, MAX_SHIFT_CANDIDATES, (0, 0, 0));
                            }
                            let target = idx as usize;
                            let diff_end =
                                perform_shift(&h, start_h, length, target, &mut self.shifted);
                            let same = start_h.min(target);
                            let d = self.beam.distance_from(&self.shifted, r, same, diff_end);
                            let cand = (pre_score - d, length, -(start_h as i64), -idx);
                            checked += 1;
                            if best.is_none_or(|b| cand > b) {
                                best = Some(cand);
                                std::mem::swap(&mut self.best_words, &mut self.shifted);
                            }
                        }
                    }
                    if checked >= MAX_SHIFT_CANDIDATES {
                        break;
                    }
                }
                if checked >= MAX_SHIFT_CANDIDATES {
                    break;
                }
            }
            if checked >= MAX_SHIFT_CANDIDATES {
                break;
            }
        }
        self.words = h;
        match best {
            None => (0, checked, (0, 0, 0)),
            Some((gain, length, start, idx)) => {
                (gain, checked, ((-start) as usize, length, (-idx) as usize))
            }
        }
    }

    /// sacrebleu's `translation_edit_rate`: (edits, reference length).
    pub fn edits(&mut self, hyp: &[u32], r: &[u32]) -> (usize, usize) {
        (self.run(hyp, r, None).edits(), r.len())
    }

    /// sacrebleu's `translation_edit_rate` with its operations counted; each applied shift
    /// is pushed to `shifts` when given. The final hypothesis is left in `self.words` and
    /// its full matrix in the beam.
    fn run(&mut self, hyp: &[u32], r: &[u32], mut record: Option<&mut Vec<Shift>>) -> EditCounts {
        self.words.clear();
        self.words.extend_from_slice(hyp);
        if r.is_empty() {
            self.trace.clear();
            self.trace.resize(hyp.len(), Op::Del);
            return EditCounts::of_trace(&self.trace, 0);
        }
        let mut shifts = 0;
        let mut checked = 0;
        loop {
            let words = std::mem::take(&mut self.words);
            let pre = self.beam.full(&words, r);
            self.words = words;
            let (gain, c, (start, length, target)) = self.best_shift(r, pre, checked);
            checked = c;
            if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
                self.beam.trace(self.words.len(), false, &mut self.trace);
                return EditCounts::of_trace(&self.trace, shifts);
            }
            shifts += 1;
            std::mem::swap(&mut self.words, &mut self.best_words);
            if let Some(out) = record.as_deref_mut() {
                out.push(Shift {
                    start,
                    length,
                    target,
                    words: self.words.clone(),
                });
            }
        }
    }

    /// The edit operations of `hyp` against `r`.
    pub fn counts(&mut self, hyp: &[u32], r: &[u32]) -> EditCounts {
        self.run(hyp, r, None)
    }
}

/// TER's edit script of `hyp` against one reference `r`: the shifts applied, the shifted
/// hypothesis and the edit operations that turn it into `r`.
pub fn explain(hyp: &[u32], r: &[u32]) -> Explanation {
    let mut s = TerScratch::default();
    let mut shifts = Vec::new();
    let counts = s.run(hyp, r, Some(&mut shifts));
    Explanation {
        shifts,
        words: std::mem::take(&mut s.words),
        trace: std::mem::take(&mut s.trace),
        counts,
    }
}

/// `[edits of the best reference, average reference length]`.
impl Metric for TerConfig {
    type Scratch = TerScratch;
    type Context = ();
    const PAIR_LOCAL_IDS: bool = true;
    const TASK_PAIRS: usize = 4;

    fn width(&self) -> usize {
        if self.ops {
            6
        } else {
            2
        }
    }

    fn pair_statistics(&self, _: &(), s: &mut TerScratch, pair: Pair<'_>, row: &mut [f64]) {
        let hyp = pair.hyp();
        // The first reference with the fewest edits, as sacrebleu keeps it.
        let mut best: Option<EditCounts> = None;
        let mut ref_lengths = 0usize;
        // A Ctrl-C seen inside one reference's shift search must not leave the remaining
        // references to be searched (each a full beam first: ~1 s for 40 references of 100k
        // words); the row is discarded by the batch runner anyway.
        let mut poll = crate::interrupt::Poll::new(hyp.len() * (2 * BEAM_WIDTH + 1));
        for r in pair.refs() {
            if poll.stop() {
                break;
            }
            let c = s.counts(hyp, r);
            ref_lengths += r.len();
            if best.is_none_or(|b| c.edits() < b.edits()) {
                best = Some(c);
            }
        }
        let best = best.unwrap_or_default();
        row[0] = best.edits() as f64;
        row[1] = ref_lengths as f64 / pair.n_refs() as f64;
        if self.ops {
            row[2] = best.insertions as f64;
            row[3] = best.deletions as f64;
            row[4] = best.substitutions as f64;
            row[5] = best.shifts as f64;
        }
    }
}

/// Corpus TER (0-100) of summed `[edits, ref_len]` (sacrebleu's `_compute_score_from_stats`).
pub fn score(edits: f64, ref_len: f64) -> f64 {
    let s = if ref_len > 0.0 {
        edits / ref_len
    } else if edits > 0.0 {
        1.0
    } else {
        0.0
    };
    100.0 * s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(s: &str, vocab: &mut Vec<String>) -> Vec<u32> {
        s.split_whitespace()
            .map(|w| match vocab.iter().position(|v| v == w) {
                Some(k) => k as u32,
                None => {
                    vocab.push(w.to_string());
                    (vocab.len() - 1) as u32
                }
            })
            .collect()
    }

    fn ter(h: &str, r: &str) -> (usize, usize) {
        let mut v = Vec::new();
        let (h, r) = (ids(h, &mut v), ids(r, &mut v));
        TerScratch::default().edits(&h, &r)
    }

    #[test]
    fn sacrebleu_cases() {
        // sacrebleu's test_ter.py (edits, ref length).
        assert_eq!(ter("a b c d", "a b c d"), (0, 4));
        assert_eq!(ter("", "a b c"), (3, 3));
        assert_eq!(ter("a b", ""), (2, 0));
        // One shift of "b c" plus nothing else.
        assert_eq!(ter("d a b c", "a b c d"), (1, 4));
        assert_eq!(
            ter("does this sentence match", "does this sentence match ?"),
            (1, 5)
        );
    }

    #[test]
    fn counts_add_up_and_explain_replays_the_shifts() {
        let mut v = Vec::new();
        for (h, r) in [
            ("d a b c", "a b c d"),
            ("a b x y c d e", "c d e a b z"),
            ("", "a b c"),
            ("a b", ""),
            ("the cat sat on the mat", "on the mat the cat sat down"),
        ] {
            let (h, r) = (ids(h, &mut v), ids(r, &mut v));
            let (edits, _) = TerScratch::default().edits(&h, &r);
            let e = explain(&h, &r);
            assert_eq!(e.counts.edits(), edits);
            assert_eq!(e.counts.shifts, e.shifts.len());
            // Replaying the shifts gives the final words; the trace rewrites them into r.
            let mut words = h.clone();
            for s in &e.shifts {
                let mut out = Vec::new();
                let _ = perform_shift(&words, s.start, s.length, s.target, &mut out);
                assert_eq!(out, s.words);
                words = out;
            }
            assert_eq!(words, e.words);
            let (mut i, mut j, mut built) = (0, 0, Vec::new());
            for op in &e.trace {
                match op {
                    Op::Nop => {
                        assert_eq!(words[i], r[j]);
                        built.push(words[i]);
                        i += 1;
                        j += 1;
                    }
                    Op::Sub => {
                        assert_ne!(words[i], r[j]);
                        built.push(r[j]);
                        i += 1;
                        j += 1;
                    }
                    Op::Del => i += 1,
                    Op::Ins => {
                        built.push(r[j]);
                        j += 1;
                    }
                    Op::Undef => unreachable!(),
                }
            }
            assert_eq!((i, built), (words.len(), r.clone()));
        }
        let e = explain(&ids("d a b c", &mut v), &ids("a b c d", &mut v));
        assert_eq!(
            e.counts,
            EditCounts {
                insertions: 0,
                deletions: 0,
                substitutions: 0,
                shifts: 1
            }
        );
        assert_eq!((e.shifts[0].start, e.shifts[0].length), (0, 1));
    }

    #[test]
    fn shifted_distance_reuses_rows() {
        let mut v = Vec::new();
        let h = ids("a b c d e f g", &mut v);
        let r = ids("a c b d f e g x", &mut v);
        let mut b = Beam::default();
        b.full(&h, &r);
        let mut shifted = Vec::new();
        let end = perform_shift(&h, 1, 1, 3, &mut shifted);
        let fast = b.distance_from(&shifted, &r, 1, end);
        let mut fresh = Beam::default();
        assert_eq!(fast, fresh.full(&shifted, &r));
    }

    /// TER with every candidate's rows computed to the end (no early stop): the oracle.
    fn counts_exhaustive(h: &[u32], r: &[u32]) -> (EditCounts, Vec<u32>) {
        let mut s = TerScratch::default();
        s.beam.exhaustive = true;
        let c = s.run(h, r, None);
        (c, s.words)
    }

    #[test]
    fn candidates_stop_soon_after_the_shifted_words() {
        // A 3,000-word pair whose shift candidates lie in the first words: each candidate's
        // rows stop within a few hundred rows of the shift, not at the end.
        let h: Vec<u32> = (0..3000u32).map(|k| (k * 7 + k / 13) % 50).collect();
        let mut r = h.clone();
        r.swap(3, 9);
        r[20] = 99;
        r.rotate_left(1);
        let mut fast = TerScratch::default();
        let a = fast.run(&h, &r, None);
        let (b, _) = counts_exhaustive(&h, &r);
        assert_eq!(a, b);
        let mut slow = TerScratch::default();
        slow.beam.exhaustive = true;
        slow.run(&h, &r, None);
        assert!(slow.beam.rows > 0);
        assert!(
            fast.beam.rows * 20 < slow.beam.rows,
            "{} {}",
            fast.beam.rows,
            slow.beam.rows
        );
    }

    use proptest::prelude::*;

    /// Two word lists over a small alphabet (many shift candidates), of unrelated lengths
    /// (the beam's ratio and width vary).
    fn pair() -> impl Strategy<Value = (Vec<u32>, Vec<u32>)> {
        (0usize..5).prop_flat_map(|k| {
            let alphabet = [2u32, 3, 5, 8, 30][k];
            (
                proptest::collection::vec(0..alphabet, 0..90),
                proptest::collection::vec(0..alphabet, 0..90),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn early_stop_equals_exhaustive((h, r) in pair()) {
            let mut s = TerScratch::default();
            let fast = s.run(&h, &r, None);
            let (slow, words) = counts_exhaustive(&h, &r);
            prop_assert_eq!(fast, slow);
            prop_assert_eq!(&s.words, &words);
        }

        #[test]
        fn shifted_distance_equals_a_fresh_matrix(
            (h, r) in pair(),
            a in 0usize..1000, b in 0usize..1000, t in 0usize..1000,
        ) {
            prop_assume!(!h.is_empty());
            let n = h.len();
            let start = a % n;
            let len = 1 + b % (n - start).min(MAX_SHIFT_SIZE);
            let target = t % (n + 1);
            let mut shifted = Vec::new();
            let end = perform_shift(&h, start, len, target, &mut shifted);
            prop_assert_eq!(shifted.len(), n);
            let same = start.min(target);
            prop_assert_eq!(&shifted[..same], &h[..same]);
            prop_assert_eq!(&shifted[end..], &h[end..]);
            let mut beam = Beam::default();
            beam.full(&h, &r);
            let fast = beam.distance_from(&shifted, &r, same, end);
            // Twice: the rolling rows are left infinite between calls.
            prop_assert_eq!(fast, beam.distance_from(&shifted, &r, same, end));
            prop_assert_eq!(fast, Beam::default().full(&shifted, &r));
        }
    }
}

/// TER's contract: options (sacrebleu's tercom tokenization), columns and figures.
mod native {
    use super::{score, TerConfig};
    use crate::metrics::contract::{sum_rows, CellScore, Configured, Contract};
    use crate::options::{DefaultValue as D, Kind, OptionSpec, Options};
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};
    use crate::Result;

    impl Contract for TerConfig {
        const NAME: &'static str = "ter";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new("case_sensitive", Kind::Bool, D::Bool(false), "keep case"),
            OptionSpec::new(
                "ops",
                Kind::Bool,
                D::Bool(false),
                "add the operation counts of the chosen reference to each row",
            ),
        ];

        /// sacrebleu's default tercom tokenization: lowercase unless case-sensitive, then
        /// words between whitespace.
        fn build(o: &Options) -> Result<Configured<Self>> {
            let tokenizer = Tokenizer::new(TokenizerKind::Split, !o.bool("case_sensitive"));
            Ok(Configured {
                metric: TerConfig { ops: o.bool("ops") },
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![if self.ops { 6 } else { 2 }]
        }

        /// Edits and the average reference length (then, with `ops`, the operations).
        fn columns(&self) -> Vec<String> {
            let all = [
                "edits",
                "ref_len",
                "insertions",
                "deletions",
                "substitutions",
                "shifts",
            ];
            all[..self.shape()[0]]
                .iter()
                .map(|s| s.to_string())
                .collect()
        }

        fn fields(&self) -> Vec<String> {
            ["score", "edits", "ref_len"].map(String::from).to_vec()
        }

        /// Corpus TER: (score, Σ edits, Σ ref_len), summed in row order as sacrebleu does.
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            let t = sum_rows(rows, self.shape()[0]);
            Some(vec![score(t[0], t[1]), t[0], t[1]])
        }

        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            Some(Box::new(|row| score(row[0], row[1])))
        }

        /// Matrices return rows: Python's TER normalises its input and scores itself.
        fn cell_score(&self, _k: usize) -> Option<CellScore<'_>> {
            None
        }
    }
}
