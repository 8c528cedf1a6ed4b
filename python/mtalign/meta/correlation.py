"""Correlation of metric scores with human judgments, by level and grouping, with CIs.

Scores are (systems, segments) arrays; NaN or None in ``human`` marks a missing judgment
and the entry is dropped (as mt-metrics-eval drops ``None`` gold scores). ``group_by``
says how the matrix becomes vectors: ``"none"`` flattens it to one vector, ``"item"``
correlates each segment's column (across systems) and ``"system"`` each system's row
(across segments), then averages. Groups with fewer than 2 entries are skipped, and a
group whose correlation is undefined (a constant vector for Pearson, Spearman and
Kendall's tau-b/c) gives NaN and is left out of the average. If no group is left the value
is NaN (and ``n_groups`` is 0): a documented NaN, not an error.

The confidence interval resamples segments with replacement ``n_bootstrap`` times (Koehn
2004; the procedure of Lin & Och 2004's Table 1) and takes the percentile interval. With
``epsilon="calibrate"`` the epsilon found on the full data is kept in every resample.
A resample is a vector of segment multiplicities, so no resampled copy of the data is made;
Kendall-type intervals over long vectors (``group_by="none"`` or ``"system"``) cost one
(resamples x n) @ (n x n) matrix product (a few seconds for 4,216 entries and 1,000
resamples); grouping by item costs next to nothing.

>>> from mtalign import meta
>>> human = [[1, 2, 3], [4, 5, 6]]
>>> metric = [[2, 1, 4], [3, 3, 7]]
>>> round(meta.correlate(metric, human).value, 3)
0.776
>>> round(meta.correlate(metric, human, group_by="system").value, 3)
0.76
>>> meta.correlate(metric, human, group_by="item").value
1.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._travel import dataclass_eq, dataclass_hash, plain, plain_interval
from mtalign.meta import _bootstrap, _kernels
from mtalign.meta._data import (
    GROUPINGS,
    LEVELS,
    Groups,
    as_matrix,
    check_choice,
    check_epsilon,
    check_int,
    check_method,
    check_pair,
    check_seed,
    layout,
    system_vectors,
)
from mtalign.meta.systems import SystemScores
from mtalign.meta.ties import calibrate_groups


@dataclass(frozen=True)
class Correlation:
    """A correlation with its bootstrap confidence interval.

    Attributes:
        value: the point estimate (NaN when undefined, see the module docstring).
        ci: (low, high) percentile bootstrap interval; (nan, nan) without bootstrap (None
            in :meth:`to_dict`).
        n: the number of (metric, human) entries that entered the value (systems at the
            system level).
        epsilon: the tie threshold used (the calibrated one for ``"calibrate"``), else None.
        n_groups: how many group correlations were averaged (1 for ``group_by="none"``).
        method, level, group_by: as requested.
        replicates: the bootstrap values (NaN where undefined).
    """

    value: float
    ci: tuple[float, float]
    n: int
    epsilon: float | None = None
    n_groups: int = 1
    method: str = "pearson"
    level: str = "segment"
    group_by: str = "none"
    replicates: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False,
                                   compare=False)

    __eq__ = dataclass_eq  # NaN-aware: an undefined value equals itself after a round trip
    __hash__ = dataclass_hash

    def __float__(self) -> float:
        return self.value

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (without the replicates; NaN where undefined, the interval
        None where not computed)."""
        return plain({"value": self.value, "ci": plain_interval(self.ci), "n": self.n,  # type: ignore[no-any-return]
                      "epsilon": self.epsilon, "n_groups": self.n_groups,
                      "method": self.method, "level": self.level, "group_by": self.group_by})


@dataclass
class Prepared:
    """Checked inputs of one metric: what both correlate and the significance tests use."""

    method: str
    level: str
    group_by: str
    metric: np.ndarray
    human: np.ndarray
    names: list[str] | None


def prepare(metric: Any, human: Any, method: str, level: str, group_by: str,
            systems: Sequence[str] | None = None, mname: str = "metric") -> Prepared:
    method = check_method(method)
    level = check_choice("level", level, LEVELS)
    group_by = check_choice("group_by", group_by, GROUPINGS)
    if systems is None:
        for v in (human, metric):
            if isinstance(v, Mapping):
                systems = list(v.keys())
                break
    m, names = as_matrix(metric, mname, systems)
    h, _ = as_matrix(human, "human", systems)
    check_pair(m, h, mname)
    if level == "system":
        if group_by != "none":
            raise ConfigError("level='system' correlates one vector of system scores: "
                              "use group_by='none'")
        if m.shape[0] < 2:
            raise InputError(f"level='system' needs at least 2 systems (got {m.shape[0]})")
    elif m.ndim == 1:
        m, h = m[None, :], h[None, :]
    if level == "segment" and group_by == "item" and m.shape[0] < 2:
        raise InputError(f"group_by='item' needs at least 2 systems (got {m.shape[0]})")
    return Prepared(method, level, group_by, m, h, names)


def _average(vals: np.ndarray) -> float:
    ok = np.isfinite(vals)
    return float(vals[ok].mean()) if ok.any() else float("nan")


def point(p: Prepared, epsilon: float) -> tuple[float, int, int]:
    """(value, n entries, n groups) of prepared inputs at a fixed epsilon."""
    if p.level == "system":
        ms, hs = system_vectors(p.metric, p.human, p.names)
        ok = ~np.isnan(hs)
        v = _kernels.correlation(p.method, ms, hs, ok, epsilon)
        return float(v), int(ok.sum()), int(np.isfinite(v))
    g = layout(p.metric, p.human, p.group_by)
    vals = _kernels.correlation(p.method, g.metric, g.human, g.mask, epsilon)
    ok = np.isfinite(vals)
    return _average(vals), int(g.mask[ok].sum()), int(ok.sum())


def replicates(p: Prepared, epsilon: float, n_bootstrap: int, seed: int | None
               ) -> np.ndarray:
    """The correlation of ``n_bootstrap`` resamples of the segments (systems for 1-D
    system-level input); the same seed draws the same resamples for every metric."""
    rng = np.random.default_rng(seed)
    if p.level == "system":
        if p.metric.ndim == 1:
            counts = _bootstrap.draw_counts(rng, p.metric.shape[0], n_bootstrap)
            ok = ~np.isnan(p.human)
            return _bootstrap.weighted(p.method, p.metric[ok], p.human[ok], counts[:, ok],
                                       epsilon)
        mask = ~np.isnan(p.human)
        counts = _bootstrap.draw_counts(rng, p.metric.shape[1], n_bootstrap)
        den = counts @ mask.T.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            ms = counts @ np.where(mask, p.metric, 0.0).T / den
            hs = counts @ np.where(mask, p.human, 0.0).T / den
        return _kernels.correlation(p.method, ms, hs, den > 0, epsilon)
    g = layout(p.metric, p.human, p.group_by)
    counts = _bootstrap.draw_counts(rng, p.metric.shape[1], n_bootstrap)
    if p.group_by == "item":
        vals = _kernels.correlation(p.method, g.metric, g.human, g.mask, epsilon)
        ok = np.isfinite(vals)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (counts @ np.where(ok, vals, 0.0)) / (counts @ ok.astype(np.float64))
    return _grouped_replicates(p.method, g, counts, epsilon)


def _grouped_replicates(method: str, g: Groups, counts: np.ndarray, epsilon: float
                        ) -> np.ndarray:
    total = np.zeros(counts.shape[0])
    used = np.zeros(counts.shape[0])
    for k in range(g.metric.shape[0]):
        ok = g.mask[k]
        if ok.sum() < 2:
            continue
        w = counts[:, g.seg[k][ok]]
        r = _bootstrap.weighted(method, g.metric[k][ok], g.human[k][ok], w, epsilon)
        fin = np.isfinite(r)
        total += np.where(fin, r, 0.0)
        used += fin
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / used


def interval(reps: np.ndarray, ci: float) -> tuple[float, float]:
    ok = reps[np.isfinite(reps)]
    if ok.size == 0:
        return (float("nan"), float("nan"))
    lo, hi = np.quantile(ok, [(1 - ci) / 2, (1 + ci) / 2])
    return (float(lo), float(hi))


def resolve_epsilon(p: Prepared, epsilon: Any) -> float | None:
    """The epsilon to use: None, the given number, or the calibrated one."""
    eps = check_epsilon(epsilon, p.method)
    if eps == "calibrate":
        if p.level == "system":
            ms, hs = system_vectors(p.metric, p.human, p.names)
            g = Groups(ms[None, :], hs[None, :], ~np.isnan(hs)[None, :], np.zeros((1, 1)))
        else:
            g = layout(p.metric, p.human, p.group_by)
        return calibrate_groups(g.metric, g.human, g.mask)[0]
    return eps if eps is None else float(eps)


def correlate(metric: Any, human: Any, *, method: str = "pearson", level: str = "segment",
              group_by: str = "none", systems: Sequence[str] | None = None,
              epsilon: float | str | None = None, n_bootstrap: int | None = 1000,
              seed: int | None = 12345, ci: float = 0.95) -> Correlation:
    """Correlate metric scores with human judgments.

    Args:
        metric, human: (systems, segments) arrays, nested lists (None = missing) or
            ``{system: scores}`` dicts; at ``level="system"`` also (systems,) vectors, and
            ``metric`` may be :func:`~mtalign.meta.system_scores` (each system's corpus
            score, as WMT correlates; with segment-level ``human`` the interval resamples
            segments and re-scores each resample's corpus).
            NaN/None in ``human`` drops the entry; NaN in ``metric`` where ``human`` has a
            score is an :class:`~mtalign.InputError`.
        method: ``"pearson"``, ``"spearman"``, ``"kendall_b"``, ``"kendall_c"``,
            ``"tau_eq"`` or ``"acc_eq"`` (Deutsch et al. 2023's tau and accuracy with ties).
        level: ``"segment"`` or ``"system"``. At the system level a system's human score
            is the mean of its human segment scores; its metric score is the given one
            (a vector or :func:`~mtalign.meta.system_scores`: WMT's way), or, for a
            (systems, segments) matrix, the mean of its segment scores over the segments
            the humans scored (not WMT's corpus score: BLEU's mean sentence score is not
            corpus BLEU).
        group_by: ``"none"``, ``"item"`` or ``"system"`` (segment level only).
        systems: the systems (keys) to use, in order, when the scores are dicts.
        epsilon: metric scores within epsilon count as tied (``kendall_b``, ``tau_eq``,
            ``acc_eq``); ``"calibrate"`` finds the best one (tie calibration, one epsilon
            for all groups).
        n_bootstrap: resamples for the confidence interval (None: no interval).
        seed: seeds the resampling (None: fresh entropy).
        ci: the interval's coverage, in (0, 1).

    Returns:
        :class:`Correlation`.

    >>> from mtalign import meta
    >>> c = meta.correlate([[2, 1, 1.5, 5, 3]], [[1, 2, 2, 3, 4]], method="acc_eq",
    ...                    epsilon="calibrate", n_bootstrap=None)
    >>> round(c.value, 12), c.epsilon
    (0.7, 0.5)
    """
    if n_bootstrap is not None:
        n_bootstrap = check_int("n_bootstrap", n_bootstrap, 1)
    seed = check_seed(seed)
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0 < ci < 1:
        raise ConfigError(f"ci must be a number in (0, 1) (got {ci!r})")
    if isinstance(metric, SystemScores):
        return _correlate_corpus(metric, human, method, level, group_by, epsilon,
                                 n_bootstrap, seed, ci)
    p = prepare(metric, human, method, level, group_by, systems)
    eps = resolve_epsilon(p, epsilon)
    e = 0.0 if eps is None else eps
    value, n, n_groups = point(p, e)
    reps = np.zeros(0)
    bounds = (float("nan"), float("nan"))
    if n_bootstrap is not None and n_groups > 0:
        reps = replicates(p, e, n_bootstrap, seed)
        bounds = interval(reps, ci)
    return Correlation(value, bounds, n, eps, n_groups, p.method, p.level, p.group_by, reps)


def _correlate_corpus(scores: SystemScores, human: Any, method: str, level: str,
                      group_by: str, epsilon: Any, n_bootstrap: int | None,
                      seed: int | None, ci: float) -> Correlation:
    """:func:`correlate` of system corpus scores: human (systems,) scores as given, or the
    mean of (systems, segments) human scores; resamples re-score each system's corpus."""
    method = check_method(method)
    if check_choice("level", level, LEVELS) != "system" or group_by != "none":
        raise ConfigError("system scores are correlated at level='system', group_by='none'")
    h, _ = as_matrix(human, "human", scores.names)
    if h.shape[0] != len(scores.names):
        raise InputError(f"human has {h.shape[0]} systems but the system scores "
                         f"{len(scores.names)}")
    if h.ndim == 1:  # system-level judgments: nothing to resample but the systems
        return correlate(scores.scores, h, method=method, level="system", epsilon=epsilon,
                         n_bootstrap=n_bootstrap, seed=seed, ci=ci)
    if h.shape[1] != scores.n_segments:
        raise InputError(f"human has {h.shape[1]} segments but the system scores were "
                         f"computed on {scores.n_segments}")
    if not np.isfinite(scores.scores).all():
        raise InputError("a system score is NaN or infinite")
    mask = ~np.isnan(h)
    _, hs = system_vectors(np.zeros_like(h), h, scores.names)
    ok = np.ones(len(hs), dtype=bool)
    eps = check_epsilon(epsilon, method)
    if eps == "calibrate":
        eps = calibrate_groups(scores.scores[None, :], hs[None, :], ok[None, :])[0]
    e = 0.0 if eps is None else float(eps)
    value = float(_kernels.correlation(method, scores.scores, hs, ok, e))
    n_groups = int(np.isfinite(value))
    reps = np.zeros(0)
    bounds = (float("nan"), float("nan"))
    if n_bootstrap is not None and n_groups > 0:
        counts = _bootstrap.draw_counts(np.random.default_rng(seed), h.shape[1], n_bootstrap)
        den = counts @ mask.T.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            hs_rep = counts @ np.where(mask, h, 0.0).T / den
        reps = _kernels.correlation(method, scores.resampled(counts), hs_rep, den > 0, e)
        bounds = interval(reps, ci)
    return Correlation(value, bounds, len(hs), None if eps is None else float(eps), n_groups,
                       method, "system", "none", reps)
