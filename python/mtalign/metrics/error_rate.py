"""Word error rate (WER), position-independent error rate (PER) and character error rate
(CER); lower is better.

>>> Wer(tokenize="whitespace").batch_score(["a b", "a b c"], ["a b", "a x"]).tolist()
[0.0, 1.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign._mtalign import NativeMetric
from mtalign.metrics.base import Metric
from mtalign.metrics.chrf import CharacterInput
from mtalign.metrics.options import lowercase_option, tokenize_option
from mtalign.metrics.results import CorpusResult, sentence_result


class _ErrorRate(Metric[CorpusResult]):
    """What WER, PER and CER share: statistics rows (errors, ref_len), the result."""


    __slots__ = ()
    _name = ""  # the result's name
    higher_is_better = False
    aggregation = "sum"

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        # errors / ref_len (with an empty reference: 0 without errors, 1 with), natively
        rates = self._core.row_scores(np.ascontiguousarray(rows, dtype=np.float64))
        return rates  # type: ignore[no-any-return]

    def _sentence_result(self, row: Any, signature: Any) -> CorpusResult:
        # The native one-pair call's (rate, errors, ref_len): no array is made.
        return sentence_result(self._name, row[0], {"errors": row[1], "ref_len": row[2]},
                               signature)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """Total errors / total reference words (each sentence's best reference): the
        native figures of the summed row (counts: the sums are exact)."""
        rate, errors, ref_len = self._core.result_of_row(rows.sum(axis=0).tolist())
        return CorpusResult(self._name, rate, (self, rows),
                            {"errors": errors, "ref_len": ref_len}, n_empty_hyps,
                            n_empty_refs, signature, rows.shape[0])


class _WordErrorRate(_ErrorRate):
    """What WER and PER share: the native ``error_rate`` of one kind, its word options."""

    __slots__ = ()
    _kind = ""

    native = "error_rate"
    tokenize: str = tokenize_option()
    lowercase: bool = lowercase_option()

    signature_fields = ("lowercase", "tokenize", "multi_ref:min")

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        return self._native(c, kind=self._kind)


class Wer(_WordErrorRate):
    """Word error rate: word-level Levenshtein distance / reference length.

    With several references, the one with the lowest rate is used (the first on ties);
    :meth:`corpus_score` is total edits / total reference words (jiwer's corpus WER for one
    reference). An empty reference gives 0 for an empty hypothesis and 1 otherwise. The edit
    distance runs bit-parallel (Myers/Hyyrö) when the shorter side has at most 64 words.

    Args:
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).

    ``batch_score`` returns float64 (n,); ``sentence_score`` and ``corpus_score`` a
    :class:`~mtalign.CorpusResult` with ``errors`` and ``ref_len`` in its details.
    :meth:`statistics` rows are (errors, reference length); the corpus rate is their sums'
    ratio.

    Example:
        >>> float(Wer(tokenize="whitespace").sentence_score("a b c d", "a x c"))
        0.6666666666666666
        >>> Wer().signature(2)
        'nrefs:2|case:mixed|tok:13a|multi_ref:min|version:0.1.0'
        >>> Wer.higher_is_better
        False
    """

    __slots__ = ()
    _kind = "wer"
    _name = "WER"


class Per(_WordErrorRate):
    """Position-independent error rate (Leusch et al. 2003): WER with word order ignored.

    With ``m`` the bag-of-words overlap (clipped unigram matches), the errors are
    ``max(|hyp|, |ref|) - m`` (substitutions for the unmatched words of the shorter side,
    insertions or deletions for the rest); the rate divides by the reference length. Multiple
    references and empty references as for :class:`Wer`.

    Example:
        >>> float(Per(tokenize="whitespace").sentence_score("c b a d", "a b c"))
        0.3333333333333333
    """

    __slots__ = ()
    _kind = "per"
    _name = "PER"


class Cer(CharacterInput, _ErrorRate):
    """Character error rate: character-level Levenshtein distance / reference length, as
    jiwer 4's ``cer``.

    Each text is stripped of leading and trailing whitespace and read as code points, spaces
    included (no tokenizer: lowercase first if asked); pre-tokenized input is joined with
    single spaces. With several references the one with the lowest rate is used (the first on
    ties); :meth:`corpus_score` is total edits / total reference characters (jiwer's corpus
    CER for one reference). An empty reference gives 0 for an empty hypothesis and 1
    otherwise.

    Args:
        lowercase: lowercase (full Unicode) first.

    ``batch_score`` returns float64 (n,); ``sentence_score`` and ``corpus_score`` a
    :class:`~mtalign.CorpusResult` with ``errors`` and ``ref_len`` in its details.

    Example:
        >>> float(Cer().sentence_score("a b", "a c"))
        0.3333333333333333
        >>> print(Cer().corpus_score(["a c", "xyz"], ["a b", " xy "]))
        CER = 0.4000 (errors = 2 ref_len = 5)
        >>> Cer().signature(1)
        'nrefs:1|case:mixed|tok:char|multi_ref:min|version:0.1.0'
    """

    __slots__ = ()
    _name = "CER"

    native = "cer"
    lowercase: bool = lowercase_option()

    signature_fields = ("lowercase", "tok:char", "multi_ref:min")
    _for_token_ids = "Wer"


__all__ = ["Cer", "Per", "Wer"]
