"""Corpus scores of corpora scored in parts: reduce each part's statistics rows, combine the
parts, and build the corpus result from the combination.

What streams a corpus (``mtalign score`` reading files in chunks, :mod:`mtalign.dask` over
partitions) keeps one :class:`Partial` per part: the column sums of its statistics rows (in
``math.fsum`` precision), its number of sentences, its counts of vanished texts and the
reference counts it saw. Partials add up in any order; :func:`corpus_result` turns the total
into the metric's result, through the same code as :meth:`Metric.corpus_from_statistics`:

* ``aggregation == "sum"`` (BLEU, chrF, TER, WER, PER): the result of the summed row.
  Their statistics are counts, so the sums are exact and the score equals ``corpus_score``
  bit for bit;
* ``"mean"`` (ROUGE, DCS, RIBES, SIA): the result of the mean row (the corpus score is the
  mean of sentence scores), equal to ``corpus_score`` to rounding (1e-15 relative);
* ``None`` (NIST: its rows are weighted by counts over every reference of the batch): no
  partials; score the corpus in one call.

A combined result holds the corpus figures and counts; its ``per_sentence`` has the
metric's columns and no rows (the sentence scores are what the parts produced along the
way).

>>> from mtalign import Bleu
>>> bleu = Bleu()
>>> hyps, refs = ["a b c d", "e f g", "a x c d"], ["a b c d", "e f h", "a b c d"]
>>> parts = [partial(bleu, hyps[:2], refs[:2]), partial(bleu, hyps[2:], refs[2:])]
>>> total = combine(parts)
>>> total.n_sentences
3
>>> float(corpus_result(bleu, total)) == float(bleu.corpus_score(hyps, refs))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign.errors import InputError
from mtalign.metrics.inputs import nrefs
from mtalign.metrics.results import Result
from mtalign.token_ids import IdRefs, ids_signature


@dataclass(frozen=True)
class Partial:
    """What one part of a corpus contributes to the corpus score.

    Attributes:
        sums: column sums of the part's statistics rows, (width,) float64 (``math.fsum`` of
            each column, so a sum does not depend on how the rows were split).
        n_sentences / n_empty_hyps / n_empty_refs: counts, as on a result.
        nrefs: the references-per-segment counts seen (``{"1"}``, ``{"2", "var"}``...).
        inputs: what the rows were scored from: ``{"text"}`` (texts or token lists),
            ``{"ids"}`` (token ids, :class:`~mtalign.TokenIds`: the result then signs
            ``tok:ids``, as ``corpus_score`` of the same ids does), or empty where unknown
            (rows given to :func:`from_statistics` without their references).
    """

    sums: np.ndarray
    n_sentences: int
    n_empty_hyps: int = 0
    n_empty_refs: int = 0
    nrefs: frozenset[str] = field(default_factory=frozenset)
    inputs: frozenset[str] = field(default_factory=frozenset)

    def __add__(self, other: Partial) -> Partial:
        if self.n_sentences == 0:
            return other
        if other.n_sentences == 0:
            return self
        return Partial(self.sums + other.sums, self.n_sentences + other.n_sentences,
                       self.n_empty_hyps + other.n_empty_hyps,
                       self.n_empty_refs + other.n_empty_refs, self.nrefs | other.nrefs,
                       self.inputs | other.inputs)


def _check_reducible(metric: Any) -> str:
    kind = getattr(metric, "aggregation", None)
    if kind not in ("sum", "mean"):
        raise ConfigError(f"{type(metric).__name__} statistics do not combine across parts "
                          f"(aggregation={kind!r}): score the corpus in one call")
    return str(kind)


def column_sums(stats: np.ndarray) -> np.ndarray:
    """``math.fsum`` of each column: the correctly rounded sum, whatever the row order.

    >>> column_sums(np.array([[0.1, 1.0], [0.2, 2.0], [0.3, 3.0]])).tolist()
    [0.6, 6.0]
    """
    stats = np.asarray(stats, dtype=np.float64)
    return np.array([math.fsum(stats[:, j]) for j in range(stats.shape[1])], dtype=np.float64)


def from_statistics(metric: Any, stats: np.ndarray, n_empty_hyps: int = 0,
                    n_empty_refs: int = 0, refs: Sequence[Any] | None = None) -> Partial:
    """The :class:`Partial` of statistics rows already computed (``refs``, when given, as
    ``metric._run`` returns them: for the signature's reference count and whether the rows
    were scored from token ids).

    >>> from mtalign import Wer
    >>> wer = Wer()
    >>> p = from_statistics(wer, wer.statistics(["a b"], ["a c"]), refs=["a c"])
    >>> p.sums.tolist(), p.nrefs, p.inputs
    ([1.0, 2.0], frozenset({'1'}), frozenset({'text'}))
    """
    _check_reducible(metric)
    stats = np.asarray(stats, dtype=np.float64)
    seen = frozenset() if not refs else frozenset([nrefs(refs)])
    inputs = frozenset() if refs is None else frozenset(
        ["ids" if isinstance(refs, IdRefs) else "text"])
    return Partial(column_sums(stats), int(stats.shape[0]), n_empty_hyps, n_empty_refs, seen,
                   inputs)


def partial(metric: Any, hyps: Sequence[Any], refs: Sequence[Any],
            threads: int | None = None) -> Partial:
    """Scores one part of a corpus (``metric.statistics`` rows) and reduces it. ``hyps`` and
    ``refs`` are what ``metric.corpus_score`` takes: texts, token lists or token ids.

    >>> import numpy as np
    >>> from mtalign import Bleu, TokenIds
    >>> p = partial(Bleu(), TokenIds([np.array([1, 2, 3])]), TokenIds([np.array([1, 2, 4])]))
    >>> p.n_sentences, p.inputs
    (1, frozenset({'ids'}))
    >>> corpus_result(Bleu(), p).signature
    'nrefs:1|eff:no|tok:ids|smooth:exp|order:4|ref_len:closest|version:0.1.0'
    """
    _check_reducible(metric)
    arr, nh, nr, refs = metric._run(hyps, refs, threads)
    return from_statistics(metric, metric._stats(arr), nh, nr, refs)


def combine(parts: Iterable[Partial]) -> Partial:
    """The sum of partials (in any order: the sums are ``fsum``-rounded per part, and the
    parts' sums of counts are exact).

    >>> combine([]).n_sentences
    0
    """
    total = Partial(np.zeros(0), 0)
    for p in parts:
        total = total + p
    return total


def _signature_nrefs(seen: frozenset[str]) -> str | None:
    if not seen:
        return None
    return next(iter(seen)) if len(seen) == 1 else "var"


def _signature(metric: Any, total: Partial) -> str:
    """The signature of a combined result: the metric's, ``tok:ids`` where the parts were
    scored from token ids (as :func:`mtalign.token_ids.ids_signature` signs one call's)."""
    sig: str = metric.signature(_signature_nrefs(total.nrefs))
    if total.inputs == frozenset(["ids"]):
        return ids_signature(sig)
    if "ids" in total.inputs:
        raise InputError("the parts were scored from token ids and from text: one signature "
                         "cannot name both tokenizations (score every part the same way)")
    return sig


def corpus_result(metric: Any, total: Partial) -> Result:
    """The metric's corpus result of a combined :class:`Partial` (see the module doc); its
    signature says ``tok:ids`` when the parts were scored from token ids. Parts scored from
    ids and from text do not combine (an :class:`~mtalign.InputError`)."""
    kind = _check_reducible(metric)
    n = total.n_sentences
    if n == 0:
        return metric.corpus_score([], [])  # type: ignore[no-any-return]
    row = total.sums if kind == "sum" else total.sums / n
    sig = _signature(metric, total)
    res: Result = metric._result(np.ascontiguousarray(row.reshape(1, -1)),
                                 total.n_empty_hyps, total.n_empty_refs, sig)
    res._without_sentences(n)
    return res


__all__ = ["Partial", "column_sums", "combine", "corpus_result", "from_statistics", "partial"]
