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

use crate::metrics::metric::{with_scratch, Metric, Pair, INLINE_PAIRS};
use crate::text::docs::Docs;
use crate::text::refs::RefSets;
use crate::{interrupt, Error, Result};
use rayon::prelude::*;

/// One block: hypotheses (text indices) × columns (reference sets of text indices).
#[derive(Debug, Clone, Default)]
pub struct MatrixBlock {
    pub hyps: Vec<u32>,
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

/// Statistics of every block, concatenated (block after block, each row-major
/// `[n_b, m_b, width]`). Runs on the current rayon pool, or inline for at most
/// [`INLINE_PAIRS`] cells; the result never depends on the thread count.
pub fn statistics_matrices<M: Metric>(
    metric: &M,
    docs: &Docs<'_>,
    blocks: &[MatrixBlock],
) -> Result<Vec<f64>> {
    for (b, block) in blocks.iter().enumerate() {
        check_block(metric, docs, block).map_err(|e| match e {
            Error::Input(m) if blocks.len() > 1 => Error::Input(format!("block {b}: {m}")),
            other => other,
        })?;
    }
    let width = metric.width();
    let total: usize = blocks.iter().map(MatrixBlock::cells).sum();
    let mut out = vec![0.0; total * width];
    if width == 0 || total == 0 {
        return Ok(out);
    }
    let context = if M::NEEDS_CONTEXT {
        // The context the flat batch of the same pairs would get.
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
    } else {
        metric.context(docs, &[], &RefSets::new())
    };
    let mirrors: Vec<bool> = blocks
        .iter()
        .map(|b| b.symmetric && metric.has_mirror())
        .collect();
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
        for (j, row) in cells.chunks_exact_mut(width).enumerate().skip(first) {
            if interrupt::is_set(&cancel) {
                return;
            }
            let pair = Pair::new(docs, block.hyps[i], block.cols.get(j));
            metric.pair_statistics(&context, scratch, pair, row);
        }
    };
    if total <= INLINE_PAIRS {
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
                    metric.mirror(a, bb, &out[src..src + width], &mut tmp);
                    let dst = cell(i, j);
                    out[dst..dst + width].copy_from_slice(&tmp);
                }
            }
        }
        start += block.cells() * width;
    }
    Ok(out)
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
    if M::CHECKS_PAIRS {
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
