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

/// Reusable tables of the ROUGE-1.5.5 weighted LCS.
#[derive(Debug, Default)]
pub struct Wlcs155Scratch {
    weight: f64,
    /// f(k) = k^weight.
    f: Vec<f64>,
    prev_c: Vec<f64>,
    cur_c: Vec<f64>,
    prev_k: Vec<u32>,
    cur_k: Vec<u32>,
    /// Back pointers, row-major (m × n): 0 diagonal, 1 up, 2 left.
    dirs: Vec<u8>,
    marked: Vec<bool>,
}

const DIAG: u8 = 0;
const UP: u8 = 1;
const LEFT: u8 = 2;

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

    /// The recounted hit weight of reference `x` (rows) and candidate `y` (columns).
    pub fn hit(&mut self, x: &[u32], y: &[u32], weight: f64) -> f64 {
        let (m, n) = (x.len(), y.len());
        if m == 0 || n == 0 {
            return 0.0;
        }
        self.ensure_f(weight, m.max(n));
        for row in [&mut self.prev_c, &mut self.cur_c] {
            row.clear();
            row.resize(n + 1, 0.0);
        }
        for row in [&mut self.prev_k, &mut self.cur_k] {
            row.clear();
            row.resize(n + 1, 0);
        }
        self.dirs.clear();
        self.dirs.resize(m * n, 0);
        for (i, &xi) in x.iter().enumerate() {
            for (j, &yj) in y.iter().enumerate() {
                let d = if xi == yj {
                    let k = self.prev_k[j] as usize;
                    // Perl evaluates c + f(k+1) - f(k) left to right; ties below depend on it.
                    self.cur_c[j + 1] = self.prev_c[j] + self.f[k + 1] - self.f[k];
                    self.cur_k[j + 1] = k as u32 + 1;
                    DIAG
                } else {
                    let (up, left) = (self.prev_c[j + 1], self.cur_c[j]);
                    self.cur_k[j + 1] = 0;
                    if up >= left {
                        self.cur_c[j + 1] = up;
                        UP
                    } else {
                        self.cur_c[j + 1] = left;
                        LEFT
                    }
                };
                self.dirs[i * n + j] = d;
            }
            std::mem::swap(&mut self.prev_c, &mut self.cur_c);
            std::mem::swap(&mut self.prev_k, &mut self.cur_k);
        }
        self.marked.clear();
        self.marked.resize(m, false);
        let (mut i, mut j) = (m, n);
        while i > 0 && j > 0 {
            match self.dirs[(i - 1) * n + (j - 1)] {
                DIAG => {
                    self.marked[i - 1] = true;
                    i -= 1;
                    j -= 1;
                }
                UP => i -= 1,
                _ => j -= 1,
            }
        }
        let mut hit = 0.0;
        let mut run = 0;
        for k in 0..=m {
            if k < m && self.marked[k] {
                run += 1;
            } else if run > 0 {
                hit += self.f(run);
                run = 0;
            }
        }
        hit
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

/// `x` rounded to 5 decimals as Perl's `sprintf("%.5f")` prints it.
pub fn round5(x: f64) -> f64 {
    format!("{x:.5}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_y1_y2_recounted() {
        // X = A B C D E F G; Y1 = A B C D H I K; Y2 = A H B K C I D. ROUGE-1.5.5 gives both
        // 4^w: Y2's matches are consecutive on the reference side.
        let x = [0, 1, 2, 3, 4, 5, 6];
        let y1 = [0, 1, 2, 3, 7, 8, 9];
        let y2 = [0, 7, 1, 9, 2, 8, 3];
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
