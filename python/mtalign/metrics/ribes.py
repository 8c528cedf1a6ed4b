"""RIBES (Isozaki et al. 2010), as nltk's ``sentence_ribes`` / ``corpus_ribes`` compute it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import RibesCore
from mtalign._mtalign import __version__ as _native_version
from mtalign.metrics.base import SingleScoreMetric
from mtalign.metrics.inputs import nrefs, run_batch
from mtalign.metrics.options import check_number, check_tokenizer
from mtalign.metrics.results import CorpusResult


class Ribes(SingleScoreMetric):
    """RIBES: normalised Kendall's τ of the word-rank alignment × p1^alpha × bp^beta.

    The alignment is nltk's ``word_rank_alignment`` (a word found once in both sentences
    aligns directly, otherwise the shortest context n-gram unique in both places it); p1 is
    the share of hypothesis words aligned, bp = min(1, exp(1 - |ref|/|hyp|)). With several
    references the best score is kept; the corpus score is the mean of sentence scores.
    An empty hypothesis scores 0.

    Args:
        alpha, beta: the exponents of unigram precision and brevity penalty (>= 0).
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).

    Example:
        >>> Ribes(tokenize="whitespace").sentence_score(
        ...     "Bob hit John yesterday", "John hit Bob yesterday")
        0.5
    """

    __slots__ = ("_alpha", "_beta", "_tokenize", "_lowercase", "_core")
    _alpha: float
    _beta: float
    _tokenize: str
    _lowercase: bool
    _core: RibesCore

    higher_is_better = True

    def __init__(self, alpha: float = 0.25, beta: float = 0.10, *, tokenize: str = "13a",
                 lowercase: bool = False) -> None:
        a = check_number("alpha", alpha)
        b = check_number("beta", beta)
        check_tokenizer(tokenize, lowercase)
        self._init_slots(_alpha=a, _beta=b, _tokenize=tokenize, _lowercase=lowercase,
                         _core=RibesCore(a, b, tokenize, lowercase))

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {"alpha": self._alpha, "beta": self._beta, "tokenize": self._tokenize,
                "lowercase": self._lowercase}

    def __repr__(self) -> str:
        return "Ribes(" + ", ".join(f"{k}={v!r}" for k, v in self.config().items()) + ")"

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature.

        >>> Ribes().signature()
        'case:mixed|tok:13a|alpha:0.25|beta:0.1|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        parts += [f"case:{'lc' if self._lowercase else 'mixed'}", f"tok:{self._tokenize}",
                  f"alpha:{self._alpha:g}", f"beta:{self._beta:g}",
                  f"version:{_native_version}"]
        return "|".join(parts)

    def scalar_names(self) -> tuple[str, ...]:
        """``("ribes",)``."""
        return ("ribes",)

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """RIBES of each hypothesis against its best reference, shape (n,).

        >>> Ribes(tokenize="whitespace").batch_score(["a b c", ""], ["a b c", "a"]).tolist()
        [1.0, 0.0]
        """
        arr, _, _, _ = run_batch(self._core, hyps, refs, threads, self._tokenize)
        return np.ascontiguousarray(arr)

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None) -> CorpusResult:
        """The mean sentence RIBES (nltk's ``corpus_ribes``)."""
        arr, nh, nr, refs = run_batch(self._core, hyps, refs, threads, self._tokenize)
        each = np.ascontiguousarray(arr)
        score = float(each.mean()) if each.shape[0] else 0.0
        return CorpusResult("RIBES", score, each, {}, nh, nr, self.signature(nrefs(refs)))


__all__ = ["Ribes"]
