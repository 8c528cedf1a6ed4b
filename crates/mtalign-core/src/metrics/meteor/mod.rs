//! METEOR (Banerjee & Lavie 2005) as nltk 3.10's `meteor_score` computes it.
//!
//! Words are lowercased (nltk's `preprocess=str.lower`). The alignment is built in stages,
//! each over the words the earlier stages left unmatched: exact (equal lowercase words),
//! stem (equal nltk Porter stems) and synonym (the reference word's stem is a lemma name of
//! a WordNet synset of the hypothesis word's stem). In every stage the hypothesis words are
//! visited from the last to the first, and each takes the *last* still-unmatched reference
//! word it matches (nltk's reverse scans; for synonyms, the last position over all of the
//! word's synonyms). Matches sorted by hypothesis position give the chunks: maximal runs
//! adjacent in both sentences. Then, as nltk computes it (same operations, same order):
//!
//! ```text
//! P = m / |hyp|, R = m / |ref|, Fmean = P·R / (α·P + (1 − α)·R)
//! penalty = γ · (chunks / m)^β, score = (1 − penalty) · Fmean     (0 if |hyp|, |ref| or m is 0)
//! ```
//!
//! With several references the score is the best one (the first on ties). Statistics of a
//! pair: [score, m, chunks, |hyp|, |ref|] of that reference.
//!
//! The batch's words are looked at once each ([`Metric::context`]): every distinct token is
//! lowercased, stemmed and given its synonyms once, as ids ("keys") of the strings of the
//! batch; pairs then compare integers only.

use crate::metrics::metric::{Metric, Pair};
use crate::text::docs::Docs;
use crate::text::refs::RefSets;
use crate::text::stem::nltk_porter;
use crate::text::wordnet::WordNet;
use crate::{Error, Result};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::sync::Arc;

mod warm_keys;

/// The configuration: weights and the stages run.
#[derive(Debug, Clone)]
pub struct MeteorConfig {
    /// The weight of precision in the harmonic mean (nltk's `alpha`, 0.9).
    pub alpha: f64,
    /// The fragmentation penalty's exponent (nltk's `beta`, 3).
    pub beta: f64,
    /// The fragmentation penalty's weight (nltk's `gamma`, 0.5).
    pub gamma: f64,
    /// Run the exact-match stage.
    pub exact: bool,
    /// Run the stem stage (Porter, as nltk).
    pub stem: bool,
    /// The synonym stage's WordNet (None: no synonym stage).
    pub wordnet: Option<Arc<WordNet>>,
}

impl MeteorConfig {
    /// A checked configuration (weights in range; at least one stage).
    pub fn new(
        alpha: f64,
        beta: f64,
        gamma: f64,
        exact: bool,
        stem: bool,
        wordnet: Option<Arc<WordNet>>,
    ) -> Result<Self> {
        let in_unit = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
        if !in_unit(alpha) {
            return Err(Error::Config(format!(
                "alpha must be a number from 0 to 1 (got {alpha})"
            )));
        }
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(Error::Config(format!(
                "beta must be a finite number >= 0 (got {beta})"
            )));
        }
        if !in_unit(gamma) {
            return Err(Error::Config(format!(
                "gamma must be a number from 0 to 1 (got {gamma})"
            )));
        }
        if !(exact || stem || wordnet.is_some()) {
            return Err(Error::Config(
                "stages: at least one matching stage must run".into(),
            ));
        }
        Ok(Self {
            alpha,
            beta,
            gamma,
            exact,
            stem,
            wordnet,
        })
    }
}

/// Below this many strings the per-string maps of [`Context::build`] run on the calling
/// thread: handing a sentence's words to the pool costs more than stemming them (a one-pair
/// call spent ~20 of its ~28 µs there), and the batch's keys come from the ones this thread
/// remembers ([`warm_keys`]).
const PAR_STRINGS: usize = 1024;

/// `f` of every string, in order; in parallel for many strings.
fn map_strings<'s, T: Send>(strings: &[&'s str], f: impl Fn(&'s str) -> T + Sync) -> Vec<T> {
    if strings.len() < PAR_STRINGS {
        strings.iter().map(|&w| f(w)).collect()
    } else {
        strings.par_iter().map(|&w| f(w)).collect()
    }
}

/// nltk's `str.lower` of a word (borrowed when it changes nothing).
fn lowercase(w: &str) -> Cow<'_, str> {
    if w.chars().any(|c| c.is_uppercase() || !c.is_ascii()) {
        Cow::Owned(w.to_lowercase())
    } else {
        Cow::Borrowed(w)
    }
}

/// Which of `n_keys` keys get synonyms: the stage forms (`stem`, per token id) of the tokens
/// hypotheses use (`hyp_ids`; an id beyond it counts as used).
fn synonym_keys(stem: &[u32], hyp_ids: &[bool], n_keys: usize) -> Vec<bool> {
    let mut wanted = vec![false; n_keys];
    for (id, &k) in stem.iter().enumerate() {
        if hyp_ids.get(id).copied().unwrap_or(true) {
            wanted[k as usize] = true;
        }
    }
    wanted
}

/// What the whole batch gives first: per token id, the key of its lowercase form and of its
/// stem; per key, its synonyms' keys.
#[derive(Debug, Default, PartialEq)]
pub struct Context {
    lower: Vec<u32>,
    stem: Vec<u32>,
    /// Synonym keys of key k: `syn[syn_ends[k]..syn_ends[k + 1]]` (empty if not computed).
    syn: Vec<u32>,
    syn_ends: Vec<u32>,
}

impl Context {
    /// Keys for `vocab`'s strings (or, without strings, the ids themselves).
    /// `hyp_ids`: the token ids hypotheses use (synonyms are looked up for those only).
    fn build(cfg: &MeteorConfig, vocab: &[&str], hyp_ids: &[bool]) -> Self {
        // Keys borrow the lowercase forms and the stems, which live to the end.
        let lowered: Vec<Cow<'_, str>> = map_strings(vocab, lowercase);
        let mut keys: FxHashMap<&str, u32> = FxHashMap::default();
        fn intern<'s>(s: &'s str, keys: &mut FxHashMap<&'s str, u32>) -> u32 {
            let next = keys.len() as u32;
            *keys.entry(s).or_insert(next)
        }
        let lower: Vec<u32> = lowered.iter().map(|w| intern(w, &mut keys)).collect();
        let n_lower = keys.len();
        let stems: Vec<String> = if cfg.stem {
            // One stem per distinct lowercase word.
            let mut by_key: Vec<&str> = vec![""; n_lower];
            for (w, &k) in lowered.iter().zip(&lower) {
                by_key[k as usize] = w;
            }
            map_strings(&by_key, nltk_porter::stem)
        } else {
            Vec::new()
        };
        let stem: Vec<u32> = if cfg.stem {
            let stem_key: Vec<u32> = stems.iter().map(|s| intern(s, &mut keys)).collect();
            lower.iter().map(|&k| stem_key[k as usize]).collect()
        } else {
            lower.clone()
        };
        let n_keys = keys.len();
        let (mut syn, mut syn_ends) = (Vec::new(), vec![0u32; n_keys + 1]);
        if let Some(wn) = &cfg.wordnet {
            // The synonym stage sees the forms the stem stage left (stems when it ran).
            let mut strings: Vec<&str> = vec![""; n_keys];
            for (&s, &k) in &keys {
                strings[k as usize] = s;
            }
            let wanted = synonym_keys(&stem, hyp_ids, n_keys);
            let synonyms_of = |k: usize| {
                let mut out = Vec::new();
                if wanted[k] {
                    wn.for_each_synonym(strings[k], |name| {
                        if !name.contains('_') {
                            if let Some(&id) = keys.get(name) {
                                out.push(id);
                            }
                        }
                    });
                    out.sort_unstable();
                    out.dedup();
                }
                out
            };
            let lists: Vec<Vec<u32>> = if n_keys < PAR_STRINGS {
                (0..n_keys).map(synonyms_of).collect()
            } else {
                (0..n_keys).into_par_iter().map(synonyms_of).collect()
            };
            for (k, list) in lists.into_iter().enumerate() {
                syn.extend(list);
                syn_ends[k + 1] = syn.len() as u32;
            }
        }
        Context {
            lower,
            stem,
            syn,
            syn_ends,
        }
    }

    fn synonyms(&self, key: u32) -> &[u32] {
        match self.syn_ends.get(key as usize + 1) {
            Some(&b) => &self.syn[self.syn_ends[key as usize] as usize..b as usize],
            None => &[],
        }
    }
}

/// Per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    /// Per key, the top of its stack of reference positions (NONE: empty); kept all-NONE
    /// between stages (only the entries a stage set are reset).
    head: Vec<u32>,
    prev: Vec<u32>,
    taken: Vec<bool>,
    matches: Vec<(u32, u32)>,
    hyp_left: Vec<u32>,
    ref_left: Vec<u32>,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq)]
enum Stage {
    Exact,
    Stem,
    Synonym,
}

/// One stage over the unmatched positions `s.hyp_left` / `s.ref_left` (ascending).
fn run_stage(s: &mut Scratch, ctx: &Context, hyp: &[u32], reference: &[u32], stage: Stage) {
    let key = |id: u32| -> u32 {
        if ctx.lower.is_empty() {
            id
        } else if stage == Stage::Exact {
            ctx.lower[id as usize]
        } else {
            ctx.stem[id as usize]
        }
    };
    // Per key, a stack of unmatched reference positions (index into ref_left), last on top.
    s.prev.clear();
    for (x, &j) in s.ref_left.iter().enumerate() {
        let k = key(reference[j as usize]) as usize;
        if k >= s.head.len() {
            s.head.resize(k + 1, NONE);
        }
        s.prev.push(s.head[k]);
        s.head[k] = x as u32;
    }
    s.taken.clear();
    s.taken.resize(s.ref_left.len(), false);
    let mut hyp_taken = 0usize;
    let n_left = s.hyp_left.len();
    for y in (0..n_left).rev() {
        let i = s.hyp_left[y];
        let k = key(hyp[i as usize]);
        let top = |k: u32, head: &[u32]| head.get(k as usize).copied().unwrap_or(NONE);
        let (best_key, best) = if stage == Stage::Synonym {
            let mut best = (k, top(k, &s.head));
            for &syn in ctx.synonyms(k) {
                let t = top(syn, &s.head);
                if t != NONE && (best.1 == NONE || t > best.1) {
                    best = (syn, t);
                }
            }
            best
        } else {
            (k, top(k, &s.head))
        };
        if best == NONE {
            continue;
        }
        s.head[best_key as usize] = s.prev[best as usize];
        s.taken[best as usize] = true;
        s.matches.push((i, s.ref_left[best as usize]));
        s.hyp_left[y] = NONE;
        hyp_taken += 1;
    }
    for &j in &s.ref_left {
        s.head[key(reference[j as usize]) as usize] = NONE;
    }
    if hyp_taken > 0 {
        s.hyp_left.retain(|&i| i != NONE);
        let taken = &s.taken;
        let mut x = 0;
        s.ref_left.retain(|_| {
            x += 1;
            !taken[x - 1]
        });
    }
}

/// nltk's `_count_chunks` over matches sorted by hypothesis position.
fn count_chunks(matches: &[(u32, u32)]) -> usize {
    1 + matches
        .windows(2)
        .filter(|w| !(w[1].0 == w[0].0 + 1 && w[1].1 == w[0].1 + 1))
        .count()
}

impl MeteorConfig {
    /// The statistics of one hypothesis against one reference (token ids of the batch).
    fn pair(&self, ctx: &Context, s: &mut Scratch, hyp: &[u32], reference: &[u32]) -> [f64; 5] {
        s.matches.clear();
        s.hyp_left.clear();
        s.hyp_left.extend(0..hyp.len() as u32);
        s.ref_left.clear();
        s.ref_left.extend(0..reference.len() as u32);
        if self.exact {
            run_stage(s, ctx, hyp, reference, Stage::Exact);
        }
        // A stage has nothing to do once either side is fully matched.
        if self.stem && !s.hyp_left.is_empty() && !s.ref_left.is_empty() {
            run_stage(s, ctx, hyp, reference, Stage::Stem);
        }
        if self.wordnet.is_some() && !s.hyp_left.is_empty() && !s.ref_left.is_empty() {
            run_stage(s, ctx, hyp, reference, Stage::Synonym);
        }
        s.matches.sort_unstable();
        let m = s.matches.len();
        let (n_hyp, n_ref) = (hyp.len(), reference.len());
        if m == 0 || n_hyp == 0 || n_ref == 0 {
            return [0.0, m as f64, 0.0, n_hyp as f64, n_ref as f64];
        }
        let chunks = count_chunks(&s.matches);
        [
            self.score(m, chunks, n_hyp, n_ref),
            m as f64,
            chunks as f64,
            n_hyp as f64,
            n_ref as f64,
        ]
    }

    /// nltk's `single_meteor_score` arithmetic, operation for operation.
    pub fn score(&self, matches: usize, chunks: usize, n_hyp: usize, n_ref: usize) -> f64 {
        if matches == 0 || n_hyp == 0 || n_ref == 0 {
            return 0.0;
        }
        let m = matches as f64;
        let precision = m / n_hyp as f64;
        let recall = m / n_ref as f64;
        let denom = self.alpha * precision + (1.0 - self.alpha) * recall;
        if denom == 0.0 {
            return 0.0;
        }
        let fmean = (precision * recall) / denom;
        let frag_frac = chunks as f64 / m;
        let penalty = self.gamma * frag_frac.powf(self.beta);
        (1.0 - penalty) * fmean
    }
}

impl Metric for MeteorConfig {
    type Scratch = Scratch;
    type Context = Context;
    const TASK_PAIRS: usize = 64;
    // The context looks up synonyms for the hypotheses' words only: matrices must pass them.
    const NEEDS_CONTEXT: bool = true;

    fn width(&self) -> usize {
        5
    }

    fn context(&self, docs: &Docs<'_>, hyps: &[u32], _refs: &RefSets) -> Context {
        match docs.vocab() {
            Some(v) if !v.is_empty() => {
                let words: Vec<&str> = v.iter().collect();
                let mut used = vec![false; words.len()];
                if self.wordnet.is_some() {
                    for &h in hyps {
                        for &t in docs.tokens(h as usize) {
                            if let Some(u) = used.get_mut(t as usize) {
                                *u = true;
                            }
                        }
                    }
                }
                if words.len() < PAR_STRINGS {
                    warm_keys::build(self, &words, &used)
                } else {
                    Context::build(self, &words, &used)
                }
            }
            _ => Context::default(),
        }
    }

    fn pair_statistics(&self, ctx: &Context, s: &mut Scratch, pair: Pair<'_>, row: &mut [f64]) {
        let hyp = pair.hyp();
        let mut best = f64::NEG_INFINITY;
        for reference in pair.refs() {
            let cand = self.pair(ctx, s, hyp, reference);
            if cand[0] > best {
                best = cand[0];
                row.copy_from_slice(&cand);
            }
        }
        if pair.n_refs() == 0 {
            row[3] = hyp.len() as f64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(stem: bool) -> MeteorConfig {
        MeteorConfig::new(0.9, 3.0, 0.5, true, stem, None).unwrap()
    }

    fn score(c: &MeteorConfig, hyp: &str, reference: &str) -> [f64; 5] {
        let mut vocab: Vec<&str> = Vec::new();
        let mut table: FxHashMap<&str, u32> = FxHashMap::default();
        let mut enc = |s: &str, vocab: &mut Vec<&str>| -> Vec<u32> {
            s.split_whitespace()
                .map(|w| {
                    let w: &'static str = Box::leak(w.to_string().into_boxed_str());
                    *table.entry(w).or_insert_with(|| {
                        vocab.push(w);
                        (vocab.len() - 1) as u32
                    })
                })
                .collect()
        };
        let h = enc(hyp, &mut vocab);
        let r = enc(reference, &mut vocab);
        let ctx = Context::build(c, &vocab, &[]);
        c.pair(&ctx, &mut Scratch::default(), &h, &r)
    }

    #[test]
    fn config_is_checked() {
        assert!(MeteorConfig::new(1.5, 3.0, 0.5, true, true, None).is_err());
        assert!(MeteorConfig::new(0.9, -1.0, 0.5, true, true, None).is_err());
        assert!(MeteorConfig::new(0.9, 3.0, 1.5, true, true, None).is_err());
        assert!(MeteorConfig::new(0.9, 3.0, 0.5, false, false, None).is_err());
    }

    #[test]
    fn nltk_docstring_example() {
        // nltk's own doctest: round(single_meteor_score(reference1, hypothesis1), 4) == 0.6944
        let hyp = "It is a guide to action which ensures that the military always obeys the \
                   commands of the party";
        let reference = "It is a guide to action that ensures that the military will forever \
                         heed Party commands";
        let row = score(&cfg(true), hyp, reference);
        assert_eq!((row[0] * 1e4).round() / 1e4, 0.6944);
        assert_eq!(
            score(&cfg(true), "non matching hypothesis", "this is a cat")[0],
            0.0
        );
    }

    #[test]
    fn later_reference_words_are_taken_first() {
        // "a b a" vs "a a b": the last hypothesis "a" takes reference position 1, the first
        // takes 0; matches (0,0) (1,2) (2,1): three chunks.
        let row = score(&cfg(false), "a b a", "a a b");
        assert_eq!(&row[1..], &[3.0, 3.0, 3.0, 3.0]);
    }
}

/// METEOR's contract: options (stages, a WordNet directory), columns.
mod native {
    use super::MeteorConfig;
    use crate::metrics::contract::{Configured, Contract};
    use crate::options::{DefaultValue as D, Kind, OptionSpec, Options};
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};
    use crate::text::wordnet::WordNet;
    use crate::{Error, Result};
    use std::path::Path;

    /// The stages, in the only order they run.
    const STAGES: &[&str] = &["exact", "stem", "synonym"];

    /// (exact, stem, synonym) from stage names: known, distinct, in the order they run.
    fn parse_stages(stages: &[String]) -> Result<[bool; 3]> {
        let mut on = [false; 3];
        let mut last = None;
        for s in stages {
            let Some(k) = STAGES.iter().position(|n| n == s) else {
                return Err(Error::Config(format!(
                    "stages: unknown stage {s:?} (choose from: exact, stem, synonym)"
                )));
            };
            if last.is_some_and(|l| k <= l) {
                return Err(Error::Config(
                    "stages must be distinct and in the order they run: exact, stem, synonym"
                        .into(),
                ));
            }
            on[k] = true;
            last = Some(k);
        }
        if stages.is_empty() {
            return Err(Error::Config("stages: give at least one stage".into()));
        }
        Ok(on)
    }

    impl Contract for MeteorConfig {
        const NAME: &'static str = "meteor";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "alpha",
                Kind::Float,
                D::Float(0.9),
                "precision's weight in Fmean (0 to 1)",
            ),
            OptionSpec::new(
                "beta",
                Kind::Float,
                D::Float(3.0),
                "the penalty's exponent (>= 0)",
            ),
            OptionSpec::new(
                "gamma",
                Kind::Float,
                D::Float(0.5),
                "the penalty's largest share (0 to 1)",
            ),
            OptionSpec::new(
                "stages",
                Kind::Names,
                D::Names(STAGES),
                "the matching stages, in order",
            )
            .choices(STAGES),
            OptionSpec::new(
                "wordnet",
                Kind::Path,
                D::None,
                "a WordNet database directory",
            ),
            OptionSpec::new("tokenize", Kind::Str, D::Str("whitespace"), "the tokenizer")
                .choices(TokenizerKind::NAMES),
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let [exact, stem, synonym] = parse_stages(o.names("stages"))?;
            let tokenize = o.str("tokenize");
            let kind = TokenizerKind::parse(tokenize)?;
            if matches!(kind, TokenizerKind::Char | TokenizerKind::Codepoint) {
                return Err(Error::Config(format!(
                    "tokenize={tokenize:?}: METEOR matches words; use a word tokenizer"
                )));
            }
            let tokenizer = Tokenizer::parse(tokenize, kind.always_lowercases())?;
            // A WordNet directory given is read (and checked) even when the synonym stage is
            // off, so a bad path is never silently ignored.
            let wn = match o.opt_str("wordnet") {
                Some(dir) => Some(WordNet::load_cached(Path::new(dir))?),
                None => None,
            };
            let wn = if synonym { wn } else { None };
            let metric = MeteorConfig::new(
                o.f64("alpha"),
                o.f64("beta"),
                o.f64("gamma"),
                exact,
                stem,
                wn,
            )?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![5]
        }

        /// The score, matches, chunks, |hyp| and |ref| of the best reference.
        fn columns(&self) -> Vec<String> {
            ["score", "matches", "chunks", "hyp_len", "ref_len"]
                .map(String::from)
                .to_vec()
        }
    }
}
