"""Word error rate (WER) and position-independent error rate (PER); lower is better."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ErrorRateCore
from mtalign._mtalign import __version__ as _native_version
from mtalign.metrics.base import SingleScoreMetric
from mtalign.metrics.inputs import nrefs, run_batch
from mtalign.metrics.options import check_tokenizer
from mtalign.metrics.results import CorpusResult


def _rates(errors: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """errors / ref_len; with an empty reference, 0 without errors and 1 with."""
    safe = np.where(ref_len > 0, ref_len, 1.0)
    return np.where(ref_len > 0, errors / safe, (errors > 0).astype(np.float64))


class _ErrorRate(SingleScoreMetric):
    __slots__ = ("_tokenize", "_lowercase", "_core")
    _tokenize: str
    _lowercase: bool
    _core: ErrorRateCore

    _kind = ""
    higher_is_better = False

    def __init__(self, *, tokenize: str = "13a", lowercase: bool = False) -> None:
        check_tokenizer(tokenize, lowercase)
        self._init_slots(_tokenize=tokenize, _lowercase=lowercase,
                         _core=ErrorRateCore(self._kind, tokenize, lowercase))

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {"tokenize": self._tokenize, "lowercase": self._lowercase}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.config().items())
        return f"{type(self).__name__}({args})"

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature.

        >>> Wer().signature(2)
        'nrefs:2|case:mixed|tok:13a|multi_ref:min|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        parts += [f"case:{'lc' if self._lowercase else 'mixed'}", f"tok:{self._tokenize}",
                  "multi_ref:min", f"version:{_native_version}"]
        return "|".join(parts)

    def scalar_names(self) -> tuple[str, ...]:
        return (self._kind,)

    def statistics(self, hyps: Sequence[Any], refs: Sequence[Any],
                   threads: int | None = None) -> np.ndarray:
        """(n, 2) array of errors and reference length (of the best reference)."""
        arr, _, _, _ = run_batch(self._core, hyps, refs, threads, self._tokenize)
        return np.ascontiguousarray(arr)

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """The error rate of each hypothesis against its best reference, shape (n,)."""
        stats = self.statistics(hyps, refs, threads)
        return _rates(stats[:, 0], stats[:, 1])

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None) -> CorpusResult:
        """Total errors / total reference words (each sentence's best reference)."""
        arr, nh, nr, refs = run_batch(self._core, hyps, refs, threads, self._tokenize)
        stats = np.ascontiguousarray(arr)
        errors, ref_len = stats[:, 0].sum(), stats[:, 1].sum()
        score = _rates(np.array([errors]), np.array([ref_len]))[0]
        return CorpusResult(self._kind.upper(), score, _rates(stats[:, 0], stats[:, 1]),
                            {"errors": int(errors), "ref_len": int(ref_len)}, nh, nr,
                            self.signature(nrefs(refs)))


class Wer(_ErrorRate):
    """Word error rate: word-level Levenshtein distance / reference length.

    With several references, the one with the lowest rate is used (the first on ties);
    :meth:`corpus_score` is total edits / total reference words (jiwer's corpus WER for one
    reference). An empty reference gives 0 for an empty hypothesis and 1 otherwise. The edit
    distance runs bit-parallel (Myers/Hyyrö) when the shorter side has at most 64 words.

    Args:
        tokenize, lowercase: as for :class:`mtalign.Bleu` (default ``"13a"``, case kept).

    Example:
        >>> Wer(tokenize="whitespace").sentence_score("a b c d", "a x c")
        0.6666666666666666
        >>> Wer.higher_is_better
        False
    """

    __slots__ = ()
    _kind = "wer"


class Per(_ErrorRate):
    """Position-independent error rate (Leusch et al. 2003): WER with word order ignored.

    With ``m`` the bag-of-words overlap (clipped unigram matches), the errors are
    ``max(|hyp|, |ref|) - m`` (substitutions for the unmatched words of the shorter side,
    insertions or deletions for the rest); the rate divides by the reference length. Multiple
    references and empty references as for :class:`Wer`.

    Example:
        >>> Per(tokenize="whitespace").sentence_score("c b a d", "a b c")
        0.3333333333333333
    """

    __slots__ = ()
    _kind = "per"


__all__ = ["Per", "Wer"]
