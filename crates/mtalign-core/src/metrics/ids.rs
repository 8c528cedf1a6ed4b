//! A metric over token ids ([`crate::text::ids`]): rows equal to those of the same ids given
//! as text, space-joined, with a whitespace tokenizer.
//!
//! Two ways, by what the metric reads of an id:
//! * a metric that sees ids only through their equality within a pair
//!   ([`Metric::PAIR_LOCAL_IDS`]: BLEU, ROUGE, WER/PER, TER, RIBES) gets each pair encoded on
//!   the pool, by the task that scores it, with ids local to the pair ([`LocalIds`]): nothing
//!   runs serially before the pairs, no batch-sized buffer is written, and a pair's ids stay
//!   below the metric's bound ([`Metric::DIRECT_IDS_BELOW`]: BLEU's packed n-gram keys)
//!   whatever the vocabulary;
//! * any other metric gets the batch encoded as its [`Encoder`] encodes text (distinct ids
//!   numbered batch-wide), then the one batch runner.

use crate::interrupt;
use crate::metrics::matrix::{scores_matrices, statistics_matrices, MatrixBlock};
use crate::metrics::metric::{
    statistics_batch, task_len, with_scratch, Metric, Pair, INLINE_PAIRS,
};
use crate::text::docs::Docs;
use crate::text::encoder::Encoder;
use crate::text::ids::{IdSeqs, LocalIds, LINE_BREAK};
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::{Error, Result};
use rayon::prelude::*;
use std::ops::Range;

/// Statistics rows (row-major, `metric.width()` each) of hypothesis `i` of `hyps` against
/// its references, the sequences of `refs` (its parts' in order): reference `i` alone when
/// `ref_ends` is None (one reference per hypothesis), else references
/// `ref_ends[i-1]..ref_ends[i]`. Rows equal those of the same ids given as text,
/// space-joined, with a whitespace tokenizer, and a line break for each `line_sep` id. Runs
/// on the current rayon pool (inline for a few pairs); no row depends on the thread count.
pub fn statistics_of_ids<M: Metric>(
    metric: &M,
    encoder: &Encoder,
    hyps: &IdSeqs<'_>,
    refs: &[IdSeqs<'_>],
    ref_ends: Option<&[i64]>,
    line_sep: Option<i64>,
) -> Result<Vec<f64>> {
    let n = hyps.len();
    let m: usize = refs.iter().map(IdSeqs::len).sum();
    check_ref_ends(n, m, ref_ends)?;
    encoder.check_ids()?;
    if M::PAIR_LOCAL_IDS {
        return pair_local_rows(metric, encoder.lines, hyps, refs, ref_ends, line_sep);
    }
    let mut parts = Vec::with_capacity(1 + refs.len());
    parts.push(*hyps);
    parts.extend_from_slice(refs);
    let encoded = encoder.encode_ids(&parts, line_sep)?;
    let hyp_ids: Vec<u32> = (0..n as u32).collect();
    let mut sets = RefSets::new();
    for i in 0..n {
        sets.push(ref_range(i, ref_ends).map(|k| (n + k) as u32));
    }
    statistics_batch(metric, &encoded.docs()?, &hyp_ids, &sets)
}

/// A statistics row → one number (a matrix cell's score, as [`scores_matrices`] takes it).
pub type CellScore<'a> = dyn Fn(&[f64]) -> f64 + Sync + 'a;

/// Symmetric matrices of token ids, one per group (GRPO-style: the samples of one prompt):
/// group `b` is the sequences `group_ends[b-1]..group_ends[b]` of `hyps`, each scored against
/// each of its group as a single reference. Each unordered pair is scored once where the
/// metric has a [`Metric::mirror`] (as text's symmetric matrices are, see
/// [`crate::metrics::matrix`]); the ids are encoded batch-wide as the [`Encoder`] encodes
/// the same ids given as text, so every cell equals the text path's and the flat batch's of
/// the same pair, bit for bit, for any thread count. Returns the groups' matrices
/// concatenated, each row-major `[n_b, n_b, width]`, or `[n_b, n_b]` of `cell` scores.
///
/// ```
/// use mtalign_core::metrics::error_rate::ErrorRate;
/// use mtalign_core::metrics::ids::symmetric_matrices_of_ids;
/// use mtalign_core::text::encoder::Encoder;
/// use mtalign_core::text::ids::{IdData, IdSeqs};
/// use mtalign_core::text::tokenize::Tokenizer;
///
/// // Two groups of samples: [5 6 7], [5 6] and [9], [9 9].
/// let ids = [5i32, 6, 7, 5, 6, 9, 9, 9];
/// let seqs = IdSeqs::new(IdData::I32(&ids), &[0, 3, 5, 6], &[3, 2, 1, 2], "hyps")?;
/// let encoder = Encoder::plain(Tokenizer::parse("whitespace", false)?);
/// let wer = ErrorRate::Wer;
/// let rows = symmetric_matrices_of_ids(&wer, &encoder, &seqs, &[2, 4], None, None)?;
/// assert_eq!(rows.len(), (4 + 4) * 2); // two 2 x 2 matrices of (errors, reference length)
/// assert_eq!(&rows[2..4], &[1.0, 2.0]); // [5 6 7] against [5 6]: 1 error, 2 words
/// assert_eq!(&rows[4..6], &[1.0, 3.0]); // [5 6] against [5 6 7], mirrored: its length is 3
/// # Ok::<(), mtalign_core::Error>(())
/// ```
pub fn symmetric_matrices_of_ids<M: Metric>(
    metric: &M,
    encoder: &Encoder,
    hyps: &IdSeqs<'_>,
    group_ends: &[i64],
    line_sep: Option<i64>,
    cell: Option<&CellScore<'_>>,
) -> Result<Vec<f64>> {
    let n = hyps.len();
    let mut blocks = Vec::with_capacity(group_ends.len());
    let mut start = 0;
    for (b, &end) in group_ends.iter().enumerate() {
        if end < start || end as usize > n {
            return Err(Error::Input(format!(
                "the groups' ends must grow from 0 to {n} (group {b} ends at {end})"
            )));
        }
        blocks.push(MatrixBlock::symmetric((start as u32..end as u32).collect()));
        start = end;
    }
    if start as usize != n {
        return Err(Error::Input(format!(
            "the groups hold {start} of {n} sequences"
        )));
    }
    let encoded = encoder.encode_ids(std::slice::from_ref(hyps), line_sep)?;
    let docs = encoded.docs()?;
    match cell {
        Some(f) => scores_matrices(metric, &docs, &blocks, f),
        None => statistics_matrices(metric, &docs, &blocks),
    }
}

/// Checks `ref_ends` against `n` hypotheses and `m` references: None needs `m == n`; else
/// `n` ends growing from 0 to `m`, no set empty.
fn check_ref_ends(n: usize, m: usize, ref_ends: Option<&[i64]>) -> Result<()> {
    let Some(ends) = ref_ends else {
        if m != n {
            return Err(Error::Input(format!("hyps has {n} items but refs has {m}")));
        }
        return Ok(());
    };
    if ends.len() != n {
        return Err(Error::Input(format!(
            "hyps has {n} items but refs has {}",
            ends.len()
        )));
    }
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        if end < start || end as usize > m {
            return Err(Error::Input(format!(
                "the reference sets' ends must grow from 0 to {m} (refs[{i}] ends at {end})"
            )));
        }
        start = end;
    }
    if start as usize != m {
        return Err(Error::Input(format!(
            "the reference sets hold {start} of {m} references"
        )));
    }
    match (0..n).find(|&i| ref_range(i, ref_ends).is_empty()) {
        Some(i) => Err(Error::Input(format!("refs[{i}] is empty"))),
        None => Ok(()),
    }
}

/// The references of hypothesis `i` (indices into all references), `ref_ends` checked.
fn ref_range(i: usize, ref_ends: Option<&[i64]>) -> Range<usize> {
    match ref_ends {
        None => i..i + 1,
        Some(e) => (if i == 0 { 0 } else { e[i - 1] as usize })..e[i] as usize,
    }
}

/// Reference `k` of all the references: its part and its index there.
fn locate<'s, 'a>(refs: &'s [IdSeqs<'a>], mut k: usize) -> (&'s IdSeqs<'a>, usize) {
    for part in refs {
        if k < part.len() {
            return (part, k);
        }
        k -= part.len();
    }
    unreachable!("reference index checked against the total")
}

/// One thread's buffers for the pair being encoded, kept between pairs and calls.
#[derive(Default)]
struct PairScratch {
    local: LocalIds,
    /// The pair's texts (references first, then the hypothesis), one sentence each.
    texts: Sentences,
    /// The same split into lines or with the separators dropped, and where texts end.
    lines: Sentences,
    ends: Vec<usize>,
    /// The texts' indices of the references, `0..n_refs`.
    ref_ids: Vec<u32>,
}

/// [`statistics_of_ids`] for a [`Metric::PAIR_LOCAL_IDS`] metric: each pair encoded by the
/// task that scores it (references first, so that pairs sharing references give them the
/// same ids and a metric's per-reference tables are reused). A metric that checks pairs
/// checks each before scoring it; the refusal of the first refused pair is returned.
fn pair_local_rows<M: Metric>(
    metric: &M,
    lines: bool,
    hyps: &IdSeqs<'_>,
    refs: &[IdSeqs<'_>],
    ref_ends: Option<&[i64]>,
    line_sep: Option<i64>,
) -> Result<Vec<f64>> {
    let n = hyps.len();
    let width = metric.width();
    let mut out = vec![0.0; n * width];
    if width == 0 {
        return Ok(out);
    }
    // A pair-local metric reads no batch context (see `Metric::PAIR_LOCAL_IDS`).
    let context = M::Context::default();
    let checks = metric.checks_pairs();
    let cancel = interrupt::current();
    let fill = |i: usize, row: &mut [f64]| -> Option<Error> {
        if interrupt::is_set(&cancel) {
            return None;
        }
        with_scratch(|s: &mut PairScratch| {
            let range = ref_range(i, ref_ends);
            let n_refs = range.len();
            let seqs = range.map(|k| locate(refs, k)).chain([(hyps, i)]);
            s.local
                .encode(seqs, M::DIRECT_IDS_BELOW, line_sep, &mut s.texts);
            s.ref_ids.clear();
            s.ref_ids.extend(0..n_refs as u32);
            let docs = if lines || line_sep.is_some() {
                split_lines(&s.texts, lines, &mut s.lines, &mut s.ends);
                if lines {
                    match Docs::from_lines(&s.lines, &s.ends) {
                        Ok(d) => d,
                        Err(e) => return Some(e),
                    }
                } else {
                    Docs::single_lines(&s.lines)
                }
            } else {
                Docs::single_lines(&s.texts)
            };
            let pair = Pair::new(&docs, n_refs as u32, &s.ref_ids);
            if checks {
                if let Err(e) = metric.check_batch_pair(pair, i) {
                    return Some(e);
                }
            }
            with_scratch(|ms: &mut M::Scratch| metric.pair_statistics(&context, ms, pair, row));
            None
        })
    };
    let refused = if n <= INLINE_PAIRS {
        out.chunks_exact_mut(width)
            .enumerate()
            .find_map(|(i, row)| fill(i, row))
    } else {
        let task = task_len::<M>(n, |i| {
            let seqs = ref_range(i, ref_ends).map(|k| locate(refs, k));
            let (hyp, refs) = (hyps.seq_len(i), seqs.map(|(part, j)| part.seq_len(j)));
            hyp + refs.sum::<usize>()
        });
        out.par_chunks_mut(width)
            .with_min_len(task)
            .enumerate()
            .filter_map(|(i, row)| fill(i, row).map(|e| (i, e)))
            .min_by_key(|(i, _)| *i)
            .map(|(_, e)| e)
    };
    if let Some(e) = refused {
        return Err(e);
    }
    if interrupt::is_set(&cancel) {
        return Err(Error::Interrupted);
    }
    Ok(out)
}

/// `texts` with their [`LINE_BREAK`]s: split into lines (`lines`: text `d` is lines
/// `ends[d-1]..ends[d]`, empty lines dropped, as text splits at `'\n'`), else one sentence
/// each with the separators dropped.
fn split_lines(texts: &Sentences, lines: bool, out: &mut Sentences, ends: &mut Vec<usize>) {
    out.clear();
    ends.clear();
    for ids in texts.iter() {
        for line in ids.split(|&id| id == LINE_BREAK) {
            if !line.is_empty() {
                out.extend_ids(line.iter().copied());
                if lines {
                    out.end_sentence();
                }
            }
        }
        if !lines {
            out.end_sentence();
        }
        ends.push(out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::BleuConfig;
    use crate::metrics::rouge::{Compat, MultiRef, RougeConfig, Variant};
    use crate::text::ids::IdData;
    use crate::text::tokenize::Tokenizer;
    use proptest::prelude::*;

    /// Rows of the same ids written as text (space-joined, whitespace tokens), `sep` as a
    /// line break.
    fn text_rows<M: Metric>(
        metric: &M,
        lines: bool,
        hyps: &[Vec<i64>],
        sets: &[Vec<Vec<i64>>],
        sep: Option<i64>,
    ) -> Vec<f64> {
        let join = |s: &Vec<i64>| {
            s.iter()
                .map(|&x| {
                    if Some(x) == sep {
                        "\n".to_string()
                    } else {
                        x.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut texts: Vec<String> = hyps.iter().map(join).collect();
        let mut ref_sets = RefSets::new();
        for set in sets {
            let first = texts.len() as u32;
            texts.extend(set.iter().map(join));
            ref_sets.push(first..texts.len() as u32);
        }
        let encoder = Encoder {
            lines,
            ..Encoder::plain(Tokenizer::parse("whitespace", false).unwrap())
        };
        let encoded = encoder.encode_texts(&texts);
        let hyp_ids: Vec<u32> = (0..hyps.len() as u32).collect();
        statistics_batch(metric, &encoded.docs().unwrap(), &hyp_ids, &ref_sets).unwrap()
    }

    /// Rows of the ids, on a pool of `threads`.
    fn id_rows<M: Metric>(
        metric: &M,
        lines: bool,
        hyps: &[Vec<i64>],
        sets: &[Vec<Vec<i64>>],
        sep: Option<i64>,
        threads: usize,
    ) -> Result<Vec<f64>> {
        let flat = |seqs: &mut dyn Iterator<Item = &Vec<i64>>| {
            let (mut data, mut starts, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
            for s in seqs {
                starts.push(data.len() as i64);
                lengths.push(s.len() as i64);
                data.extend_from_slice(s);
            }
            (data, starts, lengths)
        };
        let (hd, hs, hl) = flat(&mut hyps.iter());
        let (rd, rs, rl) = flat(&mut sets.iter().flatten());
        let ends: Vec<i64> = sets
            .iter()
            .scan(0, |e, s| {
                *e += s.len() as i64;
                Some(*e)
            })
            .collect();
        let h = IdSeqs::new(IdData::I64(&hd), &hs, &hl, "hyps").unwrap();
        let r = IdSeqs::new(IdData::I64(&rd), &rs, &rl, "refs").unwrap();
        let encoder = Encoder {
            lines,
            ..Encoder::plain(Tokenizer::parse("whitespace", false).unwrap())
        };
        crate::pool::run(Some(threads), || {
            statistics_of_ids(metric, &encoder, &h, &[r], Some(&ends), sep)
        })?
    }

    fn seq(base: i64) -> impl Strategy<Value = Vec<i64>> {
        proptest::collection::vec((0i64..6).prop_map(move |x| base + x), 0..40)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        /// Pair-local ids (as they are below the metric's bound, numbered within the pair
        /// above it) give the text path's rows, for batches inline and on the pool.
        #[test]
        fn pair_local_rows_are_the_text_rows(
            base in prop_oneof![Just(0i64), Just((1 << 15) - 3), Just((1 << 21) - 3),
                                Just(1 << 40), Just(-3)],
            batch in proptest::collection::vec(
                (seq(0), proptest::collection::vec(seq(0), 1..3)), 0..80),
            sep in prop_oneof![Just(None), Just(Some(2i64))],
            threads in 1usize..3,
        ) {
            let shift = |s: &Vec<i64>| s.iter().map(|x| x + base).collect::<Vec<_>>();
            let hyps: Vec<Vec<i64>> = batch.iter().map(|(h, _)| shift(h)).collect();
            let sets: Vec<Vec<Vec<i64>>> =
                batch.iter().map(|(_, r)| r.iter().map(shift).collect()).collect();
            let sep = sep.map(|s| s + base);
            let bleu = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
            prop_assert_eq!(
                id_rows(&bleu, false, &hyps, &sets, sep, threads).unwrap(),
                text_rows(&bleu, false, &hyps, &sets, sep)
            );
            let rouge = RougeConfig::new(
                vec![Variant::Lcs, Variant::Ngram(2), Variant::LcsSum],
                1.0, MultiRef::Max, false, Compat::RougeScore,
            ).unwrap();
            prop_assert_eq!(
                id_rows(&rouge, true, &hyps, &sets, sep, threads).unwrap(),
                text_rows(&rouge, true, &hyps, &sets, sep)
            );
        }
    }

    /// Rows of the symmetric matrices of `groups` (ids), on a pool of `threads`.
    fn matrix_rows<M: Metric>(
        metric: &M,
        lines: bool,
        groups: &[Vec<Vec<i64>>],
        sep: Option<i64>,
        threads: usize,
    ) -> Result<Vec<f64>> {
        let (mut data, mut starts, mut lengths, mut ends) = (vec![], vec![], vec![], vec![]);
        for s in groups.iter().flatten() {
            starts.push(data.len() as i64);
            lengths.push(s.len() as i64);
            data.extend_from_slice(s);
        }
        let mut end = 0;
        for g in groups {
            end += g.len() as i64;
            ends.push(end);
        }
        let h = IdSeqs::new(IdData::I64(&data), &starts, &lengths, "hyps").unwrap();
        let encoder = Encoder {
            lines,
            ..Encoder::plain(Tokenizer::parse("whitespace", false).unwrap())
        };
        crate::pool::run(Some(threads), || {
            symmetric_matrices_of_ids(metric, &encoder, &h, &ends, sep, None)
        })?
    }

    /// The text path's rows of every (i, j) pair of every group, row-major.
    fn all_pairs_as_text<M: Metric>(
        metric: &M,
        lines: bool,
        groups: &[Vec<Vec<i64>>],
        sep: Option<i64>,
    ) -> Vec<f64> {
        let (mut hyps, mut sets) = (Vec::new(), Vec::new());
        for g in groups {
            for h in g {
                for r in g {
                    hyps.push(h.clone());
                    sets.push(vec![r.clone()]);
                }
            }
        }
        text_rows(metric, lines, &hyps, &sets, sep)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        /// Symmetric matrices of ids (each unordered pair scored once, the other triangle
        /// mirrored, for BLEU and ROUGE; every cell for RIBES, which has no mirror) give the
        /// text path's rows of every pair, inline and on the pool (groups of up to 70: past
        /// the inline bound of 4096 cells).
        #[test]
        fn symmetric_matrices_of_ids_are_the_text_rows_of_every_pair(
            base in prop_oneof![Just(0i64), Just((1 << 15) - 3), Just(1 << 40)],
            groups in proptest::collection::vec(proptest::collection::vec(seq(0), 0..8), 0..4),
            big in proptest::collection::vec(seq(0), 60..71),
            sep in prop_oneof![Just(None), Just(Some(2i64))],
            threads in 1usize..3,
        ) {
            let shift = |s: &Vec<i64>| s.iter().map(|x| x + base).collect::<Vec<_>>();
            let mut groups: Vec<Vec<Vec<i64>>> =
                groups.iter().map(|g| g.iter().map(shift).collect()).collect();
            if threads == 2 {
                groups.push(big.iter().map(shift).collect());
            }
            let sep = sep.map(|s| s + base);
            let bleu = BleuConfig::new(4, "exp", None, "closest", true).unwrap();
            prop_assert_eq!(
                matrix_rows(&bleu, false, &groups, sep, threads).unwrap(),
                all_pairs_as_text(&bleu, false, &groups, sep)
            );
            let rouge = RougeConfig::new(
                vec![Variant::Lcs, Variant::Ngram(2), Variant::LcsSum],
                1.0, MultiRef::Max, false, Compat::RougeScore,
            ).unwrap();
            prop_assert_eq!(
                matrix_rows(&rouge, true, &groups, sep, threads).unwrap(),
                all_pairs_as_text(&rouge, true, &groups, sep)
            );
            let ribes = crate::metrics::ribes::RibesConfig::new(0.25, 0.1).unwrap();
            prop_assert_eq!(
                matrix_rows(&ribes, false, &groups, sep, threads).unwrap(),
                all_pairs_as_text(&ribes, false, &groups, sep)
            );
        }
    }

    #[test]
    fn groups_that_do_not_cover_the_sequences_are_refused() {
        let rouge =
            RougeConfig::new(vec![Variant::Lcs], 1.0, MultiRef::Max, false, Compat::Paper).unwrap();
        let data = [1i64, 2, 3];
        let h = IdSeqs::new(IdData::I64(&data), &[0, 1, 2], &[1, 1, 1], "hyps").unwrap();
        let encoder = Encoder::plain(Tokenizer::parse("whitespace", false).unwrap());
        for (ends, msg) in [
            (&[2i64, 1][..], "group 1 ends at 1"),
            (&[4][..], "group 0 ends at 4"),
            (&[2][..], "the groups hold 2 of 3 sequences"),
        ] {
            let err = symmetric_matrices_of_ids(&rouge, &encoder, &h, ends, None, None);
            let err = err.unwrap_err().to_string();
            assert!(err.contains(msg), "{err}");
        }
    }

    #[test]
    fn the_first_refused_pair_is_named_on_any_pool() {
        let mut rouge = RougeConfig::new(
            vec![Variant::Wlcs(1.2)],
            1.0,
            MultiRef::Max,
            false,
            Compat::Paper,
        )
        .unwrap();
        rouge.max_words = Some(3);
        // Grids over 3² cells are refused: hypotheses of 3 or more words against 4.
        for (n, first) in [(40, 2), (100, 2), (100, 97)] {
            let mut hyps: Vec<Vec<i64>> = (0..n).map(|i| vec![1; 1 + i % 5]).collect();
            if first > 2 {
                hyps.iter_mut().take(first).for_each(|h| h.truncate(2));
            }
            let sets: Vec<Vec<Vec<i64>>> = (0..n).map(|_| vec![vec![1, 2, 3, 4]]).collect();
            for threads in [1, 2] {
                let err = id_rows(&rouge, false, &hyps, &sets, None, threads).unwrap_err();
                let msg = err.to_string();
                assert!(msg.starts_with(&format!("hyps[{first}]")), "{msg}");
            }
        }
    }
}
