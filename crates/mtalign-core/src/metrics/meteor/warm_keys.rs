//! METEOR's keys for small batches, remembered per thread between calls.
//!
//! [`Context::build`] lowercases and stems every distinct word of a batch and looks up the
//! synonyms of the hypotheses' words. A batch of one pair (a decoder's or a user's loop) did
//! that for every word at every call: Porter-stemming a sentence's words was most of a
//! one-pair call. Here each string gets a thread-wide id the first time it is seen, with its
//! lowercase form, stem and synonyms remembered by id, so a word seen before costs one
//! look-up. The context built is the one [`Context::build`] builds, key for key (the batch's
//! keys are given in the same order; only where their strings come from changes).

use super::{lowercase, synonym_keys, Context, MeteorConfig, NONE};
use crate::metrics::metric::with_scratch;
use crate::text::intern::StrTable;
use crate::text::stem::nltk_porter;
use crate::text::wordnet::WordNet;
use std::sync::Arc;

/// Strings remembered per thread before the memory is emptied (a word, its lowercase form,
/// its stem and its synonyms' names each count; about 4 MB).
const WARM_KEYS: usize = 1 << 16;

/// Strings seen on this thread and what is known of each, by thread-wide id.
#[derive(Default)]
struct WarmKeys {
    strings: StrTable,
    /// Per id: the id of its lowercase form (NONE: not yet asked).
    lower: Vec<u32>,
    /// Per id: the id of its Porter stem (NONE: not yet asked).
    stem: Vec<u32>,
    /// Per id: its synonyms' ids, `syn[a..b]` for `syn_at[id] = (a, b)` (a = NONE: not yet
    /// asked).
    syn: Vec<u32>,
    syn_at: Vec<(u32, u32)>,
    /// The WordNet whose synonyms `syn` holds.
    wordnet: Option<Arc<WordNet>>,
    /// Per id: its key in the batch being built (NONE outside a build, and for strings the
    /// batch does not have).
    key: Vec<u32>,
}

impl WarmKeys {
    fn clear(&mut self) {
        self.strings.clear();
        self.lower.clear();
        self.stem.clear();
        self.syn.clear();
        self.syn_at.clear();
        self.key.clear();
    }

    fn id(&mut self, s: &str) -> u32 {
        let (id, new) = self.strings.intern(s);
        if new {
            self.lower.push(NONE);
            self.stem.push(NONE);
            self.syn_at.push((NONE, NONE));
            self.key.push(NONE);
        }
        id
    }

    fn lower_of(&mut self, id: u32) -> u32 {
        if self.lower[id as usize] == NONE {
            let lower = match lowercase(self.strings.get(id)) {
                std::borrow::Cow::Borrowed(_) => id,
                std::borrow::Cow::Owned(l) => self.id(&l),
            };
            self.lower[id as usize] = lower;
        }
        self.lower[id as usize]
    }

    fn stem_of(&mut self, id: u32) -> u32 {
        if self.stem[id as usize] == NONE {
            let stem = nltk_porter::stem(self.strings.get(id));
            self.stem[id as usize] = self.id(&stem);
        }
        self.stem[id as usize]
    }

    /// The ids of the synonyms of string `id` (names with '_' left out, as the stage can
    /// never match them).
    fn synonyms_of(&mut self, id: u32, wordnet: &WordNet) -> (u32, u32) {
        if self.syn_at[id as usize].0 == NONE {
            let mut names = Vec::new();
            wordnet.for_each_synonym(self.strings.get(id), |name| {
                if !name.contains('_') {
                    names.push(name.to_owned());
                }
            });
            let a = self.syn.len() as u32;
            for name in names {
                let n = self.id(&name);
                self.syn.push(n);
            }
            self.syn_at[id as usize] = (a, self.syn.len() as u32);
        }
        self.syn_at[id as usize]
    }

    /// The batch key of string `id`, given in order of first use (`ids`: id per key).
    fn key_of(&mut self, id: u32, ids: &mut Vec<u32>) -> u32 {
        if self.key[id as usize] == NONE {
            self.key[id as usize] = ids.len() as u32;
            ids.push(id);
        }
        self.key[id as usize]
    }
}

/// [`Context::build`] with this thread's remembered keys: the same context.
pub(super) fn build(cfg: &MeteorConfig, vocab: &[&str], hyp_ids: &[bool]) -> Context {
    with_scratch(|w: &mut WarmKeys| {
        let same_wordnet = match (&w.wordnet, &cfg.wordnet) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if w.strings.len() > WARM_KEYS || !same_wordnet {
            w.clear();
            w.wordnet = cfg.wordnet.clone();
        }
        // `ids[k]`: the string of key k; keys are given as Context::build gives them.
        let mut ids: Vec<u32> = Vec::with_capacity(2 * vocab.len());
        let mut lower = Vec::with_capacity(vocab.len());
        for word in vocab {
            let id = w.id(word);
            let l = w.lower_of(id);
            lower.push(w.key_of(l, &mut ids));
        }
        let n_lower = ids.len();
        let stem: Vec<u32> = if cfg.stem {
            let stem_key: Vec<u32> = (0..n_lower)
                .map(|k| {
                    let s = w.stem_of(ids[k]);
                    w.key_of(s, &mut ids)
                })
                .collect();
            lower.iter().map(|&k| stem_key[k as usize]).collect()
        } else {
            lower.clone()
        };
        let n_keys = ids.len();
        let (mut syn, mut syn_ends) = (Vec::new(), vec![0u32; n_keys + 1]);
        if let Some(wordnet) = &cfg.wordnet {
            let wanted = synonym_keys(&stem, hyp_ids, n_keys);
            let mut list = Vec::new();
            for k in 0..n_keys {
                if wanted[k] {
                    let (a, b) = w.synonyms_of(ids[k], wordnet);
                    list.clear();
                    list.extend(
                        (a..b)
                            .map(|x| w.key[w.syn[x as usize] as usize])
                            .filter(|&key| key != NONE),
                    );
                    list.sort_unstable();
                    list.dedup();
                    syn.extend_from_slice(&list);
                }
                syn_ends[k + 1] = syn.len() as u32;
            }
        }
        for &id in &ids {
            w.key[id as usize] = NONE;
        }
        Context {
            lower,
            stem,
            syn,
            syn_ends,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::wordnet::tests::tiny;

    /// Each vocabulary built warm, one after the other on this thread, against a cold build.
    fn same_as_cold(cfg: &MeteorConfig, vocabs: &[Vec<&str>]) {
        for vocab in vocabs {
            // Hypotheses use the first half of the words (synonyms are looked up for those).
            let hyp_ids: Vec<bool> = (0..vocab.len()).map(|i| i < vocab.len() / 2).collect();
            let cold = Context::build(cfg, vocab, &hyp_ids);
            assert_eq!(build(cfg, vocab, &hyp_ids), cold, "{vocab:?}");
        }
    }

    fn vocabs() -> Vec<Vec<&'static str>> {
        vec![
            vec![
                "Dogs", "ran", "quick", "hound", "dog", "running", "Ran", "fast",
            ],
            vec!["hound", "dogs", "DOG", "Éclair", "éclair", "ÉCLAIRS", "run"],
            vec![],
            vec!["quick", "fast", "quickly", "hounds", "Dogs"],
            vec!["generously", "generous", "general", "Generals"],
        ]
    }

    #[test]
    fn warm_keys_are_the_cold_keys_every_stage_set() {
        let dir = tiny();
        let wn = WordNet::load_cached(&dir.0).unwrap();
        for (exact, stem, wordnet) in [
            (true, true, None),
            (true, false, None),
            (false, true, None),
            (true, true, Some(wn.clone())),
            (true, false, Some(wn.clone())),
        ] {
            let cfg = MeteorConfig::new(0.9, 3.0, 0.5, exact, stem, wordnet).unwrap();
            same_as_cold(&cfg, &vocabs());
            // Again, now that every word is remembered.
            same_as_cold(&cfg, &vocabs());
        }
        // The synonym stage was exercised: "hound" is a synonym of itself and of "dog".
        let cfg = MeteorConfig::new(0.9, 3.0, 0.5, true, true, Some(wn)).unwrap();
        let ctx = build(&cfg, &["hound", "dog"], &[true, false]);
        assert_eq!(ctx.synonyms(ctx.stem[0]), &[ctx.stem[0], ctx.stem[1]]);
    }

    #[test]
    fn memory_is_emptied_past_its_bound() {
        let cfg = MeteorConfig::new(0.9, 3.0, 0.5, true, true, None).unwrap();
        let many: Vec<String> = (0..=WARM_KEYS).map(|i| format!("Word{i}s")).collect();
        for chunk in many.chunks(1000) {
            let vocab: Vec<&str> = chunk.iter().map(|s| s.as_str()).collect();
            same_as_cold(&cfg, &[vocab]);
        }
        let held = with_scratch(|w: &mut WarmKeys| w.strings.len());
        assert!(held <= WARM_KEYS + 3 * 1000, "{held}");
        same_as_cold(&cfg, &vocabs());
    }
}
