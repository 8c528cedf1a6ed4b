//! Clipped n-gram matches of one hypothesis against one reference, with small direct tables:
//! no hashing.
//!
//! BLEU's clipped matches of order n are Σ over the n-grams g of min(count of g in the
//! hypothesis, count of g in the reference). The reference's distinct unigrams are numbered
//! 1, 2, … in order of first appearance (a direct table indexed by token id, 0: not in the
//! reference); the hypothesis's tokens get the same numbers through the same table.
//!
//! A reference of at most 128 tokens is then read as bit sets, one bit per reference
//! position ([`PairClip::matches`]): the table maps each unigram number to the positions of
//! that unigram. Reading the hypothesis once, each position `e` gets, per order n, the set
//! of reference positions where an n-gram equal to the hypothesis's n-gram ending at `e`
//! ends: for n = 1 the places of its token, for n ≥ 2 the set of order n − 1 at `e − 1`
//! moved one position on, among the places of its token. An n-gram's occurrences in the
//! hypothesis share one set and different n-grams have disjoint sets (a reference position
//! ends one n-gram of each order), so when each occurrence takes the lowest end of its set
//! not yet taken, if any (one running set of taken ends per order), the ends taken are
//! Σ min(count in the hypothesis, count in the reference): the clipped matches. The
//! reference is read once and the hypothesis once, whatever the order, without a branch;
//! the order is a constant of the loop, so the sets stay in registers. A reference of at
//! most 64 tokens needs no table either: it is held as [`Lanes`], and a hypothesis token's
//! places are one comparison with all of its tokens.
//!
//! A longer reference numbers its distinct n-grams order by order: the n-grams of order n
//! by the pair (number of the (n−1)-gram prefix, number of the last token), looked up in a
//! table of `(D + 1) × (U + 1)` entries (`D` distinct (n−1)-grams, `U` distinct unigrams,
//! both at most the reference's length). The hypothesis's n-grams get the same numbers
//! through the same tables, 0 where the reference has no such n-gram (row and column 0 are
//! never written, so a start whose prefix or last token is missing reads 0 without a
//! branch). Each occurrence of a numbered n-gram in the hypothesis matches while the
//! reference's count of it is not used up.
//!
//! Only the entries written are cleared afterwards, so a pair costs what its tokens touch.
//! Neither the order of numbering nor the path ever changes a count: both equal counting
//! n-grams (proptested against that oracle, and against each other).

use crate::kernels::lanes::Lanes;
use std::ops::{BitAnd, BitOr, Not, Shl};

/// The longest reference this kernel takes: its numbers and counts fit a `u8` (the direct
/// unigram table is then 32 KiB), and the tables of one order stay below 2^16 entries.
pub const PAIR_MAX_LEN: usize = 255;

/// Token ids below this take the direct unigram table.
pub const PAIR_ID_LIMIT: u32 = 1 << 15;
const _: () = assert!(
    PAIR_ID_LIMIT.is_power_of_two(),
    "takes() ORs the ids together"
);

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
    /// The bit-set path's reference: held as lanes (at most 64 tokens), or its table of
    /// places (at most 128).
    lanes: Lanes,
    places128: Places<u128>,
}

/// The highest order that [`PairClip::matches`] counts on bit sets (BLEU's orders, one
/// more for the smoothings that look one order further).
pub const PAIR_MAX_ORDER: usize = 13;

/// The longest reference that [`PairClip::matches`] reads as bit sets (a reference position
/// per bit of a `u128`).
pub const BITS_MAX_LEN: usize = 128;

/// The bit-set path's table: unigram number → the reference positions of that unigram, one
/// bit each (0: none; all empty between calls).
#[derive(Debug)]
struct Places<B>(Box<[B; 256]>);

impl<B: Bits> Default for Places<B> {
    fn default() -> Self {
        Self(Box::new([B::default(); 256]))
    }
}

/// A set of reference positions, one per bit.
trait Bits:
    Copy
    + Default
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
{
    /// The number of bits (the longest reference).
    const BITS: usize;
    /// The set of position 0.
    const ONE: Self;
    /// The lowest member alone (the empty set for the empty set).
    fn lowest(self) -> Self;
    /// The number of members.
    fn members(self) -> u32;
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const BITS: usize = <$t>::BITS as usize;
            const ONE: Self = 1;
            #[inline]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn members(self) -> u32 {
                self.count_ones()
            }
        }
    };
}
bits!(u64);
bits!(u128);

/// [`PairClip::matches`] for a reference of 1..=`B::BITS` tokens, a hypothesis of at least
/// one and `K` orders: the bit-set path (see the module's documentation). `first` covers
/// every id and is all zero before and after.
fn matches_bits<B: Bits, const K: usize>(
    first: &mut [u8],
    places: &mut Places<B>,
    hyp: &[u32],
    reference: &[u32],
    hits: &mut [u32],
) {
    debug_assert!((1..=B::BITS).contains(&reference.len()) && !hyp.is_empty() && K > 0);
    let places = &mut *places.0;
    // Unigrams: numbered by first appearance in the reference, with their positions.
    let mut unigrams = 0u8;
    for (j, &t) in reference.iter().enumerate() {
        // Without a branch: whether a token repeats is not predictable.
        let slot = &mut first[t as usize];
        let new = *slot == 0;
        unigrams += u8::from(new);
        *slot = if new { unigrams } else { *slot };
        let c = usize::from(*slot);
        places[c] = places[c] | (B::ONE << j);
    }
    // The hypothesis, token by token: per order n the set of reference ends of the n-gram
    // ending here (the places of the token, and for n ≥ 2 the set of the (n − 1)-gram
    // ending at the token before, moved one on), and per order the reference ends taken so
    // far: an occurrence takes the lowest end of its set not yet taken, if any, so the
    // taken ends of an n-gram are min(its count here, its count in the reference). All in
    // registers: `K` is a constant.
    let zero = B::default();
    let (mut ends, mut taken) = ([zero; K], [zero; K]);
    for &t in hyp {
        let p = places[usize::from(first[t as usize])];
        for n in (1..K).rev() {
            ends[n] = (ends[n - 1] << 1) & p;
        }
        ends[0] = p;
        for n in 0..K {
            let free = ends[n] & !taken[n];
            taken[n] = taken[n] | free.lowest();
        }
    }
    for (h, t) in hits[1..=K].iter_mut().zip(taken) {
        *h += t.members();
    }
    for &t in reference {
        first[t as usize] = 0;
    }
    places[..=usize::from(unigrams)].fill(zero);
}

/// The instance of a kernel generic over the order `K` (its last const parameter, after
/// the type parameters given) for `order` in 1..=[`PAIR_MAX_ORDER`].
macro_rules! by_order {
    ($order:expr, $f:ident $(, $t:ty)*) => {
        match $order {
            1 => $f::<$($t,)* 1>,
            2 => $f::<$($t,)* 2>,
            3 => $f::<$($t,)* 3>,
            4 => $f::<$($t,)* 4>,
            5 => $f::<$($t,)* 5>,
            6 => $f::<$($t,)* 6>,
            7 => $f::<$($t,)* 7>,
            8 => $f::<$($t,)* 8>,
            9 => $f::<$($t,)* 9>,
            10 => $f::<$($t,)* 10>,
            11 => $f::<$($t,)* 11>,
            12 => $f::<$($t,)* 12>,
            13 => $f::<$($t,)* 13>,
            order => unreachable!("order {order} above {PAIR_MAX_ORDER}"),
        }
    };
}

/// [`matches_bits`] for a reference held as [`Lanes`] (at most 64 tokens): a hypothesis
/// token's places are found by comparing it with every reference token at once, so the
/// reference needs no table to fill and clear.
fn matches_lanes<const K: usize>(reference: &Lanes, hyp: &[u32], hits: &mut [u32]) {
    let (mut ends, mut taken) = ([0u64; K], [0u64; K]);
    reference.scan(hyp, |p| {
        for n in (1..K).rev() {
            ends[n] = (ends[n - 1] << 1) & p;
        }
        ends[0] = p;
        for n in 0..K {
            let free = ends[n] & !taken[n];
            taken[n] |= free.lowest();
        }
    });
    for (h, t) in hits[1..=K].iter_mut().zip(taken) {
        *h += t.members();
    }
}

/// [`matches_lanes`] with the order as a constant (1..=[`PAIR_MAX_ORDER`]).
fn matches_lanes_any(reference: &Lanes, hyp: &[u32], order: usize, hits: &mut [u32]) {
    let f = by_order!(order, matches_lanes);
    f(reference, hyp, hits)
}

/// [`matches_bits`] with the order as a constant (1..=[`PAIR_MAX_ORDER`]).
fn matches_bits_any<B: Bits>(
    first: &mut [u8],
    s: &mut Places<B>,
    hyp: &[u32],
    reference: &[u32],
    order: usize,
    hits: &mut [u32],
) {
    let f = by_order!(order, matches_bits, B);
    f(first, s, hyp, reference, hits)
}

impl PairClip {
    /// An empty kernel (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether [`PairClip::matches`] takes this reference (and a hypothesis with ids below
    /// [`PAIR_ID_LIMIT`]).
    pub fn takes(reference: &[u32]) -> bool {
        // The bits of all ids together (PAIR_ID_LIMIT is a power of two): no branch per id.
        reference.len() <= PAIR_MAX_LEN
            && reference.iter().fold(0, |all, &t| all | t) < PAIR_ID_LIMIT
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
        let first = &mut self.first[..];
        if order > PAIR_MAX_ORDER || len > BITS_MAX_LEN {
            self.numbered(hyp, reference, order, hits);
        } else if self.lanes.fill(reference) {
            matches_lanes_any(&self.lanes, hyp, order, hits);
        } else {
            matches_bits_any(first, &mut self.places128, hyp, reference, order, hits);
        }
    }

    /// [`PairClip::matches`] for a reference longer than [`BITS_MAX_LEN`] (or any, in the
    /// tests): numbered n-grams, order by order.
    fn numbered(&mut self, hyp: &[u32], reference: &[u32], order: usize, hits: &mut [u32]) {
        let (len, hyp_len) = (reference.len(), hyp.len());
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

    /// The hits of one path: 0 the dispatch of `matches` (lanes up to 64 reference tokens,
    /// then bit sets in a `u128`), 1 bit sets in a `u128` whatever the reference's length
    /// (up to 128), 2 numbered n-grams whatever the length.
    fn hits_by(
        k: &mut PairClip,
        path: u8,
        hyp: &[u32],
        reference: &[u32],
        order: usize,
    ) -> Vec<u32> {
        let mut h = vec![0; order + 1];
        if path == 0 || hyp.is_empty() || reference.is_empty() {
            k.matches(hyp, reference, order, &mut h);
        } else if path == 1 {
            matches_bits_any(
                &mut k.first,
                &mut k.places128,
                hyp,
                reference,
                order,
                &mut h,
            );
        } else {
            k.numbered(hyp, reference, order, &mut h);
        }
        h
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// Lanes and bit sets equal numbered n-grams and counting, over references
        /// on both sides of 64 and 128 tokens, orders on both sides of `PAIR_MAX_ORDER`,
        /// few distinct tokens (so n-grams repeat in both texts), the highest ids, and one
        /// kernel for a run of pairs.
        #[test]
        fn bit_sets_equal_numbered_ngrams(
            pairs in proptest::collection::vec(
                (proptest::collection::vec(token(), 1..150),
                 proptest::collection::vec(token(), 1..150)),
                1..6),
            order in 1usize..=PAIR_MAX_ORDER + 1,
        ) {
            let mut k = PairClip::new();
            k.first = vec![0; PAIR_ID_LIMIT as usize];
            for (hyp, reference) in &pairs {
                let expected = oracle(hyp, reference, order);
                let paths = if reference.len() <= BITS_MAX_LEN && order <= PAIR_MAX_ORDER {
                    0..3
                } else {
                    0..1
                };
                for path in paths {
                    proptest::prop_assert_eq!(
                        &hits_by(&mut k, path, hyp, reference, order), &expected, "path {}", path
                    );
                }
                proptest::prop_assert_eq!(&hits_by(&mut k, 2, hyp, reference, order), &expected);
            }
        }
    }
}
