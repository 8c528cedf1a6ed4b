"""Vectorized correlation kernels over the last axis, with masks (NumPy only).

Every function takes ``x`` (metric) and ``y`` (human) of the same shape ``(..., n)`` and a
boolean ``mask`` of the entries to use, and returns one value per leading index. Pairwise
(Kendall-type) counts are exact integers; Pearson is computed from centred sums.

>>> import numpy as np
>>> x = np.array([[2, 1, 1.5, 5, 3]]); y = np.array([[1, 2, 2, 3, 4]]); m = np.ones((1, 5), bool)
>>> pair_counts(x, y, m).tolist()   # con, dis, ties in x only, in y only, in both
[[6, 3, 0, 1, 0]]
>>> correlation("acc_eq", x, y, m).tolist()
[0.6]
"""

from __future__ import annotations

import math

import numpy as np

METHODS = ("pearson", "spearman", "kendall_b", "kendall_c", "tau_eq", "acc_eq")
PAIRWISE = ("kendall_b", "kendall_c", "tau_eq", "acc_eq")

# Above this many pair cells a group's pair counts are computed in row blocks.
_PAIR_CELLS = 4_000_000


def pearson(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Pearson's r per leading index; NaN when fewer than 2 entries or either side constant."""
    m = mask.astype(np.float64)
    n = m.sum(-1)
    xz = np.where(mask, x, 0.0)
    yz = np.where(mask, y, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = xz.sum(-1) / n
        my = yz.sum(-1) / n
        dx = (xz - mx[..., None]) * m
        dy = (yz - my[..., None]) * m
        sxx = (dx * dx).sum(-1)
        syy = (dy * dy).sum(-1)
        r = (dx * dy).sum(-1) / np.sqrt(sxx) / np.sqrt(syy)
    r = np.clip(r, -1.0, 1.0)
    bad = (n < 2) | _constant(x, mask) | _constant(y, mask)
    return np.where(bad, np.nan, r)


def _constant(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    hi = np.where(mask, x, -np.inf).max(-1)
    lo = np.where(mask, x, np.inf).min(-1)
    return hi == lo


def rank(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Average ranks (1-based, ties share their mean rank) of the masked entries; 0 elsewhere."""
    xf = np.where(mask, x, np.inf)
    order = np.argsort(xf, axis=-1, kind="stable")
    s = np.take_along_axis(xf, order, -1)
    n = s.shape[-1]
    idx = np.broadcast_to(np.arange(n), s.shape)
    new = np.ones(s.shape, dtype=bool)
    new[..., 1:] = s[..., 1:] != s[..., :-1]
    last = np.ones(s.shape, dtype=bool)
    last[..., :-1] = new[..., 1:]
    start = np.maximum.accumulate(np.where(new, idx, 0), axis=-1)
    end = np.flip(np.minimum.accumulate(np.flip(np.where(last, idx, n - 1), -1), -1), -1)
    ranked = (start + end) / 2.0 + 1.0
    out = np.empty_like(ranked)
    np.put_along_axis(out, order, ranked, -1)
    return np.where(mask, out, 0.0)


def spearman(x: np.ndarray, y: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Spearman's rho: Pearson's r of the average ranks (scipy's definition)."""
    r = pearson(rank(x, mask), rank(y, mask), mask)
    bad = _constant(x, mask) | _constant(y, mask)
    return np.where(bad, np.nan, r)


def pair_counts(x: np.ndarray, y: np.ndarray, mask: np.ndarray, epsilon: float = 0.0
                ) -> np.ndarray:
    """Counts (con, dis, ties in x only, ties in y only, ties in both) per leading index,
    shape (..., 5), over the pairs i < j of masked entries. x (the metric) is tied when
    ``|x_i - x_j| <= epsilon``; y (the human) when equal."""
    lead = x.shape[:-1]
    n = x.shape[-1]
    flat_x = x.reshape(-1, n)
    flat_y = y.reshape(-1, n)
    flat_m = mask.reshape(-1, n)
    g = flat_x.shape[0]
    out = np.zeros((g, 5), dtype=np.int64)
    if n < 2 or g == 0:
        return out.reshape(*lead, 5)
    # Whole batches of small groups at once; big groups in row blocks.
    per = max(1, _PAIR_CELLS // (n * n))
    if per >= 1 and n * n <= _PAIR_CELLS:
        for a in range(0, g, per):
            out[a:a + per] = _pair_counts_dense(flat_x[a:a + per], flat_y[a:a + per],
                                                flat_m[a:a + per], epsilon)
    else:
        for i in range(g):
            out[i] = _pair_counts_blocked(flat_x[i], flat_y[i], flat_m[i], epsilon)
    return out.reshape(*lead, 5)


def _classify(dx: np.ndarray, dy: np.ndarray, valid: np.ndarray, epsilon: float
              ) -> list[np.ndarray]:
    xt = np.abs(dx) <= epsilon if epsilon > 0 else dx == 0
    yt = dy == 0
    both = xt & yt & valid
    tx = xt & ~yt & valid
    ty = yt & ~xt & valid
    rest = valid & ~xt & ~yt
    con = rest & ((dx > 0) == (dy > 0))
    dis = rest & ~con
    return [con, dis, tx, ty, both]


def _pair_counts_dense(x: np.ndarray, y: np.ndarray, m: np.ndarray, epsilon: float
                       ) -> np.ndarray:
    n = x.shape[-1]
    dx = x[:, :, None] - x[:, None, :]
    dy = y[:, :, None] - y[:, None, :]
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    valid = m[:, :, None] & m[:, None, :] & upper
    cats = _classify(dx, dy, valid, epsilon)
    return np.stack([c.sum(axis=(1, 2)) for c in cats], axis=-1)


def _pair_counts_blocked(x: np.ndarray, y: np.ndarray, m: np.ndarray, epsilon: float
                         ) -> np.ndarray:
    x = x[m]
    y = y[m]
    n = x.shape[0]
    total = np.zeros(5, dtype=np.int64)
    block = max(1, _PAIR_CELLS // max(n, 1))
    cols = np.arange(n)
    for a in range(0, n, block):
        rows = np.arange(a, min(n, a + block))
        dx = x[rows, None] - x[None, :]
        dy = y[rows, None] - y[None, :]
        valid = cols[None, :] > rows[:, None]
        for k, c in enumerate(_classify(dx, dy, valid, epsilon)):
            total[k] += int(c.sum())
    return total


def distinct(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Number of distinct masked values per leading index."""
    xf = np.sort(np.where(mask, x, np.inf), axis=-1)
    new = np.ones(xf.shape, dtype=bool)
    new[..., 1:] = xf[..., 1:] != xf[..., :-1]
    return (new & np.isfinite(xf)).sum(-1)


def from_counts(method: str, counts: np.ndarray, size: np.ndarray | None = None,
                classes: np.ndarray | None = None) -> np.ndarray:
    """A Kendall-type statistic from pair counts (..., 5); NaN where undefined.

    ``size`` (entries) and ``classes`` (min distinct values of x and y) are needed for tau-c.
    """
    c = counts.astype(np.float64)
    con, dis, tx, ty, both = (c[..., i] for i in range(5))
    tot = c.sum(-1)
    xtie = tx + both
    ytie = ty + both
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "kendall_b":
            val = (con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            val = np.where((xtie == tot) | (ytie == tot), np.nan, val)
        elif method == "kendall_c":
            assert size is not None and classes is not None
            s = size.astype(np.float64)
            k = classes.astype(np.float64)
            val = 2 * (con - dis) / (s ** 2 * (k - 1) / k)
            val = np.where((xtie == tot) | (ytie == tot), np.nan, val)
        elif method == "tau_eq":
            val = (con + both - dis - tx - ty) / tot
        elif method == "acc_eq":
            val = (con + both) / tot
        else:  # pragma: no cover - checked by callers
            raise ValueError(method)
    return np.where(tot > 0, val, np.nan)


def correlation(method: str, x: np.ndarray, y: np.ndarray, mask: np.ndarray,
                epsilon: float = 0.0) -> np.ndarray:
    """One correlation per leading index of (..., n) arrays (see :data:`METHODS`)."""
    if method == "pearson":
        return pearson(x, y, mask)
    if method == "spearman":
        return spearman(x, y, mask)
    counts = pair_counts(x, y, mask, epsilon)
    if method == "kendall_c":
        classes = np.minimum(distinct(x, mask), distinct(y, mask))
        return from_counts(method, counts, mask.sum(-1), classes)
    return from_counts(method, counts)


def t_sf(t: float, df: float) -> float:
    """Survival function of Student's t (P[T > t]) via the regularized incomplete beta."""
    if math.isnan(t):
        return math.nan
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return tail if t >= 0 else 1.0 - tail


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b) (continued fraction, Numerical Recipes 6.4)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h
