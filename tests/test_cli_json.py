"""Every command's ``-f json`` is strict JSON (RFC 8259: no ``NaN``, no ``Infinity``), also
where a number is undefined or not computed: an interval with ``--n-bootstrap 0``, the
correlation of a constant metric. Those are ``null``."""

from __future__ import annotations

import json
import math

import pytest
import wmt_data
from conftest import TESTS_DIR
from mtalign.cli import main

SYSTEMS = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W"]
N = 30


def _no_constant(name: str) -> float:
    raise AssertionError(f"{name} in -f json output: not JSON")


def strict_lines(out: str) -> list[dict]:
    """The JSON Lines of ``out``, read as strict JSON and written back with
    ``allow_nan=False`` (either refuses NaN and infinity)."""
    objs = [json.loads(line, parse_constant=_no_constant) for line in out.splitlines()]
    for obj in objs:
        json.dumps(obj, allow_nan=False)
    assert objs
    return objs


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = wmt_data.load("wmt21_ende_news")
    root = tmp_path_factory.mktemp("json")
    for name, lines in [("ref.de", d["refs"]["A"]), ("ref2.de", d["refs"]["C"]),
                        *((f"{s}.de", d["hyps"][s]) for s in SYSTEMS)]:
        (root / name).write_text("\n".join(lines[:N]) + "\n", encoding="utf-8")
    # One text that every system outputs in the constant-metric test.
    (root / "same.de").write_text("ein Satz\n" * N, encoding="utf-8")
    mqm = (TESTS_DIR / "data" / "wmt21_ende_mqm.tsv").read_text(encoding="utf-8").splitlines()
    keep = [mqm[0]] + [r for r in mqm[1:] if int(r.split("\t")[0]) <= N
                       and r.split("\t")[1] in SYSTEMS]
    (root / "mqm.tsv").write_text("\n".join(keep) + "\n", encoding="utf-8")
    return root


def run(capsys, *argv) -> list[dict]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return strict_lines(out.out)


@pytest.mark.parametrize("level", ["segment", "system"])
def test_correlate_without_intervals_writes_null(files, capsys, level):
    hyps = [files / f"{s}.de" for s in SYSTEMS]
    objs = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r", files / "ref.de",
               "-i", *hyps, "-m", "bleu", "wer", "-f", "json", "--n-bootstrap", "0",
               "--corr-level", level)
    assert [o["metric"] for o in objs] == ["bleu", "wer"]
    for o in objs:
        assert o["ci"] is None
        assert math.isfinite(o["value"])


def test_correlate_of_a_constant_metric_is_null(files, capsys):
    # Every system outputs the same text: the system scores are all equal, so Pearson's r
    # is undefined (NaN in Python, null in JSON).
    hyps = [files / "same.de"] * len(SYSTEMS)
    objs = run(capsys, "correlate", "--human", files / "mqm.tsv", "-r", files / "ref.de",
               "-i", *hyps, "--names", *SYSTEMS, "-m", "bleu", "-f", "json",
               "--n-bootstrap", "0", "--corr-level", "system")
    assert objs[0]["value"] is None and objs[0]["ci"] is None


def test_compare_json(files, capsys):
    hyps = [files / f"{s}.de" for s in SYSTEMS]
    objs = run(capsys, "compare", "-r", files / "ref.de", "-i", *hyps, "-m", "bleu", "chrf",
               "--n-samples", "20", "-f", "json")
    assert [o["system"] for o in objs] == SYSTEMS


def test_orange_without_intervals_writes_null(files, capsys):
    hyps = [files / f"{s}.de" for s in SYSTEMS]
    objs = run(capsys, "orange", "--systems", *hyps, "-r", files / "ref.de", files / "ref2.de",
               "-m", "rougeL", "bleus4", "-f", "json", "--n-bootstrap", "0", "--curve")
    assert [o["metric"] for o in objs] == ["rougeL", "bleus4"]
    for o in objs:
        assert o["ci"] is None and o["rank_ci"] is None
        assert 0 <= o["orange"] <= 1


def test_score_json(files, capsys):
    # An empty hypothesis line too: metrics whose sentence score has no value there.
    (files / "gaps.de").write_text("\n" * N, encoding="utf-8")
    for hyp in (files / "Online-W.de", files / "gaps.de"):
        objs = run(capsys, "score", "-r", files / "ref.de", "-i", hyp, "-m", "bleu", "bleus4",
                   "chrf", "ter", "wer", "nist", "ribes", "rougeL", "dcs", "gtm", "-f", "json",
                   "--sentence-level")
        assert len(objs) == 1 and len(objs[0]["sentences"]) == N
