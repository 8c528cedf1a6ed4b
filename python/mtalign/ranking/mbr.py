"""Minimum-Bayes-risk decoding: pick the hypothesis with the best expected utility.

The hypotheses are scored against samples (pseudo-references, usually the hypotheses
themselves) with any metric; the expected utility of hypothesis i is the (weighted) mean
of its row of :meth:`mtalign.Metric.pairwise`, and MBR picks the best one (the highest, or
the lowest for error rates; first on ties, so the decoder's order breaks them).

>>> import mtalign
>>> res = mtalign.mbr(mtalign.Rouge("rouge1"), ["the cat", "a cat sat", "the cat sat"])
>>> res.best, res.hypothesis
(2, 'the cat sat')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign._travel import Travels, plain


class MbrResult(Travels):
    """The chosen hypothesis and every hypothesis's expected utility.

    Attributes:
        best: index of the chosen hypothesis.
        hypothesis: the chosen hypothesis (as given).
        expected: expected utility of every hypothesis (float array, shape (n,)).
        higher_is_better: the direction used.
        aggregate: whether reference aggregation was used (an approximation).
    """

    __slots__ = ("best", "hypothesis", "expected", "higher_is_better", "aggregate")

    def __init__(self, best: int, hypothesis: Any, expected: np.ndarray,
                 higher_is_better: bool, aggregate: bool) -> None:
        self.best = best
        self.hypothesis = hypothesis
        self.expected = expected
        self.higher_is_better = higher_is_better
        self.aggregate = aggregate

    def __iter__(self) -> Any:
        """``best, expected = mbr(...)`` unpacks the chosen index and the expected scores."""
        return iter((self.best, self.expected))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every attribute (the hypothesis as given; token lists as
        lists).

        >>> MbrResult(1, "b", np.array([0.25, 0.5]), True, False).to_dict()["expected"]
        [0.25, 0.5]
        """
        return plain({"best": self.best, "hypothesis": self.hypothesis,  # type: ignore[no-any-return]
                      "expected": self.expected, "higher_is_better": self.higher_is_better,
                      "aggregate": self.aggregate})

    def __repr__(self) -> str:
        return (f"MbrResult(best={self.best}, expected={float(self.expected[self.best]):.6g}, "
                f"n={self.expected.size})")


def mbr(metric: Any, hyps: Sequence[Any], samples: Sequence[Any] | None = None,
        weights: Sequence[float] | np.ndarray | None = None, *, variant: str | None = None,
        aggregate: bool = False, higher_is_better: bool | None = None,
        threads: int | None = None) -> MbrResult:
    """MBR decoding of one source sentence: the hypothesis with the best expected utility.

    Args:
        metric: an mtalign metric (its :meth:`~mtalign.Metric.expected_scores` is used).
        hyps: the candidate translations.
        samples: the pseudo-references (default: ``hyps`` themselves; the matrix is then
            symmetric and each unordered pair is scored once where the metric allows).
        weights: log-probabilities of the samples (softmax-normalized); None = uniform.
        variant: the metric's score to use (default its first; ROUGE's F-measure).
        aggregate: reference aggregation (chrF, BLEU): linear time, an approximation of
            the expectation (see :meth:`~mtalign.Metric.expected_scores`).
        higher_is_better: override the metric's direction.
        threads: threads for the native scorer.

    >>> from mtalign import Wer
    >>> best, expected = mbr(Wer(), ["a b c", "a b", "a x c"])
    >>> best, expected.round(4).tolist()
    (0, [0.2778, 0.3333, 0.4444])
    """
    if not hasattr(metric, "expected_scores"):
        raise ConfigError("metric must be an mtalign metric (with expected_scores), got "
                          f"{type(metric).__name__}")
    if higher_is_better is not None and not isinstance(higher_is_better, bool):
        raise ConfigError(f"higher_is_better must be True, False or None "
                          f"(got {higher_is_better!r})")
    hib = bool(getattr(metric, "higher_is_better", True)) if higher_is_better is None \
        else higher_is_better
    expected = metric.expected_scores(hyps, samples, weights, variant=variant, threads=threads,
                                      aggregate=aggregate)
    hyps = list(hyps)
    best = int(np.argmax(expected) if hib else np.argmin(expected))
    return MbrResult(best, hyps[best], expected, hib, aggregate)


__all__ = ["MbrResult", "mbr"]
