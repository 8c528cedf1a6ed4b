"""NIST (Doddington 2002), as nltk's ``corpus_nist`` and ``sentence_nist`` compute it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import NistCore
from mtalign._mtalign import __version__ as _native_version
from mtalign.metrics.base import SingleScoreMetric
from mtalign.metrics.inputs import nrefs, run_batch
from mtalign.metrics.options import check_order, check_tokenizer
from mtalign.metrics.results import CorpusResult


class Nist(SingleScoreMetric):
    """NIST: information-weighted n-gram precision (arithmetic mean over orders) × NIST's
    length penalty (0.5 when the output is 2/3 of the reference length).

    Information weights Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) are counted
    over the references: for :meth:`corpus_score` over every reference of the corpus (nltk's
    ``corpus_nist``), for :meth:`sentence_score` and :meth:`batch_score` over that
    sentence's own references (nltk's ``sentence_nist``), so a sentence's score does not
    depend on the rest of the batch. For each order the reference with the best weighted
    precision is kept (nltk's choice). An order no hypothesis reaches adds 0 (nltk divides by
    zero); an empty hypothesis scores 0.

    Args:
        max_order: the longest n-gram, 1 to 12 (default 5).
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).

    Example:
        >>> round(Nist(max_order=2, tokenize="whitespace").sentence_score(
        ...     "the cat sat on the mat", ["the cat sat on a mat"]), 6)
        2.154135
    """

    __slots__ = ("_max_order", "_tokenize", "_lowercase", "_sentence_core", "_corpus_core")
    _max_order: int
    _tokenize: str
    _lowercase: bool
    _sentence_core: NistCore
    _corpus_core: NistCore

    higher_is_better = True

    def __init__(self, max_order: int = 5, *, tokenize: str = "13a",
                 lowercase: bool = False) -> None:
        check_order(max_order)
        check_tokenizer(tokenize, lowercase)
        self._init_slots(_max_order=max_order, _tokenize=tokenize, _lowercase=lowercase,
                         _sentence_core=NistCore(max_order, False, tokenize, lowercase),
                         _corpus_core=NistCore(max_order, True, tokenize, lowercase))

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {"max_order": self._max_order, "tokenize": self._tokenize,
                "lowercase": self._lowercase}

    def __repr__(self) -> str:
        return "Nist(" + ", ".join(f"{k}={v!r}" for k, v in self.config().items()) + ")"

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature.

        >>> Nist().signature()
        'case:mixed|tok:13a|order:5|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        parts += [f"case:{'lc' if self._lowercase else 'mixed'}", f"tok:{self._tokenize}",
                  f"order:{self._max_order}", f"version:{_native_version}"]
        return "|".join(parts)

    def scalar_names(self) -> tuple[str, ...]:
        """``("nist",)``."""
        return ("nist",)

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """Sentence NIST (weights from each sentence's references), shape (n,).

        >>> Nist(tokenize="whitespace").batch_score(["a b", "c"], ["x y", "z"]).tolist()
        [0.0, 0.0]
        """
        arr, _, _, _ = run_batch(self._sentence_core, hyps, refs, threads, self._tokenize)
        each, _ = self._sentence_core.scores(np.ascontiguousarray(arr))
        return each

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None) -> CorpusResult:
        """Corpus NIST (weights from all references), with the summed lengths.

        ``per_sentence`` holds each sentence's share under the corpus weights.

        >>> res = Nist(max_order=1, tokenize="whitespace").corpus_score(["a b"], ["a b"])
        >>> res.score
        1.0
        """
        core = self._corpus_core
        arr, nh, nr, refs = run_batch(core, hyps, refs, threads, self._tokenize)
        stats = np.ascontiguousarray(arr)
        each, total = core.scores(stats)
        n = self._max_order
        sums = stats.sum(axis=0) if stats.shape[0] else np.zeros(1 + 3 * n)
        details = {"sys_len": int(sums[0]), "ref_len": float(sums[1:1 + n].sum()) / n}
        return CorpusResult("NIST", total, each, details, nh, nr, self.signature(nrefs(refs)))


__all__ = ["Nist"]
