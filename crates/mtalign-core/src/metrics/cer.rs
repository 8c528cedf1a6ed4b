//! Character error rate (CER): the Levenshtein distance between the characters of a
//! hypothesis and of a reference, over the reference's characters, as jiwer 4's `cer`
//! computes it: each text stripped of leading and trailing whitespace, every other code point
//! (spaces included) one symbol. Rows are `[errors, ref_len]` as for WER, so corpus CER is
//! Σ errors / Σ reference characters (jiwer's over a list of pairs); with several references
//! the one with the lowest rate is kept (the first on ties).

use crate::kernels::edit_distance::EditScratch;
use crate::metrics::contract::{sum_rows, CellScore, Configured, Contract, Figure, OneResult};
use crate::metrics::error_rate::{best_rate, rate, rate_figures, write_best};
use crate::metrics::metric::{Metric, Pair};
use crate::options::{DefaultValue as D, Kind, OptionSpec, Options};
use crate::text::encoder::Encoder;
use crate::text::tokenize::{Tokenizer, TokenizerKind};
use crate::Result;

/// CER over code points (the `codepoint` encoding, whose ids are the code points).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cer;

/// `text` without its leading and trailing whitespace code points (Python's `str.strip()`
/// for every whitespace character Rust and Python agree on).
fn strip(text: &[u32]) -> &[u32] {
    let space = |c: &u32| char::from_u32(*c).is_some_and(char::is_whitespace);
    let start = text.iter().position(|c| !space(c)).unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|c| !space(c))
        .map_or(start, |e| e + 1);
    &text[start..end]
}

impl Metric for Cer {
    type Scratch = EditScratch;
    type Context = ();
    const TASK_PAIRS: usize = 16;

    fn width(&self) -> usize {
        2
    }

    fn pair_statistics(&self, _: &(), s: &mut EditScratch, pair: Pair<'_>, row: &mut [f64]) {
        let hyp = strip(pair.hyp());
        write_best(pair.refs().map(strip), |r| s.distance(hyp, r), row);
    }
}

impl Contract for Cer {
    const NAME: &'static str = "cer";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec::new(
        "lowercase",
        Kind::Bool,
        D::Bool(false),
        "lowercase first",
    )];

    fn build(o: &Options) -> Result<Configured<Self>> {
        let tokenizer = Tokenizer::new(TokenizerKind::Codepoint, o.bool("lowercase"));
        Ok(Configured {
            metric: Cer,
            encoder: Encoder::plain(tokenizer),
        })
    }

    rate_figures!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::contract::configure;
    use crate::metrics::metric::statistics_batch;
    use crate::text::docs::Docs;
    use crate::text::refs::RefSets;

    fn rows(hyp: &str, refs: &[&str]) -> Vec<f64> {
        let c = configure::<Cer>(vec![]).unwrap();
        let mut texts = vec![hyp];
        texts.extend_from_slice(refs);
        let enc = c.encoder.encode_texts(&texts);
        let mut sets = RefSets::new();
        sets.push(1..=refs.len() as u32);
        let docs = Docs::single_lines(&enc.encoded.sentences);
        statistics_batch(&c.metric, &docs, &[0], &sets).unwrap()
    }

    #[test]
    fn characters_of_stripped_texts_spaces_included() {
        // jiwer.cer("a c", "a b") == 1/3; " xy " is "xy": one insertion against "xyz".
        assert_eq!(rows("a b", &["a c"]), [1.0, 3.0]);
        assert_eq!(rows(" xy ", &["xyz"]), [1.0, 3.0]);
        assert_eq!(rows("xyz", &[" xy \n"]), [1.0, 2.0]);
        // The best reference (lowest rate, first on ties); an empty one after stripping.
        assert_eq!(rows("abc", &["abd", "abc"]), [0.0, 3.0]);
        assert_eq!(rows("", &["  "]), [0.0, 0.0]);
        assert_eq!(strip(&[32, 97, 9]), [97]);
    }
}
