//! Sufficient statistics of one (hypothesis, reference) comparison, and the clipped
//! intersection of two sorted multisets that every counting kernel shares.

/// `hit` matched units (clipped counts, an LCS length, a WLCS weight, ...) out of
/// `hyp_total` units of the hypothesis and `ref_total` units of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Counts {
    /// Matched units, clipped.
    pub hit: f64,
    /// Units of the hypothesis (the precision's denominator).
    pub hyp_total: f64,
    /// Units of the reference (the recall's denominator).
    pub ref_total: f64,
}

impl Counts {
    /// The counts `hit` out of `hyp_total` (hypothesis) and `ref_total` (reference).
    pub fn new(hit: f64, hyp_total: f64, ref_total: f64) -> Self {
        Self {
            hit,
            hyp_total,
            ref_total,
        }
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts::new(
            self.hit + o.hit,
            self.hyp_total + o.hyp_total,
            self.ref_total + o.ref_total,
        )
    }
}

/// Σ_g min(count_a(g), count_b(g)) for two sorted slices, by a merge walk.
pub fn clipped_intersection<T: Ord>(a: &[T], b: &[T]) -> usize {
    clipped_intersection_by(a.len(), b.len(), |i, j| a[i].cmp(&b[j]))
}

/// The same merge walk over two sorted sequences known only through `cmp(i, j)`, which
/// compares item `i` of the first with item `j` of the second.
pub fn clipped_intersection_by(
    a_len: usize,
    b_len: usize,
    cmp: impl Fn(usize, usize) -> std::cmp::Ordering,
) -> usize {
    let (mut i, mut j, mut hit) = (0, 0, 0);
    while i < a_len && j < b_len {
        match cmp(i, j) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                hit += 1;
                i += 1;
                j += 1;
            }
        }
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping() {
        assert_eq!(clipped_intersection(&[1, 1, 1, 2], &[1, 1, 3]), 2);
        assert_eq!(clipped_intersection::<u32>(&[], &[1]), 0);
        assert_eq!(clipped_intersection(&[1, 2, 3], &[1, 2, 3]), 3);
    }
}
