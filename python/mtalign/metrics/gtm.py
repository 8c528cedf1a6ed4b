"""GTM, the General Text Matcher (Turian, Shen & Melamed 2003): precision, recall and F of the
maximum matching size, longer aligned runs rewarded through an exponent.

>>> Gtm(tokenize="whitespace").batch_score(["a b c d", "x"], ["a b x c d", "y"]).tolist()
[0.888888888888889, 0.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign.metrics.base import Metric
from mtalign.metrics.options import CORE, lowercase_option, option, tokenize_option
from mtalign.metrics.results import CorpusResult, sentence_result
from mtalign.metrics.sia import positive_words


class Gtm(Metric[CorpusResult]):
    """GTM: F-measure of precision MMS/|hyp| and recall MMS/|ref|.

    The maximum matching size (MMS) of a hypothesis and a reference is the largest
    (Σ_runs |run|^e)^(1/e) over one-to-one matchings of equal words, a run being a block of
    matched words contiguous in both texts. For ``exponent=1`` it is the number of words the
    two share (exact); for larger exponents the matching is found greedily, the longest run
    of still-unmatched words first (``docs/gtm.md``: the algorithm, its ties, and where it
    differs from the exact maximum). With several references the row of the reference with
    the best F is kept (the first on ties). The corpus score is GTM's document-level score:
    one block-diagonal grid over all sentences (no run crosses a sentence boundary), so
    MMS = (Σ weights)^(1/e) with precision and recall over the summed lengths.

    Args:
        exponent: e, from 1 to 64 (GTM-1, GTM-2, GTM-3 in Lin & Och's tables).
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).
        max_words: the size limit of a pair, as for :class:`mtalign.Sia` (default 20,000):
            GTM's time grows with a pair's matching word pairs (seconds at 25,000 words a
            side, minutes at 50,000), so a text over ``max_words`` words, or a hypothesis and
            a reference with over ``max_words² / 100`` matching word pairs, is refused up
            front with an :class:`~mtalign.InputError`. ``None``: no limit (a pair of more
            than 2²⁶ matching word pairs is still refused: its grid would not fit in memory).

    ``batch_score`` returns the sentence F, float64 (n,); ``sentence_score`` and
    ``corpus_score`` a :class:`~mtalign.CorpusResult` named ``GTM-<e>`` whose ``details``
    hold ``precision``, ``recall`` and ``mms``; :meth:`statistics` has three columns,
    Σ|run|^e, |hyp| and |ref|.

    Example:
        >>> g = Gtm(exponent=2.0, tokenize="whitespace")
        >>> r = g.sentence_score("a b c d", "a b x c d")
        >>> round(float(r), 6), round(r.details["mms"], 6)
        (0.628539, 2.828427)
        >>> Gtm(2).signature()
        'case:mixed|tok:13a|e:2|version:0.1.0'
    """

    __slots__ = ()
    aggregation = "sum"

    native = "gtm"
    exponent: float = option(default=CORE, sig="e")
    tokenize: str = tokenize_option()
    lowercase: bool = lowercase_option()

    max_words: int | None = option(default=CORE, kw_only=True, convert=positive_words)

    signature_fields = ("lowercase", "tokenize", "exponent")

    def _name(self) -> str:
        return f"GTM-{self.exponent:g}"

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        rows = np.ascontiguousarray(rows, dtype=np.float64).reshape(-1, 3)
        return self._core.row_scores(rows)  # type: ignore[no-any-return]

    def _sentence_result(self, row: Any, signature: Any) -> CorpusResult:
        # The native one-pair call's (F, precision, recall, MMS): no array is made.
        return sentence_result(self._name(), row[0],
                               {"precision": row[1], "recall": row[2], "mms": row[3]},
                               signature)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """F of the summed rows (GTM's document-level score): the native figures of the
        summed row."""
        rows = np.asarray(rows, dtype=np.float64).reshape(-1, 3)
        f, p, r, mms = self._core.result_of_row(rows.sum(axis=0).tolist())
        details = {"precision": p, "recall": r, "mms": mms}
        return CorpusResult(self._name(), f, (self, rows), details,
                            n_empty_hyps, n_empty_refs, signature, rows.shape[0])


__all__ = ["Gtm"]
