//! Weighted longest common subsequence (Lin & Och 2004, section 3.3), f(k) = k^w.
//!
//! Follows the paper's recurrence literally, including its tie rule: on a match the
//! diagonal is always taken (`c(i,j) = c(i-1,j-1) + f(k+1) - f(k)`), otherwise the upper
//! cell wins only when strictly larger than the left one. Two rolling rows, no allocation
//! once the scratch has grown.

/// Reusable rows and the table of gains f(k+1) − f(k) for one weight.
#[derive(Debug, Default)]
pub struct WlcsScratch {
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

    #[test]
    fn scratch_reuse_across_weights() {
        let mut s = WlcsScratch::new();
        let x = [0, 1, 2];
        assert_eq!(s.wlcs(&x, &x, 2.0), 9.0);
        assert_eq!(s.wlcs(&x, &x, 1.0), 3.0);
        assert_eq!(s.wlcs(&x, &[], 1.0), 0.0);
    }
}
