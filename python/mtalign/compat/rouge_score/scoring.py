"""``rouge_score.scoring``: ``Score``, ``AggregateScore``, ``BaseScorer``,
``BootstrapAggregator`` and ``fmeasure``.

``BootstrapAggregator`` resamples as rouge-score's does, draw for draw: for each score type
(in the order first added), ``n_samples`` times ``numpy.random.choice(n, size=n)`` from
NumPy's global generator, the mean of each resample, then the percentiles
``(1 - confidence_interval) / 2``, 50 and ``1 - (1 - confidence_interval) / 2`` of those means.
So after ``numpy.random.seed(s)`` it returns rouge-score's numbers exactly. ``seed=`` (an
mtalign extension) draws from a private ``numpy.random.RandomState(seed)`` instead, which gives
the same numbers as seeding the global generator with that value, without touching it.

>>> from mtalign.compat.rouge_score.scoring import BootstrapAggregator, Score
>>> agg = BootstrapAggregator(seed=1)
>>> agg.add_scores({"rouge1": Score(precision=1.0, recall=0.5, fmeasure=2 / 3)})
>>> agg.add_scores({"rouge1": Score(precision=0.0, recall=0.0, fmeasure=0.0)})
>>> float(agg.aggregate()["rouge1"].mid.precision)
0.5
"""

from __future__ import annotations

import abc
from collections import defaultdict
from typing import Any, NamedTuple

import numpy as np

from mtalign.metrics.rouge import Score

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


class AggregateScore(NamedTuple):
    """Low, mid (the mean) and high bounds of a bootstrap confidence interval."""

    low: Any
    mid: Any
    high: Any


class BaseScorer(abc.ABC):
    """The scorer interface: ``score(target, prediction) -> {type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target``."""


class BootstrapAggregator:
    """Bootstrap confidence intervals of the mean of added scores (see the module doc).

    Args:
        confidence_interval: in [0, 1]; 0.95 gives the 2.5th and 97.5th percentiles.
        n_samples: number of resamples (> 0).
        seed: ``None`` (NumPy's global generator, as rouge-score) or an int for a private
            ``RandomState``.
    """

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000,
                 seed: int | None = None) -> None:
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        self._confidence_interval = confidence_interval
        self._n_samples = n_samples
        self._seed = seed
        self._scores: dict[str, list[Any]] = defaultdict(list)

    def add_scores(self, scores: dict[str, Any]) -> None:
        """Adds one example's scores (score type -> Score or any tuple of numbers)."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict[str, AggregateScore]:
        """Score type -> ``AggregateScore(low, mid, high)``, each of the added tuple type."""
        rng: Any = np.random if self._seed is None else np.random.RandomState(self._seed)
        out = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            bounds = self._percentiles(matrix, rng)
            kind = type(scores[0])
            low, mid, high = (kind(*bounds[j, :]) for j in range(3))
            out[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return out

    def _percentiles(self, matrix: np.ndarray, rng: Any) -> np.ndarray:
        n = matrix.shape[0]
        means = np.zeros((self._n_samples, matrix.shape[1]))
        for i in range(self._n_samples):
            rows = rng.choice(np.arange(n), size=n)
            means[i, :] = np.mean(matrix[rows, :], axis=0)
        tail = (1 - self._confidence_interval) / 2
        return np.percentile(means, 100 * np.array([tail, 0.5, 1 - tail]), axis=0)


def fmeasure(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall (0 when both are 0).

    >>> fmeasure(0.5, 1.0)
    0.6666666666666666
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
