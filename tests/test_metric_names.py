"""Every metric name means one thing (issue 30): the table of ``docs/names.md`` is true.

* each row's command-line name builds exactly the row's Python object (and variant), its
  direction mark is ``higher_is_better``, and identical texts score the top of its scale;
* every family of the registry has a row;
* ``mtalign score --sentence-level`` prints, for every name, what the Python sentence-level
  call (``batch_score`` / ``scalar_scores``) gives; NIST's against nltk's ``sentence_nist``.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mtalign import registry
from mtalign.cli import main
from mtalign.metrics.base import pick_scalar

NAMES_MD = Path(__file__).resolve().parents[1] / "docs" / "names.md"
TICKS = re.compile(r"`([^`]+)`")


def table_rows() -> list[dict[str, Any]]:
    """The rows of the names table: the concrete command-line name (the cell's last
    example), the Python expression (the cell's first), its variant, the aliases the cell
    states (`a` = `b`) and the scale."""
    rows = []
    for line in NAMES_MD.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        cli, python, scale = cells[0], cells[1], cells[-1]
        variant = re.search(r"variant `([^`]+)`", python)
        rows.append({"cli": TICKS.findall(cli)[-1], "python": TICKS.findall(python)[0],
                     "variant": variant.group(1) if variant else None,
                     "aliases": re.findall(r"`([^`]+)` = `([^`]+)`", cli),
                     "scale": scale})
    return rows


ROWS = table_rows()


def test_the_table_covers_every_family(mtalign: Any) -> None:
    assert len(ROWS) >= 20
    covered = {registry.family_of(row["cli"]).name for row in ROWS}
    assert covered == {fam.name for fam in registry.FAMILIES}


@pytest.mark.parametrize("row", ROWS, ids=[r["cli"] for r in ROWS])
def test_row_names_one_object(mtalign: Any, row: dict[str, Any]) -> None:
    namespace = {name: getattr(mtalign, name) for name in mtalign.__all__}
    python = eval(row["python"], namespace)  # noqa: S307 (the documentation's own text)
    cli, variant = registry.make_metric(row["cli"])
    assert cli == python and cli.signature() == python.signature()
    assert pick_scalar(cli, variant) == pick_scalar(python, row["variant"])
    for alias, name in row["aliases"]:
        assert registry.make_metric(alias) == registry.make_metric(name)
    up = "↑" in row["scale"]
    assert up != ("↓" in row["scale"])
    assert python.higher_is_better is up
    # identical texts score the top of the scale (0 for an error rate)
    text = "The cat sat on the mat , and the dog sat by the door ."
    score = float(cli.scalar_scores([text], [[text]], variant=variant)[0])
    scale = row["scale"]
    if not up:
        assert score == 0.0
    elif scale.startswith("0 and up"):  # NIST: unbounded
        assert score > 1
    else:
        top = (100.0 if scale.startswith("0–100 ") else 1.0 if scale.startswith("0–1 ")
               else python.alpha if scale.startswith("0–α ") else None)
        assert top is not None, scale
        assert 0.99 * top <= score <= top + 1e-9, score  # METEOR's penalty keeps it < 1


def test_every_metric_in_python_is_named(mtalign: Any) -> None:
    classes = {type(registry.make_metric(row["cli"])[0]).__name__ for row in ROWS}
    metric_classes = {name for name in mtalign.__all__
                      if isinstance(getattr(mtalign, name), type)
                      and issubclass(getattr(mtalign, name), mtalign.Metric)
                      and getattr(mtalign, name) is not mtalign.Metric}
    assert metric_classes <= classes


@pytest.fixture(scope="module")
def sample_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[list[str]],
                                                                        list[Path]]:
    from mtalign.demo import load_sample

    systems, refs = load_sample()
    hyps = systems["Online-W"][:25] + ["Yes .", "Thank you", "ok"]
    refs = refs[:25] + [["Yes.", "Yes, indeed."], ["Thanks", "Thank you."], ["okay", "OK"]]
    tmp = tmp_path_factory.mktemp("names")
    paths = []
    for name, lines in (("hyp", hyps), ("refA", [r[0] for r in refs]),
                        ("refB", [r[1] for r in refs])):
        paths.append(tmp / name)
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return hyps, refs, paths


def test_cli_sentence_rows_are_the_python_sentence_scores(
        mtalign: Any, sample_files: Any, capsys: pytest.CaptureFixture[str]) -> None:
    hyps, refs, (hyp, ref_a, ref_b) = sample_files
    names = [row["cli"] for row in ROWS if row["cli"] != "sia"] + ["sia"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["score", "-r", str(ref_a), str(ref_b), "-i", str(hyp), "-m", *names,
                     "--sentence-level", "-f", "json", "-q"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for name in names:
        metric, variant = registry.make_metric(name)
        want = metric.scalar_scores(hyps, refs, variant=variant)
        rows = out["sentences"]
        got = [row[name].get("fmeasure", row[name].get("score")) for row in rows]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=name)


def test_cli_sentence_nist_is_nltk_sentence_nist(
        mtalign: Any, sample_files: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from nltk.translate.nist_score import sentence_nist
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    hyps, refs, (hyp, ref_a, ref_b) = sample_files
    assert main(["score", "-r", str(ref_a), str(ref_b), "-i", str(hyp), "-m", "nist",
                 "--sentence-level", "-f", "json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = [row["nist"]["score"] for row in out["sentences"]]
    compared = 0
    for g, h, r in zip(got, hyps, refs, strict=True):
        try:
            want = sentence_nist([tok(x).split() for x in r], tok(h).split(), 5)
        except ZeroDivisionError:  # nltk divides by zero where an order has no n-gram
            continue
        assert g == pytest.approx(want, abs=1e-12)
        compared += 1
    assert compared >= 20
    # the corpus row stays corpus NIST (weights from every reference)
    assert out["scores"]["nist"]["score"] == mtalign.Nist().corpus_score(hyps, refs).score


def _sum_312(values: list[float]) -> float:
    """CPython 3.12's built-in ``sum()`` of floats (Objects/bltinmodule.c): compensated
    (Neumaier) summation, the compensation added at the end when finite."""
    total, comp = 0.0, 0.0
    for x in values:
        t = total + x
        comp += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    return total + comp if comp and np.isfinite(comp) else total


def test_bleu_row_says_what_python_3_12_changed(mtalign: Any, monkeypatch) -> None:
    """``bleu`` = sacrebleu bit for bit on CPython 3.10-3.11 only: sacrebleu's
    ``exp(sum(log p_n) / N)`` uses the built-in ``sum()``, compensated from 3.12 on, and
    mtalign sums in order. With 3.12's ``sum()`` in sacrebleu, scores on the shipped sample
    differ in the last bits, within the 2e-15 relative the docs state."""
    import math
    import sys

    sacrebleu = pytest.importorskip("sacrebleu")
    logs = [math.log(.7321), math.log(.41234), math.log(.2893), math.log(.1877)]
    in_order = ((logs[0] + logs[1]) + logs[2]) + logs[3]
    assert _sum_312(logs) - in_order == pytest.approx(8.881784197001252e-16, abs=0)
    if sys.version_info >= (3, 12):  # the emulation is the interpreter's own sum()
        assert _sum_312(logs) == sum(logs)
    else:
        assert sum(logs) == in_order
    from mtalign.demo import load_mqm_sample

    systems, refs, _ = load_mqm_sample()
    streams = [list(r) for r in zip(*refs, strict=True)]
    bleu = mtalign.Bleu()
    monkeypatch.setattr(sys.modules["sacrebleu.metrics.bleu"], "sum", _sum_312, raising=False)
    differ = 0
    for hyps in list(systems.values())[:3]:
        ours = list(bleu.batch_score(hyps, refs)) + [bleu.corpus_score(hyps, refs).score]
        theirs = [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs, strict=True)]
        theirs.append(sacrebleu.corpus_bleu(hyps, streams).score)
        for a, b in zip(ours, theirs, strict=True):
            assert math.isclose(a, b, rel_tol=2e-15, abs_tol=0), (a, b)
            differ += a != b
    assert differ > 0  # the qualifier is needed
    bleu_row = next(line for line in NAMES_MD.read_text(encoding="utf-8").splitlines()
                    if line.startswith("| `bleu` |"))
    assert "bit for bit on CPython 3.10–3.11; within 2e-15 relative on 3.12+" in bleu_row
    limits = (NAMES_MD.parent / "limits.md").read_text(encoding="utf-8")
    assert "## sacrebleu's BLEU on Python 3.12 and later: the last bits" in limits
