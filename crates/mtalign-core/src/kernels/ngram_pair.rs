//! Clipped n-gram matches of one hypothesis against one reference, by numbering the
//! reference's distinct n-grams order by order: no hashing, every table small and direct.
//!
//! BLEU's clipped matches of order n are Σ over the n-grams g of min(count of g in the
//! hypothesis, count of g in the reference). Here the reference's distinct unigrams are
//! numbered 1, 2, … in order of first appearance (a direct table indexed by token id); the
//! distinct n-grams of order n are then numbered by the pair (number of the (n−1)-gram
//! prefix, number of the last token), looked up in a table of `(D + 1) × (U + 1)` entries
//! (`D` distinct (n−1)-grams, `U` distinct unigrams, both at most the reference's length).
//! The hypothesis's n-grams get the same numbers through the same tables, 0 where the
//! reference has no such n-gram (row and column 0 are never written, so a start whose
//! prefix or last token is missing reads 0 without a branch). Each occurrence of a numbered
//! n-gram in the hypothesis matches while the reference's count of it is not used up.
//!
//! Only the entries written are cleared afterwards, so a pair costs what its tokens touch.
//! The order of numbering never changes a count: the result equals counting n-grams
//! (proptested against that oracle).

/// The longest reference this kernel takes: its numbers and counts fit a `u8` (the direct
/// unigram table is then 32 KiB), and the tables of one order stay below 2^16 entries.
pub const PAIR_MAX_LEN: usize = 255;

/// Token ids below this take the direct unigram table.
pub const PAIR_ID_LIMIT: u32 = 1 << 15;

/// Buffers of [`PairClip::matches`], kept between pairs (all zero between calls).
#[derive(Debug, Default)]
pub struct PairClip {
    /// Token id → its unigram's number in the reference (0: not in it).
    first: Vec<u8>,
    /// (prefix number, last token number) → the n-gram's number (0: not in the reference).
    table: Vec<u8>,
    /// Per number, the reference's occurrences not yet matched (index 0 stays 0).
    count: Vec<u8>,
    /// The reference's unigram numbers, and its current order's n-gram numbers by start.
    ref_unigram: Vec<u8>,
    ref_class: Vec<u8>,
    /// The same for the hypothesis (0 where the reference lacks the n-gram).
    hyp_unigram: Vec<u8>,
    hyp_class: Vec<u8>,
    /// The reference's numbers of the next order (while `ref_class` holds the current's).
    ref_next: Vec<u8>,
}

impl PairClip {
    /// An empty kernel (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether [`PairClip::matches`] takes this reference (and a hypothesis with ids below
    /// [`PAIR_ID_LIMIT`]).
    pub fn takes(reference: &[u32]) -> bool {
        reference.len() <= PAIR_MAX_LEN && reference.iter().all(|&t| t < PAIR_ID_LIMIT)
    }

    /// Adds the clipped matches of `hyp` against `reference` to `hits[n]` for each order `n`
    /// in `1..=order` (`hits` at least `order + 1` long). Every id of both must be below
    /// [`PAIR_ID_LIMIT`] and the reference at most [`PAIR_MAX_LEN`] long
    /// ([`PairClip::takes`]).
    pub fn matches(&mut self, hyp: &[u32], reference: &[u32], order: usize, hits: &mut [u32]) {
        debug_assert!(Self::takes(reference) && hyp.iter().all(|&t| t < PAIR_ID_LIMIT));
        let (len, hyp_len) = (reference.len(), hyp.len());
        if order == 0 || len == 0 || hyp_len == 0 {
            return;
        }
        if self.first.is_empty() {
            self.first = vec![0; PAIR_ID_LIMIT as usize];
        }
        if self.count.len() <= len {
            self.count.resize(len + 1, 0);
        }
        for v in [
            &mut self.ref_unigram,
            &mut self.ref_class,
            &mut self.ref_next,
        ] {
            v.resize(len.max(v.len()), 0);
        }
        for v in [&mut self.hyp_unigram, &mut self.hyp_class] {
            v.resize(hyp_len.max(v.len()), 0);
        }
        // Locals: stores through one buffer then cannot make the others be read again.
        let first = &mut self.first[..];
        let count = &mut self.count[..=len];
        let ref_unigram = &mut self.ref_unigram[..len];
        let hyp_unigram = &mut self.hyp_unigram[..hyp_len];
        // Unigrams: numbered by first appearance in the reference.
        let mut unigrams = 0u8;
        for (&t, c) in reference.iter().zip(ref_unigram.iter_mut()) {
            let slot = &mut first[t as usize];
            if *slot == 0 {
                unigrams += 1;
                *slot = unigrams;
            }
            *c = *slot;
            count[usize::from(*c)] += 1;
        }
        let mut hit = 0;
        for (&t, c) in hyp.iter().zip(hyp_unigram.iter_mut()) {
            *c = first[t as usize];
            let left = &mut count[usize::from(*c)];
            let matched = u8::from(*left > 0);
            *left -= matched;
            hit += u32::from(matched);
        }
        hits[1] += hit;
        for &t in reference {
            first[t as usize] = 0;
        }
        count[..=usize::from(unigrams)].fill(0);
        if order == 1 || hit == 0 {
            return;
        }
        // Order n from order n − 1: the pair (prefix number, last unigram number).
        let width = usize::from(unigrams) + 1;
        let mut ref_prev = &mut self.ref_class[..len];
        let mut ref_cur = &mut self.ref_next[..len];
        ref_prev.copy_from_slice(ref_unigram);
        let hyp_class = &mut self.hyp_class[..hyp_len];
        hyp_class.copy_from_slice(hyp_unigram);
        let mut prefixes = usize::from(unigrams);
        for n in 2..=order.min(len).min(hyp_len) {
            let need = (prefixes + 1) * width;
            if self.table.len() < need {
                self.table.resize(need, 0);
            }
            let table = &mut self.table[..need];
            let mut classes = 0u8;
            for (key, c) in
                keys(&ref_prev[..=len - n], &ref_unigram[n - 1..], width).zip(ref_cur.iter_mut())
            {
                let slot = &mut table[key];
                if *slot == 0 {
                    classes += 1;
                    *slot = classes;
                }
                *c = *slot;
                count[usize::from(*c)] += 1;
            }
            let mut hit = 0;
            for i in 0..=hyp_len - n {
                let key = usize::from(hyp_class[i]) * width + usize::from(hyp_unigram[i + n - 1]);
                let class = table[key];
                let left = &mut count[usize::from(class)];
                let matched = u8::from(*left > 0);
                *left -= matched;
                hit += u32::from(matched);
                hyp_class[i] = class;
            }
            hits[n] += hit;
            for key in keys(&ref_prev[..=len - n], &ref_unigram[n - 1..], width) {
                table[key] = 0;
            }
            count[..=usize::from(classes)].fill(0);
            if hit == 0 {
                break;
            }
            prefixes = usize::from(classes);
            std::mem::swap(&mut ref_prev, &mut ref_cur);
        }
    }
}

/// The table keys of a reference's n-grams: (number of the prefix starting at `j`, number of
/// the unigram ending the n-gram), for the prefixes `prev` and the unigrams `last` from
/// position n − 1.
#[inline]
fn keys<'a>(prev: &'a [u8], last: &'a [u8], width: usize) -> impl Iterator<Item = usize> + 'a {
    prev.iter()
        .zip(last)
        .map(move |(&p, &u)| usize::from(p) * width + usize::from(u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Σ min(count in hyp, count in the reference) per order, by counting n-grams.
    fn oracle(hyp: &[u32], reference: &[u32], order: usize) -> Vec<u32> {
        fn count(t: &[u32], n: usize) -> HashMap<&[u32], u32> {
            let mut m = HashMap::new();
            for w in t.windows(n) {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        }
        let mut out = vec![0; order + 1];
        for (n, o) in out.iter_mut().enumerate().skip(1) {
            let r = count(reference, n);
            *o = count(hyp, n)
                .iter()
                .map(|(g, &c)| c.min(*r.get(g).unwrap_or(&0)))
                .sum();
        }
        out
    }

    fn hits(k: &mut PairClip, hyp: &[u32], reference: &[u32], order: usize) -> Vec<u32> {
        assert!(PairClip::takes(reference));
        let mut h = vec![0; order + 1];
        k.matches(hyp, reference, order, &mut h);
        h
    }

    #[test]
    fn clips_by_the_reference_count() {
        let mut k = PairClip::new();
        // hyp: the the the cat ; ref: the cat the
        assert_eq!(hits(&mut k, &[0, 0, 0, 1], &[0, 1, 0], 2), [0, 3, 1]);
        assert_eq!(
            hits(&mut k, &[1, 2, 3, 4], &[1, 2, 3, 4], 4),
            [0, 4, 3, 2, 1]
        );
        assert_eq!(hits(&mut k, &[7, 7], &[], 4), [0; 5]);
        assert_eq!(hits(&mut k, &[], &[7, 7], 4), [0; 5]);
        assert_eq!(hits(&mut k, &[5, 5, 5], &[5, 5], 1), [0, 2]);
    }

    #[test]
    fn the_longest_reference_and_the_highest_ids() {
        let top = PAIR_ID_LIMIT - 1;
        let reference: Vec<u32> = (0..PAIR_MAX_LEN as u32).map(|i| top - i % 7).collect();
        assert!(PairClip::takes(&reference));
        assert!(!PairClip::takes(&[reference.as_slice(), &[1]].concat()));
        assert!(!PairClip::takes(&[PAIR_ID_LIMIT]));
        let hyp: Vec<u32> = (0..300).map(|i| top - i % 5).collect();
        let mut k = PairClip::new();
        assert_eq!(
            hits(&mut k, &hyp, &reference, 13),
            oracle(&hyp, &reference, 13)
        );
    }

    fn token() -> impl proptest::strategy::Strategy<Value = u32> {
        proptest::prop_oneof![0u32..4, (PAIR_ID_LIMIT - 3)..PAIR_ID_LIMIT]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// A run of pairs through one kernel (so every buffer is reused) equals counting.
        #[test]
        fn equals_the_counting_oracle(
            pairs in proptest::collection::vec(
                (proptest::collection::vec(token(), 0..40),
                 proptest::collection::vec(token(), 0..40)),
                1..8),
            order in 1usize..=13,
        ) {
            let mut k = PairClip::new();
            for (hyp, reference) in &pairs {
                proptest::prop_assert_eq!(
                    hits(&mut k, hyp, reference, order),
                    oracle(hyp, reference, order)
                );
            }
        }
    }
}
