"""``corpus_score(n_bootstrap=)`` against sacrebleu 2.6.0's ``corpus_score(n_bootstrap=)``
(what ``sacrebleu --confidence`` runs), and ``scores_from_statistics`` against
``corpus_from_statistics`` row by row for every registry metric.

sacrebleu draws ``default_rng(seed).choice(n, (n_bootstrap, n))`` and scores each resample
from float32 statistics; mtalign makes the same draws and scores in float64. So each
resample's score is checked exactly against sacrebleu's own scoring of the same float64
rows, and the mean and interval against sacrebleu's float32 figures to float32 precision."""

from __future__ import annotations

import mtalign
import numpy as np
import pytest
import wmt_data
from mtalign import registry
from sacrebleu.metrics import BLEU, CHRF, TER

# (mtalign, sacrebleu, segments: sacrebleu's TER is slow)
PAIRS = [(lambda: mtalign.Bleu(smooth="exp"), BLEU, 1002),
         (lambda: mtalign.Chrf(), CHRF, 1002),
         (lambda: mtalign.Chrf(word_order=2), lambda: CHRF(word_order=2), 500),
         (lambda: mtalign.Ter(), TER, 60)]


@pytest.mark.parametrize("make, make_peer, size", PAIRS)
def test_confidence_equals_sacrebleu(make, make_peer, size):
    data = wmt_data.load("wmt21_ende_news")
    refs = [data["refs"]["A"][:size], data["refs"]["C"][:size]]
    ours, peer = make(), make_peer()
    for system in list(data["hyps"])[:2]:
        hyps = data["hyps"][system][:size]
        for streams in (refs[:1], refs):
            segs = [list(r) for r in zip(*streams, strict=True)]
            got = ours.corpus_score(hyps, segs, n_bootstrap=1000)
            want = peer.corpus_score(hyps, streams, n_bootstrap=1000)
            assert got.score == want.score
            c = got.confidence
            assert c.mean == pytest.approx(want._mean, rel=2e-7, abs=2e-5)
            assert c.ci == pytest.approx(want._ci, rel=2e-6, abs=2e-5)
            assert "|bs:1000|seed:12345|" in got.signature
    # Each resample: sacrebleu's own scoring of the same draw, in float64.
    m = min(size, 300)
    hyps = data["hyps"][list(data["hyps"])[0]][:m]
    stats = np.asarray(peer._extract_corpus_statistics(hyps, [refs[0][:m]]), np.float64)
    idx = np.random.default_rng(7).choice(m, size=(50, m), replace=True)
    want = [peer._compute_score_from_stats(list(stats[i].sum(0))).score for i in idx]
    ours_stats = ours.statistics(hyps, refs[0][:m])
    assert ours._resampled(ours_stats, idx).tolist() == pytest.approx(want, rel=1e-12)


def test_confidence_options():
    b = mtalign.Bleu(tokenize="whitespace")
    hyps, refs = ["a b c", "a b", "c d e f"], ["a b c", "a x", "c d e g"]
    r1 = b.corpus_score(hyps, refs, n_bootstrap=200, seed=3)
    r2 = b.corpus_score(hyps, refs, n_bootstrap=200, seed=3)
    assert r1.confidence == r2.confidence and r1.confidence.n_bootstrap == 200
    assert r1.to_dict()["confidence"]["seed"] == 3
    assert "μ =" in str(r1)
    assert b.corpus_score(hyps, refs).confidence is None
    none = b.corpus_score(hyps, refs, n_bootstrap=50, seed=None)
    assert "|seed:none|" in none.signature
    for bad in (0, -1, 1.5, True):
        with pytest.raises(mtalign.ConfigError, match="n_bootstrap"):
            b.corpus_score(hyps, refs, n_bootstrap=bad)
    with pytest.raises(mtalign.ConfigError, match="seed"):
        b.corpus_score(hyps, refs, n_bootstrap=10, seed="x")
    with pytest.raises(mtalign.InputError):
        b.corpus_score([], [], n_bootstrap=10)


def registry_metrics():
    names = ["rougeL", "rouge2", "rougeW-1.2", "rougeS4", "dcs", "bleu", "bleus4", "nist",
             "wer", "per", "ribes", "chrf", "chrf++", "ter"]
    return [(n, *registry.make_metric(n)) for n in names]


@pytest.mark.parametrize("name, metric, variant", registry_metrics())
def test_scores_from_statistics_row_by_row(name, metric, variant):
    data = wmt_data.load("wmt21_deen_news")
    hyps, refs = data["hyps"]["Facebook-AI"][:40], data["refs"]["A"][:40]
    stats = metric.statistics(hyps, refs)
    rng = np.random.default_rng(1)
    idx = rng.choice(40, size=(6, 40), replace=True)
    rows = np.concatenate([stats[:5], [stats[i].sum(0) for i in idx[:2]]])
    if metric.aggregation != "sum":
        rows = stats[:5]
    got = metric.scores_from_statistics(rows)
    want = [float(metric.corpus_from_statistics(rows[i:i + 1])) for i in range(len(rows))]
    assert got.tolist() == pytest.approx(want, rel=1e-12, abs=1e-12)
    # The vectorized resampling equals one corpus_from_statistics per resample.
    want = [float(metric.corpus_from_statistics(stats[i])) for i in idx]
    assert metric._resampled(stats, idx).tolist() == pytest.approx(want, rel=1e-12, abs=1e-12)
