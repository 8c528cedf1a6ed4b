//! What a native metric owns, beyond its statistics ([`Metric`]): its option table and how a
//! configuration is built from it, how its text is encoded, the names of its statistics
//! columns and of its result's figures, and its figures from rows. The bindings hold one list
//! of the types implementing [`Contract`] and write every Python method once over it, so a
//! metric is its core file plus one line in that list.

use crate::metrics::metric::Metric;
use crate::options::{OptionSpec, Options};
use crate::text::docs::Docs;
use crate::text::encoder::Encoder;
use crate::Result;

/// A metric's configuration and the encoder its text goes through.
#[derive(Debug, Clone)]
pub struct Configured<M> {
    /// The metric (its statistics and scores).
    pub metric: M,
    /// Text → ids, as this configuration wants it.
    pub encoder: Encoder,
}

/// One number from a statistics row (or from a metric's rows against single references).
pub type CellScore<'a> = Box<dyn Fn(&[f64]) -> f64 + Sync + 'a>;

/// What the one-pair call returns for a row: the row itself, or the figures of the
/// sentence's result when the metric makes them natively (they then cost no second call).
#[derive(Debug, Clone, PartialEq)]
pub enum OneResult {
    /// The statistics row.
    Row(Vec<f64>),
    /// The result's figures, in [`Contract::fields`] order.
    Figures(Vec<Figure>),
    /// The headline score and the row (BLEU: the other figures are made from the row when
    /// first asked for).
    ScoreAndRow(f64, Vec<f64>),
}

/// One figure of a result: a number, or a count (a whole number, shown as one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Figure {
    /// A number.
    Real(f64),
    /// A count.
    Count(i64),
}

/// A native metric: its options, encoding, column and field names and figures from rows.
/// Everything has a default but [`Contract::NAME`], [`Contract::OPTIONS`],
/// [`Contract::build`], [`Contract::shape`] and [`Contract::columns`].
pub trait Contract: Metric + Sized + Send + 'static {
    /// The metric's native name (`mtalign._mtalign.NativeMetric(NAME, options)`).
    const NAME: &'static str;
    /// Its option table (exported as `mtalign._mtalign.OPTIONS[NAME]`).
    const OPTIONS: &'static [OptionSpec];

    /// The configuration of `options` (a table's values), every range and name checked.
    fn build(options: &Options) -> Result<Configured<Self>>;

    /// The shape of one hypothesis's row (`[]`: one number; `[k]`: k columns; ROUGE:
    /// `[variants, 3]`).
    fn shape(&self) -> Vec<usize>;

    /// The names of the statistics columns (the flattened row), `width` of them.
    fn columns(&self) -> Vec<String>;

    /// The names of the figures [`Contract::corpus_figures`] returns (empty: none native).
    fn fields(&self) -> Vec<String> {
        Vec::new()
    }

    /// The corpus figures of statistics rows (`rows`: row-major, the row width each), in
    /// [`Contract::fields`] order; `None` where the metric makes them outside the core.
    fn corpus_figures(&self, _rows: &[f64]) -> Option<Vec<f64>> {
        None
    }

    /// Scalar `k` of a statistics row as a sentence score (`None`: not computed natively).
    fn row_score(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }

    /// Scalar `k` of a matrix cell, when it is the sentence score computed the same way
    /// Python computes it (matrices then return numbers, not rows): [`Contract::row_score`]
    /// unless a cell's row depends on the rest of the batch.
    fn cell_score(&self, k: usize) -> Option<CellScore<'_>> {
        self.row_score(k)
    }

    /// Scalar `k` against a reference set from the rows against each member alone
    /// (contiguous, `width` each), bit-identical to scoring the set, where the statistics
    /// allow it (ORANGE's leave-one-out sets are then built from single-reference rows).
    fn combine_single(&self, _k: usize) -> Option<CellScore<'_>> {
        None
    }

    /// Whether each pair's statistics are independent of the rest of the batch.
    fn pairs_independent(&self) -> bool {
        !Self::NEEDS_CONTEXT
    }

    /// What the one-pair call returns for `row` (default: the row).
    fn one_result(&self, row: Vec<f64>) -> OneResult {
        OneResult::Row(row)
    }

    /// Whether [`Contract::aggregate_rows`] is provided (reference aggregation for MBR).
    fn aggregates(&self) -> bool {
        false
    }

    /// Rows of `hyps` against the weighted mean of the `samples`' counts (only called when
    /// [`Contract::aggregates`]).
    fn aggregate_rows(
        &self,
        _docs: &Docs<'_>,
        _hyps: &[u32],
        _samples: &[u32],
        _weights: &[f64],
    ) -> Vec<f64> {
        unreachable!("aggregate_rows called on a metric without it")
    }
}

/// `Configured<M>` of the options `given` for metric `M` (its table parsed first).
///
/// ```
/// use mtalign_core::metrics::chrf::ChrfConfig;
/// use mtalign_core::metrics::contract::{configure, Contract};
/// use mtalign_core::options::Value;
/// let c = configure::<ChrfConfig>(vec![("word_order".into(), Value::Int(2))])?;
/// assert_eq!((c.metric.char_order, c.metric.word_order), (6, 2));
/// assert_eq!(c.metric.columns()[..3], ["c1_hyp", "c1_ref", "c1_match"]);
/// assert!(configure::<ChrfConfig>(vec![("beta".into(), Value::Float(0.0))]).is_err());
/// # Ok::<(), mtalign_core::Error>(())
/// ```
pub fn configure<M: Contract>(
    given: Vec<(String, crate::options::Value)>,
) -> Result<Configured<M>> {
    M::build(&Options::parse(M::NAME, M::OPTIONS, given)?)
}

/// Column-wise sums of row-major `rows` of `width` values, in row order.
pub fn sum_rows(rows: &[f64], width: usize) -> Vec<f64> {
    let mut total = vec![0.0; width];
    if width == 0 {
        return total;
    }
    for row in rows.chunks_exact(width) {
        total.iter_mut().zip(row).for_each(|(t, x)| *t += x);
    }
    total
}

/// Numbered column names: `prefix_1 .. prefix_n`.
pub fn numbered(prefix: &str, n: usize) -> impl Iterator<Item = String> + '_ {
    (1..=n).map(move |k| format!("{prefix}_{k}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{bleu, chrf, dcs, error_rate, gtm, meteor, nist, ribes, rouge, ter};
    use crate::options::{DefaultValue, Kind, Value};

    /// A table is well formed: distinct names, each default of its kind and among its
    /// choices; and the configuration of `given` (defaults for the rest) names each column.
    fn check<M: Contract>(given: Vec<(String, Value)>) {
        let table = M::OPTIONS;
        for (k, o) in table.iter().enumerate() {
            assert!(table[..k].iter().all(|p| p.name != o.name), "{}", o.name);
            let fits = match (o.kind, o.default) {
                (_, DefaultValue::Required) | (_, DefaultValue::None) => true,
                (Kind::Bool, DefaultValue::Bool(_)) | (Kind::Int, DefaultValue::Int(_)) => true,
                (Kind::Float, DefaultValue::Float(_)) => true,
                (Kind::Str | Kind::Path, DefaultValue::Str(s)) => {
                    o.choices.is_none_or(|c| c.contains(&s))
                }
                (Kind::Names, DefaultValue::Names(n)) => {
                    o.choices.is_none_or(|c| n.iter().all(|x| c.contains(x)))
                }
                _ => false,
            };
            assert!(fits, "{}.{}: default of another kind", M::NAME, o.name);
            assert!(!o.doc.is_empty(), "{}.{}: no doc", M::NAME, o.name);
        }
        let c = configure::<M>(given).unwrap();
        assert_eq!(c.metric.columns().len(), c.metric.width(), "{}", M::NAME);
        let rows = vec![1.0; 2 * c.metric.width()];
        if let Some(f) = c.metric.corpus_figures(&rows) {
            assert_eq!(f.len(), c.metric.fields().len(), "{}", M::NAME);
        }
    }

    #[test]
    fn every_table_builds_and_names_its_columns() {
        check::<bleu::BleuConfig>(vec![]);
        check::<bleu::BleuConfig>(vec![("smooth".into(), Value::Str("method7".into()))]);
        check::<chrf::ChrfConfig>(vec![("word_order".into(), Value::Int(2))]);
        check::<dcs::Dcs>(vec![]);
        check::<error_rate::ErrorRate>(vec![]);
        check::<gtm::GtmConfig>(vec![]);
        check::<meteor::MeteorConfig>(vec![]);
        check::<nist::Nist>(vec![]);
        check::<ribes::RibesConfig>(vec![]);
        let variants = ["rouge1", "rougeL", "rougeW-1.2", "rougeSU*", "rougeLsum"];
        let names = Value::Names(variants.map(String::from).to_vec());
        check::<rouge::RougeConfig>(vec![("variants".into(), names)]);
        check::<ter::TerConfig>(vec![("ops".into(), Value::Bool(true))]);
    }

    #[test]
    fn options_are_checked_by_kind_and_table() {
        let given = |k: &str, v: Value| configure::<gtm::GtmConfig>(vec![(k.into(), v)]);
        let err = |r: Result<Configured<gtm::GtmConfig>>| r.unwrap_err().to_string();
        assert_eq!(
            given("exponent", Value::Int(2)).unwrap().metric.exponent,
            2.0
        );
        assert!(err(given("exponent", Value::Str("2".into()))).contains("must be a float"));
        assert!(err(given("exponent", Value::None)).contains("got None"));
        assert_eq!(
            given("max_words", Value::None).unwrap().metric.max_words,
            None
        );
        assert!(err(given("max_words", Value::Int(-1))).contains("max_words must be >= 0"));
        assert!(err(given("expo", Value::Int(2))).contains("gtm has no option 'expo'"));
        assert!(err(given("exponent", Value::Float(0.5))).contains("exponent must be"));
        let rouge = configure::<rouge::RougeConfig>(vec![]);
        assert!(rouge
            .unwrap_err()
            .to_string()
            .contains("rouge needs option 'variants'"));
    }

    #[test]
    fn corpus_figures_are_those_of_summed_rows() {
        let ter = configure::<ter::TerConfig>(vec![]).unwrap().metric;
        let f = ter.corpus_figures(&[1.0, 4.0, 2.0, 6.0]).unwrap();
        assert_eq!(f, [30.0, 3.0, 10.0]);
        let wer = configure::<error_rate::ErrorRate>(vec![]).unwrap().metric;
        assert_eq!(
            wer.corpus_figures(&[1.0, 3.0, 0.0, 1.0]).unwrap(),
            [0.25, 1.0, 4.0]
        );
        assert_eq!(
            wer.one_result(vec![1.0, 0.0]),
            OneResult::Figures(vec![Figure::Real(1.0), Figure::Count(1), Figure::Count(0)])
        );
    }
}
