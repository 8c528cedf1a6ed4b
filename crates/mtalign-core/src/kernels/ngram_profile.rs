//! N-gram count profiles of many texts over one shared id space, and the clipped matches
//! of every pair of them: the inner loop of chrF and BLEU matrices.
//!
//! Each text's n-grams (orders `1..=k`) are counted once ([`NgramProfiles::build`]); a row
//! text's counts are then scattered into a dense table ([`RowCounts`]) and each column text
//! is matched by reading that table at its distinct n-grams: Σ min(count in row, count in
//! column), per order. Integer counts, so the result is exact and order-independent.

use crate::kernels::ngram_ids::NgramIds;

/// Distinct n-grams of each text with their counts; ids shared by every text.
#[derive(Debug, Default)]
pub struct NgramProfiles {
    /// Per n-gram id, its order.
    order: Vec<u8>,
    /// (id, count) of every text, text after text.
    entries: Vec<(u32, u32)>,
    offsets: Vec<usize>,
    max_order: usize,
}

impl NgramProfiles {
    /// The profiles of `texts` (orders `1..=max_order`), ids numbered in first-seen order.
    pub fn build<'a>(texts: impl IntoIterator<Item = &'a [u32]>, max_order: usize) -> Self {
        let mut ids = NgramIds::new();
        let mut out = NgramProfiles {
            max_order,
            offsets: vec![0],
            ..Default::default()
        };
        let mut count: Vec<u32> = Vec::new();
        let mut touched: Vec<u32> = Vec::new();
        for t in texts {
            let order = &mut out.order;
            touched.clear();
            ids.insert_all(t, max_order, |n, id| {
                if id as usize == order.len() {
                    order.push(n as u8);
                    count.push(0);
                }
                if count[id as usize] == 0 {
                    touched.push(id);
                }
                count[id as usize] += 1;
            });
            for &id in &touched {
                out.entries.push((id, count[id as usize]));
                count[id as usize] = 0;
            }
            out.offsets.push(out.entries.len());
        }
        out
    }

    /// The number of distinct n-grams over all texts.
    pub fn vocabulary(&self) -> usize {
        self.order.len()
    }

    /// The highest order counted.
    pub fn max_order(&self) -> usize {
        self.max_order
    }

    fn of(&self, t: usize) -> &[(u32, u32)] {
        &self.entries[self.offsets[t]..self.offsets[t + 1]]
    }
}

/// One row text's counts, dense over the profiles' ids (kept zero outside the row, so it
/// can be kept between calls and profiles).
#[derive(Debug, Default)]
pub struct RowCounts {
    dense: Vec<u32>,
    /// The ids set for the current row.
    set: Vec<u32>,
}

impl RowCounts {
    /// Makes text `t` the row (clearing the previous one).
    pub fn set_row(&mut self, profiles: &NgramProfiles, t: usize) {
        for &id in &self.set {
            self.dense[id as usize] = 0;
        }
        self.set.clear();
        if self.dense.len() < profiles.vocabulary() {
            self.dense.resize(profiles.vocabulary(), 0);
        }
        for &(id, c) in profiles.of(t) {
            self.dense[id as usize] = c;
            self.set.push(id);
        }
    }

    /// Per order n (index n of `out`, `max_order + 1` long): Σ over the n-grams of text
    /// `t` of min(count in the row, count in `t`).
    #[inline]
    pub fn matches(&self, profiles: &NgramProfiles, t: usize, out: &mut [u32]) {
        out.fill(0);
        for &(id, c) in profiles.of(t) {
            let r = self.dense[id as usize];
            out[profiles.order[id as usize] as usize] += r.min(c);
        }
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn clipped(a: &[u32], b: &[u32], n: usize) -> u32 {
        fn count(t: &[u32], n: usize) -> HashMap<&[u32], u32> {
            let mut m: HashMap<&[u32], u32> = HashMap::new();
            if t.len() >= n {
                t.windows(n).for_each(|w| *m.entry(w).or_insert(0) += 1);
            }
            m
        }
        let (ca, cb) = (count(a, n), count(b, n));
        ca.iter()
            .map(|(g, &x)| x.min(*cb.get(g).unwrap_or(&0)))
            .sum()
    }

    proptest! {
        #[test]
        fn matches_equal_counting_each_pair(
            texts in prop::collection::vec(prop::collection::vec(0u32..5, 0..25), 1..8),
        ) {
            let k = 4;
            let profiles = NgramProfiles::build(texts.iter().map(Vec::as_slice), k);
            let mut row = RowCounts::default();
            let mut out = vec![0; k + 1];
            for (i, a) in texts.iter().enumerate() {
                row.set_row(&profiles, i);
                for (j, b) in texts.iter().enumerate() {
                    row.matches(&profiles, j, &mut out);
                    for n in 1..=k {
                        prop_assert_eq!(out[n], clipped(a, b, n));
                    }
                }
            }
        }
    }
}
