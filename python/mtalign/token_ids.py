"""Token ids in: a batch of integer sequences, read by the native core in place.

Decoders and RL trainers hold their outputs as integer arrays. :class:`TokenIds` wraps such
a batch without copying it where its memory allows (a padded 2-D array, or a flat buffer
with offsets), and every word-level metric scores it as it scores text: the numbers equal
those of the same ids written as text, joined by spaces, with a whitespace tokenizer (equal
ids are one word). The native side reads the arrays with the GIL released, with no Python
object per token, so a batch scales across threads.

>>> import numpy as np
>>> from mtalign import Bleu, TokenIds
>>> hyps = TokenIds.from_padded(np.array([[5, 6, 7, 8, 0], [9, 9, 0, 0, 0]]), pad_id=0)
>>> refs = TokenIds([np.array([5, 6, 7, 8]), np.array([9, 4])])
>>> Bleu().batch_score(hyps, refs).round(2).tolist()
[100.0, 50.0]
>>> Bleu(tokenize="whitespace").batch_score(["5 6 7 8", "9 9"], ["5 6 7 8", "9 4"]
...                                         ).round(2).tolist()
[100.0, 50.0]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mtalign.errors import InputError

_I64 = np.dtype(np.int64)


def _array(obj: Any, what: str) -> np.ndarray:
    """``obj`` as a NumPy array, without copying where it can: an ndarray as it is, an object
    with ``__dlpack__`` (a CPU torch or JAX tensor) through ``numpy.from_dlpack``, anything
    else with ``__array__`` through ``numpy.asarray``, a list of Python ints converted. No
    array library is imported."""
    if isinstance(obj, np.ndarray):
        return obj
    if isinstance(obj, (list, tuple)):  # Python ints (an empty list is no ids, not floats)
        return np.asarray(obj) if obj else np.zeros(0, dtype=_I64)
    if isinstance(obj, (str, bytes)):
        raise InputError(f"{what} must be an array of integer token ids (got {type(obj).__name__})")
    if hasattr(obj, "__dlpack__"):
        try:
            return np.from_dlpack(obj)
        except (BufferError, RuntimeError, TypeError, ValueError) as e:
            if not hasattr(obj, "__array__"):
                raise InputError(f"{what} cannot be read as a NumPy array ({e}); move it to "
                                 "the CPU first") from None
    if hasattr(obj, "__array__"):
        return np.asarray(obj)
    raise InputError(f"{what} must be an array of integer token ids (got {type(obj).__name__})")


def _ids(obj: Any, what: str, ndim: int) -> np.ndarray:
    """An integer array of ``ndim`` dimensions in native byte order, else InputError."""
    arr = _array(obj, what)
    if arr.dtype.kind not in "iu":
        raise InputError(f"{what} has dtype {arr.dtype}: token ids must be integers")
    if arr.ndim != ndim:
        raise InputError(f"{what} must be a {ndim}-D array of token ids (got {arr.ndim}-D)")
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def _lengths_of(obj: Any, what: str, n: int) -> np.ndarray:
    """Per-row lengths as int64, checked: n of them, integers, none negative."""
    lengths = _array(obj, what)
    if (lengths.dtype.kind not in "iu" and lengths.size) or lengths.shape != (n,):
        raise InputError(f"{what} must be {n} integers, one per row (got dtype "
                         f"{lengths.dtype}, shape {lengths.shape})")
    lengths = np.ascontiguousarray(lengths, dtype=_I64)
    if lengths.size and lengths.min() < 0:
        i = int(np.argmax(lengths < 0))
        raise InputError(f"{what}[{i}] is negative ({int(lengths[i])})")
    return lengths


class TokenIds:
    """A batch of integer token-id sequences (any integer dtype), read in place.

    Three ways in:

    * ``TokenIds(seqs)``: a list of 1-D arrays (NumPy arrays, CPU torch / JAX tensors,
      anything with ``__array__`` or ``__dlpack__``, or lists of ints), one per sequence;
      they are joined
      into one buffer (one copy, no Python object per token);
    * ``TokenIds.from_padded(array, pad_id=...)`` or ``lengths=...``: a 2-D array of rows,
      each row's sequence its ids up to its first ``pad_id`` (or its first ``lengths[i]``
      ids); no copy of a C-contiguous array;
    * ``TokenIds.from_offsets(flat, offsets)``: sequence i is ``flat[offsets[i]:offsets[i +
      1]]``; no copy.

    Every word-level metric takes a ``TokenIds`` (or a list of 1-D arrays) as ``hyps``, and
    as ``refs`` either a ``TokenIds`` (one reference per hypothesis) or a list whose item i
    is a 1-D array or a list of them (several references). A metric that reads characters,
    stems or word strings (chrF, DCS at character level, stemmed ROUGE, METEOR's stem and
    synonym stages) refuses ids with a :class:`~mtalign.ConfigError`.

    >>> import numpy as np
    >>> t = TokenIds.from_offsets(np.array([3, 1, 4, 1, 5], dtype=np.uint16), [0, 2, 2, 5])
    >>> len(t), t[0].tolist(), t[1].tolist(), t.lengths.tolist()
    (3, [3, 1], [], [2, 0, 3])
    >>> TokenIds.from_padded(np.array([[7, 8, 0], [9, 0, 0]]), lengths=[3, 1])[0].tolist()
    [7, 8, 0]
    """

    __slots__ = ("_data", "_starts", "_lengths", "_line_sep")
    _data: np.ndarray
    _starts: np.ndarray
    _lengths: np.ndarray
    _line_sep: int | None

    def __init__(self, seqs: Sequence[Any]) -> None:
        self._set(*_joined(seqs, "seqs"))

    def _set(self, data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
        self._data = np.ascontiguousarray(data)
        self._starts = starts
        self._lengths = lengths
        self._line_sep = None

    @classmethod
    def _of(cls, data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> TokenIds:
        out = cls.__new__(cls)
        out._set(data, starts, lengths)
        return out

    @classmethod
    def from_padded(cls, array: Any, *, pad_id: int | None = None,
                    lengths: Any = None) -> TokenIds:
        """Rows of a 2-D array: each row's ids up to its first ``pad_id``, or its first
        ``lengths[i]`` ids (exactly one of the two).

        >>> import numpy as np
        >>> t = TokenIds.from_padded(np.array([[4, 2, 0], [0, 0, 0]]), pad_id=0)
        >>> [s.tolist() for s in t]
        [[4, 2], []]
        """
        arr = _ids(array, "array", 2)
        n, width = arr.shape
        if (pad_id is None) == (lengths is None):
            raise InputError("from_padded needs pad_id or lengths (one of the two): where "
                             "each row's ids end")
        if lengths is None:
            if isinstance(pad_id, bool) or not isinstance(pad_id, (int, np.integer)):
                raise InputError(f"pad_id must be an int (got {type(pad_id).__name__})")
            is_pad = arr == pad_id
            found = is_pad.any(axis=1)
            row_lengths = np.where(found, is_pad.argmax(axis=1), width).astype(_I64)
        else:
            row_lengths = _lengths_of(lengths, "lengths", n)
            if row_lengths.size and row_lengths.max() > width:
                i = int(np.argmax(row_lengths > width))
                raise InputError(f"lengths[{i}] is {int(row_lengths[i])}, beyond the row's "
                                 f"{width} ids")
        flat = np.ascontiguousarray(arr).reshape(-1)
        return cls._of(flat, np.arange(n, dtype=_I64) * width, row_lengths)

    @classmethod
    def from_offsets(cls, flat: Any, offsets: Any) -> TokenIds:
        """Sequence i is ``flat[offsets[i]:offsets[i + 1]]`` (offsets never decrease).

        >>> import numpy as np
        >>> [s.tolist() for s in TokenIds.from_offsets(np.arange(4), [0, 1, 4])]
        [[0], [1, 2, 3]]
        """
        data = _ids(flat, "flat", 1)
        off = _array(offsets, "offsets")
        if off.dtype.kind not in "iu" or off.ndim != 1 or off.size == 0:
            raise InputError("offsets must be a 1-D array of integers, one more than the "
                             f"sequences (got dtype {off.dtype}, shape {off.shape})")
        off = off.astype(_I64)
        if off[0] < 0:
            raise InputError(f"offsets[0] is negative ({int(off[0])})")
        steps = np.diff(off)
        if steps.size and steps.min() < 0:
            i = int(np.argmax(steps < 0))
            raise InputError(f"offsets must not decrease: offsets[{i + 1}] = {int(off[i + 1])} "
                             f"< offsets[{i}] = {int(off[i])} (sequence {i})")
        if off[-1] > data.size:
            raise InputError(f"offsets[{off.size - 1}] = {int(off[-1])} is beyond the "
                             f"{data.size} ids of flat")
        return cls._of(data, np.ascontiguousarray(off[:-1]), steps)

    def with_line_sep(self, sep_id: int) -> TokenIds:
        """The same sequences (the same memory), with ``sep_id`` marking line breaks: as
        ``"\\n"`` in text, it splits ``rougeLsum``'s summary lines (empty lines dropped) and
        is no word for any metric.

        >>> import numpy as np
        >>> from mtalign import Rouge
        >>> t = TokenIds([np.array([1, 2, 99, 3])]).with_line_sep(99)
        >>> t.line_sep, Rouge("rougeLsum").batch_score(t, TokenIds([np.array([3, 99, 1, 2])]))[
        ...     "rougeLsum"][0].tolist()
        (99, [1.0, 1.0, 1.0])
        """
        if isinstance(sep_id, bool) or not isinstance(sep_id, (int, np.integer)):
            raise InputError(f"sep_id must be an int (got {type(sep_id).__name__})")
        out = TokenIds._of(self._data, self._starts, self._lengths)
        out._line_sep = int(sep_id)
        return out

    @property
    def line_sep(self) -> int | None:
        """The id that marks line breaks (:meth:`with_line_sep`), or None."""
        return self._line_sep

    def __len__(self) -> int:
        return int(self._lengths.shape[0])

    def __getitem__(self, i: int) -> np.ndarray:
        """Sequence ``i``, a read-only 1-D view of the ids."""
        start = int(self._starts[i])
        view = self._data[start:start + int(self._lengths[i])]
        view.flags.writeable = False
        return view

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self[i] for i in range(len(self)))

    @property
    def lengths(self) -> np.ndarray:
        """The number of ids of each sequence (int64, a copy)."""
        return self._lengths.copy()

    @property
    def dtype(self) -> np.dtype:
        """The ids' dtype, as given."""
        return self._data.dtype

    def __repr__(self) -> str:
        return f"TokenIds({len(self)} sequences, {int(self._lengths.sum())} ids, {self.dtype})"

    def _native(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What the native ``score_ids`` reads: (ids, starts, lengths)."""
        return self._data, self._starts, self._lengths


def _joined(seqs: Any, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A list of 1-D id arrays as one buffer, starts and lengths (``what[i]`` in errors)."""
    if isinstance(seqs, (str, bytes)) or not isinstance(seqs, (list, tuple)):
        raise InputError(f"{what} must be a list of 1-D token id arrays (got "
                         f"{type(seqs).__name__})")
    arrays = [_ids(s, f"{what}[{i}]", 1) for i, s in enumerate(seqs)]
    lengths = np.fromiter((a.shape[0] for a in arrays), dtype=_I64, count=len(arrays))
    starts = np.zeros(len(arrays), dtype=_I64)
    np.cumsum(lengths[:-1], out=starts[1:])
    if not arrays:
        return np.zeros(0, dtype=_I64), starts, lengths
    dtypes = {a.dtype for a in arrays}
    dtype = np.result_type(*dtypes)
    if dtype.kind not in "iu":
        raise InputError(f"{what} mixes {' and '.join(sorted(str(d) for d in dtypes))} ids, "
                         "which have no common integer dtype: cast them to one")
    return np.concatenate(arrays).astype(dtype, copy=False), starts, lengths


class IdRefs(list):  # type: ignore[type-arg]
    """The references of a result scored from token ids, as its signature counts them
    (``nrefs``); marks the signature as one of ids (:func:`ids_signature`)."""

    __slots__ = ()


def ids_signature(sig: str) -> str:
    """The signature of a result scored from token ids: ``tok:ids`` in place of the
    metric's tokenizer, and no ``case``/``lc`` field (ids have no case; neither option
    applies to them).

    >>> ids_signature("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0")
    'nrefs:1|eff:no|tok:ids|smooth:exp|version:0.1.0'
    """
    parts = [p for p in sig.split("|") if not p.startswith(("case:", "lc:"))]
    return "|".join("tok:ids" if p.startswith("tok:") else p for p in parts)


def is_token_ids(obj: Any) -> bool:
    """Whether ``obj`` is id input: a :class:`TokenIds`, an array (2-D arrays are refused by
    :func:`hyp_ids` with a hint), or a list whose first item is an array.

    >>> import numpy as np
    >>> is_token_ids([np.array([1, 2])]), is_token_ids(["a b"]), is_token_ids([["a", "b"]])
    (True, False, False)
    """
    if isinstance(obj, TokenIds):
        return True
    if isinstance(obj, (list, tuple)):
        return len(obj) > 0 and _is_array(obj[0])
    return _is_array(obj)


def is_id_batch(obj: Any) -> bool:
    """Whether ``obj`` is a batch of ids as one object, not a list to be read item by item:
    a :class:`TokenIds`, or an array of two or more dimensions (which :func:`hyp_ids`
    refuses with a hint: read row by row, a padded array would score its pads).

    >>> import numpy as np
    >>> is_id_batch(TokenIds([])), is_id_batch(np.zeros((2, 3))), is_id_batch([np.zeros(2)])
    (True, True, False)
    >>> is_id_batch(np.array(["a b", "c"]))  # texts in a 1-D array are a list of texts
    False
    """
    return isinstance(obj, TokenIds) or (_is_array(obj) and getattr(obj, "ndim", 1) >= 2)


def _is_array(obj: Any) -> bool:
    return not isinstance(obj, (str, bytes, list, tuple)) and (
        hasattr(obj, "__array__") or hasattr(obj, "__dlpack__"))


def hyp_ids(hyps: Any, what: str = "hyps") -> TokenIds:
    """``hyps`` as :class:`TokenIds` (a list of 1-D arrays is joined; ``what`` names it in
    errors)."""
    if isinstance(hyps, TokenIds):
        return hyps
    if isinstance(hyps, (list, tuple)):
        return TokenIds._of(*_joined(hyps, what))
    arr = _array(hyps, what)
    if arr.ndim == 2:
        raise InputError(f"{what} is a 2-D array: say where each row ends, with "
                         f"TokenIds.from_padded({what}, pad_id=...) or lengths=...")
    raise InputError(f"{what} is one {arr.ndim}-D array: a batch is a TokenIds or a list of "
                     "1-D arrays (sentence_score takes one 1-D array)")


def line_sep_of(hyps: TokenIds, refs: Any) -> int | None:
    """The line separator of a batch: the one its hypotheses or references (a
    :class:`TokenIds`) name; InputError when they name two."""
    if isinstance(refs, RefSetIds):
        refs = refs.ids
    seps = {t.line_sep for t in (hyps, refs)
            if isinstance(t, TokenIds) and t.line_sep is not None}
    if len(seps) > 1:
        raise InputError(f"hyps and refs name different line separators: {sorted(seps)}")
    return seps.pop() if seps else None


def ref_ids(refs: Any, n: int) -> tuple[TokenIds, np.ndarray | None, list[Any]]:
    """``refs`` of ``n`` hypotheses as (all references as TokenIds, the end of each
    hypothesis's set in them or None for one each, a list whose item i has one entry per
    reference of set i, for the signature's ``nrefs``)."""
    if isinstance(refs, TokenIds):
        if len(refs) != n:
            raise InputError(f"hyps has {n} items but refs has {len(refs)}")
        return refs, None, [(None,)] * n
    if isinstance(refs, RefSetIds):
        if len(refs) != n:
            raise InputError(f"hyps has {n} items but refs has {len(refs)}")
        sizes = np.diff(refs.ends, prepend=0).tolist()
        return refs.ids, refs.ends, [(None,) * k for k in sizes]
    if not isinstance(refs, (list, tuple)):
        arr = _array(refs, "refs")
        hint = (" with TokenIds.from_padded(refs, pad_id=...) or lengths=..." if arr.ndim == 2
                else "")
        raise InputError(f"refs must be a TokenIds or a list (item i: a 1-D array, or a list "
                         f"of them){hint}")
    if len(refs) != n:
        raise InputError(f"hyps has {n} items but refs has {len(refs)}")
    flat: list[Any] = []
    ends = np.empty(n, dtype=_I64)
    names: list[str] = []
    shapes: list[Any] = []
    for i, r in enumerate(refs):
        if isinstance(r, (list, tuple)):
            if not r:
                raise InputError(f"refs[{i}] is empty")
            flat.extend(r)
            names.extend(f"refs[{i}][{j}]" for j in range(len(r)))
            shapes.append(r)
        else:
            flat.append(r)
            names.append(f"refs[{i}]")
            shapes.append((None,))
        ends[i] = len(flat)
    arrays = [_ids(r, name, 1) for r, name in zip(flat, names, strict=True)]
    return TokenIds._of(*_joined(arrays, "refs")), ends, shapes


class RefSetIds:
    """Reference sets over one :class:`TokenIds`: set i is ``ids[ends[i-1]:ends[i]]`` (what
    :func:`ref_ids` makes of a list of lists of arrays, built directly by :func:`pair_grid`
    without one Python object per pair)."""

    __slots__ = ("ids", "ends")

    def __init__(self, ids: TokenIds, ends: np.ndarray) -> None:
        self.ids = ids
        self.ends = ends

    def __len__(self) -> int:
        return int(self.ends.shape[0])


def pair_grid(hyps: Any, pseudo_refs: Any) -> tuple[TokenIds, TokenIds | RefSetIds, int, int]:
    """Every pair of a pairwise matrix as one batch: ``hyps[i]`` against ``pseudo_refs[j]``
    in row-major order (``pseudo_refs`` None: the hypotheses themselves; item j a 1-D array,
    or a list of them used together as one reference set). Returns (the n·m hypotheses, their
    references, n, m). The pairs index one buffer of the distinct sequences, so no id is
    copied per pair.

    >>> import numpy as np
    >>> h, r, n, m = pair_grid([np.array([1, 2]), np.array([3])], [np.array([4]), [np.array(
    ...     [5]), np.array([6])]])
    >>> [x.tolist() for x in h], [x.tolist() for x in r.ids], r.ends.tolist(), (n, m)
    ([[1, 2], [1, 2], [3], [3]], [[4], [5], [6], [4], [5], [6]], [1, 3, 4, 6], (2, 2))
    """
    h = hyp_ids(hyps)
    n = len(h)
    if pseudo_refs is None:
        r, ends, m = h, None, n
    elif is_id_batch(pseudo_refs):
        r, ends = hyp_ids(pseudo_refs, "pseudo_refs"), None  # an array is refused by name
        m = len(r)
    else:
        refs = list(pseudo_refs)
        m = len(refs)
        if any(isinstance(x, (list, tuple)) for x in refs):
            r, ends, _ = ref_ids(refs, m)
        else:
            r, ends = TokenIds._of(*_joined(refs, "pseudo_refs")), None
    sep = line_sep_of(h, r)
    if r is h:
        data, r_starts = h._data, h._starts
    else:
        dtype = np.result_type(h._data.dtype, r._data.dtype)
        if dtype.kind not in "iu":
            raise InputError(f"hyps ({h._data.dtype}) and pseudo_refs ({r._data.dtype}) have "
                             "no common integer dtype: cast them to one")
        data = np.concatenate([h._data.astype(dtype, copy=False),
                               r._data.astype(dtype, copy=False)])
        r_starts = r._starts + h._data.shape[0]
    grid_h = TokenIds._of(data, np.repeat(h._starts, m), np.repeat(h._lengths, m))
    grid_h._line_sep = sep
    if ends is None:
        grid_r = TokenIds._of(data, np.tile(r_starts, n), np.tile(r._lengths, n))
        grid_r._line_sep = sep
        return grid_h, grid_r, n, m
    total = len(r)
    all_refs = TokenIds._of(data, np.tile(r_starts, n), np.tile(r._lengths, n))
    all_refs._line_sep = sep
    grid_ends = (np.arange(n, dtype=_I64)[:, None] * total + ends[None, :]).reshape(-1)
    return grid_h, RefSetIds(all_refs, grid_ends), n, m


def concat_grids(grids: Sequence[tuple[TokenIds, TokenIds | RefSetIds, int, int]]
                 ) -> tuple[TokenIds, TokenIds | RefSetIds]:
    """The pairs of several :func:`pair_grid` results as one batch, in order (each grid's
    buffer is copied once into one; no id is copied per pair)."""
    sets = [g[1] if isinstance(g[1], RefSetIds) else
            RefSetIds(g[1], np.arange(1, len(g[1]) + 1, dtype=_I64)) for g in grids]
    # A grid's references lie in its hypotheses' buffer: one merged buffer serves both.
    data, shift = _merged_buffer([g[0] for g in grids])
    hyps = _batches_joined([g[0] for g in grids], data, shift)
    if all(isinstance(g[1], TokenIds) for g in grids):
        return hyps, _batches_joined([g[1] for g in grids], data, shift)  # type: ignore[misc]
    offsets = np.cumsum([0] + [len(s.ids) for s in sets[:-1]])
    ends = np.concatenate([s.ends + k for s, k in zip(sets, offsets, strict=True)])
    return hyps, RefSetIds(_batches_joined([s.ids for s in sets], data, shift), ends)


def concat_ids(parts: Sequence[TokenIds]) -> tuple[TokenIds, np.ndarray]:
    """Several batches as one (their buffers copied once into one) and where each ends in
    it; the batches must name the same line separator (or none).

    >>> import numpy as np
    >>> t, ends = concat_ids([TokenIds([np.array([1, 2])]), TokenIds([[3], []])])
    >>> [s.tolist() for s in t], ends.tolist()
    ([[1, 2], [3], []], [1, 3])
    """
    ends = np.cumsum([len(p) for p in parts], dtype=_I64)
    if len(parts) == 1:
        return parts[0], ends
    return _batches_joined(parts, *_merged_buffer(parts)), ends


def _merged_buffer(parts: Sequence[TokenIds]) -> tuple[np.ndarray, np.ndarray]:
    """The id buffers of ``parts`` copied once into one (their common integer dtype), and
    where each part's buffer starts in it."""
    datas = [p._data for p in parts]
    dtype = np.result_type(*datas) if datas else _I64
    if dtype.kind not in "iu":
        raise InputError("the blocks' ids have no common integer dtype: cast them to one")
    shift = np.cumsum([0] + [d.shape[0] for d in datas[:-1]])
    data = np.concatenate([d.astype(dtype, copy=False) for d in datas]) if datas else \
        np.zeros(0, dtype=_I64)
    return data, shift


def _batches_joined(parts: Sequence[TokenIds], data: np.ndarray, shift: np.ndarray
                    ) -> TokenIds:
    """The sequences of ``parts`` in order, over ``data`` (part k's buffer at ``shift[k]``,
    from :func:`_merged_buffer`); the parts must name the same line separator (or none)."""
    seps = {p.line_sep for p in parts if p.line_sep is not None}
    if len(seps) > 1:
        raise InputError(f"the blocks name different line separators: {sorted(seps)}")
    starts = [p._starts + k for p, k in zip(parts, shift, strict=True)]
    out = TokenIds._of(data, np.concatenate(starts) if starts else np.zeros(0, _I64),
                       np.concatenate([p._lengths for p in parts]) if parts else
                       np.zeros(0, _I64))
    out._line_sep = seps.pop() if seps else None
    return out


def one_pair_arrays(hyp: Any, refs: Any) -> tuple[np.ndarray, list[np.ndarray], list[Any]]:
    """One hypothesis array and its reference array (or list of them) as contiguous 1-D
    integer arrays: (hyp, the references, the references as given in a list)."""
    ref_list = refs if refs.__class__ is list else (
        list(refs) if isinstance(refs, tuple) else [refs])
    if not ref_list:
        raise InputError("refs is empty")
    arrays = [_one(r, f"refs[{j}]") for j, r in enumerate(ref_list)]
    return _one(hyp, "hyp"), arrays, ref_list


def _one(obj: Any, what: str) -> np.ndarray:
    """A contiguous 1-D integer array in native byte order (as it is when it already is)."""
    if (obj.__class__ is np.ndarray and obj.ndim == 1 and obj.dtype.kind in "iu"
            and obj.flags.c_contiguous and obj.dtype.isnative):
        return obj
    return np.ascontiguousarray(_ids(obj, what, 1))


__all__ = ["IdRefs", "RefSetIds", "TokenIds", "concat_grids", "concat_ids", "hyp_ids",
           "ids_signature", "is_id_batch", "is_token_ids", "line_sep_of", "one_pair_arrays",
           "pair_grid", "ref_ids"]
