//! Clipped n-gram matches of one short-alphabet sequence against others, with each n-gram
//! packed exactly into a `u64` and the matches counted by one merge of two sorted lists.
//!
//! The hypothesis's symbols (code points, word ids: any `u32`) get dense one-byte ids
//! `1..=254` in first-seen order; a reference symbol the hypothesis lacks gets 255. Each
//! position of a sequence is then one `u64` key: the ids of the `k` symbols starting there
//! (`k` the highest order, at most [`MAX_PACKED_ORDER`]) from the top byte down, zero bytes
//! past the end. An n-gram is exactly the top `n` bytes of its position's key, so sorting
//! the keys puts the occurrences of every n-gram of every order `n ≤ k` next to each other
//! (big-endian bytes sort lexicographically; no id is 0, so a tail shorter than `n` never
//! joins an n-gram's run). One merge of the hypothesis's sorted keys with a reference's
//! walks those runs: where two neighbours share their top `l` bytes, the runs of orders
//! above `l` end, each adding min(hypothesis count, reference count) to its order.
//!
//! [`PackedNgrams::set_hyp`] refuses (returns false) a hypothesis of more than 254 distinct
//! symbols or an order above [`MAX_PACKED_ORDER`]; callers then take the general
//! [`NgramIds`](super::ngram_ids::NgramIds) path, whose counts these equal (proptests).
//! No hashing of n-grams, no per-pair allocation once the buffers have grown; memory is
//! linear in the lengths.

/// The highest order whose n-grams fit a `u64` (eight one-byte ids).
pub const MAX_PACKED_ORDER: usize = 8;

/// Most distinct symbols a hypothesis may have (ids `1..=254`).
pub const MAX_ALPHABET: usize = 254;

/// The id of a reference symbol the hypothesis does not have.
const ABSENT: u8 = 255;

/// Slots of the small symbol map (code points ≥ 256): twice the largest alphabet, rounded up.
const WIDE_SLOTS: usize = 512;

const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

/// Per-thread working memory; see the module docs.
#[derive(Debug)]
pub struct PackedNgrams {
    /// Symbol < 256 → id (0: none yet).
    narrow: [u8; 256],
    /// Symbols ≥ 256: open addressing (`u32::MAX` = empty) with their ids.
    wide_keys: Vec<u32>,
    wide_ids: Vec<u8>,
    /// Symbols given an id for the current hypothesis (to forget them).
    symbols: Vec<u32>,
    /// The hypothesis's position keys, sorted.
    hyp_keys: Vec<u64>,
    /// A reference's position keys, sorted.
    ref_keys: Vec<u64>,
    order: usize,
}

impl Default for PackedNgrams {
    fn default() -> Self {
        Self {
            narrow: [0; 256],
            wide_keys: vec![u32::MAX; WIDE_SLOTS],
            wide_ids: vec![0; WIDE_SLOTS],
            symbols: Vec::new(),
            hyp_keys: Vec::new(),
            ref_keys: Vec::new(),
            order: 0,
        }
    }
}

fn wide_slot(sym: u32) -> usize {
    ((u64::from(sym).wrapping_mul(MUL)) >> (64 - WIDE_SLOTS.trailing_zeros())) as usize
}

/// The sorted position keys of `ids` for orders up to `order` (see the module docs), less
/// those that start with [`ABSENT`] (no n-gram of theirs can match).
fn sorted_keys(ids: impl DoubleEndedIterator<Item = u8>, order: usize, out: &mut Vec<u64>) {
    out.clear();
    let keep = !0u64 << (8 * (MAX_PACKED_ORDER - order));
    let mut window = 0u64;
    for id in ids.rev() {
        window = (window >> 8) | (u64::from(id) << 56);
        if id != ABSENT {
            out.push(window & keep);
        }
    }
    out.sort_unstable();
}

impl PackedNgrams {
    /// An empty table (buffers grow on first use and are kept).
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the previous hypothesis's symbols.
    fn forget(&mut self) {
        for &s in &self.symbols {
            if s < 256 {
                self.narrow[s as usize] = 0;
            } else {
                // Every entry goes, so probing past already emptied slots is harmless.
                let mut i = wide_slot(s);
                while self.wide_keys[i] != s {
                    i = (i + 1) & (WIDE_SLOTS - 1);
                }
                self.wide_keys[i] = u32::MAX;
            }
        }
        self.symbols.clear();
        self.hyp_keys.clear();
    }

    /// The id of `sym`, new if absent; `None` past [`MAX_ALPHABET`] symbols.
    fn intern(&mut self, sym: u32) -> Option<u8> {
        let next = self.symbols.len() + 1;
        if sym < 256 {
            let id = self.narrow[sym as usize];
            if id != 0 {
                return Some(id);
            }
            if next > MAX_ALPHABET {
                return None;
            }
            self.narrow[sym as usize] = next as u8;
            self.symbols.push(sym);
            return Some(next as u8);
        }
        let mut i = wide_slot(sym);
        loop {
            let k = self.wide_keys[i];
            if k == sym {
                return Some(self.wide_ids[i]);
            }
            if k == u32::MAX {
                if next > MAX_ALPHABET {
                    return None;
                }
                self.wide_keys[i] = sym;
                self.wide_ids[i] = next as u8;
                self.symbols.push(sym);
                return Some(next as u8);
            }
            i = (i + 1) & (WIDE_SLOTS - 1);
        }
    }

    /// The id of a reference symbol ([`ABSENT`] if the hypothesis lacks it).
    fn lookup(&self, sym: u32) -> u8 {
        if sym < 256 {
            let id = self.narrow[sym as usize];
            return if id == 0 { ABSENT } else { id };
        }
        let mut i = wide_slot(sym);
        loop {
            let k = self.wide_keys[i];
            if k == sym {
                return self.wide_ids[i];
            }
            if k == u32::MAX {
                return ABSENT;
            }
            i = (i + 1) & (WIDE_SLOTS - 1);
        }
    }

    /// Takes `hyp` with n-grams of orders `1..=order`. False (and nothing usable kept) when
    /// `order` > [`MAX_PACKED_ORDER`] or `hyp` has more than [`MAX_ALPHABET`] distinct
    /// symbols.
    pub fn set_hyp(&mut self, hyp: &[u32], order: usize) -> bool {
        self.forget();
        if order == 0 || order > MAX_PACKED_ORDER {
            return false;
        }
        // The ids go through `ref_keys`' buffer (as u64) before the keys are built.
        let mut ids = std::mem::take(&mut self.ref_keys);
        ids.clear();
        for &sym in hyp {
            match self.intern(sym) {
                Some(id) => ids.push(u64::from(id)),
                None => {
                    self.ref_keys = ids;
                    self.forget();
                    return false;
                }
            }
        }
        self.order = order;
        let mut keys = std::mem::take(&mut self.hyp_keys);
        sorted_keys(ids.iter().map(|&id| id as u8), order, &mut keys);
        self.hyp_keys = keys;
        self.ref_keys = ids;
        true
    }

    /// Clipped matches of the hypothesis against `reference`, per order: `hits[n]` for
    /// `n` in `1..=order` (`hits[0]` untouched; `hits` must have `order + 1` entries).
    pub fn matches(&mut self, reference: &[u32], hits: &mut [u32]) {
        let order = self.order;
        let mut keys = std::mem::take(&mut self.ref_keys);
        sorted_keys(
            reference.iter().map(|&sym| self.lookup(sym)),
            order,
            &mut keys,
        );
        merge_runs(&self.hyp_keys, &keys, order, hits);
        self.ref_keys = keys;
    }
}

/// Walks the merged sorted keys `h` and `r`; see the module docs. Branch-free per key: the
/// side is chosen by a comparison, and the eight orders are lanes updated together.
fn merge_runs(h: &[u64], r: &[u64], order: usize, hits: &mut [u32]) {
    const LANES: usize = MAX_PACKED_ORDER;
    // Per order n (lane n - 1): counts of the current run on each side, and the sum of
    // min(hyp, ref) over the runs already ended.
    let mut hc = [0u32; LANES];
    let mut rc = [0u32; LANES];
    let mut total = [0u32; LANES];
    let (mut i, mut j) = (0, 0);
    let mut prev = 0u64;
    for _ in 0..h.len() + r.len() {
        // An exhausted side reads as u64::MAX, which no key is (no key starts with 255).
        let hk = h.get(i).copied().unwrap_or(u64::MAX);
        let rk = r.get(j).copied().unwrap_or(u64::MAX);
        let from_hyp = hk <= rk;
        let key = if from_hyp { hk } else { rk };
        i += usize::from(from_hyp);
        j += usize::from(!from_hyp);
        // Runs of orders above the shared top bytes end here (prev = 0 shares none); the
        // key counts for every order up to its length (its last nonzero byte).
        let shared = (prev ^ key).leading_zeros() / 8;
        let len = 8 - key.trailing_zeros() / 8;
        let (to_h, to_r) = (u32::from(from_hyp), u32::from(!from_hyp));
        for n in 0..LANES {
            let ends = (n as u32) >= shared;
            let counts = u32::from((n as u32) < len);
            total[n] += if ends { hc[n].min(rc[n]) } else { 0 };
            let keep = if ends { 0 } else { u32::MAX };
            hc[n] = (hc[n] & keep) + counts * to_h;
            rc[n] = (rc[n] & keep) + counts * to_r;
        }
        prev = key;
    }
    for n in 1..=order {
        hits[n] = total[n - 1] + hc[n - 1].min(rc[n - 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Σ min(count in a, count in b) per order, by counting whole n-grams.
    fn oracle(a: &[u32], b: &[u32], order: usize) -> Vec<u32> {
        fn count(t: &[u32], n: usize) -> HashMap<&[u32], u32> {
            let mut m = HashMap::new();
            for w in t.windows(n) {
                *m.entry(w).or_insert(0) += 1;
            }
            m
        }
        let mut out = vec![0; order + 1];
        for (n, o) in out.iter_mut().enumerate().skip(1) {
            let (ca, cb) = (count(a, n), count(b, n));
            *o = ca
                .iter()
                .map(|(g, &c)| c.min(*cb.get(g).unwrap_or(&0)))
                .sum();
        }
        out
    }

    #[test]
    fn counts_clip_and_orders_stay_apart() {
        let mut p = PackedNgrams::new();
        assert!(p.set_hyp(&[1, 1, 1, 2], 3));
        let mut hits = [7u32; 4];
        p.matches(&[1, 1, 2, 2, 1], &mut hits);
        // unigrams: min(3,3)+min(1,2) = 4; bigrams 11,12 vs 11,12,22,21: 2; trigram 112: 1
        assert_eq!(hits, [7, 4, 2, 1]);
        p.matches(&[9, 1, 300, 1], &mut hits);
        assert_eq!(hits, [7, 2, 0, 0]);
    }

    #[test]
    fn refuses_what_does_not_pack() {
        let mut p = PackedNgrams::new();
        assert!(!p.set_hyp(&[1, 2], MAX_PACKED_ORDER + 1));
        let wide: Vec<u32> = (0..=MAX_ALPHABET as u32).map(|i| 1000 + 7 * i).collect();
        assert!(!p.set_hyp(&wide, 6));
        assert!(p.set_hyp(&wide[1..], 6));
        let mut hits = [0u32; 7];
        p.matches(&wide, &mut hits);
        assert_eq!(hits.to_vec(), oracle(&wide[1..], &wide, 6));
        // After a refusal the next hypothesis starts clean.
        assert!(p.set_hyp(&[5, 6], 2));
        p.matches(&[1000, 5, 6], &mut hits);
        assert_eq!(&hits[..3], &[0, 2, 1]);
    }

    proptest::proptest! {
        #[test]
        fn equals_the_counting_oracle(
            hyp in proptest::collection::vec(
                proptest::prop_oneof![0u32..4, 250u32..262, 0x4e00u32..0x4e03], 0..40),
            refs in proptest::collection::vec(proptest::collection::vec(
                proptest::prop_oneof![0u32..4, 250u32..262, 0x4e00u32..0x4e03], 0..40), 1..4),
            order in 1usize..=MAX_PACKED_ORDER,
        ) {
            let mut p = PackedNgrams::new();
            proptest::prop_assert!(p.set_hyp(&hyp, order));
            let mut hits = vec![0u32; order + 1];
            for r in &refs {
                p.matches(r, &mut hits);
                proptest::prop_assert_eq!(&hits, &oracle(&hyp, r, order));
            }
        }
    }
}
