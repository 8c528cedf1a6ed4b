"""The command line: `mtalign score` and `mtalign demo`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mtalign import Rouge
from mtalign.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "hyp.txt").write_text("police kill the gunman\nthe gunman kill police\n")
    (tmp_path / "ref1.txt").write_text("police killed the gunman\npolice killed the gunman\n")
    (tmp_path / "ref2.txt").write_text("the police killed him\nthe gunman was killed\n")
    (tmp_path / "short.txt").write_text("one line\n")
    (tmp_path / "latin1.txt").write_bytes(b"ok\ncaf\xe9\n")
    return {k: str(tmp_path / f"{k}.txt") for k in ("hyp", "ref1", "ref2", "short", "latin1")}


def test_score_json_matches_api(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "-r", files["ref1"], files["ref2"], "-i", files["hyp"],
                        "-m", "rougeL", "rougeS4"], capsys)
    assert code == 0
    data = json.loads(out)
    hyps = ["police kill the gunman", "the gunman kill police"]
    refs = [["police killed the gunman", "the police killed him"],
            ["police killed the gunman", "the gunman was killed"]]
    want = Rouge(["rougeL", "rougeS4"]).corpus_score(hyps, refs)
    assert data["scores"]["rougeL"]["fmeasure"] == want["rougeL"].fmeasure
    assert data["scores"]["rougeS4"]["recall"] == want["rougeS4"].recall
    assert data["signature"] == want.signature
    assert data["n_sentences"] == 2


def test_score_sentence_level_tsv(files: dict[str, str],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "-r", files["ref1"], "-i", files["hyp"], "-m", "rougeL",
                        "--tokenize", "whitespace", "-f", "tsv", "--sentence-level"], capsys)
    assert code == 0
    lines = out.strip().split("\n")
    # One TSV shape for one system or many: system, line, scores; the corpus row last.
    assert lines[0] == "system\tline\trougeL_P\trougeL_R\trougeL_F"
    assert lines[1].split("\t")[:2] == ["hyp", "1"]
    assert [float(x) for x in lines[1].split("\t")[2:]] == [0.75, 0.75, 0.75]
    assert [float(x) for x in lines[2].split("\t")[2:]] == [0.5, 0.5, 0.5]
    corpus = Rouge("rougeL", tokenize="whitespace").corpus_score(
        ["police kill the gunman", "the gunman kill police"],
        ["police killed the gunman", "police killed the gunman"])["rougeL"]
    assert lines[3].split("\t")[:2] == ["hyp", "corpus"] and len(lines) == 4
    assert [float(x) for x in lines[3].split("\t")[2:]] == list(corpus)


def test_score_text_format(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "-r", files["ref1"], "-i", files["hyp"], "-f", "text",
                        "--multi-ref", "average", "--jackknife"], capsys)
    assert code == 0
    assert "rougeSU4" in out and "multi_ref:average|jk:yes" in out


def test_misaligned_files_name_file_and_counts(files: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "-r", files["short"], "-i", files["hyp"]], capsys)
    assert code == 2
    assert f"{files['short']} has 1 lines but {files['hyp']} has 2" in err


def test_non_utf8_names_file_and_line(files: dict[str, str],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "-r", files["ref1"], "-i", files["latin1"]], capsys)
    assert code == 2
    assert f"{files['latin1']}: line 2 is not valid UTF-8" in err


def test_bad_metric_and_missing_file(files: dict[str, str],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "-r", files["ref1"], "-i", files["hyp"], "-m", "rougeQ"], capsys)
    assert code == 2 and "unknown variant 'rougeQ'" in err
    code, _, err = run(["score", "-r", "/nonexistent/ref", "-i", files["hyp"]], capsys)
    assert code == 2 and "cannot read /nonexistent/ref" in err


def test_demo_runs_on_shipped_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's three parts on the shipped MQM sample, its numbers recomputed here."""
    import mtalign
    import numpy as np
    from mtalign import meta
    from mtalign.demo import load_mqm_sample

    code, out, _ = run(["demo", "--no-report", "--n-bootstrap", "200"], capsys)
    assert code == 0
    systems, refs, mqm = load_mqm_sample()
    assert len(systems) == 8 and not any(np.isnan(v).any() for v in mqm.values())
    for name in systems:
        assert name in out
    bleu = float(mtalign.Bleu(smooth="exp").corpus_score(systems["Online-W"], refs))
    assert f"{bleu:8.2f}" in out.split("Online-W", 1)[1].splitlines()[0]
    names = list(systems)
    # System level the WMT way: each system's corpus chrF (sacrebleu's) against its mean MQM.
    sacrebleu = pytest.importorskip("sacrebleu")
    from scipy.stats import pearsonr
    columns = [[r[k] for r in refs] for k in range(2)]
    corpus = [sacrebleu.corpus_chrf(systems[s], columns).score for s in names]
    r = pearsonr(corpus, [mqm[s].mean() for s in names]).statistic
    c = meta.correlate(meta.system_scores(mtalign.Chrf(), systems, refs),
                       np.stack([mqm[s] for s in names]), level="system", n_bootstrap=200)
    assert c.value == pytest.approx(r, abs=1e-12)
    line = next(x for x in out.splitlines() if x.split()[:1] == ["chrf"])
    assert line.split()[1:4] == [f"{r:.3f}", f"[{c.ci[0]:.2f},", f"{c.ci[1]:.2f}]"]
    assert "ORANGE" in out and "MQM" in out


def test_console_script_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "mtalign.cli", "score", "--help"],
                          capture_output=True, text=True, check=True)
    assert "--multi-ref" in proc.stdout and "--sentence-level" in proc.stdout
