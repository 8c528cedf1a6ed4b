"""Tie calibration (Deutsch, Foster & Freitag 2023, "Ties Matter"): one epsilon for all groups.

A metric rarely gives two translations exactly the same score, while people often do. Tie
calibration picks the threshold epsilon (metric scores within epsilon count as tied) that
maximises the average ``acc_eq`` (or ``tau_eq``) over the groups, searching every distinct
absolute score difference; the smallest maximising epsilon wins, as in mt-metrics-eval's
``tau_optimization`` (its ``sample_rate=1.0``).

>>> from mtalign.meta.ties import calibrate
>>> eps, acc = calibrate([[2, 1, 1.5, 5, 3]], [[1, 2, 2, 3, 4]])
>>> eps, round(acc, 12)
(0.5, 0.7)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign.meta import _kernels
from mtalign.meta._data import as_matrix, check_choice, check_pair


def pair_table(metric: np.ndarray, human: np.ndarray, mask: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pair i < j of masked entries in each group (rows of (G, L) arrays):
    group index, |metric difference|, sign of the metric difference, sign of the human one."""
    g, n = metric.shape
    iu, ju = np.triu_indices(n, 1)
    valid = mask[:, iu] & mask[:, ju]
    rows = np.broadcast_to(np.arange(g)[:, None], valid.shape)[valid]
    dm = (metric[:, iu] - metric[:, ju])[valid]
    dh = (human[:, iu] - human[:, ju])[valid]
    return rows, np.abs(dm), np.sign(dm), np.sign(dh)


def calibrate_groups(metric: np.ndarray, human: np.ndarray, mask: np.ndarray
                     ) -> tuple[float, float]:
    """Best (epsilon, average acc_eq) over padded (G, L) groups."""
    rows, diff, sm, sh = pair_table(metric, human, mask)
    if rows.size == 0:
        return 0.0, float("nan")
    per_group = np.bincount(rows, minlength=metric.shape[0])
    used = per_group > 0
    weight = 1.0 / (per_group[rows] * used.sum())
    before = (sm == sh).astype(np.float64)
    after = (sh == 0).astype(np.float64)
    order = np.argsort(diff, kind="stable")
    d = diff[order]
    gains = np.cumsum(((after - before) * weight)[order])
    start = float((before * weight).sum())
    last = np.ones(d.shape, dtype=bool)
    last[:-1] = d[1:] != d[:-1]
    thresholds = np.concatenate([[0.0], d[last]])
    values = np.concatenate([[start], start + gains[last]])
    if d[0] == 0.0:  # the 0.0 threshold is the first run itself
        thresholds, values = thresholds[1:], values[1:]
    best = values.max()
    # The smallest threshold within rounding of the best value.
    i = int(np.flatnonzero(values >= best - 1e-12)[0])
    eps = float(thresholds[i])
    exact = _kernels.correlation("acc_eq", metric, human, mask, eps)
    return eps, float(np.nanmean(exact))


def calibrate(metric: Any, human: Any, *, group_by: str = "none",
              method: str = "acc_eq") -> tuple[float, float]:
    """The tie-calibrated epsilon and the correlation it gives.

    Args:
        metric, human: (systems, segments) arrays (None/NaN human entries are dropped); a
            single row for one group.
        group_by: ``"none"``, ``"item"`` (one group per segment) or ``"system"``.
        method: ``"acc_eq"`` or ``"tau_eq"`` (the same epsilon maximises both, as
            tau_eq = 2 acc_eq - 1 in every group).

    Returns:
        ``(epsilon, value)``.
    """
    from mtalign.meta._data import layout

    method = check_choice("method", method, ("acc_eq", "tau_eq"))
    group_by = check_choice("group_by", group_by, ("none", "item", "system"))
    m, _ = as_matrix(metric, "metric")
    h, _ = as_matrix(human, "human")
    check_pair(m, h)
    if m.ndim == 1:
        m, h = m[None, :], h[None, :]
    g = layout(m, h, group_by)
    eps, acc = calibrate_groups(g.metric, g.human, g.mask)
    return eps, (acc if method == "acc_eq" else 2 * acc - 1)
