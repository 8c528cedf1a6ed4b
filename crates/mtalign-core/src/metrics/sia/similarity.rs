//! Stochastic word similarity for SIA (Liu & Gildea 2006, eq. 3 and section 4):
//! sim(e_i, e_j) = Σ_k p(e_i|f_k)·p(e_j|f_k), the top `top` (100) entries of each word kept and
//! renormalised to sum to 1 (the word itself included: it is one of its most similar words),
//! identical words always 1, words outside the table similar only to themselves.
//!
//! The table is directed: `get(mt_word, ref_word)` reads the row of the MT word.
//!
//! Saved format (UTF-8 text): a first line `mtalign-word-similarity 1`, then one line per entry
//! `mt_word<TAB>ref_word<TAB>value` with the value printed in shortest round-trip form, rows
//! in word order. Loading checks every line (values in (0, 1], no duplicates).

use crate::text::intern::Sentences;
use crate::text::tokenize::Tokenizer;
use crate::{Error, Result};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::fmt::Write as _;

/// The first line of a saved table.
pub const HEADER: &str = "mtalign-word-similarity 1";

/// A directed word-similarity table over a vocabulary of words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WordSimilarity {
    words: Vec<String>,
    index: FxHashMap<String, u32>,
    /// Per word id: (other word id, value), sorted by id, without the word itself.
    rows: Vec<Vec<(u32, f64)>>,
}

fn check_value(v: f64, what: impl FnOnce() -> String) -> Result<()> {
    if v > 0.0 && v <= 1.0 {
        Ok(())
    } else {
        Err(Error::Input(format!(
            "{}: similarity {v} is outside (0, 1]",
            what()
        )))
    }
}

fn check_word(w: &str, what: impl FnOnce() -> String) -> Result<()> {
    if w.is_empty() || w.contains(['\t', '\n', '\r']) {
        return Err(Error::Input(format!(
            "{}: word {w:?} is empty or contains a tab or line break",
            what()
        )));
    }
    Ok(())
}

impl WordSimilarity {
    fn intern(&mut self, w: &str) -> u32 {
        if let Some(&id) = self.index.get(w) {
            return id;
        }
        let id = self.words.len() as u32;
        self.words.push(w.to_string());
        self.index.insert(w.to_string(), id);
        self.rows.push(Vec::new());
        id
    }

    /// Builds a table from explicit (mt_word, ref_word, value) triples. Values must lie in
    /// (0, 1]; a pair may appear once; pairs of identical words are ignored (always 1).
    pub fn from_pairs<S: AsRef<str>>(pairs: &[(S, S, f64)]) -> Result<Self> {
        let mut t = Self::default();
        for (k, (a, b, v)) in pairs.iter().enumerate() {
            let (a, b) = (a.as_ref(), b.as_ref());
            check_word(a, || format!("pairs[{k}]"))?;
            check_word(b, || format!("pairs[{k}]"))?;
            check_value(*v, || format!("pairs[{k}] ({a:?}, {b:?})"))?;
            let (ia, ib) = (t.intern(a), t.intern(b));
            if ia != ib {
                t.rows[ia as usize].push((ib, *v));
            }
        }
        t.sort_rows(|k| format!("pairs: ({:?}, {:?})", k.0, k.1))?;
        Ok(t)
    }

    fn sort_rows(&mut self, dup: impl Fn((&str, &str)) -> String) -> Result<()> {
        for (a, row) in self.rows.iter_mut().enumerate() {
            row.sort_by_key(|&(b, _)| b);
            if let Some(w) = row.windows(2).find(|w| w[0].0 == w[1].0) {
                let pair = (self.words[a].as_str(), self.words[w[0].0 as usize].as_str());
                return Err(Error::Input(format!("{} appears twice", dup(pair))));
            }
        }
        Ok(())
    }

    /// Eq. 3 from a lexical translation table of (e, f, p(e|f)) entries: entries with
    /// p < `min_prob` are dropped first (they add at most min_prob² per pair), each word keeps
    /// its `top` most similar words (itself included; ties by word), renormalised to sum 1.
    pub fn from_translation_table<S: AsRef<str>>(
        entries: &[(S, S, f64)],
        top: usize,
        min_prob: f64,
    ) -> Result<Self> {
        if top == 0 {
            return Err(Error::Config("top must be >= 1".into()));
        }
        if !(min_prob.is_finite() && min_prob >= 0.0) {
            return Err(Error::Config(format!(
                "min_prob must be a finite number >= 0 (got {min_prob})"
            )));
        }
        let mut t = Self::default();
        let mut f_index: FxHashMap<&str, usize> = FxHashMap::default();
        let mut by_f: Vec<Vec<(u32, f64)>> = Vec::new();
        for (k, (e, f, p)) in entries.iter().enumerate() {
            if !(p.is_finite() && (0.0..=1.0).contains(p)) {
                return Err(Error::Input(format!(
                    "entries[{k}]: probability {p} is outside [0, 1]"
                )));
            }
            let (e, f) = (e.as_ref(), f.as_ref());
            check_word(e, || format!("entries[{k}]"))?;
            let e_id = t.intern(e);
            if *p == 0.0 || *p < min_prob {
                continue;
            }
            let next = by_f.len();
            let fi = *f_index.entry(f).or_insert(next);
            if fi == next {
                by_f.push(Vec::new());
            }
            by_f[fi].push((e_id, *p));
        }
        // Per e: the f's it translates, as (f index, p(e|f)), in f order.
        let mut inv: Vec<Vec<(u32, f64)>> = vec![Vec::new(); t.words.len()];
        for (fi, list) in by_f.iter().enumerate() {
            for &(e, p) in list {
                inv[e as usize].push((fi as u32, p));
            }
        }
        let words = &t.words;
        let n = words.len();
        let rows: Vec<Vec<(u32, f64)>> = (0..n)
            .into_par_iter()
            .map_init(
                || (vec![0.0f64; n], Vec::<u32>::new()),
                |(acc, touched), ei| {
                    for &(fi, pi) in &inv[ei] {
                        for &(ej, pj) in &by_f[fi as usize] {
                            if acc[ej as usize] == 0.0 {
                                touched.push(ej);
                            }
                            acc[ej as usize] += pi * pj;
                        }
                    }
                    let mut row: Vec<(u32, f64)> =
                        touched.iter().map(|&ej| (ej, acc[ej as usize])).collect();
                    for &ej in touched.iter() {
                        acc[ej as usize] = 0.0;
                    }
                    touched.clear();
                    row.sort_by(|a, b| {
                        b.1.total_cmp(&a.1)
                            .then_with(|| words[a.0 as usize].cmp(&words[b.0 as usize]))
                    });
                    row.truncate(top);
                    let sum: f64 = row.iter().map(|x| x.1).sum();
                    let mut row: Vec<(u32, f64)> = row
                        .into_iter()
                        .filter(|&(ej, _)| ej as usize != ei)
                        .map(|(ej, v)| (ej, (v / sum).min(1.0)))
                        .filter(|&(_, v)| v > 0.0)
                        .collect();
                    row.sort_by_key(|&(ej, _)| ej);
                    row
                },
            )
            .collect();
        t.rows = rows;
        Ok(t)
    }

    /// Number of words with an entry (as MT or reference word).
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether no word has an entry.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Number of stored (mt_word, ref_word) entries.
    pub fn n_entries(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }

    /// The id of word `w`, if it has an entry.
    pub fn word_id(&self, w: &str) -> Option<u32> {
        self.index.get(w).copied()
    }

    /// The word of id `id`.
    pub fn word(&self, id: u32) -> &str {
        &self.words[id as usize]
    }

    /// Similarity of two word ids (ids at or beyond `len()` are words outside the table).
    #[inline]
    pub fn get(&self, a: u32, b: u32) -> f64 {
        if a == b {
            return 1.0;
        }
        match self.rows.get(a as usize) {
            Some(row) if !row.is_empty() => match row.binary_search_by_key(&b, |x| x.0) {
                Ok(k) => row[k].1,
                Err(_) => 0.0,
            },
            _ => 0.0,
        }
    }

    /// Similarity of two words.
    pub fn lookup(&self, a: &str, b: &str) -> f64 {
        if a == b {
            return 1.0;
        }
        match (self.word_id(a), self.word_id(b)) {
            (Some(x), Some(y)) => self.get(x, y),
            _ => 0.0,
        }
    }

    /// The entries of `word`'s row, most similar first (ties by word).
    pub fn neighbors(&self, word: &str) -> Vec<(&str, f64)> {
        let Some(id) = self.word_id(word) else {
            return Vec::new();
        };
        let mut out: Vec<(&str, f64)> = self.rows[id as usize]
            .iter()
            .map(|&(b, v)| (self.words[b as usize].as_str(), v))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        out
    }

    /// The saved text form (see the module documentation).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.n_entries() * 24 + 32);
        out.push_str(HEADER);
        out.push('\n');
        let mut order: Vec<u32> = (0..self.words.len() as u32).collect();
        order.sort_by(|&a, &b| self.words[a as usize].cmp(&self.words[b as usize]));
        for &a in &order {
            let mut row: Vec<(u32, f64)> = self.rows[a as usize].clone();
            row.sort_by(|x, y| self.words[x.0 as usize].cmp(&self.words[y.0 as usize]));
            for (b, v) in row {
                let _ = writeln!(out, "{}\t{}\t{:?}", self.word(a), self.word(b), v);
            }
        }
        out
    }

    /// Parses the saved text form; `name` names the source in errors.
    pub fn from_text(text: &str, name: &str) -> Result<Self> {
        let mut lines = text.lines();
        if lines.next().map(|l| l.trim_end_matches('\r')) != Some(HEADER) {
            return Err(Error::Input(format!(
                "{name}: line 1 is not {HEADER:?} (not a saved mtalign similarity table)"
            )));
        }
        let mut t = Self::default();
        for (k, line) in lines.enumerate() {
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                continue;
            }
            let at = || format!("{name}: line {}", k + 2);
            let mut parts = line.split('\t');
            let (Some(a), Some(b), Some(v), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(Error::Input(format!(
                    "{}: expected mt_word<TAB>ref_word<TAB>value",
                    at()
                )));
            };
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| Error::Input(format!("{}: {v:?} is not a number", at())))?;
            check_word(a, at)?;
            check_word(b, at)?;
            check_value(v, at)?;
            let (ia, ib) = (t.intern(a), t.intern(b));
            if ia != ib {
                t.rows[ia as usize].push((ib, v));
            }
        }
        t.sort_rows(|(a, b)| format!("{name}: ({a:?}, {b:?})"))?;
        Ok(t)
    }

    /// Tokenizes and encodes `texts` for scoring with this table: words of the table get their
    /// table id, other words ids from `len()` upwards (equal words, equal ids). Also returns
    /// the indices of non-blank texts that produced no token.
    pub fn encode_texts<S: AsRef<str> + Sync>(
        &self,
        tokenizer: &Tokenizer,
        texts: &[S],
    ) -> (Sentences, Vec<usize>) {
        let chunks: Vec<(EncodedChunk, Vec<usize>)> = texts
            .par_chunks(1024)
            .enumerate()
            .map(|(c, chunk)| {
                let mut local = LocalUnknown::default();
                let mut buf = String::new();
                let mut spans = Vec::new();
                let mut vanished = Vec::new();
                let sents = chunk
                    .iter()
                    .enumerate()
                    .map(|(k, text)| {
                        let text = text.as_ref();
                        tokenizer.tokenize_into(text, &mut buf, &mut spans);
                        if spans.is_empty() && text.chars().any(|ch| !ch.is_whitespace()) {
                            vanished.push(c * 1024 + k);
                        }
                        spans
                            .iter()
                            .map(|&(s, e)| self.token_id(&buf[s as usize..e as usize], &mut local))
                            .collect()
                    })
                    .collect();
                ((sents, local.words), vanished)
            })
            .collect();
        let mut vanished_all = Vec::new();
        let merged = self.merge_unknown(chunks.into_iter().map(|(c, v)| {
            vanished_all.extend(v);
            c
        }));
        (merged, vanished_all)
    }

    /// [`Self::encode_texts`] for pre-tokenized sentences (tokens verbatim).
    pub fn encode_tokens<T: AsRef<str> + Sync, S: AsRef<[T]> + Sync>(
        &self,
        sentences: &[S],
    ) -> Sentences {
        let chunks: Vec<EncodedChunk> = sentences
            .par_chunks(1024)
            .map(|chunk| {
                let mut local = LocalUnknown::default();
                let sents = chunk
                    .iter()
                    .map(|s| {
                        s.as_ref()
                            .iter()
                            .map(|t| self.token_id(t.as_ref(), &mut local))
                            .collect()
                    })
                    .collect();
                (sents, local.words)
            })
            .collect();
        self.merge_unknown(chunks.into_iter())
    }

    fn token_id(&self, tok: &str, local: &mut LocalUnknown) -> TokenId {
        match self.index.get(tok) {
            Some(&id) => TokenId::Known(id),
            None => TokenId::Unknown(local.intern(tok)),
        }
    }

    /// Gives unknown words global ids from `len()` upwards, in chunk order.
    fn merge_unknown(&self, chunks: impl Iterator<Item = EncodedChunk>) -> Sentences {
        let base = self.words.len() as u32;
        let mut global: FxHashMap<String, u32> = FxHashMap::default();
        let mut out: Vec<Vec<u32>> = Vec::new();
        for (sents, words) in chunks {
            let remap: Vec<u32> = words
                .into_iter()
                .map(|w| {
                    let next = base + global.len() as u32;
                    *global.entry(w).or_insert(next)
                })
                .collect();
            out.extend(sents.into_iter().map(|s| {
                s.into_iter()
                    .map(|t| match t {
                        TokenId::Known(id) => id,
                        TokenId::Unknown(k) => remap[k as usize],
                    })
                    .collect::<Vec<u32>>()
            }));
        }
        Sentences::from_ids(&out)
    }
}

/// A chunk's sentences (table ids or chunk-local unknown ids) and its unknown words.
type EncodedChunk = (Vec<Vec<TokenId>>, Vec<String>);

#[derive(Clone, Copy)]
enum TokenId {
    Known(u32),
    Unknown(u32),
}

#[derive(Default)]
struct LocalUnknown {
    index: FxHashMap<String, u32>,
    words: Vec<String>,
}

impl LocalUnknown {
    fn intern(&mut self, w: &str) -> u32 {
        if let Some(&k) = self.index.get(w) {
            return k;
        }
        let k = self.words.len() as u32;
        self.words.push(w.to_string());
        self.index.insert(w.to_string(), k);
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_directed_and_checked() {
        let t = WordSimilarity::from_pairs(&[("big", "large", 0.5)]).unwrap();
        assert_eq!(t.lookup("big", "large"), 0.5);
        assert_eq!(t.lookup("large", "big"), 0.0);
        assert_eq!(t.lookup("x", "x"), 1.0);
        assert!(WordSimilarity::from_pairs(&[("a", "b", 0.0)]).is_err());
        assert!(WordSimilarity::from_pairs(&[("a", "b", 1.5)]).is_err());
        assert!(WordSimilarity::from_pairs(&[("a", "b", f64::NAN)]).is_err());
        assert!(WordSimilarity::from_pairs(&[("a", "b", 0.2), ("a", "b", 0.3)]).is_err());
    }

    #[test]
    fn equation_3_with_renormalisation() {
        // p(e|f): f1 -> big .6, large .4; f2 -> big 1.
        let t = WordSimilarity::from_translation_table(
            &[("big", "f1", 0.6), ("large", "f1", 0.4), ("big", "f2", 1.0)],
            100,
            0.0,
        )
        .unwrap();
        // raw: big·big = .36 + 1 = 1.36, big·large = .24 -> .24 / 1.6
        assert!((t.lookup("big", "large") - 0.24 / 1.6).abs() < 1e-15);
        // large·large = .16, large·big = .24 -> .24 / .40
        assert!((t.lookup("large", "big") - 0.24 / 0.40).abs() < 1e-15);
        // top 1 keeps only the word itself
        let t1 = WordSimilarity::from_translation_table(
            &[("big", "f1", 0.6), ("large", "f1", 0.4), ("big", "f2", 1.0)],
            1,
            0.0,
        )
        .unwrap();
        assert_eq!(t1.lookup("big", "large"), 0.0);
    }

    #[test]
    fn text_round_trip() {
        let t = WordSimilarity::from_pairs(&[("a", "b", 0.1 + 0.2), ("b", "c", 1.0)]).unwrap();
        let back = WordSimilarity::from_text(&t.to_text(), "t").unwrap();
        assert_eq!(back.lookup("a", "b"), 0.1 + 0.2);
        assert_eq!(back.lookup("b", "c"), 1.0);
        let err = WordSimilarity::from_text(&format!("{HEADER}\na\tb\t2\n"), "f.sim").unwrap_err();
        assert!(err.to_string().contains("f.sim: line 2"), "{err}");
    }

    #[test]
    fn encoding_maps_words_to_table_ids() {
        let t = WordSimilarity::from_pairs(&[("big", "large", 0.5)]).unwrap();
        let s = t.encode_tokens(&[vec!["zzz", "big"], vec!["large", "zzz", "qq"]]);
        assert_eq!(s.get(0), &[2, 0]);
        assert_eq!(s.get(1), &[1, 2, 3]);
    }
}
