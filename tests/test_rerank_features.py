"""Reranking with decoder feature weights, checked against the Moses n-best file itself: its
last field is the decoder's model score, Σ weight·feature with the weights Moses used. Those
weights are recovered by least squares from the file; reranking with them must reproduce the
decoder's scores and its choice (each list is written best first)."""

from __future__ import annotations

from pathlib import Path

import mtalign
import numpy as np
import pytest
from mtalign.io import NBestEntry, read_nbest
from mtalign.ranking import feature_scores, rerank, rerank_one

DATA = Path(__file__).resolve().parent / "data"


def _nbest() -> list[list[NBestEntry]]:
    return read_nbest(DATA / "moses_nbest_fren.3.txt")


def _moses_weights(nbest: list[list[NBestEntry]]) -> dict[str, list[float]]:
    entries = [e for lst in nbest for e in lst]
    names = list(entries[0].feature_values())
    sizes = [len(entries[0].feature_values()[n]) for n in names]
    x = np.array([[v for n in names for v in e.feature_values()[n]] for e in entries])
    y = np.array([e.score for e in entries])
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    out, k = {}, 0
    for n, size in zip(names, sizes, strict=True):
        out[n] = w[k:k + size].tolist()
        k += size
    return out


def test_feature_weights_reproduce_the_decoder_scores_and_choice() -> None:
    nbest = _nbest()
    weights = _moses_weights(nbest)
    res = rerank(None, nbest, weights=weights)
    for lst, scores, best in zip(nbest, res.scores, res.best, strict=True):
        decoder = np.array([e.score for e in lst])
        np.testing.assert_allclose(scores, decoder, atol=2e-3)  # Moses prints 6 digits
        assert decoder[best] >= decoder.max() - 2e-3
    assert res.signature.startswith("rerank:features|higher:yes|weights:d=")
    # One list at decoder latency gives the same choice and scores.
    one, s = rerank_one(None, nbest[1], weights=weights)
    assert one == res.best[1] and np.array_equal(s, res.scores[1])


def test_metric_as_one_more_feature() -> None:
    nbest = _nbest()
    refs = (DATA / "moses_nbest_fren.3.ref.en").read_text(encoding="utf-8").splitlines()
    weights = _moses_weights(nbest)
    metric = mtalign.Bleu()
    res = rerank(metric, nbest, refs, weights=weights, metric_weight=0.05)
    for i, lst in enumerate(nbest):
        hyps = [e.hypothesis for e in lst]
        want = feature_scores(lst, weights) + 0.05 * metric.scalar_scores(hyps, [refs[i]] * 100)
        assert np.array_equal(res.scores[i], want)
        assert res.best[i] == int(np.argmax(want))
        b, s = rerank_one(metric, lst, refs[i], weights=weights, metric_weight=0.05)
        assert b == res.best[i] and np.array_equal(s, want)
    oracle = rerank(metric, nbest, refs)
    assert (rerank(metric, nbest, refs, weights={"w": 0.0}).best == oracle.best).all()


def test_bad_weights_are_named() -> None:
    nbest = _nbest()
    with pytest.raises(mtalign.InputError, match=r"nbest\[0\]\[0\]: feature 'lm' has 2 values"):
        rerank(None, nbest, weights={"lm": [1.0]})
    with pytest.raises(mtalign.ConfigError, match="weights"):
        rerank(None, nbest, weights={"lm": float("nan")})
    with pytest.raises(mtalign.ConfigError, match="needs a metric"):
        rerank(None, nbest)
    with pytest.raises(mtalign.InputError, match="has no features"):
        rerank(None, [["plain text"]], weights={"lm": 1.0})
    with pytest.raises(mtalign.InputError, match="refs are needed"):
        rerank(mtalign.Bleu(), nbest, weights={"lm": 1.0})


def test_cli_rerank_with_weights(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from mtalign.cli import main

    nbest_path, ref_path = DATA / "moses_nbest_fren.3.txt", DATA / "moses_nbest_fren.3.ref.en"
    nbest = _nbest()
    spec = {"lm": [-0.5, 0.25], "w": [0.75], "d": [0.1] * 7}
    args = [f"{k}={','.join(map(str, v))}" for k, v in spec.items()]
    assert main(["rerank", "--nbest", str(nbest_path), "--weights", *args]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == rerank(None, nbest, weights=spec).hypotheses
    assert "feature score" in err
    refs = ref_path.read_text(encoding="utf-8").splitlines()
    assert main(["rerank", "--nbest", str(nbest_path), "-r", str(ref_path), "-m", "bleus4",
                 "--weights", *args, "--metric-weight", "0.5"]) == 0
    out, _ = capsys.readouterr()
    metric, variant = mtalign.registry.make_metric("bleus4")
    want = rerank(metric, nbest, refs, variant=variant, weights=spec, metric_weight=0.5)
    assert out.splitlines() == want.hypotheses
    assert main(["rerank", "--nbest", str(nbest_path), "--weights", "lm"]) != 0
    assert "NAME=V" in capsys.readouterr().err
    assert main(["rerank", "--nbest", str(nbest_path)]) != 0
