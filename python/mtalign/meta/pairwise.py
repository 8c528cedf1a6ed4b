"""System-level pairwise accuracy (Kocmi et al. 2021) and soft pairwise accuracy (SPA,
Thompson et al., WMT24: 1 - pairwise confidence error).

Pairwise accuracy counts the system pairs that the metric orders as the humans do (a tie
agrees only with a tie, as mt-metrics-eval's ``Agreement``), pooled over language pairs.
SPA compares, for every system pair, the p-value of a paired permutation test on the human
segment scores with the one on the metric's, and reports 1 - the mean absolute difference.

>>> from mtalign import meta
>>> meta.pairwise_accuracy([1, 2, 3, 4], [10, 30, 20, 40])
0.8333333333333334
>>> meta.spa([[2, 2, 4], [1, 3, 5]], [[1, 2, 3], [2, 3, 4]], permutations="exact")
0.875
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign.meta._data import as_matrix, check_int, check_pair, system_vectors


def _systems(metric: Any, human: Any) -> tuple[np.ndarray, np.ndarray]:
    m, names = as_matrix(metric, "metric")
    h, _ = as_matrix(human, "human", names)
    check_pair(m, h)
    m, h = system_vectors(m, h, names)
    ok = ~np.isnan(h)
    return m[ok], h[ok]


def _agreement(m: np.ndarray, h: np.ndarray) -> tuple[int, int]:
    i, j = np.triu_indices(m.size, 1)
    agree = np.sign(m[i] - m[j]) == np.sign(h[i] - h[j])
    return int(agree.sum()), int(i.size)


def pairwise_accuracy(metric: Any, human: Any) -> float:
    """The share of system pairs ordered alike by the metric and the humans.

    ``metric`` and ``human`` are system scores ((systems,) vectors, or (systems, segments)
    matrices averaged over the segments the humans scored), or ``{language pair: scores}``
    dicts: the pairs of every language pair are pooled (Kocmi et al. 2021).
    """
    if isinstance(metric, Mapping) or isinstance(human, Mapping):
        if not (isinstance(metric, Mapping) and isinstance(human, Mapping)):
            raise InputError("metric and human must both be {language pair: scores} dicts")
        missing = [k for k in human if k not in metric]
        if missing:
            raise InputError(f"metric has no scores for {missing[0]!r}")
        parts = [_systems(metric[k], human[k]) for k in human]
    else:
        parts = [_systems(metric, human)]
    agree = total = 0
    for m, h in parts:
        a, t = _agreement(m, h)
        agree += a
        total += t
    if total == 0:
        raise InputError("pairwise accuracy needs at least 2 systems with human scores")
    return agree / total


def pairwise_p_values(scores: np.ndarray, permutations: int | str = 1000, seed: int = 4
                      ) -> np.ndarray:
    """(systems, systems) p-values (upper triangle) of a paired permutation test for
    "system i is better than system j" on segment scores (systems, segments).

    ``permutations="exact"`` enumerates all 2^segments sign flips (small inputs only);
    a number samples that many, reproducing mt-metrics-eval's ``compute_pairwise_p_values``
    (NumPy's ``default_rng(seed)``, float32 arithmetic; its seed is 4).
    """
    n_sys, n_seg = scores.shape
    if permutations == "exact":
        if n_seg > 20:
            raise ConfigError(f"exact permutations enumerate 2^segments; {n_seg} segments "
                              f"is too many (use a number of permutations)")
        signs = np.array(list(itertools.product([1.0, -1.0], repeat=n_seg)))
        partial = signs @ scores.T
        total = scores.sum(1)
    else:
        k = check_int("permutations", permutations, 1)
        rng = np.random.default_rng(seed)
        signs32 = rng.random(size=(k, n_seg), dtype=np.float32)
        np.rint(signs32, out=signs32, casting="same_kind")
        signs32 *= 2.0
        signs32 -= 1.0
        s32 = scores.astype(np.float32)
        total = np.sum(s32, axis=1)
        partial = np.matmul(signs32, s32.T)
    p = np.full((n_sys, n_sys), np.nan)
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            null = partial[:, i] - partial[:, j]
            p[i, j] = np.sum(null >= total[i] - total[j]) / partial.shape[0]
    return p


def spa(metric: Any, human: Any, *, permutations: int | str = 1000, seed: int = 4) -> float:
    """Soft pairwise accuracy, 1 - PCE (WMT24), of (systems, segments) score matrices.

    Segments without a human score for every system are dropped (from both matrices).
    ``permutations``: a number (sampled, seeded; mt-metrics-eval's default seed is 4) or
    ``"exact"`` (all 2^segments sign flips).
    """
    m, names = as_matrix(metric, "metric")
    h, _ = as_matrix(human, "human", names)
    check_pair(m, h)
    if m.ndim != 2:
        raise InputError("spa needs (systems, segments) matrices")
    if m.shape[0] < 2:
        raise InputError(f"spa needs at least 2 systems (got {m.shape[0]})")
    full = ~np.isnan(h).any(0)
    if not full.any():
        raise InputError("no segment has a human score for every system")
    m, h = m[:, full], h[:, full]
    hp = pairwise_p_values(h, permutations, seed)
    mp = pairwise_p_values(m, permutations, seed)
    iu = np.triu_indices(m.shape[0], 1)
    return float(1.0 - np.mean(np.abs(hp - mp)[iu]))
