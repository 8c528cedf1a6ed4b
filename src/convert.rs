//! Python objects in, owned Rust data out (and NumPy arrays back): every check that names
//! the offending item (`hyps[3]`, `refs[2][1]`) lives here.

use crate::errors::input_err;
use mtalign_core::kernels::counts::Counts;
use mtalign_core::prefetch::prefetch;
use mtalign_core::run::{collect, Collected, TextSource};
use mtalign_core::text::refs::RefSets;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::cell::OnceCell;
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
/// hypotheses, the reference items, and (once read) the members of the reference items that
/// are lists, as tuples.
pub(crate) struct TextItems<'py> {
    hyps: Bound<'py, PyTuple>,
    refs: Bound<'py, PyTuple>,
    /// The one pass's: of each reference item that is a list or tuple.
    lists: OnceCell<Vec<Bound<'py, PyTuple>>>,
    /// The checked reading's: of each reference item (None for a str).
    members: OnceCell<Vec<Option<Bound<'py, PyTuple>>>>,
}

/// The objects of `hyps` (list of str) and `refs` (list of str or list of str), aligned.
pub(crate) fn text_batch_items<'py>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<TextItems<'py>> {
    let hyps = tuple_of(hyps, "hyps")?;
    let refs = tuple_of(refs, "refs")?;
    check_aligned(hyps.len(), refs.len())?;
    Ok(TextItems::new(hyps, refs))
}

/// The objects of hypotheses and reference sets of any two lengths (a matrix's rows and
/// columns), one reference set per item of `refs`.
pub(crate) fn matrix_items<'py>(
    hyps: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyAny>,
) -> PyResult<TextItems<'py>> {
    Ok(TextItems::new(
        tuple_of(hyps, "hyps")?,
        tuple_of(refs, "refs")?,
    ))
}

/// How many objects ahead a pass over a batch's items asks for an object's header.
const PREFETCH_OBJECTS: usize = 128;

/// Asks for the header of `obj`, if any: the objects of a large batch are scattered over
/// the heap, and a pass over them otherwise waits for memory at every item. A str's header
/// is 40 to 64 bytes from a 16-byte boundary (its kind at byte 32, its UTF-8 form's address
/// at byte 56), so it often spans two cache lines: both are asked for.
fn prefetch_object(obj: Option<&*mut ffi::PyObject>) {
    if let Some(&obj) = obj {
        let header = obj.cast::<u8>();
        prefetch(header);
        prefetch(header.wrapping_add(56));
    }
}

/// The items of a tuple, borrowed (the tuple holds them).
fn item_ptrs(tuple: &Bound<'_, PyTuple>) -> Vec<*mut ffi::PyObject> {
    let t = tuple.as_ptr();
    // SAFETY: every index is below the tuple's length; the items are borrowed references,
    // alive while the tuple is.
    (0..tuple.len() as ffi::Py_ssize_t)
        .map(|i| unsafe { ffi::PyTuple_GetItem(t, i) })
        .collect()
}

/// The text of `obj` if it is a str (or a subclass) that can be encoded as UTF-8, borrowed
/// for `'a`; otherwise None, with the Python error cleared.
///
/// # Safety
/// `obj` must be a live object that stays alive, unchanged, for `'a`, and the GIL held.
unsafe fn utf8<'a>(obj: *mut ffi::PyObject) -> Option<&'a str> {
    let mut size: ffi::Py_ssize_t = 0;
    // A str's UTF-8 form lives as long as the str (CPython caches it in the object); anything
    // else is refused with a TypeError, which the checked reading names.
    let data = ffi::PyUnicode_AsUTF8AndSize(obj, &mut size);
    if data.is_null() {
        ffi::PyErr_Clear();
        return None;
    }
    let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
    Some(std::str::from_utf8_unchecked(bytes))
}

impl<'py> TextItems<'py> {
    fn new(hyps: Bound<'py, PyTuple>, refs: Bound<'py, PyTuple>) -> Self {
        Self {
            hyps,
            refs,
            lists: OnceCell::new(),
            members: OnceCell::new(),
        }
    }

    /// The batch as the core reads it ([`mtalign_core::run::collect`]'s order), under the
    /// GIL: texts borrowed from the objects these tuples hold (Python strings are immutable
    /// and the tuples' items cannot be replaced), so the GIL can be released while they are
    /// scored, with no copy. One pass over the objects; an item that is not plainly a text
    /// (or, in `refs`, a list or tuple of texts) sends the batch to the checked reading,
    /// which names the first bad item.
    pub(crate) fn collect(&self) -> PyResult<Collected<'_>> {
        match self.read() {
            Some(batch) => Ok(batch),
            None => self.read_checked(),
        }
    }

    /// [`TextItems::collect`]'s one pass: None where an item is anything else than a str
    /// (hypotheses), a str or a non-empty list or tuple of them (references), or a str is
    /// not valid Unicode. The loops call the C API and keep the texts, nothing more: where
    /// each reference is in its item is made after ([`Collected::from_texts`]).
    fn read(&self) -> Option<Collected<'_>> {
        let py = self.hyps.py();
        let hyp_objects = item_ptrs(&self.hyps);
        let ref_objects = item_ptrs(&self.refs);
        let mut hyps = Vec::with_capacity(hyp_objects.len());
        for (i, &obj) in hyp_objects.iter().enumerate() {
            prefetch_object(hyp_objects.get(i + PREFETCH_OBJECTS));
            // SAFETY: `self.hyps` holds the object for as long as `self` is borrowed.
            hyps.push(unsafe { utf8(obj) }?);
        }
        let mut refs = Vec::with_capacity(ref_objects.len());
        let mut keys = Vec::with_capacity(ref_objects.len());
        let mut multi = Vec::new();
        let mut lists = Vec::new();
        for (i, &obj) in ref_objects.iter().enumerate() {
            prefetch_object(ref_objects.get(i + PREFETCH_OBJECTS));
            // SAFETY: (as for the hypotheses) `self.refs` holds the object.
            if unsafe { ffi::PyUnicode_CheckExact(obj) } != 0 {
                refs.push(unsafe { utf8(obj) }?);
                keys.push(obj as usize);
                continue;
            }
            // SAFETY: a borrowed item of `self.refs`, alive while it is.
            let item = unsafe { Borrowed::from_ptr(py, obj) };
            let members = if let Ok(list) = item.cast_exact::<PyList>() {
                list.to_tuple()
            } else {
                item.cast_exact::<PyTuple>().ok()?.to_owned()
            };
            let texts = item_ptrs(&members);
            if texts.is_empty() {
                return None;
            }
            for &text in &texts {
                // SAFETY: `members` holds the object and is kept in `self.lists` below,
                // before the texts are returned, for as long as `self` is borrowed.
                refs.push(unsafe { utf8(text) }?);
                keys.push(text as usize);
            }
            multi.push((i, texts.len()));
            lists.push(members);
        }
        self.lists.set(lists).ok()?;
        Some(Collected::from_texts(
            hyps,
            ref_objects.len(),
            refs,
            keys,
            &multi,
        ))
    }

    /// [`TextItems::collect`] item by item, every item checked: the reference items' kinds
    /// first, then the texts in the core's order, so the first bad item in that order is
    /// the one named.
    fn read_checked(&self) -> PyResult<Collected<'_>> {
        let mut members = Vec::with_capacity(self.refs.len());
        for (i, r) in self.refs.iter_borrowed().enumerate() {
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
        // The one pass stops before it sets the members (a str subclass, for one, is read
        // here without error).
        let source = Checked {
            items: self,
            members: self.members.get_or_init(|| members),
        };
        collect(&source)
    }
}

/// The checked reading of a [`TextItems`] (see [`TextItems::read_checked`]).
struct Checked<'a, 'py> {
    items: &'a TextItems<'py>,
    members: &'a [Option<Bound<'py, PyTuple>>],
}

impl<'a> TextSource<'a> for Checked<'a, '_> {
    type Error = PyErr;

    fn hyps(&self) -> usize {
        self.items.hyps.len()
    }

    fn hyp(&self, i: usize) -> PyResult<&'a str> {
        borrowed_str(self.items.hyps.get_borrowed_item(i)?, || {
            format!("hyps[{i}]")
        })
    }

    fn ref_items(&self) -> usize {
        self.items.refs.len()
    }

    fn ref_count(&self, i: usize) -> usize {
        self.members[i].as_ref().map_or(1, |m| m.len())
    }

    fn reference(&self, i: usize, j: usize) -> PyResult<(&'a str, usize)> {
        let (obj, what) = match &self.members[i] {
            None => (self.items.refs.get_borrowed_item(i)?, None),
            Some(members) => (members.get_borrowed_item(j)?, Some(j)),
        };
        let key = obj.as_ptr() as usize;
        let text = borrowed_str(obj, || match what {
            None => format!("refs[{i}]"),
            Some(j) => format!("refs[{i}][{j}]"),
        })?;
        Ok((text, key))
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
