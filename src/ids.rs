//! Token ids in: NumPy arrays of any integer dtype, handed to the core as borrowed memory
//! (`mtalign_core::text::ids`). `mtalign.TokenIds` gives each side as a flat buffer with
//! per-sequence starts and lengths; nothing here makes a Python object per token, and the
//! ids are read with the GIL released.

use crate::batch::{is_small_matrix, BatchOut, CellScore};
use crate::convert::to_array;
use crate::enter::{enter, is_small};
use crate::errors::{input_err, to_py};
use mtalign_core::metrics::ids::{statistics_of_ids, symmetric_matrices_of_ids};
use mtalign_core::metrics::metric::Metric;
use mtalign_core::text::encoder::Encoder;
use mtalign_core::text::ids::{IdData, IdSeqs};
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// One side's buffer, in the dtype it came in.
enum IdBuffer<'py> {
    I8(PyReadonlyArray1<'py, i8>),
    I16(PyReadonlyArray1<'py, i16>),
    I32(PyReadonlyArray1<'py, i32>),
    I64(PyReadonlyArray1<'py, i64>),
    U8(PyReadonlyArray1<'py, u8>),
    U16(PyReadonlyArray1<'py, u16>),
    U32(PyReadonlyArray1<'py, u32>),
    U64(PyReadonlyArray1<'py, u64>),
}

/// One side of a batch as `TokenIds` hands it over: (buffer, starts, lengths).
pub(crate) struct IdArrays<'py> {
    data: IdBuffer<'py>,
    starts: PyReadonlyArray1<'py, i64>,
    lengths: PyReadonlyArray1<'py, i64>,
}

impl<'py> IdArrays<'py> {
    /// `obj` = (a contiguous 1-D integer array, int64 starts, int64 lengths); `what` names
    /// the side (`hyps`, `refs`) in errors.
    pub(crate) fn extract(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Self> {
        let (data, starts, lengths): (Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>) =
            obj.extract().map_err(|_| {
                input_err(format!(
                    "{what} must be (ids, starts, lengths) arrays (use mtalign.TokenIds)"
                ))
            })?;
        let offsets = |a: &Bound<'py, PyAny>, name: &str| {
            a.extract::<PyReadonlyArray1<'py, i64>>()
                .map_err(|_| input_err(format!("{what}: {name} must be a 1-D int64 array")))
        };
        Ok(Self {
            data: buffer(&data, what)?,
            starts: offsets(&starts, "starts")?,
            lengths: offsets(&lengths, "lengths")?,
        })
    }

    /// The sequences, checked (a refusal names `what[i]`).
    pub(crate) fn seqs(&self, what: &str) -> PyResult<IdSeqs<'_>> {
        let contiguous = |_| input_err(format!("{what}: the arrays must be C-contiguous"));
        let data = self.data.data(what)?;
        let starts = self.starts.as_slice().map_err(contiguous)?;
        let lengths = self.lengths.as_slice().map_err(contiguous)?;
        IdSeqs::new(data, starts, lengths, what).map_err(to_py)
    }
}

impl IdBuffer<'_> {
    /// The ids, borrowed (`what` names the array when it is not contiguous).
    fn data(&self, what: &str) -> PyResult<IdData<'_>> {
        let contiguous = |_| input_err(format!("{what} must be a C-contiguous array"));
        Ok(match self {
            IdBuffer::I8(a) => IdData::I8(a.as_slice().map_err(contiguous)?),
            IdBuffer::I16(a) => IdData::I16(a.as_slice().map_err(contiguous)?),
            IdBuffer::I32(a) => IdData::I32(a.as_slice().map_err(contiguous)?),
            IdBuffer::I64(a) => IdData::I64(a.as_slice().map_err(contiguous)?),
            IdBuffer::U8(a) => IdData::U8(a.as_slice().map_err(contiguous)?),
            IdBuffer::U16(a) => IdData::U16(a.as_slice().map_err(contiguous)?),
            IdBuffer::U32(a) => IdData::U32(a.as_slice().map_err(contiguous)?),
            IdBuffer::U64(a) => IdData::U64(a.as_slice().map_err(contiguous)?),
        })
    }
}

/// The integer array `obj`, in its own dtype.
fn buffer<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<IdBuffer<'py>> {
    macro_rules! try_as {
        ($($variant:ident: $t:ty),*) => {$(
            if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, $t>>() {
                return Ok(IdBuffer::$variant(a));
            }
        )*};
    }
    try_as!(I64: i64, I32: i32, U32: u32, U16: u16, U64: u64, I16: i16, U8: u8, I8: i8);
    let dtype = obj
        .cast::<numpy::PyUntypedArray>()
        .map(|a| a.dtype().to_string())
        .unwrap_or_else(|_| crate::convert::type_name(obj));
    Err(input_err(format!(
        "{what}: token ids must be a 1-D array of integers (got {dtype})"
    )))
}

/// The statistics rows of `hyps` against `refs` (`ref_ends` None: one reference each;
/// else set `i` is `refs[ref_ends[i-1]..ref_ends[i]]`; `line_sep`: the id that separates
/// lines), shaped `[n, *shape]`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_id_batch<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    metric: &M,
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
    ref_ends: Option<PyReadonlyArray1<'py, i64>>,
    line_sep: Option<i64>,
    threads: Option<usize>,
    shape: &[usize],
) -> PyResult<BatchOut<'py>> {
    let (hyp_arrays, ref_arrays) = (
        IdArrays::extract(hyps, "hyps")?,
        IdArrays::extract(refs, "refs")?,
    );
    let (hyps, refs) = (hyp_arrays.seqs("hyps")?, ref_arrays.seqs("refs")?);
    let ends = match &ref_ends {
        Some(a) => Some(
            a.as_slice()
                .map_err(|_| input_err("ref_ends must be C-contiguous".into()))?,
        ),
        None => None,
    };
    let n = hyps.len();
    let ids = hyps.total() + refs.total();
    // Ids count as the bytes of their decimal text would, roughly: 4 a token.
    let small = is_small(n, 4 * ids);
    let rows = enter(py, threads, small, || {
        statistics_of_ids(metric, &encoder, &hyps, &[refs], ends, line_sep)
    })?;
    Ok((to_array(py, rows, n, shape)?, Vec::new(), Vec::new()))
}

/// Symmetric matrices of token ids, one per group: group `b` is the sequences
/// `group_ends[b-1]..group_ends[b]` of `hyps` ((ids, starts, lengths)), each against each of
/// its group, each unordered pair scored once where the metric allows. One array per group,
/// shaped `[n_b, n_b, *shape]`, or `[n_b, n_b]` of `cell` scores.
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_id_matrices<'py, M: Metric>(
    py: Python<'py>,
    encoder: Encoder,
    metric: &M,
    hyps: &Bound<'py, PyAny>,
    group_ends: PyReadonlyArray1<'py, i64>,
    line_sep: Option<i64>,
    threads: Option<usize>,
    shape: &[usize],
    cell: Option<CellScore<'_>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let hyp_arrays = IdArrays::extract(hyps, "hyps")?;
    let hyps = hyp_arrays.seqs("hyps")?;
    let ends = group_ends
        .as_slice()
        .map_err(|_| input_err("group_ends must be C-contiguous".into()))?;
    let mut cells = 0;
    let mut start = 0;
    for &end in ends {
        let k = (end - start).max(0) as usize;
        cells += k * k;
        start = end;
    }
    // Ids count as the bytes of their decimal text would, roughly: 4 a token.
    let small = is_small_matrix(cells, 4 * hyps.total());
    let scores = enter(py, threads, small, || {
        symmetric_matrices_of_ids(metric, &encoder, &hyps, ends, line_sep, cell.as_deref())
    })?;
    let shape: &[usize] = if cell.is_some() { &[] } else { shape };
    let width: usize = shape.iter().product();
    let (mut out, mut rest, mut start) = (Vec::with_capacity(ends.len()), &scores[..], 0);
    for &end in ends {
        let k = (end - start) as usize;
        let (head, tail) = rest.split_at(k * k * width);
        let mut matrix_shape = vec![k];
        matrix_shape.extend_from_slice(shape);
        out.push(to_array(py, head.to_vec(), k, &matrix_shape)?);
        rest = tail;
        start = end;
    }
    Ok(out)
}

/// One pair: `hyp` a 1-D integer array, `refs` a list of them (its reference set). The row
/// (row-major, `metric.width()` values), scored inline when short.
pub(crate) fn score_one_ids<M: Metric>(
    py: Python<'_>,
    encoder: Encoder,
    metric: &M,
    hyp: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
) -> PyResult<Vec<f64>> {
    let hyp = buffer(hyp, "hyp")?;
    let ref_items = crate::convert::items(refs, "refs")?;
    if ref_items.is_empty() {
        return Err(input_err("refs is empty".into()));
    }
    let ref_buffers = ref_items
        .iter()
        .enumerate()
        .map(|(j, r)| buffer(r, &format!("refs[{j}]")))
        .collect::<PyResult<Vec<_>>>()?;
    let hyp_data = hyp.data("hyp")?;
    let ref_data = ref_buffers
        .iter()
        .enumerate()
        .map(|(j, b)| b.data(&format!("refs[{j}]")))
        .collect::<PyResult<Vec<_>>>()?;
    // Each array is one sequence: its whole buffer.
    let lengths: Vec<[i64; 1]> = std::iter::once(&hyp_data)
        .chain(&ref_data)
        .map(|d| [d.len() as i64])
        .collect();
    let hyps = whole(hyp_data, &lengths[0])?;
    let refs = ref_data
        .iter()
        .zip(&lengths[1..])
        .map(|(&d, length)| whole(d, length))
        .collect::<PyResult<Vec<_>>>()?;
    let ids: usize = lengths.iter().map(|l| l[0] as usize).sum();
    enter(py, None, is_small(1, 4 * ids), || {
        statistics_of_ids(
            metric,
            &encoder,
            &hyps,
            &refs,
            Some(&[refs.len() as i64]),
            None,
        )
    })
}

/// The one sequence that is all of `data` (`length`: its length).
fn whole<'a>(data: IdData<'a>, length: &'a [i64; 1]) -> PyResult<IdSeqs<'a>> {
    IdSeqs::new(data, &[0], length, "ids").map_err(to_py)
}
