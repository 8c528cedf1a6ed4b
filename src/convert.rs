//! Python objects in, owned Rust data out (and NumPy arrays back): every check that names
//! the offending item (`hyps[3]`, `refs[2][1]`) lives here.

use crate::errors::input_err;
use mtalign_core::kernels::counts::Counts;
use mtalign_core::prefetch::prefetch;
use mtalign_core::run::{collect, Collected, TextSource};
use mtalign_core::text::refs::RefSets;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::collections::HashMap;

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The type of a misplaced item, as an error says it: `(got int)` where a text goes is most
/// often a list of token ids, so that one says where ids go.
fn got(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    if name == "int" {
        "int; token ids go in as NumPy integer arrays or mtalign.TokenIds".into()
    } else {
        name
    }
}

/// A list or tuple, viewed as a sequence of items.
pub(crate) fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = obj.cast::<PyList>() {
        Ok(l.iter().collect())
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        Ok(t.iter().collect())
    } else {
        Err(input_err(format!(
            "{what} must be a list or tuple (got {})",
            type_name(obj)
        )))
    }
}

pub(crate) fn as_str<'a>(
    obj: &'a Bound<'_, PyAny>,
    what: impl FnOnce() -> String,
) -> PyResult<&'a str> {
    borrowed_str(obj.as_borrowed(), what)
}

/// The text of a str borrowed from a container that holds it (a tuple's item), for as long
/// as the container is borrowed.
fn borrowed_str<'a>(
    obj: Borrowed<'a, '_, PyAny>,
    what: impl FnOnce() -> String,
) -> PyResult<&'a str> {
    match obj.cast::<PyString>() {
        Ok(s) => s
            .extract::<&'a str>()
            .map_err(|e| not_utf8(obj.py(), e, what)),
        Err(_) => Err(input_err(format!(
            "{} is not a str (got {})",
            what(),
            got(&obj)
        ))),
    }
}

/// A str that cannot be encoded as UTF-8 (a lone surrogate such as `'\ud800'`): an
/// `InputError` naming the item and the character index.
fn not_utf8(py: Python<'_>, e: PyErr, what: impl FnOnce() -> String) -> PyErr {
    let at = e
        .value(py)
        .getattr("start")
        .and_then(|v| v.extract::<usize>())
        .map_or(String::new(), |k| format!(" at character {k}"));
    input_err(format!(
        "{} is not valid Unicode text: a lone surrogate{at} (decode with errors='replace' or \
         'surrogateescape' and clean the text)",
        what()
    ))
}

/// One pair's objects, the hypothesis first, then its references (`refs`: a str or a
/// non-empty list or tuple of str); read them in place with [`pair_texts`].
pub(crate) fn one_pair_items<'py>(
    hyp: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    // Room for the usual one reference: no reallocation on the one-pair path.
    let mut out = Vec::with_capacity(2);
    out.push(hyp.clone());
    if refs.cast::<PyString>().is_ok() {
        out.push(refs.clone());
        return Ok(out);
    }
    if refs.cast::<PyList>().is_err() && refs.cast::<PyTuple>().is_err() {
        return Err(input_err(format!(
            "refs must be a str or a list of str (got {})",
            got(refs)
        )));
    }
    out.extend(items(refs, "refs")?);
    if out.len() == 1 {
        return Err(input_err("refs is empty".into()));
    }
    Ok(out)
}

/// The texts of [`one_pair_items`], borrowed (no copy).
pub(crate) fn pair_texts<'a>(items: &'a [Bound<'_, PyAny>]) -> PyResult<Vec<&'a str>> {
    items
        .iter()
        .enumerate()
        .map(|(k, obj)| match k {
            0 => as_str(obj, || "hyp".into()),
            _ => as_str(obj, || format!("refs[{}]", k - 1)),
        })
        .collect()
}

/// The items of a Python list or tuple.
type Items<'py> = Vec<Bound<'py, PyAny>>;

/// How many objects ahead a pass over a batch's items asks for an object's header.
const PREFETCH_OBJECTS: usize = 8;

/// Asks for the header of the object [`PREFETCH_OBJECTS`] after item `i`: the objects of a
/// large batch are scattered over the heap, and each pass over them (type checks, the text's
/// address) otherwise waits for memory at every item. A str's header is 40 to 64 bytes from
/// a 16-byte boundary (its kind at byte 32, its UTF-8 form's address at byte 56), so it often
/// spans two cache lines: both are asked for (reading the kind was a third of the read).
fn prefetch_item(items: &Bound<'_, PyTuple>, i: usize) {
    if i + PREFETCH_OBJECTS < items.len() {
        if let Ok(obj) = items.get_borrowed_item(i + PREFETCH_OBJECTS) {
            let header = obj.as_ptr().cast::<u8>();
            prefetch(header);
            prefetch(header.wrapping_add(56));
        }
    }
}

/// The items of `hyps` and `refs`, which must be lists (or tuples) of the same length.
fn aligned_items<'py>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<(Items<'py>, Items<'py>)> {
    let hyp_items = items(hyps, "hyps")?;
    let ref_items = items(refs, "refs")?;
    check_aligned(hyp_items.len(), ref_items.len())?;
    Ok((hyp_items, ref_items))
}

/// Refuses hypotheses and references of different counts.
fn check_aligned(hyps: usize, refs: usize) -> PyResult<()> {
    if hyps != refs {
        return Err(input_err(format!(
            "hyps has {hyps} items but refs has {refs}"
        )));
    }
    Ok(())
}

/// A list or tuple as a tuple (a list copied by CPython's own loop), whose items can be
/// borrowed for as long as it lives: unlike a list's, they cannot be replaced meanwhile (by
/// another Python thread while the GIL is released), so no item needs a reference of its
/// own, and a batch's texts can be read in any order.
fn tuple_of<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyTuple>> {
    if let Ok(l) = obj.cast::<PyList>() {
        Ok(l.to_tuple())
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        Ok(t.clone())
    } else {
        Err(input_err(format!(
            "{what} must be a list or tuple (got {})",
            type_name(obj)
        )))
    }
}

/// The Python objects of a text batch, held while their texts are read in place: the
/// hypotheses, the reference items, and the members of each reference item that is a list
/// (None for a str).
pub(crate) struct TextItems<'py> {
    hyps: Bound<'py, PyTuple>,
    refs: Bound<'py, PyTuple>,
    members: Vec<Option<Bound<'py, PyTuple>>>,
}

/// The objects of `hyps` (list of str) and `refs` (list of str or list of str), aligned.
pub(crate) fn text_batch_items<'py>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<TextItems<'py>> {
    let hyps = tuple_of(hyps, "hyps")?;
    let refs = tuple_of(refs, "refs")?;
    check_aligned(hyps.len(), refs.len())?;
    text_items(hyps, refs)
}

/// The objects of hypotheses and reference sets of any two lengths (a matrix's rows and
/// columns), one reference set per item of `refs`.
pub(crate) fn matrix_items<'py>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<TextItems<'py>> {
    text_items(tuple_of(hyps, "hyps")?, tuple_of(refs, "refs")?)
}

fn text_items<'py>(
    hyps: Bound<'py, PyTuple>,
    refs: Bound<'py, PyTuple>,
) -> PyResult<TextItems<'py>> {
    let mut members = Vec::with_capacity(refs.len());
    for (i, r) in refs.iter_borrowed().enumerate() {
        prefetch_item(&refs, i);
        if r.cast::<PyString>().is_ok() {
            members.push(None);
        } else if r.cast::<PyList>().is_ok() || r.cast::<PyTuple>().is_ok() {
            let alternatives = tuple_of(&r, "")?;
            if alternatives.is_empty() {
                return Err(input_err(format!("refs[{i}] is empty")));
            }
            members.push(Some(alternatives));
        } else {
            return Err(input_err(format!(
                "refs[{i}] must be a str or a list of str (got {})",
                got(&r)
            )));
        }
    }
    Ok(TextItems {
        hyps,
        refs,
        members,
    })
}

/// The batch as the core reads it ([`mtalign_core::run::collect`]), under the GIL: texts
/// borrowed from the objects these tuples hold (Python strings are immutable and the tuples'
/// items cannot be replaced), so the GIL can be released while they are scored, with no copy.
impl<'a> TextSource<'a> for &'a TextItems<'_> {
    type Error = PyErr;

    fn hyps(&self) -> usize {
        self.hyps.len()
    }

    fn hyp(&self, i: usize) -> PyResult<&'a str> {
        prefetch_item(&self.hyps, i);
        borrowed_str(self.hyps.get_borrowed_item(i)?, || format!("hyps[{i}]"))
    }

    fn ref_items(&self) -> usize {
        self.refs.len()
    }

    fn ref_count(&self, i: usize) -> usize {
        self.members[i].as_ref().map_or(1, |m| m.len())
    }

    fn reference(&self, i: usize, j: usize) -> PyResult<(&'a str, usize)> {
        let obj = match &self.members[i] {
            None => {
                prefetch_item(&self.refs, i);
                self.refs.get_borrowed_item(i)?
            }
            Some(members) => members.get_borrowed_item(j)?,
        };
        let key = obj.as_ptr() as usize;
        let text = match &self.members[i] {
            None => borrowed_str(obj, || format!("refs[{i}]"))?,
            Some(_) => borrowed_str(obj, || format!("refs[{i}][{j}]"))?,
        };
        Ok((text, key))
    }
}

impl TextItems<'_> {
    /// The batch's texts, read in one pass (see [`TextSource`]).
    pub(crate) fn collect(&self) -> PyResult<Collected<'_>> {
        collect(&self)
    }
}

/// Owned pre-tokenized batch: hypotheses first, then distinct references.
pub(crate) struct TokenBatch {
    pub(crate) sentences: Vec<Vec<String>>,
    pub(crate) n_hyps: usize,
    pub(crate) ref_sets: RefSets,
}

/// Pre-tokenized batch: hyps is a list of token lists, refs a list of lists of token lists.
pub(crate) fn read_token_batch(
    hyps: &Bound<'_, PyAny>,
    refs: &Bound<'_, PyAny>,
) -> PyResult<TokenBatch> {
    let (hyp_items, ref_items) = aligned_items(hyps, refs)?;
    let read_tokens = |obj: &Bound<'_, PyAny>, what: String| -> PyResult<Vec<String>> {
        if obj.cast::<PyString>().is_ok() {
            return Err(input_err(format!(
                "{what} must be a list of str tokens (got str; pre-tokenized input needs \
                 token lists everywhere)"
            )));
        }
        items(obj, &what)?
            .iter()
            .enumerate()
            .map(|(k, t)| as_str(t, || format!("{what}[{k}]")).map(str::to_owned))
            .collect()
    };
    let mut sentences: Vec<Vec<String>> = Vec::with_capacity(hyp_items.len() * 2);
    for (i, h) in hyp_items.iter().enumerate() {
        sentences.push(read_tokens(h, format!("hyps[{i}]"))?);
    }
    let n_hyps = sentences.len();
    let mut ref_sets = RefSets::new();
    let mut seen: HashMap<usize, u32> = HashMap::new();
    for (i, r) in ref_items.iter().enumerate() {
        if r.cast::<PyString>().is_ok() {
            return Err(input_err(format!(
                "refs[{i}] must be a list of references, each a list of str tokens (got str)"
            )));
        }
        let alternatives = items(r, &format!("refs[{i}]"))?;
        if alternatives.is_empty() {
            return Err(input_err(format!("refs[{i}] is empty")));
        }
        let mut members = Vec::with_capacity(alternatives.len());
        for (j, alt) in alternatives.iter().enumerate() {
            let key = alt.as_ptr() as usize;
            let id = match seen.get(&key) {
                Some(&id) => id,
                None => {
                    let id = sentences.len() as u32;
                    sentences.push(read_tokens(alt, format!("refs[{i}][{j}]"))?);
                    seen.insert(key, id);
                    id
                }
            };
            members.push(id);
        }
        ref_sets.push(members);
    }
    Ok(TokenBatch {
        sentences,
        n_hyps,
        ref_sets,
    })
}

pub(crate) fn to_array<'py>(
    py: Python<'py>,
    scores: Vec<f64>,
    n: usize,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let mut dims = vec![n];
    dims.extend_from_slice(shape);
    Ok(PyArray1::from_vec(py, scores).reshape(dims)?.into_any())
}

/// Maps arbitrary Python ints of two sequences to dense ids (kernels compare ids only).
pub(crate) fn dense_ids(a: &[i64], b: &[i64]) -> (Vec<u32>, Vec<u32>) {
    let mut map: HashMap<i64, u32> = HashMap::new();
    let mut id = |x: &i64| {
        let n = map.len() as u32;
        *map.entry(*x).or_insert(n)
    };
    let a2 = a.iter().map(&mut id).collect();
    let b2 = b.iter().map(&mut id).collect();
    (a2, b2)
}

pub(crate) fn counts_tuple(c: Counts) -> (u64, u64, u64) {
    (c.hit as u64, c.hyp_total as u64, c.ref_total as u64)
}

/// A C-contiguous (n, width) statistics array as a slice, checked.
pub(crate) fn stats_slice<'a>(
    stats: &'a PyReadonlyArray2<'_, f64>,
    width: usize,
) -> PyResult<&'a [f64]> {
    let shape = stats.shape();
    if shape[1] != width {
        return Err(input_err(format!(
            "statistics must have {width} columns (got {})",
            shape[1]
        )));
    }
    stats
        .as_slice()
        .map_err(|_| input_err("statistics must be a C-contiguous float64 array".into()))
}
