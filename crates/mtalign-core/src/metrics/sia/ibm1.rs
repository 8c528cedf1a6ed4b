//! IBM Model 1 (Brown et al. 1993) trained by EM: p(e|f) for target words e and source words
//! f plus a NULL source word in every sentence.
//!
//! Layout: every (f, e) pair that co-occurs in some sentence pair is one parameter, stored by
//! f in a CSR table (f's targets sorted). Each sentence pair is precompiled to the parameter
//! index of each of its (e_j, f_i) cells, so an EM iteration is: per sentence (in parallel) the
//! posteriors of its cells into that sentence's own slice; then one sequential pass adds
//! them to the counts in cell order (a fixed order, so results do not depend on the thread
//! count); then each f's counts are normalised.

use crate::metrics::sia::lexfile::Entry;
use crate::text::intern::{encode_texts, Sentences};
use crate::text::tokenize::Tokenizer;
use crate::{Error, Result};
use rayon::prelude::*;

/// The trained table: p(e|f) for every co-occurring pair; f = 0 is NULL, other f and all e
/// are ids given by the caller.
#[derive(Debug, Clone)]
pub struct Ibm1 {
    /// Parameters of f are `offsets[f]..offsets[f+1]`.
    pub offsets: Vec<usize>,
    /// The target word of each parameter.
    pub targets: Vec<u32>,
    /// p(target | f) of each parameter.
    pub probs: Vec<f64>,
}

impl Ibm1 {
    /// p(e|f) (0 when they never co-occurred).
    pub fn prob(&self, f: u32, e: u32) -> f64 {
        let (a, b) = (self.offsets[f as usize], self.offsets[f as usize + 1]);
        match self.targets[a..b].binary_search(&e) {
            Ok(k) => self.probs[a + k],
            Err(_) => 0.0,
        }
    }

    /// (f, e, p) for every parameter, f = 0 being NULL.
    pub fn entries(&self) -> impl Iterator<Item = (u32, u32, f64)> + '_ {
        (0..self.offsets.len() - 1).flat_map(move |f| {
            (self.offsets[f]..self.offsets[f + 1])
                .map(move |k| (f as u32, self.targets[k], self.probs[k]))
        })
    }
}

/// Trains IBM-1 on sentence pairs: `src[i]` (source ids, starting at 1; 0 is reserved for
/// NULL) and `tgt[i]` (target ids). `progress(iteration, per-word log-likelihood)` is called
/// after each iteration; returning `false` stops the training with an error.
pub fn train(
    src: &[Vec<u32>],
    tgt: &[Vec<u32>],
    iterations: usize,
    mut progress: impl FnMut(usize, f64) -> bool,
) -> Result<Ibm1> {
    if src.len() != tgt.len() {
        return Err(Error::Input(format!(
            "source has {} sentences but target has {}",
            src.len(),
            tgt.len()
        )));
    }
    if src.iter().flatten().any(|&f| f == 0) {
        return Err(Error::Input("source id 0 is reserved for NULL".into()));
    }
    let n_f = src.iter().flatten().max().map_or(1, |&m| m as usize + 1);
    // Co-occurring (f, e) pairs, NULL included, as sorted unique u64 keys.
    let mut keys: Vec<u64> = src
        .par_iter()
        .zip(tgt.par_iter())
        .flat_map_iter(|(fs, es)| {
            es.iter().flat_map(move |&e| {
                std::iter::once(0u32)
                    .chain(fs.iter().copied())
                    .map(move |f| ((f as u64) << 32) | e as u64)
            })
        })
        .collect();
    keys.par_sort_unstable();
    keys.dedup();
    let mut offsets = vec![0usize; n_f + 1];
    for &k in &keys {
        offsets[(k >> 32) as usize + 1] += 1;
    }
    for f in 0..n_f {
        offsets[f + 1] += offsets[f];
    }
    let targets: Vec<u32> = keys.iter().map(|&k| k as u32).collect();
    drop(keys);
    let param = |f: u32, e: u32| -> u32 {
        let (a, b) = (offsets[f as usize], offsets[f as usize + 1]);
        (a + targets[a..b].binary_search(&e).unwrap_or(0)) as u32
    };
    // Cells of each sentence pair: for each e_j, its (1 + |f|) parameters (NULL first).
    let cells: Vec<Vec<u32>> = src
        .par_iter()
        .zip(tgt.par_iter())
        .map(|(fs, es)| {
            let mut v = Vec::with_capacity(es.len() * (fs.len() + 1));
            for &e in es {
                v.push(param(0, e));
                v.extend(fs.iter().map(|&f| param(f, e)));
            }
            v
        })
        .collect();
    let total_cells: usize = cells.iter().map(Vec::len).sum();
    let n_words: usize = tgt.iter().map(Vec::len).sum();
    let n_e = targets.iter().max().map_or(1, |&m| m as usize + 1);
    let mut probs = vec![1.0 / n_e as f64; targets.len()];
    let mut post = vec![0.0f64; total_cells];
    let mut counts = vec![0.0f64; targets.len()];
    for it in 1..=iterations {
        // E-step: each sentence writes its own slice of `post`.
        let mut slices: Vec<&mut [f64]> = Vec::with_capacity(cells.len());
        let mut rest: &mut [f64] = &mut post;
        for c in &cells {
            let (head, tail) = rest.split_at_mut(c.len());
            slices.push(head);
            rest = tail;
        }
        let loglik: Vec<f64> = slices
            .into_par_iter()
            .zip(cells.par_iter())
            .zip(src.par_iter())
            .map(|((out, cs), fs)| {
                let width = fs.len() + 1;
                let mut ll = 0.0;
                for (o, c) in out.chunks_mut(width).zip(cs.chunks(width)) {
                    let mut denom = 0.0;
                    for (x, &k) in o.iter_mut().zip(c) {
                        *x = probs[k as usize];
                        denom += *x;
                    }
                    for x in o.iter_mut() {
                        *x /= denom;
                    }
                    ll += (denom / width as f64).ln();
                }
                ll
            })
            .collect();
        // Sequential accumulation in cell order: independent of the thread count.
        counts.iter_mut().for_each(|c| *c = 0.0);
        for (c, p) in cells.iter().flatten().zip(&post) {
            counts[*c as usize] += *p;
        }
        // M-step.
        for f in 0..n_f {
            let (a, b) = (offsets[f], offsets[f + 1]);
            let total: f64 = counts[a..b].iter().sum();
            if total > 0.0 {
                for k in a..b {
                    probs[k] = counts[k] / total;
                }
            }
        }
        let ll: f64 = loglik.iter().sum::<f64>() / n_words.max(1) as f64;
        if !progress(it, ll) {
            return Err(Error::Input(format!(
                "training stopped after iteration {it}"
            )));
        }
    }
    Ok(Ibm1 {
        offsets,
        targets,
        probs,
    })
}

/// Tokenizes aligned texts, trains IBM-1 for `iterations` and returns the (e, f, p(e|f))
/// entries with p >= `min_prob` (the NULL word's entries left out), in f then e order.
pub fn train_texts<S: AsRef<str> + Sync>(
    src: &[S],
    tgt: &[S],
    src_tokenizer: &Tokenizer,
    tgt_tokenizer: &Tokenizer,
    iterations: usize,
    min_prob: f64,
    progress: impl FnMut(usize, f64) -> bool,
) -> Result<Vec<Entry>> {
    if src.len() != tgt.len() {
        return Err(Error::Input(format!(
            "source has {} lines but target has {}",
            src.len(),
            tgt.len()
        )));
    }
    let s_enc = encode_texts(src_tokenizer, src);
    let t_enc = encode_texts(tgt_tokenizer, tgt);
    let s_words = vocab(src, src_tokenizer, &s_enc.sentences, s_enc.vocab_size);
    let t_words = vocab(tgt, tgt_tokenizer, &t_enc.sentences, t_enc.vocab_size);
    let s_ids: Vec<Vec<u32>> = s_enc
        .sentences
        .iter()
        .map(|s| s.iter().map(|&x| x + 1).collect())
        .collect();
    let t_ids: Vec<Vec<u32>> = t_enc.sentences.iter().map(<[u32]>::to_vec).collect();
    let model = train(&s_ids, &t_ids, iterations, progress)?;
    Ok(model
        .entries()
        .filter(|&(f, _, p)| f != 0 && p > 0.0 && p >= min_prob)
        .map(|(f, e, p)| {
            (
                t_words[e as usize].clone(),
                s_words[f as usize - 1].clone(),
                p,
            )
        })
        .collect())
}

/// The word of each id of an encoded batch (found again by tokenizing in order).
fn vocab<S: AsRef<str>>(
    texts: &[S],
    tokenizer: &Tokenizer,
    sentences: &Sentences,
    size: usize,
) -> Vec<String> {
    let mut words = vec![String::new(); size];
    let mut seen = 0;
    for (k, text) in texts.iter().enumerate() {
        if seen == size {
            break;
        }
        for (tok, &id) in tokenizer
            .tokenize(text.as_ref())
            .into_iter()
            .zip(sentences.get(k))
        {
            if words[id as usize].is_empty() {
                words[id as usize] = tok;
                seen += 1;
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_obvious_pairs() {
        // f: 1=das 2=haus 3=buch 4=ein; e: 0=the 1=house 2=book 3=a
        let src = vec![vec![1, 2], vec![1, 3], vec![4, 3]];
        let tgt = vec![vec![0, 1], vec![0, 2], vec![3, 2]];
        let mut seen = Vec::new();
        let t = train(&src, &tgt, 20, |it, ll| {
            seen.push((it, ll));
            true
        })
        .unwrap();
        assert_eq!(seen.len(), 20);
        assert!(
            seen.windows(2).all(|w| w[1].1 >= w[0].1 - 1e-12),
            "EM never lowers likelihood"
        );
        assert!(t.prob(2, 1) > 0.7, "p(house|haus) = {}", t.prob(2, 1));
        assert!(t.prob(3, 2) > 0.7, "p(book|buch) = {}", t.prob(3, 2));
        for f in 0..5 {
            let s: f64 = (0..4).map(|e| t.prob(f, e)).sum();
            assert!((s - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn same_result_on_any_thread_count() {
        let src: Vec<Vec<u32>> = (0..300)
            .map(|i| vec![1 + i % 7, 1 + (i * 3) % 11])
            .collect();
        let tgt: Vec<Vec<u32>> = (0..300).map(|i| vec![i % 5, (i * 7) % 13, 2]).collect();
        let run = |n| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap();
            pool.install(|| train(&src, &tgt, 5, |_, _| true).unwrap().probs)
        };
        assert_eq!(run(1), run(3));
    }
}
