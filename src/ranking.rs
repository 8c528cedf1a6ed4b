//! ORANGE's native loop from Python: lists of text candidates and references → the flat
//! candidate and reference scores of `mtalign_core::metrics::orange`.

use crate::batch::{BatchScorer, CellScore};
use crate::convert::{as_str, items, to_array};
use crate::enter::enter;
use crate::errors::{input_err, to_py, ConfigError};
use mtalign_core::metrics::matrix::MATRIX_INLINE_CELLS;
use mtalign_core::metrics::orange::{
    oracle_ranks, orange_scores_many, Lists, Oracle, Scoring, GROUP_CELLS,
};
use mtalign_core::text::encoder::{EncodedTexts, Encoder};
use mtalign_core::text::intern::StrTable;
use mtalign_core::text::refs::RefSets;
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// What `orange_scores` returns: flat candidate scores and flat reference scores (input
/// order), or None when scalar `k` is not computed natively (Python then scores).
pub(crate) type OrangeOut<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// What `orange_scores_of` returns: one (candidate scores, reference scores) per scalar, or
/// None when one of the scalars is not computed natively.
pub(crate) type OrangeManyOut<'py> = Option<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>>;

/// Reads `lists` (a list with one list of str per sentence) into `sets`, interning texts.
fn read_lists(
    obj: &Bound<'_, PyAny>,
    name: &str,
    texts: &mut StrTable,
    sets: &mut RefSets,
) -> PyResult<()> {
    for (i, list) in items(obj, name)?.iter().enumerate() {
        let members = items(list, &format!("{name}[{i}]"))?;
        let mut ids = Vec::with_capacity(members.len());
        for (j, t) in members.iter().enumerate() {
            ids.push(texts.intern(as_str(t, || format!("{name}[{i}][{j}]"))?).0);
        }
        sets.push(ids);
    }
    Ok(())
}

/// ORANGE's text lists read once for several metrics (`mtalign.orange_many`): each distinct
/// text stored once, and encoded once per encoder (metrics that tokenize alike share it).
#[pyclass(frozen, module = "mtalign._mtalign")]
pub(crate) struct OrangeTexts {
    texts: StrTable,
    lists: Lists,
    /// The texts encoded by each encoder asked for so far.
    encoded: Mutex<Vec<(Encoder, Arc<EncodedTexts>)>>,
}

#[pymethods]
impl OrangeTexts {
    /// `candidates[i]` and `refs[i]`: lists of str of sentence i.
    #[new]
    fn new(candidates: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<Self> {
        OrangeTexts::read(candidates, refs)
    }

    /// The number of sentences.
    fn __len__(&self) -> usize {
        self.lists.candidates.len()
    }
}

impl OrangeTexts {
    fn read(candidates: &Bound<'_, PyAny>, refs: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut texts = StrTable::with_capacity(1024);
        let mut lists = Lists::default();
        read_lists(candidates, "candidates", &mut texts, &mut lists.candidates)?;
        read_lists(refs, "refs", &mut texts, &mut lists.references)?;
        Ok(OrangeTexts {
            texts,
            lists,
            encoded: Mutex::new(Vec::new()),
        })
    }

    /// Candidate and reference cells (the work's size).
    fn cells(&self) -> usize {
        let lists = &self.lists;
        (0..lists.candidates.len().min(lists.references.len()))
            .map(|i| {
                let r = lists.references.get(i).len();
                (lists.candidates.get(i).len() + r) * r
            })
            .sum()
    }

    /// The texts encoded by `encoder` (encoded on the first request).
    fn encoded(&self, encoder: Encoder) -> Arc<EncodedTexts> {
        let mut cache = self.encoded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, e)) = cache.iter().find(|(enc, _)| *enc == encoder) {
            return Arc::clone(e);
        }
        let all: Vec<&str> = self.texts.iter().collect();
        let e = Arc::new(encoder.encode_texts(&all));
        cache.push((encoder, Arc::clone(&e)));
        e
    }
}

/// ORANGE's scores of text lists with scalar `k` of `scorer` (see the core module).
pub(crate) fn orange_text_scores<'py, S: BatchScorer>(
    py: Python<'py>,
    scorer: &S,
    candidates: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    threads: Option<usize>,
    k: usize,
    group_cells: Option<usize>,
) -> PyResult<OrangeOut<'py>> {
    if !scorer.pairs_independent() || scoring_fns(scorer, &[k]).is_none() {
        return Ok(None);
    }
    let texts = OrangeTexts::read(candidates, refs)?;
    let out = orange_many_scores(py, scorer, &texts, threads, &[k], group_cells)?;
    Ok(out.and_then(|mut v| v.pop()))
}

/// ORANGE's scores of `texts` with each scalar of `scalars` of `scorer`, one (candidate
/// scores, reference scores) per scalar, or None when one of them is not computed natively.
pub(crate) fn orange_many_scores<'py, S: BatchScorer>(
    py: Python<'py>,
    scorer: &S,
    texts: &OrangeTexts,
    threads: Option<usize>,
    scalars: &[usize],
    group_cells: Option<usize>,
) -> PyResult<OrangeManyOut<'py>> {
    if !scorer.pairs_independent() {
        return Ok(None);
    }
    let Some(fns) = scoring_fns(scorer, scalars) else {
        return Ok(None);
    };
    let scorings: Vec<Scoring<'_>> = fns
        .iter()
        .map(|f| match f {
            (true, c) => Scoring::Single(c.as_ref()),
            (false, s) => Scoring::Sets(s.as_ref()),
        })
        .collect();
    let small =
        texts.cells() <= MATRIX_INLINE_CELLS && texts.texts.bytes() <= crate::enter::INLINE_BYTES;
    let encoder = scorer.encoder();
    let metric = scorer.core();
    let out = enter(py, threads, small, || {
        let encoded = texts.encoded(encoder);
        let docs = encoded.docs()?;
        orange_scores_many(
            metric,
            &docs,
            &texts.lists,
            &scorings,
            group_cells.unwrap_or(GROUP_CELLS),
        )
    })?;
    let mut arrays = Vec::with_capacity(out.len());
    for o in out {
        let (n_c, n_r) = (o.candidates.len(), o.references.len());
        arrays.push((
            to_array(py, o.candidates, n_c, &[])?,
            to_array(py, o.references, n_r, &[])?,
        ));
    }
    Ok(Some(arrays))
}

/// Per scalar: (combined from single-reference rows?, the function), or None when one is
/// not computed natively.
fn scoring_fns<'a, S: BatchScorer>(
    scorer: &'a S,
    scalars: &[usize],
) -> Option<Vec<(bool, CellScore<'a>)>> {
    scalars
        .iter()
        .map(|&k| match scorer.combine_single(k) {
            Some(c) => Some((true, c)),
            None => scorer.cell_score(k).map(|s| (false, s)),
        })
        .collect()
}

/// The oracle's rank in each list (see `mtalign_core::metrics::orange::oracle_ranks`):
/// (rank at each list's length, ranks at each of `sizes` shaped `[lists, sizes]`, NaN
/// where a list is shorter). `candidates` / `references` are flat float64 arrays, the
/// offsets CSR (`lists + 1` entries); `oracle` is "average_score" or "average_rank".
#[pyfunction]
#[pyo3(signature = (candidates, cand_offsets, references, ref_offsets, oracle, higher_is_better, sizes))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn orange_ranks<'py>(
    py: Python<'py>,
    candidates: PyReadonlyArray1<'py, f64>,
    cand_offsets: Vec<usize>,
    references: PyReadonlyArray1<'py, f64>,
    ref_offsets: Vec<usize>,
    oracle: &str,
    higher_is_better: bool,
    sizes: Vec<usize>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let oracle = match oracle {
        "average_score" => Oracle::AverageScore,
        "average_rank" => Oracle::AverageRank,
        other => {
            return Err(ConfigError::new_err(format!(
                "unknown oracle '{other}' (choose from: average_score, average_rank)"
            )))
        }
    };
    let not_contiguous = |name: &str| input_err(format!("{name} must be a contiguous array"));
    let c = candidates
        .as_slice()
        .map_err(|_| not_contiguous("candidates"))?;
    let r = references
        .as_slice()
        .map_err(|_| not_contiguous("references"))?;
    let ranks = oracle_ranks(
        c,
        &cand_offsets,
        r,
        &ref_offsets,
        oracle,
        higher_is_better,
        &sizes,
    )
    .map_err(to_py)?;
    let lists = ranks.last.len();
    Ok((
        to_array(py, ranks.last, lists, &[])?,
        to_array(py, ranks.grid, lists, &[sizes.len()])?,
    ))
}

/// The ranking functions, once.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(orange_ranks, m)?)?;
    m.add_class::<OrangeTexts>()?;
    Ok(())
}
