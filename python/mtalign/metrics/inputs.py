"""Input handling shared by every metric: sequences, the native calls, warnings, signatures.

>>> nrefs(["a", "b"]), nrefs(["a", ["b", "c"]])
('1', 'var')
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import InputError
from mtalign.checks import check_ordered, check_stream_shape
from mtalign.errors import MtalignWarning
from mtalign.metrics.options import check_threads
from mtalign.token_ids import IdRefs, hyp_ids, is_token_ids, line_sep_of, one_pair_arrays, ref_ids


def as_list(obj: Any, name: str) -> list | tuple:
    """A list or tuple of sentences (other iterables are materialised)."""
    if isinstance(obj, (list, tuple)):
        return obj
    check_ordered(obj, name)
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
        raise InputError(f"{name} must be a list of sentences (got {type(obj).__name__})")
    return list(obj)


def check_texts(items: Sequence[Any], name: str) -> None:
    """Refuses an item of ``items`` that is neither a text nor a list of texts (or tokens),
    naming it as the caller's argument ``name`` (a matrix's own reading would name its
    internal lists instead). An int there is most often a token id: the error says where
    ids go.

    >>> check_texts(["a b", ["a", "b"]], "hyps")
    >>> try:
    ...     check_texts(["a b", None], "hyps")
    ... except InputError as e:
    ...     print(e)
    hyps[1] is not a str (got NoneType)
    """
    for i, item in enumerate(items):
        if isinstance(item, str):
            continue
        if isinstance(item, (list, tuple)):
            for k, part in enumerate(item):
                if not isinstance(part, str):
                    raise InputError(f"{name}[{i}][{k}] is not a str (got {_got(part)})")
            continue
        raise InputError(f"{name}[{i}] is not a str (got {_got(item)})")


def _got(obj: Any) -> str:
    """The type of a misplaced item as errors say it (the native reader's words)."""
    name = type(obj).__name__
    return f"{name}; token ids go in as NumPy integer arrays or mtalign.TokenIds" \
        if name == "int" else name


def nrefs(refs: Sequence[Any]) -> str:
    """The number of references per segment for a signature ("var" when it varies)."""
    counts = {1 if isinstance(r, str) else len(r) for r in refs}
    return str(counts.pop()) if len(counts) == 1 else "var"


def warn_vanished(hv: list[int], rv: list[tuple[int, int]], tokenize: str,
                   stacklevel: int) -> None:
    where = f"hyps[{hv[0]}]" if hv else f"refs[{rv[0][0]}][{rv[0][1]}]"
    warnings.warn(
        f"{len(hv)} hypotheses and {len(rv)} references are non-empty but produced no "
        f"tokens with tokenize={tokenize!r} (first: {where}); they score 0",
        MtalignWarning,
        stacklevel=stacklevel,
    )


def run_batch(core: Any, hyps: Any, refs: Any, threads: int | None,
              tokenize: str) -> tuple[np.ndarray, int, int, list | tuple]:
    """Calls the native scorer on text, pre-tokenized input or token ids
    (:class:`~mtalign.TokenIds`); warns about vanished text.

    Every batch call of a native scorer goes through here. Returns the native array (one
    statistics row per hypothesis), the numbers of hypotheses and references that produced
    no tokens, and ``refs`` as a list (for ids: one item per hypothesis, as long as its
    reference set).

    >>> from mtalign._mtalign import NativeMetric
    >>> run_batch(NativeMetric("error_rate", tokenize="whitespace"), ["a b"], ["a c"], None, "")[0]
    array([[1., 2.]])
    """
    if is_token_ids(hyps):
        return run_ids(core, hyps, refs, threads)
    hyps = as_list(hyps, "hyps")
    refs = as_list(refs, "refs")
    threads = check_threads(threads)
    if hyps and isinstance(hyps[0], (list, tuple)):
        arr, hv, rv = core.score_tokens(hyps, refs, threads)
    else:
        check_stream_shape(hyps, refs)
        arr, hv, rv = core.score_texts(hyps, refs, threads)
    if hv or rv:
        warn_vanished(hv, rv, tokenize, 5)  # the caller of the metric's method
    return arr, len(hv), len(rv), refs


def run_ids(core: Any, hyps: Any, refs: Any, threads: int | None
            ) -> tuple[np.ndarray, int, int, list[Any]]:
    """:func:`run_batch` of token ids: ``hyps`` a :class:`~mtalign.TokenIds` or a list of 1-D
    arrays, ``refs`` a ``TokenIds`` or a list (item i: a 1-D array or a list of them).
    Nothing vanishes: an empty sequence is an empty text.

    >>> import numpy as np
    >>> from mtalign._mtalign import NativeMetric
    >>> core = NativeMetric("error_rate", tokenize="whitespace")
    >>> run_ids(core, [np.array([1, 2])], [np.array([1, 3])], None)[0]
    array([[1., 2.]])
    """
    h = hyp_ids(hyps)
    r, ends, shape = ref_ids(refs, len(h))
    arr, _, _ = core.score_ids(h._native(), r._native(), ends, check_threads(threads),
                               line_sep_of(h, refs))
    return arr, 0, 0, IdRefs(shape)


def run_one(core: Any, hyp: Any, refs: Any, metric: Any) -> tuple[Any, int, int, Any]:
    """Scores one hypothesis against one reference (str) or several (list): the statistics
    row, whether the hypothesis / how many references produced no tokens, and ``refs`` as
    read (a str or a list).

    Every ``sentence_score`` goes through here. Text and token ids (a 1-D array against
    one array or a list of them) go to the one-pair call
    (``metric._one`` when ``core`` is the metric's own, else ``core.score_one``; no pool, no
    batch tables): the "row" is then what the native call makes of it (a flat list of floats,
    or the figures the metric's result is built from, e.g. WER's rate, errors and reference
    length); otherwise, and for token lists, a batch of one (the row is a (1, ...) array).
    ``metric._tokenizer_name()`` names the tokenizer in the warning about vanished text.

    >>> from mtalign import Wer
    >>> w = Wer(tokenize="whitespace")
    >>> row, n_empty_hyp, n_empty_refs, _ = run_one(w._core, "a b", "a c", w)
    >>> row, n_empty_hyp, n_empty_refs
    ((0.5, 1, 2), 0, 0)
    >>> run_one(w._core, ["a", "b"], [["a", "c"]], w)[0].tolist()
    [[1.0, 2.0]]
    """
    if hyp.__class__ is str:
        if refs.__class__ is not str and refs.__class__ is not list:
            refs = as_list(refs, "refs")
        one = metric._one if core is metric._core else getattr(core, "score_one", None)
        if one is not None:
            arr, hv, rv = one(hyp, refs)
        else:
            arr, hv, rv = core.score_texts([hyp], [refs], None)
    elif isinstance(hyp, (list, tuple)):
        refs = as_list(refs, "refs")
        arr, hv, rv = core.score_tokens([hyp], [refs], None)
    elif is_token_ids(hyp):
        metric._check_token_ids(core)
        h, arrays, refs = one_pair_arrays(hyp, refs)
        return core.score_one_ids(h, arrays), 0, 0, IdRefs(refs)
    else:
        raise InputError(f"hyp must be a str, a list of str tokens or a 1-D array of token ids "
                         f"(got {type(hyp).__name__})")
    if hv or rv:
        hv, rv = hv or [], rv or []  # the one-pair call gives None for an empty list
        warn_vanished(hv, rv, metric._tokenizer_name(), 4)
        return arr, len(hv), len(rv), refs
    return arr, 0, 0, refs
