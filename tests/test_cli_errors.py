"""A catalogue of bad input to every ``mtalign`` command: each is one line on stderr that
starts ``mtalign: error:`` and names the file, line or option at fault, exit status 2, never
a traceback. And compressed input (gzip, xz, bzip2) scores exactly as the plain file does.

``python tests/test_cli_errors.py DIR`` prints every case with the message it now gives.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "python" / "mtalign" / "data"
NBEST = ROOT / "tests" / "data" / "moses_nbest_fren.3.txt"
NBEST_REF = ROOT / "tests" / "data" / "moses_nbest_fren.3.ref.en"
COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress}


def _config(peer_root: Path, peer: str, fmt: str = "SPL") -> str:
    return (f'<ROUGE-EVAL version="1.0">\n<EVAL ID="1">\n<PEER-ROOT>{peer_root}</PEER-ROOT>\n'
            f"<MODEL-ROOT>{peer_root}</MODEL-ROOT>\n"
            f'<INPUT-FORMAT TYPE="{fmt}"></INPUT-FORMAT>\n'
            f'<PEERS><P ID="A">{peer}</P></PEERS>\n<MODELS><M ID="1">ref.txt</M></MODELS>\n'
            "</EVAL>\n</ROUGE-EVAL>\n")


def make_files(d: Path) -> Path:
    """The good and bad files the catalogue uses, in ``d``."""
    lines = (DATA / "ende_mqm_sample.ref.A.de").read_text(encoding="utf-8").splitlines()
    hyps = (DATA / "ende_mqm_sample.hyp.Online-W.de").read_text(encoding="utf-8").splitlines()
    refs_c = (DATA / "ende_mqm_sample.ref.C.de").read_text(encoding="utf-8").splitlines()
    (d / "ref.txt").write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    (d / "ref2.txt").write_text("\n".join(refs_c[:5]) + "\n", encoding="utf-8")
    (d / "hyp.txt").write_text("\n".join(hyps[:5]) + "\n", encoding="utf-8")
    (d / "short.txt").write_text("\n".join(hyps[:4]) + "\n", encoding="utf-8")
    (d / "empty.txt").write_bytes(b"")
    (d / "latin1.txt").write_bytes(b"ok\ncaf\xe9\nx\ny\nz\n")
    (d / "adir").mkdir(exist_ok=True)
    (d / "trunc.gz").write_bytes(gzip.compress((d / "hyp.txt").read_bytes())[:40])
    nb = NBEST.read_text(encoding="utf-8").splitlines()
    (d / "nb.txt").write_text("\n".join(nb) + "\n", encoding="utf-8")
    (d / "nb_ref.txt").write_text(NBEST_REF.read_text(encoding="utf-8"), encoding="utf-8")
    bad = list(nb)
    bad[1] = bad[1].replace("lm: ", "lm: abc ", 1)
    (d / "nb_abc.txt").write_text("\n".join(bad) + "\n", encoding="utf-8")
    bad = list(nb)
    bad[2] = bad[2].rsplit("|||", 1)[0] + "||| x"
    (d / "nb_score.txt").write_text("\n".join(bad) + "\n", encoding="utf-8")
    (d / "h_abc.tsv").write_text("line\tsystem\tmqm\n1\tA\t-1\n2\tA\tabc\n")
    (d / "h_line.tsv").write_text("line\tsystem\tmqm\nx\tA\t-1\n")
    (d / "s_abc.tsv").write_text("system\tbleu\nA\t1\nB\tzz\n")
    (d / "s_line.tsv").write_text("system\tline\tbleu\nA\tq\t1\n")
    shutil.copy(DATA / "ende_mqm_sample.mqm.tsv", d / "mqm.tsv")
    (d / "ok.xml").write_text(_config(d, "hyp.txt"))
    (d / "missing_peer.xml").write_text(_config(d, "missing.txt"))
    (d / "malformed.xml").write_text("\n".join(_config(d, "hyp.txt").splitlines()[:5]))
    (d / "format.xml").write_text(_config(d, "hyp.txt", fmt="XYZ"))
    (d / "no_eval.xml").write_text('<ROUGE-EVAL version="1.0">\n</ROUGE-EVAL>\n')
    return d


# (id, arguments ({d} = the files' folder), what the message must name)
CASES: list[tuple[str, list[str], list[str]]] = [
    # mtalign itself
    ("unknown-command", ["scor"], ["invalid choice: 'scor'"]),
    ("unknown-option", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "--bogus"],
     ["--bogus", "mtalign score --help"]),
    # score
    ("score-missing-file", ["score", "-r", "{d}/ref.txt", "-i", "{d}/missing.txt"],
     ["cannot read {d}/missing.txt: No such file or directory"]),
    ("score-directory", ["score", "-r", "{d}/ref.txt", "-i", "{d}/adir"],
     ["cannot read {d}/adir: Is a directory"]),
    ("score-empty", ["score", "-r", "{d}/empty.txt", "-i", "{d}/empty.txt"],
     ["{d}/empty.txt is empty"]),
    ("score-line-counts", ["score", "-r", "{d}/ref.txt", "-i", "{d}/short.txt"],
     ["{d}/short.txt has 4 lines but {d}/ref.txt has 5"]),
    ("score-not-utf8", ["score", "-r", "{d}/ref.txt", "-i", "{d}/latin1.txt"],
     ["{d}/latin1.txt: line 2 is not valid UTF-8"]),
    ("score-truncated-gzip", ["score", "-r", "{d}/ref.txt", "-i", "{d}/trunc.gz"],
     ["{d}/trunc.gz: not a readable gzip file"]),
    ("score-stdin-twice", ["score", "-r", "-", "-i", "-"], ["standard input"]),
    ("score-threads-word", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "--threads",
                            "x"], ["argument --threads", "'x'"]),
    ("score-threads-0", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "--threads", "0"],
     ["argument --threads", ">= 1"]),
    ("score-chunk-lines", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt",
                           "--chunk-lines", "-1"], ["argument --chunk-lines"]),
    ("score-beta", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "--beta", "abc"],
     ["argument --beta", "'abc'"]),
    ("score-sia-alpha", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-m", "sia",
                         "--sia-alpha", "5"], ["argument --sia-alpha", "(0, 1]"]),
    ("score-unknown-metric", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-m",
                              "nosuch"], ["unknown metric 'nosuch'"]),
    ("score-metric-typo", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-m", "blue"],
     ["unknown metric 'blue'", "did you mean 'bleu'?"]),
    ("score-similarity-missing", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-m",
                                  "sia", "--similarity", "{d}/missing.tbl"],
     ["argument --similarity", "{d}/missing.tbl"]),
    ("score-wordnet-missing", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-m",
                               "meteor", "--wordnet", "{d}/missing"],
     ["argument --wordnet", "{d}/missing"]),
    ("score-spm-model-missing", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt",
                                 "--tokenize", "spm", "--spm-model", "{d}/missing.model"],
     ["argument --spm-model", "{d}/missing.model"]),
    ("score-format", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-f", "xml"],
     ["argument -f/--format", "'xml'"]),
    ("score-required", ["score"], ["-r/--refs", "-i/--input"]),
    ("score-quiet-and-progress", ["score", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-q",
                                  "--progress"], ["--progress", "-q/--quiet"]),
    # demo
    ("demo-bootstrap", ["demo", "--n-bootstrap", "-1"], ["argument --n-bootstrap", "'-1'"]),
    ("demo-threads", ["demo", "--threads", "many"], ["argument --threads", "'many'"]),
    ("demo-report-unwritable", ["demo", "--n-bootstrap", "0", "--report", "{d}/adir"],
     ["cannot write {d}/adir"]),
    # report
    ("report-required", ["report"], ["-r/--refs", "-i/--input", "-o/--output"]),
    ("report-line-counts", ["report", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt",
                            "{d}/short.txt", "-o", "{d}/r.html"],
     ["{d}/short.txt has 4 lines but {d}/hyp.txt has 5"]),
    ("report-pair", ["report", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "{d}/ref2.txt",
                     "--pair", "hyp", "nobody", "-o", "{d}/r.html"],
     ["--pair", "'nobody'"]),
    ("report-output-directory", ["report", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "-o",
                                 "{d}/adir"], ["argument -o/--output", "{d}/adir"]),
    ("report-human-missing", ["report", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "--human",
                              "{d}/missing.tsv", "-o", "{d}/r.html"],
     ["argument --human", "{d}/missing.tsv"]),
    # orange
    ("orange-bootstrap", ["orange", "--systems", "{d}/hyp.txt", "{d}/hyp.txt", "-r",
                          "{d}/ref.txt", "{d}/ref2.txt", "--n-bootstrap", "x"],
     ["argument --n-bootstrap", "'x'"]),
    ("orange-min-size", ["orange", "--systems", "{d}/hyp.txt", "{d}/hyp.txt", "-r",
                         "{d}/ref.txt", "{d}/ref2.txt", "--min-size", "0"],
     ["argument --min-size"]),
    ("orange-one-reference", ["orange", "--systems", "{d}/hyp.txt", "{d}/hyp.txt", "-r",
                              "{d}/ref.txt"], ["at least 2 reference files (-r/--refs)"]),
    ("orange-line-counts", ["orange", "--systems", "{d}/hyp.txt", "{d}/short.txt", "-r",
                            "{d}/ref.txt", "{d}/ref2.txt"],
     ["{d}/short.txt has 4 lines but {d}/hyp.txt has 5"]),
    ("orange-empty", ["orange", "--systems", "{d}/empty.txt", "{d}/empty.txt", "-r",
                      "{d}/empty.txt", "{d}/empty.txt"], ["{d}/empty.txt is empty"]),
    ("orange-nbest-sentences", ["orange", "--nbest", "{d}/nb.txt", "-r", "{d}/ref.txt",
                                "{d}/ref2.txt"],
     ["{d}/nb.txt has candidates for 3 sentences but 5 are expected"]),
    # rerank
    ("rerank-unknown-feature", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "LM=0.5"],
     ["--weights", "unknown feature 'LM'", "did you mean 'lm'", "{d}/nb.txt: d, lm, tm, w"]),
    ("rerank-weight-not-a-number", ["rerank", "--nbest", "{d}/nb.txt", "--weights",
                                    "lm=abc"], ["--weights lm=abc", "'abc'"]),
    ("rerank-weight-infinite", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "lm=inf"],
     ["--weights lm=inf", "finite"]),
    ("rerank-weight-no-value", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "lm"],
     ["--weights", "NAME=V"]),
    ("rerank-weight-twice", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "lm=1", "lm=2"],
     ["--weights", "'lm' is given twice"]),
    ("rerank-weight-count", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "lm=1,2,3"],
     ["{d}/nb.txt: line 1", "'lm' has 2 values", "--weights gives 3"]),
    ("rerank-feature-not-a-number", ["rerank", "--nbest", "{d}/nb_abc.txt", "--weights",
                                     "lm=0.5"], ["{d}/nb_abc.txt: line 2", "'lm'", "'abc'"]),
    ("rerank-score-not-a-number", ["rerank", "--nbest", "{d}/nb_score.txt", "--weights",
                                   "lm=0.5"], ["{d}/nb_score.txt: line 3", "'x'"]),
    ("rerank-empty", ["rerank", "--nbest", "{d}/empty.txt", "--weights", "lm=1"],
     ["{d}/empty.txt is empty"]),
    ("rerank-missing", ["rerank", "--nbest", "{d}/missing.txt", "--weights", "lm=1"],
     ["cannot read {d}/missing.txt"]),
    ("rerank-metric-weight", ["rerank", "--nbest", "{d}/nb.txt", "--weights", "lm=1",
                              "--metric-weight", "x"], ["argument --metric-weight", "'x'"]),
    ("rerank-nothing-to-rank-by", ["rerank", "--nbest", "{d}/nb.txt"],
     ["-r/--refs", "--weights"]),
    ("rerank-reference-lines", ["rerank", "--nbest", "{d}/nb.txt", "-r", "{d}/ref.txt"],
     ["{d}/nb.txt has candidates for 3 sentences but 5 are expected"]),
    # train-similarity
    ("train-empty", ["train-similarity", "--src", "{d}/empty.txt", "--tgt", "{d}/empty.txt",
                     "-o", "{d}/t.sim"], ["{d}/empty.txt is empty"]),
    ("train-line-counts", ["train-similarity", "--src", "{d}/ref.txt", "--tgt",
                           "{d}/short.txt", "-o", "{d}/t.sim"],
     ["{d}/ref.txt has 5 lines but {d}/short.txt has 4"]),
    ("train-table-missing", ["train-similarity", "--table", "{d}/missing.lex", "-o",
                             "{d}/t.sim"], ["argument --table", "{d}/missing.lex"]),
    ("train-table-malformed", ["train-similarity", "--table", "{d}/hyp.txt", "-o",
                               "{d}/t.sim"], ["{d}/hyp.txt: line 1"]),
    ("train-output-folder", ["train-similarity", "--src", "{d}/ref.txt", "--tgt",
                             "{d}/hyp.txt", "-o", "{d}/missing/t.sim"],
     ["cannot write {d}/missing/t.sim"]),
    ("train-min-prob", ["train-similarity", "--src", "{d}/ref.txt", "--tgt", "{d}/hyp.txt",
                        "-o", "{d}/t.sim", "--min-prob", "2"], ["argument --min-prob"]),
    ("train-top", ["train-similarity", "--src", "{d}/ref.txt", "--tgt", "{d}/hyp.txt",
                   "-o", "{d}/t.sim", "--top", "0"], ["argument --top"]),
    # rouge155
    ("rouge155-missing-config", ["rouge155", "-a", "{d}/missing.xml"],
     ["cannot read {d}/missing.xml: No such file or directory"]),
    ("rouge155-config-directory", ["rouge155", "-a", "{d}/adir"],
     ["cannot read {d}/adir: Is a directory"]),
    ("rouge155-malformed-xml", ["rouge155", "-a", "{d}/malformed.xml"],
     ["{d}/malformed.xml: not a valid XML configuration", "line 5"]),
    ("rouge155-no-evaluations", ["rouge155", "-a", "{d}/no_eval.xml"],
     ["{d}/no_eval.xml has no evaluations"]),
    ("rouge155-input-format", ["rouge155", "-a", "{d}/format.xml"],
     ["{d}/format.xml: evaluation 1: input format 'XYZ'"]),
    ("rouge155-missing-peer-file", ["rouge155", "-a", "{d}/missing_peer.xml"],
     ["{d}/missing_peer.xml: evaluation 1: cannot read {d}/missing.txt"]),
    ("rouge155-unknown-system-id", ["rouge155", "-n", "1", "{d}/ok.xml", "Z"],
     ["{d}/ok.xml", "peer with ID 'Z'", "(peer IDs: A)"]),
    ("rouge155-no-system", ["rouge155", "-n", "1", "{d}/ok.xml"], ["system ID or -a"]),
    ("rouge155-no-config", ["rouge155", "-a"], ["configuration file"]),
    ("rouge155-options-after-id", ["rouge155", "{d}/ok.xml", "A", "-n", "2"],
     ["-n 2", "options go before"]),
    ("rouge155-n", ["rouge155", "-a", "-n", "x", "{d}/ok.xml"], ["-n expects", "'x'"]),
    ("rouge155-r", ["rouge155", "-a", "-r", "0", "{d}/ok.xml"], ["-r expects", "'0'"]),
    ("rouge155-p", ["rouge155", "-a", "-p", "abc", "{d}/ok.xml"], ["-p expects", "'abc'"]),
    ("rouge155-c", ["rouge155", "-a", "-c", "101", "{d}/ok.xml"], ["-c expects", "'101'"]),
    ("rouge155-f", ["rouge155", "-a", "-f", "C", "{d}/ok.xml"], ["-f expects", "'C'"]),
    ("rouge155-2", ["rouge155", "-a", "-2", "x", "{d}/ok.xml"], ["-2 expects", "'x'"]),
    ("rouge155-w", ["rouge155", "-a", "-w", "q", "{d}/ok.xml"], ["-w expects", "'q'"]),
    ("rouge155-l-and-b", ["rouge155", "-a", "-l", "5", "-b", "5", "{d}/ok.xml"],
     ["-l and -b"]),
    ("rouge155-unknown-option", ["rouge155", "-a", "-z", "{d}/ok.xml"], ["option -z"]),
    # correlate
    ("correlate-human-missing", ["correlate", "--human", "{d}/missing.tsv", "-r",
                                 "{d}/ref.txt", "-i", "{d}/hyp.txt"],
     ["cannot read {d}/missing.tsv"]),
    ("correlate-human-empty", ["correlate", "--human", "{d}/empty.txt", "-r", "{d}/ref.txt",
                               "-i", "{d}/hyp.txt"], ["{d}/empty.txt has no rows"]),
    ("correlate-human-not-a-number", ["correlate", "--human", "{d}/h_abc.tsv", "-r",
                                      "{d}/ref.txt", "-i", "{d}/hyp.txt"],
     ["{d}/h_abc.tsv:3", "mqm", "'abc'"]),
    ("correlate-human-line", ["correlate", "--human", "{d}/h_line.tsv", "-r", "{d}/ref.txt",
                              "-i", "{d}/hyp.txt"], ["{d}/h_line.tsv:2", "line", "'x'"]),
    ("correlate-human-column", ["correlate", "--human", "{d}/mqm.tsv", "--human-column",
                                "nope", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt"],
     ["{d}/mqm.tsv", "no score column nope"]),
    ("correlate-scores-missing", ["correlate", "--human", "{d}/mqm.tsv", "--scores",
                                  "{d}/missing.tsv"], ["cannot read {d}/missing.tsv"]),
    ("correlate-scores-directory", ["correlate", "--human", "{d}/mqm.tsv", "--scores",
                                    "{d}/adir"], ["cannot read {d}/adir"]),
    ("correlate-scores-not-a-number", ["correlate", "--human", "{d}/mqm.tsv", "--scores",
                                       "{d}/s_abc.tsv", "--corr-level", "system"],
     ["{d}/s_abc.tsv:3", "bleu", "'zz'"]),
    ("correlate-scores-line", ["correlate", "--human", "{d}/mqm.tsv", "--scores",
                               "{d}/s_line.tsv"], ["{d}/s_line.tsv:2", "'q'"]),
    ("correlate-no-input", ["correlate", "--human", "{d}/mqm.tsv", "-r", "{d}/ref.txt"],
     ["-i/--input", "--scores"]),
    ("correlate-epsilon", ["correlate", "--human", "{d}/mqm.tsv", "--epsilon", "abc"],
     ["argument --epsilon", "'calibrate'", "'abc'"]),
    ("correlate-ci", ["correlate", "--human", "{d}/mqm.tsv", "--ci", "2"],
     ["argument --ci", "(0, 1)"]),
    ("correlate-bootstrap", ["correlate", "--human", "{d}/mqm.tsv", "--n-bootstrap", "-3"],
     ["argument --n-bootstrap"]),
    ("correlate-k", ["correlate", "--human", "{d}/mqm.tsv", "-k", "0"], ["argument -k"]),
    ("correlate-method", ["correlate", "--human", "{d}/mqm.tsv", "--method", "r2"],
     ["argument --method", "'r2'"]),
    ("correlate-names-count", ["correlate", "--human", "{d}/mqm.tsv", "-r", "{d}/ref.txt",
                               "-i", "{d}/hyp.txt", "{d}/ref2.txt", "--names", "A"],
     ["--names gives 1 names for 2 system files"]),
    ("correlate-system-score", ["correlate", "--human", "{d}/mqm.tsv", "--system-score",
                                "median"], ["argument --system-score", "'median'"]),
    # compare
    ("compare-one-system", ["compare", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt"],
     ["baseline"]),
    ("compare-n-samples", ["compare", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt",
                           "{d}/ref2.txt", "--n-samples", "0"], ["argument --n-samples"]),
    ("compare-rng", ["compare", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "{d}/ref2.txt",
                     "--rng", "numpy"], ["argument --rng", "'numpy'"]),
    ("compare-line-counts", ["compare", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt",
                             "{d}/short.txt"], ["{d}/short.txt has 4 lines"]),
    ("compare-empty", ["compare", "-r", "{d}/empty.txt", "-i", "{d}/empty.txt",
                       "{d}/empty.txt"], ["{d}/empty.txt is empty"]),
    ("compare-reference-missing", ["compare", "-r", "{d}/missing.txt", "-i", "{d}/hyp.txt",
                                   "{d}/ref2.txt"], ["cannot read {d}/missing.txt"]),
    # sacrebleu (where sacrebleu itself prints a traceback; its own checks keep its messages)
    ("sacrebleu-hypothesis-missing", ["sacrebleu", "{d}/ref.txt", "-i", "{d}/missing.txt"],
     ["{d}/missing.txt", "no such file"]),
    ("sacrebleu-reference-directory", ["sacrebleu", "{d}/adir", "-i", "{d}/hyp.txt"],
     ["{d}/adir", "directory"]),
    ("sacrebleu-not-utf8", ["sacrebleu", "{d}/ref.txt", "-i", "{d}/latin1.txt"],
     ["{d}/latin1.txt", "not valid utf-8"]),
    # -sl BLEU reads the files' bytes natively: the same messages
    ("sacrebleu-sl-not-utf8", ["sacrebleu", "{d}/ref.txt", "-i", "{d}/latin1.txt", "-sl"],
     ["{d}/latin1.txt", "not valid utf-8 (invalid continuation byte at byte 6)"]),
    ("sacrebleu-sl-hypothesis-missing", ["sacrebleu", "{d}/ref.txt", "-i", "{d}/missing.txt",
                                         "-sl"], ["{d}/missing.txt", "no such file"]),
    ("sacrebleu-sl-truncated-gzip", ["sacrebleu", "{d}/ref.txt", "-i", "{d}/trunc.gz", "-sl"],
     ["{d}/trunc.gz", "cannot be read"]),
    ("sacrebleu-test-set", ["sacrebleu", "-t", "wmt20", "-l", "en-de", "-i", "{d}/hyp.txt"],
     ["-t wmt20", "sacrebleu -t wmt20 -l en-de --echo ref"]),
]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_files(tmp_path_factory.mktemp("bad_input"))


def _fill(items: list[str], d: Path) -> list[str]:
    return [s.replace("{d}", str(d)) for s in items]


def run_case(argv: list[str]) -> tuple[int, str]:
    """Runs ``mtalign.cli.main(argv)`` and returns its exit status and stderr."""
    from contextlib import redirect_stderr, redirect_stdout

    from mtalign.cli import main

    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        code = main(argv)
    return code, err.getvalue()


def test_the_catalogue_covers_every_command() -> None:
    from test_cli_help import COMMANDS

    assert {c for c in COMMANDS if c} <= {argv[0] for _, argv, _ in CASES}


@pytest.mark.parametrize("argv, names", [(a, n) for _, a, n in CASES],
                         ids=[c for c, _, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(files: Path, argv: list[str],
                                          names: list[str]) -> None:
    code, err = run_case(_fill(argv, files))
    assert code == 2, err
    assert err.startswith("mtalign: error: ") and err.endswith("\n") and err.count("\n") == 1, \
        err
    assert "Traceback" not in err
    for name in _fill(names, files):
        assert name in err, (name, err)


@pytest.mark.parametrize("case", ["rouge155-missing-config", "rouge155-malformed-xml",
                                  "rouge155-missing-peer-file", "rouge155-unknown-system-id",
                                  "rerank-feature-not-a-number", "correlate-human-line",
                                  "score-threads-word"])
def test_from_the_shell(files: Path, case: str) -> None:
    """The same through ``python -m mtalign``: stderr is the one line, nothing else."""
    (argv, names), = [(a, n) for c, a, n in CASES if c == case]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run([sys.executable, "-m", "mtalign", *_fill(argv, files)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("mtalign: error: ")
    assert all(name in res.stderr for name in _fill(names, files))


def test_rerank_one_weight_weights_every_value(files: Path) -> None:
    """``lm`` weighted with one value weights every value of the feature, as the help says
    (it was refused when lm has two values)."""
    from mtalign import io as mio
    from mtalign import rerank

    nbest = mio.read_nbest(files / "nb.txt")
    code, _ = run_case(["rerank", "--nbest", str(files / "nb.txt"), "--weights", "lm=0.5",
                        "-o", str(files / "picked.txt")])
    want = rerank(None, nbest, weights={"lm": [0.5, 0.5]})
    assert code == 0
    assert (files / "picked.txt").read_text(encoding="utf-8").splitlines() == want.hypotheses


# --- gzip, xz and bzip2 ---------------------------------------------------------------------

def _compressed(path: Path, ext: str) -> Path:
    out = path.with_name(f"{path.name}.{ext}")
    out.write_bytes(COMPRESS[ext](path.read_bytes()))
    return out


def _stdout(argv: list[str]) -> str:
    from contextlib import redirect_stdout

    from mtalign.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


@pytest.mark.parametrize("ext", list(COMPRESS))
def test_score_reads_compressed_files_as_plain(files: Path, ext: str) -> None:
    metrics = ["-m", "bleu", "chrf", "ter", "rougeL", "-f", "json"]
    plain = _stdout(["score", "-r", str(files / "ref.txt"), str(files / "ref2.txt"), "-i",
                     str(files / "hyp.txt"), *metrics])
    for chunk in ("2", "20000"):  # streamed in chunks of 2 lines, and whole
        packed = _stdout(["score", "-r", str(_compressed(files / "ref.txt", ext)),
                          str(files / "ref2.txt"), "-i", str(_compressed(files / "hyp.txt", ext)),
                          *metrics, "--chunk-lines", chunk])
        assert json.loads(packed)["scores"] == json.loads(plain)["scores"]
    assert json.loads(plain)["n_sentences"] == 5


def test_score_reads_compressed_standard_input(files: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _stdout(["score", "-r", str(files / "ref.txt"), "-i", str(files / "hyp.txt"),
                     "-m", "bleu", "rouge1"])
    stdin = io.BufferedReader(io.BytesIO(gzip.compress((files / "hyp.txt").read_bytes())))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    piped = _stdout(["score", "-r", str(files / "ref.txt"), "-i", "-", "-m", "bleu", "rouge1"])
    assert json.loads(piped)["scores"] == json.loads(plain)["scores"]


@pytest.mark.parametrize("ext", list(COMPRESS))
def test_every_reader_reads_compressed_files_as_plain(files: Path, ext: str) -> None:
    from mtalign import io as mio

    for name in ("hyp.txt", "latin1.txt"):
        if name == "latin1.txt":  # the same error, naming the compressed file
            with pytest.raises(mio.InputError, match=r"latin1.txt.\w+: line 2 is not valid"):
                mio.read_lines(_compressed(files / name, ext))
            continue
        assert mio.read_lines(_compressed(files / name, ext)) == mio.read_lines(files / name)
    nb = mio.read_nbest(_compressed(files / "nb.txt", ext))
    assert nb == mio.read_nbest(files / "nb.txt") and len(nb) == 3
    refs = mio.read_references([_compressed(files / "ref.txt", ext), files / "ref2.txt"])
    assert refs == mio.read_references([files / "ref.txt", files / "ref2.txt"])
    assert mio.read_text(_compressed(files / "mqm.tsv", ext)) == \
        (files / "mqm.tsv").read_text(encoding="utf-8")


def test_a_text_that_looks_like_a_header_is_text(tmp_path: Path) -> None:
    """Compression is told by the first bytes' magic numbers, which no text line starts with
    (BZh alone is not bzip2's)."""
    from mtalign import io as mio

    (tmp_path / "bzh.txt").write_text("BZh9 is a word\nzz\n", encoding="utf-8")
    assert mio.read_lines(tmp_path / "bzh.txt") == ["BZh9 is a word", "zz"]
    (tmp_path / "corrupt.xz").write_bytes(lzma.compress(b"a\nb\n")[:-8] + b"\0" * 8)
    with pytest.raises(mio.InputError, match=r"corrupt.xz: not a readable xz file"):
        mio.read_lines(tmp_path / "corrupt.xz")


@pytest.mark.parametrize("ext", list(COMPRESS))
def test_other_commands_read_compressed_files_as_plain(files: Path, ext: str) -> None:
    d = files
    # orange: system outputs and references
    common = ["-m", "rouge1", "--n-bootstrap", "0", "-f", "json"]
    plain = _stdout(["orange", "--systems", str(d / "hyp.txt"), str(d / "ref2.txt"),
                     "-r", str(d / "ref.txt"), str(d / "ref2.txt"), *common])
    packed = _stdout(["orange", "--systems", str(_compressed(d / "hyp.txt", ext)),
                      str(d / "ref2.txt"), "-r", str(_compressed(d / "ref.txt", ext)),
                      str(d / "ref2.txt"), *common])
    assert [json.loads(line) for line in packed.splitlines()] == [
        json.loads(line) for line in plain.splitlines()]
    # rerank: the n-best list and the references
    plain = _stdout(["rerank", "--nbest", str(d / "nb.txt"), "-r", str(d / "nb_ref.txt")])
    packed = _stdout(["rerank", "--nbest", str(_compressed(d / "nb.txt", ext)), "-r",
                      str(_compressed(d / "nb_ref.txt", ext))])
    assert packed == plain and len(plain.splitlines()) == 3
    # correlate: the human scores and the metric scores
    (d / "human.tsv").write_text("line\tsystem\tmqm\n" + "".join(
        f"{i}\t{s}\t{-((i * 7 + k * 3) % 5)}\n" for i in range(1, 6)
        for k, s in enumerate("ABC")))
    (d / "scores.tsv").write_text("system\tline\tm\n" + "".join(
        f"{s}\t{i}\t{(i * 5 + k * 2) % 7}\n" for i in range(1, 6) for k, s in enumerate("ABC")))
    args = ["--n-bootstrap", "0", "-f", "json"]
    plain = _stdout(["correlate", "--human", str(d / "human.tsv"), "--scores",
                     str(d / "scores.tsv"), *args])
    packed = _stdout(["correlate", "--human", str(_compressed(d / "human.tsv", ext)),
                      "--scores", str(_compressed(d / "scores.tsv", ext)), *args])
    assert packed == plain and json.loads(plain)["metric"] == "m" and json.loads(plain)["n"] == 15
    # rouge155: the configuration and the peer file
    plain = _stdout(["rouge155", "-a", "-n", "2", str(d / "ok.xml")])
    (d / f"gz_{ext}.xml").write_text(_config(d, _compressed(d / "hyp.txt", ext).name))
    packed = _stdout(["rouge155", "-a", "-n", "2", str(_compressed(d / f"gz_{ext}.xml", ext))])
    assert packed == plain and plain.count("Average_R") == 3
    # train-similarity: the aligned files
    src, tgt = d / "ref.txt", d / "hyp.txt"
    code, _ = run_case(["train-similarity", "--src", str(src), "--tgt", str(tgt), "-o",
                        str(d / "plain.sim"), "-q"])
    assert code == 0
    code, _ = run_case(["train-similarity", "--src", str(_compressed(src, ext)), "--tgt",
                        str(_compressed(tgt, ext)), "-o", str(d / "packed.sim"), "-q"])
    assert code == 0 and (d / "packed.sim").read_bytes() == (d / "plain.sim").read_bytes()


if __name__ == "__main__":  # the catalogue with the message each case now gives
    folder = make_files(Path(sys.argv[1]))
    for _, argv, _ in CASES:
        code, err = run_case(_fill(argv, folder))
        shown = " ".join(argv).replace("{d}/", "")
        print(f"- `mtalign {shown}` → exit {code}: `{err.strip().replace(str(folder) + '/', '')}`")


#: Bad inputs refused before anything is written on standard output (the JSON of
#: ``score --sentence-level`` opened before its error; ``demo --report`` with an unwritable
#: path failed after the whole tour had printed; ``report -o`` after all its work).
UP_FRONT = [
    ["score", "--sentence-level", "-f", "json", "-r", "{d}/empty.txt", "-i", "{d}/empty.txt"],
    ["score", "--sentence-level", "-f", "tsv", "-r", "{d}/empty.txt", "-i", "{d}/empty.txt"],
    ["score", "--sentence-level", "-f", "json", "-r", "{d}/ref.txt", "-i", "{d}/short.txt"],
    ["demo", "--report", "{d}/adir"],
    ["demo", "--report", "{d}/missing/demo.html"],
    ["demo", "--report", "{d}/ref.txt/demo.html"],
    ["report", "-r", "{d}/ref.txt", "-i", "{d}/hyp.txt", "{d}/ref2.txt", "-o",
     "{d}/missing/r.html"],
]


@pytest.mark.parametrize("argv", UP_FRONT, ids=["score-json-empty", "score-tsv-empty",
                                                "score-json-short", "demo-report-folder",
                                                "demo-report-no-folder",
                                                "demo-report-file-as-folder",
                                                "report-no-folder"])
def test_refused_before_any_output(files: Path, argv: list[str]) -> None:
    from contextlib import redirect_stderr, redirect_stdout

    from mtalign.cli import main

    err, out = io.StringIO(), io.StringIO()
    with redirect_stderr(err), redirect_stdout(out):
        assert main(_fill(argv, files)) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith("mtalign: error: ") and err.getvalue().count("\n") == 1
    path = _fill([argv[-1]], files)[0]
    reason = {"adir": "Is a directory", "missing/": "No such file or directory",
              "ref.txt/": "Not a directory"}
    for key, why in reason.items():
        if key in path and argv[0] != "score":
            assert err.getvalue() == f"mtalign: error: cannot write {path}: {why}\n"
