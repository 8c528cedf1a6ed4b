"""Bootstrap replicates of correlations when segments are resampled with replacement.

A resample is a vector of integer weights (how often each segment was drawn), so every
statistic is a weighted one: Pearson from weighted sums, Spearman from the average ranks of
the weighted multiset, and the Kendall family from quadratic forms ``w' S w`` (one matrix
product for all replicates). Each equals the statistic of the expanded resample exactly.

>>> import numpy as np
>>> x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0])
>>> w = np.array([[2.0, 1.0, 0.0]])          # entry 0 drawn twice, entry 1 once
>>> round(float(weighted("kendall_b", x, y, w)[0]), 12)  # tau-b of [1, 1, 2] vs [1, 1, 3]
1.0
"""

from __future__ import annotations

import numpy as np

from mtalign.meta import _kernels

_CELLS = 4_000_000


def draw_counts(rng: np.random.Generator, n_items: int, n_samples: int) -> np.ndarray:
    """(n_samples, n_items) multiplicities of ``n_items`` draws with replacement per row."""
    idx = rng.integers(0, n_items, size=(n_samples, n_items))
    flat = (np.arange(n_samples)[:, None] * n_items + idx).ravel()
    return np.bincount(flat, minlength=n_samples * n_items).reshape(n_samples, n_items) \
        .astype(np.float64)


def _wpearson(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted Pearson per row of w (B, n); x, y (n,) or (B, n)."""
    sw = w.sum(1)
    x0 = x - np.mean(x)
    y0 = y - np.mean(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = (w * x0).sum(1) / sw
        my = (w * y0).sum(1) / sw
        dx = x0 - mx[:, None]
        dy = y0 - my[:, None]
        sxy = (w * dx * dy).sum(1)
        sxx = (w * dx * dx).sum(1)
        syy = (w * dy * dy).sum(1)
        r = sxy / np.sqrt(sxx) / np.sqrt(syy)
    return np.clip(r, -1.0, 1.0)


def _wconstant(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    on = w > 0
    return np.where(on, x, -np.inf).max(1) == np.where(on, x, np.inf).min(1)


def _classes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort order of x and the start of each run of equal values in it."""
    order = np.argsort(x, kind="stable")
    s = x[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    return order, starts


def _class_weights(w: np.ndarray, order: np.ndarray, starts: np.ndarray) -> np.ndarray:
    return np.add.reduceat(w[:, order], starts, axis=1)


def _wrank(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    order, starts = _classes(x)
    wg = _class_weights(w, order, starts)
    rank_g = np.cumsum(wg, 1) - wg + (wg + 1.0) / 2.0
    gid = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, x.size]))
    out = np.empty_like(w)
    out[:, order] = rank_g[:, gid]
    return out


def _tie_pairs(w: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Pairs tied on ``key`` (incl. copies of one entry) per row of weights."""
    order, starts = _classes(key)
    wg = _class_weights(w, order, starts)
    return ((wg * wg - wg) / 2.0).sum(1)


def _quad(w: np.ndarray, block_fn) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Row-wise w' M w with M built in column blocks by ``block_fn(cols)`` -> (n, len)."""
    b, n = w.shape
    step = max(1, _CELLS // max(n, 1))
    out = np.zeros(b)
    for a in range(0, n, step):
        cols = np.arange(a, min(n, a + step))
        out += ((w @ block_fn(cols)) * w[:, cols]).sum(1)
    return out


def _wpair_counts(x: np.ndarray, y: np.ndarray, w: np.ndarray, epsilon: float
                  ) -> np.ndarray:
    """(B, 5) pair counts (con, dis, x-only ties, y-only ties, both) of the expanded rows."""
    m = w.sum(1)
    tot = (m * m - m) / 2.0
    exact = epsilon <= 0

    def sign_block(cols: np.ndarray) -> np.ndarray:
        dx = x[:, None] - x[None, cols]
        sx = np.sign(dx)
        if not exact:
            sx = np.where(np.abs(dx) <= epsilon, 0.0, sx)
        return sx * np.sign(y[:, None] - y[None, cols])

    cd = _quad(w, sign_block) / 2.0
    ytie = _tie_pairs(w, y)
    if exact:
        xtie = _tie_pairs(w, x)
        pairs = np.rec.fromarrays([x, y])
        _, inv = np.unique(pairs, return_inverse=True)
        both = _tie_pairs(w, inv.astype(np.float64))
    else:
        total = w.sum(1)
        xtie = (_quad(w, lambda c: (np.abs(x[:, None] - x[None, c]) <= epsilon)
                      .astype(np.float64)) - total) / 2.0
        both = (_quad(w, lambda c: ((np.abs(x[:, None] - x[None, c]) <= epsilon)
                                    & (y[:, None] == y[None, c])).astype(np.float64))
                - total) / 2.0
    con = (tot - xtie - ytie + both + cd) / 2.0
    dis = con - cd
    return np.stack([con, dis, xtie - both, ytie - both, both], axis=1)


def weighted(method: str, x: np.ndarray, y: np.ndarray, w: np.ndarray,
             epsilon: float = 0.0) -> np.ndarray:
    """The correlation of each resample: entries x, y (n,) repeated w[b] (B, n) times."""
    bad = (w.sum(1) < 2) | _wconstant(x, w) | _wconstant(y, w)
    if method == "pearson":
        r = _wpearson(x, y, w)
    elif method == "spearman":
        r = _wpearson(_wrank(x, w), _wrank(y, w), w)
    else:
        counts = _wpair_counts(x, y, w, epsilon)
        size = w.sum(1)
        classes = None
        if method == "kendall_c":
            cx = (_class_weights(w, *_classes(x)) > 0).sum(1)
            cy = (_class_weights(w, *_classes(y)) > 0).sum(1)
            classes = np.minimum(cx, cy)
        r = _kernels.from_counts(method, counts, size, classes)
        if method in ("tau_eq", "acc_eq"):
            bad = w.sum(1) < 2
    return np.where(bad, np.nan, r)
