//! chrF (Popović 2015) and chrF++ (Popović 2017), as sacrebleu 2.6.0 computes them.
//!
//! **Encoding.** The metric reads text as code points: its encoder is the `codepoint`
//! tokenizer (every code point is a token and its id is the code point itself; lowercasing,
//! when asked, is done there), and the metric takes its own two views of those ids:
//!
//! * characters: the code points with Python's whitespace (`str.split()`) removed, or all of
//!   them with `whitespace`;
//! * words (chrF++): the text split on Python's whitespace, then sacrebleu's punctuation
//!   split (a word longer than one character ending in ASCII punctuation loses it as a word
//!   of its own; else one starting with it does). Words are interned per pair as chains of
//!   code points in an [`NgramIds`] table, so a word's id is exact.
//!
//! A statistics row is sacrebleu's (`_extract_corpus_statistics`): for each character order
//! 1..=`char_order`, then each word order 1..=`word_order`, `[hyp n-grams, ref n-grams,
//! matches]`, where the hypothesis count is 0 for an order the reference has no n-gram of.
//! With several references the row of the best sentence F is kept (the first on ties).
//! Rows add up: corpus chrF is the F of the summed rows. Scores repeat sacrebleu's
//! floating-point operations in order, so they are bit-identical to it (0-100 scale).

use crate::kernels::ngram_ids::{NgramIds, MISSING};
use crate::kernels::ngram_mean::NgramMean;
use crate::kernels::ngram_packed::PackedNgrams;
use crate::kernels::ngram_profile::{NgramProfiles, RowCounts};
use crate::metrics::metric::{with_scratch, Metric, Pair, Prepared};
use crate::text::docs::Docs;
use crate::text::tokenize::sacrebleu::py_isspace;
use crate::{Error, Result};

/// The longest character or word n-gram.
pub const MAX_ORDER: usize = 12;

/// chrF's configuration (sacrebleu's `CHRF`): chrF is `char_order` 6, `word_order` 0,
/// `beta` 2; chrF++ has `word_order` 2. Build it with [`ChrfConfig::new`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChrfConfig {
    /// The longest character n-gram (1..=[`MAX_ORDER`]).
    pub char_order: usize,
    /// The longest word n-gram (0..=[`MAX_ORDER`]; 0: characters only).
    pub word_order: usize,
    /// Recall is `beta` times as important as precision.
    pub beta: f64,
    /// Keep whitespace in character n-grams.
    pub whitespace: bool,
    /// The mean of per-order F with epsilon for empty orders (chrF++.py, Moses, NLTK),
    /// instead of F of the averaged P and R over the orders both sides have.
    pub eps_smoothing: bool,
}

impl ChrfConfig {
    /// A checked configuration (orders in range, `beta` finite and > 0). Statistics are over
    /// code points: encode texts with [`crate::text::tokenize::TokenizerKind::Codepoint`].
    ///
    /// ```
    /// use mtalign_core::metrics::chrf::ChrfConfig;
    /// let chrf = ChrfConfig::new(6, 0, 2.0, false, false)?; // sacrebleu's chrF
    /// assert_eq!(chrf.width(), 3 * 6);
    /// assert!(ChrfConfig::new(6, 0, 0.0, false, false).is_err());
    /// # Ok::<(), mtalign_core::Error>(())
    /// ```
    pub fn new(
        char_order: usize,
        word_order: usize,
        beta: f64,
        whitespace: bool,
        eps_smoothing: bool,
    ) -> Result<Self> {
        if !(1..=MAX_ORDER).contains(&char_order) {
            return Err(Error::Config(format!(
                "char_order must be between 1 and {MAX_ORDER} (got {char_order})"
            )));
        }
        if word_order > MAX_ORDER {
            return Err(Error::Config(format!(
                "word_order must be between 0 and {MAX_ORDER} (got {word_order})"
            )));
        }
        if !(beta.is_finite() && beta > 0.0) {
            return Err(Error::Config(format!(
                "beta must be a finite number > 0 (got {beta})"
            )));
        }
        Ok(Self {
            char_order,
            word_order,
            beta,
            whitespace,
            eps_smoothing,
        })
    }

    /// Orders in a row: character orders, then word orders.
    pub fn orders(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Length of a statistics row.
    pub fn width(&self) -> usize {
        3 * self.orders()
    }

    /// sacrebleu's `CHRF._compute_f_score` of a row or of summed rows, operation for
    /// operation (0-100).
    pub fn score(&self, stats: &[f64]) -> f64 {
        let eps = 1e-16;
        let factor = self.beta * self.beta;
        let mut score = 0.0;
        let mut effective_order = 0usize;
        let (mut avg_prec, mut avg_rec) = (0.0, 0.0);
        for s in stats[..self.width()].chunks_exact(3) {
            let (n_hyp, n_ref, n_match) = (s[0], s[1], s[2]);
            let prec = if n_hyp > 0.0 { n_match / n_hyp } else { eps };
            let rec = if n_ref > 0.0 { n_match / n_ref } else { eps };
            let denom = factor * prec + rec;
            score += if denom > 0.0 {
                (1.0 + factor) * prec * rec / denom
            } else {
                eps
            };
            if n_hyp > 0.0 && n_ref > 0.0 {
                avg_prec += prec;
                avg_rec += rec;
                effective_order += 1;
            }
        }
        if self.eps_smoothing {
            return 100.0 * score / self.orders() as f64;
        }
        if effective_order == 0 {
            avg_prec = 0.0;
            avg_rec = 0.0;
        } else {
            avg_prec /= effective_order as f64;
            avg_rec /= effective_order as f64;
        }
        if avg_prec + avg_rec != 0.0 {
            let mut score = (1.0 + factor) * avg_prec * avg_rec;
            score /= factor * avg_prec + avg_rec;
            100.0 * score
        } else {
            0.0
        }
    }
}

/// sacrebleu's `CHRF._PUNCTS` (`string.punctuation`).
fn is_punct(c: u32) -> bool {
    c < 128 && (c as u8).is_ascii_punctuation()
}

fn is_space(c: u32) -> bool {
    if c < 0x80 {
        // ASCII: \t..\r, U+001C..U+001F and ' ' (as `py_isspace` says).
        matches!(c, 0x09..=0x0d | 0x1c..=0x20)
    } else {
        char::from_u32(c).is_some_and(py_isspace)
    }
}

/// The n-grams of one hypothesis (orders `1..=k`) and their counts, matched against
/// references one by one.
#[derive(Debug, Default)]
struct Grams {
    ids: NgramIds,
    count: Vec<u32>,
    order_of: Vec<u8>,
    ref_count: Vec<u32>,
    hyp_len: usize,
}

impl Grams {
    fn set_hyp(&mut self, tokens: &[u32], k: usize) {
        self.ids.clear();
        self.count.clear();
        self.order_of.clear();
        self.hyp_len = tokens.len();
        let (count, order_of) = (&mut self.count, &mut self.order_of);
        self.ids.insert_all(tokens, k, |n, id| {
            if id as usize == count.len() {
                count.push(0);
                order_of.push(n as u8);
            }
            count[id as usize] += 1;
        });
    }

    /// `[hyp, ref, match]` of each order `1..=k` of the hypothesis against `r`, into `out`.
    fn against(&mut self, r: &[u32], k: usize, out: &mut [f64]) {
        self.ref_count.clear();
        self.ref_count.resize(self.count.len(), 0);
        let rc = &mut self.ref_count;
        self.ids.lookup_all(r, k, |_, id| rc[id as usize] += 1);
        let mut matches = [0u32; MAX_ORDER + 1];
        for ((&h, &x), &n) in self.count.iter().zip(rc.iter()).zip(&self.order_of) {
            matches[n as usize] += h.min(x);
        }
        for n in 1..=k {
            let h = (self.hyp_len + 1).saturating_sub(n);
            let rr = (r.len() + 1).saturating_sub(n);
            let s = &mut out[3 * (n - 1)..3 * n];
            s[0] = if rr > 0 { h as f64 } else { 0.0 };
            s[1] = rr as f64;
            s[2] = matches[n] as f64;
        }
    }
}

/// Working memory of one thread.
#[derive(Debug, Default)]
pub struct ChrfScratch {
    /// Character n-grams packed into `u64`s (the usual case: at most 254 distinct characters
    /// in the hypothesis and `char_order` ≤ 8) ...
    packed: PackedNgrams,
    /// ... whether the current hypothesis took that path ...
    use_packed: bool,
    hyp_chars: usize,
    /// ... else the general n-gram ids.
    chars: Grams,
    words: Grams,
    /// Word n-grams (chrF++) the same two ways.
    packed_words: PackedNgrams,
    use_packed_words: bool,
    hyp_words: usize,
    /// Word strings → ids (chains of code points), for the current pair.
    word_table: NgramIds,
    buf: Vec<u32>,
    row: Vec<f64>,
}

impl ChrfConfig {
    /// The characters chrF compares: whitespace removed unless `whitespace`.
    fn chars_into(&self, text: &[u32], out: &mut Vec<u32>) {
        out.clear();
        if self.whitespace {
            out.extend_from_slice(text);
        } else {
            // Write every character and advance past the kept ones: no branch per character.
            out.resize(text.len(), 0);
            let mut n = 0;
            for &c in text {
                out[n] = c;
                n += usize::from(!is_space(c));
            }
            out.truncate(n);
        }
    }
}

/// The id of the word `w` (its code points) in `table`.
fn word_id(table: &mut NgramIds, w: &[u32]) -> u32 {
    w.iter().fold(MISSING, |prefix, &c| table.intern(prefix, c))
}

/// sacrebleu's `CHRF._remove_punctuation`: words split on whitespace, then a trailing (or
/// else a leading) ASCII punctuation mark of a longer word split off; word ids into `out`.
pub fn words_into(table: &mut NgramIds, text: &[u32], out: &mut Vec<u32>) {
    out.clear();
    for w in text.split(|&c| is_space(c)).filter(|w| !w.is_empty()) {
        let n = w.len();
        if n == 1 {
            out.push(word_id(table, w));
        } else if is_punct(w[n - 1]) {
            out.push(word_id(table, &w[..n - 1]));
            out.push(word_id(table, &w[n - 1..]));
        } else if is_punct(w[0]) {
            out.push(word_id(table, &w[..1]));
            out.push(word_id(table, &w[1..]));
        } else {
            out.push(word_id(table, w));
        }
    }
}

/// A matrix block prepared for chrF: character and word n-gram profiles and lengths.
struct ChrfBlock {
    chars: NgramProfiles,
    words: NgramProfiles,
    char_lens: Vec<usize>,
    word_lens: Vec<usize>,
}

#[derive(Default)]
struct ChrfRowScratch {
    chars: RowCounts,
    words: RowCounts,
}

/// `[hyp, ref, match]` of orders `1..=k` from the matches per order, as `Grams::against`
/// writes them.
fn orders_row(hits: &[u32], k: usize, hyp_len: usize, ref_len: usize, out: &mut [f64]) {
    for n in 1..=k {
        let h = (hyp_len + 1).saturating_sub(n);
        let rr = (ref_len + 1).saturating_sub(n);
        let s = &mut out[3 * (n - 1)..3 * n];
        s[0] = if rr > 0 { h as f64 } else { 0.0 };
        s[1] = rr as f64;
        s[2] = f64::from(hits[n]);
    }
}

/// Reference aggregation (Vamvas & Sennrich 2024): the row of each hypothesis `hyps[i]`
/// against the weighted mean of the character (and word) n-gram counts of the `samples`
/// (`weights` summing to 1): per order, the hypothesis's n-gram total, the mean sample
/// total, and Σ min(hypothesis count, mean count). Linear in the number of samples; an
/// approximation of the mean chrF (see `Metric.expected_scores`).
pub fn aggregate_rows(
    cfg: &ChrfConfig,
    docs: &Docs<'_>,
    hyps: &[u32],
    samples: &[u32],
    weights: &[f64],
) -> Vec<f64> {
    let (c, w) = (cfg.char_order, cfg.word_order);
    let (mut chars, mut words) = (NgramMean::new(c), NgramMean::new(w));
    let mut table = NgramIds::new();
    let mut buf = Vec::new();
    for (&s, &wt) in samples.iter().zip(weights) {
        let t = docs.tokens(s as usize);
        cfg.chars_into(t, &mut buf);
        chars.add(&buf, wt);
        if w > 0 {
            words_into(&mut table, t, &mut buf);
            words.add(&buf, wt);
        }
    }
    let width = cfg.width();
    let mut out = vec![0.0; hyps.len() * width];
    let mut hits = vec![0.0; MAX_ORDER + 1];
    let fill =
        |mean: &mut NgramMean, tokens: &[u32], k: usize, hits: &mut [f64], out: &mut [f64]| {
            mean.matches(tokens, &mut hits[..k + 1]);
            for n in 1..=k {
                let h = (tokens.len() + 1).saturating_sub(n) as f64;
                let rr = mean.total(n);
                let s = &mut out[3 * (n - 1)..3 * n];
                s[0] = if rr > 0.0 { h } else { 0.0 };
                s[1] = rr;
                s[2] = hits[n];
            }
        };
    for (row, &h) in out.chunks_exact_mut(width).zip(hyps) {
        let t = docs.tokens(h as usize);
        cfg.chars_into(t, &mut buf);
        fill(&mut chars, &buf, c, &mut hits, &mut row[..3 * c]);
        if w > 0 {
            words_into(&mut table, t, &mut buf);
            fill(&mut words, &buf, w, &mut hits, &mut row[3 * c..]);
        }
    }
    out
}

/// How many words [`words_into`] gives for `text`.
fn word_count(text: &[u32]) -> usize {
    text.split(|&c| is_space(c))
        .filter(|w| !w.is_empty())
        .map(|w| {
            let n = w.len();
            1 + usize::from(n > 1 && (is_punct(w[n - 1]) || is_punct(w[0])))
        })
        .sum()
}

impl ChrfScratch {
    /// The statistics of `hyp` against one reference `r` (both as code points), into `out`.
    fn against(&mut self, cfg: &ChrfConfig, r: &[u32], out: &mut [f64]) {
        let (c, w) = (cfg.char_order, cfg.word_order);
        cfg.chars_into(r, &mut self.buf);
        if self.use_packed {
            let mut hits = [0u32; MAX_ORDER + 1];
            self.packed.matches(&self.buf, &mut hits[..=c]);
            orders_row(&hits, c, self.hyp_chars, self.buf.len(), &mut out[..3 * c]);
        } else {
            self.chars.against(&self.buf, c, &mut out[..3 * c]);
        }
        if w > 0 {
            words_into(&mut self.word_table, r, &mut self.buf);
            if self.use_packed_words {
                let mut hits = [0u32; MAX_ORDER + 1];
                self.packed_words.matches(&self.buf, &mut hits[..=w]);
                orders_row(&hits, w, self.hyp_words, self.buf.len(), &mut out[3 * c..]);
            } else {
                self.words.against(&self.buf, w, &mut out[3 * c..]);
            }
        }
    }

    /// The row of `hyp` against the best of `refs` (code points), into `row`.
    pub fn stats<'a>(
        &mut self,
        cfg: &ChrfConfig,
        hyp: &[u32],
        refs: impl Iterator<Item = &'a [u32]>,
        row: &mut [f64],
    ) {
        let (c, w) = (cfg.char_order, cfg.word_order);
        cfg.chars_into(hyp, &mut self.buf);
        self.hyp_chars = self.buf.len();
        self.use_packed = self.packed.set_hyp(&self.buf, c);
        if !self.use_packed {
            self.chars.set_hyp(&self.buf, c);
        }
        if w > 0 {
            self.word_table.clear();
            words_into(&mut self.word_table, hyp, &mut self.buf);
            self.hyp_words = self.buf.len();
            self.use_packed_words = self.packed_words.set_hyp(&self.buf, w);
            if !self.use_packed_words {
                self.words.set_hyp(&self.buf, w);
            }
        }
        let mut tmp = std::mem::take(&mut self.row);
        tmp.clear();
        tmp.resize(cfg.width(), 0.0);
        let mut best = -1.0;
        for r in refs {
            self.against(cfg, r, &mut tmp);
            let f = cfg.score(&tmp);
            if f > best {
                best = f;
                row.copy_from_slice(&tmp);
            }
        }
        self.row = tmp;
    }
}

/// chrF's statistics row (see the module docs); ids must be code points (the `codepoint`
/// tokenizer).
impl Metric for ChrfConfig {
    type Scratch = ChrfScratch;
    type Context = ();
    const PAIR_LOCAL_IDS: bool = true;
    const TASK_PAIRS: usize = 32;

    fn width(&self) -> usize {
        ChrfConfig::width(self)
    }

    /// Matches are symmetric for one reference; the n-gram totals are the other side's
    /// (and the hypothesis total is 0 where the reference has no n-gram of that order, as
    /// `Grams::against` writes it).
    fn has_mirror(&self) -> bool {
        true
    }

    /// Each text's character (and word) n-gram counts once; a cell is then one pass over
    /// the column's distinct n-grams against the row's dense counts.
    fn prepare_matrix(&self, docs: &Docs<'_>, texts: &[u32]) -> Option<Prepared> {
        let mut buf = Vec::new();
        let chars: Vec<Vec<u32>> = texts
            .iter()
            .map(|&t| {
                self.chars_into(docs.tokens(t as usize), &mut buf);
                buf.clone()
            })
            .collect();
        let mut table = NgramIds::new();
        let words: Vec<Vec<u32>> = if self.word_order > 0 {
            texts
                .iter()
                .map(|&t| {
                    words_into(&mut table, docs.tokens(t as usize), &mut buf);
                    buf.clone()
                })
                .collect()
        } else {
            Vec::new()
        };
        Some(Box::new(ChrfBlock {
            char_lens: chars.iter().map(Vec::len).collect(),
            word_lens: words.iter().map(Vec::len).collect(),
            chars: NgramProfiles::build(chars.iter().map(Vec::as_slice), self.char_order),
            words: NgramProfiles::build(words.iter().map(Vec::as_slice), self.word_order),
        }))
    }

    fn prepared_row(&self, prepared: &Prepared, row: usize, cols: &[u32], cells: &mut [f64]) {
        let Some(block) = prepared.downcast_ref::<ChrfBlock>() else {
            unreachable!("a chrF block")
        };
        let (c, w) = (self.char_order, self.word_order);
        with_scratch(|s: &mut ChrfRowScratch| {
            s.chars.set_row(&block.chars, row);
            if w > 0 {
                s.words.set_row(&block.words, row);
            }
            let mut hits = [0u32; MAX_ORDER + 1];
            for (&col, out) in cols.iter().zip(cells.chunks_exact_mut(self.width())) {
                let col = col as usize;
                s.chars.matches(&block.chars, col, &mut hits[..c + 1]);
                orders_row(
                    &hits,
                    c,
                    block.char_lens[row],
                    block.char_lens[col],
                    &mut out[..3 * c],
                );
                if w > 0 {
                    s.words.matches(&block.words, col, &mut hits[..w + 1]);
                    let (h, r) = (block.word_lens[row], block.word_lens[col]);
                    orders_row(&hits, w, h, r, &mut out[3 * c..]);
                }
            }
        });
    }

    fn prepared_mirror(
        &self,
        prepared: &Prepared,
        a: usize,
        b: usize,
        _: &[u32],
        _: &[u32],
        row: &[f64],
        out: &mut [f64],
    ) {
        let Some(block) = prepared.downcast_ref::<ChrfBlock>() else {
            unreachable!("a chrF block")
        };
        let (c, w) = (self.char_order, self.word_order);
        let mut hits = [0u32; MAX_ORDER + 1];
        for (n, s) in row[..3 * c].chunks_exact(3).enumerate() {
            hits[n + 1] = s[2] as u32;
        }
        orders_row(
            &hits,
            c,
            block.char_lens[b],
            block.char_lens[a],
            &mut out[..3 * c],
        );
        if w > 0 {
            for (n, s) in row[3 * c..].chunks_exact(3).enumerate() {
                hits[n + 1] = s[2] as u32;
            }
            let (h, r) = (block.word_lens[b], block.word_lens[a]);
            orders_row(&hits, w, h, r, &mut out[3 * c..]);
        }
    }

    fn mirror(&self, a: &[u32], b: &[u32], row: &[f64], out: &mut [f64]) {
        let c = self.char_order;
        let lens = |t: &[u32]| {
            let chars = if self.whitespace {
                t.len()
            } else {
                t.iter().filter(|&&x| !is_space(x)).count()
            };
            (chars, word_count(t))
        };
        let ((a_chars, a_words), (b_chars, b_words)) = (lens(a), lens(b));
        for (k, (o, r)) in out.chunks_exact_mut(3).zip(row.chunks_exact(3)).enumerate() {
            let (n, a_len, b_len) = if k < c {
                (k + 1, a_chars, b_chars)
            } else {
                (k - c + 1, a_words, b_words)
            };
            let h = (b_len + 1).saturating_sub(n);
            let rr = (a_len + 1).saturating_sub(n);
            o[0] = if rr > 0 { h as f64 } else { 0.0 };
            o[1] = rr as f64;
            o[2] = r[2];
        }
    }

    fn pair_statistics(&self, _: &(), s: &mut ChrfScratch, pair: Pair<'_>, row: &mut [f64]) {
        s.stats(self, pair.hyp(), pair.refs(), row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cps(s: &str) -> Vec<u32> {
        s.chars().map(|c| c as u32).collect()
    }

    fn row(cfg: &ChrfConfig, hyp: &str, refs: &[&str]) -> Vec<f64> {
        let refs: Vec<Vec<u32>> = refs.iter().map(|r| cps(r)).collect();
        let mut out = vec![0.0; cfg.width()];
        ChrfScratch::default().stats(cfg, &cps(hyp), refs.iter().map(|r| &r[..]), &mut out);
        out
    }

    /// Counter-based statistics, as sacrebleu writes them (one reference).
    fn oracle(cfg: &ChrfConfig, hyp: &str, r: &str) -> Vec<f64> {
        fn grams(items: &[String], n: usize, sep: &str) -> HashMap<String, usize> {
            let mut m = HashMap::new();
            for i in 0..(items.len() + 1).saturating_sub(n) {
                *m.entry(items[i..i + n].join(sep)).or_insert(0) += 1;
            }
            m
        }
        let chars = |s: &str| -> Vec<String> {
            s.chars()
                .filter(|&c| cfg.whitespace || !py_isspace(c))
                .map(String::from)
                .collect()
        };
        let words = |s: &str| -> Vec<String> {
            let mut out = Vec::new();
            for w in s.split(py_isspace).filter(|w| !w.is_empty()) {
                let v: Vec<char> = w.chars().collect();
                let p = |c: char| c.is_ascii_punctuation();
                if v.len() == 1 {
                    out.push(w.to_string());
                } else if p(v[v.len() - 1]) {
                    out.push(v[..v.len() - 1].iter().collect());
                    out.push(v[v.len() - 1].to_string());
                } else if p(v[0]) {
                    out.push(v[0].to_string());
                    out.push(v[1..].iter().collect());
                } else {
                    out.push(w.to_string());
                }
            }
            out
        };
        let mut stats = Vec::new();
        let mut add = |h: HashMap<String, usize>, r: HashMap<String, usize>| {
            let hc: usize = h.values().sum();
            let m: usize = h.iter().map(|(g, &c)| c.min(*r.get(g).unwrap_or(&0))).sum();
            stats.extend([
                if r.is_empty() { 0.0 } else { hc as f64 },
                r.values().sum::<usize>() as f64,
                m as f64,
            ]);
        };
        let (hc, rc) = (chars(hyp), chars(r));
        for n in 1..=cfg.char_order {
            add(grams(&hc, n, ""), grams(&rc, n, ""));
        }
        let (hw, rw) = (words(hyp), words(r));
        for n in 1..=cfg.word_order {
            add(grams(&hw, n, " "), grams(&rw, n, " "));
        }
        stats
    }

    #[test]
    fn sacrebleu_values() {
        // sacrebleu 2.6.0: CHRF().sentence_score(...).score and CHRF(word_order=2).
        let chrf = ChrfConfig::new(6, 0, 2.0, false, false).unwrap();
        let chrfpp = ChrfConfig::new(6, 2, 2.0, false, false).unwrap();
        let hyp = "The cat sat on the mat.";
        let r = "The cat is on the mat.";
        assert_eq!(chrf.score(&row(&chrf, hyp, &[r])), 67.17273492330233);
        assert_eq!(chrfpp.score(&row(&chrfpp, hyp, &[r])), 69.43695278069349);
        assert_eq!(chrf.score(&row(&chrf, "", &[r])), 0.0);
        assert_eq!(chrf.score(&row(&chrf, "abc", &["xyz"])), 0.0);
    }

    #[test]
    fn best_reference_first_on_ties() {
        let c = ChrfConfig::new(2, 1, 2.0, false, false).unwrap();
        let a = row(&c, "ab cd", &["ab", "cd", "ab cd x"]);
        assert_eq!(a, oracle(&c, "ab cd", "ab"));
        let b = row(&c, "ab cd", &["zz", "ab cd", "ab cd"]);
        assert_eq!(b, oracle(&c, "ab cd", "ab cd"));
    }

    proptest::proptest! {
        #[test]
        fn rows_match_the_counter_oracle(
            hyp in "[ab (),.\t]{0,14}", r in "[ab (),.\u{1f}]{0,14}",
            c in 1usize..5, w in 0usize..3, ws: bool,
        ) {
            let cfg = ChrfConfig::new(c, w, 2.0, ws, false).unwrap();
            proptest::prop_assert_eq!(row(&cfg, &hyp, &[&r]), oracle(&cfg, &hyp, &r));
        }
    }

    proptest::proptest! {
        /// Every character and word order (the packed paths up to 8, the general one above),
        /// hypotheses past the packed alphabet's 254 characters, and past 254 distinct words
        /// of few characters (words fall back while characters stay packed).
        #[test]
        fn both_paths_match_the_oracle(
            hyp in "[ab\u{e4}\u{4e00} ]{0,12}", r in "[ab\u{e4}\u{4e00} ]{0,12}",
            c in 1usize..=MAX_ORDER, w in 1usize..=MAX_ORDER, wide in 0usize..300,
            words: bool,
        ) {
            let cfg = ChrfConfig::new(c, w, 2.0, false, false).unwrap();
            let many: String = if words {
                // Distinct words over {a, b}: the binary numerals of 2.. with 0 → a, 1 → b.
                (2..wide as u32 + 2)
                    .map(|i| format!("{i:b} ").replace('0', "a").replace('1', "b"))
                    .collect()
            } else {
                (0..wide as u32).filter_map(|i| char::from_u32(0x3400 + i)).collect()
            };
            let (h, rr) = (format!("{hyp} {many}"), format!("{many} {r}"));
            proptest::prop_assert_eq!(row(&cfg, &h, &[&rr]), oracle(&cfg, &h, &rr));
            proptest::prop_assert_eq!(row(&cfg, &hyp, &[&rr, &r]), {
                let (a, b) = (oracle(&cfg, &hyp, &rr), oracle(&cfg, &hyp, &r));
                if cfg.score(&b) > cfg.score(&a) { b } else { a }
            });
        }
    }

    #[test]
    fn bad_configuration() {
        assert!(ChrfConfig::new(0, 0, 2.0, false, false).is_err());
        assert!(ChrfConfig::new(13, 0, 2.0, false, false).is_err());
        assert!(ChrfConfig::new(6, 13, 2.0, false, false).is_err());
        assert!(ChrfConfig::new(6, 2, 0.0, false, false).is_err());
        assert!(ChrfConfig::new(6, 2, f64::NAN, false, false).is_err());
    }
}

/// chrF's contract: options, encoding (code points), columns and figures.
mod native {
    use super::{aggregate_rows, ChrfConfig};
    use crate::metrics::contract::{sum_rows, CellScore, Configured, Contract};
    use crate::options::{DefaultValue as D, Kind, OptionSpec, Options};
    use crate::text::docs::Docs;
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};
    use crate::Result;

    impl Contract for ChrfConfig {
        const NAME: &'static str = "chrf";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new(
                "char_order",
                Kind::Int,
                D::Int(6),
                "character n-gram order, 1 to 12",
            ),
            OptionSpec::new(
                "word_order",
                Kind::Int,
                D::Int(0),
                "word n-gram order (2: chrF++)",
            ),
            OptionSpec::new("beta", Kind::Float, D::Float(2.0), "recall's weight (> 0)"),
            OptionSpec::new("lowercase", Kind::Bool, D::Bool(false), "lowercase first"),
            OptionSpec::new(
                "whitespace",
                Kind::Bool,
                D::Bool(false),
                "keep whitespace in character n-grams",
            ),
            OptionSpec::new(
                "eps_smoothing",
                Kind::Bool,
                D::Bool(false),
                "mean of per-order F (chrF++.py)",
            ),
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = ChrfConfig::new(
                o.usize("char_order")?,
                o.usize("word_order")?,
                o.f64("beta"),
                o.bool("whitespace"),
                o.bool("eps_smoothing"),
            )?;
            let tokenizer = Tokenizer::new(TokenizerKind::Codepoint, o.bool("lowercase"));
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        fn shape(&self) -> Vec<usize> {
            vec![self.width()]
        }

        /// Per order (characters `c1..`, then words `w1..`): hypothesis n-grams, reference
        /// n-grams, matches.
        fn columns(&self) -> Vec<String> {
            let orders = (1..=self.char_order)
                .map(|n| format!("c{n}"))
                .chain((1..=self.word_order).map(|n| format!("w{n}")));
            orders
                .flat_map(|o| ["hyp", "ref", "match"].map(|s| format!("{o}_{s}")))
                .collect()
        }

        fn fields(&self) -> Vec<String> {
            vec!["score".into()]
        }

        /// Corpus chrF: the score of the summed rows.
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            Some(vec![self.score(&sum_rows(rows, self.width()))])
        }

        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            Some(Box::new(|row| self.score(row)))
        }

        fn aggregates(&self) -> bool {
            true
        }

        fn aggregate_rows(&self, docs: &Docs<'_>, h: &[u32], s: &[u32], w: &[f64]) -> Vec<f64> {
            aggregate_rows(self, docs, h, s, w)
        }
    }
}
