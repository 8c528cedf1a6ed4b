"""mtalign.meta on real data (WMT21 en-de MQM, 8 systems x 527 segments) and the
significance tests, clusters and the WMT average."""

from __future__ import annotations

import csv
import time

import numpy as np
import pytest
import wmt_data
from conftest import TESTS_DIR
from mtalign import Bleu, ConfigError, InputError, meta
from mtalign.meta import _kernels, permutation

SYSTEMS = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
           "VolcTrans-GLAT", "eTranslation"]


def load_mqm() -> tuple[list[int], np.ndarray]:
    with open(TESTS_DIR / "data" / "wmt21_ende_mqm.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    lines = sorted({int(r["line"]) for r in rows})
    col = {line: i for i, line in enumerate(lines)}
    human = np.full((len(SYSTEMS), len(lines)), np.nan)
    for r in rows:
        human[SYSTEMS.index(r["system"]), col[int(r["line"])]] = float(r["mqm"])
    return lines, human


@pytest.fixture(scope="module")
def ende():
    lines, human = load_mqm()
    d = wmt_data.load("wmt21_ende_news")
    refs = [d["refs"]["A"][i - 1] for i in lines]
    out = {}
    for name, bleu in (("bleus", Bleu()), ("sent_bleu", Bleu(smooth="exp",
                                                               effective_order=True))):
        out[name] = np.array([bleu.batch_score([d["hyps"][s][i - 1] for i in lines], refs)
                              for s in SYSTEMS])
    return human, out


def test_mqm_shape(ende):
    human, scores = ende
    assert human.shape == (8, 527) and not np.isnan(human).any()


def test_tie_calibrated_bleu_is_share_of_human_ties(ende):
    # The acceptance number: 0.4657 for sentence BLEU. Sentence BLEU calibrates to
    # "all ties", so the value is the share of human-tied pairs, whatever the BLEU variant.
    human, scores = ende
    iu, ju = np.triu_indices(8, 1)
    share = float(np.mean((human.T[:, iu] == human.T[:, ju]).mean(1)))
    for m in scores.values():
        c = meta.correlate(m, human, method="acc_eq", group_by="item", epsilon="calibrate",
                           n_bootstrap=None)
        assert round(c.value, 4) == 0.4657
        assert c.value == pytest.approx(share, abs=1e-12)
        assert c.epsilon == pytest.approx(np.abs(m[:, None, :] - m[None, :, :]).max())


def test_perm_both_timing_and_paths_agree(ende):
    human, s = ende
    a, b = s["bleus"], s["sent_bleu"]
    perm_test = meta.perm_test
    perm_test(a, b, human, method="acc_eq", group_by="item", k=1000)
    t = time.perf_counter()
    r = perm_test(a, b, human, method="acc_eq", group_by="item", k=1000)
    elapsed = time.perf_counter() - t
    assert elapsed < 1.0  # 0.06-0.08 s on 2 shared cores; generous bound for CI noise
    c_a = meta.correlate(a, human, method="acc_eq", group_by="item", n_bootstrap=None).value
    c_b = meta.correlate(b, human, method="acc_eq", group_by="item", n_bootstrap=None).value
    assert r.delta == pytest.approx(c_a - c_b, abs=1e-12)
    assert 0 < r.p_value <= 1


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall_b", "tau_eq", "acc_eq",
                                    "kendall_c"])
def test_pattern_table_equals_direct(method):
    rng = np.random.default_rng(2)
    za = np.round(rng.normal(size=(9, 5)), 1)
    zb = np.round(rng.normal(size=(9, 5)), 1)
    h = np.round(rng.normal(size=(9, 5)))
    mask = rng.random((9, 5)) > 0.15
    n = 5
    bits = ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)
    mixed = np.where(bits[None], za[:, None, :], zb[:, None, :])
    direct = _kernels.correlation(method, mixed, np.broadcast_to(h[:, None], mixed.shape),
                                  np.broadcast_to(mask[:, None], mixed.shape))
    if method in ("kendall_b", "tau_eq", "acc_eq"):
        table = permutation._pair_pattern_table(method, za, zb, h, mask, 0.0, bits)
        np.testing.assert_allclose(table, direct, atol=1e-12)
    # and the p-values of the two trial paths agree statistically
    ha = np.round(rng.normal(size=(6, 40)))
    ma = ha + rng.normal(size=(6, 40))
    mb = ha + 1.5 * rng.normal(size=(6, 40))
    fast = meta.perm_test(ma, mb, ha, method=method, group_by="item", k=2000, seed=1)
    old = permutation._TABLE_MAX
    permutation._TABLE_MAX = 0
    try:
        slow = meta.perm_test(ma, mb, ha, method=method, group_by="item", k=2000, seed=1)
    finally:
        permutation._TABLE_MAX = old
    assert fast.delta == slow.delta
    assert abs(fast.p_value - slow.p_value) < 0.05


def test_perm_test_null_is_uniform_ish():
    rng = np.random.default_rng(4)
    h = rng.normal(size=(5, 30))
    m = h + rng.normal(size=(5, 30))
    same = meta.perm_test(m, m, h, k=500)
    assert same.delta == 0 and same.p_value == 1.0
    better = meta.perm_test(h, m, h, group_by="system", k=500)
    assert better.p_value < 0.01
    worse = meta.perm_test(m, h, h, group_by="system", k=500)
    assert worse.p_value > 0.99


def test_pairs_test_and_bootstrap_test(ende):
    human, s = ende
    r = meta.pairs_test(s["bleus"], s["sent_bleu"], human, k=500)
    # both calibrate to all ties: the same verdict on every pair -> no difference
    assert r.delta == pytest.approx(0.0, abs=1e-12) and r.p_value == 1.0
    rng = np.random.default_rng(0)
    noisy = human + rng.normal(scale=3, size=human.shape)
    r = meta.pairs_test(human, noisy, human, k=500)
    assert r.delta > 0 and r.p_value < 0.01
    b = meta.bootstrap_test(human, noisy, human, group_by="item", n_bootstrap=200)
    assert b.p_value < 0.01


def test_clusters_and_assign_ranks(ende):
    human, s = ende
    rng = np.random.default_rng(0)
    scores = {"oracle": human, "noisy": human + rng.normal(scale=5, size=human.shape),
              "bleus": s["bleus"], "sent_bleu": s["sent_bleu"]}
    c = meta.clusters(scores, human, method="acc_eq", group_by="item", k=200)
    names = [r.name for r in c.ranking]
    assert names[0] == "oracle" and c.ranking[0].rank == 1
    ranks = {r.name: r.rank for r in c.ranking}
    assert ranks["bleus"] == ranks["sent_bleu"] > 1
    assert meta.assign_ranks(np.array([[0, .06, .2], [0, 0, .01], [0, 0, 0]])) == [1, 1, 2]
    with pytest.raises(ConfigError):
        meta.clusters(scores, human, test="magic")
    with pytest.raises(InputError):
        meta.clusters({}, human)


def test_pairwise_accuracy_pooled():
    assert meta.pairwise_accuracy([1, 2, 3], [1, 2, 3]) == 1.0
    pooled = meta.pairwise_accuracy({"en-de": [1, 2, 3], "zh-en": [1, 2]},
                                    {"en-de": [3, 2, 1], "zh-en": [1, 2]})
    assert pooled == 1 / 4
    # mt-metrics-eval testAgreement: gold [1,2,3,3,4], metric [1,1,2,1,2] -> 5 of 10 agree
    assert meta.pairwise_accuracy([1, 1, 2, 1, 2], [1, 2, 3, 3, 4]) == 0.5
    with pytest.raises(InputError):
        meta.pairwise_accuracy({"a": [1, 2]}, [1, 2])
    with pytest.raises(InputError):
        meta.pairwise_accuracy([1], [1])


def test_spa_properties(ende):
    human, s = ende
    assert meta.spa(human, human) == 1.0
    v = meta.spa(s["bleus"], human, permutations=200)
    assert 0.5 < v < 1.0
    with pytest.raises(ConfigError, match="too many"):
        meta.spa(s["bleus"], human, permutations="exact")
    with pytest.raises(InputError):
        meta.spa([[1, 2]], [[1, 2]])


def test_williams_against_scipy_t():
    scipy_stats = pytest.importorskip("scipy.stats")
    for t in (-3.0, -0.5, 0.0, 0.7, 2.5, 9.0):
        for df in (1, 2, 7, 40, 500):
            assert _kernels.t_sf(t, df) == pytest.approx(scipy_stats.t.sf(t, df), rel=1e-10)
    w = meta.williams([1, 2, 3, 4, 6], [1, 3, 2, 4, 5], [1, 2, 3, 4, 5], one_sided=False)
    assert 0 < w.p_value <= 1 and w.n == 5
    with pytest.raises(InputError):
        meta.williams([1, 2, 3], [1, 2, 3], [1, 2, 3])


def test_wmt_average():
    tasks = [("pairwise_accuracy", {"A": 0.9, "B": 0.8, "C": 0.1}),
             ("pearson", {"A": 0.2, "B": 0.6})]
    assert meta.wmt_average(tasks) == {"B": 0.8, "A": 0.75}
    w = meta.wmt_weights("wmt23", 3)
    assert len(w) == 10 and w[0] == 0.25 and sum(w) == pytest.approx(1.0)
    assert meta.wmt_weights("wmt24", 3) == [1 / 6] * 6
    with pytest.raises(ConfigError):
        meta.wmt_weights("wmt99", 3)
    with pytest.raises(InputError):
        meta.wmt_average(tasks, [1.0])


def test_bad_input_significance():
    with pytest.raises(ConfigError, match="pairs_test"):
        meta.perm_test([[1, 2, 3]], [[1, 2, 3]], [[1, 2, 3]], method="acc_eq",
                       epsilon="calibrate")
    with pytest.raises(ConfigError, match="k must be"):
        meta.perm_test([[1, 2, 3]], [[1, 2, 3]], [[1, 2, 3]], k=0)
    with pytest.raises(InputError, match="metric_b"):
        meta.perm_test([[1, 2, 3]], [[1, 2]], [[1, 2, 3]])
    with pytest.raises(ConfigError, match="acc_eq"):
        meta.pairs_test([[1, 2, 3]], [[1, 2, 3]], [[1, 2, 3]], method="pearson")
