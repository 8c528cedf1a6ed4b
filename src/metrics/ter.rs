//! `TerCore`, the native half of `mtalign.Ter`.

use crate::batch::BatchScorer;
use crate::convert::stats_slice;
use crate::methods::batch_pymethods;
use mtalign_core::metrics::ter::{self, TerConfig};
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::tokenize::{Tokenizer, TokenizerKind};
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

/// The native half of `mtalign.Ter`: `[edits, average reference length]` rows (with `ops`,
/// followed by the insertions, deletions, substitutions and shifts of the chosen reference).
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct TerCore {
    pub(crate) case_sensitive: bool,
    pub(crate) config: TerConfig,
}

impl BatchScorer for TerCore {
    type Core = TerConfig;
    fn encoder(&self) -> Encoder {
        // sacrebleu's default tercom tokenization: lowercase unless case-sensitive, then
        // words between whitespace.
        Encoder::plain(Tokenizer::new(TokenizerKind::Split, !self.case_sensitive))
    }
    fn shape(&self) -> Vec<usize> {
        vec![if self.config.ops { 6 } else { 2 }]
    }
    fn core(&self) -> &TerConfig {
        &self.config
    }
}

batch_pymethods! {
    impl TerCore {
        #[new]
        #[pyo3(signature = (case_sensitive, ops=false))]
        fn new(case_sensitive: bool, ops: bool) -> Self {
            Self { case_sensitive, config: TerConfig { ops } }
        }

        /// TER's edit script of word ids `hyp` against `ref_`: (shifts as (start, length,
        /// target, words after), final words, operations as a str of ' ' (match), 's', 'i'
        /// (reference word inserted), 'd' (hypothesis word deleted)).
        #[staticmethod]
        #[allow(clippy::type_complexity)]
        fn explain_ids(
            hyp: Vec<u32>,
            ref_: Vec<u32>,
        ) -> (Vec<(usize, usize, usize, Vec<u32>)>, Vec<u32>, String) {
            let e = ter::explain(&hyp, &ref_);
            let shifts = e
                .shifts
                .into_iter()
                .map(|s| (s.start, s.length, s.target, s.words))
                .collect();
            let ops = e
                .trace
                .iter()
                .map(|o| match o {
                    ter::Op::Nop => ' ',
                    ter::Op::Sub => 's',
                    ter::Op::Ins => 'i',
                    ter::Op::Del => 'd',
                    ter::Op::Undef => 'x',
                })
                .collect();
            (shifts, e.words, ops)
        }

        /// The sentence TER (0-100) of each row, shape (n,).
        fn sentence_scores<'py>(
            &self,
            py: Python<'py>,
            stats: PyReadonlyArray2<'py, f64>,
        ) -> PyResult<Bound<'py, PyArray1<f64>>> {
            let rows = stats_slice(&stats, 2)?;
            let scores = rows.chunks_exact(2).map(|r| ter::score(r[0], r[1])).collect();
            Ok(PyArray1::from_vec(py, scores))
        }

        /// Corpus TER: (score, Σ edits, Σ ref_len), summed in row order as sacrebleu does.
        fn corpus(&self, stats: PyReadonlyArray2<'_, f64>) -> PyResult<(f64, f64, f64)> {
            let (mut e, mut n) = (0.0, 0.0);
            for r in stats_slice(&stats, 2)?.chunks_exact(2) {
                e += r[0];
                n += r[1];
            }
            Ok((ter::score(e, n), e, n))
        }
    }
}
