//! `NativeMetric`, the one Python class of every metric in the list ([`super::AnyMetric`]):
//! built by name from keyword options (`NativeMetric("bleu", max_order=2)`), checked by the
//! metric's core option table; its methods are written once over `dispatch!`. The tables
//! themselves are exported as `OPTIONS`.

use super::sia::{self, Explained, WordSimilarityCore};
use super::AnyMetric;
use crate::batch::{BatchOut, BatchScorer, BlocksOut, CellScore, OneOut};
use crate::convert::{stats_slice, type_name};
use crate::enter::run_detached;
use crate::errors::{to_py, ConfigError};
use crate::methods::{self, Input, Obj};
use crate::ranking::{OrangeManyOut, OrangeOut, OrangeTexts};
use mtalign_core::metrics::contract::{Configured, Contract, Figure, OneResult};
use mtalign_core::options::{DefaultValue, Kind, OptionSpec, Value};
use mtalign_core::text::encoder::Encoder;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

impl<M: Contract> BatchScorer for Configured<M> {
    type Core = M;
    fn encoder(&self) -> Encoder {
        self.encoder
    }
    fn shape(&self) -> Vec<usize> {
        self.metric.shape()
    }
    fn core(&self) -> &M {
        &self.metric
    }
    fn cell_score(&self, k: usize) -> Option<CellScore<'_>> {
        self.metric.cell_score(k)
    }
    fn combine_single(&self, k: usize) -> Option<CellScore<'_>> {
        self.metric.combine_single(k)
    }
    fn pairs_independent(&self) -> bool {
        self.metric.pairs_independent()
    }
    /// The row as a list, the figures as a tuple, or (score, row).
    fn one_result<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self.metric.one_result(row) {
            OneResult::Row(row) => row.into_pyobject(py)?.into_any(),
            OneResult::Figures(f) => {
                let items = f.into_iter().map(|x| match x {
                    Figure::Real(v) => PyFloat::new(py, v).into_any(),
                    Figure::Count(c) => PyInt::new(py, c).into_any(),
                });
                PyTuple::new(py, items)?.into_any()
            }
            OneResult::ScoreAndRow(score, row) => (score, row).into_pyobject(py)?.into_any(),
        })
    }
}

/// The option value of a Python object (None, bool, int, float, str, a list of str, a
/// word-similarity table).
fn value_of(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::None);
    }
    if let Ok(sim) = obj.cast::<WordSimilarityCore>() {
        return Ok(Value::Object(sim.get().table.clone()));
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(obj.extract()?));
    }
    if obj.is_instance_of::<PyInt>() {
        let i: i64 = obj
            .extract()
            .map_err(|_| ConfigError::new_err(format!("{name} is out of range (got {obj})")))?;
        return Ok(Value::Int(i));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Value::Float(obj.extract()?));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::Str(s.to_str()?.to_string()));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let names: Result<Vec<String>, _> = obj.extract();
        return names
            .map(Value::Names)
            .map_err(|_| ConfigError::new_err(format!("{name} must be a list of str")));
    }
    Err(ConfigError::new_err(format!(
        "{name}: unsupported value of type {}",
        type_name(obj)
    )))
}

/// The native half of every metric in the list: a configured core metric, scored by the
/// methods every metric shares.
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct NativeMetric {
    name: &'static str,
    metric: AnyMetric,
}

#[pymethods]
impl NativeMetric {
    /// The metric called `name` (a key of `OPTIONS`) with keyword `options` (the rest take
    /// their table defaults). A configuration that reads files (a path option) is built
    /// with the GIL released.
    #[new]
    #[pyo3(signature = (name, **options))]
    fn new(py: Python<'_>, name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut given = Vec::new();
        for (k, v) in options.into_iter().flat_map(|d| d.iter()) {
            let k: String = k.extract()?;
            let value = value_of(&k, &v)?;
            given.push((k, value));
        }
        let Some(&(name, table)) = AnyMetric::TABLES.iter().find(|(n, _)| *n == name) else {
            return Err(to_py(AnyMetric::unknown(name)));
        };
        let reads_files = given.iter().any(|(k, v)| {
            !matches!(v, Value::None) && table.iter().any(|o| o.name == k && o.kind == Kind::Path)
        });
        let metric = if reads_files {
            run_detached(py, None, || AnyMetric::build(name, given))?
        } else {
            AnyMetric::build(name, given).map_err(to_py)?
        };
        Ok(Self { name, metric })
    }

    /// The metric's native name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// The shape of one hypothesis's row (`()`: one number).
    #[getter]
    fn shape(&self) -> Vec<usize> {
        dispatch!(&self.metric, m => m.metric.shape())
    }

    /// Columns of a statistics row.
    #[getter]
    fn width(&self) -> usize {
        self.shape().iter().product()
    }

    /// The names of the statistics columns.
    #[getter]
    fn columns(&self) -> Vec<String> {
        dispatch!(&self.metric, m => m.metric.columns())
    }

    /// The names of the figures `corpus_figures` returns (empty: none made natively).
    #[getter]
    fn fields(&self) -> Vec<String> {
        dispatch!(&self.metric, m => m.metric.fields())
    }

    /// The corpus figures of statistics rows (n, width), in `fields` order.
    fn corpus_figures(&self, stats: PyReadonlyArray2<'_, f64>) -> PyResult<Vec<f64>> {
        let rows = stats_slice(&stats, self.width())?;
        let figures = dispatch!(&self.metric, m => m.metric.corpus_figures(rows));
        figures.ok_or_else(|| {
            ConfigError::new_err(format!("{} has no native corpus figures", self.name))
        })
    }

    /// Scalar `k`'s sentence score of each statistics row, shape (n,).
    #[pyo3(signature = (stats, k=0))]
    fn sentence_scores<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, f64>,
        k: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let w = self.width();
        let rows = stats_slice(&stats, w)?;
        // Off the GIL and in parallel for a large batch: under the GIL it was half of a
        // sentence BLEU batch's serial part.
        let small = rows.len() <= w * crate::enter::INLINE_PAIRS;
        let scores = dispatch!(&self.metric, m => match m.metric.row_score(k) {
            Some(f) => Some(crate::enter::enter(py, None, small, || {
                Ok(mtalign_core::run::row_scores(rows, w, &f))
            })?),
            None => None,
        });
        let scores = scores.ok_or_else(|| {
            ConfigError::new_err(format!("{} has no native sentence score {k}", self.name))
        })?;
        Ok(PyArray1::from_vec(py, scores))
    }

    /// Whether `score_aggregate` (reference aggregation for MBR) is provided.
    #[getter]
    fn aggregates(&self) -> bool {
        dispatch!(&self.metric, m => m.metric.aggregates())
    }

    /// Reference aggregation: statistics rows of `hyps` against the weighted mean of the
    /// `samples`' n-gram counts (`weights`: probabilities; None = uniform), shape (n, width).
    #[pyo3(signature = (hyps, samples, weights=None, threads=None))]
    fn score_aggregate<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        samples: &Obj<'py>,
        weights: Option<Vec<f64>>,
        threads: Option<usize>,
    ) -> PyResult<Obj<'py>> {
        if !self.aggregates() {
            return Err(ConfigError::new_err(format!(
                "{} has no reference aggregation",
                self.name
            )));
        }
        dispatch!(&self.metric, m => methods::score_aggregate(m, py, hyps, samples, weights, threads))
    }

    /// Scores text input (tokenized here: chunk by chunk for pair-local metrics, else each
    /// distinct text once).
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_texts<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        refs: &Obj<'py>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        dispatch!(&self.metric, m => methods::score_batch(m, py, Input::Texts, hyps, refs, threads))
    }

    /// Scores pre-tokenized input (tokens verbatim).
    #[pyo3(signature = (hyps, refs, threads=None))]
    fn score_tokens<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        refs: &Obj<'py>,
        threads: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        dispatch!(&self.metric, m => methods::score_batch(m, py, Input::Tokens, hyps, refs, threads))
    }

    /// Scores token ids: `hyps` and `refs` each (ids, starts, lengths) as `mtalign.TokenIds`
    /// hands them over; `ref_ends` None: one reference per hypothesis, else set i is
    /// references `ref_ends[i-1]..ref_ends[i]`; `line_sep`: the id that separates lines
    /// (`rougeLsum`).
    #[pyo3(signature = (hyps, refs, ref_ends=None, threads=None, line_sep=None))]
    fn score_ids<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        refs: &Obj<'py>,
        ref_ends: Option<PyReadonlyArray1<'py, i64>>,
        threads: Option<usize>,
        line_sep: Option<i64>,
    ) -> PyResult<BatchOut<'py>> {
        dispatch!(&self.metric, m => methods::score_ids(m, py, hyps, refs, ref_ends, threads, line_sep))
    }

    /// Symmetric matrices of token ids, one per group: `hyps` (ids, starts, lengths) as
    /// `mtalign.TokenIds` hands them over, group b its sequences
    /// `group_ends[b-1]..group_ends[b]`, each against each of its group (each unordered pair
    /// scored once where the metric is symmetric); `line_sep` as in `score_ids`. One array
    /// per group shaped `[n_b, n_b, *shape]`; `scalar=k`: `[n_b, n_b]` of scalar k where the
    /// metric computes it natively (else rows, as without it).
    #[pyo3(signature = (hyps, group_ends, threads=None, scalar=None, line_sep=None))]
    fn score_ids_matrices<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        group_ends: PyReadonlyArray1<'py, i64>,
        threads: Option<usize>,
        scalar: Option<usize>,
        line_sep: Option<i64>,
    ) -> PyResult<Vec<Obj<'py>>> {
        let (ends, sep) = (group_ends, line_sep);
        dispatch!(&self.metric, m => methods::score_ids_matrices(m, py, hyps, ends, threads, scalar, sep))
    }

    /// Scores one pair of token ids: `hyp` a 1-D integer array, `refs` a list of them;
    /// returns what `score_one` returns for text (the row, or the metric's figures).
    fn score_one_ids<'py>(
        &self,
        py: Python<'py>,
        hyp: &Obj<'py>,
        refs: &Obj<'py>,
    ) -> PyResult<Obj<'py>> {
        dispatch!(&self.metric, m => methods::score_one_ids(m, py, hyp, refs))
    }

    /// Every text hypothesis against every text pseudo-reference (`refs=None`: the
    /// hypotheses against themselves, each unordered pair scored once where the metric is
    /// symmetric): (scores shaped `[n, m, *shape]`, vanished hypotheses, vanished
    /// references). `scalar=k`: one number per cell (scalar k), shape `[n, m]`, where the
    /// metric computes it natively (else rows, as without it).
    #[pyo3(signature = (hyps, refs=None, threads=None, scalar=None))]
    fn score_matrix<'py>(
        &self,
        py: Python<'py>,
        hyps: &Obj<'py>,
        refs: Option<&Obj<'py>>,
        threads: Option<usize>,
        scalar: Option<usize>,
    ) -> PyResult<BatchOut<'py>> {
        dispatch!(&self.metric, m => methods::score_matrix(m, py, hyps, refs, threads, scalar))
    }

    /// One matrix per block, `blocks[b] = (hyps, refs)` (`refs` None: symmetric), every
    /// distinct text of every block encoded once: (list of score arrays shaped
    /// `[n_b, m_b, *shape]`, vanished hypotheses (b, i), vanished references (b, j, k)).
    #[pyo3(signature = (blocks, threads=None, scalar=None))]
    fn score_matrices<'py>(
        &self,
        py: Python<'py>,
        blocks: &Obj<'py>,
        threads: Option<usize>,
        scalar: Option<usize>,
    ) -> PyResult<BlocksOut<'py>> {
        dispatch!(&self.metric, m => methods::score_matrices(m, py, blocks, threads, scalar))
    }

    /// ORANGE's scores with scalar `scalar`: `candidates[i]` and `refs[i]` are lists of str;
    /// returns (flat candidate scores, each the mean over the leave-one-out reference sets;
    /// flat reference scores, each against the other references), or None when the scalar
    /// is not computed natively. `group_cells` bounds the cells scored at once (memory only;
    /// never a result).
    #[pyo3(signature = (candidates, refs, threads=None, scalar=0, group_cells=None))]
    fn orange_scores<'py>(
        &self,
        py: Python<'py>,
        candidates: &Obj<'py>,
        refs: &Obj<'py>,
        threads: Option<usize>,
        scalar: usize,
        group_cells: Option<usize>,
    ) -> PyResult<OrangeOut<'py>> {
        let (c, g) = (candidates, group_cells);
        dispatch!(&self.metric, m => methods::orange_scores(m, py, c, refs, threads, scalar, g))
    }

    /// ORANGE's scores of `texts` (an `OrangeTexts`: lists read once, encoded once per
    /// encoder) with each scalar of `scalars`: one (flat candidate scores, flat reference
    /// scores) per scalar, as `orange_scores`, or None when one of them is not computed
    /// natively.
    #[pyo3(signature = (texts, scalars, threads=None, group_cells=None))]
    fn orange_scores_of<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, OrangeTexts>,
        scalars: Vec<usize>,
        threads: Option<usize>,
        group_cells: Option<usize>,
    ) -> PyResult<OrangeManyOut<'py>> {
        let (t, s, g) = (texts, &scalars, group_cells);
        dispatch!(&self.metric, m => methods::orange_scores_of(m, py, t, s, threads, g))
    }

    /// Scalar `scalar` of each statistics row, computed natively as `score_matrix` computes
    /// a cell, shape (n,); None where the metric has no native cell score.
    #[pyo3(signature = (stats, scalar=0))]
    fn row_scores<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, f64>,
        scalar: usize,
    ) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        dispatch!(&self.metric, m => methods::row_scores(m, py, stats, scalar))
    }

    /// Scalar `scalar` of each hypothesis against a reference set from its rows against
    /// each member alone (`stats` shaped `[n, set size * width]`), shape (n,), bit-identical
    /// to scoring the set; None where the statistics do not allow it.
    #[pyo3(signature = (stats, scalar=0))]
    fn set_scores<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, f64>,
        scalar: usize,
    ) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        dispatch!(&self.metric, m => methods::set_scores(m, py, stats, scalar))
    }

    /// What `score_one` returns for the statistics row `row` (a list of floats): the row
    /// itself unless the metric makes its result from other figures.
    fn result_of_row<'py>(&self, py: Python<'py>, row: Vec<f64>) -> PyResult<Obj<'py>> {
        dispatch!(&self.metric, m => methods::result_of_row(m, py, row))
    }

    /// Scores one text pair: `hyp` a str, `refs` a str or a list of str. Returns (the flat
    /// row, or what the metric makes of it; vanished hypothesis, vanished references) like
    /// `score_texts`, with None in place of an empty list.
    fn score_one<'py>(
        &self,
        py: Python<'py>,
        hyp: &Obj<'py>,
        refs: &Obj<'py>,
    ) -> PyResult<OneOut<'py>> {
        dispatch!(&self.metric, m => methods::score_one(m, py, hyp, refs))
    }

    /// METEOR: whether the synonym stage runs (it needs both the stage and a WordNet).
    #[getter]
    fn synonyms_on(&self) -> PyResult<bool> {
        Ok(self.meteor()?.wordnet.is_some())
    }

    /// METEOR: the lemma names (without `_`) of WordNet's synsets of `word` (nltk's
    /// `wordnet.synsets(word)`), sorted; empty without a WordNet.
    fn synonyms(&self, word: &str) -> PyResult<Vec<String>> {
        let mut out = Vec::new();
        if let Some(wn) = &self.meteor()?.wordnet {
            wn.for_each_synonym(word, |n| {
                if !n.contains('_') {
                    out.push(n.to_string())
                }
            });
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// SIA: the rounds of one hypothesis (`hyp` a str or token list, `refs` a list of the
    /// same kind); `naive` uses the O(M²N²) programme (tests).
    #[pyo3(signature = (hyp, refs, naive=false))]
    fn explain(
        &self,
        hyp: &Bound<'_, PyAny>,
        refs: &Bound<'_, PyAny>,
        naive: bool,
    ) -> PyResult<Explained> {
        match &self.metric {
            AnyMetric::Sia(m) => sia::explain(m, hyp, refs, naive),
            _ => Err(ConfigError::new_err(format!(
                "{} has no explain (SIA's)",
                self.name
            ))),
        }
    }

    fn __repr__(&self) -> String {
        format!("NativeMetric({:?})", self.name)
    }
}

impl NativeMetric {
    /// The METEOR configuration, or a `ConfigError` naming the metric this is.
    fn meteor(&self) -> PyResult<&mtalign_core::metrics::meteor::MeteorConfig> {
        match &self.metric {
            AnyMetric::Meteor(m) => Ok(&m.metric),
            _ => Err(ConfigError::new_err(format!(
                "{} has no synonyms (METEOR's)",
                self.name
            ))),
        }
    }
}

/// An option's default as Python sees it (`REQUIRED`-ness is a separate key).
fn default_of<'py>(py: Python<'py>, d: DefaultValue) -> PyResult<Obj<'py>> {
    Ok(match d {
        DefaultValue::Required | DefaultValue::None => py.None().into_bound(py),
        DefaultValue::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        DefaultValue::Int(i) => i.into_pyobject(py)?.into_any(),
        DefaultValue::Float(f) => f.into_pyobject(py)?.into_any(),
        DefaultValue::Str(s) => s.into_pyobject(py)?.into_any(),
        DefaultValue::Names(n) => PyTuple::new(py, n)?.into_any(),
    })
}

/// One option's row as a dict: kind, default, required, optional, doc, choices.
fn option_dict<'py>(py: Python<'py>, o: &OptionSpec) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", o.kind.name())?;
    d.set_item("default", default_of(py, o.default)?)?;
    d.set_item("required", matches!(o.default, DefaultValue::Required))?;
    d.set_item("optional", o.optional)?;
    d.set_item("doc", o.doc)?;
    match o.choices {
        Some(c) => d.set_item("choices", PyTuple::new(py, c)?)?,
        None => d.set_item("choices", py.None())?,
    }
    Ok(d)
}

/// `OPTIONS: dict[metric name, dict[option name, dict]]`, every table in list order.
pub(crate) fn register_tables(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let tables = PyDict::new(py);
    for (name, table) in AnyMetric::TABLES {
        let options = PyDict::new(py);
        for o in *table {
            options.set_item(o.name, option_dict(py, o)?)?;
        }
        tables.set_item(*name, options)?;
    }
    m.add("OPTIONS", tables)
}
