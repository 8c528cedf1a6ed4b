//! Word error rate and position-independent error rate, per sentence as `[errors, ref_len]`
//! rows (which add up to corpus figures).
//!
//! * WER (Nießen et al. 2000): Levenshtein distance over words / reference length.
//! * PER (Tillmann et al. 1997; Leusch et al. 2003): the same with word order ignored: with
//!   `m` the bag-of-words overlap, errors = max(|hyp|, |ref|) - m.
//!
//! With several references the one giving the lowest rate is kept (the first on ties).
//! A rate with an empty reference is 0 when there is no error and 1 otherwise.

use crate::choice::choice_enum;
use crate::kernels::counts::clipped_intersection;
use crate::kernels::edit_distance::EditScratch;
use crate::metrics::metric::{statistics_of_sentences, Metric, Pair, Prepared};
use crate::text::docs::Docs;
use crate::text::intern::Sentences;
use crate::text::refs::RefSets;
use crate::Result;

choice_enum! {
    /// Which error rate: word error rate (edit distance) or position-independent (bag of words).
    pub enum ErrorRate, "error rate" {
        /// Word error rate: word-level edit distance / reference length.
        Wer => "wer",
        /// Position-independent error rate: max(|hyp|, |ref|) minus the bag-of-words overlap,
        /// over the reference length.
        Per => "per",
    }
}

/// The rate against a set from the rows `[errors, ref_len]` against each member alone
/// (contiguous): its best reference's, the minimum of the single rates.
pub fn best_rate(rows: &[f64]) -> f64 {
    rows.chunks_exact(2)
        .map(|r| rate(r[0], r[1]))
        .fold(f64::INFINITY, f64::min)
}

/// errors / ref_len, with the empty-reference convention.
pub fn rate(errors: f64, ref_len: f64) -> f64 {
    if ref_len > 0.0 {
        errors / ref_len
    } else if errors > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Writes `[errors, ref_len]` of the reference with the lowest rate into `row` (the first on
/// ties; `[0, 0]` without references), `errors` giving one reference's error count.
pub fn write_best<'a>(
    refs: impl Iterator<Item = &'a [u32]>,
    mut errors: impl FnMut(&[u32]) -> usize,
    row: &mut [f64],
) {
    let mut best: Option<(f64, f64, f64)> = None;
    for r in refs {
        let e = errors(r) as f64;
        let x = rate(e, r.len() as f64);
        if best.is_none_or(|b| x < b.0) {
            best = Some((x, e, r.len() as f64));
        }
    }
    let (_, e, len) = best.unwrap_or_default();
    row[0] = e;
    row[1] = len;
}

/// Reusable buffers of one thread (edit distance rows, bags of words).
#[derive(Debug, Default)]
pub struct Scratch {
    edit: EditScratch,
    sorted_hyp: Vec<u32>,
    sorted_ref: Vec<u32>,
}

impl Scratch {
    fn errors(&mut self, kind: ErrorRate, hyp: &[u32], r: &[u32]) -> usize {
        match kind {
            ErrorRate::Wer => self.edit.distance(hyp, r),
            ErrorRate::Per => {
                self.sorted_ref.clear();
                self.sorted_ref.extend_from_slice(r);
                self.sorted_ref.sort_unstable();
                let m = clipped_intersection(&self.sorted_hyp, &self.sorted_ref);
                hyp.len().max(r.len()) - m
            }
        }
    }
}

/// The texts of a matrix block, each one's tokens sorted (PER's bags of words).
struct SortedTexts {
    tokens: Vec<u32>,
    offsets: Vec<usize>,
}

impl SortedTexts {
    fn text(&self, i: usize) -> &[u32] {
        &self.tokens[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// `[errors, ref_len]` for the reference with the lowest rate (first on ties).
impl Metric for ErrorRate {
    type Scratch = Scratch;
    type Context = ();
    const PAIR_LOCAL_IDS: bool = true;
    const TASK_PAIRS: usize = 64;

    fn width(&self) -> usize {
        2
    }

    /// Levenshtein distance and the PER count are symmetric; the length is the other side's.
    fn has_mirror(&self) -> bool {
        true
    }

    fn mirror(&self, a: &[u32], _b: &[u32], row: &[f64], out: &mut [f64]) {
        out[0] = row[0];
        out[1] = a.len() as f64;
    }

    /// PER: each text of a block sorted once, so a cell is one merge (ORANGE's n-best lists
    /// score each candidate against each reference; sorting per cell sorted both each time).
    fn prepare_matrix(&self, docs: &Docs<'_>, texts: &[u32]) -> Option<Prepared> {
        if *self != ErrorRate::Per {
            return None;
        }
        let mut block = SortedTexts {
            tokens: Vec::new(),
            offsets: vec![0],
        };
        for &t in texts {
            let start = block.tokens.len();
            block.tokens.extend_from_slice(docs.tokens(t as usize));
            block.tokens[start..].sort_unstable();
            block.offsets.push(block.tokens.len());
        }
        Some(Box::new(block))
    }

    fn prepared_row(&self, prepared: &Prepared, row: usize, cols: &[u32], cells: &mut [f64]) {
        let Some(block) = prepared.downcast_ref::<SortedTexts>() else {
            unreachable!("a PER block")
        };
        let hyp = block.text(row);
        for (&c, out) in cols.iter().zip(cells.chunks_exact_mut(2)) {
            let r = block.text(c as usize);
            let m = clipped_intersection(hyp, r);
            out[0] = (hyp.len().max(r.len()) - m) as f64;
            out[1] = r.len() as f64;
        }
    }

    fn pair_statistics(&self, _: &(), s: &mut Scratch, pair: Pair<'_>, row: &mut [f64]) {
        let kind = *self;
        let hyp = pair.hyp();
        if kind == ErrorRate::Per {
            s.sorted_hyp.clear();
            s.sorted_hyp.extend_from_slice(hyp);
            s.sorted_hyp.sort_unstable();
        }
        write_best(pair.refs(), |r| s.errors(kind, hyp, r), row);
    }
}

/// `[errors, ref_len]` per hypothesis, for the reference with the lowest rate.
pub fn stats_batch(
    kind: ErrorRate,
    sentences: &Sentences,
    hyps: &[u32],
    ref_sets: &RefSets,
) -> Result<Vec<f64>> {
    statistics_of_sentences(&kind, sentences, hyps, ref_sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(kind: ErrorRate, hyp: &[u32], refs: &[&[u32]]) -> Vec<f64> {
        let mut all: Vec<&[u32]> = vec![hyp];
        all.extend_from_slice(refs);
        let sentences = Sentences::from_ids(&all);
        let mut sets = RefSets::new();
        sets.push(1..=refs.len() as u32);
        stats_batch(kind, &sentences, &[0], &sets).unwrap()
    }

    #[test]
    fn per_ignores_order_wer_does_not() {
        // hyp "b a c" vs ref "a b c": WER 2 edits, PER 0
        assert_eq!(rows(ErrorRate::Wer, &[1, 0, 2], &[&[0, 1, 2]]), [2.0, 3.0]);
        assert_eq!(rows(ErrorRate::Per, &[1, 0, 2], &[&[0, 1, 2]]), [0.0, 3.0]);
        // longer hyp: "a a b d" vs "a b c": overlap 2, max(4, 3) - 2 = 2
        assert_eq!(
            rows(ErrorRate::Per, &[0, 0, 1, 3], &[&[0, 1, 2]]),
            [2.0, 3.0]
        );
        // the best of two references
        assert_eq!(
            rows(ErrorRate::Wer, &[0, 1], &[&[5, 6, 7], &[0, 1, 2]]),
            [1.0, 3.0]
        );
    }

    #[test]
    fn empty_reference_convention() {
        assert_eq!(rate(0.0, 0.0), 0.0);
        assert_eq!(rate(3.0, 0.0), 1.0);
    }
}

/// The figures every error rate computes from its `[errors, ref_len]` rows (WER, PER, CER):
/// the `Contract` methods after `build`, written once. The caller's module imports
/// `sum_rows`, `rate`, `best_rate`, `CellScore`, `Figure` and `OneResult`.
macro_rules! rate_figures {
    () => {
        fn shape(&self) -> Vec<usize> {
            vec![2]
        }

        fn columns(&self) -> Vec<String> {
            vec!["errors".into(), "ref_len".into()]
        }

        fn fields(&self) -> Vec<String> {
            vec!["score".into(), "errors".into(), "ref_len".into()]
        }

        /// The rate of the summed rows (summed in row order), errors, reference length (words or characters).
        fn corpus_figures(&self, rows: &[f64]) -> Option<Vec<f64>> {
            let t = sum_rows(rows, 2);
            Some(vec![rate(t[0], t[1]), t[0], t[1]])
        }

        fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
            Some(Box::new(|row| rate(row[0], row[1])))
        }

        /// A set's rate is its best reference's: the minimum of the single rates.
        fn combine_single(&self, _k: usize) -> Option<CellScore<'_>> {
            Some(Box::new(best_rate))
        }

        /// One pair's (rate, errors, reference length), the figures of its result.
        fn one_result(&self, row: Vec<f64>) -> OneResult {
            OneResult::Figures(vec![
                Figure::Real(rate(row[0], row[1])),
                Figure::Count(row[0] as i64),
                Figure::Count(row[1] as i64),
            ])
        }
    };
}
pub(crate) use rate_figures;

/// WER's and PER's contract: options, columns and figures.
mod native {
    use super::{best_rate, rate, ErrorRate};
    use crate::metrics::contract::{sum_rows, CellScore, Configured, Contract, Figure, OneResult};
    use crate::options::{
        DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_NO, TOKENIZE_13A,
    };
    use crate::text::encoder::Encoder;
    use crate::text::tokenize::Tokenizer;
    use crate::Result;

    impl Contract for ErrorRate {
        const NAME: &'static str = "error_rate";
        const OPTIONS: &'static [OptionSpec] = &[
            OptionSpec::new("kind", Kind::Str, D::Str("wer"), "which error rate")
                .choices(ErrorRate::NAMES),
            TOKENIZE_13A,
            LOWERCASE_NO,
        ];

        fn build(o: &Options) -> Result<Configured<Self>> {
            let metric = ErrorRate::parse(o.str("kind"))?;
            let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
            Ok(Configured {
                metric,
                encoder: Encoder::plain(tokenizer),
            })
        }

        rate_figures!();
    }
}
