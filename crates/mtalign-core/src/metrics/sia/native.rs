//! SIA as a native metric: [`SiaMetric`] owns its configuration, its word-similarity table
//! and its size limit, so it goes through the one batch runner and the one list of native
//! metrics like every other metric. With a table, each batch id is mapped to the table's id
//! of the same word once per batch (the context); identical words still weigh 1, and a word
//! outside the table matches only itself, as when texts were numbered by the table.

use super::similarity::WordSimilarity;
use super::{
    check_pair_size, exact, refusal, sia_detail, try_sia_score, Decay, SiaConfig, DEFAULT_MAX_WORDS,
};
use crate::metrics::contract::{Configured, Contract};
use crate::metrics::metric::{Metric, Pair};
use crate::options::{
    max_words, DefaultValue as D, Kind, OptionSpec, Options, LOWERCASE_YES, TOKENIZE_UNICODE,
};
use crate::text::docs::Docs;
use crate::text::encoder::Encoder;
use crate::text::refs::RefSets;
use crate::text::tokenize::Tokenizer;
use crate::Result;
use std::sync::Arc;

/// SIA with its word similarity (None: exact matching) and size limit.
#[derive(Debug, Clone)]
pub struct SiaMetric {
    /// The configuration.
    pub config: SiaConfig,
    /// The word-similarity table (None: exact matching).
    pub table: Option<Arc<WordSimilarity>>,
    /// The size limit of a pair ([`check_pair_size`]); None: no limit.
    pub max_words: Option<usize>,
    /// The fast chain search (else the paper's naive one, for tests and benchmarks).
    pub fast: bool,
}

/// A batch id's word in the table: its table id, or none.
const NOT_IN_TABLE: u32 = u32::MAX;

/// How a batch's ids reach the table: through the batch vocabulary's words, or (character
/// tokenizers, whose ids are code points) through each code point.
#[derive(Debug, Default)]
pub enum TableIds {
    /// No table: exact matching.
    #[default]
    Exact,
    /// The table id of each batch id (`NOT_IN_TABLE` for words outside it).
    Words(Vec<u32>),
    /// Ids are code points, looked up as one-character words.
    CodePoints,
}

impl SiaMetric {
    /// The table id of batch id `id`.
    fn table_id(t: &WordSimilarity, ids: &TableIds, id: u32) -> u32 {
        match ids {
            TableIds::Words(map) => map.get(id as usize).copied().unwrap_or(NOT_IN_TABLE),
            TableIds::CodePoints => char::from_u32(id)
                .and_then(|c| t.word_id(c.encode_utf8(&mut [0; 4])))
                .unwrap_or(NOT_IN_TABLE),
            TableIds::Exact => NOT_IN_TABLE,
        }
    }

    /// SIA of one pair (NaN where the fast search gives up: see [`Metric::unscored`]).
    fn score(&self, mt: &[u32], refs: &[&[u32]], weight: impl Fn(u32, u32) -> f64) -> f64 {
        if self.fast {
            try_sia_score(mt, refs, weight, &self.config).unwrap_or(f64::NAN)
        } else {
            sia_detail(mt, refs, weight, &self.config, false).score
        }
    }
}

impl Metric for SiaMetric {
    type Scratch = ();
    type Context = TableIds;
    const TASK_PAIRS: usize = 16;
    const CHECKS_PAIRS: bool = true;
    const MAY_LEAVE_UNSCORED: bool = true;

    fn checks_pairs(&self) -> bool {
        self.max_words.is_some()
    }

    fn check_pair(&self, pair: Pair<'_>) -> Result<()> {
        self.check_named(pair, "hyp", |k| format!("refs[{k}]"))
    }

    fn check_batch_pair(&self, pair: Pair<'_>, i: usize) -> Result<()> {
        self.check_named(pair, &format!("hyps[{i}]"), |k| format!("refs[{i}][{k}]"))
    }

    fn width(&self) -> usize {
        1
    }

    fn context(&self, docs: &Docs<'_>, _hyps: &[u32], _refs: &RefSets) -> TableIds {
        let Some(t) = &self.table else {
            return TableIds::Exact;
        };
        match docs.vocab() {
            Some(v) if !v.is_empty() => TableIds::Words(
                v.iter()
                    .map(|w| t.word_id(w).unwrap_or(NOT_IN_TABLE))
                    .collect(),
            ),
            _ => TableIds::CodePoints,
        }
    }

    fn pair_statistics(&self, ids: &TableIds, _: &mut (), pair: Pair<'_>, row: &mut [f64]) {
        let refs: Vec<&[u32]> = pair.refs().collect();
        row[0] = match &self.table {
            None => self.score(pair.hyp(), &refs, exact),
            Some(t) => self.score(pair.hyp(), &refs, |a, b| {
                let (x, y) = (Self::table_id(t, ids, a), Self::table_id(t, ids, b));
                if x == NOT_IN_TABLE || y == NOT_IN_TABLE {
                    0.0
                } else {
                    t.get(x, y)
                }
            }),
        };
    }

    fn unscored(&self, pair: Pair<'_>) -> String {
        let lens: Vec<usize> = pair.refs().map(|r| r.len()).collect();
        refusal(pair.hyp().len(), &lens)
    }
}

impl SiaMetric {
    /// [`check_pair_size`] of `pair` under the limit, naming its texts as given.
    fn check_named(
        &self,
        pair: Pair<'_>,
        hyp_name: &str,
        ref_name: impl Fn(usize) -> String,
    ) -> Result<()> {
        let Some(max_words) = self.max_words else {
            return Ok(());
        };
        let refs: Vec<&[u32]> = pair.refs().collect();
        check_pair_size(max_words, pair.hyp(), &refs, hyp_name, ref_name)
    }
}

impl Contract for SiaMetric {
    const NAME: &'static str = "sia";
    const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec::new(
            "alpha",
            Kind::Float,
            D::Float(0.35),
            "decay factor in (0, 1]",
        ),
        OptionSpec::new("decay", Kind::Str, D::Str("figure"), "the round weights")
            .choices(Decay::NAMES),
        OptionSpec::new(
            "similarity",
            Kind::Object,
            D::None,
            "a word-similarity table (None: exact matching)",
        ),
        TOKENIZE_UNICODE,
        LOWERCASE_YES,
        max_words(DEFAULT_MAX_WORDS),
        OptionSpec::new(
            "naive",
            Kind::Bool,
            D::Bool(false),
            "the paper's O(M²N²) chain search (tests and benchmarks; the same scores)",
        ),
    ];

    fn build(o: &Options) -> Result<Configured<Self>> {
        let config = SiaConfig::new(o.f64("alpha"), Decay::parse(o.str("decay"))?)?;
        let tokenizer = Tokenizer::parse(o.str("tokenize"), o.bool("lowercase"))?;
        Ok(Configured {
            metric: SiaMetric {
                config,
                table: o.object::<WordSimilarity>("similarity"),
                max_words: o.opt_usize("max_words")?,
                fast: !o.bool("naive"),
            },
            encoder: Encoder::plain(tokenizer),
        })
    }

    fn shape(&self) -> Vec<usize> {
        Vec::new()
    }

    fn columns(&self) -> Vec<String> {
        vec!["sia".into()]
    }
}
