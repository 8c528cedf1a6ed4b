//! The weighted mean of the n-gram count vectors of many texts, and the clipped matches of
//! a text against it: reference aggregation for minimum-Bayes-risk decoding (Vamvas &
//! Sennrich 2024), where the samples are summarised once and each hypothesis is compared
//! with the summary instead of with every sample.

use crate::kernels::ngram_ids::NgramIds;

/// Mean n-gram counts (orders `1..=k`) of weighted texts.
#[derive(Debug, Default)]
pub struct NgramMean {
    ids: NgramIds,
    /// Per n-gram id: its order and its weighted mean count.
    order: Vec<u8>,
    mean: Vec<f64>,
    /// Per order n (index n): the weighted mean number of n-grams of a text.
    totals: Vec<f64>,
    /// Weighted mean text length.
    length: f64,
    max_order: usize,
    count: Vec<u32>,
    touched: Vec<u32>,
}

impl NgramMean {
    /// An empty mean of orders `1..=max_order`.
    pub fn new(max_order: usize) -> Self {
        NgramMean {
            max_order,
            totals: vec![0.0; max_order + 1],
            ..Default::default()
        }
    }

    /// Adds `tokens` with weight `w` (weights should sum to 1 over the texts added).
    pub fn add(&mut self, tokens: &[u32], w: f64) {
        let (order, count, touched) = (&mut self.order, &mut self.count, &mut self.touched);
        touched.clear();
        self.ids.insert_all(tokens, self.max_order, |n, id| {
            let id_us = id as usize;
            if id_us == order.len() {
                order.push(n as u8);
                count.push(0);
            }
            if count[id_us] == 0 {
                touched.push(id);
            }
            count[id_us] += 1;
        });
        self.mean.resize(self.order.len(), 0.0);
        for &id in &self.touched {
            let c = &mut self.count[id as usize];
            self.mean[id as usize] += w * f64::from(*c);
            *c = 0;
        }
        for n in 1..=self.max_order {
            self.totals[n] += w * (tokens.len() + 1).saturating_sub(n) as f64;
        }
        self.length += w * tokens.len() as f64;
    }

    /// The weighted mean number of n-grams of order `n` of the texts added.
    pub fn total(&self, n: usize) -> f64 {
        self.totals[n]
    }

    /// The weighted mean length of the texts added.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Per order n (index n of `out`, `max_order + 1` long): Σ over the n-grams g of
    /// `tokens` of min(count of g in `tokens`, mean count of g).
    pub fn matches(&mut self, tokens: &[u32], out: &mut [f64]) {
        out.fill(0.0);
        let (count, touched) = (&mut self.count, &mut self.touched);
        touched.clear();
        self.ids.lookup_all(tokens, self.max_order, |_, id| {
            if count[id as usize] == 0 {
                touched.push(id);
            }
            count[id as usize] += 1;
        });
        for &id in &self.touched {
            let id = id as usize;
            out[self.order[id] as usize] += f64::from(self.count[id]).min(self.mean[id]);
            self.count[id] = 0;
        }
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn grams(t: &[u32], n: usize) -> HashMap<Vec<u32>, f64> {
        let mut m = HashMap::new();
        if t.len() >= n {
            for w in t.windows(n) {
                *m.entry(w.to_vec()).or_insert(0.0) += 1.0;
            }
        }
        m
    }

    #[test]
    fn matches_equal_the_definition() {
        let texts: [&[u32]; 3] = [&[1, 2, 3, 1, 2], &[2, 3, 4], &[1, 2, 1, 2, 1, 2]];
        let w = [0.5, 0.25, 0.25];
        let mut mean = NgramMean::new(3);
        for (t, &wt) in texts.iter().zip(&w) {
            mean.add(t, wt);
        }
        let hyp = [1u32, 2, 1, 2, 3, 9];
        let mut out = [0.0; 4];
        mean.matches(&hyp, &mut out);
        for n in 1..=3 {
            let mut avg: HashMap<Vec<u32>, f64> = HashMap::new();
            for (t, &wt) in texts.iter().zip(&w) {
                for (g, c) in grams(t, n) {
                    *avg.entry(g).or_insert(0.0) += wt * c;
                }
            }
            let want: f64 = grams(&hyp, n)
                .iter()
                .map(|(g, &c)| c.min(*avg.get(g).unwrap_or(&0.0)))
                .sum();
            assert!(
                (out[n] - want).abs() < 1e-12,
                "order {n}: {} vs {want}",
                out[n]
            );
            let total: f64 = texts
                .iter()
                .zip(&w)
                .map(|(t, wt)| wt * (t.len() + 1).saturating_sub(n) as f64)
                .sum();
            assert!((mean.total(n) - total).abs() < 1e-12);
        }
        assert!((mean.length() - (2.5 + 0.75 + 1.5)).abs() < 1e-12);
        // Reusable: a second hypothesis sees no trace of the first.
        mean.matches(&[9, 9], &mut out);
        assert_eq!(out, [0.0; 4]);
    }
}
