//! Matrices: every hypothesis against every pseudo-reference, for minimum-Bayes-risk
//! decoding (the hypotheses are usually the samples themselves) and n-best work.
//!
//! [`statistics_matrices`] runs any [`Metric`] over one or many blocks (one block per source
//! sentence: its hypotheses × its pseudo-references) without building the n·m pair list:
//! a task is one row (a hypothesis against each column), so a metric's per-hypothesis
//! preparation kept in its scratch (the LCS masks of [`crate::kernels::lcs::LcsMatcher`],
//! n-gram tables) is reused across the row. Each cell is computed exactly as the flat
//! batch computes the same pair ([`crate::metrics::metric::statistics_batch`]), so the
//! matrix is bit-identical to it for any thread count.
//!
//! A *symmetric* block is the hypotheses against themselves (column j is hypothesis j as a
//! single reference). When the metric has a [`Metric::mirror`], each unordered pair is
//! scored once: the upper triangle and the diagonal are computed and the lower triangle is
//! mirrored from them (P and R swapped and F recomputed for ROUGE, hypothesis and
//! reference counts swapped for chrF and BLEU, the other length for WER/PER), which gives
//! the same bits as scoring the pair.

use crate::metrics::metric::{with_scratch, Metric, Pair, Prepared};
use crate::text::docs::Docs;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;

/// Matrices of at most this many cells run on the calling thread: a cell costs 0.1-3 µs
/// (ROUGE-L to chrF), so a pool hand-off (about 30 µs on a quiet machine, milliseconds on a
/// loaded one) would cost more than it saves; `threads=None` is then never slower than
/// `threads=1`. The bindings use the same bound.
pub const MATRIX_INLINE_CELLS: usize = 4096;

/// One block: hypotheses (text indices) × columns (reference sets of text indices).
#[derive(Debug, Clone, Default)]
pub struct MatrixBlock {
    /// The hypotheses, the rows (text indices).
    pub hyps: Vec<u32>,
    /// The columns: each a reference set (text indices) every hypothesis is scored against.
    pub cols: RefSets,
    /// Columns are the hypotheses themselves (checked); unordered pairs scored once when
    /// the metric allows.
    pub symmetric: bool,
}

impl MatrixBlock {
    /// The block of `hyps` against themselves, each a single reference.
    pub fn symmetric(hyps: Vec<u32>) -> Self {
        let mut cols = RefSets::new();
        for &h in &hyps {
            cols.push([h]);
        }
        MatrixBlock {
            hyps,
            cols,
            symmetric: true,
        }
    }

    fn cells(&self) -> usize {
        self.hyps.len() * self.cols.len()
    }
}

/// Statistics of one block, row-major `[n, m, width]`.
pub fn statistics_matrix<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    block: &MatrixBlock,
) -> Result<Vec<f64>> {
    statistics_matrices(metric, docs, std::slice::from_ref(block))
}

/// Checks every block's pairs (a bad one is named with its block when there are several).
fn check_blocks<M: Metric>(metric: &M, docs: &Docs<'_>, blocks: &[MatrixBlock]) -> Result<()> {
    for (b, block) in blocks.iter().enumerate() {
        check_block(metric, docs, block).map_err(|e| match e {
            Error::Input(m) if blocks.len() > 1 => Error::Input(format!("block {b}: {m}")),
            other => other,
        })?;
    }
    Ok(())
}

/// Each block's prepared texts (if the metric prepares matrices) and whether its mirrored
/// cells are derived rather than scored.
fn prepare_blocks<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    blocks: &[MatrixBlock],
) -> (Vec<Option<PreparedBlock>>, Vec<bool>) {
    let prepared = blocks
        .iter()
        .map(|b| PreparedBlock::new(metric, docs, b))
        .collect();
    let mirrors = blocks
        .iter()
        .map(|b| b.symmetric && metric.has_mirror())
        .collect();
    (prepared, mirrors)
}

/// Statistics of every block, concatenated (block after block, each row-major
/// `[n_b, m_b, width]`). Runs on the current rayon pool, or inline for at most
/// [`MATRIX_INLINE_CELLS`] cells; the result never depends on the thread count.
pub fn statistics_matrices<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    blocks: &[MatrixBlock],
) -> Result<Vec<f64>> {
    check_blocks(metric, docs, blocks)?;
    let width = metric.width();
    let total: usize = blocks.iter().map(MatrixBlock::cells).sum();
    let mut out = vec![0.0; total * width];
    if width == 0 || total == 0 {
        return Ok(out);
    }
    let context = matrix_context(metric, docs, blocks, total);
    let (prepared, mirrors) = prepare_blocks(metric, docs, blocks);
    // One task per row: (block, row, the row's cells).
    let mut rows: Vec<(usize, usize, &mut [f64])> = Vec::new();
    let mut rest: &mut [f64] = &mut out;
    for (b, block) in blocks.iter().enumerate() {
        let len = block.cols.len() * width;
        for i in 0..block.hyps.len() {
            let (row, tail) = rest.split_at_mut(len);
            rows.push((b, i, row));
            rest = tail;
        }
    }
    let cancel = interrupt::current();
    let fill = |b: usize, i: usize, cells: &mut [f64], scratch: &mut M::Scratch| {
        let block = &blocks[b];
        let first = if mirrors[b] { i } else { 0 };
        if let Some(p) = &prepared[b] {
            if !interrupt::is_set(&cancel) {
                let row = p.rows[i] as usize;
                metric.prepared_row(
                    &p.prepared,
                    row,
                    &p.cols[first..],
                    &mut cells[first * width..],
                );
            }
            return;
        }
        for (j, row) in cells.chunks_exact_mut(width).enumerate().skip(first) {
            if interrupt::is_set(&cancel) {
                return;
            }
            let pair = Pair::new(docs, block.hyps[i], block.cols.get(j));
            metric.pair_statistics(&context, scratch, pair, row);
        }
    };
    if total <= MATRIX_INLINE_CELLS {
        with_scratch(|scratch: &mut M::Scratch| {
            for (b, i, cells) in rows {
                fill(b, i, cells, scratch);
            }
        });
    } else {
        rows.into_par_iter()
            .for_each(|(b, i, cells)| with_scratch(|s: &mut M::Scratch| fill(b, i, cells, s)));
    }
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    let mut start = 0;
    let mut tmp = vec![0.0; width];
    for (b, block) in blocks.iter().enumerate() {
        let n = block.hyps.len();
        if mirrors[b] {
            let cell = |i: usize, j: usize| start + (i * n + j) * width;
            for i in 0..n {
                for j in 0..i {
                    // (i, j) is hypothesis i against hypothesis j: the mirror of (j, i).
                    let (a, bb) = (
                        docs.tokens(block.hyps[j] as usize),
                        docs.tokens(block.hyps[i] as usize),
                    );
                    tmp.fill(0.0);
                    let src = cell(j, i);
                    let row = &out[src..src + width];
                    match &prepared[b] {
                        Some(p) => {
                            let (la, lb) = (p.rows[j] as usize, p.rows[i] as usize);
                            metric.prepared_mirror(&p.prepared, la, lb, a, bb, row, &mut tmp);
                        }
                        None => metric.mirror(a, bb, row, &mut tmp),
                    }
                    let dst = cell(i, j);
                    out[dst..dst + width].copy_from_slice(&tmp);
                }
            }
        }
        start += block.cells() * width;
    }
    Ok(out)
}

/// One number per cell: `score(statistics row)` of every cell of every block, concatenated
/// (each block row-major `[n_b, m_b]`). The statistics of a row live only while its task
/// runs, so memory is `n·m` numbers, not `n·m·width`. Each cell's number is `score` of the
/// same statistics [`statistics_matrices`] gives (mirrored ones included), so both agree
/// bit for bit, for any thread count.
///
/// ```
/// use mtalign_core::metrics::bleu::{sentence_score, BleuConfig};
/// use mtalign_core::metrics::matrix::{scores_matrices, MatrixBlock};
/// use mtalign_core::text::{docs::Docs, intern::encode_texts};
/// use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
///
/// // Three samples of one source sentence, each scored against the others (MBR).
/// let samples = ["the cat sat on the mat", "the cat sat on a mat", "a dog ran"];
/// let enc = encode_texts(&Tokenizer::new(TokenizerKind::Sacre13a, false), &samples);
/// let docs = Docs::single_lines(&enc.sentences);
/// let bleu = BleuConfig::new(4, "exp", None, "closest", true)?;
/// let block = MatrixBlock::symmetric(vec![0, 1, 2]);
/// let m = scores_matrices(&bleu, &docs, &[block], &|row| sentence_score(&bleu, row))?;
/// assert_eq!(m.len(), 9); // row-major 3 x 3
/// assert!((m[0] - 100.0).abs() < 1e-9); // a sample against itself
/// assert!(m[1] > m[2]); // sample 0 is closer to sample 1 than to sample 2
/// # Ok::<(), mtalign_core::Error>(())
/// ```
pub fn scores_matrices<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    blocks: &[MatrixBlock],
    score: &(dyn Fn(&[f64]) -> f64 + Sync),
) -> Result<Vec<f64>> {
    check_blocks(metric, docs, blocks)?;
    let width = metric.width();
    let total: usize = blocks.iter().map(MatrixBlock::cells).sum();
    let mut out = vec![0.0; total];
    if total == 0 {
        return Ok(out);
    }
    let context = matrix_context(metric, docs, blocks, total);
    let (prepared, mirrors) = prepare_blocks(metric, docs, blocks);
    // Mirrored cells (j, i) for j > i are written by task i into row i of `lower`.
    let lower_len: usize = blocks
        .iter()
        .zip(&mirrors)
        .map(|(b, &m)| if m { b.cells() } else { 0 })
        .sum();
    let mut lower = vec![0.0; lower_len];
    let mut rows: Vec<(usize, usize, &mut [f64], &mut [f64])> = Vec::new();
    let (mut rest, mut rest_lower): (&mut [f64], &mut [f64]) = (&mut out, &mut lower);
    for (b, block) in blocks.iter().enumerate() {
        let m = block.cols.len();
        for i in 0..block.hyps.len() {
            let (row, tail) = rest.split_at_mut(m);
            rest = tail;
            let (low, tail) = rest_lower.split_at_mut(if mirrors[b] { m } else { 0 });
            rest_lower = tail;
            rows.push((b, i, row, low));
        }
    }
    let cancel = interrupt::current();
    let fill =
        |b: usize, i: usize, cells: &mut [f64], low: &mut [f64], s: &mut RowBuffers<M::Scratch>| {
            if interrupt::is_set(&cancel) {
                return;
            }
            let block = &blocks[b];
            let m = block.cols.len();
            let first = if mirrors[b] { i } else { 0 };
            s.stats.clear();
            s.stats.resize(m * width, 0.0);
            if let Some(p) = &prepared[b] {
                let row = p.rows[i] as usize;
                metric.prepared_row(
                    &p.prepared,
                    row,
                    &p.cols[first..],
                    &mut s.stats[first * width..],
                );
            } else {
                for j in first..m {
                    let pair = Pair::new(docs, block.hyps[i], block.cols.get(j));
                    let row = &mut s.stats[j * width..(j + 1) * width];
                    metric.pair_statistics(&context, &mut s.metric, pair, row);
                }
            }
            let stats = s.stats.chunks_exact(width);
            for (cell, row) in cells.iter_mut().zip(stats).skip(first) {
                *cell = score(row);
            }
            if mirrors[b] {
                s.tmp.resize(width, 0.0);
                let a = docs.tokens(block.hyps[i] as usize);
                let stats = s.stats.chunks_exact(width);
                for (j, (cell, row)) in low.iter_mut().zip(stats).enumerate().skip(i + 1) {
                    s.tmp.fill(0.0);
                    let bj = docs.tokens(block.hyps[j] as usize);
                    match &prepared[b] {
                        Some(p) => {
                            let (la, lb) = (p.rows[i] as usize, p.rows[j] as usize);
                            metric.prepared_mirror(&p.prepared, la, lb, a, bj, row, &mut s.tmp);
                        }
                        None => metric.mirror(a, bj, row, &mut s.tmp),
                    }
                    *cell = score(&s.tmp);
                }
            }
        };
    if total <= MATRIX_INLINE_CELLS {
        with_scratch(|s: &mut RowBuffers<M::Scratch>| {
            for (b, i, cells, low) in rows {
                fill(b, i, cells, low, s);
            }
        });
    } else {
        rows.into_par_iter().for_each(|(b, i, cells, low)| {
            with_scratch(|s: &mut RowBuffers<M::Scratch>| fill(b, i, cells, low, s))
        });
    }
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    let (mut start, mut low_start) = (0, 0);
    for (b, block) in blocks.iter().enumerate() {
        let n = block.hyps.len();
        if mirrors[b] {
            for i in 0..n {
                for j in i + 1..n {
                    out[start + j * n + i] = lower[low_start + i * n + j];
                }
            }
            low_start += block.cells();
        }
        start += block.cells();
    }
    Ok(out)
}

/// The context the flat batch of the same pairs would get (NIST's weights).
fn matrix_context<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    blocks: &[MatrixBlock],
    total: usize,
) -> M::Context {
    if !M::NEEDS_CONTEXT {
        return metric.context(docs, &[], &RefSets::new());
    }
    let (mut hyps, mut sets) = (Vec::with_capacity(total), RefSets::new());
    for block in blocks {
        for &h in &block.hyps {
            for j in 0..block.cols.len() {
                hyps.push(h);
                sets.push(block.cols.get(j).iter().copied());
            }
        }
    }
    metric.context(docs, &hyps, &sets)
}

/// The buffers of one row task: the metric's scratch, the row's statistics, a mirrored row.
struct RowBuffers<S> {
    metric: S,
    stats: Vec<f64>,
    tmp: Vec<f64>,
}

impl<S: Default> Default for RowBuffers<S> {
    fn default() -> Self {
        RowBuffers {
            metric: S::default(),
            stats: Vec::new(),
            tmp: Vec::new(),
        }
    }
}

/// A block whose columns are single texts, prepared by the metric: its distinct texts, and
/// the local index of each row and column.
struct PreparedBlock {
    prepared: Prepared,
    rows: Vec<u32>,
    cols: Vec<u32>,
}

impl PreparedBlock {
    fn new<M: Metric>(metric: &M, docs: &Docs<'_>, block: &MatrixBlock) -> Option<Self> {
        let m = block.cols.len();
        if (0..m).any(|j| block.cols.get(j).len() != 1) {
            return None;
        }
        let mut local: HashMap<u32, u32> = HashMap::new();
        let mut texts = Vec::new();
        let mut index = |t: u32| {
            *local.entry(t).or_insert_with(|| {
                texts.push(t);
                texts.len() as u32 - 1
            })
        };
        let rows: Vec<u32> = block.hyps.iter().map(|&h| index(h)).collect();
        let cols: Vec<u32> = (0..m).map(|j| index(block.cols.get(j)[0])).collect();
        let prepared = metric.prepare_matrix(docs, &texts)?;
        Some(PreparedBlock {
            prepared,
            rows,
            cols,
        })
    }
}

fn check_block<M: Metric>(metric: &M, docs: &Docs<'_>, block: &MatrixBlock) -> Result<()> {
    let m = block.cols.len();
    block.cols.check(m)?;
    let n_texts = docs.len();
    let bad = |&t: &u32| t as usize >= n_texts;
    if block.hyps.iter().any(bad) || (0..m).any(|j| block.cols.get(j).iter().any(bad)) {
        return Err(Error::Input("text index out of range".into()));
    }
    if block.symmetric
        && (m != block.hyps.len() || (0..m).any(|j| block.cols.get(j) != [block.hyps[j]]))
    {
        return Err(Error::Input(
            "a symmetric matrix needs the hypotheses as their own single references".into(),
        ));
    }
    if metric.checks_pairs() {
        for (i, &h) in block.hyps.iter().enumerate() {
            for j in 0..m {
                metric
                    .check_pair(Pair::new(docs, h, block.cols.get(j)))
                    .map_err(|e| match e {
                        Error::Input(msg) => Error::Input(format!("hyps[{i}] × refs[{j}]: {msg}")),
                        other => other,
                    })?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::BleuConfig;
    use crate::metrics::chrf::ChrfConfig;
    use crate::metrics::error_rate::ErrorRate;
    use crate::metrics::metric::statistics_batch;
    use crate::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
    use crate::text::intern::Sentences;
    use proptest::prelude::*;

    /// The flat batch of every (i, j) pair: the oracle of every matrix.
    fn flat<M: Metric>(metric: &M, docs: &Docs<'_>, block: &MatrixBlock) -> Vec<f64> {
        let (mut hyps, mut sets) = (Vec::new(), RefSets::new());
        for &h in &block.hyps {
            for j in 0..block.cols.len() {
                hyps.push(h);
                sets.push(block.cols.get(j).iter().copied());
            }
        }
        statistics_batch(metric, docs, &hyps, &sets).unwrap()
    }

    fn rouge(variants: &[&str], beta: f64) -> RougeConfig {
        let v = variants
            .iter()
            .map(|n| Variant::parse(n).unwrap())
            .collect();
        RougeConfig::new(v, beta, MultiRef::Max, false, Compat::Paper).unwrap()
    }

    fn check_all(texts: &[Vec<u32>], threads: usize) {
        let s = Sentences::from_ids(texts);
        let docs = Docs::single_lines(&s);
        let n = texts.len() as u32;
        let sym = MatrixBlock::symmetric((0..n).collect());
        let mut plain = sym.clone();
        plain.symmetric = false;
        let mut rect = MatrixBlock {
            hyps: (0..n).rev().collect(),
            ..Default::default()
        };
        for j in 0..n {
            rect.cols.push([j, (j + 1) % n]);
        }
        let run = |what: &str, f: &(dyn Fn() -> (Vec<f64>, Vec<f64>) + Sync)| {
            let (a, b) = crate::pool::run(Some(threads), f).unwrap();
            // Bit-identical, NaN or not.
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let diff = (0..a.len()).find(|&k| a[k].to_bits() != b[k].to_bits());
            assert_eq!(a.len(), b.len(), "{what}");
            assert!(
                diff.is_none(),
                "{what}: cell value {diff:?}: {:?} vs {:?}",
                diff.map(|k| a[k]),
                diff.map(|k| b[k])
            );
            let _ = bits;
        };
        macro_rules! same {
            ($metric:expr) => {{
                let metric = $metric;
                for block in [&sym, &plain, &rect] {
                    run(stringify!($metric), &|| {
                        (
                            statistics_matrix(&metric, &docs, block).unwrap(),
                            flat(&metric, &docs, block),
                        )
                    });
                }
                // One number per cell: the same bits as the statistics give.
                let first = |v: &[f64]| v[0] + 2.0 * v[v.len() - 1];
                let w = Metric::width(&metric);
                let all = [sym.clone(), plain.clone(), rect.clone()];
                run(concat!(stringify!($metric), " scores"), &|| {
                    let stats = statistics_matrices(&metric, &docs, &all).unwrap();
                    let want: Vec<f64> = stats.chunks_exact(w).map(first).collect();
                    (scores_matrices(&metric, &docs, &all, &first).unwrap(), want)
                });
                let both = [sym.clone(), rect.clone()];
                run(stringify!($metric), &|| {
                    let mut want = flat(&metric, &docs, &sym);
                    want.extend(flat(&metric, &docs, &rect));
                    (statistics_matrices(&metric, &docs, &both).unwrap(), want)
                });
            }};
        }
        same!(rouge(
            &["rougeL", "rouge1", "rouge2", "rougeS4", "rougeSU*"],
            1.0
        ));
        same!(rouge(&["rougeL", "rougeW-1.2"], 1.7));
        same!(rouge(&["rougeL"], 1.3));
        same!({
            let v = vec![Variant::Lcs];
            RougeConfig::new(v, 1.0, MultiRef::Best, false, Compat::Rouge155).unwrap()
        });
        same!(BleuConfig::new(4, "exp", None, "closest", true).unwrap());
        same!(BleuConfig::new(4, "floor", Some(0.1), "shortest", false).unwrap());
        same!(ErrorRate::Wer);
        same!(ErrorRate::Per);
        same!(ChrfConfig::new(6, 2, 2.0, false, false).unwrap());
        same!(ChrfConfig::new(6, 0, 2.0, false, false).unwrap());
    }

    #[test]
    fn matrices_equal_the_flat_batch() {
        let texts: Vec<Vec<u32>> = (0..40u32)
            .map(|i| (0..(i % 13)).map(|k| (k * 7 + i) % 9 + 32).collect())
            .collect();
        check_all(&texts, 1);
        check_all(&texts, 3);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn matrices_equal_the_flat_batch_on_random_texts(
            texts in prop::collection::vec(prop::collection::vec(30u32..40, 0..20), 1..12),
        ) {
            check_all(&texts, 2);
        }
    }

    #[test]
    fn symmetric_blocks_are_checked() {
        let s = Sentences::from_ids(&[vec![1u32], vec![2]]);
        let docs = Docs::single_lines(&s);
        let mut block = MatrixBlock::symmetric(vec![0, 1]);
        block.hyps = vec![1, 0];
        assert!(statistics_matrix(&ErrorRate::Wer, &docs, &block).is_err());
        let bad = MatrixBlock::symmetric(vec![0, 5]);
        assert!(statistics_matrix(&ErrorRate::Wer, &docs, &bad).is_err());
    }
}
