//! Exact dense ids for n-grams of any order, one hash look-up per n-gram.
//!
//! The id of an n-gram is interned from the pair (id of its (n-1)-gram prefix, last token),
//! which packs exactly into a `u64`: no hashing of whole n-grams and no collisions, whatever
//! the order (BLEU goes to 12). A unigram's key uses `u32::MAX` as its "prefix", which no
//! real id reaches. Every id remembers its prefix (`parent`), which NIST's information
//! weights need.

/// Marks an n-gram that is not in the table (or a unigram's missing parent).
pub const MISSING: u32 = u32::MAX;

fn key(prefix: u32, token: u32) -> u64 {
    ((prefix as u64) << 32) | token as u64
}

/// Open addressing with linear probing, keys multiplied by a 64-bit odd constant: the tables
/// here are small and cleared once per sentence, so clearing touches only the used slots.
#[derive(Debug, Default)]
struct Table {
    keys: Vec<u64>,
    ids: Vec<u32>,
    used: Vec<u32>,
    shift: u32,
}

impl Table {
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn clear(&mut self) {
        for &s in &self.used {
            self.ids[s as usize] = MISSING;
        }
        self.used.clear();
    }

    fn get(&self, key: u64) -> u32 {
        if self.ids.is_empty() {
            return MISSING;
        }
        let mask = self.ids.len() - 1;
        let mut s = self.slot(key);
        loop {
            let id = self.ids[s];
            if id == MISSING || self.keys[s] == key {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    /// The id of `key`, inserting `next` if absent.
    fn get_or_insert(&mut self, key: u64, next: u32) -> u32 {
        if (self.used.len() + 1) * 2 > self.ids.len() {
            self.grow();
        }
        let mask = self.ids.len() - 1;
        let mut s = self.slot(key);
        loop {
            let id = self.ids[s];
            if id == MISSING {
                self.keys[s] = key;
                self.ids[s] = next;
                self.used.push(s as u32);
                return next;
            }
            if self.keys[s] == key {
                return id;
            }
            s = (s + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = (self.ids.len() * 2).max(256);
        let old: Vec<(u64, u32)> = self
            .used
            .iter()
            .map(|&s| (self.keys[s as usize], self.ids[s as usize]))
            .collect();
        self.keys = vec![0; cap];
        self.ids = vec![MISSING; cap];
        self.shift = 64 - cap.trailing_zeros();
        self.used.clear();
        for (k, id) in old {
            self.get_or_insert(k, id);
        }
    }
}

/// Dense ids for the n-grams of a set of texts: an n-gram is its (n-1)-gram prefix's id
/// and its last token, so each id has a `parent` (see the module docs).
#[derive(Debug, Default)]
pub struct NgramIds {
    map: Table,
    parent: Vec<u32>,
    /// Per position, the id of the n-gram of the current order starting there.
    window: Vec<u32>,
}

impl NgramIds {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every n-gram (keeps the allocations).
    pub fn clear(&mut self) {
        self.map.clear();
        self.parent.clear();
    }

    /// Number of distinct n-grams stored (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.parent.len()
    }

    /// Whether no n-gram has an id yet.
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// The id of the (n-1)-gram prefix of `id` ([`MISSING`] for a unigram).
    pub fn parent(&self, id: u32) -> u32 {
        self.parent[id as usize]
    }

    /// The id of the n-gram (`prefix` id, last `token`), new or not; [`MISSING`] as prefix
    /// means a unigram.
    pub fn intern(&mut self, prefix: u32, token: u32) -> u32 {
        let next = self.parent.len() as u32;
        let id = self.map.get_or_insert(key(prefix, token), next);
        if id == next {
            self.parent.push(prefix);
        }
        id
    }

    /// The id of the n-gram (`prefix`, `token`), or [`MISSING`].
    pub fn get(&self, prefix: u32, token: u32) -> u32 {
        self.map.get(key(prefix, token))
    }

    /// Interns every n-gram of `tokens` of orders `1..=max_order`, order by order and left
    /// to right within an order, calling `visit(order, id)` for each occurrence. New ids are
    /// therefore numbered by order, then by first occurrence.
    pub fn insert_all(
        &mut self,
        tokens: &[u32],
        max_order: usize,
        mut visit: impl FnMut(usize, u32),
    ) {
        let mut window = std::mem::take(&mut self.window);
        window.clear();
        window.resize(tokens.len(), MISSING);
        for n in 1..=max_order.min(tokens.len()) {
            for pos in 0..=tokens.len() - n {
                let prefix = if n == 1 { MISSING } else { window[pos] };
                let id = self.intern(prefix, tokens[pos + n - 1]);
                window[pos] = id;
                visit(n, id);
            }
        }
        self.window = window;
    }

    /// Looks up every n-gram of `tokens` of orders `1..=max_order`, calling `visit(order,
    /// id)` for those in the table (an n-gram whose prefix is absent is absent too).
    pub fn lookup_all(
        &mut self,
        tokens: &[u32],
        max_order: usize,
        mut visit: impl FnMut(usize, u32),
    ) {
        let mut window = std::mem::take(&mut self.window);
        window.clear();
        window.resize(tokens.len(), MISSING);
        for n in 1..=max_order.min(tokens.len()) {
            let mut any = false;
            for pos in 0..=tokens.len() - n {
                let prefix = if n == 1 { MISSING } else { window[pos] };
                let id = if n > 1 && prefix == MISSING {
                    MISSING
                } else {
                    self.get(prefix, tokens[pos + n - 1])
                };
                window[pos] = id;
                if id != MISSING {
                    any = true;
                    visit(n, id);
                }
            }
            if !any {
                break;
            }
        }
        self.window = window;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_exact_and_ordered() {
        let mut t = NgramIds::new();
        let mut seen = Vec::new();
        t.insert_all(&[5, 6, 5, 6], 3, |n, id| seen.push((n, id)));
        // unigrams 5, 6 -> 0, 1; bigrams 56, 65 -> 2, 3; trigrams 565, 656 -> 4, 5
        assert_eq!(
            seen,
            [
                (1, 0),
                (1, 1),
                (1, 0),
                (1, 1),
                (2, 2),
                (2, 3),
                (2, 2),
                (3, 4),
                (3, 5)
            ]
        );
        assert_eq!(t.parent(4), 2);
        assert_eq!(t.parent(0), MISSING);
        let mut found = Vec::new();
        t.lookup_all(&[6, 5, 7, 5, 6], 3, |n, id| found.push((n, id)));
        assert_eq!(found, [(1, 1), (1, 0), (1, 0), (1, 1), (2, 3), (2, 2)]);
    }
}
