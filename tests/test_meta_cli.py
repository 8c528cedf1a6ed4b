"""``mtalign correlate`` and ``mtalign compare`` on WMT21 en-de extracts (tests/data)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import wmt_data
from conftest import TESTS_DIR
from mtalign import meta
from mtalign.cli import main

SYSTEMS = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = wmt_data.load("wmt21_ende_news")
    root = tmp_path_factory.mktemp("ende")
    lines = list(range(1, 61))
    (root / "ref.de").write_text("\n".join(d["refs"]["A"][i - 1] for i in lines) + "\n",
                                 encoding="utf-8")
    for s in SYSTEMS + ["UEdin"]:
        (root / f"{s}.de").write_text("\n".join(d["hyps"][s][i - 1] for i in lines) + "\n",
                                      encoding="utf-8")
    mqm = (TESTS_DIR / "data" / "wmt21_ende_mqm.tsv").read_text(encoding="utf-8").splitlines()
    keep = [mqm[0]] + [r for r in mqm[1:] if int(r.split("\t")[0]) <= 60
                       and r.split("\t")[1] in SYSTEMS]
    (root / "mqm.tsv").write_text("\n".join(keep) + "\n", encoding="utf-8")
    return root


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def json_lines(out: str, key: str) -> dict[str, dict]:
    """JSON Lines output: one object per metric or system, by its ``key``."""
    return {obj[key]: obj for obj in map(json.loads, out.splitlines())}


def test_correlate_json_matches_api(files, capsys):
    hyps = [files / f"{s}.de" for s in SYSTEMS + ["UEdin"]]
    code, out, err = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r",
                         files / "ref.de", "-i", *hyps, "-m", "bleus", "wer", "-f", "json",
                         "--n-bootstrap", "50")
    assert code == 0, err
    assert "UEdin" in err  # no human scores: noted, skipped
    res = json_lines(out, "metric")
    assert res["bleus"]["systems"] == res["wer"]["systems"] == SYSTEMS
    from mtalign import Bleu
    d = wmt_data.load("wmt21_ende_news")
    lines = sorted({int(r.split("\t")[0]) for r in
                    (files / "mqm.tsv").read_text().splitlines()[1:]})
    human = np.full((4, 60), np.nan)
    for r in (files / "mqm.tsv").read_text().splitlines()[1:]:
        line, system, v = r.split("\t")
        human[SYSTEMS.index(system), int(line) - 1] = float(v)
    metric = np.array([Bleu.bleus().batch_score(d["hyps"][s][:60], d["refs"]["A"][:60])
                       for s in SYSTEMS])
    exp = meta.correlate(metric, human, n_bootstrap=50)
    assert res["bleus"]["value"] == pytest.approx(exp.value, abs=1e-12)
    assert res["bleus"]["ci"] == pytest.approx(list(exp.ci), abs=1e-12)
    assert lines
    assert "seed:12345" in res["bleus"]["signature"]


def test_correlate_text_with_clusters(files, capsys):
    hyps = [files / f"{s}.de" for s in SYSTEMS]
    code, out, _ = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r",
                       files / "ref.de", "-i", *hyps, "-m", "bleus", "rougeL",
                       "--method", "acc_eq", "--group-by", "item", "--epsilon", "calibrate",
                       "--clusters", "--test", "pairs", "-k", "100", "--n-bootstrap", "20")
    assert code == 0
    assert "rank" in out and "signature: method:acc_eq" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_correlate_system_level_and_scores_tsv(files, capsys, tmp_path):
    rows = ["system\tline\tm1\tm2"]
    rng = np.random.default_rng(0)
    for s in SYSTEMS:
        for line in range(1, 61):
            rows.append(f"{s}\t{line}\t{rng.random():.6f}\t{rng.random():.6f}")
    (tmp_path / "scores.tsv").write_text("\n".join(rows) + "\n")
    # Segment scores only: a system's corpus score (the default, WMT's way) is not there.
    code, out, err = run(capsys, "correlate", "--human", files / "mqm.tsv", "--scores",
                         tmp_path / "scores.tsv", "--corr-level", "system", "-f", "json")
    assert code == 2 and "no corpus rows" in err and "--system-score mean" in err
    code, out, err = run(capsys, "correlate", "--human", files / "mqm.tsv", "--scores",
                         tmp_path / "scores.tsv", "--corr-level", "system", "-f", "json",
                         "--system-score", "mean", "--n-bootstrap", "50")
    assert code == 0, err
    res = json_lines(out, "metric")
    assert set(res) == {"m1", "m2"} and "|sys:mean|" in res["m1"]["signature"]
    m1 = np.array([[float(r.split("\t")[2]) for r in rows[1:] if r.startswith(s + "\t")]
                   for s in SYSTEMS])
    human = np.full((4, 60), np.nan)
    for r in (files / "mqm.tsv").read_text().splitlines()[1:]:
        line, system, v = r.split("\t")
        human[SYSTEMS.index(system), int(line) - 1] = float(v)
    exp = meta.correlate(m1, human, level="system", n_bootstrap=50)
    assert res["m1"]["value"] == pytest.approx(exp.value, abs=1e-12)


def test_correlate_errors(files, capsys, tmp_path):
    code, _, err = run(capsys, "correlate", "--human", tmp_path / "missing.tsv", "-r",
                       files / "ref.de", "-i", files / "UEdin.de")
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r",
                       files / "ref.de", "-i", files / "UEdin.de", files / "Online-W.de")
    assert code == 2 and "fewer than 2 systems" in err


def test_compare_matches_sacrebleu_cli_numbers(files, capsys):
    significance = pytest.importorskip("sacrebleu.significance")
    from sacrebleu.metrics import BLEU
    names = ["Online-W", "UEdin", "Facebook-AI"]
    hyps = [files / f"{s}.de" for s in names]
    code, out, _ = run(capsys, "compare", "-r", files / "ref.de", "-i", *hyps, "-m", "bleu",
                       "--rng", "sacrebleu", "-f", "json")
    assert code == 0
    res = {s: obj["metrics"]["bleu"] for s, obj in json_lines(out, "system").items()}
    refs = (files / "ref.de").read_text().splitlines()
    named = [(s, (files / f"{s}.de").read_text().splitlines()) for s in names]
    _, scores = significance.PairedTest(named, {"BLEU": BLEU(references=[refs])}, None,
                                        test_type="bs", n_samples=1000)()
    for s, r in zip(scores["System"], scores["BLEU"], strict=True):
        assert (res[s]["score"], res[s]["p_value"], res[s]["mean"], res[s]["ci"]) == \
            (r.score, r.p_value, r.mean, r.ci)
    code, out, _ = run(capsys, "compare", "-r", files / "ref.de", "-i", *hyps, "-m", "bleu",
                       "rougeL", "--test", "ar", "--n-samples", "500")
    assert code == 0 and "baseline: Online-W" in out
    blocks = out.split("\n\n")
    bleu = next(b for b in blocks if b.startswith("## bleu ↑ 0-100")).splitlines()
    assert bleu[1].split() == ["system", "score", "p"]  # ar: no bootstrap mean, no interval
    assert [line.split()[0] for line in bleu[3:]] == names
    code, _, err = run(capsys, "compare", "-r", files / "ref.de", "-i", hyps[0])
    assert code == 2 and "baseline" in err


def test_correlate_takes_gtm_and_meteor(files, capsys):
    hyps = [files / f"{s}.de" for s in SYSTEMS]
    code, out, err = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r",
                         files / "ref.de", "-i", *hyps, "-m", "gtm2", "meteor", "-f", "json",
                         "--n-bootstrap", "10")
    assert code == 0, err
    metrics = json_lines(out, "metric")
    assert set(metrics) == {"gtm2", "meteor"}
