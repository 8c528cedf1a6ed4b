//! Text pairs encoded and scored chunk by chunk: a chunk's texts are tokenized and interned
//! with ids of its own, and its pairs scored right after, while those ids are still in cache.
//!
//! Why: [`Encoder::encode_texts`] builds one vocabulary for the whole batch, and the merge of
//! its chunk vocabularies runs on one thread; with two cores that serial merge and the
//! batch-sized tables cost more than the kernels of cheap metrics (ROUGE-L, BLEU, WER). A
//! metric whose rows see token ids only through their equality within a pair
//! ([`Metric::PAIR_LOCAL_IDS`]) gets bit-identical rows from chunk-local ids, with nothing
//! serial between reading the texts and the result. The price: a text used by pairs of two
//! chunks is tokenized twice, so callers keep the batch-wide path when texts repeat a lot.
//!
//! A metric that refuses pairs over a size limit ([`Metric::checks_pairs`]: ROUGE-W) checks
//! a chunk's pairs on the token counts of its encoding, before any of them is scored: no
//! second tokenization, and nothing at all for the configurations that check nothing.

use crate::metrics::metric::{with_scratch, Metric, Pair};
use crate::prefetch::prefetch_text;
use crate::text::docs::Docs;
use crate::text::encoder::{EncodedTexts, Encoder};
use crate::text::intern::Vocab;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use hashbrown::HashTable;
use rayon::prelude::*;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

/// A pair the metric refuses ([`Metric::check_batch_pair`]): its index in the batch, and the
/// refusal, which names it (`hyps[i]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The pair's index in the batch.
    pub pair: usize,
    /// Why it is refused (the message names the pair).
    pub error: Error,
}

/// What a chunk gives: its rows and the texts that vanished, or the refusal of its first
/// pair (by index in the batch) over the metric's limit, when no pair of it was scored.
pub type ChunkRows = std::result::Result<(Vec<f64>, Vec<usize>), Refusal>;

/// Pairs per chunk: fixed, so no row depends on the thread count; large enough that a
/// chunk's table pays for itself, small enough that its texts and ids stay in cache.
pub const CHUNK_PAIRS: usize = 256;

/// One thread's buffers, kept between chunks and between calls.
#[derive(Default)]
struct ChunkScratch {
    encoded: EncodedTexts,
    buf: String,
    spans: Vec<(u32, u32)>,
    /// Batch text index → chunk text index.
    local: FxHashMap<u32, u32>,
    /// Chunk text index → batch text index.
    origin: Vec<u32>,
    hyps: Vec<u32>,
    /// The chunk's reference sets, flattened; set `i` ends at `ref_ends[i]`.
    refs: Vec<u32>,
    ref_ends: Vec<usize>,
}

impl ChunkScratch {
    /// The chunk index of batch text `t`, numbering it (and noting its text) if new.
    fn local_index<'t>(
        &mut self,
        t: u32,
        text_of: impl Fn(u32) -> &'t str,
        chunk: &mut Vec<&'t str>,
    ) -> u32 {
        *self.local.entry(t).or_insert_with(|| {
            chunk.push(text_of(t));
            self.origin.push(t);
            self.origin.len() as u32 - 1
        })
    }

    /// Encodes the texts of the pairs `pairs` (indices into `hyps`; `names`: their indices
    /// in the caller's batch) and fills their rows, in that order, into `rows`; returns the
    /// batch indices of the chunk's texts that vanished in tokenization, or the refusal of
    /// the first pair the metric refuses (then nothing is scored).
    #[allow(clippy::too_many_arguments)]
    fn score<'t, M: Metric>(
        &mut self,
        metric: &M,
        context: &M::Context,
        encoder: &Encoder,
        text_of: impl Fn(u32) -> &'t str + Copy,
        hyps: &[u32],
        ref_sets: &RefSets,
        pairs: &[u32],
        names: &[u32],
        rows: &mut [f64],
        cancel: &Option<interrupt::Flag>,
    ) -> Result<std::result::Result<Vec<usize>, Refusal>> {
        let width = metric.width();
        self.local.clear();
        self.origin.clear();
        self.hyps.clear();
        self.refs.clear();
        self.ref_ends.clear();
        let mut chunk: Vec<&str> = Vec::with_capacity(2 * pairs.len());
        for &i in pairs {
            let h = self.local_index(hyps[i as usize], text_of, &mut chunk);
            self.hyps.push(h);
            for &r in ref_sets.get(i as usize) {
                let r = self.local_index(r, text_of, &mut chunk);
                self.refs.push(r);
            }
            self.ref_ends.push(self.refs.len());
        }
        // The thread's vocabulary is kept from chunk to chunk: only equality of ids counts here.
        encoder.encode_texts_into(
            &chunk,
            &mut self.encoded,
            &mut self.buf,
            &mut self.spans,
            Vocab::Warm,
        );
        let docs = self.encoded.docs()?;
        if metric.checks_pairs() {
            if let Some(refusal) = self.first_refusal(metric, &docs, names) {
                return Ok(Err(refusal));
            }
        }
        with_scratch(|scratch: &mut M::Scratch| {
            let mut start = 0;
            for (k, row) in rows.chunks_exact_mut(width).enumerate() {
                let end = self.ref_ends[k];
                if !interrupt::is_set(cancel) {
                    let pair = Pair::new(&docs, self.hyps[k], &self.refs[start..end]);
                    metric.pair_statistics(context, scratch, pair, row);
                }
                start = end;
            }
        });
        let origin = &self.origin;
        Ok(Ok(self
            .encoded
            .vanished
            .iter()
            .map(|&k| origin[k] as usize)
            .collect()))
    }

    /// The refusal of the chunk's pair of lowest batch index (`names`) that the metric
    /// refuses, from the token counts of the chunk's encoding (`docs`).
    fn first_refusal<M: Metric>(
        &self,
        metric: &M,
        docs: &Docs<'_>,
        names: &[u32],
    ) -> Option<Refusal> {
        let mut first: Option<Refusal> = None;
        let mut start = 0;
        for (k, &end) in self.ref_ends.iter().enumerate() {
            let i = names[k] as usize;
            if first.as_ref().is_none_or(|f| i < f.pair) {
                let pair = Pair::new(docs, self.hyps[k], &self.refs[start..end]);
                if let Err(error) = metric.check_batch_pair(pair, i) {
                    first = Some(Refusal { pair: i, error });
                }
            }
            start = end;
        }
        first
    }
}

/// Refuses a metric whose rows are not pair-local (chunk-local ids would change them).
fn check_pair_local<M: Metric>() -> Result<()> {
    if !M::PAIR_LOCAL_IDS {
        return Err(Error::Input(
            "this metric needs the batch-wide encoding (its rows are not pair-local)".into(),
        ));
    }
    Ok(())
}

/// Statistics rows of hypotheses `hyps[i]` against `ref_sets.get(i)` (indices into
/// `texts`), encoded by `encoder` chunk by chunk, and the sorted indices of the texts that
/// vanished in tokenization: the rows [`crate::metrics::metric::statistics_batch`] gives
/// over [`Encoder::encode_texts`]`(texts)`, bit for bit, for a metric with
/// [`Metric::PAIR_LOCAL_IDS`] (an `Error::Input` for any other). A pair the metric refuses
/// is refused as that function refuses it: the one of lowest index, named `hyps[i]`.
pub fn statistics_of_texts<M: Metric, S: AsRef<str> + Sync>(
    metric: &M,
    encoder: &Encoder,
    texts: &[S],
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<(Vec<f64>, Vec<usize>)> {
    check_pair_local::<M>()?;
    ref_sets.check(hyps.len())?;
    let out_of_range = |&t: &u32| t as usize >= texts.len();
    if hyps.iter().any(out_of_range)
        || (0..hyps.len()).any(|i| ref_sets.get(i).iter().any(out_of_range))
    {
        return Err(Error::Input("text index out of range".into()));
    }
    let width = metric.width();
    let mut rows = vec![0.0; hyps.len() * width];
    if width == 0 {
        return Ok((rows, Vec::new()));
    }
    // Pair-local metrics read nothing from the batch (the trait's contract for the flag).
    let context = M::Context::default();
    let cancel = interrupt::current();
    let order = grouped_order(texts.len(), ref_sets);
    let score_chunk = |pairs: &[u32]| {
        let mut chunk_rows = vec![0.0; pairs.len() * width];
        let vanished = with_scratch(|s: &mut ChunkScratch| {
            s.score(
                metric,
                &context,
                encoder,
                |t| texts[t as usize].as_ref(),
                hyps,
                ref_sets,
                pairs,
                pairs,
                &mut chunk_rows,
                &cancel,
            )
        });
        (chunk_rows, vanished)
    };
    type Chunk = (Vec<f64>, Result<std::result::Result<Vec<usize>, Refusal>>);
    let chunks: Vec<Chunk> = if order.len() <= CHUNK_PAIRS {
        vec![score_chunk(&order)]
    } else {
        order.par_chunks(CHUNK_PAIRS).map(score_chunk).collect()
    };
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    let mut scored = Vec::with_capacity(chunks.len());
    for (rows, chunk) in chunks {
        scored.push((rows, chunk?));
    }
    if let Some(refusal) = scored
        .iter()
        .filter_map(|(_, chunk)| chunk.as_ref().err())
        .min_by_key(|r| r.pair)
    {
        return Err(refusal.error.clone());
    }
    let mut vanished = Vec::new();
    for (pairs, (chunk_rows, chunk_vanished)) in order.chunks(CHUNK_PAIRS).zip(scored) {
        vanished.extend(chunk_vanished.unwrap_or_default());
        for (&i, row) in pairs.iter().zip(chunk_rows.chunks_exact(width)) {
            let i = i as usize;
            rows[i * width..(i + 1) * width].copy_from_slice(row);
        }
    }
    vanished.sort_unstable();
    vanished.dedup();
    Ok((rows, vanished))
}

/// Rows of one chunk of pairs: hypothesis `hyp_texts[i]` against the texts
/// `ref_texts[ref_sets.get(i)]`, encoded together (equal hypotheses once) and scored on the
/// calling thread, with the texts that vanished in tokenization: hypotheses by position `i`,
/// references by `hyp_texts.len() + id`, sorted. The rows [`statistics_of_texts`] gives
/// these pairs within any batch, bit for bit (for a metric with pair-local ids; an
/// `Error::Input` for any other): a caller that reads its pairs chunk by chunk (in
/// [`grouped_order`], so a shared reference is encoded once) scores each as it is read.
/// `names[i]` is pair i's index in the caller's batch: a pair the metric refuses is named
/// by it, and the refusal of the lowest is returned in place of the rows (the caller keeps
/// the lowest over its chunks).
pub fn statistics_of_chunk<M: Metric, S: AsRef<str>>(
    metric: &M,
    encoder: &Encoder,
    hyp_texts: &[&str],
    ref_texts: &[S],
    ref_sets: &RefSets,
    names: &[u32],
) -> Result<ChunkRows> {
    check_pair_local::<M>()?;
    let n = hyp_texts.len();
    ref_sets.check(n)?;
    if names.len() != n {
        return Err(Error::Input(format!(
            "{} pair names for {n} pairs",
            names.len()
        )));
    }
    if (0..n).any(|i| {
        ref_sets
            .get(i)
            .iter()
            .any(|&r| r as usize >= ref_texts.len())
    }) {
        return Err(Error::Input("text index out of range".into()));
    }
    let width = metric.width();
    let mut rows = vec![0.0; n * width];
    if width == 0 || n == 0 {
        return Ok(Ok((rows, Vec::new())));
    }
    // Equal hypotheses (systems that agree on a segment) are encoded once: each is the
    // text of its first occurrence, numbered after the references (whose sets are then
    // used as they are).
    let n_refs = ref_texts.len() as u32;
    let mut first: HashTable<u32> = HashTable::with_capacity(n);
    let hyps: Vec<u32> = (0..n)
        .map(|i| {
            // This is the chunk's first look at its hypotheses' texts, scattered in memory.
            if let Some(ahead) = hyp_texts.get(i + PREFETCH_HYPS) {
                prefetch_text(ahead);
            }
            let text = hyp_texts[i];
            let same = |&j: &u32| hyp_texts[j as usize] == text;
            let rehash = |&j: &u32| head_hash(hyp_texts[j as usize]);
            n_refs
                + *first
                    .entry(head_hash(text), same, rehash)
                    .or_insert(i as u32)
                    .get()
        })
        .collect();
    let text_of = |t: u32| match t.checked_sub(n_refs) {
        None => ref_texts[t as usize].as_ref(),
        Some(k) => hyp_texts[k as usize],
    };
    let pairs: Vec<u32> = (0..n as u32).collect();
    let context = M::Context::default();
    let cancel = interrupt::current();
    let vanished = with_scratch(|s: &mut ChunkScratch| {
        s.score(
            metric, &context, encoder, text_of, &hyps, ref_sets, &pairs, names, &mut rows, &cancel,
        )
    })?;
    let vanished = match vanished {
        Ok(vanished) => vanished,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    // A vanished hypothesis text stands for every position that has it.
    let mut is_vanished = vec![false; n];
    let mut out: Vec<usize> = Vec::with_capacity(vanished.len());
    for t in vanished {
        match t.checked_sub(n_refs as usize) {
            None => out.push(n + t),
            Some(k) => is_vanished[k] = true,
        }
    }
    out.extend((0..n).filter(|&i| is_vanished[(hyps[i] - n_refs) as usize]));
    out.sort_unstable();
    out.dedup();
    Ok(Ok((rows, out)))
}

/// How many hypotheses ahead [`statistics_of_chunk`] asks for a text's first bytes.
const PREFETCH_HYPS: usize = 8;

/// A hash of a text's length and first 16 bytes: distinct hypotheses almost always differ
/// there, and the rest of a text is then read once, by the tokenizer, not twice (equal
/// hashes are compared whole).
fn head_hash(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let head = &bytes[..bytes.len().min(16)];
    FxBuildHasher.hash_one((bytes.len(), head))
}

/// Pair indices grouped by their first reference, in input order within a group (a
/// counting sort): the pairs that share a reference (the systems of one segment) fall into
/// the same chunk, so it is tokenized once rather than once per chunk. Chunks are then
/// fixed by the input alone, never by the thread count.
pub fn grouped_order(n_texts: usize, ref_sets: &RefSets) -> Vec<u32> {
    let key = |i: usize| ref_sets.get(i).first().map_or(0, |&r| r as usize);
    if (1..ref_sets.len()).all(|i| key(i - 1) <= key(i)) {
        // Already grouped (each pair's own reference, or shared ones in runs): the sort
        // would keep the input order.
        return (0..ref_sets.len() as u32).collect();
    }
    let mut starts = vec![0u32; n_texts + 1];
    for i in 0..ref_sets.len() {
        starts[key(i) + 1] += 1;
    }
    for t in 0..n_texts {
        starts[t + 1] += starts[t];
    }
    let mut order = vec![0u32; ref_sets.len()];
    for i in 0..ref_sets.len() {
        let slot = &mut starts[key(i)];
        order[*slot as usize] = i as u32;
        *slot += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::BleuConfig;
    use crate::metrics::chrf::ChrfConfig;
    use crate::metrics::error_rate::ErrorRate;
    use crate::metrics::metric::statistics_batch;
    use crate::metrics::ribes::RibesConfig;
    use crate::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
    use crate::metrics::ter::TerConfig;
    use crate::text::stem::Stemmer;
    use crate::text::tokenize::{Tokenizer, TokenizerKind};

    /// Texts from a small vocabulary (so words and whole texts repeat across chunks), with
    /// capitals, long words, non-ASCII words, lines, and texts that vanish or are empty.
    fn corpus(seed: u64, n: usize) -> Vec<String> {
        const WORDS: [&str; 16] = [
            "the",
            "The",
            "cat",
            "sat",
            "on",
            "a",
            "mat",
            "running",
            "international",
            "Übersetzung",
            "ran",
            "!",
            "dogs",
            "went",
            "x",
            "cats",
        ];
        let mut state = seed;
        let mut next = move |m: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % m
        };
        (0..n)
            .map(|_| match next(20) {
                0 => String::new(),
                1 => "?! ...".to_string(),
                _ => {
                    let len = 1 + next(25);
                    let mut t = String::new();
                    for k in 0..len {
                        t.push_str(WORDS[next(WORDS.len())]);
                        t.push(if k % 7 == 6 { '\n' } else { ' ' });
                    }
                    t
                }
            })
            .collect()
    }

    /// Pairs whose texts repeat within and across chunks, with 1–3 references each.
    fn batch(n_texts: usize, n_pairs: usize) -> (Vec<u32>, RefSets) {
        let hyps: Vec<u32> = (0..n_pairs).map(|i| ((i * 7) % n_texts) as u32).collect();
        let mut sets = RefSets::new();
        for i in 0..n_pairs {
            let k = 1 + i % 3;
            sets.push((0..k).map(|j| ((i * 13 + j * 101 + 5) % n_texts) as u32));
        }
        (hyps, sets)
    }

    /// Checks the rows and vanished texts; returns how many texts vanished.
    fn same_as_batch_wide<M: Metric>(metric: &M, encoder: Encoder) -> usize {
        let texts = corpus(7, 900);
        let (hyps, sets) = batch(texts.len(), 3 * CHUNK_PAIRS + 41);
        let encoded = encoder.encode_texts(&texts);
        let expected = statistics_batch(metric, &encoded.docs().unwrap(), &hyps, &sets).unwrap();
        let mut vanished_used: Vec<usize> = encoded.vanished.clone();
        let used: std::collections::HashSet<u32> = hyps
            .iter()
            .chain((0..hyps.len()).flat_map(|i| sets.get(i)))
            .copied()
            .collect();
        vanished_used.retain(|&t| used.contains(&(t as u32)));
        for threads in [1, 3] {
            let (rows, vanished) = crate::pool::run(Some(threads), || {
                statistics_of_texts(metric, &encoder, &texts, &hyps, &sets)
            })
            .unwrap()
            .unwrap();
            assert_eq!(rows.len(), expected.len());
            let same = rows
                .iter()
                .zip(&expected)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "rows differ with {threads} threads");
            assert_eq!(vanished, vanished_used);
        }
        same_by_chunks(
            metric,
            &encoder,
            &texts,
            &hyps,
            &sets,
            &expected,
            &encoded.vanished,
        );
        vanished_used.len()
    }

    /// [`statistics_of_chunk`] over the chunks of [`grouped_order`] gives the rows
    /// `expected`, and its vanished positions are those of the batch-wide `vanished` texts.
    fn same_by_chunks<M: Metric>(
        metric: &M,
        encoder: &Encoder,
        texts: &[String],
        hyps: &[u32],
        sets: &RefSets,
        expected: &[f64],
        vanished: &[usize],
    ) {
        let width = metric.width();
        let order = grouped_order(texts.len(), sets);
        let mut seen = vec![false; hyps.len()];
        for pairs in order.chunks(CHUNK_PAIRS) {
            let hyp_texts: Vec<&str> = pairs
                .iter()
                .map(|&i| texts[hyps[i as usize] as usize].as_str())
                .collect();
            let mut part = RefSets::new();
            pairs
                .iter()
                .for_each(|&i| part.push(sets.get(i as usize).iter().copied()));
            let (rows, gone) =
                statistics_of_chunk(metric, encoder, &hyp_texts, texts, &part, pairs)
                    .unwrap()
                    .unwrap();
            let n = pairs.len();
            for (k, &i) in pairs.iter().enumerate() {
                let i = i as usize;
                seen[i] = true;
                let same = rows[k * width..(k + 1) * width]
                    .iter()
                    .zip(&expected[i * width..(i + 1) * width])
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "pair {i} differs by chunks");
            }
            let mut want: Vec<usize> = (0..n)
                .filter(|&k| vanished.contains(&(hyps[pairs[k] as usize] as usize)))
                .collect();
            let mut refs: Vec<usize> = pairs
                .iter()
                .flat_map(|&i| sets.get(i as usize).iter().map(|&r| r as usize))
                .filter(|r| vanished.contains(r))
                .map(|r| n + r)
                .collect();
            refs.sort_unstable();
            refs.dedup();
            want.extend(refs);
            assert_eq!(gone, want);
        }
        assert!(seen.iter().all(|&s| s), "every pair is in one chunk");
    }

    fn unicode() -> Encoder {
        Encoder::plain(Tokenizer::new(TokenizerKind::Unicode, true))
    }

    #[test]
    fn rouge_rows_are_bit_identical_to_the_batch_wide_encoding() {
        let names = [
            "rouge1",
            "rouge2",
            "rougeL",
            "rougeW-1.2",
            "rougeS4",
            "rougeSU*",
        ];
        let variants: Vec<Variant> = names.iter().map(|v| Variant::parse(v).unwrap()).collect();
        for (multi_ref, jackknife, compat) in [
            (MultiRef::Max, false, Compat::Paper),
            (MultiRef::Average, true, Compat::Rouge155),
            (MultiRef::Best, false, Compat::Rouge155),
        ] {
            let cfg =
                RougeConfig::new(variants.clone(), 1.0, multi_ref, jackknife, compat).unwrap();
            assert!(same_as_batch_wide(&cfg, unicode()) > 0, "some texts vanish");
            let stemmed = Encoder {
                stemmer: Some(Stemmer::Rouge155),
                ..unicode()
            };
            same_as_batch_wide(&cfg, stemmed);
        }
        let lsum = RougeConfig::new(
            vec![Variant::parse("rougeLsum").unwrap()],
            1.0,
            MultiRef::Max,
            false,
            Compat::Paper,
        )
        .unwrap();
        let by_lines = Encoder {
            lines: true,
            ..unicode()
        };
        same_as_batch_wide(&lsum, by_lines);
    }

    #[test]
    fn other_pair_local_metrics_are_bit_identical_too() {
        let bleu = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
        same_as_batch_wide(
            &bleu,
            Encoder::plain(Tokenizer::new(TokenizerKind::Whitespace, false)),
        );
        same_as_batch_wide(&bleu, unicode());
        let chrf = ChrfConfig::new(6, 2, 2.0, false, false).unwrap();
        same_as_batch_wide(
            &chrf,
            Encoder::plain(Tokenizer::new(TokenizerKind::Codepoint, true)),
        );
        same_as_batch_wide(&ErrorRate::Wer, unicode());
        same_as_batch_wide(&ErrorRate::Per, unicode());
        same_as_batch_wide(
            &TerConfig { ops: true },
            Encoder::plain(Tokenizer::new(TokenizerKind::Split, true)),
        );
        same_as_batch_wide(&RibesConfig::new(0.25, 0.10).unwrap(), unicode());
    }

    #[test]
    fn refuses_metrics_that_need_the_batch_and_bad_input() {
        let texts = ["a b", "a c"];
        let mut sets = RefSets::new();
        sets.push([1]);
        let nist = crate::metrics::nist::Nist::new(5, true).unwrap();
        assert!(statistics_of_texts(&nist, &unicode(), &texts, &[0], &sets).is_err());
        let mut bad = RefSets::new();
        bad.push([7]);
        assert!(statistics_of_texts(&ErrorRate::Wer, &unicode(), &texts, &[0], &bad).is_err());
        assert!(statistics_of_texts(&ErrorRate::Wer, &unicode(), &texts, &[0, 1], &sets).is_err());
    }
}
