"""MBR matrices and expected utility: the symmetric and many-source matrices equal the flat
batch of every pair bit for bit (any thread count); expected scores equal sacrebleu's own
sentence scores averaged; ``mbr`` picks by the metric's direction."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import mtalign
import numpy as np
import pytest
import sacrebleu
from mtalign import MtalignWarning, registry
from mtalign.metrics.base import pairwise_scores

WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"


def _samples(n: int = 14) -> list[str]:
    """WMT21 en→de system outputs of two source sentences, with repeats and an empty one."""
    systems = sorted((WMT / "hyp").iterdir())
    lines = [p.read_text(encoding="utf-8").splitlines() for p in systems]
    out = [lines[k % len(lines)][k % 2] for k in range(n - 3)]
    return out + [out[0], "", "..."]


@pytest.mark.parametrize("name", registry.example_names())
@pytest.mark.parametrize("threads", [1, 2])
def test_symmetric_matrix_equals_the_flat_batch(name: str, threads: int) -> None:
    metric, variant = registry.make_metric(name)
    hyps = _samples()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MtalignWarning)
        got = metric.pairwise(hyps, variant=variant, threads=threads)
        want = pairwise_scores(metric.scalar_scores, hyps, hyps, variant, threads)
    assert got.shape == (len(hyps), len(hyps))
    assert np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("name", ["rougeL", "rouge2", "rougeSU4", "bleus4", "wer", "per",
                                  "chrf", "chrf++"])
def test_large_symmetric_matrices_run_in_parallel_bit_identically(name: str) -> None:
    metric, variant = registry.make_metric(name)
    hyps = [s + f" {k % 7}" * (k % 3) for k, s in enumerate(_samples(40) * 3)]
    one = metric.pairwise(hyps, variant=variant, threads=1)
    three = metric.pairwise(hyps, variant=variant, threads=3)
    want = pairwise_scores(metric.scalar_scores, hyps, hyps, variant, 2)
    assert np.array_equal(one, want) and np.array_equal(three, want)


@pytest.mark.parametrize("name", ["rougeL", "bleus4", "wer", "chrf", "nist"])
def test_blocks_equal_one_matrix_per_block(name: str) -> None:
    metric, variant = registry.make_metric(name)
    s = _samples(30)
    blocks = [(s[:5], None), (s[5:9], s[9:20]), (s[20:27], [s[0], [s[1], s[2]]]), (s[27:], None)]
    got = metric.pairwise_blocks(blocks, variant=variant, threads=2)
    assert len(got) == len(blocks)
    for g, (h, r) in zip(got, blocks, strict=True):
        assert np.array_equal(g, metric.pairwise(h, r, variant=variant, threads=1))


def test_expected_chrf_is_the_mean_of_sacrebleu_sentence_chrf() -> None:
    hyps = _samples()[:10]
    chrf = sacrebleu.metrics.CHRF()
    want = [math.fsum(chrf.sentence_score(h, [s]).score for s in hyps) / len(hyps) for h in hyps]
    got = mtalign.Chrf().expected_scores(hyps)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_expected_bleu_with_weights_is_sacrebleu_weighted() -> None:
    hyps, samples = _samples()[:6], _samples()[4:11]
    logp = np.linspace(-3.0, 0.0, len(samples))
    w = np.exp(logp - logp.max())
    w /= w.sum()
    bleu = sacrebleu.metrics.BLEU(smooth_method="add-k", smooth_value=1.0)
    want = [sum(wj * bleu.sentence_score(h, [s]).score for wj, s in zip(w, samples, strict=True))
            for h in hyps]
    got = mtalign.Bleu(smooth="add-k", smooth_value=1.0).expected_scores(hyps, samples,
                                                                          weights=logp)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_mbr_picks_by_direction_and_first_on_ties() -> None:
    hyps = ["a b c", "a b", "a x c", "a b c"]
    wer = mtalign.Wer()
    res = mtalign.mbr(wer, hyps)
    exp = wer.pairwise(hyps).mean(axis=1)
    assert res.best == int(np.argmin(exp)) == 0 and res.hypothesis == "a b c"
    assert np.array_equal(res.expected, exp)
    r = mtalign.mbr(mtalign.Rouge("rougeL"), hyps, samples=["a x c"])
    assert r.best == 2
    best, expected = mtalign.mbr(wer, hyps, higher_is_better=True)
    assert best == int(np.argmax(expected))


def test_bad_weights_samples_and_blocks_are_named() -> None:
    m = mtalign.Rouge("rougeL")
    with pytest.raises(mtalign.InputError, match="one log-probability per sample"):
        m.expected_scores(["a", "b"], weights=[0.0])
    with pytest.raises(mtalign.InputError, match="finite"):
        m.expected_scores(["a", "b"], weights=[float("nan"), 0.0])
    with pytest.raises(mtalign.ConfigError, match="aggregation"):
        m.expected_scores(["a", "b"], aggregate=True)
    with pytest.raises(mtalign.InputError, match=r"blocks\[1\]"):
        m.pairwise_blocks([(["a"], None), ("a",)])  # type: ignore[list-item]
    with pytest.raises(mtalign.InputError, match=r"blocks\[0\]: hyps\[1\]"):
        m.pairwise_blocks([(["a", 3], None)])
    with pytest.raises(mtalign.ConfigError):
        mtalign.mbr(object(), ["a"])


@pytest.mark.parametrize("word_order", [0, 2])
def test_aggregated_chrf_equals_the_definition(word_order: int) -> None:
    from twins.aggregate import aggregate_chrf

    hyps, samples = _samples()[:8], _samples()[3:14]
    logp = np.linspace(-2.0, 0.5, len(samples))
    w = np.exp(logp - logp.max())
    w /= w.sum()
    metric = mtalign.Chrf(word_order=word_order)
    for weights, probs in ((None, None), (logp, w.tolist())):
        got = metric.expected_scores(hyps, samples, weights=weights, aggregate=True)
        want = aggregate_chrf(hyps, samples, probs, word_order)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_aggregated_bleu_equals_the_definition() -> None:
    from twins.aggregate import aggregate_bleu

    hyps = _samples()[:9]
    got = mtalign.Bleu(smooth="add-k", smooth_value=1.0).expected_scores(hyps, aggregate=True)
    np.testing.assert_allclose(got, aggregate_bleu(hyps, hyps), rtol=1e-12, atol=1e-12)


def test_aggregation_approximates_the_exact_expectation() -> None:
    """Documented: min(h, mean) ≥ mean of the minima, so aggregated chrF is not the exact
    expectation; on real samples the chosen hypothesis is usually the same."""
    hyps = _samples(12)[:11]
    exact = mtalign.Chrf().expected_scores(hyps)
    agg = mtalign.Chrf().expected_scores(hyps, aggregate=True)
    assert not np.allclose(exact, agg)
    assert np.corrcoef(exact, agg)[0, 1] > 0.9
