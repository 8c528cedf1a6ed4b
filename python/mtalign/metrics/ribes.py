"""RIBES (Isozaki et al. 2010), as nltk's ``sentence_ribes`` / ``corpus_ribes`` compute it.

>>> Ribes(tokenize="whitespace").batch_score(["a b c", ""], ["a b c", "a"]).tolist()
[1.0, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign.metrics.base import Metric
from mtalign.metrics.options import CORE, lowercase_option, option, tokenize_option
from mtalign.metrics.results import CorpusResult, mean_result


class Ribes(Metric[CorpusResult]):
    """RIBES: normalised Kendall's τ of the word-rank alignment × p1^alpha × bp^beta.

    The alignment is nltk's ``word_rank_alignment`` (a word found once in both sentences
    aligns directly, otherwise the shortest context n-gram unique in both places it); p1 is
    the share of hypothesis words aligned, bp = min(1, exp(1 - |ref|/|hyp|)). With several
    references the best score is kept; the corpus score is the mean of sentence scores.
    An empty hypothesis scores 0.

    Args:
        alpha, beta: the exponents of unigram precision and brevity penalty (>= 0).
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).

    ``batch_score`` returns float64 (n,); ``sentence_score`` and ``corpus_score`` a
    :class:`~mtalign.CorpusResult`; :meth:`statistics` has one column, the sentence RIBES.

    Example:
        >>> float(Ribes(tokenize="whitespace").sentence_score(
        ...     "Bob hit John yesterday", "John hit Bob yesterday"))
        0.5
        >>> Ribes().signature()
        'case:mixed|tok:13a|alpha:0.25|beta:0.1|version:0.1.0'
    """


    __slots__ = ()
    aggregation = "mean"

    native = "ribes"
    alpha: float = option(default=CORE, sig="alpha")
    beta: float = option(default=CORE, sig="beta")
    tokenize: str = tokenize_option()
    lowercase: bool = lowercase_option()

    signature_fields = ("lowercase", "tokenize", "alpha", "beta")


    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return np.ascontiguousarray(rows.reshape(-1))

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """The mean sentence RIBES (nltk's ``corpus_ribes``)."""
        return mean_result("RIBES", self, rows, n_empty_hyps, n_empty_refs, signature)


__all__ = ["Ribes"]
