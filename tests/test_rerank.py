"""Oracle reranking, pairwise matrices, the metric registry and the orange/rerank commands."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mtalign.cli import main

DATA = Path(__file__).resolve().parent / "data"
NBEST = DATA / "moses_nbest_fren.3.txt"
NBEST_REF = DATA / "moses_nbest_fren.3.ref.en"
WMT = DATA / "orange_wmt21_ende"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("metric_name", ["rougeL", "rougeS4", "dcs"])
def test_pairwise_matches_sentence_scores(mtalign: Any, metric_name: str) -> None:
    hyps = ["the cat sat on the mat", "a cat sat", "", "mat the on sat cat the"]
    pseudo = ["the cat sat on the mat", "the dog", ["a cat", "the mat"]]
    metric: Any = mtalign.Dcs() if metric_name == "dcs" else mtalign.Rouge(metric_name)
    m = metric.pairwise(hyps, pseudo)
    assert m.shape == (4, 3)
    for i, h in enumerate(hyps):
        for j, r in enumerate(pseudo):
            one = metric.sentence_score(h, r)
            want = one.dcs if metric_name == "dcs" else one[metric_name].fmeasure
            assert m[i, j] == want
    assert metric.pairwise([], pseudo).shape == (0, 3)
    toks = metric.pairwise([["a", "b"], ["b"]], [["a", "b"], ["c"]])
    assert toks.shape == (2, 2) and toks[0, 0] == 1.0


def test_pairwise_mbr_choice(mtalign: Any) -> None:
    # Minimum Bayes risk: the hypothesis closest on average to the others is the consensus.
    hyps = ["the cat sat on the mat", "the cat sat on a mat", "the cat is on the mat",
            "dogs bark loudly"]
    m = mtalign.Rouge("rougeL").pairwise(hyps, hyps)
    np.fill_diagonal(m, 0.0)
    assert int(np.argmax(m.sum(axis=1))) == 0
    assert np.allclose(m, m.T)  # ROUGE-L F with one reference is symmetric


def test_rerank_matches_loop(mtalign: Any) -> None:
    from mtalign.io import read_lines, read_nbest

    nbest = read_nbest(NBEST)
    refs = read_lines(NBEST_REF)
    metric = mtalign.Rouge("rougeS4")
    res = mtalign.rerank(metric, nbest, refs)
    for i, lst in enumerate(nbest):
        scores = [metric.sentence_score(e.hypothesis, refs[i])["rougeS4"].fmeasure for e in lst]
        best = max(range(len(scores)), key=lambda k: (scores[k], -k))  # first on ties
        assert res.best[i] == best and res.scores[i].tolist() == scores
        assert res.hypotheses[i] == lst[best].hypothesis
    assert res.mean_score() >= res.mean_score(0)
    assert res.to_dict()["best"] == res.best.tolist()
    assert "rerank:oracle|higher:yes|metric:Rouge:rougeS4" in res.signature


def test_rerank_ties_direction_and_errors(mtalign: Any) -> None:
    metric = mtalign.Rouge("rouge1")
    res = mtalign.rerank(metric, [["x", "a b", "b a", "a b"]], ["a b"])
    assert res.best.tolist() == [1]  # three ties at 1.0: the earliest wins
    low = mtalign.rerank(lambda h, r: abs(len(h) - len(r)), [["aaa", "a", "aa"]], ["aa"],
                         higher_is_better=False)
    assert low.best.tolist() == [2] and low.best_scores.tolist() == [0.0]
    with pytest.raises(mtalign.InputError, match=r"nbest\[1\] is empty"):
        mtalign.rerank(metric, [["a"], []], ["a", "b"])
    with pytest.raises(mtalign.InputError, match="nbest has 1 sentences but refs has 2"):
        mtalign.rerank(metric, [["a"]], ["a", "b"])


def test_registry(mtalign: Any) -> None:
    from mtalign import registry

    metric, variant = registry.make_metric("rougeW-1.2")
    assert metric == mtalign.Rouge("rougeW-1.2") and variant == "rougeW-1.2"
    metric, variant = registry.make_metric("cs1", registry.MetricOptions(level="word"))
    assert metric == mtalign.Dcs("word") and variant == "cs1"
    with pytest.raises(mtalign.ConfigError,
                       match="unknown metric 'comet'.*rouge: .*dcs: .*bleu: .*wer, per"):
        registry.make_metric("comet")


def test_cli_orange_matches_api(mtalign: Any, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    systems = sorted(str(p) for p in (WMT / "hyp").glob("*.de"))
    refs = [str(WMT / f"ref.{x}.de") for x in "ACD"]
    code, out, _ = run(["orange", "--systems", *systems, "-r", *refs, "-m", "rougeL", "cs0",
                        "-f", "json", "--curve", "--bootstrap", "100"], capsys)
    assert code == 0
    data = {obj["metric"]: obj for obj in map(json.loads, out.splitlines())}  # JSON Lines
    cands = mtalign.io.read_systems(systems)
    rsets = mtalign.io.read_references(refs)
    want = mtalign.orange(mtalign.Rouge("rougeL"), cands, rsets, n_bootstrap=100)
    got = data["rougeL"]
    assert got["orange"] == want.orange and got["ci"] == list(want.ci)
    assert got["curve"]["orange"] == want.curve().orange.tolist()
    dcs = mtalign.orange(mtalign.Dcs(), cands, rsets, variant="cs0", n_bootstrap=100)
    assert data["cs0"]["orange"] == dcs.orange
    code, out, _ = run(["orange", "--systems", *systems, "-r", *refs, "-m", "rougeS4",
                        "--oracle", "average_rank", "--bootstrap", "0"], capsys)
    assert code == 0 and "rougeS4" in out and "oracle average_rank" in " ".join(out.split())


def test_cli_orange_nbest_plot(mtalign: Any, capsys: pytest.CaptureFixture[str],
                               tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    # Two "references": the real one and a copy of the 1-best, only to exercise the path.
    nb = mtalign.io.read_nbest(NBEST)
    second = tmp_path / "ref2.txt"
    second.write_text("".join(lst[0].hypothesis + "\n" for lst in nb), encoding="utf-8")
    png = tmp_path / "curve.png"
    code, out, _ = run(["orange", "--nbest", str(NBEST), "-r", str(NBEST_REF), str(second),
                        "-m", "rougeL", "--plot", str(png), "--bootstrap", "10"], capsys)
    assert code == 0 and f"plot written to {png}" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_orange_errors(mtalign: Any, capsys: pytest.CaptureFixture[str],
                           tmp_path: Path) -> None:
    code, _, err = run(["orange", "--nbest", str(NBEST), "-r", str(NBEST_REF)], capsys)
    assert code == 2 and "orange needs at least 2 reference files (-r/--refs)" in err
    short = tmp_path / "short.txt"
    short.write_text("one\n", encoding="utf-8")
    code, _, err = run(["orange", "--nbest", str(NBEST), "-r", str(short), str(short)], capsys)
    assert code == 2 and "candidates for 3 sentences but only 1 are expected" in err
    code, _, err = run(["orange", "--systems", str(WMT / "ref.A.de"), str(short),
                        "-r", str(short), str(short)], capsys)
    assert code == 2 and f"{short} has 1 lines but {WMT / 'ref.A.de'} has 40" in err
    code, _, err = run(["orange", "--systems", str(short), "-r", str(short), str(short),
                        "-m", "comet"], capsys)
    assert code == 2 and "unknown metric 'comet'" in err


def test_cli_rerank(mtalign: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "picked.txt"
    code, _, err = run(["rerank", "--nbest", str(NBEST), "-r", str(NBEST_REF), "-m", "rougeL",
                        "-o", str(out_file)], capsys)
    assert code == 0 and "3 sentences, 300 hypotheses" in err
    refs = mtalign.io.read_lines(NBEST_REF)
    want = mtalign.rerank(mtalign.Rouge("rougeL"), mtalign.io.read_nbest(NBEST), refs)
    assert out_file.read_text(encoding="utf-8").splitlines() == want.hypotheses
    code, out, _ = run(["rerank", "--nbest", str(NBEST), "-r", str(NBEST_REF)], capsys)
    assert code == 0 and out.splitlines() == want.hypotheses


def test_cli_progress_bar(mtalign: Any, capsys: pytest.CaptureFixture[str]) -> None:
    systems = sorted(str(p) for p in (WMT / "hyp").glob("*.de"))
    refs = [str(WMT / f"ref.{x}.de") for x in "AC"]
    code, _, err = run(["orange", "--systems", *systems, "-r", *refs, "-m", "rougeL", "rouge1",
                        "--progress", "--n-bootstrap", "0"], capsys)
    # Both metrics on one bar: half way after the first, full after the second.
    draws = [tuple(map(int, m)) for m in re.findall(r"\] (\d+)/(\d+)", err)]
    assert code == 0 and draws[0][1] == 2 * draws[0][0] and draws[-1][0] == draws[-1][1]
    code, _, err = run(["orange", "--systems", *systems, "-r", *refs, "-m", "rougeL",
                        "--bootstrap", "0"], capsys)
    assert code == 0 and err == ""  # not a terminal: no bar


def test_progress_callback_sees_chunks(mtalign: Any) -> None:
    seen: list[tuple[int, int]] = []
    cands = [[f"w{i} x{j}" for j in range(30)] for i in range(400)]
    refs = [[f"w{i} x", f"x w{i}"] for i in range(400)]
    res = mtalign.orange(mtalign.Rouge("rouge1"), cands, refs, n_bootstrap=0,
                         progress=lambda d, t: seen.append((d, t)))
    # Each candidate against each reference, and each reference against each reference,
    # once (the leave-one-out sets are combined from those), reported every ≤ 20,000 pairs.
    total = 400 * 30 * 2 + 400 * 2 * 2
    assert seen[-1] == (total, total) and len(seen) == -(-total // 20000)
    plain = mtalign.orange(mtalign.Rouge("rouge1"), cands, refs, n_bootstrap=0)
    assert plain.ranks.tolist() == res.ranks.tolist()  # chunking changes nothing
