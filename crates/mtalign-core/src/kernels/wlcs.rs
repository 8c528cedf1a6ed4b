//! Weighted longest common subsequence (Lin & Och 2004, section 3.3), f(k) = k^w.
//!
//! Follows the paper's recurrence literally, including its tie rule: on a match the
//! diagonal is always taken (`c(i,j) = c(i-1,j-1) + f(k+1) - f(k)`), otherwise the upper
//! cell wins only when strictly larger than the left one. Two rolling rows, no allocation
//! once the scratch has grown. Tables of more than 64 cells (a pair of sentences already)
//! are computed by segments (`wlcs_rows.rs`: the same cells, vectorised between matches;
//! callgrind, ORANGE's 16 × 1024-best ROUGE-W-1.1: 0.76G → 0.37G instructions), the
//! column text indexed once for consecutive calls with the same one.

use crate::kernels::wlcs_rows::{self, Columns, RowMarks};

/// Tables of more cells than this are computed by segments (ROUGE-1.5.5's variant).
pub const SEGMENT_CELLS: usize = 1 << 14;

/// Tables of more cells than this are computed by segments here.
const SERIAL_CELLS: usize = 64;

/// Reusable rows and the table of gains f(k+1) − f(k) for one weight.
#[derive(Debug, Default)]
pub struct WlcsScratch {
    columns: Columns,
    marks: [RowMarks; 2],
    weight: f64,
    gains: Vec<f64>,
    prev_c: Vec<f64>,
    prev_w: Vec<u32>,
    cur_c: Vec<f64>,
    cur_w: Vec<u32>,
}

impl WlcsScratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// f(k+1) − f(k), computed once per k for the current weight.
    fn ensure_gains(&mut self, weight: f64, up_to: usize) {
        if self.weight != weight {
            self.weight = weight;
            self.gains.clear();
        }
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
        for row in [&mut self.prev_c, &mut self.cur_c] {
            row.clear();
            row.resize(n + 1, 0.0);
        }
        if x.len() * n > SERIAL_CELLS {
            return self.wlcs_segments(x, y);
        }
        for row in [&mut self.prev_w, &mut self.cur_w] {
            row.clear();
            row.resize(n + 1, 0);
        }
        let mut poll = crate::interrupt::Poll::new(n);
        for &xi in x {
            if poll.stop() {
                break;
            }
            for (j, &yj) in y.iter().enumerate() {
                if xi == yj {
                    let k = self.prev_w[j];
                    self.cur_c[j + 1] = self.prev_c[j] + self.gains[k as usize];
                    self.cur_w[j + 1] = k + 1;
                } else {
                    let up = self.prev_c[j + 1];
                    let left = self.cur_c[j];
                    self.cur_c[j + 1] = if up > left { up } else { left };
                    self.cur_w[j + 1] = 0;
                }
            }
            std::mem::swap(&mut self.prev_c, &mut self.cur_c);
            std::mem::swap(&mut self.prev_w, &mut self.cur_w);
        }
        self.prev_c[n]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_y1_y2_with_k_squared() {
        // X = A B C D E F G, Y1 = A B C D H I K, Y2 = A H B K C I D
        let x = [0, 1, 2, 3, 4, 5, 6];
        let y1 = [0, 1, 2, 3, 7, 8, 9];
        let y2 = [0, 7, 1, 9, 2, 8, 3];
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

    #[test]
    fn scratch_reuse_across_weights() {
        let mut s = WlcsScratch::new();
        let x = [0, 1, 2];
        assert_eq!(s.wlcs(&x, &x, 2.0), 9.0);
        assert_eq!(s.wlcs(&x, &x, 1.0), 3.0);
        assert_eq!(s.wlcs(&x, &[], 1.0), 0.0);
    }
}
