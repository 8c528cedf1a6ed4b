//! ORANGE's native loop from Python: lists of text candidates and references → the flat
//! candidate and reference scores of `mtalign_core::metrics::orange`.

use crate::batch::BatchScorer;
use crate::convert::{as_str, items, to_array};
use crate::enter::enter;
use crate::errors::{input_err, to_py, ConfigError};
use mtalign_core::metrics::matrix::MATRIX_INLINE_CELLS;
use mtalign_core::metrics::orange::{
    oracle_ranks, orange_scores, Lists, Oracle, Scoring, GROUP_CELLS,
};
use mtalign_core::text::intern::StrTable;
use mtalign_core::text::refs::RefSets;
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;

/// What `orange_scores` returns: flat candidate scores and flat reference scores (input
/// order), or None when scalar `k` is not computed natively (Python then scores).
pub(crate) type OrangeOut<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

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
    if !scorer.pairs_independent() {
        return Ok(None);
    }
    let combine = scorer.combine_single(k);
    let score = scorer.cell_score(k);
    let scoring = match (&combine, &score) {
        (Some(c), _) => Scoring::Single(c.as_ref()),
        (None, Some(s)) => Scoring::Sets(s.as_ref()),
        (None, None) => return Ok(None),
    };
    let mut texts = StrTable::with_capacity(1024);
    let mut lists = Lists::default();
    read_lists(candidates, "candidates", &mut texts, &mut lists.candidates)?;
    read_lists(refs, "refs", &mut texts, &mut lists.references)?;
    let cells: usize = (0..lists.candidates.len().min(lists.references.len()))
        .map(|i| {
            let r = lists.references.get(i).len();
            (lists.candidates.get(i).len() + r) * r
        })
        .sum();
    let small = cells <= MATRIX_INLINE_CELLS && texts.bytes() <= crate::enter::INLINE_BYTES;
    let encoder = scorer.encoder();
    let metric = scorer.core();
    let out = enter(py, threads, small, || {
        let all: Vec<&str> = texts.iter().collect();
        let encoded = encoder.encode_texts(&all);
        let docs = encoded.docs()?;
        orange_scores(
            metric,
            &docs,
            &lists,
            scoring,
            group_cells.unwrap_or(GROUP_CELLS),
        )
    })?;
    let (n_c, n_r) = (out.candidates.len(), out.references.len());
    Ok(Some((
        to_array(py, out.candidates, n_c, &[])?,
        to_array(py, out.references, n_r, &[])?,
    )))
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
    Ok(())
}
