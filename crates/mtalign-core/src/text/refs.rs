//! Reference sets: for each hypothesis, the sentences it is scored against (ragged: any
//! number of references per hypothesis, shared sentences stored once).

use crate::{Error, Result};

/// For each hypothesis, the indices (into the sentence store) of its references, CSR-style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefSets {
    offsets: Vec<usize>,
    members: Vec<u32>,
}

/// No sets (the same as [`RefSets::new`]: the offsets always start with 0).
impl Default for RefSets {
    fn default() -> Self {
        Self::new()
    }
}

impl RefSets {
    /// No sets yet.
    pub fn new() -> Self {
        // Room for one set: a one-pair call pushes it without reallocating.
        let mut offsets = Vec::with_capacity(2);
        offsets.push(0);
        Self {
            offsets,
            members: Vec::new(),
        }
    }

    /// No sets yet, with room for `sets` sets of `members` references in all.
    pub fn with_capacity(sets: usize, members: usize) -> Self {
        let mut offsets = Vec::with_capacity(sets + 1);
        offsets.push(0);
        Self {
            offsets,
            members: Vec::with_capacity(members),
        }
    }

    /// `n` sets, set i holding reference i alone.
    pub fn singletons(n: usize) -> Self {
        Self {
            offsets: (0..=n).collect(),
            members: (0..n as u32).collect(),
        }
    }

    /// Appends the next hypothesis's set: the text indices of its references.
    pub fn push(&mut self, refs: impl IntoIterator<Item = u32>) {
        self.members.extend(refs);
        self.offsets.push(self.members.len());
    }

    /// Forgets every set, keeping the memory.
    pub fn clear(&mut self) {
        self.offsets.truncate(1);
        self.members.clear();
    }

    /// The number of sets (one per hypothesis).
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there is no set.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The references of hypothesis `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        &self.members[self.offsets[i]..self.offsets[i + 1]]
    }

    /// Checks that there is one non-empty set for each of `n_hyps` hypotheses.
    pub fn check(&self, n_hyps: usize) -> Result<()> {
        if n_hyps != self.len() {
            return Err(Error::Input(format!(
                "hyps has {n_hyps} items but refs has {}",
                self.len()
            )));
        }
        match (0..self.len()).find(|&i| self.get(i).is_empty()) {
            Some(i) => Err(Error::Input(format!("refs[{i}] is empty"))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singletons_are_one_reference_each() {
        let mut sets = RefSets::with_capacity(3, 3);
        for r in 0..3 {
            sets.push([r]);
        }
        assert_eq!(RefSets::singletons(3), sets);
        assert_eq!(RefSets::singletons(0), RefSets::new());
    }

    #[test]
    fn default_sets_are_empty_like_new_ones() {
        let sets = RefSets::default();
        assert_eq!(sets, RefSets::new());
        assert!(sets.is_empty());
        assert!(sets.check(0).is_ok());
        let mut sets = RefSets::default();
        sets.push([3, 1]);
        sets.push([]);
        assert_eq!(
            (sets.len(), sets.get(0), sets.get(1)),
            (2, &[3, 1][..], &[][..])
        );
        assert!(matches!(sets.check(2), Err(Error::Input(m)) if m == "refs[1] is empty"));
    }
}
