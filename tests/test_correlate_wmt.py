"""System-level correlation the WMT way (issue 30, items 3 and 5), on the MQM sample shipped
with mtalign, through ``mtalign correlate`` as a user runs it.

Oracles: sacrebleu 2.6.0's ``corpus_bleu`` / ``corpus_chrf`` / ``corpus_ter`` for each
system's corpus score, ``sentence_bleu`` for the old mean of sentence scores, and
``scipy.stats.pearsonr`` against each system's mean MQM score (computed here from the
shipped TSV).
"""

from __future__ import annotations

import copy
import csv
import json
import pickle
from pathlib import Path

import mtalign
import numpy as np
import pytest
from mtalign import meta
from mtalign.cli import main
from mtalign.demo import load_mqm_sample
from mtalign.io import system_names
from mtalign.registry import make_metric

sacrebleu = pytest.importorskip("sacrebleu")
stats = pytest.importorskip("scipy.stats")

DATA = Path(__file__).resolve().parents[1] / "python" / "mtalign" / "data"
MQM = DATA / "ende_mqm_sample.mqm.tsv"
HYPS = sorted(str(p) for p in DATA.glob("ende_mqm_sample.hyp.*.de"))
REF_A = str(DATA / "ende_mqm_sample.ref.A.de")
REF_C = str(DATA / "ende_mqm_sample.ref.C.de")


@pytest.fixture(scope="module")
def sample() -> dict:
    systems, refs, _ = load_mqm_sample()
    names = system_names(HYPS)
    mqm: dict[str, list[float]] = {}
    with open(MQM, encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            mqm.setdefault(r["system"], []).append(float(r["mqm"]))
    return {"names": names, "hyps": [systems[n] for n in names], "refs": refs,
            "columns": [[r[0] for r in refs], [r[1] for r in refs]],
            "mqm": [float(np.mean(mqm[n])) for n in names]}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def correlate_json(capsys, *argv: str, human: Path = MQM) -> dict:
    code, out, err = run(capsys, "correlate", "--human", str(human), *argv, "-f", "json")
    assert code == 0, err
    # JSON Lines, one object per metric; the run's signature and systems are on every line.
    lines = [json.loads(line) for line in out.splitlines()]
    assert len({line["signature"] for line in lines}) == 1
    return {"metrics": {line["metric"]: line for line in lines},
            "signature": lines[0]["signature"], "systems": lines[0]["systems"]}


def test_shipped_sample_runs_through_correlate_as_shipped(capsys) -> None:
    code, out, err = run(capsys, "correlate", "--human", MQM, "-r", REF_A, "-i", *HYPS,
                         "-m", "bleu", "chrf", "--n-bootstrap", "20")
    assert code == 0, err
    assert err == ""  # every system found, nothing left out
    assert "8 systems" in out and "bleu" in out and "chrf" in out


@pytest.mark.parametrize("refs", [[REF_A, REF_C], [REF_A]])
def test_system_level_is_corpus_scores_as_sacrebleu_and_scipy(capsys, sample, refs) -> None:
    res = correlate_json(capsys, "-r", *refs, "-i", *HYPS, "-m", "bleu", "chrf", "ter",
                         "--corr-level", "system", "--n-bootstrap", "20")
    columns = sample["columns"][:len(refs)]
    want = {
        "bleu": [sacrebleu.corpus_bleu(h, columns).score for h in sample["hyps"]],
        "chrf": [sacrebleu.corpus_chrf(h, columns).score for h in sample["hyps"]],
    }
    # TER negated (higher = better), as WMT negates it. Its corpus scores are mtalign's Ter
    # (equal to sacrebleu's corpus_ter in tests/test_ter.py; sacrebleu's TER takes 10 s here).
    refs_rows = [list(r[:len(refs)]) for r in sample["refs"]]
    want["ter"] = [-float(make_metric("ter")[0].corpus_score(h, refs_rows))
                   for h in sample["hyps"]]
    for m, scores in want.items():
        r = stats.pearsonr(scores, sample["mqm"]).statistic
        assert res["metrics"][m]["value"] == pytest.approx(r, abs=1e-12), m
        assert res["metrics"][m]["n"] == 8
    if len(refs) == 2:  # the number: BLEU~MQM 0.579 the WMT way
        assert round(res["metrics"]["bleu"]["value"], 3) == 0.579
    assert "|level:system|sys:corpus|resample:segments|" in res["signature"]


def test_system_score_mean_reproduces_the_old_number(capsys, sample) -> None:
    res = correlate_json(capsys, "-r", REF_A, REF_C, "-i", *HYPS, "-m", "bleu",
                         "--corr-level", "system", "--system-score", "mean",
                         "--n-bootstrap", "20")
    means = [np.mean([sacrebleu.sentence_bleu(h, list(r)).score
                      for h, r in zip(hyps, sample["refs"], strict=True)])
             for hyps in sample["hyps"]]
    r = stats.pearsonr(means, sample["mqm"]).statistic
    assert res["metrics"]["bleu"]["value"] == pytest.approx(r, abs=1e-9)
    assert round(r, 3) == 0.507  # what correlate and demo printed before (issue 30)
    assert "|sys:mean|" in res["signature"]


def test_score_tsv_feeds_correlate_scores(capsys, tmp_path, sample) -> None:
    computed = correlate_json(capsys, "-r", REF_A, REF_C, "-i", *HYPS, "-m", "bleu", "chrf",
                              "--corr-level", "system", "--n-bootstrap", "20")
    for extra in ([], ["--sentence-level"]):
        code, out, err = run(capsys, "score", "-r", REF_A, REF_C, "-i", *HYPS, "-m", "bleu",
                             "chrf", "-f", "tsv", *extra)
        assert code == 0, err
        (tmp_path / "s.tsv").write_text(out, encoding="utf-8")
        res = correlate_json(capsys, "--scores", tmp_path / "s.tsv", "--corr-level",
                             "system", "--n-bootstrap", "20")
        assert res["systems"] == sample["names"]
        for m in ("bleu", "chrf"):
            assert res["metrics"][m]["value"] == pytest.approx(
                computed["metrics"][m]["value"], abs=1e-12)
        # corpus rows only: the interval resamples systems, and the signature says so
        assert "|sys:corpus|resample:systems|" in res["signature"]
    # The sentence rows of the same file give the segment level, as computed here.
    seg = correlate_json(capsys, "--scores", tmp_path / "s.tsv", "--n-bootstrap", "20")
    direct = correlate_json(capsys, "-r", REF_A, REF_C, "-i", *HYPS, "-m", "bleu", "chrf",
                            "--n-bootstrap", "20")
    for m in ("bleu", "chrf"):
        assert seg["metrics"][m]["value"] == pytest.approx(direct["metrics"][m]["value"],
                                                           abs=1e-12)
        assert seg["metrics"][m]["n"] == 8 * 150


def test_python_api_corpus_scores_and_their_resamples(sample) -> None:
    metric, variant = make_metric("bleu")
    outputs = dict(zip(sample["names"], sample["hyps"], strict=True))
    ss = meta.system_scores(metric, outputs, sample["refs"], variant=variant)
    assert ss.scores.tolist() == pytest.approx(
        [sacrebleu.corpus_bleu(h, sample["columns"]).score for h in sample["hyps"]], abs=1e-9)
    again = pickle.loads(pickle.dumps(ss))
    assert again == ss == copy.deepcopy(ss) and json.loads(json.dumps(ss.to_dict())) == \
        {"variant": "bleu", "scores": dict(zip(sample["names"], ss.scores.tolist(),
                                               strict=True))}
    human = np.array([np.array(load_mqm_sample()[2][n]) for n in sample["names"]])
    c = meta.correlate(ss, human, level="system", n_bootstrap=5, seed=7)
    # A bootstrap replicate is the correlation of a resample of the segments: corpus BLEU
    # of each system on the resampled segments against its mean MQM on them.
    from mtalign.meta import _bootstrap
    counts = _bootstrap.draw_counts(np.random.default_rng(7), 150, 5)
    idx = np.repeat(np.arange(150), counts[0].astype(int))
    bleu = [sacrebleu.corpus_bleu([h[i] for i in idx],
                                  [[col[i] for i in idx] for col in sample["columns"]]).score
            for h in sample["hyps"]]
    r = stats.pearsonr(bleu, human[:, idx].mean(1)).statistic
    assert c.replicates[0] == pytest.approx(r, abs=1e-9)


def _human_copy(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "mqm.tsv"
    path.write_text(MQM.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_human_line_outside_the_test_set_is_an_error(capsys, tmp_path) -> None:
    path = _human_copy(tmp_path, "151\t151\tOnline-W\t-1\n")
    n_rows = len(MQM.read_text(encoding="utf-8").splitlines())
    code, out, err = run(capsys, "correlate", "--human", path, "-r", REF_A, "-i", *HYPS,
                         "-m", "chrf")
    assert code == 2 and out == ""
    assert err == (f"mtalign: error: {path}:{n_rows + 1}: line 151 of Online-W is outside "
                   f"the test set (lines 1-150)\n")
    # A shorter test set: the human file's first line beyond it is named.
    short = tmp_path / "short"
    short.mkdir()
    for p in [*HYPS, REF_A]:
        lines = Path(p).read_text(encoding="utf-8").splitlines()[:100]
        (short / Path(p).name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    hyps = [str(short / Path(p).name) for p in HYPS]
    code, _, err = run(capsys, "correlate", "--human", MQM, "-r", short / Path(REF_A).name,
                       "-i", *hyps, "-m", "chrf")
    assert code == 2 and err.count("\n") == 1
    first = next(i for i, r in enumerate(MQM.read_text(encoding="utf-8").splitlines()[1:],
                                         start=2) if int(r.split("\t")[0]) > 100)
    assert err.startswith(f"mtalign: error: {MQM}:{first}: line 101 of ")
    assert err.endswith(" is outside the test set (lines 1-100)\n")


def test_human_duplicate_and_unscored_systems(capsys, tmp_path) -> None:
    path = _human_copy(tmp_path, "1\t1\tOnline-W\t-3\n")
    code, _, err = run(capsys, "correlate", "--human", path, "-r", REF_A, "-i", *HYPS,
                       "-m", "chrf")
    assert code == 2 and err.count("\n") == 1
    assert "a second score for system 'Online-W' line 1" in err
    # Systems the human file scores but that are not scored here: one warning, then on.
    code, out, err = run(capsys, "correlate", "--human", MQM, "-r", REF_A, "-i", *HYPS[:3],
                         "-m", "chrf", "--n-bootstrap", "10")
    assert code == 0
    assert err.count("\n") == 1 and err.startswith("mtalign: warning: ")
    assert "not scored here" in err and "Online-W" in err


def test_system_level_human_file(capsys, tmp_path, sample) -> None:
    """Human scores given per system (a TSV without a line column): the same corpus-level
    number, the interval over systems."""
    path = tmp_path / "sys.tsv"
    path.write_text("system\tmqm\n" + "".join(
        f"{n}\t{v!r}\n" for n, v in zip(sample["names"], sample["mqm"], strict=True)))
    res = correlate_json(capsys, "-r", REF_A, REF_C, "-i", *HYPS, "-m", "bleu",
                         "--corr-level", "system", "--n-bootstrap", "20", human=path)
    bleu = [sacrebleu.corpus_bleu(h, sample["columns"]).score for h in sample["hyps"]]
    assert res["metrics"]["bleu"]["value"] == pytest.approx(
        stats.pearsonr(bleu, sample["mqm"]).statistic, abs=1e-12)
    assert "|sys:corpus|resample:systems|" in res["signature"]


def test_a_resample_is_scored_as_a_corpus_like_the_system_score() -> None:
    """Every segment once is the corpus itself: its resampled BLEU is sacrebleu's corpus BLEU,
    also where an n-gram order has no hypothesis n-grams (sentence-level effective order
    would score these systems 100 and 61.2; sacrebleu's corpus_bleu scores them 0)."""
    sacrebleu = pytest.importorskip("sacrebleu")
    refs = ["a b", "c d"]
    outputs = {"x": ["a b", "c d"], "y": ["a b", "c e"]}
    ss = meta.system_scores(mtalign.Bleu(), outputs, refs)
    expected = [sacrebleu.corpus_bleu(h, [refs]).score for h in outputs.values()]
    assert ss.scores.tolist() == expected
    assert ss.resampled(np.ones((2, 2))).tolist() == [expected, expected]
