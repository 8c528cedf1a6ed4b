"""Scoring corpora larger than one machine with Dask (``pip install mtalign[dask]``).

* :func:`score`: per-segment scores of a Dask DataFrame (a Series aligned with its index) or
  of a Dask Bag (a Bag of floats), computed partition by partition;
* :func:`corpus_score`: the corpus result, the same type as ``metric.corpus_score`` gives,
  from each partition's statistics reduced where it was computed (a few numbers per
  partition travel to the client, not rows): corpus BLEU, chrF, TER, WER and PER equal the
  single-process numbers bit for bit (their statistics are counts); averaged metrics (ROUGE,
  DCS, RIBES, SIA) agree to rounding. NIST weighs n-grams by counts over every reference of
  the corpus, so its corpus score collects the two columns and scores them in one call.

The metric object enters the task graph once (as one ``dask.delayed`` key) and is unpickled
once per worker task; each task scores with ``threads`` native threads (default 1: Dask's
workers are the parallelism). A column of references holds a string or a list of strings per
row, or ``refs`` names several columns (one reference each). A Bag holds records (dicts, or
tuples indexed by ``hyp``/``refs`` given as ints).

Token ids (see :class:`~mtalign.TokenIds`): an Arrow ``list<integer>`` column (as Parquet
stores ids), or an object column of 1-D integer arrays kept as objects (see below), for the
hypotheses and the references (one reference per row, or several columns); the numbers and
the signature (``tok:ids``) are those of ``metric.corpus_score`` of the same ids.

An item that cannot be scored raises, at the client, the metric's own error (an
:class:`~mtalign.InputError`) with its message, the partition and the row's index label.

Several references per row: several columns (``refs=["refA", "refC"]``), or one column of
lists with a list dtype (``pd.ArrowDtype(pa.list_(pa.string()))``, as Parquet gives). An
object column of Python lists, tuples or arrays is another matter: Dask's default
``dataframe.convert-string`` (on whenever pyarrow is installed) turns it into their ``repr``
strings inside ``dd.from_pandas``, and scoring ``"['ref A', 'ref C']"`` as one reference would
give a wrong number without a word. So a cell (hypothesis or reference) that reads as a Python
or JSON list or tuple of strings is refused with an :class:`~mtalign.InputError` saying so;
``dask.config.set({"dataframe.convert-string": False})`` around ``dd.from_pandas`` keeps the
object dtype and its lists. The same holds for an object column of token-id arrays
(``"[17 4 99]"`` is refused, not scored as the text it became).

>>> import pandas as pd, pyarrow as pa, dask.dataframe as dd, mtalign
>>> from mtalign import Bleu
>>> df = pd.DataFrame({"hyp": ["a b c d", "e f g h"],
...                    "ref": pd.Series([["a b c d"], ["e f g x", "y"]],
...                                     dtype=pd.ArrowDtype(pa.list_(pa.string())))})
>>> ddf = dd.from_pandas(df, npartitions=2)
>>> score(Bleu(), ddf).compute(scheduler="sync").round(2).tolist()
[100.0, 59.46]
>>> float(corpus_score(Bleu(), ddf, scheduler="sync")) == float(
...     Bleu().corpus_score(df.hyp.tolist(), [list(r) for r in df.ref]))
True
>>> as_objects = pd.DataFrame({"hyp": ["a b c d"], "ref": [["a b c d", "x"]]})
>>> try:  # dd.from_pandas wrote each list out as a string
...     corpus_score(Bleu(), dd.from_pandas(as_objects, npartitions=1), scheduler="sync")
... except mtalign.InputError as e:
...     print(str(e)[:61])
refs[0] (partition 0, index 0) is the text "['a b c d', 'x']"
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from collections.abc import Sequence
from typing import Any

import dask  # type: ignore[import-not-found, import-untyped, unused-ignore]
import numpy as np

from mtalign.errors import InputError, MtalignError
from mtalign.metrics.partial import Partial, combine, corpus_result, partial

_ITEM = re.compile(r"\b(hyps|refs)\[(\d+)\](\[\d+\])*")  # refs[i][j]: i is the row


def _as_refs(r: Any) -> Any:
    """A row's references as the metrics take them: a str, a list of str, or token ids (a
    1-D integer array is one reference, as a str is); Arrow / NumPy list cells of anything
    else become lists; anything else goes on to be refused by name."""
    if isinstance(r, (str, list)) or r is None:
        return r
    if isinstance(r, np.ndarray) and r.dtype.kind in "iufb":
        return r  # numbers: one sequence of ids (floats are refused by name, as ids)
    if isinstance(r, (tuple, np.ndarray)) or type(r).__name__ in ("ListScalar", "Series"):
        return list(r)
    return r


_NUMBER = r"(?:-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\.\.)"
_NUMBERS = re.compile(rf"[\[(]\s*(?:{_NUMBER}(?:[\s,]+{_NUMBER})*)?\s*,?\s*[\])]")


def _reads_as_list(text: str) -> bool:
    """Whether ``text`` is a list, tuple or NumPy array of strings or numbers written out as
    text: the ``repr``/``str`` Dask's string conversion gives such a cell (``"['a', 'b']"``,
    ``"('a', 'b')"``, NumPy's ``"['a' 'b']"``, token ids' ``"[17 4 99]"``), or a JSON list of
    strings."""
    t = text.strip()
    if (t[:1], t[-1:]) not in (("[", "]"), ("(", ")")):
        return False
    if _NUMBERS.fullmatch(t) and (t[0] == "[" or "," in t):
        return True  # token ids: a NumPy array's "[1 2 3]", a list's "[1, 2, 3]"
    for parse in (ast.literal_eval, json.loads):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escapes in JSON-as-Python
                value = parse(t)
        except Exception:  # noqa: BLE001 - any failure to parse means "not a literal"
            continue
        if t[0] == "(" and not isinstance(value, tuple):
            return False  # "('a')" is a parenthesised string, not a tuple
        return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
    return False


_ARROW_LISTS = "an Arrow list<string> column (pd.ArrowDtype(pa.list_(pa.string())))"
_ARROW_IDS = "token ids as an Arrow list<int64> column (pd.ArrowDtype(pa.list_(pa.int64())))"
_KEEP_OBJECTS = ("keep the object dtype: dask.config.set({'dataframe.convert-string': False}) "
                 "around dd.from_pandas")


def _refuse_lists_as_text(hyps: Sequence[Any], ref_rows: Sequence[Any]) -> None:
    """Raise an InputError for the first cell that reads as a list written out as text (what
    Dask's ``dataframe.convert-string`` makes of an object column of lists)."""
    def refuse(where: str, text: str, what: str, how: str) -> None:
        shown = repr(text if len(text) <= 60 else text[:57] + "...")
        raise InputError(
            f"{where} is the text {shown}: a list written out as a string, which mtalign "
            f"would score as {what}. Dask's default dataframe.convert-string turns an object "
            f"column of lists into such strings. {how}, or {_KEEP_OBJECTS}")

    for i, h in enumerate(hyps):
        if isinstance(h, str) and _reads_as_list(h):
            refuse(f"hyps[{i}]", h, "one hypothesis",
                   f"A hypothesis is one string; pass pre-tokenized ones as {_ARROW_LISTS}, "
                   f"{_ARROW_IDS}")
    several = (f"Pass several references as several columns (refs=['refA', 'refC']) or as "
               f"{_ARROW_LISTS}, {_ARROW_IDS}")
    for i, row in enumerate(ref_rows):
        if isinstance(row, str):
            if _reads_as_list(row):
                refuse(f"refs[{i}]", row, "one reference", several)
        elif isinstance(row, list):
            for j, r in enumerate(row):
                if isinstance(r, str) and _reads_as_list(r):
                    refuse(f"refs[{i}][{j}]", r, "one reference", several)


def _cells(column: Any) -> list[Any]:
    """A pandas column's cells; an Arrow ``list<integer>`` column (token ids, as Parquet
    stores them) gives one 1-D array of its integer type per cell."""
    arrow = getattr(column.dtype, "pyarrow_dtype", None)
    if arrow is None or not hasattr(arrow, "value_type"):
        return column.tolist()  # type: ignore[no-any-return]
    import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]

    if not pa.types.is_integer(arrow.value_type):
        return column.tolist()  # type: ignore[no-any-return]
    dtype = np.dtype(arrow.value_type.to_pandas_dtype())
    return [c if c is None else np.asarray(c, dtype=dtype) for c in column.tolist()]


def _columns(part: Any, hyp: Any, refs: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """(hyps, refs, index labels) of a pandas partition or a Bag partition (list of records)."""
    several = isinstance(refs, (list, tuple))
    if hasattr(part, "columns"):  # pandas DataFrame
        hyps = _cells(part[hyp])
        if several:
            cols = [_cells(part[c]) for c in refs]
            ref_rows = [list(row) for row in zip(*cols, strict=True)]
        else:
            ref_rows = [_as_refs(r) for r in _cells(part[refs])]
        return hyps, ref_rows, part.index.tolist()
    records = list(part)
    hyps = [rec[hyp] for rec in records]
    if several:
        ref_rows = [[rec[c] for c in refs] for rec in records]
    else:
        ref_rows = [_as_refs(rec[refs]) for rec in records]
    return hyps, ref_rows, list(range(len(records)))


def _located(e: MtalignError, number: int, labels: Sequence[Any]) -> MtalignError:
    """The same error, its item named with the partition and the row's index label."""
    msg = str(e)
    m = _ITEM.search(msg)
    if m is not None and int(m.group(2)) < len(labels):
        where = f"{m.group(0)} (partition {number}, index {labels[int(m.group(2))]!r})"
        msg = msg[:m.start()] + where + msg[m.end():]
    else:
        msg = f"partition {number}: {msg}"
    return type(e)(msg)


def _scores_of(part: Any, metric: Any, hyp: Any, refs: Any, variant: str | None,
               threads: int | None, name: str, partition_info: Any = None) -> Any:
    number = partition_info["number"] if partition_info else 0
    hyps, ref_rows, labels = _columns(part, hyp, refs)
    try:
        _refuse_lists_as_text(hyps, ref_rows)
        values = metric.scalar_scores(hyps, ref_rows, variant=variant, threads=threads)
    except MtalignError as e:
        raise _located(e, number, labels) from None
    values = np.asarray(values, dtype=np.float64)
    if hasattr(part, "columns"):
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        return pd.Series(values, index=part.index, name=name)
    return values.tolist()


def _partial_of(metric: Any, part: Any, number: int, hyp: Any, refs: Any,
                threads: int | None) -> Partial:
    hyps, ref_rows, labels = _columns(part, hyp, refs)
    if not hyps:
        return combine([])
    try:
        _refuse_lists_as_text(hyps, ref_rows)
        return partial(metric, hyps, ref_rows, threads)
    except MtalignError as e:
        raise _located(e, number, labels) from None


def _add(a: Partial, b: Partial) -> Partial:
    return a + b


def score(metric: Any, data: Any, hyp: Any = "hyp", refs: Any = "ref", *,
          variant: str | None = None, threads: int | None = 1, name: str | None = None) -> Any:
    """Per-segment scores: a Dask Series (index of ``data``) or a Dask Bag of floats.

    ``variant`` picks the number for metrics with several (``Rouge(["rougeL", "rouge2"])``:
    ``"rouge2"``; ``None`` = the first, as :meth:`~mtalign.Metric.scalar_scores`).
    ``name`` names the Series (default: the variant). Lazy: call ``.compute()``.
    """
    label = name or metric._pick_scalar(variant)
    m = dask.delayed(metric, pure=True)
    if hasattr(data, "map_partitions") and hasattr(data, "columns"):
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        meta = pd.Series([], dtype="float64", name=label)
        return data.map_partitions(_scores_of, m, hyp, refs, variant, threads, label,
                                   meta=meta, partition_info=True)
    if hasattr(data, "map_partitions"):  # a Bag
        parts = data.to_delayed()
        import dask.bag as db  # type: ignore[import-not-found, import-untyped, unused-ignore]

        return db.from_delayed([
            dask.delayed(_scores_of)(p, m, hyp, refs, variant, threads, label,
                                     {"number": i}) for i, p in enumerate(parts)])
    raise TypeError(f"data must be a Dask DataFrame or Bag (got {type(data).__name__})")


def corpus_score(metric: Any, data: Any, hyp: Any = "hyp", refs: Any = "ref", *,
                 threads: int | None = 1, **compute: Any) -> Any:
    """The corpus result of a Dask DataFrame or Bag (computed now; ``compute`` keywords,
    e.g. ``scheduler=``, go to ``dask.compute``). See the module doc for exactness."""
    if not hasattr(data, "to_delayed"):
        raise TypeError(f"data must be a Dask DataFrame or Bag (got {type(data).__name__})")
    if getattr(metric, "aggregation", None) not in ("sum", "mean"):
        # NIST: the statistics of every row depend on every reference of the corpus.
        whole = data.compute(**compute)
        hyps, ref_rows, labels = _columns(whole, hyp, refs)
        try:
            _refuse_lists_as_text(hyps, ref_rows)
            return metric.corpus_score(hyps, ref_rows, threads=threads)
        except MtalignError as e:
            raise _located(e, 0, labels) from None
    m = dask.delayed(metric, pure=True)
    todo = [dask.delayed(_partial_of, pure=True)(m, p, i, hyp, refs, threads)
            for i, p in enumerate(data.to_delayed())]
    while len(todo) > 1:  # a tree of pairwise sums
        nxt = [dask.delayed(_add, pure=True)(a, b) for a, b in zip(todo[::2], todo[1::2],
                                                                  strict=False)]
        if len(todo) % 2:
            nxt.append(todo[-1])
        todo = nxt
    (total,) = dask.compute(todo[0], **compute) if todo else (combine([]),)
    return corpus_result(metric, total)


__all__ = ["corpus_score", "score"]
