//! The paths of [`crate::run`]: chunked and batch-wide text batches, matrices, reference
//! aggregation, and where vanished texts are reported.

use super::source::Collected;
use crate::metrics::chunked::{grouped_order, statistics_of_chunk, ChunkRows, CHUNK_PAIRS};
use crate::metrics::matrix::{
    scores_matrices, statistics_matrices, statistics_matrix, MatrixBlock,
};
use crate::metrics::metric::{statistics_batch, Metric};
use crate::text::distinct::{count_distinct, DistinctTexts};
use crate::text::docs::Docs;
use crate::text::encoder::Encoder;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// A text batch's result: statistics rows (row-major, one per hypothesis, or one per cell of
/// a matrix) and the places whose text vanished in tokenization (non-space characters, no
/// token).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchRows {
    /// The rows.
    pub rows: Vec<f64>,
    /// Hypotheses whose text vanished, ascending.
    pub hyp_vanished: Vec<usize>,
    /// References whose text vanished as (item, position): each distinct text once, where
    /// it first appeared as a reference, in the batch's text order (hypotheses' texts first,
    /// by first appearance, then the references' by first appearance).
    pub ref_vanished: Vec<(usize, usize)>,
}

/// How a text batch goes from text to rows (see [`crate::run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// Chunk by chunk, each chunk's texts encoded with ids of its own.
    Chunked,
    /// Each distinct text numbered and encoded once, with one vocabulary.
    BatchWide,
}

/// Pairs from which a batch on several threads is chunked without counting its distinct
/// hypotheses (a serial pass over every text): large batches are grouped by reference, and
/// a chunk encodes the equal hypotheses of its pairs once (the systems of one segment).
pub const CHUNKED_PAIRS: usize = 4 * CHUNK_PAIRS;

/// The path of a text batch of `metric` encoded by `encoder` on `threads` threads.
pub fn text_path<M: Metric>(
    _metric: &M,
    encoder: &Encoder,
    batch: &Collected<'_>,
    threads: usize,
) -> Path {
    if !M::PAIR_LOCAL_IDS || encoder.stemmer.is_some() {
        return Path::BatchWide;
    }
    if threads > 1 && batch.len() >= CHUNKED_PAIRS {
        return Path::Chunked;
    }
    let count = count_distinct(&batch.hyps);
    if 4 * count >= 3 * batch.len() {
        Path::Chunked
    } else {
        Path::BatchWide
    }
}

/// Rows of `metric` for an aligned batch (hypothesis `i` against reference item `i`), by the
/// path [`text_path`] chooses for the current pool.
pub fn texts<M: Metric>(metric: &M, encoder: &Encoder, batch: &Collected<'_>) -> Result<BatchRows> {
    check_aligned(batch)?;
    match text_path(metric, encoder, batch, rayon::current_num_threads()) {
        Path::Chunked => chunked(metric, encoder, batch),
        Path::BatchWide => texts_batch_wide(encoder, batch, |docs, hyps, refs| {
            statistics_batch(metric, docs, hyps, refs)
        }),
    }
}

/// Rows of an aligned batch the batch-wide way, by `kernel` (texts, the text number of each
/// hypothesis, their reference sets → rows).
pub fn texts_batch_wide(
    encoder: &Encoder,
    batch: &Collected<'_>,
    kernel: impl Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>>,
) -> Result<BatchRows> {
    check_aligned(batch)?;
    let numbered = number(batch);
    let encoded = encoder.encode_texts(numbered.texts.as_slice());
    let rows = kernel(&encoded.docs()?, &numbered.hyp_ids, &numbered.ref_sets)?;
    Ok(numbered.rows(rows, &encoded.vanished))
}

fn check_aligned(batch: &Collected<'_>) -> Result<()> {
    if batch.ref_sets.len() != batch.len() {
        return Err(Error::Input(format!(
            "hyps has {} items but refs has {}",
            batch.len(),
            batch.ref_sets.len()
        )));
    }
    Ok(())
}

/// The distinct reference objects of a batch (by key): the index in `batch.refs` of each
/// one's first occurrence, and per reference item its set of them (numbered in order of
/// first occurrence).
fn distinct_refs(batch: &Collected<'_>) -> (Vec<u32>, RefSets) {
    let mut index = first_occurrences(&batch.keys);
    let mut first = Vec::with_capacity(index.len());
    for k in 0..index.len() {
        let f = index[k] as usize;
        // An earlier occurrence is numbered already.
        index[k] = if f == k {
            first.push(k as u32);
            first.len() as u32 - 1
        } else {
            index[f]
        };
    }
    if first.len() == batch.refs.len() {
        // Every reference distinct: each one's number is its place.
        return (first, batch.ref_sets.clone());
    }
    let mut sets = RefSets::with_capacity(batch.ref_sets.len(), batch.refs.len());
    for i in 0..batch.ref_sets.len() {
        sets.push(batch.ref_sets.get(i).iter().map(|&k| index[k as usize]));
    }
    (first, sets)
}

/// For each of `keys`, the position of its first occurrence: a table of positions (open
/// addressing, at most half full, probed by the key's Fibonacci hash: the keys are object
/// addresses, or small numbers in tests), with no hashing library's per-entry work.
fn first_occurrences(keys: &[usize]) -> Vec<u32> {
    let bits = (2 * keys.len()).max(2).next_power_of_two().trailing_zeros();
    let mask = (1usize << bits) - 1;
    let mut table = vec![u32::MAX; mask + 1];
    keys.iter()
        .enumerate()
        .map(|(k, &key)| {
            let mut slot =
                ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
            loop {
                match table[slot] {
                    u32::MAX => {
                        table[slot] = k as u32;
                        return k as u32;
                    }
                    j if keys[j as usize] == key => return j,
                    _ => slot = (slot + 1) & mask,
                }
            }
        })
        .collect()
}

/// The chunked path: pairs grouped by first reference, [`CHUNK_PAIRS`] a chunk, each chunk
/// encoded and scored on its own ([`statistics_of_chunk`]).
fn chunked<M: Metric>(metric: &M, encoder: &Encoder, batch: &Collected<'_>) -> Result<BatchRows> {
    let (first, sets) = distinct_refs(batch);
    let ref_texts: Vec<&str> = first.iter().map(|&k| batch.refs[k as usize]).collect();
    let order = grouped_order(ref_texts.len(), &sets);
    let cancel = interrupt::current();
    let score = |pairs: &[u32]| -> Result<ChunkRows> {
        if interrupt::is_set(&cancel) {
            return Err(Error::Interrupted);
        }
        let hyp_texts: Vec<&str> = pairs.iter().map(|&i| batch.hyps[i as usize]).collect();
        let mut part = RefSets::new();
        for &i in pairs {
            part.push(sets.get(i as usize).iter().copied());
        }
        let run = || statistics_of_chunk(metric, encoder, &hyp_texts, &ref_texts, &part, pairs);
        match &cancel {
            Some(flag) => interrupt::with_flag(flag.clone(), run),
            None => run(),
        }
    };
    // One task a chunk: a thread that the system stops (a loaded machine) then holds one
    // chunk, never half the batch, which the others would wait for.
    let parts: Vec<Result<ChunkRows>> = if order.len() <= CHUNK_PAIRS {
        vec![score(&order)]
    } else {
        order
            .par_chunks(CHUNK_PAIRS)
            .with_max_len(1)
            .map(score)
            .collect()
    };
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    let parts = parts.into_iter().collect::<Result<Vec<ChunkRows>>>()?;
    // A refused pair: the lowest over the chunks, as one batch-wide check names it.
    if let Some(refusal) = parts
        .iter()
        .filter_map(|p| p.as_ref().err())
        .min_by_key(|r| r.pair)
    {
        return Err(refusal.error.clone());
    }
    let n = batch.len();
    let width = metric.width();
    // Pairs in input order (nothing shared, or shared in runs): each chunk's rows are a
    // block of the result, appended whole rather than row by row.
    let in_order = order.iter().enumerate().all(|(k, &i)| i as usize == k);
    let mut rows = if in_order {
        Vec::with_capacity(n * width)
    } else {
        vec![0.0; n * width]
    };
    let mut hyp_vanished = Vec::new();
    let mut ref_vanished = vec![false; ref_texts.len()];
    for (pairs, part) in order.chunks(CHUNK_PAIRS).zip(&parts) {
        let Ok((chunk_rows, vanished)) = part else {
            continue; // none: refusals returned above
        };
        if in_order {
            rows.extend_from_slice(chunk_rows);
        } else if width > 0 {
            for (&i, row) in pairs.iter().zip(chunk_rows.chunks_exact(width)) {
                let i = i as usize;
                rows[i * width..(i + 1) * width].copy_from_slice(row);
            }
        }
        for &t in vanished {
            match t.checked_sub(pairs.len()) {
                None => hyp_vanished.push(pairs[t] as usize),
                Some(r) => ref_vanished[r] = true,
            }
        }
    }
    hyp_vanished.sort_unstable();
    let ref_vanished = vanished_refs_in_order(batch, &first, &ref_vanished, &hyp_vanished);
    Ok(BatchRows {
        rows,
        hyp_vanished,
        ref_vanished,
    })
}

/// The places of the vanished distinct references (`vanished[r]`, `first[r]` their first
/// occurrence), each distinct text once where it first appeared, in the order the
/// batch-wide numbering gives them ([`Numbered::rows`]): a text that is also a hypothesis's
/// (which then vanished too) at that hypothesis's first place, then the others in order of
/// first appearance.
fn vanished_refs_in_order(
    batch: &Collected<'_>,
    first: &[u32],
    vanished: &[bool],
    hyp_vanished: &[usize],
) -> Vec<(usize, usize)> {
    if !vanished.contains(&true) {
        return Vec::new();
    }
    let mut first_hyp: FxHashMap<&str, usize> = FxHashMap::default();
    for &i in hyp_vanished {
        first_hyp.entry(batch.hyps[i]).or_insert(i);
    }
    let mut seen: FxHashMap<&str, ()> = FxHashMap::default();
    let mut keyed: Vec<((bool, usize), (usize, usize))> = Vec::new();
    for (r, &k) in first.iter().enumerate() {
        let text = batch.refs[k as usize];
        if !vanished[r] || seen.insert(text, ()).is_some() {
            continue;
        }
        let key = match first_hyp.get(text) {
            Some(&i) => (false, i),
            None => (true, r),
        };
        keyed.push((key, batch.origin[k as usize]));
    }
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, origin)| origin).collect()
}

/// A batch's distinct texts, numbered: hypotheses first, then references in order of first
/// appearance (equal texts once, however many places hold them).
#[derive(Debug, Clone)]
pub struct Numbered<'a> {
    /// The distinct texts in number order.
    pub texts: DistinctTexts<'a>,
    /// The text number of each hypothesis.
    pub hyp_ids: Vec<u32>,
    /// Per reference item, its texts' numbers.
    pub ref_sets: RefSets,
    /// Per text, where it first appeared as a reference (item, position), if it did.
    pub ref_origin: Vec<Option<(usize, usize)>>,
}

/// Hypotheses from which [`number`] hashes the texts on the pool (the numbering itself is
/// serial, in first-seen order).
const PARALLEL_HASHING: usize = 4096;

/// The batch's distinct texts, numbered (see [`Numbered`]); each reference object's text
/// is read once.
pub fn number<'a>(batch: &Collected<'a>) -> Numbered<'a> {
    let (first, sets) = distinct_refs(batch);
    let mut texts = DistinctTexts::with_capacity(batch.len() + first.len());
    let hash_all = |list: &[&str]| -> Vec<u64> {
        if list.len() >= PARALLEL_HASHING {
            DistinctTexts::hashes(list)
        } else {
            list.iter().map(|s| DistinctTexts::hash(s)).collect()
        }
    };
    let hyp_ids: Vec<u32> = batch
        .hyps
        .iter()
        .zip(hash_all(&batch.hyps))
        .map(|(s, h)| texts.intern_hashed(s, h).0)
        .collect();
    let mut ref_origin = vec![None; texts.len()];
    let ref_texts: Vec<&str> = first.iter().map(|&k| batch.refs[k as usize]).collect();
    let ids: Vec<u32> = ref_texts
        .iter()
        .zip(hash_all(&ref_texts))
        .zip(&first)
        .map(|((s, h), &k)| {
            let (id, new) = texts.intern_hashed(s, h);
            if new {
                ref_origin.push(None);
            }
            ref_origin[id as usize].get_or_insert(batch.origin[k as usize]);
            id
        })
        .collect();
    let mut ref_sets = RefSets::new();
    for i in 0..sets.len() {
        ref_sets.push(sets.get(i).iter().map(|&r| ids[r as usize]));
    }
    Numbered {
        texts,
        hyp_ids,
        ref_sets,
        ref_origin,
    }
}

impl Numbered<'_> {
    /// `rows` with the places of the texts `vanished` (text numbers).
    pub fn rows(&self, rows: Vec<f64>, vanished: &[usize]) -> BatchRows {
        let mut is_vanished = vec![false; self.texts.len()];
        vanished.iter().for_each(|&k| is_vanished[k] = true);
        let hyp_vanished = (0..self.hyp_ids.len())
            .filter(|&i| is_vanished[self.hyp_ids[i] as usize])
            .collect();
        let ref_vanished = vanished
            .iter()
            .filter_map(|&k| self.ref_origin[k])
            .collect();
        BatchRows {
            rows,
            hyp_vanished,
            ref_vanished,
        }
    }
}

/// A statistics row → one number (a matrix cell's score).
pub type CellFn<'a> = dyn Fn(&[f64]) -> f64 + Sync + 'a;

/// Every hypothesis of `batch` against every reference item (`symmetric`: the items are
/// the hypotheses themselves, each unordered pair scored once where the metric allows):
/// rows `[n, m, width]`, or one number per cell by `cell` when given.
pub fn matrix<M: Metric>(
    metric: &M,
    encoder: &Encoder,
    batch: &Collected<'_>,
    symmetric: bool,
    cell: Option<&CellFn<'_>>,
) -> Result<BatchRows> {
    let numbered = number(batch);
    let block = if symmetric {
        MatrixBlock::symmetric(numbered.hyp_ids.clone())
    } else {
        MatrixBlock {
            hyps: numbered.hyp_ids.clone(),
            cols: numbered.ref_sets.clone(),
            symmetric: false,
        }
    };
    let encoded = encoder.encode_texts(numbered.texts.as_slice());
    let docs = encoded.docs()?;
    let rows = match cell {
        Some(f) => scores_matrices(metric, &docs, std::slice::from_ref(&block), f)?,
        None => statistics_matrix(metric, &docs, &block)?,
    };
    Ok(numbered.rows(rows, &encoded.vanished))
}

/// What [`matrices`] gives: one row-major block of rows (or cell scores) per matrix, the
/// hypotheses whose text vanished as (block, i), the references as (block, column, member).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockRows {
    /// Per block, its rows `[n_b, m_b, width]` (or `[n_b, m_b]` of cell scores).
    pub rows: Vec<Vec<f64>>,
    /// Vanished hypotheses (block, i).
    pub hyp_vanished: Vec<(usize, usize)>,
    /// Vanished references (block, column j, member k).
    pub ref_vanished: Vec<(usize, usize, usize)>,
}

/// Many matrices in one call (one per source sentence in MBR decoding), every distinct text
/// of `texts` encoded once; `blocks` index into `texts`. `cell` as in [`matrix`].
pub fn matrices<M: Metric>(
    metric: &M,
    encoder: &Encoder,
    texts: &[&str],
    blocks: &[MatrixBlock],
    cell: Option<&CellFn<'_>>,
) -> Result<BlockRows> {
    let encoded = encoder.encode_texts(texts);
    let docs = encoded.docs()?;
    let scores = match cell {
        Some(f) => scores_matrices(metric, &docs, blocks, f)?,
        None => statistics_matrices(metric, &docs, blocks)?,
    };
    let width = match cell {
        Some(_) => 1,
        None => metric.width(),
    };
    let mut is_vanished = vec![false; texts.len()];
    encoded.vanished.iter().for_each(|&k| is_vanished[k] = true);
    let mut out = BlockRows::default();
    let mut rest = scores.as_slice();
    for (b, block) in blocks.iter().enumerate() {
        let (n, m) = (block.hyps.len(), block.cols.len());
        out.hyp_vanished.extend(
            (0..n)
                .filter(|&i| is_vanished[block.hyps[i] as usize])
                .map(|i| (b, i)),
        );
        for j in 0..m {
            for (k, &t) in block.cols.get(j).iter().enumerate() {
                if is_vanished[t as usize] {
                    out.ref_vanished.push((b, j, k));
                }
            }
        }
        let (head, tail) = rest.split_at(n * m * width);
        rest = tail;
        out.rows.push(head.to_vec());
    }
    Ok(out)
}

/// Reference aggregation: each hypothesis against the weighted mean of the samples' (the
/// reference items', each one text) statistics, by `rows` (texts, hypotheses, samples,
/// weights → rows); `weights` None: uniform. Only the rows are returned.
pub fn aggregate(
    encoder: &Encoder,
    batch: &Collected<'_>,
    weights: Option<Vec<f64>>,
    rows: impl Fn(&Docs<'_>, &[u32], &[u32], &[f64]) -> Vec<f64>,
) -> Result<Vec<f64>> {
    let m = batch.ref_sets.len();
    if m == 0 {
        return Err(Error::Input("samples is empty".into()));
    }
    if let Some(j) = (0..m).find(|&j| batch.ref_sets.get(j).len() != 1) {
        return Err(Error::Input(format!("samples[{j}] must be a str")));
    }
    let weights = match weights {
        None => vec![1.0 / m as f64; m],
        Some(w) if w.len() != m => {
            return Err(Error::Input(format!(
                "weights has {} values for {m} samples",
                w.len()
            )))
        }
        Some(w) => {
            if let Some(j) = w.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
                return Err(Error::Input(format!(
                    "weights[{j}] must be a finite probability >= 0 (got {})",
                    w[j]
                )));
            }
            w
        }
    };
    let numbered = number(batch);
    let sample_ids: Vec<u32> = (0..m).map(|j| numbered.ref_sets.get(j)[0]).collect();
    let encoded = encoder.encode_texts(numbered.texts.as_slice());
    Ok(rows(
        &encoded.docs()?,
        &numbered.hyp_ids,
        &sample_ids,
        &weights,
    ))
}

/// Rows from which [`row_scores`] scores on the pool.
const PARALLEL_ROWS: usize = 4096;

/// `score` of each row of `rows` (row-major, `width` each; sentence scores from statistics):
/// on the current pool for many rows (a batch's sentence BLEU is an exp and logs a row).
pub fn row_scores(rows: &[f64], width: usize, score: impl Fn(&[f64]) -> f64 + Sync) -> Vec<f64> {
    if width == 0 {
        return Vec::new();
    }
    if rows.len() / width < PARALLEL_ROWS {
        return rows.chunks_exact(width).map(score).collect();
    }
    rows.par_chunks_exact(width)
        .with_min_len(1024)
        .map(&score)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::BleuConfig;
    use crate::metrics::error_rate::ErrorRate;
    use crate::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
    use crate::text::tokenize::{Tokenizer, TokenizerKind};

    const WORDS: [&str; 10] = [
        "the",
        "The",
        "cat",
        "sat",
        "on",
        "a",
        "mat",
        "Übersetzung",
        "!",
        "x",
    ];

    /// A text batch of `n` pairs: references shared by `share` neighbours (one object, one
    /// key), equal texts under other keys, hypotheses that repeat, texts that vanish ("?!"),
    /// a vanished reference equal to a hypothesis, and (when shared) some items with two
    /// references; with `share` 1, every reference object distinct, one per pair.
    fn batch(texts: &mut Vec<String>, n: usize, share: usize) -> Collected<'_> {
        let mut state = 7u64;
        let mut next = move |m: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % m
        };
        let text = |next: &mut dyn FnMut(usize) -> usize| match next(15) {
            0 => "?! ...".to_string(),
            1 => String::new(),
            _ => (0..1 + next(12))
                .map(|_| WORDS[next(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" "),
        };
        texts.clear();
        let refs: Vec<String> = (0..n / share + 1).map(|_| text(&mut next)).collect();
        let hyps: Vec<String> = (0..n)
            .map(|i| {
                if i % 5 == 0 {
                    refs[i / share].clone()
                } else {
                    text(&mut next)
                }
            })
            .collect();
        texts.extend(hyps);
        texts.extend(refs);
        texts.push("the cat".into());
        texts.push("the cat".into()); // equal text, another key
        let texts: &[String] = texts;
        let mut out = Collected {
            hyps: texts[..n].iter().map(String::as_str).collect(),
            ..Collected::default()
        };
        for i in 0..n {
            let start = out.refs.len() as u32;
            let mut push = |k: usize, j: usize| {
                out.refs.push(texts[k].as_str());
                out.keys.push(k);
                out.origin.push((i, j));
            };
            push(n + i / share, 0);
            if share > 1 && i % 7 == 0 {
                push(texts.len() - 2 + (i / 7) % 2, 1);
            }
            out.ref_sets.push(start..out.refs.len() as u32);
        }
        out.bytes = out.hyps.iter().chain(&out.refs).map(|s| s.len()).sum();
        out
    }

    fn same<M: Metric>(metric: &M, encoder: Encoder) {
        for share in [3, 1] {
            same_for(metric, encoder, share);
        }
    }

    fn same_for<M: Metric>(metric: &M, encoder: Encoder, share: usize) {
        let mut store = Vec::new();
        let batch = batch(&mut store, 5 * CHUNK_PAIRS + 17, share);
        let wide = texts_batch_wide(&encoder, &batch, |d, h, r| {
            statistics_batch(metric, d, h, r)
        })
        .unwrap();
        assert!(!wide.hyp_vanished.is_empty() && wide.ref_vanished.len() >= 2);
        for threads in [1, 2, 3] {
            let by_chunks = crate::pool::run(Some(threads), || chunked(metric, &encoder, &batch))
                .unwrap()
                .unwrap();
            let bits = |r: &BatchRows| r.rows.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&by_chunks), bits(&wide), "{threads} threads");
            assert_eq!(by_chunks.hyp_vanished, wide.hyp_vanished);
            assert_eq!(by_chunks.ref_vanished, wide.ref_vanished);
            let chosen = crate::pool::run(Some(threads), || super::texts(metric, &encoder, &batch));
            assert_eq!(chosen.unwrap().unwrap(), wide);
        }
    }

    proptest::proptest! {
        #[test]
        fn first_occurrences_are_found(
            keys in proptest::collection::vec(0usize..40, 0..200),
            spread in proptest::prop_oneof![proptest::strategy::Just(1usize), 1usize..1 << 40],
        ) {
            // Keys from a small range (many repeats), scattered like addresses by `spread`.
            let keys: Vec<usize> = keys.iter().map(|&k| k.wrapping_mul(spread)).collect();
            let expected: Vec<u32> = keys
                .iter()
                .map(|key| keys.iter().position(|k| k == key).unwrap() as u32)
                .collect();
            proptest::prop_assert_eq!(first_occurrences(&keys), expected);
            let distinct: Vec<usize> = (0..keys.len()).map(|k| k * spread).collect();
            let all: Vec<u32> = (0..keys.len() as u32).collect();
            proptest::prop_assert_eq!(first_occurrences(&distinct), all);
        }
    }

    #[test]
    fn distinct_refs_number_objects_in_order_of_first_occurrence() {
        let mut batch = Collected::default();
        for (item, keys) in [vec![7], vec![3, 7], vec![3], vec![9, 1]]
            .iter()
            .enumerate()
        {
            batch.push_hyp("h");
            let texts = ["a", "b", "c", "d"];
            batch.push_ref_item(keys.iter().map(|&k| (texts[item], k)));
        }
        let (first, sets) = distinct_refs(&batch);
        assert_eq!(first, [0, 1, 4, 5]);
        let listed: Vec<&[u32]> = (0..sets.len()).map(|i| sets.get(i)).collect();
        assert_eq!(listed, [&[0][..], &[1, 0], &[1], &[2, 3]]);
        // Pairs grouped by first reference: already so here (0, 1, 1, 2) ...
        assert_eq!(grouped_order(first.len(), &sets), [0, 1, 2, 3]);
        let mut shared = RefSets::new();
        for r in [[1], [0], [1], [2]] {
            shared.push(r);
        }
        // ... or by a counting sort, stable.
        assert_eq!(grouped_order(3, &shared), [1, 0, 2, 3]);
    }

    #[test]
    fn chunked_and_batch_wide_give_the_same_rows_and_vanished_places() {
        let unicode = Encoder::plain(Tokenizer::new(TokenizerKind::Unicode, true));
        let variants = ["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4", "rouge2"];
        let variants = variants
            .iter()
            .map(|v| Variant::parse(v).unwrap())
            .collect();
        let rouge = RougeConfig::new(variants, 1.0, MultiRef::Max, false, Compat::Paper).unwrap();
        same(&rouge, unicode);
        let bleu = BleuConfig::new(4, "add1", None, "closest", true).unwrap();
        same(&bleu, unicode);
        same(&ErrorRate::Wer, unicode);
    }

    #[test]
    fn the_policy_follows_the_metric_and_the_batch() {
        let mut store = Vec::new();
        let large = batch(&mut store, CHUNKED_PAIRS, 3);
        let unicode = Encoder::plain(Tokenizer::new(TokenizerKind::Unicode, true));
        let stemmed = Encoder {
            stemmer: Some(crate::text::stem::Stemmer::Rouge155),
            ..unicode
        };
        let nist = crate::metrics::nist::Nist::new(5, true).unwrap();
        assert_eq!(
            text_path(&ErrorRate::Wer, &unicode, &large, 2),
            Path::Chunked
        );
        assert_eq!(
            text_path(&ErrorRate::Wer, &stemmed, &large, 2),
            Path::BatchWide
        );
        assert_eq!(text_path(&nist, &unicode, &large, 2), Path::BatchWide);
        let mut repeated = large.clone();
        repeated.hyps.iter_mut().for_each(|h| *h = "the same");
        assert_eq!(
            text_path(&ErrorRate::Wer, &unicode, &repeated, 2),
            Path::Chunked
        );
        assert_eq!(
            text_path(&ErrorRate::Wer, &unicode, &repeated, 1),
            Path::BatchWide
        );
        let mut misaligned = large.clone();
        misaligned.hyps.pop();
        assert!(super::texts(&ErrorRate::Wer, &unicode, &misaligned).is_err());
    }
}
