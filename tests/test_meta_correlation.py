"""mtalign.meta correlations against scipy.stats and mt-metrics-eval's published numbers.

The expected values marked "mt-metrics-eval" are copied from google-research/mt-metrics-eval,
``mt_metrics_eval/stats_test.py`` (Apache-2.0, Copyright 2021 Google LLC): the numbers only,
not the code.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")

from mtalign import ConfigError, InputError, meta  # noqa: E402
from mtalign.meta import _bootstrap, _kernels  # noqa: E402

GOLD6 = [[1, 2, 3], [4, 5, 6]]
METRIC6 = [[2, 1, 4], [3, 3, 7]]


def corr(metric, human, **kw):
    kw.setdefault("n_bootstrap", None)
    return meta.correlate(metric, human, **kw).value


# --- mt-metrics-eval stats_test.py numbers -------------------------------------------------

@pytest.mark.parametrize("group_by,expected", [("none", 0.776), ("system", 0.760),
                                               ("item", 1.0)])
def test_mtme_pearson(group_by, expected):
    assert corr(METRIC6, GOLD6, group_by=group_by) == pytest.approx(expected, abs=5e-4)


@pytest.mark.parametrize("method,group_by,expected", [
    ("kendall_b", "none", 0.552), ("kendall_b", "system", 0.575), ("kendall_b", "item", 1.0),
    ("kendall_c", "none", 0.556), ("kendall_c", "system", 0.611), ("kendall_c", "item", 1.0)])
def test_mtme_kendall(method, group_by, expected):
    assert corr(METRIC6, GOLD6, method=method, group_by=group_by) == pytest.approx(
        expected, abs=5e-4)


def test_mtme_kendall_variants():
    gold, metric = [1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3]
    assert corr(metric, gold, method="kendall_b") == pytest.approx(0.316227766, abs=1e-9)
    assert corr(metric, gold, method="kendall_c") == pytest.approx(0.32, abs=1e-15)
    assert corr(metric, gold, method="tau_eq") == pytest.approx(0.2, abs=1e-15)
    assert corr(metric, gold, method="acc_eq") == pytest.approx(0.6, abs=1e-15)
    assert corr(metric, gold, method="acc_eq", epsilon=2) == pytest.approx(0.4, abs=1e-15)
    assert corr(metric, gold, method="acc_eq", epsilon="calibrate") == pytest.approx(
        0.7, abs=1e-15)


def test_mtme_kendall_23_counts():
    # mt-metrics-eval testKendallVariants_23: 21 pairs, 13 concordant, 2 discordant, 3 ties
    # in the gold only, 2 in the metric only, 1 in both; its x is the gold.
    x = [1, 1, 1, 2, 2, 3, 4]
    y = [1, 1, 2, 2, 4, 3, 3]
    assert corr(y, x, method="tau_eq") == pytest.approx((13 + 1 - 2 - 3 - 2) / 21, abs=1e-15)
    assert corr(y, x, method="acc_eq") == pytest.approx((13 + 1) / 21, abs=1e-15)
    # epsilon = 1 (testKendallVariantsWithPositiveEpsilon): the metric ties 13 pairs
    assert corr(y, x, method="tau_eq", epsilon=1.0) == pytest.approx(
        (7 + 3 - 1 - 10 - 0) / 21, abs=1e-15)


def test_mtme_calibrated_by_group():
    gold, metric = [[1, 2, 2], [3, 3, 4]], [[2, 1, 1.5], [5, 3, 2]]
    for group_by in ("none", "system", "item"):
        c = meta.correlate(metric, gold, method="acc_eq", group_by=group_by,
                           epsilon="calibrate", n_bootstrap=None)
        again = corr(metric, gold, method="acc_eq", group_by=group_by, epsilon=c.epsilon)
        assert c.value == again


def test_mtme_missing_entries():
    # mt-metrics-eval testMissingEntries / testAverageByItemWithMissingEntries
    g = [[1, None, 3], [4, 5, 6]]
    m = [[2, 1, 8], [3, 5, 6]]
    exp = scipy_stats.pearsonr([1, 3, 4, 5, 6], [2, 8, 3, 5, 6])[0]
    assert corr(m, g) == pytest.approx(exp, abs=1e-12)
    p1 = scipy_stats.pearsonr([1, 4], [2, 3])[0]
    p3 = scipy_stats.pearsonr([3, 6], [8, 6])[0]
    assert corr(m, g, group_by="item") == pytest.approx((p1 + p3) / 2, abs=1e-12)


def test_mtme_nan_groups_left_out():
    # mt-metrics-eval testNaNHandling: a constant row is left out of the average.
    assert corr([[2, 2, 2], [4, 5, 6]], [[1, 2, 3], [4, 5, 6]], group_by="system") == \
        pytest.approx(1.0, abs=1e-12)


def test_mtme_williams():
    gold = [1, 2, 3, 4, 5]
    w = meta.williams([1.1, 2, 3.1, 4, 5.1], [1.5, 2, 3.1, 4, 5.5], gold)
    assert w.p_value == pytest.approx(0.019, abs=5e-4)
    assert w.r_a == pytest.approx(0.999, abs=5e-4)
    assert w.r_b == pytest.approx(0.987, abs=5e-4)


def test_mtme_spa_exact_and_sampled():
    human = [[1, 2, 3], [2, 3, 4]]
    metric = [[2, 2, 4], [1, 3, 5]]
    assert meta.spa(metric, human, permutations="exact") == 0.875
    # mt-metrics-eval's sampled value (1000 permutations, its seed 4): 0.872
    assert meta.spa(metric, human, permutations=1000, seed=4) == pytest.approx(0.872,
                                                                               abs=5e-4)


# --- scipy.stats to 1e-12 -----------------------------------------------------------------

def _scipy(method, x, y):
    if method == "pearson":
        return scipy_stats.pearsonr(x, y)[0]
    if method == "spearman":
        return scipy_stats.spearmanr(x, y)[0]
    return scipy_stats.kendalltau(x, y, variant=method[-1])[0]


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall_b", "kendall_c"])
@pytest.mark.parametrize("ties", [False, True])
def test_scipy_point_estimates(method, ties):
    rng = np.random.default_rng(7)
    for n in (2, 3, 5, 17, 200, 3000):
        x = rng.normal(size=n)
        y = 0.3 * x + rng.normal(size=n)
        if ties:
            x, y = np.round(x * 2), np.round(y)
        got = corr(x[None], y[None], method=method)
        exp = _scipy(method, x, y)
        if math.isnan(exp):
            assert math.isnan(got)
        else:
            assert got == pytest.approx(exp, abs=1e-12), (n, method)


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall_b", "kendall_c"])
def test_scipy_grouped_means(method):
    rng = np.random.default_rng(3)
    m = np.round(rng.normal(size=(6, 40)), 1)
    h = np.round(m + rng.normal(size=(6, 40)), 0)
    h[rng.random(h.shape) < 0.1] = np.nan
    for group_by, rows in (("system", lambda a: a), ("item", lambda a: a.T)):
        vals = []
        for mr, hr in zip(rows(m), rows(h), strict=False):
            ok = ~np.isnan(hr)
            if ok.sum() < 2:
                continue
            v = _scipy(method, mr[ok], hr[ok])
            if method in ("pearson", "spearman") and (np.ptp(mr[ok]) == 0 or
                                                      np.ptp(hr[ok]) == 0):
                v = math.nan
            vals.append(v)
        exp = np.nanmean(vals)
        assert corr(m, h, method=method, group_by=group_by) == pytest.approx(exp, abs=1e-12)


def test_system_level_averages_scored_segments():
    h = np.array([[1.0, np.nan, 3.0], [2.0, 2.0, np.nan], [0.0, 5.0, 4.0]])
    m = np.array([[0.5, 9.0, 0.1], [0.3, 0.2, 7.0], [0.9, 0.1, 0.4]])
    ms = [np.mean([0.5, 0.1]), np.mean([0.3, 0.2]), np.mean([0.9, 0.1, 0.4])]
    hs = [np.mean([1, 3]), np.mean([2, 2]), np.mean([0, 5, 4])]
    c = meta.correlate(m, h, level="system", n_bootstrap=None)
    assert c.value == pytest.approx(scipy_stats.pearsonr(ms, hs)[0], abs=1e-12)
    assert c.n == 3


# --- bootstrap: the weighted forms equal the expanded resample ------------------------------

@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall_b", "kendall_c",
                                    "tau_eq", "acc_eq"])
@pytest.mark.parametrize("epsilon", [0.0, 0.6])
def test_weighted_equals_expanded(method, epsilon):
    if epsilon and method in ("pearson", "spearman", "kendall_c"):
        return
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(size=30), 1)
    y = np.round(x + rng.normal(size=30))
    counts = _bootstrap.draw_counts(rng, 30, 20)
    got = _bootstrap.weighted(method, x, y, counts, epsilon)
    for b in range(20):
        idx = np.repeat(np.arange(30), counts[b].astype(int))
        exp = _kernels.correlation(method, x[idx][None], y[idx][None],
                                   np.ones((1, idx.size), bool), epsilon)[0]
        if method in ("pearson", "spearman", "kendall_b", "kendall_c") and not epsilon:
            assert exp == pytest.approx(_scipy(method, x[idx], y[idx]), abs=1e-12)
        assert got[b] == pytest.approx(exp, abs=1e-12)


def test_bootstrap_ci_resamples_segments():
    rng = np.random.default_rng(5)
    m = rng.normal(size=(4, 50))
    h = m + rng.normal(size=(4, 50))
    for group_by in ("none", "system", "item"):
        c = meta.correlate(m, h, group_by=group_by, n_bootstrap=200, seed=1)
        assert c.replicates.shape == (200,)
        assert c.ci[0] < c.value < c.ci[1]
        # the same seed draws the same segments: replicate 0 by hand
        counts = _bootstrap.draw_counts(np.random.default_rng(1), 50, 200)
        idx = np.repeat(np.arange(50), counts[0].astype(int))
        assert c.replicates[0] == pytest.approx(
            corr(m[:, idx], h[:, idx], group_by=group_by), abs=1e-12)
    again = meta.correlate(m, h, n_bootstrap=200, seed=1)
    assert again.ci == meta.correlate(m, h, n_bootstrap=200, seed=1).ci


def test_system_level_bootstrap_by_hand():
    rng = np.random.default_rng(9)
    m = rng.normal(size=(5, 30))
    h = m + rng.normal(size=(5, 30))
    c = meta.correlate(m, h, level="system", method="kendall_b", n_bootstrap=50, seed=3)
    counts = _bootstrap.draw_counts(np.random.default_rng(3), 30, 50)
    idx = np.repeat(np.arange(30), counts[7].astype(int))
    exp = corr(m[:, idx], h[:, idx], level="system", method="kendall_b")
    assert c.replicates[7] == pytest.approx(exp, abs=1e-12)


# --- bad input ------------------------------------------------------------------------------

def test_bad_input():
    with pytest.raises(InputError, match="shape"):
        meta.correlate([[1, 2, 3]], [[1, 2]])
    with pytest.raises(InputError, match="NaN"):
        meta.correlate([[1, float("nan"), 3]], [[1, 2, 3]])
    with pytest.raises(InputError, match="at least 2 systems"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], level="system")
    with pytest.raises(InputError, match="at least 2 systems"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], group_by="item")
    with pytest.raises(InputError, match="no human scores"):
        meta.correlate([[1, 2], [3, 4]], [[None, None], [1, 2]], level="system")
    with pytest.raises(InputError, match="'B'"):
        meta.correlate({"A": [1, 2]}, {"A": [1, 2], "B": [3, 4]})
    with pytest.raises(ConfigError, match="n_bootstrap"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], n_bootstrap=0)
    with pytest.raises(ConfigError, match="method"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], method="cosine")
    with pytest.raises(ConfigError, match="calibrate"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], epsilon="calibrate")
    with pytest.raises(ConfigError, match="epsilon"):
        meta.correlate([[1, 2, 3]], [[1, 2, 3]], epsilon=-1, method="acc_eq")
    with pytest.raises(InputError):
        meta.correlate([["a", "b"]], [[1, 2]])


def test_documented_nans():
    # all-None columns are skipped; nothing left -> NaN with n_groups 0, no error
    c = meta.correlate([[1, 2], [3, 4]], [[None, None], [None, None]], group_by="item")
    assert math.isnan(c.value) and c.n_groups == 0 and c.n == 0
    c = meta.correlate([[1, 2], [3, 4]], [[1, None], [2, None]], group_by="item",
                       n_bootstrap=10)
    assert c.value == pytest.approx(1.0, abs=1e-12) and c.n_groups == 1
    # a constant metric: Pearson undefined -> NaN
    assert math.isnan(corr([[1, 1, 1]], [[1, 2, 3]]))
    # NaN metric scores where human is missing are fine
    assert corr([[1, float("nan"), 3, 4]], [[1, None, 2, 5]]) == pytest.approx(
        scipy_stats.pearsonr([1, 3, 4], [1, 2, 5])[0], abs=1e-12)


def test_dict_inputs_and_systems_order():
    human = {"A": [1, 2, 3], "B": [2, 5, 4], "C": [0, 1, None]}
    metric = {"C": [9, 9, 1], "B": [2, 4, 4], "A": [1, 3, 2], "extra": [0, 0, 0]}
    rows_h = [[1, 2, 3], [2, 5, 4], [0, 1, np.nan]]
    rows_m = [[1, 3, 2], [2, 4, 4], [9, 9, 1]]
    assert corr(metric, human) == corr(rows_m, rows_h)
    assert corr(metric, human, systems=["B", "A"]) == corr(rows_m[1::-1], rows_h[1::-1])
    with pytest.raises(InputError, match="'D'"):
        corr(metric, human, systems=["A", "D"])
