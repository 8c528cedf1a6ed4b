"""mtalign.paired_test against sacrebleu 2.6.0's --paired-bs / --paired-ar (exact numbers in
rng="sacrebleu" mode) on WMT21 en-de systems (tests/data, see its README)."""

from __future__ import annotations

import mtalign
import numpy as np
import pytest
import wmt_data
from mtalign import ConfigError, InputError

significance = pytest.importorskip("sacrebleu.significance")
sacre_metrics = pytest.importorskip("sacrebleu.metrics")

# close systems (BLEU 29.3-29.9) so the p-values are not all at their floor
NAMES = ["Online-W", "UEdin", "eTranslation", "VolcTrans-AT", "HuaweiTSC"]


@pytest.fixture(scope="module")
def data():
    d = wmt_data.load("wmt21_ende_news")
    return d["refs"]["A"], d["hyps"]


def sacrebleu_run(refs, hyps, kind, n, conf=-1, names=NAMES, **bleu):
    named = [(s, hyps[s]) for s in names]
    metric = sacre_metrics.BLEU(references=[refs], **bleu)
    _, scores = significance.PairedTest(named, {"BLEU": metric}, references=None,
                                        test_type=kind, n_samples=n, n_ar_confidence=conf)()
    key = [k for k in scores if k != "System"][0]
    return dict(zip(scores["System"], scores[key], strict=True))


def ours(refs, hyps, kind, n, conf=None, names=NAMES, **bleu):
    return mtalign.paired_test(mtalign.Bleu(**bleu), hyps[names[0]],
                               {s: hyps[s] for s in names[1:]}, refs, kind=kind,
                               n_samples=n, rng="sacrebleu", baseline_name=names[0],
                               ar_confidence=conf)


def assert_same(expected, got):
    assert list(expected) == list(got)
    for name, e in expected.items():
        g = got[name]
        assert (g.score, g.p_value, g.mean, g.ci) == (e.score, e.p_value, e.mean, e.ci), name


def test_paired_bs_equals_sacrebleu(data):
    refs, hyps = data
    expected = sacrebleu_run(refs, hyps, "bs", 1000)
    got = ours(refs, hyps, "bs", 1000, smooth="exp")
    assert_same(expected, got)
    assert 0.01 < got["UEdin"].p_value < 0.9


def test_paired_ar_equals_sacrebleu_with_confidence(data):
    refs, hyps = data
    expected = sacrebleu_run(refs, hyps, "ar", 2000, conf=300)
    assert_same(expected, ours(refs, hyps, "ar", 2000, conf=300, smooth="exp"))


def test_paired_ar_default_has_no_ci(data):
    refs, hyps = data
    names = NAMES[:3]
    expected = sacrebleu_run(refs, hyps, "ar", 1000, names=names)
    got = ours(refs, hyps, "ar", 1000, names=names, smooth="exp")
    assert_same(expected, got)
    assert got["UEdin"].mean is None


@pytest.mark.parametrize("bleu", [{"smooth_method": "floor"}, {"smooth_method": "none"},
                                  {"lowercase": True}])
def test_paired_bs_sacrebleu_options(data, bleu):
    refs, hyps = data
    names = NAMES[:3]
    ours_kw = {"smooth": bleu.get("smooth_method", "exp"),
               "lowercase": bleu.get("lowercase", False)}
    expected = sacrebleu_run(refs, hyps, "bs", 300, names=names, **bleu)
    assert_same(expected, ours(refs, hyps, "bs", 300, names=names, **ours_kw))


def test_mtalign_mode_close_to_sacrebleu(data):
    refs, hyps = data
    base = hyps[NAMES[0]]
    systems = {s: hyps[s] for s in NAMES[1:]}
    a = mtalign.paired_test(mtalign.Bleu(smooth="exp"), base, systems, refs)
    b = mtalign.paired_test(mtalign.Bleu(smooth="exp"), base, systems, refs, rng="sacrebleu")
    for name in systems:
        assert a[name].score == pytest.approx(b[name].score, abs=1e-9)
        assert a[name].p_value == pytest.approx(b[name].p_value, abs=0.01)
        assert a[name].mean == pytest.approx(b[name].mean, abs=1e-4)


def test_plain_scores_and_segment_metrics(data):
    refs, hyps = data
    rng = np.random.default_rng(0)
    base = rng.random(200)
    noise = rng.normal(scale=0.05, size=200)
    res = mtalign.paired_test(None, base, {"same": base, "up": base + 0.1,
                                           "noisy": base + noise - noise.mean()},
                              kind="ar", n_samples=999)
    # sacrebleu counts trials whose difference is strictly larger: an identical system
    # gets 1 / (n + 1), as there
    assert res["same"].p_value == 1 / 1000
    assert res["noisy"].p_value > 0.5
    assert res["up"].p_value == 1 / 1000
    assert res["up"].score == pytest.approx(base.mean() + 0.1)
    # any metric with statistics: its corpus score of resampled rows
    wer = mtalign.paired_test(mtalign.Wer(), hyps[NAMES[0]][:100],
                              {NAMES[1]: hyps[NAMES[1]][:100]}, refs[:100], n_samples=100)
    assert wer[NAMES[1]].score == pytest.approx(
        mtalign.Wer().corpus_score(hyps[NAMES[1]][:100], refs[:100]).score)


def test_paired_bad_input(data):
    refs, hyps = data
    with pytest.raises(ConfigError, match="kind"):
        mtalign.paired_test(None, [1.0, 2.0], {"a": [1.0, 2.0]}, kind="t")
    with pytest.raises(ConfigError, match="rng"):
        mtalign.paired_test(None, [1.0, 2.0], {"a": [1.0, 2.0]}, rng="numpy")
    with pytest.raises(ConfigError, match="n_samples"):
        mtalign.paired_test(None, [1.0, 2.0], {"a": [1.0, 2.0]}, n_samples=0)
    with pytest.raises(InputError, match="segments"):
        mtalign.paired_test(None, [1.0, 2.0], {"a": [1.0, 2.0, 3.0]})
    with pytest.raises(InputError, match="finite"):
        mtalign.paired_test(None, [1.0, float("nan")], {"a": [1.0, 2.0]})
    with pytest.raises(InputError, match="non-empty"):
        mtalign.paired_test(None, [1.0, 2.0], {})
    with pytest.raises(InputError, match="refs"):
        mtalign.paired_test(mtalign.Bleu(), ["a"], {"b": ["b"]})
    with pytest.raises(ConfigError, match="smoothing"):
        mtalign.paired_test(mtalign.Bleu.bleus(), ["a b"], {"b": ["a b"]}, ["a b"],
                            rng="sacrebleu")
    with pytest.raises(InputError, match="segments"):
        mtalign.paired_test(mtalign.Bleu(), ["a", "b"], {"c": ["c"]}, ["a", "b"])


def test_paired_from_statistics_and_mean_metrics(data):
    """Statistics given instead of texts (one statistics pass shared by BS and AR) give the
    same results; a mean-aggregated metric's system score is its corpus score."""
    refs, hyps = data
    bleu = mtalign.Bleu(smooth="exp")
    base, other = hyps[NAMES[0]][:200], hyps[NAMES[1]][:200]
    for kind in ("bs", "ar"):
        for rng in ("mtalign", "sacrebleu"):
            want = mtalign.paired_test(bleu, base, {"x": other}, refs[:200], kind=kind,
                                       rng=rng, n_samples=300)
            got = mtalign.paired_test(bleu, bleu.statistics(base, refs[:200]),
                                      {"x": bleu.statistics(other, refs[:200])}, kind=kind,
                                      rng=rng, n_samples=300)
            assert got == want
    ribes = mtalign.Ribes()
    res = mtalign.paired_test(ribes, base, {"x": other}, refs[:200], n_samples=100)
    assert res["x"].score == pytest.approx(ribes.corpus_score(other, refs[:200]).score,
                                           rel=1e-12)
    with pytest.raises(InputError, match="statistics arrays"):
        mtalign.paired_test(bleu, [[1.0, float("nan")]], {"x": [[1.0, 2.0]]})
