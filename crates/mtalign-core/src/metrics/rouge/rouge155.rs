//! ROUGE-1.5.5's own departures from the paper, for `compat="rouge155"` (found by running it;
//! see `tests/data/README.md`).
//!
//! * ROUGE-W: after the weighted-LCS table is filled (diagonal on a match; otherwise up when
//!   the upper cell is **>=** the left one), the LCS is traced back and the hit weight is
//!   recounted from the traced reference positions, Σ f(run) over runs that are consecutive
//!   **on the reference side only**; the recall denominator is m^(w·w), the precision one n^w.
//! * ROUGE-SU: the unigrams of the last token are never counted (one-word sentences have none).
//! * `-f B` picks the reference by recalls already rounded to 5 decimals for ROUGE-N and S/SU.

use crate::kernels::counts::Counts;
use crate::kernels::wlcs::SEGMENT_CELLS;
use crate::kernels::wlcs_rows::{self, Columns, RowMarks};

/// Tables of at most this many cells keep every back pointer; larger ones keep checkpoint
/// rows and columns and recompute one block at a time during the traceback.
const FULL_TABLE_CELLS: usize = 1 << 24;

/// Bytes the checkpoints of a long pair may take (rows every `S` rows and columns every `S`
/// columns, 12 bytes a cell): `S` is chosen so they fit.
const CHECKPOINT_BYTES: usize = 64 << 20;

/// Checkpoint spacing at most this (a block's back pointers are S²/8 bytes); a pair that
/// would need more falls back to the row-band traceback.
const MAX_BLOCK_SIDE: usize = 1 << 13;

/// What one pass of [`Wlcs155Scratch::rows`] computes and keeps.
struct Pass {
    /// The rows of the table it computes (of x)...
    rows: std::ops::Range<usize>,
    /// ... over columns 1..=`cols` (of y).
    cols: usize,
    /// Records each cell's "took the upper value" bit (band-relative rows, this many words
    /// a row).
    bits: Option<usize>,
    /// Copies every this many-th row into the saved rows (checkpoints).
    save: Option<usize>,
}

/// Reusable tables of the ROUGE-1.5.5 weighted LCS.
#[derive(Debug, Default)]
pub struct Wlcs155Scratch {
    columns: Columns,
    marks: [RowMarks; 2],
    weight: f64,
    /// f(k) = k^weight.
    f: Vec<f64>,
    prev_c: Vec<f64>,
    cur_c: Vec<f64>,
    prev_k: Vec<u32>,
    cur_k: Vec<u32>,
    /// Back pointers of a band of rows, row-major (rows × (n + 1) bits): set where the
    /// cell took the upper value (a match is known from the symbols, so one bit suffices).
    up: Vec<u64>,
    /// DP rows saved every `band` rows (c and k), for the banded traceback.
    saved_c: Vec<f64>,
    saved_k: Vec<u32>,
    /// Cells (c and k) of every row in the checkpoint columns S, 2S, ... < n, row-major.
    col_c: Vec<f64>,
    col_k: Vec<u32>,
    marked: Vec<bool>,
}

impl Wlcs155Scratch {
    fn ensure_f(&mut self, weight: f64, up_to: usize) {
        if self.weight != weight {
            self.weight = weight;
            self.f.clear();
        }
        while self.f.len() <= up_to + 1 {
            let k = self.f.len() as f64;
            self.f.push(k.powf(weight));
        }
    }

    /// f(k) for the current weight (valid after [`Self::hit`] prepared the table).
    fn f(&self, k: usize) -> f64 {
        self.f[k]
    }

    /// Computes the rows of `pass` starting from `prev_c` / `prev_k` (the row before),
    /// leaving the last row in `prev_c` / `prev_k`; false if interrupted.
    fn rows(&mut self, x: &[u32], y: &[u32], pass: Pass) -> bool {
        if pass.rows.len() * pass.cols > SEGMENT_CELLS {
            return self.rows_by_segments(x, y, pass);
        }
        let Pass {
            rows,
            cols,
            bits,
            save,
        } = pass;
        let n1 = y.len() + 1;
        let first = rows.start;
        let mut poll = crate::interrupt::Poll::new(cols);
        for i in rows {
            if poll.stop() {
                // Interrupted: the caller stops (the batch runner sees the same flag).
                return false;
            }
            let xi = x[i];
            self.cur_c[0] = 0.0;
            self.cur_k[0] = 0;
            for (j, &yj) in y[..cols].iter().enumerate() {
                if xi == yj {
                    let k = self.prev_k[j] as usize;
                    // Perl evaluates c + f(k+1) - f(k) left to right; ties below depend on it.
                    self.cur_c[j + 1] = self.prev_c[j] + self.f[k + 1] - self.f[k];
                    self.cur_k[j + 1] = k as u32 + 1;
                } else {
                    let (up, left) = (self.prev_c[j + 1], self.cur_c[j]);
                    self.cur_k[j + 1] = 0;
                    if up >= left {
                        self.cur_c[j + 1] = up;
                        if let Some(stride) = bits {
                            let bit = (i - first) * stride * 64 + j;
                            self.up[bit / 64] |= 1 << (bit % 64);
                        }
                    } else {
                        self.cur_c[j + 1] = left;
                    }
                }
            }
            std::mem::swap(&mut self.prev_c, &mut self.cur_c);
            std::mem::swap(&mut self.prev_k, &mut self.cur_k);
            if let Some(every) = save {
                if (i + 1) % every == 0 && i + 1 < x.len() {
                    self.saved_c.extend_from_slice(&self.prev_c[..n1]);
                    self.saved_k.extend_from_slice(&self.prev_k[..n1]);
                }
            }
        }
        true
    }

    /// [`Self::rows`] by segments (`kernels/wlcs_rows.rs`): the same cells and bits.
    fn rows_by_segments(&mut self, x: &[u32], y: &[u32], pass: Pass) -> bool {
        let (n1, cols) = (y.len() + 1, pass.cols);
        let first = pass.rows.start;
        self.columns.prepare(&y[..cols]);
        let [mut pm, mut cm] = std::mem::take(&mut self.marks);
        pm.from_row(&self.prev_c, &self.prev_k, cols);
        let mut poll = crate::interrupt::Poll::new(cols);
        let mut done = true;
        for i in pass.rows {
            if poll.stop() {
                done = false;
                break;
            }
            self.row(x[i], cols, &pm, &mut cm, (0.0, 0));
            if let Some(stride) = pass.bits {
                let base = (i - first) * stride;
                let words = &mut self.up[base..base + cols.div_ceil(64)];
                up_bits(words, &self.prev_c, &self.cur_c, cols, &cm.matches);
            }
            std::mem::swap(&mut self.prev_c, &mut self.cur_c);
            std::mem::swap(&mut pm, &mut cm);
            if let Some(every) = pass.save {
                if (i + 1).is_multiple_of(every) && i + 1 < x.len() {
                    self.saved_c.extend_from_slice(&self.prev_c[..n1]);
                    let at = self.saved_k.len();
                    self.saved_k.resize(at + n1, 0);
                    for (&c, &r) in pm.matches.iter().zip(&pm.runs) {
                        self.saved_k[at + c as usize] = r;
                    }
                }
            }
        }
        self.marks = [pm, cm];
        done
    }

    /// The recounted hit weight of reference `x` (rows) and candidate `y` (columns).
    pub fn hit(&mut self, x: &[u32], y: &[u32], weight: f64) -> f64 {
        let cells = x.len().saturating_mul(y.len());
        if cells <= FULL_TABLE_CELLS {
            return self.hit_banded(x, y, weight, x.len().max(1));
        }
        // Checkpoint rows and columns every S: 24·m·n/S bytes; the traceback recomputes
        // about (m + n)·S cells, S = √(m·n)/32 (6% of the table for a square one) unless
        // the checkpoints would exceed their budget.
        let side = ((cells as f64).sqrt() as usize / 32)
            .max(cells / (CHECKPOINT_BYTES / 24))
            .max(64);
        if side <= MAX_BLOCK_SIDE {
            return self.hit_blocked(x, y, weight, side, side);
        }
        // Saved rows (12 bytes a column each) and one band of bits balance at
        // band ≈ √(96·m); never fewer than 64 rows.
        let band = (((96 * x.len()) as f64).sqrt() as usize).max(64);
        self.hit_banded(x, y, weight, band)
    }

    /// Forward pass of [`Self::hit_blocked`], by vertical strips `every_col` columns wide
    /// (two rows of a strip stay in cache; each strip starts from the last column of the
    /// one before): keeps rows `every_row`, 2·`every_row`, ... < m whole and, of every row,
    /// the cells in columns `every_col`, 2·`every_col`, ... < n. False when interrupted.
    fn forward_checkpoints(
        &mut self,
        x: &[u32],
        y: &[u32],
        every_row: usize,
        every_col: usize,
    ) -> bool {
        let (m, n) = (x.len(), y.len());
        let n1 = n + 1;
        let samples = (n - 1) / every_col;
        self.col_c.clear();
        self.col_c.resize((m + 1) * samples, 0.0);
        self.col_k.clear();
        self.col_k.resize((m + 1) * samples, 0);
        let saved_rows = (m - 1) / every_row;
        self.saved_c.clear();
        self.saved_c.resize(saved_rows * n1, 0.0);
        self.saved_k.clear();
        self.saved_k.resize(saved_rows * n1, 0);
        let [mut pm, mut cm] = std::mem::take(&mut self.marks);
        let mut poll = crate::interrupt::Poll::new(every_col);
        let mut done = true;
        'strips: for strip in 0..=samples {
            let c0 = strip * every_col;
            let w = every_col.min(n - c0);
            self.columns.prepare(&y[c0..c0 + w]);
            self.prev_c[..=w].fill(0.0);
            pm.clear();
            for (i, &xi) in x.iter().enumerate() {
                if poll.stop() {
                    done = false;
                    break 'strips;
                }
                // Row i+1's cell and row i's run length in column c0 (left strip's last).
                let left = if strip == 0 {
                    (0.0, 0)
                } else {
                    let at = strip - 1;
                    (
                        self.col_c[(i + 1) * samples + at],
                        self.col_k[i * samples + at],
                    )
                };
                self.row(xi, w, &pm, &mut cm, left);
                std::mem::swap(&mut self.prev_c, &mut self.cur_c);
                std::mem::swap(&mut pm, &mut cm);
                if strip < samples {
                    let at = (i + 1) * samples + strip;
                    self.col_c[at] = self.prev_c[w];
                    if pm.matches.last() == Some(&(w as u32)) {
                        self.col_k[at] = pm.runs[pm.runs.len() - 1];
                    }
                }
                if (i + 1).is_multiple_of(every_row) && i + 1 < m {
                    let at = ((i + 1) / every_row - 1) * n1 + c0;
                    self.saved_c[at + 1..=at + w].copy_from_slice(&self.prev_c[1..=w]);
                    for (&c, &r) in pm.matches.iter().zip(&pm.runs) {
                        self.saved_k[at + c as usize] = r;
                    }
                }
            }
        }
        self.marks = [pm, cm];
        done
    }

    /// [`Self::hit`] with checkpoint rows every `every_row` rows and checkpoint columns every
    /// `every_col` columns: the traceback recomputes only the blocks it passes through, each
    /// from its top row and left column. O((m / every_row + n / every_col)·(m + n) +
    /// every_row·every_col / 8) memory; the same cells, so the same numbers, for any spacing.
    fn hit_blocked(
        &mut self,
        x: &[u32],
        y: &[u32],
        weight: f64,
        every_row: usize,
        every_col: usize,
    ) -> f64 {
        let (m, n) = (x.len(), y.len());
        if m == 0 || n == 0 {
            return 0.0;
        }
        self.ensure_f(weight, m.max(n));
        for v in [&mut self.prev_c, &mut self.cur_c] {
            v.clear();
            v.resize(n + 1, 0.0);
        }
        for v in [&mut self.prev_k, &mut self.cur_k] {
            v.clear();
            v.resize(n + 1, 0);
        }
        self.saved_c.clear();
        self.saved_k.clear();
        if !self.forward_checkpoints(x, y, every_row, every_col) {
            self.release_checkpoints();
            return 0.0;
        }
        let samples = (n - 1) / every_col;
        self.marked.clear();
        self.marked.resize(m, false);
        let [mut pm, mut cm] = std::mem::take(&mut self.marks);
        let (mut i, mut j) = (m, n);
        let mut poll = crate::interrupt::Poll::new(every_col);
        let mut interrupted = false;
        'blocks: while i > 0 && j > 0 {
            let r0 = (i - 1) / every_row * every_row;
            let c0 = (j - 1) / every_col * every_col;
            let w = j - c0;
            // The block's top row (row r0, columns c0..=j).
            if r0 == 0 {
                self.prev_c[..=w].fill(0.0);
                self.prev_k[..=w].fill(0);
            } else {
                let at = (r0 / every_row - 1) * (n + 1) + c0;
                self.prev_c[..=w].copy_from_slice(&self.saved_c[at..=at + w]);
                self.prev_k[..=w].copy_from_slice(&self.saved_k[at..=at + w]);
            }
            pm.from_row(&self.prev_c, &self.prev_k, w);
            // Cells and run lengths of column c0 in row `r` (zero in column 0).
            let left = |s: &Self, r: usize| -> (f64, u32) {
                if c0 == 0 {
                    (0.0, 0)
                } else {
                    let at = r * samples + c0 / every_col - 1;
                    (s.col_c[at], s.col_k[at])
                }
            };
            self.columns.prepare(&y[c0..j]);
            let stride = w.div_ceil(64);
            self.up.clear();
            self.up.resize((i - r0) * stride, 0);
            for (r, &xr) in x.iter().enumerate().take(i).skip(r0) {
                if poll.stop() {
                    interrupted = true;
                    break 'blocks;
                }
                let (c_here, _) = left(self, r + 1);
                let (_, k_above) = left(self, r);
                self.row(xr, w, &pm, &mut cm, (c_here, k_above));
                let base = (r - r0) * stride;
                let words = &mut self.up[base..base + stride];
                up_bits(words, &self.prev_c, &self.cur_c, w, &cm.matches);
                std::mem::swap(&mut self.prev_c, &mut self.cur_c);
                std::mem::swap(&mut pm, &mut cm);
            }
            while i > r0 && j > c0 {
                if x[i - 1] == y[j - 1] {
                    self.marked[i - 1] = true;
                    i -= 1;
                    j -= 1;
                } else {
                    let bit = (i - 1 - r0) * stride * 64 + (j - c0 - 1);
                    if self.up[bit / 64] >> (bit % 64) & 1 == 1 {
                        i -= 1;
                    } else {
                        j -= 1;
                    }
                }
            }
        }
        self.marks = [pm, cm];
        self.release_checkpoints();
        if interrupted {
            return 0.0;
        }
        self.recount()
    }

    /// A long pair's tables are not kept for the next (mostly short) ones.
    fn release_checkpoints(&mut self) {
        self.up = Vec::new();
        self.saved_c = Vec::new();
        self.saved_k = Vec::new();
        self.col_c = Vec::new();
        self.col_k = Vec::new();
    }

    /// Σ f(run) over the runs of consecutive marked reference positions.
    fn recount(&self) -> f64 {
        let mut hit = 0.0;
        let mut run = 0;
        for k in 0..=self.marked.len() {
            if k < self.marked.len() && self.marked[k] {
                run += 1;
            } else if run > 0 {
                hit += self.f(run);
                run = 0;
            }
        }
        hit
    }

    /// [`Self::hit`] with checkpoints every `band` rows: O((m / band + band / 64)·n) memory,
    /// and the same numbers for every `band` (the recomputed cells are the same operations).
    fn hit_banded(&mut self, x: &[u32], y: &[u32], weight: f64, band: usize) -> f64 {
        let (m, n) = (x.len(), y.len());
        if m == 0 || n == 0 {
            return 0.0;
        }
        self.ensure_f(weight, m.max(n));
        let reset = |c: &mut Vec<f64>, k: &mut Vec<u32>| {
            c.clear();
            c.resize(n + 1, 0.0);
            k.clear();
            k.resize(n + 1, 0);
        };
        reset(&mut self.prev_c, &mut self.prev_k);
        reset(&mut self.cur_c, &mut self.cur_k);
        self.saved_c.clear();
        self.saved_k.clear();
        let stride = n.div_ceil(64);
        // Forward pass: only the checkpoint rows (rows band, 2·band, ... < m) are kept.
        let bands = m.div_ceil(band);
        let checkpoints = Pass {
            rows: 0..m,
            cols: n,
            bits: None,
            save: Some(band),
        };
        if bands > 1 && !self.rows(x, y, checkpoints) {
            return 0.0;
        }
        // Backward: per band, from its checkpoint, recompute its rows up to column j with
        // their bits, then trace back through it.
        self.marked.clear();
        self.marked.resize(m, false);
        let (mut i, mut j) = (m, n);
        for b in (0..bands).rev() {
            if i == 0 || j == 0 {
                break;
            }
            let start = b * band;
            if start >= i {
                continue;
            }
            if start == 0 {
                self.prev_c[..=n].fill(0.0);
                self.prev_k[..=n].fill(0);
            } else {
                let at = (start / band - 1) * (n + 1);
                self.prev_c[..=n].copy_from_slice(&self.saved_c[at..at + n + 1]);
                self.prev_k[..=n].copy_from_slice(&self.saved_k[at..at + n + 1]);
            }
            let rows = i - start;
            self.up.clear();
            self.up.resize(rows * stride, 0);
            let traced = Pass {
                rows: start..i,
                cols: j,
                bits: Some(stride),
                save: None,
            };
            if !self.rows(x, y, traced) {
                return 0.0;
            }
            while i > start && j > 0 {
                if x[i - 1] == y[j - 1] {
                    self.marked[i - 1] = true;
                    i -= 1;
                    j -= 1;
                } else {
                    let bit = (i - 1 - start) * stride * 64 + (j - 1);
                    if self.up[bit / 64] >> (bit % 64) & 1 == 1 {
                        i -= 1;
                    } else {
                        j -= 1;
                    }
                }
            }
        }
        if bands > 1 {
            // A long pair's tables are not kept for the next (mostly short) ones.
            self.up = Vec::new();
            self.saved_c = Vec::new();
            self.saved_k = Vec::new();
        }
        self.recount()
    }

    /// ROUGE-1.5.5's ROUGE-W statistics: (recounted hit, n^w, m^(w·w)).
    pub fn counts(&mut self, reference: &[u32], hyp: &[u32], weight: f64) -> Counts {
        let hit = self.hit(reference, hyp, weight);
        Counts::new(
            hit,
            (hyp.len() as f64).powf(weight),
            (reference.len() as f64).powf(weight * weight),
        )
    }
}

impl Wlcs155Scratch {
    /// Row `cur_c` of the table from row `prev_c` over the first `cols` columns prepared in
    /// `columns`, for the row of x holding `symbol` ([`wlcs_rows::row`], its `left` too),
    /// with ROUGE-1.5.5's weighting.
    #[inline]
    fn row(
        &mut self,
        symbol: u32,
        cols: usize,
        pm: &RowMarks,
        cm: &mut RowMarks,
        left: (f64, u32),
    ) {
        let f = &self.f;
        // Perl evaluates c + f(k+1) - f(k) left to right; ties below depend on it.
        let weighted = |diag: f64, k: u32| diag + f[k as usize + 1] - f[k as usize];
        let matches = self.columns.of(symbol);
        wlcs_rows::row(
            &self.prev_c,
            &mut self.cur_c,
            cols,
            matches,
            pm,
            cm,
            weighted,
            left,
        );
    }
}

/// The back pointers of one row of `cols` cells, one bit a cell into `words`: "took the
/// upper value" (the cell above `prev` >= the cell to the left in `cur`), cleared at the
/// row's `matches` (1-based columns), which took the diagonal.
fn up_bits(words: &mut [u64], prev: &[f64], cur: &[f64], cols: usize, matches: &[u32]) {
    for (w, word) in words.iter_mut().enumerate() {
        let lo = w * 64;
        let hi = (lo + 64).min(cols);
        let mut b = 0u64;
        for (t, (&up, &left)) in prev[lo + 1..=hi].iter().zip(&cur[lo..hi]).enumerate() {
            b |= u64::from(up >= left) << t;
        }
        *word = b;
    }
    for &c in matches {
        let bit = c as usize - 1;
        words[bit / 64] &= !(1 << (bit % 64));
    }
}

/// `x` rounded to 5 decimals as Perl's `sprintf("%.5f")` prints it.
pub fn round5(x: f64) -> f64 {
    format!("{x:.5}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_y1_y2_recounted() {
        // ROUGE-1.5.5 gives both Y1 and Y2 4^w: Y2's matches are consecutive on the
        // reference side.
        let [x, y1, y2] = crate::kernels::wlcs::PAPER_X_Y1_Y2;
        let mut s = Wlcs155Scratch::default();
        assert_eq!(s.hit(&x, &y1, 2.0), 16.0);
        assert_eq!(s.hit(&x, &y2, 2.0), 16.0);
        // Swapping roles changes it: on Y2's side the matches are not consecutive.
        assert_eq!(s.hit(&y2, &x, 2.0), 4.0);
        let c = s.counts(&x, &y1, 2.0);
        assert_eq!(
            (c.hit, c.hyp_total, c.ref_total),
            (16.0, 49.0, 7f64.powi(4))
        );
        assert_eq!(s.hit(&[], &y1, 2.0), 0.0);
    }

    /// The original: every back pointer in an m × n table.
    fn hit_full_table(x: &[u32], y: &[u32], weight: f64) -> f64 {
        let (m, n) = (x.len(), y.len());
        if m == 0 || n == 0 {
            return 0.0;
        }
        let f: Vec<f64> = (0..=m.max(n) + 1)
            .map(|k| (k as f64).powf(weight))
            .collect();
        let (mut c, mut kk) = (
            vec![vec![0.0f64; n + 1]; m + 1],
            vec![vec![0usize; n + 1]; m + 1],
        );
        let mut dirs = vec![vec![0u8; n]; m];
        for i in 0..m {
            for j in 0..n {
                if x[i] == y[j] {
                    let k = kk[i][j];
                    c[i + 1][j + 1] = c[i][j] + f[k + 1] - f[k];
                    kk[i + 1][j + 1] = k + 1;
                } else if c[i][j + 1] >= c[i + 1][j] {
                    c[i + 1][j + 1] = c[i][j + 1];
                    dirs[i][j] = 1;
                } else {
                    c[i + 1][j + 1] = c[i + 1][j];
                    dirs[i][j] = 2;
                }
            }
        }
        let mut marked = vec![false; m];
        let (mut i, mut j) = (m, n);
        while i > 0 && j > 0 {
            match (x[i - 1] == y[j - 1], dirs[i - 1][j - 1]) {
                (true, _) => {
                    marked[i - 1] = true;
                    i -= 1;
                    j -= 1;
                }
                (false, 1) => i -= 1,
                _ => j -= 1,
            }
        }
        let (mut hit, mut run) = (0.0, 0);
        for &on in marked.iter().chain([&false]) {
            if on {
                run += 1;
            } else if run > 0 {
                hit += f[run];
                run = 0;
            }
        }
        hit
    }

    proptest::proptest! {
        #[test]
        fn banded_traceback_equals_the_full_table(
            x in proptest::collection::vec(0u32..5, 0..90),
            y in proptest::collection::vec(0u32..5, 0..90),
            band in 1usize..20,
            weight in proptest::sample::select(vec![1.0, 1.2, 2.0, 0.5]),
        ) {
            let want = hit_full_table(&x, &y, weight);
            let mut s = Wlcs155Scratch::default();
            proptest::prop_assert_eq!(s.hit(&x, &y, weight).to_bits(), want.to_bits());
            proptest::prop_assert_eq!(s.hit_banded(&x, &y, weight, band).to_bits(), want.to_bits());
        }

        #[test]
        fn segments_equal_the_full_table(
            x in proptest::collection::vec(0u32..8, 0..400),
            y in proptest::collection::vec(0u32..8, 0..400),
            band in 1usize..300,
            weight in proptest::sample::select(vec![1.0, 1.2, 2.0]),
        ) {
            // Tables over SEGMENT_CELLS take the segment rows (forward and band passes).
            let want = hit_full_table(&x, &y, weight);
            let mut s = Wlcs155Scratch::default();
            proptest::prop_assert_eq!(s.hit(&x, &y, weight).to_bits(), want.to_bits());
            proptest::prop_assert_eq!(s.hit_banded(&x, &y, weight, band).to_bits(), want.to_bits());
        }
    }

    proptest::proptest! {
        #[test]
        fn blocked_traceback_equals_the_full_table(
            x in proptest::collection::vec(0u32..6, 1..300),
            y in proptest::collection::vec(0u32..6, 1..300),
            every_row in 1usize..70,
            every_col in 1usize..70,
            weight in proptest::sample::select(vec![1.0, 1.2, 2.0, 0.5]),
        ) {
            let want = hit_full_table(&x, &y, weight);
            let mut s = Wlcs155Scratch::default();
            let got = s.hit_blocked(&x, &y, weight, every_row, every_col);
            proptest::prop_assert_eq!(got.to_bits(), want.to_bits());
        }

        #[test]
        fn blocked_traceback_on_near_copies(
            x in proptest::collection::vec(0u32..30, 1..400),
            edits in proptest::collection::vec((0usize..400, 0u32..30), 0..20),
            every in 1usize..100,
        ) {
            // Long diagonal runs crossing block corners (k from the left column and the
            // top row).
            let mut y = x.clone();
            for (at, s) in edits {
                if at < y.len() {
                    y[at] = s;
                }
            }
            let want = hit_full_table(&x, &y, 1.2);
            let mut s = Wlcs155Scratch::default();
            proptest::prop_assert_eq!(s.hit_blocked(&x, &y, 1.2, every, every + 3).to_bits(), want.to_bits());
        }
    }

    /// `hit` on an `m` × `n` pair above the full-table limit, checked against the banded
    /// pass with a band that cuts nothing; the scratch `hit` used, to see what it kept.
    fn hit_long_pair(m: u32, n: u32) -> Wlcs155Scratch {
        let x: Vec<u32> = (0..m).map(|i| (i * 7) % 13).collect();
        let y: Vec<u32> = (0..n).map(|i| (i * 5) % 11).collect();
        let mut s = Wlcs155Scratch::default();
        let h = s.hit(&x, &y, 1.2);
        let want = Wlcs155Scratch::default().hit_banded(&x, &y, 1.2, m as usize);
        assert_eq!(h.to_bits(), want.to_bits());
        s
    }

    #[test]
    fn long_pairs_blocked() {
        // 6000 × 5000 cells: above the full-table limit, so blocked.
        let s = hit_long_pair(6000, 5000);
        assert_eq!(s.col_c.capacity(), 0, "a long pair's tables are released");
    }

    #[test]
    fn long_pairs_in_linear_memory() {
        // 5000 × 4000 cells: above the full-table limit, so banded.
        let s = hit_long_pair(5000, 4000);
        assert_eq!(s.saved_c.capacity(), 0, "a long pair's tables are released");
    }

    #[test]
    fn paper_s2_weight_1_2() {
        // police kill the gunman / police killed the gunman: runs [police], [the gunman].
        let mut s = Wlcs155Scratch::default();
        let h = s.hit(&[0, 1, 2, 3], &[0, 9, 2, 3], 1.2);
        assert!((h - (1.0 + 2f64.powf(1.2))).abs() < 1e-12);
    }

    #[test]
    fn rounding_like_printf() {
        assert_eq!(round5(0.123456), 0.12346);
        assert_eq!(round5(1.0 / 3.0), 0.33333);
        // An exact binary tie rounds to even, as glibc's printf does.
        assert_eq!(round5(0.015625), 0.01562);
    }
}
