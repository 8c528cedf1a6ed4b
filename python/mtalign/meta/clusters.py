"""Significance clusters: rank metrics by correlation, then start a new rank whenever a
metric is significantly worse (p <= ``p_threshold``) than some metric of the current rank
(mt-metrics-eval's ``AssignRanks``, the WMT metrics-task tables).

>>> from mtalign import meta
>>> human = [[1, 2, 3, 4, 5, 6, 7, 8]]
>>> scores = {"good": [[1, 2, 3, 4, 5, 6, 7, 8]], "bad": [[8, 1, 6, 3, 4, 5, 2, 7]]}
>>> [(c.name, c.rank) for c in meta.clusters(scores, human, k=200).ranking]
[('good', 1), ('bad', 2)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._travel import dataclass_dict, dataclass_eq, dataclass_hash, plain
from mtalign.meta.correlation import correlate
from mtalign.meta.permutation import bootstrap_test, pairs_test, perm_test

TESTS = ("perm", "pairs", "bootstrap")


@dataclass(frozen=True)
class Ranked:
    """One metric's place: name, correlation value, cluster rank (1 = best)."""

    name: str
    value: float
    rank: int

    __eq__ = dataclass_eq
    __hash__ = dataclass_hash
    to_dict = dataclass_dict


@dataclass(frozen=True)
class Clusters:
    """``ranking`` best first; ``p_values[i, j]`` (i < j, in ranking order) is the p-value
    that metric i is not better than metric j."""

    ranking: list[Ranked]
    p_values: np.ndarray

    __eq__ = dataclass_eq

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; a p-value not computed (the diagonal and below) is None."""
        return plain({"ranking": [r.to_dict() for r in self.ranking],  # type: ignore[no-any-return]
                      "p_values": [[None if np.isnan(v) else float(v) for v in row]
                                   for row in self.p_values]})


def assign_ranks(p_values: np.ndarray, p_threshold: float = 0.05) -> list[int]:
    """Ranks from an upper-triangular p-value matrix over metrics sorted best first.

    >>> import numpy as np
    >>> assign_ranks(np.array([[0, .5, .01], [0, 0, .2], [0, 0, 0]]))
    [1, 1, 2]
    """
    n = p_values.shape[0]
    ranks = []
    rank, start = 1, 0
    for i in range(n):
        if any(p_values[start:i, i] <= p_threshold):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


def clusters(scores: Mapping[str, Any], human: Any, *, method: str = "pearson",
             level: str = "segment", group_by: str = "none",
             epsilon: float | str | None = None, test: str = "perm", k: int = 1000,
             seed: int | None = 12345, p_threshold: float = 0.05) -> Clusters:
    """Rank ``{name: metric scores}`` by correlation with ``human`` into significance
    clusters; ``test`` is ``"perm"`` (PERM-BOTH), ``"pairs"`` (acc_eq/tau_eq) or
    ``"bootstrap"``. Every pair uses the same seed."""
    if test not in TESTS:
        raise ConfigError(f"unknown test {test!r} (choose from: {', '.join(TESTS)})")
    if not isinstance(scores, Mapping) or len(scores) == 0:
        raise InputError("scores must be a non-empty {name: scores} dict")
    values = {}
    for name, m in scores.items():
        values[name] = correlate(m, human, method=method, level=level, group_by=group_by,
                                 epsilon=epsilon, n_bootstrap=None).value
    order = sorted(values, key=lambda n: (-np.nan_to_num(values[n], nan=-np.inf), n))
    n = len(order)
    p = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = scores[order[i]], scores[order[j]]
            if test == "perm":
                r = perm_test(a, b, human, method=method, level=level, group_by=group_by,
                              epsilon=None if isinstance(epsilon, str) else epsilon, k=k,
                              seed=seed)
            elif test == "pairs":
                r = pairs_test(a, b, human, method=method, level=level, group_by=group_by,
                               epsilon_a=epsilon, epsilon_b=epsilon, k=k, seed=seed)
            else:
                r = bootstrap_test(a, b, human, method=method, level=level,
                                   group_by=group_by, epsilon=epsilon, n_bootstrap=k,
                                   seed=seed)
            p[i, j] = r.p_value
    ranks = assign_ranks(np.nan_to_num(p, nan=1.0), p_threshold)
    return Clusters([Ranked(m, float(values[m]), r) for m, r in zip(order, ranks, strict=False)], p)
