//! The n-grams of one reference list, counted once per reference, for scoring many
//! hypotheses against the same references (ORANGE's n-best lists: 1024 candidates share
//! their sentence's references).
//!
//! [`RefNgrams::prepare`] interns every n-gram of every reference (orders `1..=max_order`)
//! into one table and counts it per reference; it keeps the table while the references stay
//! the same. [`RefNgrams::hyp_counts`] then reads a hypothesis once: its distinct n-grams
//! that occur in some reference, with their counts, in the order a hypothesis's own table
//! would number them (by order, then by first occurrence). An n-gram of the hypothesis that
//! no reference has matches nothing in any reference, so leaving it out changes no clipped
//! count and no sum over matched n-grams.

use crate::kernels::ngram_ids::NgramIds;

/// The references' n-grams: one id per distinct n-gram, its order and its count in each
/// reference.
#[derive(Debug, Default)]
pub struct RefNgrams {
    /// The references the table was built for, and the order.
    refs: Vec<Vec<u32>>,
    max_order: usize,
    built: bool,
    ids: NgramIds,
    order: Vec<u8>,
    /// Reference-major: `counts[j * len + id]`.
    counts: Vec<u32>,
}

/// A hypothesis's n-grams found in the references: ids (of [`RefNgrams`]) in the order of
/// the hypothesis's own numbering (by order, then first occurrence) and their counts in the
/// hypothesis.
#[derive(Debug, Default)]
pub struct HypNgrams {
    /// The n-gram ids, in the hypothesis's order.
    pub ids: Vec<u32>,
    /// `counts[i]`: how often n-gram `ids[i]` occurs in the hypothesis.
    pub counts: Vec<u32>,
    /// Per table id: the round it was last seen in, and its index in `ids`.
    stamp: Vec<u32>,
    slot: Vec<u32>,
    round: u32,
}

impl RefNgrams {
    /// Builds the table for `refs` unless it is already built for the same references and
    /// order; returns whether it was rebuilt (derived tables must then be rebuilt too).
    pub fn prepare(&mut self, refs: &[&[u32]], max_order: usize) -> bool {
        let same = self.built
            && self.max_order == max_order
            && self.refs.len() == refs.len()
            && self.refs.iter().zip(refs).all(|(a, b)| a.as_slice() == *b);
        if same {
            return false;
        }
        self.built = true;
        self.max_order = max_order;
        self.refs.resize_with(refs.len(), Vec::new);
        for (mine, r) in self.refs.iter_mut().zip(refs) {
            mine.clear();
            mine.extend_from_slice(r);
        }
        self.ids.clear();
        self.order.clear();
        // Ids first (every reference), then the counts per reference.
        let mut seen: Vec<u32> = Vec::new();
        let mut ends = Vec::with_capacity(refs.len());
        for r in refs {
            let order = &mut self.order;
            self.ids.insert_all(r, max_order, |n, id| {
                if id as usize == order.len() {
                    order.push(n as u8);
                }
                seen.push(id);
            });
            ends.push(seen.len());
        }
        let len = self.order.len();
        self.counts.clear();
        self.counts.resize(refs.len() * len, 0);
        let mut start = 0;
        for (j, &end) in ends.iter().enumerate() {
            let counts = &mut self.counts[j * len..(j + 1) * len];
            for &id in &seen[start..end] {
                counts[id as usize] += 1;
            }
            start = end;
        }
        true
    }

    /// Distinct n-grams of all the references (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the table holds no n-gram.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The number of references.
    pub fn n_refs(&self) -> usize {
        self.refs.len()
    }

    /// Reference `j`'s length in tokens.
    pub fn ref_len(&self, j: usize) -> usize {
        self.refs[j].len()
    }

    /// Reference `j`'s count of every n-gram (indexed by id).
    pub fn counts(&self, j: usize) -> &[u32] {
        let len = self.len();
        &self.counts[j * len..(j + 1) * len]
    }

    /// The order of n-gram `id`.
    pub fn order(&self, id: u32) -> usize {
        self.order[id as usize] as usize
    }

    /// The id of the (n-1)-gram prefix of `id` (`ngram_ids::MISSING` for a unigram).
    pub fn parent(&self, id: u32) -> u32 {
        self.ids.parent(id)
    }

    /// The n-grams of `hyp` (orders up to the table's) that some reference has, into `out`.
    pub fn hyp_counts(&mut self, hyp: &[u32], out: &mut HypNgrams) {
        out.ids.clear();
        out.counts.clear();
        let len = self.len();
        if out.stamp.len() < len {
            out.stamp.resize(len, 0);
            out.slot.resize(len, 0);
        }
        if out.round == u32::MAX {
            out.stamp.fill(0);
            out.round = 0;
        }
        out.round += 1;
        let round = out.round;
        let HypNgrams {
            ids,
            counts,
            stamp,
            slot,
            ..
        } = out;
        self.ids.lookup_all(hyp, self.max_order, |_, id| {
            let i = id as usize;
            if stamp[i] != round {
                stamp[i] = round;
                slot[i] = ids.len() as u32;
                ids.push(id);
                counts.push(0);
            }
            counts[slot[i] as usize] += 1;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::ngram_ids::MISSING;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Every n-gram of `t` of orders 1..=k, order by order, left to right.
    fn grams(t: &[u32], k: usize) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for n in 1..=k.min(t.len()) {
            for p in 0..=t.len() - n {
                out.push(t[p..p + n].to_vec());
            }
        }
        out
    }

    /// The obvious computation: counts by n-gram, the hypothesis's n-grams in first-seen
    /// order (order by order), kept when a reference has them.
    fn check(refs: &[Vec<u32>], hyps: &[Vec<u32>], k: usize) {
        let mut table = RefNgrams::default();
        let views: Vec<&[u32]> = refs.iter().map(Vec::as_slice).collect();
        assert!(table.prepare(&views, k));
        assert!(!table.prepare(&views, k), "kept for the same references");
        // Each distinct reference n-gram has one id; its order, parent and counts.
        let mut by_gram: HashMap<Vec<u32>, u32> = HashMap::new();
        for (j, r) in refs.iter().enumerate() {
            let mut want: HashMap<Vec<u32>, u32> = HashMap::new();
            for g in grams(r, k) {
                *want.entry(g).or_default() += 1;
            }
            // Find each n-gram's id through a one-text hypothesis.
            for (g, &c) in &want {
                let mut h = HypNgrams::default();
                table.hyp_counts(g, &mut h);
                let id = *h.ids.last().unwrap();
                assert_eq!(table.order(id), g.len());
                assert_eq!(table.counts(j)[id as usize], c);
                by_gram.insert(g.clone(), id);
            }
            assert_eq!(table.ref_len(j), r.len());
        }
        assert_eq!(by_gram.len(), table.len());
        for (g, &id) in &by_gram {
            let parent = if g.len() == 1 {
                MISSING
            } else {
                by_gram[&g[..g.len() - 1]]
            };
            assert_eq!(table.parent(id), parent);
        }
        let mut out = HypNgrams::default();
        for hyp in hyps {
            table.hyp_counts(hyp, &mut out);
            let mut order: Vec<Vec<u32>> = Vec::new();
            let mut counts: HashMap<Vec<u32>, u32> = HashMap::new();
            for g in grams(hyp, k) {
                if by_gram.contains_key(&g) {
                    if !counts.contains_key(&g) {
                        order.push(g.clone());
                    }
                    *counts.entry(g).or_default() += 1;
                }
            }
            let want_ids: Vec<u32> = order.iter().map(|g| by_gram[g]).collect();
            let want_counts: Vec<u32> = order.iter().map(|g| counts[g]).collect();
            assert_eq!(out.ids, want_ids);
            assert_eq!(out.counts, want_counts);
        }
    }

    #[test]
    fn by_hand() {
        let refs = vec![vec![1, 2, 1, 2], vec![2, 3]];
        check(&refs, &[vec![1, 2, 3, 1, 2], vec![], vec![9]], 3);
        let mut t = RefNgrams::default();
        let views: Vec<&[u32]> = refs.iter().map(Vec::as_slice).collect();
        t.prepare(&views, 2);
        let mut h = HypNgrams::default();
        t.hyp_counts(&[2, 1, 2, 9], &mut h);
        // 2 (twice), 1, then bigrams 21, 12; "2 9" and 9 are in no reference.
        assert_eq!(h.counts, [2, 1, 1, 1]);
        assert!(t.prepare(&[&[1, 2]], 2), "other references rebuild");
        assert!(t.prepare(&[&[1, 2]], 3), "another order rebuilds");
    }

    fn text() -> impl Strategy<Value = Vec<u32>> {
        prop::collection::vec(0u32..5, 0..12)
    }

    proptest! {
        #[test]
        fn equals_counting_by_ngram(
            refs in prop::collection::vec(text(), 1..5),
            hyps in prop::collection::vec(text(), 1..6),
            k in 1usize..6,
        ) {
            check(&refs, &hyps, k);
        }
    }
}
