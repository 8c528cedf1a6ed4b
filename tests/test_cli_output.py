"""What the commands print (issue 30, item 7): text within 80 columns with a direction mark
and a scale for every metric, JSON Lines of one shape whatever the number of systems or
metrics, ORANGE on one scale, and numbers equal to those of the peer packages (sacrebleu,
scipy) or of the library recomputed here, read back from the printed text and JSON."""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from mtalign import registry
from mtalign.cli import main
from mtalign.io import system_names

DATA = Path(__file__).resolve().parents[1] / "python" / "mtalign" / "data"
TESTS = Path(__file__).resolve().parent / "data"
SYSTEMS = ["Facebook-AI", "HuaweiTSC", "NVIDIA-NeMo", "Online-W", "UEdin", "VolcTrans-AT",
           "VolcTrans-GLAT", "eTranslation"]
HYPS = [str(DATA / f"ende_mqm_sample.hyp.{s}.de") for s in SYSTEMS]
REFS = [str(DATA / f"ende_mqm_sample.ref.{k}.de") for k in "AC"]
THREE = HYPS[3:5] + HYPS[1:2]  # Online-W, UEdin, HuaweiTSC

#: Direction and scale of every example metric, as the metrics' own documentation states
#: them (sacrebleu's BLEU, chrF and TER on 0-100; error rates lower is better; NIST
#: unbounded; ROUGE, DCS, SIA, RIBES, GTM and METEOR on 0-1).
EXPECTED = {
    "rougeL": "↑ 0-1", "rougeSU4": "↑ 0-1", "dcs": "↑ 0-1", "cs0": "↑ 0-1", "sia": "↑ 0-1",
    "bleu": "↑ 0-100", "bleu2": "↑ 0-100", "bleus4": "↑ 0-100", "chrf": "↑ 0-100",
    "chrf++": "↑ 0-100", "nist": "↑ ≥0", "wer": "↓ 0-1", "per": "↓ 0-1", "cer": "↓ 0-1",
    "ter": "↓ 0-100", "ribes": "↑ 0-1", "gtm1": "↑ 0-1", "gtm2": "↑ 0-1", "gtm3": "↑ 0-1",
    "meteor": "↑ 0-1",
}
ALL = registry.example_names()
NOTE = re.compile(r"[↑↓] \S+")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def columns(line: str) -> int:
    """Terminal columns of a line, counted here (East Asian wide/full-width: 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def assert_fits(text: str) -> None:
    for line in text.splitlines():
        assert len(line) <= 80 and columns(line) <= 80, line


def notes(text: str) -> dict[str, str]:
    """Title -> the direction and scale printed under it (right-aligned columns: both end at
    the same column), from every two-line table header; and from row labels ``name ↑ 0-1``."""
    lines = text.splitlines()
    found: dict[str, str] = {}
    for above, line in zip(lines, lines[1:], strict=False):
        if not NOTE.search(line) or not re.fullmatch(r"[\d.≤≥-]*", "".join(NOTE.sub("", line)
                                                                         .split())):
            continue  # not a header's second line: only directions and scales
        titles = {m.end(): m.group() for m in re.finditer(r"\S+(?: \S+)*", above)}
        for m in NOTE.finditer(line):
            title = titles.get(m.end())
            if title is not None:
                found[title] = m.group()
    for line in lines:
        m = re.match(r"^(\S+) ([↑↓] \S+)(?:\s|$)", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def metric_notes(text: str) -> dict[str, str]:
    """:func:`notes` with ROUGE's ``rougeL F`` titles read as the metric ``rougeL``."""
    return {re.sub(r" [PRF]$", "", k): v for k, v in notes(text).items()}


def cells_of(text: str, label: str) -> list[str]:
    """The cells of the row(s) labelled ``label``, over every stacked block (a label too
    wide for its column stands on a line of its own, its cells on the next)."""
    lines = text.splitlines()
    out: list[str] = []
    for k, line in enumerate(lines):
        if line.startswith(label + " ") or line == label:
            rest = line[len(label):].split()
            out += rest if rest else lines[k + 1].split()
    return out


# -- every command's text fits 80 columns, with a direction and a scale per metric ---------

def test_the_expected_table_covers_every_metric_family() -> None:
    assert set(ALL) == set(EXPECTED)


@pytest.mark.parametrize("hyps", [HYPS[:1], THREE], ids=["1 system", "3 systems"])
def test_score_text_fits_and_marks_every_metric(capsys, hyps) -> None:
    out, _ = run(capsys, "score", "-r", *REFS, "-i", *hyps, "-m", *ALL, "-f", "text")
    assert_fits(out)
    assert metric_notes(out) == EXPECTED


def test_score_sentence_level_text_fits_and_marks_every_metric(capsys) -> None:
    out, _ = run(capsys, "score", "-r", *REFS, "-i", *THREE, "-m", *ALL, "-f", "text",
                 "--sentence-level")
    assert_fits(out)
    sentences = out.split("# sentence scores", 1)[1]
    assert metric_notes(sentences) == EXPECTED
    cells = cells_of(sentences, system_names(THREE)[0])  # each block: line, scores
    fields = sum(3 if n.startswith("rouge") else 1 for n in ALL)  # ROUGE: P, R, F
    assert cells[:1] == ["1"] and len([c for c in cells if "." in c]) == 150 * fields


def test_east_asian_names_keep_the_table_within_80_columns(capsys, tmp_path,
                                                          monkeypatch) -> None:
    names = ["日本語のシステム名前", "中文系统", "x"]
    for name, src in zip(names, THREE, strict=True):
        shutil.copy(src, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    paths = names
    out, _ = run(capsys, "score", "-r", *REFS, "-i", *paths, "-m", "bleu", "chrf", "ter",
                 "rougeL", "wer", "nist", "-f", "text")
    assert_fits(out)
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith(tuple(names))]
    assert len(rows) == 3  # one block: every row ends where the header does
    assert {columns(line) for line in rows} == {columns(lines[0])}


def test_compare_text_fits_with_one_block_per_metric(capsys) -> None:
    out, _ = run(capsys, "compare", "-r", *REFS, "-i", *THREE, "-m", "bleu", "chrf", "ter",
                 "wer", "rougeL", "--n-samples", "100")
    assert_fits(out)
    for m in ("bleu", "chrf", "ter", "wer", "rougeL"):
        assert f"## {m} {EXPECTED[m]}" in out
        block = out.split(f"## {m} ", 1)[1].split("\n\n", 1)[0]
        assert metric_notes(block)["score"] == EXPECTED[m]


@pytest.fixture()
def named(tmp_path: Path) -> list[str]:
    """The shipped outputs under their systems' names (the names the MQM file uses)."""
    out = []
    for s, path in zip(SYSTEMS, HYPS, strict=True):
        shutil.copy(path, tmp_path / f"{s}.de")
        out.append(str(tmp_path / f"{s}.de"))
    return out


def test_correlate_text_fits_with_the_correlation_scale(capsys, named) -> None:
    out, _ = run(capsys, "correlate", "--human", str(DATA / "ende_mqm_sample.mqm.tsv"),
                 "-r", *REFS, "-i", *named, "-m", "chrf", "ter", "rougeL",
                 "--n-bootstrap", "20", "--clusters", "-k", "20")
    assert_fits(out)
    assert notes(out)["pearson"] == "↑ -1..1" and "error rates negated" in " ".join(out.split())


def test_orange_text_fits_with_its_scale(capsys) -> None:
    out, _ = run(capsys, "orange", "--systems", *HYPS, "-r", *REFS, "-m", "chrf", "ter",
                 "rougeL", "bleus4", "--curve", "--bootstrap", "20")
    assert_fits(out)
    assert notes(out)["ORANGE"] == "↓ 0-1"
    curve = out.split("# ORANGE by list length", 1)[1]
    assert {k: v for k, v in notes(curve).items() if k != "N"} == \
        {m: "↓ 0-1" for m in ("chrf", "ter", "rougeL", "bleus4")}


def test_rerank_summary_fits_and_names_direction_and_scale(capsys) -> None:
    _, err = run(capsys, "rerank", "--nbest", str(TESTS / "moses_nbest_fren.3.txt"),
                 "-r", str(TESTS / "moses_nbest_fren.3.ref.en"), "-m", "ter")
    assert_fits(err)
    assert "mean ter ↓ 0-100 of the first" in " ".join(err.split())


def test_demo_fits_and_says_what_orange_means(capsys) -> None:
    out, _ = run(capsys, "demo", "--no-report", "--n-bootstrap", "20")
    assert_fits(out)
    found = metric_notes(out)
    for m in ("bleu", "chrf", "chrf++", "ter", "rougeL", "rougeSU4", "wer", "ribes"):
        assert found[m] == EXPECTED[m]
    assert found["MQM"] == "↑ ≤0" and found["ORANGE"] == "↓ 0-1"
    assert found["sys r"] == found["seg r"] == "↑ -1..1"
    text = " ".join(out.split())
    assert "ORANGE (Lin & Och 2004), on its 0-1 scale: the rank of the references' mean " \
           "score among the 8 system outputs' scores, divided by 9" in text
    assert "lower is better: 0.111 = the references always ranked first, 0.556 = no " \
           "better than chance, 1 = always last" in text


# -- JSON Lines: one object per system (per metric for correlate and orange), one shape -----

def json_lines(out: str) -> list[dict]:
    lines = out.splitlines()
    assert lines and all(line.startswith("{") and line.endswith("}") for line in lines)
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("extra", [[], ["--sentence-level"]], ids=["corpus", "sentences"])
def test_score_json_lines_one_shape(capsys, extra) -> None:
    one = json_lines(run(capsys, "score", "-r", *REFS, "-i", HYPS[0], "-m", "bleu", "rougeL",
                         *extra)[0])
    three = json_lines(run(capsys, "score", "-r", *REFS, "-i", *THREE, "-m", "bleu",
                           "rougeL", *extra)[0])
    assert len(one) == 1 and len(three) == 3
    assert {tuple(o) for o in one + three} == {tuple(one[0])}
    assert "system" in one[0] and ("sentences" in one[0]) == bool(extra)


def test_compare_json_lines_one_shape(capsys) -> None:
    one = json_lines(run(capsys, "compare", "-r", *REFS, "-i", *THREE[:2], "-m", "bleu",
                         "--n-samples", "50", "-f", "json")[0])
    three = json_lines(run(capsys, "compare", "-r", *REFS, "-i", HYPS[0], *THREE, "-m",
                           "bleu", "--n-samples", "50", "-f", "json")[0])
    assert len(one) == 2 and len(three) == 4  # the baseline first, then each system
    assert {tuple(o) for o in one + three} == {tuple(one[0])}
    assert {tuple(o["metrics"]["bleu"]) for o in one + three} == \
        {tuple(one[0]["metrics"]["bleu"])}


def test_correlate_json_lines_one_shape(capsys, named) -> None:
    args = ["correlate", "--human", str(DATA / "ende_mqm_sample.mqm.tsv"), "-r", *REFS,
            "-i", *named, "-f", "json", "--n-bootstrap", "10"]
    one = json_lines(run(capsys, *args, "-m", "chrf")[0])
    three = json_lines(run(capsys, *args, "-m", "chrf", "ter", "rougeL")[0])
    assert [o["metric"] for o in one + three] == ["chrf", "chrf", "ter", "rougeL"]
    assert {tuple(o) for o in one + three} == {tuple(one[0])}


def test_orange_json_lines_one_shape(capsys) -> None:
    args = ["orange", "--systems", *HYPS, "-r", *REFS, "-f", "json", "--bootstrap", "10"]
    one = json_lines(run(capsys, *args, "-m", "chrf")[0])
    three = json_lines(run(capsys, *args, "-m", "chrf", "ter", "rougeL")[0])
    assert [o["metric"] for o in one + three] == ["chrf", "chrf", "ter", "rougeL"]
    assert {tuple(o) for o in one + three} == {tuple(one[0])}


def test_json_lines_are_documented_in_every_help(capsys) -> None:
    for command in ("score", "compare", "correlate", "orange"):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "JSON Lines, one object per" in text, command


# -- the printed numbers are the peers' numbers ------------------------------------------

def _lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def test_score_text_and_json_equal_sacrebleu(capsys) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    refs = [_lines(p) for p in REFS]
    js = json_lines(run(capsys, "score", "-r", *REFS, "-i", *THREE, "-m", "bleu", "chrf",
                        "ter")[0])
    text = run(capsys, "score", "-r", *REFS, "-i", *THREE, "-m", "bleu", "chrf", "ter",
               "-f", "text")[0]
    for path, obj in zip(THREE, js, strict=True):
        hyps = _lines(path)
        want = {"bleu": sacrebleu.corpus_bleu(hyps, refs).score,
                "chrf": sacrebleu.corpus_chrf(hyps, refs).score,
                "ter": _ter(path)}
        assert obj["system"] in path  # the path, or the name the command gives it
        for m, v in want.items():
            assert obj["scores"][m]["score"] == pytest.approx(v, abs=1e-9)
        printed = [float(c) for c in cells_of(text, obj["system"])]
        assert printed == pytest.approx(list(want.values()), abs=5e-5)


def test_compare_text_equals_sacrebleu(capsys) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    refs = [_lines(p) for p in REFS]
    out, _ = run(capsys, "compare", "-r", *REFS, "-i", *THREE, "-m", "chrf", "--n-samples",
                 "50")
    block = out.split("## chrf ", 1)[1].split("\n\n", 1)[0]
    for path in THREE:
        label = next(line.split()[0] for line in block.splitlines() if line.split()
                     and line.split()[0] in path)
        want = sacrebleu.corpus_chrf(_lines(path), refs).score
        assert float(cells_of(block, label)[0]) == pytest.approx(want, abs=5e-5)


_TER: dict[str, float] = {}


def _ter(path: str) -> float:
    """sacrebleu's corpus TER of one shipped output (kept: it takes seconds)."""
    if path not in _TER:
        sacrebleu = pytest.importorskip("sacrebleu")
        _TER[path] = sacrebleu.corpus_ter(_lines(path), [_lines(p) for p in REFS]).score
    return _TER[path]


def _chrf_sentences(hyps: list[str], refs: list[list[str]]) -> np.ndarray:
    sacrebleu = pytest.importorskip("sacrebleu")
    return np.array([sacrebleu.sentence_chrf(h, r).score for h, r in zip(hyps, refs,
                                                                          strict=True)])


def _mqm() -> np.ndarray:
    rows = [line.split("\t") for line in (DATA / "ende_mqm_sample.mqm.tsv")
            .read_text(encoding="utf-8").splitlines()]
    col = {name: k for k, name in enumerate(rows[0])}
    human = np.full((len(SYSTEMS), len(_lines(REFS[0]))), np.nan)
    for r in rows[1:]:
        human[SYSTEMS.index(r[col["system"]]), int(r[col["line"]]) - 1] = float(r[col["mqm"]])
    return human


def test_correlate_text_and_json_equal_scipy(capsys, named) -> None:
    stats = pytest.importorskip("scipy.stats")
    refs = [list(r) for r in zip(*(_lines(p) for p in REFS), strict=True)]
    chrf = np.stack([_chrf_sentences(_lines(p), refs) for p in HYPS])
    human = _mqm()
    ok = ~np.isnan(human)
    want = stats.pearsonr(chrf[ok], human[ok])[0]
    args = ["correlate", "--human", str(DATA / "ende_mqm_sample.mqm.tsv"), "-r", *REFS,
            "-i", *named, "-m", "chrf", "--n-bootstrap", "10"]
    (obj,) = json_lines(run(capsys, *args, "-f", "json")[0])
    assert obj["value"] == pytest.approx(want, abs=1e-12)
    text = run(capsys, *args)[0]
    assert float(cells_of(text, "chrf")[0]) == pytest.approx(want, abs=5e-5)


def test_orange_is_one_number_on_one_scale_in_demo_orange_text_and_json(capsys) -> None:
    """ORANGE of chrF on the shipped sample, computed here from sacrebleu's sentence chrF
    (each reference against the other, each output against each reference, averaged; the
    rank of the references' mean score among the 8 outputs, ties count half, over 9)."""
    a, c = (_lines(p) for p in REFS)
    outs = [_lines(p) for p in HYPS]
    ref_a = _chrf_sentences(a, [[x] for x in c])
    ref_c = _chrf_sentences(c, [[x] for x in a])
    oracle = (ref_a + ref_c) / 2
    cand = np.stack([(_chrf_sentences(h, [[x] for x in c]) +
                      _chrf_sentences(h, [[x] for x in a])) / 2 for h in outs])
    rank = 1 + (cand > oracle).sum(0) + 0.5 * (cand == oracle).sum(0)
    want = float(np.mean(rank / (len(outs) + 1)))

    (obj,) = json_lines(run(capsys, "orange", "--systems", *HYPS, "-r", *REFS, "-m", "chrf",
                            "-f", "json", "--bootstrap", "0")[0])
    assert obj["orange"] == pytest.approx(want, abs=1e-12)
    text = run(capsys, "orange", "--systems", *HYPS, "-r", *REFS, "-m", "chrf",
               "--bootstrap", "0")[0]
    assert float(cells_of(text, "chrf")[0]) == pytest.approx(want, abs=5e-5)
    demo = run(capsys, "demo", "--no-report", "--n-bootstrap", "20")[0]
    table = demo.split("Correlation with MQM", 1)[1]
    assert float(cells_of(table, "chrf")[6]) == pytest.approx(want, abs=5e-4)


def test_demo_numbers_equal_sacrebleu_and_scipy(capsys) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    stats = pytest.importorskip("scipy.stats")
    demo = run(capsys, "demo", "--no-report", "--n-bootstrap", "20")[0]
    refs = [_lines(p) for p in REFS]
    corpus = demo.split("Correlation with MQM", 1)[0]
    for s, path in zip(SYSTEMS, HYPS, strict=True):
        hyps = _lines(path)
        cells = cells_of(corpus, s)  # MQM, bleu, chrf, ... over the stacked blocks
        assert float(cells[0]) == pytest.approx(np.nanmean(_mqm()[SYSTEMS.index(s)]),
                                                abs=5e-4)
        assert float(cells[1]) == pytest.approx(sacrebleu.corpus_bleu(hyps, refs).score,
                                                abs=5e-3)
        assert float(cells[2]) == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score,
                                                abs=5e-3)
        if path in THREE:  # sacrebleu's TER takes seconds: the systems the other tests use
            assert float(cells[4]) == pytest.approx(_ter(path), abs=5e-3)
    rsets = [list(r) for r in zip(*refs, strict=True)]
    chrf = np.stack([_chrf_sentences(_lines(p), rsets) for p in HYPS])
    human = _mqm()
    ok = ~np.isnan(human)
    seg_r = stats.pearsonr(chrf[ok], human[ok])[0]
    table = demo.split("Correlation with MQM", 1)[1]
    assert float(cells_of(table, "chrf")[3]) == pytest.approx(seg_r, abs=5e-4)


def test_no_resamples_no_intervals_in_correlate_orange_and_demo(capsys, named) -> None:
    """``--n-bootstrap 0`` / ``--bootstrap 0``: no interval is announced or printed (the
    headers said "95% bootstrap CI" above columns of ``[nan, nan]``), and the point values
    stay those of scipy's Pearson r and of the run with resamples."""
    stats = pytest.importorskip("scipy.stats")
    args = ["correlate", "--human", str(DATA / "ende_mqm_sample.mqm.tsv"), "-r", *REFS,
            "-i", *named, "-m", "chrf"]
    text = run(capsys, *args, "--n-bootstrap", "0")[0]
    refs = [list(r) for r in zip(*(_lines(p) for p in REFS), strict=True)]
    chrf = np.stack([_chrf_sentences(_lines(p), refs) for p in HYPS])
    human = _mqm()
    ok = ~np.isnan(human)
    want = stats.pearsonr(chrf[ok], human[ok])[0]
    orange_args = ["orange", "--systems", *HYPS, "-r", *REFS, "-m", "chrf"]
    orange_text = run(capsys, *orange_args, "--bootstrap", "0")[0]
    demo = run(capsys, "demo", "--no-report", "--n-bootstrap", "0")[0]
    for out in (text, orange_text, demo):
        assert "CI" not in out and "nan" not in out and "bootstrap over" not in out
        assert "no intervals" in " ".join(out.split()).lower()
        assert_fits(out)
    assert float(cells_of(text, "chrf")[0]) == pytest.approx(want, abs=5e-5)
    assert cells_of(text, "chrf")[1] == str(int(ok.sum()))  # then n
    assert cells_of(orange_text, "chrf")[:2] == cells_of(
        run(capsys, *orange_args, "--bootstrap", "10")[0], "chrf")[::3]
    with_ci = cells_of(run(capsys, "demo", "--no-report", "--n-bootstrap", "10")[0].split(
        "Correlation with MQM", 1)[1], "chrf")
    assert cells_of(demo.split("Correlation with MQM", 1)[1], "chrf") == with_ci[::3]
