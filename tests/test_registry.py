"""The metric registry: every family builds from its names, ranks the right way round, and
works the same through `mtalign score`, `mtalign orange` and the Python API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mtalign import registry
from mtalign.cli import main

WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"
SYSTEMS = sorted((WMT / "hyp").iterdir())[:6]
REFS = [WMT / "ref.A.de", WMT / "ref.C.de", WMT / "ref.D.de"]

NAMES = registry.example_names()  # every family's example names, from the one table


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", NAMES)
def test_every_name_builds_and_ranks(mtalign: Any, name: str) -> None:
    metric, variant = registry.make_metric(name)
    hyps = _lines(SYSTEMS[0])[:5]
    refs = [list(r) for r in zip(*(_lines(p)[:5] for p in REFS), strict=True)]
    scores = metric.scalar_scores(hyps, refs, variant=variant)
    assert scores.shape == (5,) and np.isfinite(scores).all()
    assert metric.higher_is_better is (name not in ("wer", "per", "cer", "ter"))


def test_options_reach_each_family(mtalign: Any) -> None:
    opts = registry.MetricOptions(tokenize="whitespace", lowercase=False, compat="rouge155",
                                  stem=True, lowercase_baselines=True, sia_alpha=0.8,
                                  level="word")
    assert registry.make_metric("rouge1", opts)[0] == mtalign.Rouge(
        "rouge1", tokenize="whitespace", lowercase=False, compat="rouge155", stem=True)
    assert registry.make_metric("bleus3", opts)[0] == mtalign.Bleu(
        3, smooth="add1", tokenize="whitespace", lowercase=True)
    assert registry.make_metric("bleus3", opts)[0] == mtalign.Bleu.bleus(
        3, tokenize="whitespace", lowercase=True)
    assert registry.make_metric("bleu", registry.MetricOptions())[0] == mtalign.Bleu()
    assert registry.make_metric("sia", opts)[0] == mtalign.Sia(
        alpha=0.8, tokenize="whitespace", lowercase=False)
    assert registry.make_metric("wer", opts)[0] == mtalign.Wer(tokenize="whitespace",
                                                               lowercase=True)
    assert registry.make_metric("dcs", opts)[0] == mtalign.Dcs("word", tokenize="whitespace")
    groups = registry.group_metrics(["bleus4", "rougeL", "bleus2", "wer", "rouge1", "bleus4"])
    assert [(f.name, ns) for f, _, ns in groups] == [
        ("bleu", ["bleus4"]), ("rouge", ["rougeL", "rouge1"]), ("bleu", ["bleus2"]),
        ("error_rate", ["wer"])]
    with pytest.raises(mtalign.ConfigError, match="max_order"):
        registry.make_metric("bleu13")


def test_score_command_covers_every_family(mtalign: Any,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    hyp = SYSTEMS[0]
    code = main(["score", "-r", *map(str, REFS[:2]), "-i", str(hyp), "-m", *NAMES])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and list(out["scores"]) == NAMES
    hyps = _lines(hyp)
    refs = [list(r) for r in zip(_lines(REFS[0]), _lines(REFS[1]), strict=True)]
    assert out["scores"]["sia"]["score"] == mtalign.Sia().corpus_score(hyps, refs).score
    assert out["scores"]["wer"]["score"] == mtalign.Wer().corpus_score(hyps, refs).score
    assert out["scores"]["bleu2"]["score"] == mtalign.Bleu(2, smooth="exp").corpus_score(
        hyps, refs).score
    assert out["scores"]["chrf++"]["score"] == mtalign.Chrf(word_order=2).corpus_score(
        hyps, refs).score
    assert out["scores"]["ter"]["score"] == mtalign.Ter().corpus_score(hyps, refs).score
    assert set(out["signatures"]) == {"rouge", "dcs", "sia", "bleu", "bleu2", "bleus4", "chrf",
                                      "chrf++", "nist", "wer", "per", "cer", "ter", "ribes",
                                      "gtm1", "gtm2", "gtm3", "meteor"}


def test_orange_command_ranks_error_rates_the_right_way(
        mtalign: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["orange", "--systems", *map(str, SYSTEMS), "-r", *map(str, REFS),
                 "-m", "wer", "bleus4", "sia", "-f", "json", "--bootstrap", "0"])
    lines = capsys.readouterr().out.splitlines()  # JSON Lines: one object per metric
    assert code == 0
    cands = [list(c) for c in zip(*(_lines(p) for p in SYSTEMS), strict=True)]
    refs = [list(r) for r in zip(*(_lines(p) for p in REFS), strict=True)]
    by_name = {obj["metric"]: obj for obj in map(json.loads, lines)}
    assert by_name["wer"]["ci"] is None  # no bootstrap: null, not NaN (invalid JSON)
    for name, metric in [("wer", mtalign.Wer()), ("bleus4", mtalign.Bleu.bleus(4)),
                         ("sia", mtalign.Sia())]:
        want = mtalign.orange(metric, cands, refs, n_bootstrap=0)
        assert by_name[name]["orange"] == pytest.approx(want.orange, abs=0, rel=0)
    # WER lower is better: ranking by -WER as a higher-is-better callable gives the same ranks.
    flipped = mtalign.orange_from_scores(
        *_wer_scores(mtalign, cands, refs), higher_is_better=True, n_bootstrap=0)
    assert flipped.orange == mtalign.orange(mtalign.Wer(), cands, refs, n_bootstrap=0).orange


def _wer_scores(mtalign: Any, cands: list[list[str]],
                refs: list[list[str]]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Negated jackknifed WER per candidate and per reference, written out by hand."""
    wer = mtalign.Wer()
    cand_scores, ref_scores = [], []
    for cs, rs in zip(cands, refs, strict=True):
        loo = [[r for k, r in enumerate(rs) if k != j] for j in range(len(rs))]
        cand_scores.append(np.array([
            -np.mean([float(wer.sentence_score(c, sub)) for sub in loo]) for c in cs]))
        ref_scores.append(np.array([-float(wer.sentence_score(r, loo[j]))
                                    for j, r in enumerate(rs)]))
    return cand_scores, ref_scores
