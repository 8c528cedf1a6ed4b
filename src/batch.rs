//! The batch work every native metric shares (`score_texts`, `score_tokens`, matrices),
//! written once: text or token input → ids → the metric's kernel → a NumPy array. The Python
//! methods that call it are `NativeMetric`'s ([`crate::methods`]).

use crate::convert::{
    as_str, hyp_text_of, items, matrix_items, one_pair_items, pair_texts, read_token_batch,
    text_batch_items, to_array, RefTexts, TextBatch, TextItems, PREFETCH_OBJECTS,
};
use crate::enter::{enter, enter_streamed, is_small, INLINE_BYTES};
use crate::errors::input_err;
use crate::errors::to_py;
use mtalign_core::metrics::chunked::{
    grouped_order, statistics_of_chunk, statistics_of_texts, ChunkRows, CHUNK_PAIRS,
};
use mtalign_core::metrics::matrix::{
    scores_matrices, statistics_matrices, statistics_matrix, MatrixBlock, MATRIX_INLINE_CELLS,
};
use mtalign_core::metrics::metric::{statistics_batch, statistics_of_pair, with_scratch, Metric};
use mtalign_core::prefetch::prefetch;
use mtalign_core::text::docs::Docs;
use mtalign_core::text::encoder::{EncodedTexts, Encoder, RefMemo};
use mtalign_core::text::intern::{StrTable, Vocab};
use mtalign_core::text::refs::RefSets;
use mtalign_core::{pool, Error};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rustc_hash::FxHashMap;

/// What a batch returns: scores (n, variants, 3), vanished hypothesis indices, vanished
/// references as (i, j) positions.
pub(crate) type BatchOut<'py> = (Bound<'py, PyAny>, Vec<usize>, Vec<(usize, usize)>);

/// A native metric: how it encodes text, and the core [`Metric`] that scores the ids. Its
/// `score_texts` / `score_tokens` / `score_one` methods are written once, by
/// `NativeMetric` ([`crate::methods`]).
pub(crate) trait BatchScorer: Sync {
    type Core: Metric;
    fn encoder(&self) -> Encoder;
    /// The shape of one hypothesis's row (`[]` for one number).
    fn shape(&self) -> Vec<usize>;
    fn core(&self) -> &Self::Core;
    /// The one number of scalar `k` (as Python's `scalar_names`) from a statistics row, when
    /// it is computed natively the same way Python computes it (matrices then return
    /// numbers, not rows). `None`: matrices return rows.
    fn cell_score(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }
    /// Scalar `k` against a reference set from the rows against each member alone
    /// (contiguous, `width` each), bit-identical to scoring the set, where the statistics
    /// allow it (ORANGE's leave-one-out sets are then built from single-reference rows).
    fn combine_single(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }
    /// Whether each pair's statistics are independent of the rest of the batch (the core
    /// metric needs no batch context, or needs none in this configuration).
    fn pairs_independent(&self) -> bool {
        !<Self::Core as Metric>::NEEDS_CONTEXT
    }
    /// What the one-pair call (`score_one`) returns in place of the row: the row itself (a
    /// list of floats) unless the metric's Python result is made from other figures of it,
    /// which then cost no second call (BLEU: its corpus figures).
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        Ok(row.into_pyobject(py)?.into_any())
    }
    /// The one-pair call keeps this thread's vocabulary between calls when the metric sees
    /// ids only through their equality (its words are then mostly found, not inserted).
    fn one_pair_vocab(&self) -> Vocab {
        if <Self::Core as Metric>::PAIR_LOCAL_IDS {
            Vocab::Warm
        } else {
            Vocab::Fresh
        }
    }
}

/// The batch kernel of a native metric: its core's rows by the one batch runner (the
/// one-pair call, `score_one_pair`, is the same runner's batch of one).
pub(crate) fn kernel<M: Metric>(metric: &M) -> impl BatchKernel + '_ {
    |docs: &Docs<'_>, hyps: &[u32], refs: &RefSets| statistics_batch(metric, docs, hyps, refs)
}

/// A statistics row → one number.
pub(crate) type CellScore<'a> = Box<dyn Fn(&[f64]) -> f64 + Sync + 'a>;

/// A batch kernel: texts, the text index of each hypothesis, their reference sets →
/// row-major statistics.
pub(crate) trait BatchKernel:
    Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync
{
}
impl<F: Fn(&Docs<'_>, &[u32], &RefSets) -> Result<Vec<f64>, Error> + Sync> BatchKernel for F {}

/// Rows and the indices of the texts that vanished in tokenization.
pub(crate) type RowsAndVanished = Result<(Vec<f64>, Vec<usize>), Error>;

/// Texts encoded and scored chunk by chunk (see `mtalign_core::metrics::chunked`): the
/// texts, the text index of each hypothesis, their reference sets → rows and vanished texts.
pub(crate) type ChunkedKernel<'a> =
    dyn Fn(&Encoder, &[&str], &[u32], &RefSets) -> RowsAndVanished + Sync + 'a;

/// One chunk's hypothesis texts, the batch's reference texts, the chunk's reference sets
/// (indices into them) and the pairs' indices in the batch → rows and vanished texts, or the
/// refusal of the chunk's first pair over the metric's limit (see
/// `mtalign_core::metrics::chunked::statistics_of_chunk`).
pub(crate) type ChunkKernel<'a> =
    dyn Fn(&Encoder, &[&str], &[&str], &RefSets, &[u32]) -> Result<ChunkRows, Error> + Sync + 'a;

/// The chunk-by-chunk kernels of a metric whose rows are pair-local: over a batch's
/// distinct texts, and over one chunk's texts as they are read.
pub(crate) struct Chunked<'a> {
    texts: Box<ChunkedKernel<'a>>,
    chunk: Box<ChunkKernel<'a>>,
}

/// The chunk-by-chunk kernels of `metric`, when its rows are pair-local (a chunk checks its
/// pairs, if the metric checks any, on the token counts of its own encoding).
pub(crate) fn chunked_kernel<M: Metric>(metric: &M) -> Option<Chunked<'_>> {
    M::PAIR_LOCAL_IDS.then(|| Chunked {
        texts: Box::new(
            move |encoder: &Encoder, texts: &[&str], hyps: &[u32], refs: &RefSets| {
                statistics_of_texts(metric, encoder, texts, hyps, refs)
            },
        ),
        chunk: Box::new(
            move |encoder: &Encoder,
                  hyps: &[&str],
                  ref_texts: &[&str],
                  refs: &RefSets,
                  names: &[u32]| {
                statistics_of_chunk(metric, encoder, hyps, ref_texts, refs, names)
            },
        ),
    })
}

/// Whether a batch is encoded chunk by chunk rather than with one batch-wide vocabulary:
/// when the metric allows it, no stemmer runs (it stems each distinct token once, and
/// chunks would repeat that work) and hypotheses hardly repeat (at least 3 in 4 distinct: a
/// text is tokenized again in every chunk that uses it; pairs that share a reference are
/// put in one chunk, so shared references are not a reason to stay batch-wide).
fn encode_by_chunks(encoder: &Encoder, batch: &TextBatch) -> bool {
    if encoder.stemmer.is_some() {
        return false;
    }
    let mut seen = vec![false; batch.texts.len()];
    let distinct = batch
        .hyp_ids
        .iter()
        .filter(|&&h| !std::mem::replace(&mut seen[h as usize], true))
        .count();
    4 * distinct >= 3 * batch.hyp_ids.len()
}

/// Text input → (scores shaped `[n, *shape]`, vanished hypotheses, vanished references).
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_text_batch<'py>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
    chunked: Option<&Chunked>,
) -> PyResult<BatchOut<'py>> {
    let items = text_batch_items(hyps, refs)?;
    if let Some(chunked) = chunked.filter(|_| streams(&encoder, items.len(), threads)) {
        return score_text_stream(py, &encoder, &items, threads, shape, &chunked.chunk);
    }
    let batch = items.read_on(Some(threads))?;
    let small = is_small(batch.hyp_ids.len(), batch.texts.bytes());
    let chunked = chunked.filter(|_| encode_by_chunks(&encoder, &batch));
    let (scores, vanished) = enter(py, threads, small, || {
        let texts = batch.texts.as_slice();
        if let Some(chunked) = chunked {
            return (chunked.texts)(&encoder, texts, &batch.hyp_ids, &batch.ref_sets);
        }
        let encoded = encoder.encode_texts(texts);
        let scores = kernel(&encoded.docs()?, &batch.hyp_ids, &batch.ref_sets)?;
        Ok((scores, encoded.vanished))
    })?;
    finish_text_batch(py, &batch, scores, vanished, shape)
}

/// Pairs from which a text batch is read while it is scored ([`score_text_stream`]).
const STREAM_PAIRS: usize = 4 * CHUNK_PAIRS;

/// Whether a text batch of `pairs` pairs is scored chunk by chunk as its hypotheses are
/// read ([`score_text_stream`]): when more than one thread scores and no stemmer runs (one
/// batch-wide encoding stems each distinct word once; chunks would stem it again). The
/// caller's metric must have pair-local rows ([`chunked_kernel`]).
fn streams(encoder: &Encoder, pairs: usize, threads: Option<usize>) -> bool {
    encoder.stemmer.is_none()
        && pairs >= STREAM_PAIRS
        && matches!(pool::check_threads(threads), Ok(n) if n > 1)
}

/// A text batch scored while it is read: the references first (each distinct text once),
/// then the hypotheses chunk by chunk, in the chunks' order ([`grouped_order`]: pairs that
/// share a reference together), each chunk scored on the pool as soon as its hypotheses are
/// read. Reading Python's objects needs the GIL, so it is one thread's work; read whole
/// before the scoring, it was a quarter of a two-thread ROUGE-L batch. Rows and vanished
/// texts are those of [`TextItems::read`]'s batch: equal hypotheses within a chunk are
/// encoded once (the systems of one segment), and across chunks they are not numbered at
/// all (scoring them twice costs less than numbering every hypothesis first).
fn score_text_stream<'py>(
    py: Python<'py>,
    encoder: &Encoder,
    items: &TextItems<'py>,
    threads: Option<usize>,
    shape: &[usize],
    chunk: &ChunkKernel,
) -> PyResult<BatchOut<'py>> {
    // A batch read in order refuses its first bad hypothesis before any reference.
    let refs = items
        .read_refs_first()
        .map_err(|e| items.first_bad_hyp_before(items.len()).unwrap_or(e))?;
    let ref_texts = refs.texts.as_slice();
    let order = grouped_order(ref_texts.len(), &refs.sets);
    let objects = items.hyp_objects();
    let mut start = 0;
    let next = || -> PyResult<Option<(&[u32], Vec<&str>)>> {
        if start == order.len() {
            return Ok(None);
        }
        let end = (start + CHUNK_PAIRS).min(order.len());
        let pairs = &order[start..end];
        let mut texts = Vec::with_capacity(pairs.len());
        for (k, &i) in pairs.iter().enumerate() {
            // In this order the objects are read at random places: their places in
            // `objects`, then their headers, are asked for ahead of time.
            if let Some(&far) = order.get(start + k + 2 * PREFETCH_OBJECTS) {
                prefetch(objects.as_ptr().wrapping_add(far as usize));
            }
            if let Some(&ahead) = order.get(start + k + PREFETCH_OBJECTS) {
                prefetch(objects[ahead as usize].as_ptr());
            }
            match hyp_text_of(objects[i as usize], i as usize) {
                Ok(text) => texts.push(text),
                Err(e) => return Err(items.first_bad_hyp_before(i as usize).unwrap_or(e)),
            }
        }
        start = end;
        Ok(Some((pairs, texts)))
    };
    let parts = enter_streamed(py, threads, next, |(pairs, hyp_texts)| {
        let mut sets = RefSets::new();
        for &i in pairs {
            sets.push(refs.sets.get(i as usize).iter().copied());
        }
        Ok((pairs, chunk(encoder, &hyp_texts, ref_texts, &sets, pairs)?))
    })?;
    // A refused pair: the lowest refused over the chunks, as one batch-wide check names it.
    let refused = parts.iter().filter_map(|(_, part)| part.as_ref().err());
    if let Some(refusal) = refused.min_by_key(|r| r.pair) {
        return Err(to_py(refusal.error.clone()));
    }
    let n = items.len();
    let width: usize = shape.iter().product();
    let mut scores = vec![0.0; n * width];
    let mut hyp_vanished = Vec::new();
    let mut ref_vanished = vec![false; ref_texts.len()];
    for (pairs, part) in &parts {
        let Ok((rows, vanished)) = part else {
            continue; // none: refusals returned above
        };
        for (&i, row) in pairs.iter().zip(rows.chunks_exact(width.max(1))) {
            let i = i as usize;
            scores[i * width..(i + 1) * width].copy_from_slice(&row[..width]);
        }
        for &t in vanished {
            match t.checked_sub(pairs.len()) {
                None => hyp_vanished.push(pairs[t] as usize),
                Some(r) => ref_vanished[r] = true,
            }
        }
    }
    hyp_vanished.sort_unstable();
    let ref_vanished = vanished_refs_in_order(items, &refs, &ref_vanished, &hyp_vanished)?;
    Ok((to_array(py, scores, n, shape)?, hyp_vanished, ref_vanished))
}

/// The places of the vanished reference texts (`vanished[r]`), each where it first appeared,
/// in the order [`finish_text_batch`] gives them: by the batch's text numbers, which number
/// the hypotheses' texts first (so a reference text that is also a hypothesis, which then
/// vanished too, comes at its first hypothesis), then the references' in order of first
/// appearance.
fn vanished_refs_in_order(
    items: &TextItems<'_>,
    refs: &RefTexts<'_>,
    vanished: &[bool],
    hyp_vanished: &[usize],
) -> PyResult<Vec<(usize, usize)>> {
    if !vanished.contains(&true) {
        return Ok(Vec::new());
    }
    let mut first_hyp: FxHashMap<&str, usize> = FxHashMap::default();
    for &i in hyp_vanished {
        first_hyp.entry(items.hyp_text(i)?).or_insert(i);
    }
    let texts = refs.texts.as_slice();
    let mut keyed: Vec<((bool, usize), (usize, usize))> = (0..texts.len())
        .filter(|&r| vanished[r])
        .map(|r| match first_hyp.get(texts[r]) {
            Some(&i) => ((false, i), refs.origin[r]),
            None => ((true, r), refs.origin[r]),
        })
        .collect();
    keyed.sort_unstable();
    Ok(keyed.into_iter().map(|(_, origin)| origin).collect())
}

/// Every hypothesis against every pseudo-reference (`refs[j]`: a str or a list of str used
/// together; `None`: the hypotheses themselves, symmetric): scores shaped `[n, m, *shape]`,
/// vanished hypotheses `i`, vanished references `(j, k)`. Each distinct text is encoded
/// once; the n·m pairs never exist, as Python objects or as a pair list.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_text_matrix<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
    shape: &[usize],
    metric: &M,
    cell: Option<CellScore<'_>>,
) -> PyResult<BatchOut<'py>> {
    let items = matrix_items(hyps, refs.unwrap_or(hyps))?;
    let batch = items.read()?;
    let (n, m) = (batch.hyp_ids.len(), batch.ref_sets.len());
    let block = if refs.is_none() {
        MatrixBlock::symmetric(batch.hyp_ids.clone())
    } else {
        MatrixBlock {
            hyps: batch.hyp_ids.clone(),
            cols: batch.ref_sets.clone(),
            symmetric: false,
        }
    };
    let small = is_small_matrix(n * m, batch.texts.bytes());
    let (scores, vanished) = enter(py, threads, small, || {
        let encoded = encoder.encode_texts(batch.texts.as_slice());
        let docs = encoded.docs()?;
        let scores = match &cell {
            Some(f) => scores_matrices(metric, &docs, std::slice::from_ref(&block), f)?,
            None => statistics_matrix(metric, &docs, &block)?,
        };
        Ok((scores, encoded.vanished))
    })?;
    let mut matrix_shape = vec![m];
    if cell.is_none() {
        matrix_shape.extend_from_slice(shape);
    }
    finish_text_batch(py, &batch, scores, vanished, &matrix_shape)
}

/// Reference aggregation: hypotheses (texts) against the weighted mean of the samples'
/// statistics (`weights`: probabilities, one per sample; None = uniform), by `rows` (the
/// metric's `aggregate_rows`): statistics shaped `[n, width]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_text_aggregate<'py>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    samples: &Bound<'py, PyAny>,
    weights: Option<Vec<f64>>,
    threads: Option<usize>,
    width: usize,
    rows: impl Fn(&Docs<'_>, &[u32], &[u32], &[f64]) -> Vec<f64> + Send + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let items = matrix_items(hyps, samples)?;
    let batch = items.read()?;
    let m = batch.ref_sets.len();
    if m == 0 {
        return Err(input_err("samples is empty".into()));
    }
    let mut sample_ids = Vec::with_capacity(m);
    for j in 0..m {
        match batch.ref_sets.get(j) {
            [one] => sample_ids.push(*one),
            _ => return Err(input_err(format!("samples[{j}] must be a str"))),
        }
    }
    let weights = match weights {
        None => vec![1.0 / m as f64; m],
        Some(w) if w.len() != m => {
            return Err(input_err(format!(
                "weights has {} values for {m} samples",
                w.len()
            )))
        }
        Some(w) => {
            if let Some(j) = w.iter().position(|x| !(x.is_finite() && *x >= 0.0)) {
                return Err(input_err(format!(
                    "weights[{j}] must be a finite probability >= 0 (got {})",
                    w[j]
                )));
            }
            w
        }
    };
    let n = batch.hyp_ids.len();
    let small = is_small(n + m, batch.texts.bytes());
    let scores = enter(py, threads, small, || {
        let encoded = encoder.encode_texts(batch.texts.as_slice());
        Ok(rows(
            &encoded.docs()?,
            &batch.hyp_ids,
            &sample_ids,
            &weights,
        ))
    })?;
    to_array(py, scores, n, &[width])
}

/// Whether a matrix runs inline (see [`MATRIX_INLINE_CELLS`]).
fn is_small_matrix(cells: usize, bytes: usize) -> bool {
    cells <= MATRIX_INLINE_CELLS && bytes <= INLINE_BYTES
}

/// What `score_matrices` returns: one array per block, vanished hypotheses (b, i),
/// vanished references (b, j, k).
pub(crate) type BlocksOut<'py> = (
    Vec<Bound<'py, PyAny>>,
    Vec<(usize, usize)>,
    Vec<(usize, usize, usize)>,
);

/// Many matrices in one call (one per source sentence in MBR decoding): `blocks[b]` is a
/// pair (hyps, refs) with `refs` a list as in [`score_text_matrix`] or None (symmetric).
pub(crate) fn score_text_matrices<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    blocks: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    metric: &M,
    cell: Option<CellScore<'_>>,
) -> PyResult<BlocksOut<'py>> {
    let (texts, specs) = read_blocks(blocks)?;
    let cells: usize = specs.iter().map(|b| b.hyps.len() * b.cols.len()).sum();
    let small = is_small_matrix(cells, texts.bytes());
    let (scores, vanished) = enter(py, threads, small, || {
        let all: Vec<&str> = texts.iter().collect();
        let encoded = encoder.encode_texts(&all);
        let docs = encoded.docs()?;
        let scores = match &cell {
            Some(f) => scores_matrices(metric, &docs, &specs, f)?,
            None => statistics_matrices(metric, &docs, &specs)?,
        };
        Ok((scores, encoded.vanished))
    })?;
    let shape: &[usize] = if cell.is_some() { &[] } else { shape };
    let mut is_vanished = vec![false; texts.len()];
    vanished.iter().for_each(|&k| is_vanished[k] = true);
    let (mut hyp_vanished, mut ref_vanished) = (Vec::new(), Vec::new());
    let width: usize = shape.iter().product();
    let mut arrays = Vec::with_capacity(specs.len());
    let mut rest = scores.as_slice();
    for (b, spec) in specs.iter().enumerate() {
        let (n, m) = (spec.hyps.len(), spec.cols.len());
        hyp_vanished.extend(
            (0..n)
                .filter(|&i| is_vanished[spec.hyps[i] as usize])
                .map(|i| (b, i)),
        );
        for j in 0..m {
            for (k, &t) in spec.cols.get(j).iter().enumerate() {
                if is_vanished[t as usize] {
                    ref_vanished.push((b, j, k));
                }
            }
        }
        let (head, tail) = rest.split_at(n * m * width);
        rest = tail;
        let mut matrix_shape = vec![m];
        matrix_shape.extend_from_slice(shape);
        arrays.push(to_array(py, head.to_vec(), n, &matrix_shape)?);
    }
    Ok((arrays, hyp_vanished, ref_vanished))
}

/// Reads `blocks` (a list of (hyps, refs or None)): the distinct texts, and per block its
/// hypotheses and columns as text indices.
fn read_blocks(blocks: &Bound<'_, PyAny>) -> PyResult<(StrTable, Vec<MatrixBlock>)> {
    let mut texts = StrTable::with_capacity(64);
    let mut specs = Vec::new();
    for (b, item) in items(blocks, "blocks")?.iter().enumerate() {
        let pair = items(item, &format!("blocks[{b}]"))?;
        if pair.len() != 2 {
            return Err(input_err(format!(
                "blocks[{b}] must be a pair (hyps, refs or None) (got {} items)",
                pair.len()
            )));
        }
        let mut hyps = Vec::new();
        for (i, h) in items(&pair[0], &format!("blocks[{b}][0]"))?
            .iter()
            .enumerate()
        {
            hyps.push(
                texts
                    .intern(as_str(h, || format!("blocks[{b}] hyps[{i}]"))?)
                    .0,
            );
        }
        if pair[1].is_none() {
            specs.push(MatrixBlock::symmetric(hyps));
            continue;
        }
        let mut cols = RefSets::new();
        for (j, r) in items(&pair[1], &format!("blocks[{b}][1]"))?
            .iter()
            .enumerate()
        {
            if r.cast::<PyString>().is_ok() {
                cols.push([texts
                    .intern(as_str(r, || format!("blocks[{b}] refs[{j}]"))?)
                    .0]);
                continue;
            }
            let alternatives = items(r, &format!("blocks[{b}] refs[{j}]"))?;
            if alternatives.is_empty() {
                return Err(input_err(format!("blocks[{b}] refs[{j}] is empty")));
            }
            let mut members = Vec::with_capacity(alternatives.len());
            for (k, alt) in alternatives.iter().enumerate() {
                members.push(
                    texts
                        .intern(as_str(alt, || format!("blocks[{b}] refs[{j}][{k}]"))?)
                        .0,
                );
            }
            cols.push(members);
        }
        specs.push(MatrixBlock {
            hyps,
            cols,
            symmetric: false,
        });
    }
    Ok((texts, specs))
}

/// What `score_one` returns: the row (or the metric's `one_result` of it), vanished
/// hypothesis (`[0]`), vanished references as (0, j); each None when nothing vanished (the
/// usual call then makes no list).
pub(crate) type OneOut<'py> = (
    Bound<'py, PyAny>,
    Option<Vec<usize>>,
    Option<Vec<(usize, usize)>>,
);

/// Vanished hypothesis, vanished references of one pair (see [`OneOut`]).
type OneVanished = (Option<Vec<usize>>, Option<Vec<(usize, usize)>>);

/// The row of one pair, vanished hypothesis, vanished references (see [`OneOut`]).
type OneRow = (Vec<f64>, Option<Vec<usize>>, Option<Vec<(usize, usize)>>);

/// Buffers of the one-pair path, kept per thread.
#[derive(Default)]
struct OnePairScratch {
    encoded: EncodedTexts,
    buf: String,
    spans: Vec<(u32, u32)>,
    /// The previous call's references, kept with a warm vocabulary.
    memo: RefMemo,
    /// The one reference set: texts 1.. of the pair.
    ref_set: RefSets,
}

/// One text pair scored by `metric`, inline when short (no copy of the text, no pool, no
/// batch tables: `statistics_of_pair`): the batch of one of [`kernel`].
pub(crate) fn score_one_pair<M: Metric>(
    py: Python<'_>,
    encoder: Encoder,
    vocab: Vocab,
    hyp: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
    metric: &M,
) -> PyResult<OneRow> {
    let items = one_pair_items(hyp, refs)?;
    let texts = pair_texts(&items)?;
    let bytes = texts.iter().map(|t| t.len()).sum();
    if is_small(1, bytes) {
        // No thread is used, so none is configured or checked; the encoding buffers are
        // this thread's, kept warm between calls.
        return with_scratch(|s: &mut OnePairScratch| {
            let (encoded, buf, spans) = (&mut s.encoded, &mut s.buf, &mut s.spans);
            match vocab {
                Vocab::Warm => encoder.encode_pair_warm(&texts, encoded, buf, spans, &mut s.memo),
                Vocab::Fresh => encoder.encode_texts_into(&texts, encoded, buf, spans, vocab),
            }
            s.ref_set.clear();
            s.ref_set.push(1..texts.len() as u32);
            let mut row = vec![0.0; metric.width()];
            statistics_of_pair(metric, &encoded.docs()?, 0, &s.ref_set, &mut row)?;
            let (hyp_vanished, ref_vanished) = split_vanished(&encoded.vanished);
            Ok((row, hyp_vanished, ref_vanished))
        })
        .map_err(to_py);
    }
    // Long texts: copied out, so the GIL can be released while they are scored (and the
    // batch runner can be cancelled).
    let owned: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    let mut sets = RefSets::new();
    sets.push(1..texts.len() as u32);
    let (row, vanished) = enter(py, None, false, || {
        let encoded = encoder.encode_texts(&owned);
        let row = statistics_batch(metric, &encoded.docs()?, &[0], &sets)?;
        Ok((row, encoded.vanished))
    })?;
    let (hyp_vanished, ref_vanished) = split_vanished(&vanished);
    Ok((row, hyp_vanished, ref_vanished))
}

/// The vanished texts of a pair (0: the hypothesis, k: reference k - 1) as [`OneOut`] gives
/// them: None when nothing vanished (the usual call then makes no list).
fn split_vanished(vanished: &[usize]) -> OneVanished {
    if vanished.is_empty() {
        return (None, None);
    }
    let hyp: Vec<usize> = vanished.iter().filter(|&&k| k == 0).copied().collect();
    let refs: Vec<(usize, usize)> = vanished
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| (0, k - 1))
        .collect();
    (
        (!hyp.is_empty()).then_some(hyp),
        (!refs.is_empty()).then_some(refs),
    )
}

/// Scores and vanished text indices → (array, vanished hypotheses, vanished references).
pub(crate) fn finish_text_batch<'py>(
    py: Python<'py>,
    batch: &TextBatch,
    scores: Vec<f64>,
    vanished: Vec<usize>,
    shape: &[usize],
) -> PyResult<BatchOut<'py>> {
    let mut is_vanished = vec![false; batch.texts.len()];
    vanished.iter().for_each(|&k| is_vanished[k] = true);
    let hyp_vanished = (0..batch.hyp_ids.len())
        .filter(|&i| is_vanished[batch.hyp_ids[i] as usize])
        .collect();
    let ref_vanished = vanished
        .iter()
        .filter_map(|&k| batch.ref_origin[k])
        .collect();
    let array = to_array(py, scores, batch.hyp_ids.len(), shape)?;
    Ok((array, hyp_vanished, ref_vanished))
}

/// Pre-tokenized input → scores shaped `[n, *shape]` (nothing can vanish).
pub(crate) fn score_token_batch<'py>(
    py: Python<'py>,
    encoder: Encoder,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    shape: &[usize],
    kernel: impl BatchKernel,
) -> PyResult<BatchOut<'py>> {
    let batch = read_token_batch(hyps, refs)?;
    let n = batch.n_hyps;
    let bytes = batch.sentences.iter().flatten().map(|t| t.len() + 1).sum();
    let scores = enter(py, threads, is_small(n, bytes), || {
        let encoded = encoder.encode_tokens(&batch.sentences);
        let hyp_ids: Vec<u32> = (0..n as u32).collect();
        kernel(&encoded.docs()?, &hyp_ids, &batch.ref_sets)
    })?;
    Ok((to_array(py, scores, n, shape)?, Vec::new(), Vec::new()))
}
