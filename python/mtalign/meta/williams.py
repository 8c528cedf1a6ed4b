"""Williams's test (Williams 1959; Graham & Baldwin 2014): is one metric's Pearson correlation
with the humans significantly higher than another's, given how the two metrics correlate?

>>> from mtalign import meta
>>> w = meta.williams([1.1, 2, 3.1, 4, 5.1], [1.5, 2, 3.1, 4, 5.5], [1, 2, 3, 4, 5])
>>> round(w.p_value, 3), round(w.r_a, 3), round(w.r_b, 3)
(0.019, 0.999, 0.987)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtalign._mtalign import InputError
from mtalign._travel import dataclass_dict, dataclass_eq, dataclass_hash
from mtalign.meta import _kernels
from mtalign.meta._data import as_matrix, check_pair


@dataclass(frozen=True)
class WilliamsResult:
    """p_value (one-sided unless asked otherwise); r_a, r_b: each metric's Pearson with the
    humans; r_ab: the metrics' Pearson with each other; n: the number of entries."""

    p_value: float
    r_a: float
    r_b: float
    r_ab: float
    n: int

    __eq__ = dataclass_eq
    __hash__ = dataclass_hash
    to_dict = dataclass_dict


def williams_test(r12: float, r13: float, r23: float, n: int, one_sided: bool = True
                  ) -> float:
    """The p-value of Williams's t for r12 > r13 (1 = humans, 2 and 3 = the metrics).

    >>> round(williams_test(0.9, 0.8, 0.85, 50), 6)
    0.003042
    """
    if n <= 3:
        raise InputError(f"Williams's test needs more than 3 entries (got {n})")
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r23 * r13
    rbar = (r12 + r13) / 2
    tnum = (r12 - r13) * math.sqrt((n - 1) * (1 + r23))
    tden = math.sqrt(2 * (n - 1) / (n - 3) * k + rbar ** 2 * (1 - r23) ** 3)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = float(np.float64(tnum) / np.float64(tden))
    p = _kernels.t_sf(abs(t), n - 3)
    return p if one_sided else 2 * p


def williams(metric_a: Any, metric_b: Any, human: Any, *, one_sided: bool = True
             ) -> WilliamsResult:
    """Williams's test on flattened scores (entries where ``human`` is None/NaN dropped).

    ``p_value`` is for "the better-correlated metric is better" (the test is symmetric), as
    mt-metrics-eval's ``WilliamsSigDiff``; ``n`` counts the entries used.
    """
    a, _ = as_matrix(metric_a, "metric_a")
    b, _ = as_matrix(metric_b, "metric_b")
    h, _ = as_matrix(human, "human")
    check_pair(a, h, "metric_a")
    check_pair(b, h, "metric_b")
    ok = ~np.isnan(h.ravel())
    a, b, h = a.ravel()[ok], b.ravel()[ok], h.ravel()[ok]
    mask = np.ones(a.shape, dtype=bool)
    r_a = float(_kernels.pearson(a, h, mask))
    r_b = float(_kernels.pearson(b, h, mask))
    r_ab = float(_kernels.pearson(a, b, mask))
    return WilliamsResult(williams_test(r_a, r_b, r_ab, int(ok.sum()), one_sided), r_a, r_b,
                          r_ab, int(ok.sum()))
