"""Is metric A's correlation with the humans significantly higher than metric B's?

- :func:`perm_test`: PERM-BOTH (Deutsch, Dror & Roth 2021), mt-metrics-eval's
  ``PermutationSigDiff``: z-score each metric, then in each of ``k`` trials swap the two
  metrics' scores of every entry with probability 1/2 and recompute both correlations.
- :func:`pairs_test`: the WMT23/24 pairs test, mt-metrics-eval's
  ``PairwisePermutationSigDiff``: swap the two metrics' verdicts on each *pair* of entries,
  so tie-calibrated metrics keep their own epsilon (``acc_eq`` / ``tau_eq`` only).
- :func:`bootstrap_test`: the seeds' paired bootstrap of the correlation difference
  (resampling segments, as Lin & Och 2004 mark "equivalent to the best").

Each returns the p-value of the null hypothesis "A is not better than B": the share of
trials whose difference is at least the observed ``delta = corr(A) - corr(B)`` (1e-12
tolerance so the identity trial always counts).

PERM-BOTH on groups of up to 12 entries (``group_by="item"`` with a few systems) is
computed from a table of every group's correlation under each of its 2^n swap patterns, so
``k=1000`` costs little more than drawing the random patterns.

>>> from mtalign import meta
>>> human = [[1, 2], [3, 4], [5, 5], [7, 8]]    # 4 systems x 2 segments
>>> a = [[1, 2], [3, 3], [7, 3], [5, 5]]
>>> b = [[2, 1], [2, 6], [8, 8], [7, 6]]
>>> r = meta.perm_test(a, b, human, group_by="item", k=1000, seed=1)
>>> round(r.delta, 4), r.p_value
(0.1485, 0.141)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign._travel import dataclass_dict, dataclass_eq, dataclass_hash
from mtalign.meta import _kernels
from mtalign.meta._data import Groups, check_int, check_seed, layout, system_vectors
from mtalign.meta.correlation import (
    Prepared,
    point,
    prepare,
    replicates,
    resolve_epsilon,
)
from mtalign.meta.ties import pair_table

_TOL = 1e-12
_TABLE_MAX = 12


@dataclass(frozen=True)
class SigResult:
    """p_value of "A is not better than B"; delta = corr(A) - corr(B); k trials; value_a and
    value_b: the two correlations; epsilon_a / epsilon_b where ties were calibrated."""

    p_value: float
    delta: float
    k: int
    value_a: float
    value_b: float
    epsilon_a: float | None = None
    epsilon_b: float | None = None

    __eq__ = dataclass_eq
    __hash__ = dataclass_hash
    to_dict = dataclass_dict


def _pair(metric_a: Any, metric_b: Any, human: Any, method: str, level: str,
          group_by: str) -> tuple[Prepared, Prepared]:
    pa = prepare(metric_a, human, method, level, group_by, mname="metric_a")
    pb = prepare(metric_b, human, method, level, group_by, pa.names, mname="metric_b")
    if pa.metric.shape != pb.metric.shape:
        raise ConfigError("metric_a and metric_b must have the same shape")
    return pa, pb


def _groups(p: Prepared) -> Groups:
    if p.level == "system":
        ms, hs = system_vectors(p.metric, p.human, p.names)
        return Groups(ms[None, :], hs[None, :], ~np.isnan(hs)[None, :],
                      np.zeros((1, ms.size), dtype=np.int64))
    return layout(p.metric, p.human, p.group_by)


def _zscore(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    v = x[mask]
    sd = v.std()
    return np.where(mask, (x - v.mean()) / (sd if sd > 0 else 1.0), 0.0)


def _avg(vals: np.ndarray, axis: int = -1) -> np.ndarray:
    ok = np.isfinite(vals)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, vals, 0.0).sum(axis) / ok.sum(axis)


def perm_test(metric_a: Any, metric_b: Any, human: Any, *, method: str = "pearson",
              level: str = "segment", group_by: str = "none", epsilon: float | None = None,
              k: int = 1000, seed: int | None = 12345) -> SigResult:
    """PERM-BOTH: the p-value that ``metric_a`` does not correlate better than ``metric_b``.

    Arguments as :func:`~mtalign.meta.correlate`; ``epsilon`` (a number) is in z-score units,
    as the scores are z-scored first (mt-metrics-eval does the same). For tie-calibrated
    metrics use :func:`pairs_test`.
    """
    if isinstance(epsilon, str):
        raise ConfigError("perm_test mixes two metrics' scores, so it cannot keep a "
                          "calibrated epsilon per metric: use pairs_test")
    k = check_int("k", k, 1)
    seed = check_seed(seed)
    pa, pb = _pair(metric_a, metric_b, human, method, level, group_by)
    eps = resolve_epsilon(pa, epsilon)
    e = 0.0 if eps is None else eps
    ga, gb = _groups(pa), _groups(pb)
    mask = ga.mask
    za, zb = _zscore(ga.metric, mask), _zscore(gb.metric, mask)
    h = ga.human
    va = _avg(_kernels.correlation(method, za, h, mask, e))
    vb = _avg(_kernels.correlation(method, zb, h, mask, e))
    delta = float(va - vb)
    rng = np.random.default_rng(seed)
    n = mask.shape[1]
    if n <= _TABLE_MAX and mask.shape[0] * (1 << n) <= 4_000_000:
        diffs = _table_trials(method, za, zb, h, mask, e, k, rng)
    else:
        diffs = _direct_trials(method, za, zb, h, mask, e, k, rng)
    p = float(np.mean(diffs >= delta - _TOL))
    return SigResult(p, delta, k, float(va), float(vb))


def _table_trials(method: str, za: np.ndarray, zb: np.ndarray, h: np.ndarray,
                  mask: np.ndarray, e: float, k: int, rng: np.random.Generator
                  ) -> np.ndarray:
    g, n = za.shape
    patterns = np.arange(1 << n)
    bits = ((patterns[:, None] >> np.arange(n)) & 1).astype(bool)  # (P, n)
    if method in ("kendall_b", "tau_eq", "acc_eq"):
        table = _pair_pattern_table(method, za, zb, h, mask, e, bits)
    else:
        mixed = np.where(bits[None], za[:, None, :], zb[:, None, :])  # (G, P, n)
        table = _kernels.correlation(method, mixed,
                                     np.broadcast_to(h[:, None, :], mixed.shape),
                                     np.broadcast_to(mask[:, None, :], mixed.shape), e)
    ok = np.isfinite(table)
    val = np.where(ok, table, 0.0).ravel()
    n_pat = 1 << n
    draw = rng.integers(0, n_pat, size=(k, g)) + (np.arange(g) * n_pat)[None, :]
    # the complementary pattern of group c sits at c * n_pat + (n_pat - 1 - p)
    flip = (2 * np.arange(g) * n_pat + n_pat - 1)[None, :] - draw
    with np.errstate(invalid="ignore", divide="ignore"):
        if ok.all():
            return (np.take(val, draw).sum(1) - np.take(val, flip).sum(1)) / g
        okf = ok.ravel().astype(np.float64)
        ca = np.take(val, draw).sum(1) / np.take(okf, draw).sum(1)
        cb = np.take(val, flip).sum(1) / np.take(okf, flip).sum(1)
    return ca - cb


def _pair_pattern_table(method: str, za: np.ndarray, zb: np.ndarray, h: np.ndarray,
                        mask: np.ndarray, e: float, bits: np.ndarray) -> np.ndarray:
    """(G, P) Kendall-type values of every swap pattern: each pair's category under the four
    ways its two entries can be drawn (a-a, a-b, b-a, b-b), summed over the pairs with one
    matrix product per category."""
    n = za.shape[1]
    iu, ju = np.triu_indices(n, 1)
    valid = mask[:, iu] & mask[:, ju]
    dh = h[:, iu] - h[:, ju]
    cats = []
    for xi, xj in ((za, za), (za, zb), (zb, za), (zb, zb)):
        cats.append(_kernels._classify(xi[:, iu] - xj[:, ju], dh, valid, e))
    # select[(pair, combo), pattern] = 1 where the pattern draws that combo for that pair
    combo = (2 * (~bits[:, iu]).astype(np.int64) + (~bits[:, ju]).astype(np.int64))  # (P, Q)
    select = (combo.T[:, None, :] == np.arange(4)[None, :, None]).reshape(-1, bits.shape[0])
    select = select.astype(np.float32)
    g = za.shape[0]

    def total(parts: list[np.ndarray]) -> np.ndarray:
        stacked = np.stack(parts, axis=-1).reshape(g, -1).astype(np.float32)
        return (stacked @ select).astype(np.float64)

    con, dis, tx, ty, both = ([cats[c][k] for c in range(4)] for k in range(5))
    tot = valid.sum(1).astype(np.float64)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "kendall_b":
            cd = total([a.astype(np.int8) - b for a, b in zip(con, dis, strict=False)])
            xtie = total([a | b for a, b in zip(tx, both, strict=False)])
            ytie = ((dh == 0) & valid).sum(1).astype(np.float64)[:, None]
            val = cd / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            val = np.where((xtie == tot) | (ytie == tot), np.nan, val)
        else:
            agree = total([a | b for a, b in zip(con, both, strict=False)]) / tot
            val = agree if method == "acc_eq" else 2 * agree - 1
    return np.where(tot > 0, val, np.nan)


def _direct_trials(method: str, za: np.ndarray, zb: np.ndarray, h: np.ndarray,
                   mask: np.ndarray, e: float, k: int, rng: np.random.Generator
                   ) -> np.ndarray:
    g, n = za.shape
    out = np.empty(k)
    chunk = max(1, 2_000_000 // max(g * n, 1))
    if method in _kernels.PAIRWISE:
        chunk = max(1, min(chunk, 4_000_000 // max(g * n * n, 1)))
    for a in range(0, k, chunk):
        c = min(chunk, k - a)
        bits = rng.integers(0, 2, size=(c, g, n)).astype(bool)
        ma = np.where(bits, za, zb)
        mb = np.where(bits, zb, za)
        hh = np.broadcast_to(h, ma.shape)
        mm = np.broadcast_to(mask, ma.shape)
        out[a:a + c] = (_avg(_kernels.correlation(method, ma, hh, mm, e))
                        - _avg(_kernels.correlation(method, mb, hh, mm, e)))
    return out


def pairs_test(metric_a: Any, metric_b: Any, human: Any, *, method: str = "acc_eq",
               level: str = "segment", group_by: str = "item",
               epsilon_a: float | str | None = "calibrate",
               epsilon_b: float | str | None = "calibrate", k: int = 1000,
               seed: int | None = 12345) -> SigResult:
    """The WMT pairs test: the p-value that ``metric_a`` is not better than ``metric_b`` on
    ``acc_eq`` or ``tau_eq``, each metric with its own (by default calibrated) epsilon."""
    if method not in ("acc_eq", "tau_eq"):
        raise ConfigError(f"pairs_test supports method 'acc_eq' or 'tau_eq' (got {method!r})")
    k = check_int("k", k, 1)
    seed = check_seed(seed)
    pa, pb = _pair(metric_a, metric_b, human, method, level, group_by)
    ga, gb = _groups(pa), _groups(pb)
    eps: list[float | None] = []
    agree = []
    for prep, g, e in ((pa, ga, epsilon_a), (pb, gb, epsilon_b)):
        r = resolve_epsilon(prep, e)
        val = 0.0 if r is None else r
        eps.append(r)
        rows, diff, sm, sh = pair_table(g.metric, g.human, g.mask)
        sm = np.where(diff <= val, 0.0, sm)
        agree.append((sm == sh).astype(np.float64))
    per_group = np.bincount(rows, minlength=ga.metric.shape[0])
    weight = 1.0 / (per_group[rows] * (per_group > 0).sum())
    scale = 2.0 if method == "tau_eq" else 1.0
    va = float((agree[0] * weight).sum())
    vb = float((agree[1] * weight).sum())
    if method == "tau_eq":
        va, vb = 2 * va - 1, 2 * vb - 1
    delta = va - vb
    v = scale * weight * (agree[0] - agree[1])
    rng = np.random.default_rng(seed)
    diffs = np.empty(k)
    chunk = max(1, 4_000_000 // max(v.size, 1))
    for a in range(0, k, chunk):
        c = min(chunk, k - a)
        packed = rng.integers(0, 256, size=(c, (v.size + 7) // 8), dtype=np.uint8)
        bits = np.unpackbits(packed, axis=1, count=v.size)
        diffs[a:a + c] = 2.0 * (bits @ v) - v.sum()
    p = float(np.mean(diffs >= delta - _TOL))
    return SigResult(p, delta, k, va, vb, eps[0], eps[1])


def bootstrap_test(metric_a: Any, metric_b: Any, human: Any, *, method: str = "pearson",
                   level: str = "segment", group_by: str = "none",
                   epsilon: float | str | None = None, n_bootstrap: int = 1000,
                   seed: int | None = 12345) -> SigResult:
    """Paired bootstrap: resample segments (the same draws for both metrics) and report the
    share of resamples where A's correlation does not exceed B's (the seeds' procedure).
    ``epsilon="calibrate"`` calibrates each metric once on the full data."""
    n_bootstrap = check_int("n_bootstrap", n_bootstrap, 1)
    seed = check_seed(seed)
    pa, pb = _pair(metric_a, metric_b, human, method, level, group_by)
    ea, eb = resolve_epsilon(pa, epsilon), resolve_epsilon(pb, epsilon)
    fa, fb = (0.0 if ea is None else ea), (0.0 if eb is None else eb)
    va, vb = point(pa, fa)[0], point(pb, fb)[0]
    ra = replicates(pa, fa, n_bootstrap, seed)
    rb = replicates(pb, fb, n_bootstrap, seed)
    d = ra - rb
    ok = np.isfinite(d)
    p = float(np.mean(d[ok] <= _TOL)) if ok.any() else float("nan")
    return SigResult(p, va - vb, n_bootstrap, va, vb, ea, eb)
