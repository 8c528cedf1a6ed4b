"""NIST (Doddington 2002), as nltk's ``corpus_nist`` and ``sentence_nist`` compute it.

>>> float(Nist(max_order=1, tokenize="whitespace").sentence_score("a b", "a b"))
1.0
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from mtalign._mtalign import NativeMetric
from mtalign.metrics.base import Metric, _check_bootstrap
from mtalign.metrics.options import CORE, lowercase_option, option, tokenize_option
from mtalign.metrics.results import CorpusResult, sentence_result


class Nist(Metric[CorpusResult]):
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

    :meth:`statistics` are the rows of the corpus weights (their sum is corpus NIST, so a
    bootstrap resamples rows with the full corpus's weights). ``batch_score`` returns float64
    (n,); ``sentence_score`` and ``corpus_score`` a :class:`~mtalign.CorpusResult` (for the
    corpus, ``per_sentence`` holds each sentence's share under the corpus weights).

    Example:
        >>> round(float(Nist(max_order=2, tokenize="whitespace").sentence_score(
        ...     "the cat sat on the mat", ["the cat sat on a mat"])), 6)
        2.154135
        >>> Nist(tokenize="whitespace").batch_score(["a b", "c"], ["x y", "z"]).tolist()
        [0.0, 0.0]
        >>> Nist(max_order=1, tokenize="whitespace").corpus_score(["a b"], ["a b"]).score
        1.0
        >>> Nist().signature()
        'case:mixed|tok:13a|order:5|version:0.1.0'
    """

    # aggregation None: rows depend on the whole batch (the information weights).

    native = "nist"
    max_order: int = option(default=CORE, sig="order")
    tokenize: str = tokenize_option()
    lowercase: bool = lowercase_option()

    signature_fields = ("lowercase", "tokenize", "max_order")
    __slots__ = ("_corpus_core",)
    _corpus_core: ClassVar[NativeMetric]  # a slot (ClassVar: not an option)

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        # Sentence NIST weighs n-grams by the sentence's own references; corpus NIST by all.
        object.__setattr__(self, "_corpus_core", self._native(c, corpus_weights=True))
        return self._native(c, corpus_weights=False)

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return self._core.sentence_scores(np.ascontiguousarray(rows))  # type: ignore[no-any-return]

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any, core: Any = None) -> CorpusResult:
        native = core or self._corpus_core
        each, (total,) = native.sentence_scores(rows), native.corpus_figures(rows)
        # The lengths of the summed row, as the one-pair call reports a sentence's.
        _, sys_len, ref_len = native.result_of_row(rows.sum(axis=0).tolist())
        details = {"sys_len": sys_len, "ref_len": ref_len}
        return CorpusResult("NIST", total, each, details, n_empty_hyps, n_empty_refs,
                            signature)

    def statistics(self, hyps: Any, refs: Any, threads: int | None = None) -> np.ndarray:
        """Rows under the corpus weights (counted over every reference of the batch).

        >>> Nist(max_order=1, tokenize="whitespace").statistics(["a b"], ["a b"]).shape
        (1, 4)
        """
        arr, _, _, _ = self._run(hyps, refs, threads, self._corpus_core)
        return np.ascontiguousarray(arr)

    def _result_one(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                    signature: Any) -> CorpusResult:
        """A batch of one under the sentence weights: its own references (nltk's
        ``sentence_nist``).

        >>> n = Nist(tokenize="whitespace")
        >>> float(n.sentence_score(["a"], [["a", "b"]])) == float(n.sentence_score("a", "a b"))
        True
        """
        return self._result(rows, n_empty_hyps, n_empty_refs, signature, self._core)

    def _sentence_result(self, row: Any, signature: Any) -> CorpusResult:
        # The native one-pair call's (NIST, sys_len, ref_len): no array is made.
        return sentence_result("NIST", row[0], {"sys_len": row[1], "ref_len": row[2]},
                               signature)

    def corpus_score(self, hyps: Any, refs: Any, threads: int | None = None, *,
                     n_bootstrap: int = 1, seed: int | None = 12345) -> CorpusResult:
        """Corpus NIST (weights from all references), with the summed lengths. A bootstrap
        (``n_bootstrap`` > 1) resamples the rows under those corpus weights.

        >>> print(Nist(max_order=1, tokenize="whitespace").corpus_score(["a b"], ["a c"]))
        NIST = 0.5000 (sys_len = 2 ref_len = 2)
        """
        _check_bootstrap(n_bootstrap, seed)
        arr, nh, nr, refs = self._run(hyps, refs, threads, self._corpus_core)
        return self._corpus_result(np.ascontiguousarray(arr), nh, nr, refs, n_bootstrap, seed)


__all__ = ["Nist"]
