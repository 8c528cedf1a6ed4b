"""System scores as WMT forms them: each system's score is the metric's *corpus* score of
its output (corpus BLEU from summed statistics, not the mean of sentence BLEU), and the
corpus score of any resample of the segments comes from the same statistics rows.

:func:`system_scores` computes them; :func:`~mtalign.meta.correlate` at
``level="system"`` takes the result and resamples segments for its interval. The mean of
segment scores is the other way (``system_score="mean"`` on the command line; a
(systems, segments) matrix at ``level="system"`` in Python).

>>> from mtalign import Ter, meta
>>> refs = [["the cat sat", "a cat sat"], ["it is red", "it was red"]]
>>> outputs = {"A": ["the cat sat", "it is red"], "B": ["a dog sat", "it is blue"]}
>>> s = meta.system_scores(Ter(), outputs, refs)     # corpus TER: 0 and 2 edits / 6 words
>>> s.names, s.scores.round(2).tolist()
(['A', 'B'], [0.0, 33.33])
>>> round(meta.correlate(-s, [[0, 0], [-1, -1]], level="system", n_bootstrap=None).value, 12)
1.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign.metrics.base import pick_scalar

#: How a system's score is formed from its segments: WMT's corpus score, or the mean of
#: the segment scores.
SYSTEM_SCORES = ("corpus", "mean")


def _scalar(metric: Any, result: Any, variant: str) -> float:
    """The number named ``variant`` of a corpus result: its column ``scalar_column(variant)``
    (ROUGE: the F-measure)."""
    return float(result.column_scores[metric.scalar_column(variant)])


class SystemScores:
    """Each system's corpus score by one metric, and those of resamples of the segments.

    Attributes:
        names: the systems, in order.
        scores: (systems,) corpus scores (negated by ``-scores`` for error rates, so that
            higher is better).
        variant: the metric's number used (e.g. ``rougeL``: its corpus F-measure).
    """

    def __init__(self, metric: Any, names: list[str], stats: list[np.ndarray],
                 variant: str, sign: float = 1.0) -> None:
        self.metric, self.names, self.variant, self.sign = metric, names, variant, sign
        self._stats = stats
        self.scores = sign * np.array(
            [_scalar(metric, metric.corpus_from_statistics(s), variant) for s in stats])

    def __neg__(self) -> SystemScores:
        return SystemScores(self.metric, self.names, self._stats, self.variant, -self.sign)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, SystemScores) and self.metric == other.metric
                and (self.names, self.variant, self.sign) == (other.names, other.variant,
                                                              other.sign)
                and all(np.array_equal(a, b) for a, b in zip(self._stats, other._stats,
                                                             strict=True)))

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"variant": ..., "scores": {system: score}}``."""
        return {"variant": self.variant,
                "scores": {n: float(v) for n, v in zip(self.names, self.scores, strict=True)}}

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={v:.4f}" for n, v in zip(self.names, self.scores, strict=True))
        return f"SystemScores({pairs})"

    @property
    def n_segments(self) -> int:
        return int(self._stats[0].shape[0])

    def resampled(self, counts: np.ndarray) -> np.ndarray:
        """(resamples, systems) corpus scores of resamples given as segment multiplicities
        ``counts`` (resamples, segments): sums (or means) of statistics rows."""
        metric = self.metric
        k = metric.scalar_names().index(self.variant)
        out = np.empty((counts.shape[0], len(self._stats)))
        for s, stats in enumerate(self._stats):
            if metric.aggregation in ("sum", "mean"):
                rows = counts @ stats
                if metric.aggregation == "mean":
                    rows = rows / counts.sum(1, keepdims=True)
                # A resample is a corpus: its headline is scored as one (BLEU's effective
                # order applies at sentence level only), as the unresampled scores are.
                values = metric._corpus_values(rows) if k == 0 else metric._sentence_values(
                    rows, k)
                out[:, s] = np.asarray(values, dtype=np.float64)
            else:  # statistics that do not add up (NIST's weights): one corpus per resample
                out[:, s] = [_scalar(metric, metric.corpus_from_statistics(
                    np.repeat(stats, c.astype(np.int64), axis=0)), self.variant)
                    for c in counts]
        return self.sign * out


def system_scores(metric: Any, outputs: Mapping[str, Sequence[Any]], refs: Sequence[Any], *,
                  variant: str | None = None, threads: int | None = None) -> SystemScores:
    """Each system's corpus score, WMT's system-level metric score:
    ``metric.corpus_from_statistics(metric.statistics(hyps, refs))`` of its whole output.

    Args:
        metric: a metric with ``statistics`` and ``corpus_from_statistics`` (every native
            metric of mtalign).
        outputs: ``{system: hypotheses}``, every system aligned with ``refs``.
        refs: ``refs[i]``: the reference (str) or references (list) of segment i.
        variant: the number to use when the metric has several (default: its first).
        threads: as in ``batch_score``.

    >>> from mtalign import Wer, meta
    >>> s = meta.system_scores(Wer(), {"A": ["a b c", "d"], "B": ["a x c", "e"]},
    ...                        ["a b c", "d"])
    >>> s.scores.tolist(), (-s).scores.tolist()      # error rates: -s is higher-is-better
    ([0.0, 0.5], [-0.0, -0.5])
    """
    if not isinstance(outputs, Mapping) or len(outputs) == 0:
        raise InputError("outputs must be a non-empty {system: hypotheses} dict")
    if not hasattr(metric, "statistics") or not hasattr(metric, "corpus_from_statistics"):
        raise ConfigError(f"{type(metric).__name__} has no corpus score from statistics: "
                          "use the mean of its segment scores instead")
    name = pick_scalar(metric, variant)
    stats = []
    for system, hyps in outputs.items():
        if len(hyps) != len(refs):
            raise InputError(f"system {system!r} has {len(hyps)} segments but there are "
                             f"{len(refs)} references")
        try:
            stats.append(np.asarray(metric.statistics(hyps, refs, threads=threads),
                                    dtype=np.float64))
        except NotImplementedError:
            raise ConfigError(f"{type(metric).__name__} has no corpus score from statistics: "
                              "use the mean of its segment scores instead") from None
    return SystemScores(metric, [str(s) for s in outputs], stats, name)
