//! Weighted longest common subsequence (Lin & Och 2004, section 3.3), f(k) = k^w.
//!
//! Follows the paper's recurrence literally, including its tie rule: on a match the
//! diagonal is always taken (`c(i,j) = c(i-1,j-1) + f(k+1) - f(k)`), otherwise the upper
//! cell wins only when strictly larger than the left one. No allocation once the scratch
//! has grown. The result is symmetric in the two texts. Small tables whose shorter text has
//! at most 63 tokens keep each row as a bit mask of the columns where its value changes
//! (`WlcsScratch::wlcs_steps`: work per match and per step, not per cell); other small
//! tables update one row in place, visiting only the cells that can change
//! (`WlcsScratch::wlcs_serial`); tables of more than [`SEGMENT_CELLS`] cells are computed by
//! segments (`wlcs_rows.rs`: the same cells, vectorised between matches).

use crate::kernels::lanes::Lanes;
use crate::kernels::wlcs_rows::{self, Columns, RowMarks};

/// Tables of more cells than this are computed by segments.
pub const SEGMENT_CELLS: usize = 1 << 14;

/// Small tables whose shorter side has at most this many tokens keep their rows as step
/// masks (`WlcsScratch::wlcs_steps`): one bit per column.
const STEP_COLUMNS: usize = 63;

/// Reusable rows and the table of gains f(k+1) − f(k) for one weight.
#[derive(Debug, Default)]
pub struct WlcsScratch {
    columns: Columns,
    marks: [RowMarks; 2],
    weight: f64,
    gains: Vec<f64>,
    prev_c: Vec<f64>,
    cur_c: Vec<f64>,
    /// Small tables: per symbol, its first column in the candidate (0: none), and per
    /// column, the next column of the same symbol (0: none).
    head: Vec<u32>,
    next: Vec<u32>,
    /// The columns where the row above falls, and where this row does.
    falls: [Vec<u32>; 2],
    /// Small tables: per column, the last match there as (row + 1) << 32 | run length.
    runs: Vec<u64>,
    /// Step masks: per first column of a symbol, the mask of all its columns (ids too large
    /// for `lanes`).
    symbol_columns: Vec<u64>,
    /// Step masks: the candidate's ids, for each row's matching columns.
    lanes: Lanes,
    /// Step masks: each row's matching columns.
    row_matches: Vec<u64>,
    /// Step masks: the value of the row at each of its steps.
    step_values: Vec<f64>,
    /// `powers[len]` = len^weight for the current weight.
    powers: Vec<f64>,
}

/// Lengths below this have their power f(len) kept ([`WlcsScratch::length_power`]).
const POWER_TABLE: usize = 1024;

impl WlcsScratch {
    /// An empty scratch (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the tables of another weight.
    fn set_weight(&mut self, weight: f64) {
        if self.weight.to_bits() != weight.to_bits() {
            self.weight = weight;
            self.gains.clear();
            self.powers.clear();
        }
    }

    /// f(len) = len^weight (ROUGE-W's totals), the same `powf` computed once per length
    /// and weight.
    pub fn length_power(&mut self, len: usize, weight: f64) -> f64 {
        self.set_weight(weight);
        if len >= POWER_TABLE {
            return (len as f64).powf(weight);
        }
        while self.powers.len() <= len {
            let k = self.powers.len() as f64;
            self.powers.push(k.powf(weight));
        }
        self.powers[len]
    }

    /// f(k+1) − f(k), computed once per k for the current weight.
    fn ensure_gains(&mut self, weight: f64, up_to: usize) {
        self.set_weight(weight);
        while self.gains.len() <= up_to {
            let k = self.gains.len() as f64;
            self.gains.push((k + 1.0).powf(weight) - k.powf(weight));
        }
    }

    /// WLCS(x, y) with f(k) = k^weight, `x` the reference (rows), `y` the candidate.
    pub fn wlcs(&mut self, x: &[u32], y: &[u32], weight: f64) -> f64 {
        if x.is_empty() || y.is_empty() {
            return 0.0;
        }
        self.ensure_gains(weight, x.len().min(y.len()));
        let n = y.len();
        if x.len() * n > SEGMENT_CELLS {
            for row in [&mut self.prev_c, &mut self.cur_c] {
                row.clear();
                row.resize(n + 1, 0.0);
            }
            return self.wlcs_segments(x, y);
        }
        // WLCS is symmetric (the same additions and maxima on the transposed table), so
        // the shorter text may lie along the columns.
        let (x, y) = if y.len() > x.len() { (y, x) } else { (x, y) };
        if y.len() <= STEP_COLUMNS {
            return self.wlcs_steps(x, y);
        }
        self.prev_c.clear();
        self.prev_c.resize(y.len() + 1, 0.0);
        self.wlcs_serial(x, y)
    }

    /// [`WlcsScratch::wlcs`] for small tables with at most [`STEP_COLUMNS`] columns (gains
    /// ready): the row is kept as its steps, the columns where its value changes (a bit
    /// mask, column 0 always a step of value 0) with the value at each, so a cell is the
    /// value of the last step at or before it.
    ///
    /// A row is built in place from the row above, its matches right to left: a match at m
    /// (value from the diagonal, read before this row changes anything left of m) sets a
    /// step at m, and the cells after it up to the next match are the chain max(up, left)
    /// started from it ([`chain_steps`]): steps of the row above that do not rise above the
    /// chain are dropped. Cells are never visited one by one, only steps, each made once
    /// and dropped at most once. Every value is the programme's (the same additions, the
    /// same comparisons of the same floats).
    fn wlcs_steps(&mut self, x: &[u32], y: &[u32]) -> f64 {
        let n = y.len();
        debug_assert!(n <= STEP_COLUMNS);
        self.row_matches.clear();
        self.row_matches.reserve(x.len());
        if self.lanes.fill(y) {
            // The candidate's ids compared with each row's token at once: no table to fill
            // and clear for a pair met once.
            let row_matches = &mut self.row_matches;
            self.lanes
                .scan(x, |positions| row_matches.push(positions << 1));
        } else {
            self.table_row_matches(x, y);
        }
        self.runs.clear();
        self.runs.resize(n + 1, 0);
        // Only the values at steps are read, and column 0 (value 0) is never written.
        if self.step_values.is_empty() {
            self.step_values.resize(STEP_COLUMNS + 1, 0.0);
        }
        let gains = &self.gains;
        let (runs, val) = (&mut self.runs, &mut self.step_values[..]);
        // Steps of the row (bit j: column j), and the columns where the row above falls.
        let (mut steps, mut falls) = (1u64, 0u64);
        for (i, &matches) in self.row_matches.iter().enumerate() {
            if matches == 0 && falls == 0 {
                // No match below a row that never falls: this row is that row.
                continue;
            }
            // A run ending on the diagonal, in row i - 1, is tagged i.
            let (tag, row_tag) = ((i as u64) << 32, (i as u64 + 1) << 32);
            let mut bound = n + 1;
            let mut rest = matches;
            while rest != 0 {
                let m = 63 - rest.leading_zeros() as usize;
                rest &= !(1u64 << m);
                let diag = value_at(steps, val, m - 1);
                let diag_run = runs[m - 1];
                let k = if diag_run & !0xffff_ffff == tag {
                    diag_run & 0xffff_ffff
                } else {
                    0
                };
                runs[m] = row_tag | (k + 1);
                let v = diag + gains[k as usize];
                steps = chain_steps(steps, val, falls, m, v, bound);
                steps |= 1u64 << m;
                val[m] = v;
                bound = m;
            }
            if falls & below(bound) != 0 {
                // Before the first match: the chain from column 0 fills the falls above.
                steps = chain_steps(steps, val, falls, 0, 0.0, bound);
            }
            // A row falls only at a match lower than the cell before it.
            let mut fell = 0u64;
            let mut rest = matches;
            while rest != 0 {
                let m = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                fell |= ((val[m] < value_at(steps, val, m - 1)) as u64) << m;
            }
            falls = fell;
        }
        value_at(steps, &self.step_values, n)
    }

    /// The matching columns of each token of `x` in `y` (bit j + 1 for column j) into
    /// `row_matches`, from a table of each symbol's columns (ids too large for lanes).
    fn table_row_matches(&mut self, x: &[u32], y: &[u32]) {
        if let Some(&max) = y.iter().max() {
            if max as usize >= self.head.len() {
                self.head.resize(max as usize + 1, 0);
            }
        }
        for (j, &t) in y.iter().enumerate().rev() {
            self.head[t as usize] = j as u32 + 1;
        }
        // Column 0 is no symbol's first column, so `symbol_columns[0]` stays 0.
        self.symbol_columns.clear();
        self.symbol_columns.resize(y.len() + 1, 0);
        for (j, &t) in y.iter().enumerate() {
            self.symbol_columns[self.head[t as usize] as usize] |= 1u64 << (j + 1);
        }
        let (head, columns) = (&self.head, &self.symbol_columns);
        self.row_matches.extend(x.iter().map(|&xi| {
            let first = head.get(xi as usize).map_or(0, |&m| m as usize);
            columns[first]
        }));
        for &t in y {
            self.head[t as usize] = 0;
        }
    }

    /// [`WlcsScratch::wlcs`] for small tables (gains and a zeroed row ready): one row of
    /// cells updated in place, touching only what can change.
    ///
    /// * The run length k of a match is the run of matches ending on its diagonal cell (the
    ///   recurrence's k is 0 off a match). Each match leaves its run and its row in its
    ///   column (`runs`), so a match reads k from the cell before it in O(1), read, like the
    ///   diagonal's value, before this row writes that cell.
    /// * A row only falls (c(i, j) < c(i, j−1)) at a matching cell, and each row keeps the
    ///   columns where it falls. Off a match a cell is max(up, left), which is up once
    ///   up ≥ left, and so is every cell after it up to the next match or the next fall of
    ///   the row above ([`segment`]). A row with no match below a row that never falls is
    ///   that row again and is not visited.
    /// * The matching columns of a row come from an index of the candidate built once per
    ///   pair (each symbol's first column, each column's next of the same symbol).
    ///
    /// Every cell is the programme's (the same additions, maxima of the same floats).
    fn wlcs_serial(&mut self, x: &[u32], y: &[u32]) -> f64 {
        let n = y.len();
        if let Some(&max) = y.iter().max() {
            if max as usize >= self.head.len() {
                self.head.resize(max as usize + 1, 0);
            }
        }
        self.next.clear();
        self.next.resize(n + 1, 0);
        for (j, &t) in y.iter().enumerate().rev() {
            self.next[j + 1] = self.head[t as usize];
            self.head[t as usize] = j as u32 + 1;
        }
        self.runs.clear();
        self.runs.resize(n + 1, 0);
        let (head, next, gains) = (&self.head, &self.next, &self.gains);
        let (c, runs) = (&mut self.prev_c, &mut self.runs);
        let [mut above, mut here] = std::mem::take(&mut self.falls);
        above.clear();
        for (i, &xi) in x.iter().enumerate() {
            let first = head.get(xi as usize).map_or(0, |&m| m as usize);
            if first == 0 && above.is_empty() {
                continue;
            }
            here.clear();
            let (mut left, mut from, mut fall) = (0.0f64, 1, 0);
            let mut m = first;
            // The diagonal of each match, read before this row writes it.
            let (mut diag, mut diag_run) = if m > 0 {
                (c[m - 1], runs[m - 1])
            } else {
                (0.0, 0)
            };
            // A run ending on the diagonal, in row i - 1, is tagged i.
            let (tag, row_tag) = ((i as u64) << 32, (i as u64 + 1) << 32);
            while m != 0 {
                let after = next[m] as usize;
                let (next_diag, next_run) = if after > 0 {
                    (c[after - 1], runs[after - 1])
                } else {
                    (0.0, 0)
                };
                left = segment(c, from, m, left, &above, &mut fall);
                let k = if diag_run & !0xffff_ffff == tag {
                    diag_run & 0xffff_ffff
                } else {
                    0
                };
                runs[m] = row_tag | (k + 1);
                let v = diag + gains[k as usize];
                if v < left {
                    here.push(m as u32);
                }
                c[m] = v;
                left = v;
                from = m + 1;
                diag = next_diag;
                diag_run = next_run;
                m = after;
            }
            segment(c, from, n + 1, left, &above, &mut fall);
            std::mem::swap(&mut above, &mut here);
        }
        self.falls = [above, here];
        for &t in y {
            self.head[t as usize] = 0;
        }
        self.prev_c[n]
    }
}

/// Bits `0..h` (`h` ≤ 64).
#[inline]
fn below(h: usize) -> u64 {
    u64::MAX.checked_shr(64 - h as u32).unwrap_or(0)
}

/// The cell in column `j` of a row kept as steps: the value of its last step at or before
/// `j` (column 0 is always a step).
#[inline]
fn value_at(steps: u64, val: &[f64], j: usize) -> f64 {
    let upto = steps & (u64::MAX >> (63 - j));
    val[63 - upto.leading_zeros() as usize]
}

/// Columns `a + 1 .. b` of a row kept as steps, a stretch with no match after the cell `a`
/// of value `left`: the chain max(up, left) over the row above (its steps still there,
/// `falls` the columns where it falls). The first cell takes the value above unless
/// `left` is at least as large (a step is added there if the row above had none); a later
/// step above stays only if it rises above the chain so far (ties keep the left cell,
/// as the programme does). Past a step that stays, with no fall of the row above left in
/// the stretch, the row above rises to the end, so nothing more changes. Returns the steps.
#[inline]
fn chain_steps(
    mut steps: u64,
    val: &mut [f64],
    falls: u64,
    a: usize,
    mut left: f64,
    b: usize,
) -> u64 {
    let mut start = a + 1;
    if start >= b {
        return steps;
    }
    if steps & (1u64 << start) == 0 {
        let up = value_at(steps, val, a);
        if up > left {
            steps |= 1u64 << start;
            val[start] = up;
            left = up;
            start += 1;
        }
    }
    let mut walk = steps & below(b) & !below(start);
    while walk != 0 {
        let s = walk.trailing_zeros() as usize;
        walk &= walk - 1;
        if val[s] > left {
            // The row above rises from here to its next fall: on to that fall.
            let ahead = falls & walk;
            if ahead == 0 {
                break;
            }
            let f = ahead.trailing_zeros() as usize;
            walk &= !below(f);
            left = value_at(steps, val, f - 1);
        } else {
            steps &= !(1u64 << s);
        }
    }
    steps
}

/// Cells `from..to` of a row, a segment with no match, from the row above (`c`, updated in
/// place) and the cell before the segment (`left`): the chain max(up, left), which leaves
/// the cells unchanged from the first up ≥ left to the next column where the row above
/// falls (`falls`, ascending; `fall` the first not yet passed). Returns the segment's last
/// cell (`left` if it is empty).
fn segment(
    c: &mut [f64],
    from: usize,
    to: usize,
    mut left: f64,
    falls: &[u32],
    fall: &mut usize,
) -> f64 {
    let mut j = from;
    loop {
        while j < to && c[j] < left {
            c[j] = left;
            j += 1;
        }
        if j >= to {
            return left;
        }
        while *fall < falls.len() && falls[*fall] as usize <= j {
            *fall += 1;
        }
        match falls.get(*fall) {
            Some(&f) if (f as usize) < to => {
                j = f as usize;
                left = c[j - 1];
            }
            _ => return c[to - 1],
        }
    }
}

impl WlcsScratch {
    /// [`WlcsScratch::wlcs`] by segments (gains and zeroed rows ready).
    fn wlcs_segments(&mut self, x: &[u32], y: &[u32]) -> f64 {
        let n = y.len();
        self.columns.prepare(y);
        let [mut pm, mut cm] = std::mem::take(&mut self.marks);
        pm.clear();
        let gains = &self.gains;
        let mut poll = crate::interrupt::Poll::new(n);
        for &xi in x {
            if poll.stop() {
                break;
            }
            wlcs_rows::row(
                &self.prev_c,
                &mut self.cur_c,
                n,
                self.columns.of(xi),
                &pm,
                &mut cm,
                |diag, k| diag + gains[k as usize],
                (0.0, 0),
            );
            std::mem::swap(&mut self.prev_c, &mut self.cur_c);
            std::mem::swap(&mut pm, &mut cm);
        }
        self.marks = [pm, cm];
        self.prev_c[n]
    }
}

/// WLCS with a fresh scratch (convenience).
pub fn wlcs(x: &[u32], y: &[u32], weight: f64) -> f64 {
    WlcsScratch::new().wlcs(x, y, weight)
}

/// The example of Lin (2004), section 3.2, as ids: X = A B C D E F G, Y1 = A B C D H I K,
/// Y2 = A H B K C I D.
#[cfg(test)]
pub(crate) const PAPER_X_Y1_Y2: [[u32; 7]; 3] = [
    [0, 1, 2, 3, 4, 5, 6],
    [0, 1, 2, 3, 7, 8, 9],
    [0, 7, 1, 9, 2, 8, 3],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_y1_y2_with_k_squared() {
        let [x, y1, y2] = PAPER_X_Y1_Y2;
        assert_eq!(wlcs(&x, &y1, 2.0), 16.0);
        assert_eq!(wlcs(&x, &y2, 2.0), 4.0);
        // R = f^-1(WLCS / f(m)): 4/7 and 2/7 (the paper's 0.571 and 0.286).
        assert!(((16.0f64 / 49.0).sqrt() - 4.0 / 7.0).abs() < 1e-15);
    }

    #[test]
    fn weight_one_is_lcs() {
        let x = [1, 2, 3, 1, 2];
        let y = [2, 1, 3, 2];
        assert_eq!(
            wlcs(&x, &y, 1.0),
            crate::kernels::lcs::lcs_length_dp(&x, &y) as f64
        );
    }

    proptest::proptest! {
        #[test]
        fn segments_equal_the_serial_programme(
            x in proptest::collection::vec(0u32..6, 0..400),
            y in proptest::collection::vec(0u32..6, 0..400),
            weight in 0.5f64..3.0,
        ) {
            let mut s = WlcsScratch::new();
            let got = s.wlcs(&x, &y, weight);
            // The serial rows (the path for small tables), forced.
            s.ensure_gains(weight, x.len().min(y.len()));
            let n = y.len();
            let (mut prev, mut prev_w) = (vec![0.0f64; n + 1], vec![0u32; n + 1]);
            for &xi in &x {
                let (mut cur, mut cur_w) = (vec![0.0f64; n + 1], vec![0u32; n + 1]);
                for (j, &yj) in y.iter().enumerate() {
                    if xi == yj {
                        cur[j + 1] = prev[j] + s.gains[prev_w[j] as usize];
                        cur_w[j + 1] = prev_w[j] + 1;
                    } else {
                        cur[j + 1] = if prev[j + 1] > cur[j] { prev[j + 1] } else { cur[j] };
                    }
                }
                prev = cur;
                prev_w = cur_w;
            }
            let want = if x.is_empty() || y.is_empty() { 0.0 } else { prev[n] };
            proptest::prop_assert_eq!(got.to_bits(), want.to_bits());
        }
    }

    /// The serial programme, every row computed: the oracle of the row-skipping path.
    fn serial_oracle(x: &[u32], y: &[u32], weight: f64) -> f64 {
        if x.is_empty() || y.is_empty() {
            return 0.0;
        }
        let gain = |k: u32| (k as f64 + 1.0).powf(weight) - (k as f64).powf(weight);
        let n = y.len();
        let (mut prev, mut prev_w) = (vec![0.0f64; n + 1], vec![0u32; n + 1]);
        for &xi in x {
            let (mut cur, mut cur_w) = (vec![0.0f64; n + 1], vec![0u32; n + 1]);
            for (j, &yj) in y.iter().enumerate() {
                if xi == yj {
                    cur[j + 1] = prev[j] + gain(prev_w[j]);
                    cur_w[j + 1] = prev_w[j] + 1;
                } else {
                    cur[j + 1] = if prev[j + 1] > cur[j] {
                        prev[j + 1]
                    } else {
                        cur[j]
                    };
                }
            }
            prev = cur;
            prev_w = cur_w;
        }
        prev[n]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Small tables (rows in place, cells skipped; columns past 64) equal the programme bit for bit, on
        /// small alphabets (repeats, falls) and on ids past the filter's 256 bits (false
        /// hits), with one scratch reused across pairs and weights.
        #[test]
        fn skipping_rows_equals_the_serial_programme(
            pairs in proptest::collection::vec(
                (
                    proptest::collection::vec(0u32..5, 0..40),
                    proptest::collection::vec(0u32..5, 0..150),
                    0u32..3,
                ),
                1..4,
            ),
            weight in 0.3f64..3.0,
        ) {
            let mut s = WlcsScratch::new();
            for (x, y, spread) in pairs {
                // spread 0: ids 0..5; 1 and 2: spaced ids (the index grows, then is reused).
                let map = |v: &Vec<u32>| -> Vec<u32> {
                    v.iter().map(|&t| t * [1, 256, 97][spread as usize]).collect()
                };
                let (x, y) = (map(&x), map(&y));
                let got = s.wlcs(&x, &y, weight);
                proptest::prop_assert_eq!(got.to_bits(), serial_oracle(&x, &y, weight).to_bits());
            }
        }
    }

    /// Texts for the step masks: small alphabets (repeats, runs, falls) or large ones (few
    /// matches), up to past [`STEP_COLUMNS`] tokens, and ids on both sides of the limit of
    /// lanes (a candidate with one above it takes the table of columns).
    fn texts() -> impl proptest::strategy::Strategy<Value = Vec<u32>> {
        use crate::kernels::lanes::LANE_LIMIT;
        use proptest::prelude::*;
        prop_oneof![
            proptest::collection::vec(0u32..4, 0..70),
            proptest::collection::vec(
                prop_oneof![0u32..3, (LANE_LIMIT - 2)..(LANE_LIMIT + 2)],
                0..70
            ),
            proptest::collection::vec(0u32..40, 0..70),
            (proptest::collection::vec(0u32..3, 1..6), 0usize..70).prop_map(|(unit, len)| unit
                .iter()
                .copied()
                .cycle()
                .take(len)
                .collect()),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
        /// Rows as step masks equal the serial rows bit for bit, either text along the
        /// columns, with one scratch reused across pairs and weights.
        #[test]
        fn step_masks_equal_the_serial_rows(
            pairs in proptest::collection::vec((texts(), texts()), 1..4),
            weight in 0.3f64..3.0,
        ) {
            let (mut steps, mut serial) = (WlcsScratch::new(), WlcsScratch::new());
            for (x, y) in pairs {
                let got = steps.wlcs(&x, &y, weight);
                if !x.is_empty() && !y.is_empty() {
                    serial.ensure_gains(weight, x.len().min(y.len()));
                    serial.prev_c.clear();
                    serial.prev_c.resize(y.len() + 1, 0.0);
                    let want = serial.wlcs_serial(&x, &y);
                    proptest::prop_assert_eq!(got.to_bits(), want.to_bits());
                    if y.len() <= STEP_COLUMNS {
                        let forced = steps.wlcs_steps(&x, &y);
                        proptest::prop_assert_eq!(forced.to_bits(), want.to_bits());
                    }
                }
                proptest::prop_assert_eq!(got.to_bits(), serial_oracle(&x, &y, weight).to_bits());
            }
        }
    }

    #[test]
    fn length_powers_are_powf() {
        let mut s = WlcsScratch::new();
        for weight in [1.2, 2.0, 1.2, 0.5] {
            s.wlcs(&[1, 2], &[2, 1], weight);
            for len in [0, 1, 7, 25, POWER_TABLE - 1, POWER_TABLE, 5000, 7] {
                let want = (len as f64).powf(weight);
                assert_eq!(s.length_power(len, weight).to_bits(), want.to_bits());
            }
        }
    }

    #[test]
    fn scratch_reuse_across_weights() {
        let mut s = WlcsScratch::new();
        let x = [0, 1, 2];
        assert_eq!(s.wlcs(&x, &x, 2.0), 9.0);
        assert_eq!(s.wlcs(&x, &x, 1.0), 3.0);
        assert_eq!(s.wlcs(&x, &[], 1.0), 0.0);
    }
}
