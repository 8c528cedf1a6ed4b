//! Clipped n-gram matches of hypotheses against one prepared reference set, with n-grams of
//! orders ≤ 4 over ids below 2^15 packed exactly into `u64` keys.
//!
//! BLEU's clipped matches of order n are Σ over the hypothesis's n-grams g of
//! min(count of g in the hypothesis, max over the references of the count of g). The
//! references' side is a table built once per reference set: each distinct n-gram with its
//! clipping count (its maximum count in one reference). The sum is then read off the
//! hypothesis in one pass, occurrence by occurrence: an occurrence of g matches while fewer
//! than its clipping count of earlier occurrences did, so g adds min(its count, the clipping
//! count) without the hypothesis's n-grams ever being counted first. A start's longer n-grams
//! are looked up only while the shorter ones from the same start are in the table (an
//! n-gram no reference has is the prefix of none they have).
//!
//! The pairs that share a reference set (the systems of one segment, consecutive in a text
//! batch) reuse the table: [`RefClipTable::prepare`] compares the references with those it
//! was built for and keeps it when they are the same tokens. A caller that counts a pair
//! another way can still [`RefClipTable::remember`] its references, so that a set met twice
//! in a row is recognised ([`RefClipTable::is_last`]). Counters of matched occurrences
//! are stamped with the hypothesis they belong to, so nothing is cleared between
//! hypotheses; the table is cleared slot by slot (only the occupied ones) when the
//! references change.
//!
//! Keys: the order in the top bits (1..=4, so no key is 0, the empty slot), then the tokens,
//! [`PACK_BITS`] bits each. Equal keys are equal n-grams of one order.

/// Bits per token of a packed key: ids below `2^PACK_BITS` fit.
pub const PACK_BITS: u32 = 15;
/// The highest order that fits a packed key.
pub const PACK_ORDERS: usize = 4;

/// One slot of the open-addressing table.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The packed n-gram (0: empty).
    key: u64,
    /// The clipping count: the n-gram's largest count in one reference.
    max: u32,
    /// While building: its count in reference `seen` (the one being read).
    count: u32,
    seen: u32,
    /// Occurrences of the hypothesis `stamp` that matched it so far.
    used: u32,
    stamp: u32,
}

/// A reference set's n-grams with their clipping counts; see the module docs.
#[derive(Debug, Default)]
pub struct RefClipTable {
    slots: Vec<Slot>,
    /// Slots in use (`2^(64 - shift)` of `slots`), and the occupied ones (to clear).
    shift: u32,
    mask: usize,
    occupied: Vec<u32>,
    /// The references the table holds (concatenated; reference `i` ends at `ends[i]`), its
    /// order, and whether it is built.
    tokens: Vec<u32>,
    ends: Vec<usize>,
    order: usize,
    built: bool,
    /// The current hypothesis's stamp (never 0 once a hypothesis was read).
    stamp: u32,
}

/// The slot of `key` among `2^(64 - shift)` (Fibonacci hashing).
#[inline]
pub fn home(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// The key of the n-gram of order `n + 1` whose tokens are packed in `tokens`: the order in
/// the top bits, so that no key is 0 (the empty slot).
#[inline]
fn order_key(n: usize, tokens: u64) -> u64 {
    ((n as u64 + 1) << 60) | tokens
}

/// Whether every id of `t` fits a packed key (the bits of all ids together, without a
/// branch per id: the loop vectorizes).
pub fn fits(t: &[u32]) -> bool {
    t.iter().fold(0, |all, &id| all | id) < 1 << PACK_BITS
}

impl RefClipTable {
    /// An empty table (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `refs` are the references last given to [`RefClipTable::prepare`] or
    /// [`RefClipTable::remember`].
    pub fn is_last<'a>(&self, refs: impl Iterator<Item = &'a [u32]>) -> bool {
        let mut start = 0;
        let mut i = 0;
        for r in refs {
            let Some(&end) = self.ends.get(i) else {
                return false;
            };
            if self.tokens[start..end] != *r {
                return false;
            }
            start = end;
            i += 1;
        }
        i == self.ends.len()
    }

    /// Whether the table is built for exactly `refs` at `order`.
    pub fn holds<'a>(&self, refs: impl Iterator<Item = &'a [u32]>, order: usize) -> bool {
        self.built && self.order == order && self.is_last(refs)
    }

    /// Empties the table and notes `refs` as the last references without building their
    /// table ([`RefClipTable::is_last`] then recognises them).
    pub fn remember<'a>(&mut self, refs: impl Iterator<Item = &'a [u32]>) {
        self.clear();
        for r in refs {
            self.tokens.extend_from_slice(r);
            self.ends.push(self.tokens.len());
        }
    }

    /// Makes the table hold the n-grams of orders `1..=order` of `refs`, keeping it if it
    /// already does. False (and the table emptied) when `order` is 0 or above
    /// [`PACK_ORDERS`] or an id does not fit (callers then count another way).
    pub fn prepare<'a>(
        &mut self,
        refs: impl Iterator<Item = &'a [u32]> + Clone,
        order: usize,
    ) -> bool {
        if self.holds(refs.clone(), order) {
            return true;
        }
        self.clear();
        if order == 0 || order > PACK_ORDERS || !refs.clone().all(fits) {
            return false;
        }
        for r in refs {
            self.tokens.extend_from_slice(r);
            self.ends.push(self.tokens.len());
        }
        let cap = (2 * order * self.tokens.len()).next_power_of_two().max(64);
        if self.slots.len() < cap {
            self.slots.resize(cap, Slot::default());
        }
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
        let mut start = 0;
        for (ri, &end) in self.ends.iter().enumerate() {
            let r = &self.tokens[start..end];
            start = end;
            for s in 0..r.len() {
                let mut key = 0u64;
                for (n, &t) in r[s..].iter().take(order).enumerate() {
                    key = (key << PACK_BITS) | u64::from(t);
                    let full = order_key(n, key);
                    let i = self.slot_of(full);
                    let slot = &mut self.slots[i];
                    if slot.key == 0 {
                        *slot = Slot {
                            key: full,
                            max: 1,
                            count: 1,
                            seen: ri as u32,
                            used: 0,
                            stamp: 0,
                        };
                        self.occupied.push(i as u32);
                    } else {
                        if slot.seen == ri as u32 {
                            slot.count += 1;
                        } else {
                            slot.seen = ri as u32;
                            slot.count = 1;
                        }
                        slot.max = slot.max.max(slot.count);
                    }
                }
            }
        }
        self.order = order;
        self.built = true;
        true
    }

    /// The slot holding the packed n-gram `full`, or the empty slot where it goes (linear
    /// probing; the table is at most half full, so there always is one).
    #[inline]
    fn slot_of(&self, full: u64) -> usize {
        let mut i = home(full, self.shift);
        loop {
            let key = self.slots[i].key;
            if key == full || key == 0 {
                return i;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Empties the table (the slots in use only).
    fn clear(&mut self) {
        for &i in &self.occupied {
            self.slots[i as usize].key = 0;
        }
        self.occupied.clear();
        self.tokens.clear();
        self.ends.clear();
        self.built = false;
    }

    /// Adds the clipped matches of `hyp` against the prepared references to `hits[n]` for
    /// each order `n` in `1..=order` (`hits` at least `order + 1` long). Only after a
    /// [`RefClipTable::prepare`] that returned true; every id of `hyp` must fit
    /// ([`fits`]).
    pub fn matches(&mut self, hyp: &[u32], hits: &mut [u32]) {
        debug_assert!(self.built && fits(hyp));
        if self.stamp == u32::MAX {
            // Stamps wrapped: no slot may keep one that a later hypothesis could take for
            // its own.
            for slot in &mut self.slots {
                slot.stamp = 0;
            }
            self.stamp = 0;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let order = self.order;
        for s in 0..hyp.len() {
            let mut key = 0u64;
            for (n, &t) in hyp[s..].iter().take(order).enumerate() {
                key = (key << PACK_BITS) | u64::from(t);
                let i = self.slot_of(order_key(n, key));
                let slot = &mut self.slots[i];
                if slot.key == 0 {
                    break;
                }
                // Without branches (whether an occurrence matches is not predictable): a
                // counter stamped by another hypothesis reads as 0.
                let used = if slot.stamp == stamp { slot.used } else { 0 };
                let hit = u32::from(used < slot.max);
                slot.used = used + hit;
                slot.stamp = stamp;
                hits[n + 1] += hit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Σ min(count in hyp, max count in one reference) per order, by counting n-grams.
    fn oracle(hyp: &[u32], refs: &[Vec<u32>], order: usize) -> Vec<u32> {
        fn count(t: &[u32], n: usize) -> HashMap<&[u32], u32> {
            let mut m = HashMap::new();
            for w in t.windows(n) {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        }
        let mut out = vec![0; order + 1];
        for (n, o) in out.iter_mut().enumerate().skip(1) {
            let per_ref: Vec<_> = refs.iter().map(|r| count(r, n)).collect();
            *o = count(hyp, n)
                .iter()
                .map(|(g, &c)| {
                    let m = per_ref.iter().map(|rc| *rc.get(g).unwrap_or(&0)).max();
                    c.min(m.unwrap_or(0))
                })
                .sum();
        }
        out
    }

    fn hits(t: &mut RefClipTable, refs: &[Vec<u32>], hyp: &[u32], order: usize) -> Vec<u32> {
        assert!(t.prepare(refs.iter().map(Vec::as_slice), order));
        let mut h = vec![0; order + 1];
        t.matches(hyp, &mut h);
        h
    }

    #[test]
    fn clips_by_the_largest_count_in_one_reference() {
        // hyp: the the the cat ; refs: "the cat the" and "the the mat"
        let refs = vec![vec![0, 1, 0], vec![0, 0, 2]];
        let mut t = RefClipTable::new();
        assert_eq!(hits(&mut t, &refs, &[0, 0, 0, 1], 2), [0, 3, 2]);
        // The same table for the next hypothesis: counters start again.
        assert_eq!(hits(&mut t, &refs, &[0, 0, 0, 1], 2), [0, 3, 2]);
        assert_eq!(hits(&mut t, &refs, &[2, 2], 2), [0, 1, 0]);
    }

    #[test]
    fn refuses_what_does_not_pack_and_recovers() {
        let mut t = RefClipTable::new();
        let big = [vec![1u32 << PACK_BITS, 1]];
        assert!(!t.prepare(big.iter().map(Vec::as_slice), 2));
        assert!(!t.prepare([[1u32, 2].as_slice()].into_iter(), PACK_ORDERS + 1));
        assert!(!t.prepare([[1u32, 2].as_slice()].into_iter(), 0));
        let top = (1u32 << PACK_BITS) - 1;
        let refs = vec![vec![top, top, 3]];
        assert_eq!(hits(&mut t, &refs, &[top, top, top], 4), [0, 2, 1, 0, 0]);
    }

    #[test]
    fn a_changed_reference_set_is_rebuilt() {
        let mut t = RefClipTable::new();
        let a = vec![vec![1, 2, 3]];
        let ab = vec![vec![1, 2, 3], vec![4]];
        let b = vec![vec![1, 2]];
        let empty: Vec<Vec<u32>> = vec![vec![]];
        assert_eq!(hits(&mut t, &a, &[1, 2, 3, 4], 3), [0, 3, 2, 1]);
        assert_eq!(hits(&mut t, &ab, &[1, 2, 3, 4], 3), [0, 4, 2, 1]);
        assert_eq!(hits(&mut t, &b, &[1, 2, 3, 4], 3), [0, 2, 1, 0]);
        assert_eq!(hits(&mut t, &b, &[1, 2, 3, 4], 2), [0, 2, 1]);
        assert_eq!(hits(&mut t, &empty, &[1, 2], 2), [0, 0, 0]);
        assert_eq!(hits(&mut t, &[], &[1, 2], 2), [0, 0, 0]);
    }

    fn slices(s: &[Vec<u32>]) -> Vec<&[u32]> {
        s.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn remembered_references_are_recognised_not_built() {
        let mut t = RefClipTable::new();
        let a = vec![vec![1, 2, 3]];
        let b = vec![vec![1, 2], vec![2, 3]];
        assert_eq!(hits(&mut t, &a, &[1, 2, 3], 2), [0, 3, 2]);
        assert!(t.holds(slices(&a).into_iter(), 2) && !t.holds(slices(&a).into_iter(), 3));
        t.remember(slices(&b).into_iter());
        assert!(t.is_last(slices(&b).into_iter()) && !t.is_last(slices(&a).into_iter()));
        assert!(!t.holds(slices(&b).into_iter(), 2));
        assert!(!t.is_last(slices(&b[..1]).into_iter()));
        assert_eq!(hits(&mut t, &b, &[1, 2, 3, 2, 3], 2), [0, 3, 2]);
        assert!(t.holds(slices(&b).into_iter(), 2));
    }

    #[test]
    fn stamps_that_wrap_start_clean() {
        let mut t = RefClipTable::new();
        let refs = vec![vec![5, 5]];
        assert_eq!(hits(&mut t, &refs, &[5, 5, 5], 1), [0, 2]);
        t.stamp = u32::MAX - 1;
        for _ in 0..4 {
            assert_eq!(hits(&mut t, &refs, &[5, 5, 5], 1), [0, 2]);
        }
    }

    fn token() -> impl proptest::strategy::Strategy<Value = u32> {
        proptest::prop_oneof![0u32..4, ((1u32 << PACK_BITS) - 3)..(1u32 << PACK_BITS)]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// A run of hypotheses against reference sets that change now and then (so tables
        /// are both reused and rebuilt) equals counting each pair from scratch.
        #[test]
        fn equals_the_counting_oracle(
            sets in proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(token(), 0..30), 0..4),
                1..4),
            hyps in proptest::collection::vec(
                (0usize..3, proptest::collection::vec(token(), 0..30)), 1..12),
            order in 1usize..=PACK_ORDERS,
        ) {
            let mut t = RefClipTable::new();
            for (which, hyp) in &hyps {
                let refs = &sets[which % sets.len()];
                proptest::prop_assert_eq!(hits(&mut t, refs, hyp, order), oracle(hyp, refs, order));
            }
        }
    }
}
