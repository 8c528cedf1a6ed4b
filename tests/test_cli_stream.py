"""`mtalign score` reading files in chunks, several systems in one call, standard input, the
progress bar, and peak memory that does not grow with the file.

Oracle: the Python API on the whole corpus (``metric.corpus_score`` / ``batch_score``), exact
for metrics whose statistics are counts (BLEU, chrF, TER, WER) and to 1e-12 for averages of
sentence scores (ROUGE, DCS, METEOR). Data: the WMT21 de-en sample shipped with mtalign.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from mtalign import Chrf, Dcs, Rouge
from mtalign.cli import main
from mtalign.demo import load_sample, sample_files
from mtalign.io import system_names
from mtalign.registry import make_metric

METRICS = ["bleu", "chrf", "ter", "wer", "rougeL", "rouge1", "dcs", "meteor"]
# The registry's objects for these names (``bleu`` is sacrebleu's BLEU: exp smoothing).
EXACT = {name: make_metric(name)[0] for name in ("bleu", "chrf", "ter", "wer")}
BLEU = EXACT["bleu"]


@pytest.fixture(scope="module")
def sample() -> dict:
    files = sample_files()
    systems, refs = load_sample()
    return {"sys_paths": [str(p) for p in files["systems"].values()],
            "ref_paths": [str(p) for p in files["refs"]], "systems": systems, "refs": refs}


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _check_against_api(obj: dict, hyps: list[str], refs: list[list[str]]) -> None:
    for name, metric in EXACT.items():
        assert obj["scores"][name]["score"] == float(metric.corpus_score(hyps, refs)), name
    rouge = Rouge(["rougeL", "rouge1"]).corpus_score(hyps, refs)
    for v in ("rougeL", "rouge1"):
        assert np.allclose(list(obj["scores"][v].values()), rouge[v], rtol=0, atol=1e-12)
    dcs = Dcs(multi_ref="max").corpus_score(hyps, refs)
    assert abs(obj["scores"]["dcs"]["score"] - dcs.dcs) <= 1e-12
    meteor = float(make_metric("meteor")[0].corpus_score(hyps, refs))
    assert abs(obj["scores"]["meteor"]["score"] - meteor) <= 1e-12
    assert obj["n_sentences"] == len(hyps)
    assert obj["signatures"]["bleu"] == BLEU.corpus_score(hyps, refs).signature


@pytest.mark.parametrize("chunk", ["7", "20000"])
def test_many_systems_json_equal_the_api(sample, capsys, chunk) -> None:
    out = run(["score", "-i", *sample["sys_paths"], "-r", *sample["ref_paths"],
               "-m", *METRICS, "--chunk-lines", chunk], capsys)
    objs = [json.loads(line) for line in out.strip().split("\n")]
    # Named as every command names systems: the shipped files' names without the shared
    # "deen_sample.hyp." and ".en" (the names load_sample gives).
    assert [o["system"] for o in objs] == list(sample["systems"])
    for o, hyps in zip(objs, sample["systems"].values(), strict=True):
        _check_against_api(o, hyps, sample["refs"])


def test_one_system_json_keeps_its_shape(sample, capsys) -> None:
    out = run(["score", "-i", sample["sys_paths"][0], "-r", *sample["ref_paths"],
               "-m", *METRICS, "--chunk-lines", "13"], capsys)
    (obj,) = [json.loads(line) for line in out.strip().split("\n")]  # JSON Lines, one line
    many = json.loads(run(["score", "-i", *sample["sys_paths"][:2], "-r", *sample["ref_paths"],
                           "-m", *METRICS], capsys).split("\n")[0])
    assert obj["system"] == system_names(sample["sys_paths"][:1])[0]
    assert list(obj) == list(many)
    _check_against_api(obj, next(iter(sample["systems"].values())), sample["refs"])


def test_sentence_level_rows_per_system_and_segment(sample, capsys) -> None:
    paths = sample["sys_paths"][:3]
    out = run(["score", "-i", *paths, "-r", *sample["ref_paths"], "-m", "bleu", "rougeL",
               "-f", "tsv", "--sentence-level", "--chunk-lines", "64"], capsys)
    lines = out.rstrip("\n").split("\n")
    assert lines[0] == "system\tline\tbleu\trougeL_P\trougeL_R\trougeL_F"
    n = len(sample["refs"])
    assert len(lines) == 1 + 3 * n + 3  # and a corpus row per system, last
    for s, (name, hyps) in enumerate(list(sample["systems"].items())[:3]):
        rows = [r.split("\t") for r in lines[1 + s * n: 1 + (s + 1) * n]]
        assert {r[0] for r in rows} == {name}
        assert [int(r[1]) for r in rows] == list(range(1, n + 1))
        assert [float(r[2]) for r in rows] == BLEU.batch_score(hyps, sample["refs"]).tolist()
        want = Rouge("rougeL").batch_score(hyps, sample["refs"])["rougeL"]
        assert np.array([[float(x) for x in r[3:]] for r in rows]).tolist() == want.tolist()
        corpus = lines[1 + 3 * n + s].split("\t")
        assert corpus[:2] == [name, "corpus"]
        assert float(corpus[2]) == float(BLEU.corpus_score(hyps, sample["refs"]))
        rouge = Rouge("rougeL").corpus_score(hyps, sample["refs"])["rougeL"]
        assert np.allclose([float(x) for x in corpus[3:]], rouge, rtol=0, atol=1e-12)


def test_sentence_level_json_streams_one_and_many(sample, capsys) -> None:
    hyps0 = next(iter(sample["systems"].values()))
    one = json.loads(run(["score", "-i", sample["sys_paths"][0], "-r", *sample["ref_paths"],
                          "-m", "chrf", "--sentence-level", "--chunk-lines", "50"], capsys))
    assert [s["chrf"]["score"] for s in one["sentences"]] == \
        Chrf().batch_score(hyps0, sample["refs"]).tolist()
    assert one["scores"]["chrf"]["score"] == float(Chrf().corpus_score(hyps0, sample["refs"]))
    out = run(["score", "-i", *sample["sys_paths"][:2], "-r", *sample["ref_paths"],
               "-m", "chrf", "--sentence-level", "--chunk-lines", "50"], capsys)
    many = [json.loads(line) for line in out.strip().split("\n")]
    assert len(many) == 2 and many[0]["sentences"] == one["sentences"]
    assert many[0]["scores"] == one["scores"]


def test_text_table_systems_by_metrics(sample, capsys) -> None:
    out = run(["score", "-i", *sample["sys_paths"], "-r", *sample["ref_paths"], "-m", "bleu",
               "rougeL", "nist", "-f", "text"], capsys)
    lines = out.split("\n")
    assert lines[0].split() == ["system", "bleu", "rougeL", "F", "nist"]
    assert lines[1].split() == ["↑", "0-100", "↑", "0-1", "↑", "≥0"]
    for name, hyps, line in zip(sample["systems"], sample["systems"].values(), lines[2:],
                                strict=False):
        cells = line.split()
        assert cells[0] == name
        assert cells[1] == f"{float(BLEU.corpus_score(hyps, sample['refs'])):.4f}"
    assert "signature (nist): nrefs:2|" in out


def test_standard_input_and_its_limits(sample, tmp_path) -> None:
    hyp = sample["sys_paths"][1]
    cmd = [sys.executable, "-m", "mtalign.cli", "score", "-r", *sample["ref_paths"], "-m",
           "bleu", "ter", "--chunk-lines", "17"]
    with open(hyp, "rb") as f:
        piped = subprocess.run([*cmd, "-i", "-"], stdin=f, capture_output=True, check=True)
    direct = subprocess.run([*cmd, "-i", hyp], capture_output=True, check=True)
    assert json.loads(piped.stdout)["scores"] == json.loads(direct.stdout)["scores"]
    assert piped.stderr == b""  # not a terminal: no progress bar
    twice = subprocess.run([*cmd, "-i", "-", "-"], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL)
    assert twice.returncode == 2 and "standard input (-)" in twice.stderr


def test_misaligned_and_bad_bytes_found_in_a_later_chunk(tmp_path, capsys) -> None:
    (tmp_path / "h").write_text("".join(f"w{i}\n" for i in range(100)))
    (tmp_path / "r").write_text("".join(f"w{i}\n" for i in range(95)))
    (tmp_path / "bad").write_bytes(b"".join(b"w\n" for _ in range(60)) + b"caf\xe9\n" +
                                   b"".join(b"w\n" for _ in range(39)))
    h, r, bad = (str(tmp_path / x) for x in ("h", "r", "bad"))
    assert main(["score", "-i", h, "-r", r, "-m", "bleu", "--chunk-lines", "10"]) == 2
    assert f"{r} has 95 lines but {h} has 100" in capsys.readouterr().err
    assert main(["score", "-i", h, bad, "-r", h, "-m", "bleu", "--chunk-lines", "10"]) == 2
    assert f"{bad}: line 61 is not valid UTF-8" in capsys.readouterr().err


def test_vanished_hypotheses_counted_per_system(tmp_path, capsys) -> None:
    (tmp_path / "a").write_text("a b\n...\nc\n")
    (tmp_path / "b").write_text("a b\nx\nc\n")
    (tmp_path / "r").write_text("a b\nx\n!!\n")
    a, b, r = (str(tmp_path / x) for x in "abr")
    with pytest.warns(UserWarning):
        out = run(["score", "-i", a, b, "-r", r, "-m", "rougeL", "--tokenize", "unicode"],
                  capsys)
    objs = [json.loads(line) for line in out.strip().split("\n")]
    assert [o["n_empty_hyps"] for o in objs] == [1, 0]
    with pytest.warns(UserWarning):
        one = Rouge("rougeL", tokenize="unicode").corpus_score(["a b", "x", "c"],
                                                               ["a b", "x", "!!"])
    assert [o["n_empty_refs"] for o in objs] == [one.n_empty_refs] * 2 == [1, 1]


def test_progress_bar_on_a_terminal_only(sample) -> None:
    """stderr is a pseudo-terminal (the bar's 2 s delay is set to 0 for the test)."""
    lines = Path(sample["sys_paths"][0]).read_text(encoding="utf-8").splitlines(True)[:30]
    ref = Path(sample["ref_paths"][0]).read_text(encoding="utf-8").splitlines(True)[:30]
    ref_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"mtalign-progress-ref-{os.getpid()}"
    ref_path.write_text("".join(ref), encoding="utf-8")
    try:
        for quiet in (False, True):
            master, slave = pty.openpty()
            proc = subprocess.Popen(
                [sys.executable, "-m", "mtalign.cli", "score", "-i", "-", "-r", str(ref_path),
                 "-m", "bleu", "--chunk-lines", "3", *(["--quiet"] if quiet else [])],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=slave,
                env={**os.environ, "MTALIGN_PROGRESS_DELAY": "0"})
            os.close(slave)
            assert proc.stdin is not None
            for i, line in enumerate(lines):
                proc.stdin.write(line.encode())
                proc.stdin.flush()
                if i % 3 == 2:
                    time.sleep(0.01)
            proc.stdin.close()
            assert proc.stdout is not None
            out = proc.stdout.read()
            proc.wait(timeout=60)
            assert proc.returncode == 0
            err = b""
            while select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                err += chunk
            os.close(master)
            assert json.loads(out)["n_sentences"] == 30
            if quiet:
                assert err == b""
            else:
                assert b"mtalign score" in err and b"30" in err
    finally:
        ref_path.unlink()


def _peak_rss_kib(args: list[str]) -> int:
    """The command's peak resident memory (VmHWM: ru_maxrss would include the forking
    parent's, which Linux keeps across exec)."""
    code = ("import sys\nfrom mtalign.cli import main\n"
            "rc = main(sys.argv[1:])\n"
            "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0]\n"
            "print(hwm.split()[1], file=sys.stderr)\n"
            "sys.exit(rc)\n")
    proc = subprocess.run([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=True)
    return int(proc.stderr.strip().split("\n")[-1])


def test_peak_memory_does_not_grow_with_the_file(tmp_path) -> None:
    systems, refs = load_sample()
    hyps = next(iter(systems.values()))
    for n in (10_000, 100_000):
        reps = n // len(hyps)
        (tmp_path / f"h{n}").write_text("\n".join(hyps * reps) + "\n", encoding="utf-8")
        (tmp_path / f"r{n}").write_text("\n".join([r[0] for r in refs] * reps) + "\n",
                                        encoding="utf-8")
    rss = {}
    for n in (10_000, 100_000):
        rss[n] = _peak_rss_kib(["score", "-i", str(tmp_path / f"h{n}"), "-r",
                                str(tmp_path / f"r{n}"), "-m", "bleu", "rougeL",
                                "--sentence-level", "-f", "tsv", "--chunk-lines", "5000",
                                "--threads", "1"])
    # 10x the lines (about 27 MB of text in, 10 MB of rows out; reading the files whole took
    # about 60 MB more): within 12 MiB.
    assert rss[100_000] - rss[10_000] < 12 * 1024, rss
