//! Clipped n-gram matches of one short-alphabet sequence against others, with each n-gram
//! packed exactly into a `u64`.
//!
//! The hypothesis's symbols (code points, word ids: any `u32`) get dense one-byte ids
//! `1..=254` in first-seen order, so an n-gram of order `n ≤ 8` is the `u64` of its `n` id
//! bytes: exact (no hashing of n-grams, no collisions), and distinct across orders because no
//! id is 0. Every n-gram of the hypothesis, of orders `1..=k`, is counted once in an
//! open-addressing table of `(key, hypothesis count, seen)` slots. A reference is then one
//! pass: at each position its n-grams are looked up order by order, and the first one
//! missing ends that position (the table holds every prefix of every n-gram it holds, and a
//! reference symbol outside the hypothesis's alphabet gets the id 255, which no key holds).
//! A found n-gram is a match while fewer of it have been seen in this reference than the
//! hypothesis has, which adds up to Σ min(hypothesis count, reference count) per order.
//!
//! [`PackedNgrams::set_hyp`] refuses (returns false) a hypothesis of more than 254 distinct
//! symbols or an order above [`MAX_PACKED_ORDER`]; callers then take the general
//! [`NgramIds`](super::ngram_ids::NgramIds) path, whose counts these equal (proptests).
//! Nothing is allocated per sequence once the buffers have grown.

/// The highest order whose n-grams fit a `u64` (eight one-byte ids).
pub const MAX_PACKED_ORDER: usize = 8;

/// Most distinct symbols a hypothesis may have (ids `1..=254`).
pub const MAX_ALPHABET: usize = 254;

/// The id of a reference symbol the hypothesis does not have.
const ABSENT: u8 = 255;

/// Slots of the small symbol map (code points ≥ 256): twice the largest alphabet, rounded up.
const WIDE_SLOTS: usize = 512;

const MUL: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// 0 = empty (no n-gram packs to 0).
    key: u64,
    hyp: u32,
    seen: u32,
}

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
    slots: Vec<Slot>,
    used: Vec<u32>,
    shift: u32,
    /// The hypothesis as ids, then (reused) each reference.
    ids: Vec<u8>,
    order: usize,
    /// Whether `seen` counts need clearing before the next reference.
    dirty: bool,
}

impl Default for PackedNgrams {
    fn default() -> Self {
        Self {
            narrow: [0; 256],
            wide_keys: vec![u32::MAX; WIDE_SLOTS],
            wide_ids: vec![0; WIDE_SLOTS],
            symbols: Vec::new(),
            slots: Vec::new(),
            used: Vec::new(),
            shift: 64,
            ids: Vec::new(),
            order: 0,
            dirty: false,
        }
    }
}

fn wide_slot(sym: u32) -> usize {
    ((u64::from(sym).wrapping_mul(MUL)) >> (64 - WIDE_SLOTS.trailing_zeros())) as usize
}

impl PackedNgrams {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets the previous hypothesis's symbols and n-grams (only the slots it used).
    fn forget(&mut self) {
        for &s in &self.symbols {
            if s < 256 {
                self.narrow[s as usize] = 0;
            } else {
                let mut i = wide_slot(s);
                while self.wide_keys[i] != s {
                    i = (i + 1) & (WIDE_SLOTS - 1);
                }
                self.wide_keys[i] = u32::MAX;
            }
        }
        // Wide entries are removed in any order: re-inserting the survivors is not needed
        // because every entry of this hypothesis goes.
        self.symbols.clear();
        for &s in &self.used {
            self.slots[s as usize] = Slot::default();
        }
        self.used.clear();
        self.dirty = false;
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

    fn slot_of(&self, key: u64) -> usize {
        (key.wrapping_mul(MUL) >> self.shift) as usize
    }

    /// Counts every n-gram of `hyp` of orders `1..=order`. False (and nothing usable kept)
    /// when `order` > [`MAX_PACKED_ORDER`] or `hyp` has more than [`MAX_ALPHABET`] distinct
    /// symbols.
    pub fn set_hyp(&mut self, hyp: &[u32], order: usize) -> bool {
        self.forget();
        if order > MAX_PACKED_ORDER {
            return false;
        }
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        for &sym in hyp {
            match self.intern(sym) {
                Some(id) => ids.push(id),
                None => {
                    self.ids = ids;
                    self.forget();
                    return false;
                }
            }
        }
        self.order = order;
        // Room for every n-gram at load ≤ 1/2.
        let cap = (2 * hyp.len() * order.max(1)).next_power_of_two().max(64);
        if self.slots.len() < cap {
            self.slots.resize(cap, Slot::default());
        }
        self.shift = 64 - cap.trailing_zeros();
        let mask = cap - 1;
        for pos in 0..ids.len() {
            let mut key = 0u64;
            for &id in &ids[pos..(pos + order).min(ids.len())] {
                key = (key << 8) | u64::from(id);
                let mut s = self.slot_of(key);
                loop {
                    let slot = &mut self.slots[s];
                    if slot.key == key {
                        slot.hyp += 1;
                        break;
                    }
                    if slot.key == 0 {
                        *slot = Slot {
                            key,
                            hyp: 1,
                            seen: 0,
                        };
                        self.used.push(s as u32);
                        break;
                    }
                    s = (s + 1) & mask;
                }
            }
        }
        self.ids = ids;
        true
    }

    /// Clipped matches of the hypothesis against `reference`, per order: `hits[n]` for
    /// `n` in `1..=order` (`hits[0]` untouched; `hits` must have `order + 1` entries).
    pub fn matches(&mut self, reference: &[u32], hits: &mut [u32]) {
        if self.dirty {
            for &s in &self.used {
                self.slots[s as usize].seen = 0;
            }
        }
        self.dirty = true;
        let order = self.order;
        hits[1..=order].fill(0);
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        ids.extend(reference.iter().map(|&sym| self.lookup(sym)));
        let mask = (1usize << (64 - self.shift)) - 1;
        for pos in 0..ids.len() {
            let mut key = 0u64;
            for (n, &id) in ids[pos..(pos + order).min(ids.len())].iter().enumerate() {
                if id == ABSENT {
                    break;
                }
                key = (key << 8) | u64::from(id);
                let mut s = self.slot_of(key);
                let slot = loop {
                    let slot = &mut self.slots[s];
                    if slot.key == key || slot.key == 0 {
                        break slot;
                    }
                    s = (s + 1) & mask;
                };
                if slot.key == 0 {
                    break;
                }
                if slot.seen < slot.hyp {
                    hits[n + 1] += 1;
                }
                slot.seen += 1;
            }
        }
        self.ids = ids;
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
