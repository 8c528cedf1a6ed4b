"""``mtalign sacrebleu`` against the ``sacrebleu`` 2.6.0 command itself: for a matrix of
options (every output format, one and several systems, one and two references, paired tests,
confidence intervals, ``-sl``, ``-b``, ``-w``, ``--short``, ``-lc``, every tokenizer sacrebleu
has offline, chrF/TER options, ``--num-refs``, ``.gz`` and standard input) stdout must be the
same bytes, with our signature's version field (``2.6.0+mtalign-X``) written back as
sacrebleu's ``2.6.0``; bad input must give sacrebleu's exit status (or 2 and one line where
sacrebleu prints a traceback). Data: WMT21 segments in tests/data (see its README)."""

from __future__ import annotations

import contextlib
import gzip
import io
import os
import shutil
import subprocess
import sys

import pytest
import wmt_data
from mtalign.cli import main as mtalign_main
from mtalign.compat.sacrebleu import __version__ as SHIM_VERSION
from mtalign.compat.sacrebleu.cli import main as shim_main

SACREBLEU = shutil.which("sacrebleu")
pytestmark = pytest.mark.skipif(SACREBLEU is None, reason="the sacrebleu command is needed")
N = 120


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("sacrebleu_cli")
    ende = wmt_data.load("wmt21_ende_news")
    out = {}

    def write(name, lines):
        (d / name).write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
        out[name] = str(d / name)

    write("ref.A", ende["refs"]["A"][:N])
    write("ref.C", ende["refs"]["C"][:N])
    for name in ("Facebook-AI", "Online-W", "UEdin"):
        write(f"hyp.{name}", ende["hyps"][name][:N])
    write("refs.tsv", [f"{a}\t{c}" for a, c in zip(ende["refs"]["A"][:N],
                                                    ende["refs"]["C"][:N], strict=True)])
    write("short.hyp", [" ".join(h.split()[:2]) for h in ende["hyps"]["UEdin"][:N]])
    with gzip.open(d / "ref.A.gz", "wt", encoding="utf-8") as f:
        f.write("".join(f"{x}\n" for x in ende["refs"]["A"][:N]))
    out["ref.A.gz"] = str(d / "ref.A.gz")
    ja = wmt_data.load("wmt21_enja_news_extract")
    write("ja.ref", ja["refs"]["A"][:N])
    write("ja.hyp", ja["hyps"]["Facebook-AI"][:N])
    zh = wmt_data.load("wmt21_enzh_news_extract")
    write("zh.ref", zh["refs"]["A"][:N])
    write("zh.hyp", zh["hyps"]["Facebook-AI"][:N])
    write("wrong_length.hyp", ende["hyps"]["UEdin"][:N - 1])
    out["stdin"] = "".join(f"{a}\t{b}\n" for a, b in zip(
        ende["hyps"]["Online-W"][:N], ende["hyps"]["UEdin"][:N], strict=True))
    out["dir"] = str(d)
    return out


def _args(spec: str, files: dict[str, str]) -> list[str]:
    return [files.get(word, word) for word in spec.split()]


def sacrebleu_run(args: list[str], stdin: str | None = None, env: dict | None = None):
    proc = subprocess.run([SACREBLEU, *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)
    return proc.returncode, proc.stdout


def shim_run(args: list[str], stdin: str | None = None, monkeypatch=None):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        status = shim_main(args)
    return status, out.getvalue().replace(SHIM_VERSION, "2.6.0")


SINGLE = [
    "ref.A -i hyp.UEdin",
    "ref.A -i hyp.UEdin -f text",
    "ref.A ref.C -i hyp.UEdin -m bleu chrf ter -f text",
    "ref.A ref.C -i hyp.UEdin -m bleu chrf ter",
    "ref.A -i hyp.UEdin -b",
    "ref.A -i hyp.UEdin -m bleu chrf ter -b -f text",
    "ref.A -i hyp.UEdin -m ter chrf bleu -b",
    "ref.A -i hyp.UEdin -w 3 -f text --short",
    "ref.A -i hyp.UEdin -w 0 -m bleu chrf --short",
    "ref.A -i hyp.UEdin -lc -f text",
    "ref.A -i hyp.UEdin -tok intl -f text",
    "ref.A -i hyp.UEdin -tok char -f text",
    "ref.A -i hyp.UEdin -tok none -f text",
    "ref.A -i hyp.UEdin -tok zh -f text",
    "zh.ref -i zh.hyp -l en-zh -f text",
    "ja.ref -i ja.hyp -tok ja-mecab -f text",
    "ref.A -i short.hyp -s floor -sv 0.5 -f text",
    "ref.A -i short.hyp -s add-k -f text",
    "ref.A -i short.hyp -s none -f text",
    "ref.A -i short.hyp -s add-k -sv 2 -m bleu",
    "ref.A ref.C -i hyp.UEdin -m chrf --chrf-word-order 2 --chrf-beta 1 -f text",
    "ref.A -i short.hyp -m chrf -cc 4 --chrf-whitespace --chrf-lowercase --chrf-eps-smoothing",
    "ref.A -i hyp.UEdin -m ter --ter-normalized --ter-case-sensitive -f text",
    "ref.A -i hyp.UEdin -m ter --ter-no-punct --ter-asian-support --short",
    "ref.A -i hyp.UEdin -sl",
    "ref.A ref.C -i short.hyp -sl -w 3 --short",
    "ref.A -i hyp.UEdin -sl -m chrf -b",
    "ref.A -i short.hyp -sl -s add-k -w 2",
    "ref.A ref.C -i short.hyp -sl -s floor -sv 0.3",
    "ref.A -i short.hyp -sl -s none -lc -tok char",
    "ref.A -i short.hyp -sl -m chrf -cw 2 --chrf-eps-smoothing",
    "ref.A ref.C -i hyp.UEdin -sl -m ter",
    # -sl BLEU from the files' bytes, and from lines read in Python (tab-separated
    # references, another encoding), tokenized natively or in Python (ja-mecab)
    "ref.A.gz -i hyp.UEdin -sl -b -w 3",
    "-nr 2 refs.tsv -i hyp.UEdin -sl -w 2",
    "ref.A -i hyp.UEdin -sl -e latin-1 -tok intl -lc",
    "zh.ref -i zh.hyp -l en-zh -sl",
    "ja.ref -i ja.hyp -tok ja-mecab -sl",
    "ref.A -i hyp.UEdin --confidence --confidence-n 200 -m bleu chrf ter",
    "ref.A -i hyp.UEdin -ci -cin 150 -m bleu chrf ter -f text -w 2",
    "-nr 2 refs.tsv -i hyp.UEdin -m bleu chrf ter -f text",
    "ref.A.gz -i hyp.UEdin -f text",
    "ref.A -i hyp.UEdin -d -f text",
]
MULTI = [
    "ref.A -i hyp.Facebook-AI hyp.Online-W hyp.UEdin -m bleu chrf -f text",
    "ref.A ref.C -i hyp.Facebook-AI hyp.Online-W hyp.UEdin -m bleu chrf ter -f latex -w 2",
    "ref.A -i hyp.Facebook-AI hyp.Online-W -m bleu chrf ter",
    "ref.A -i hyp.Facebook-AI hyp.Online-W -m bleu --short -f text",
    "ref.A ref.C -i hyp.Facebook-AI hyp.Online-W hyp.UEdin -m bleu chrf ter --paired-bs "
    "--paired-bs-n 200 -f text",
    "ref.A -i hyp.Facebook-AI hyp.Online-W hyp.UEdin hyp.Facebook-AI -m bleu chrf ter "
    "--paired-bs -pbsn 100 -f latex -w 2",
    "ref.A -i hyp.Facebook-AI hyp.Online-W short.hyp -m bleu chrf ter --paired-ar "
    "--paired-ar-n 300 -f text --short",
    "ref.A ref.C -i hyp.Facebook-AI hyp.Online-W -m bleu ter -par -parn 200 -f latex",
    "ref.A -i hyp.Facebook-AI hyp.Online-W -m bleu --paired-bs --paired-bs-n 100",
    "ref.A -i hyp.Facebook-AI hyp.Online-W -m bleu --paired-ar --paired-ar-n 100",
]


@pytest.mark.parametrize("spec", SINGLE + MULTI)
def test_stdout_is_sacrebleus(files, spec, monkeypatch):
    args = _args(spec, files)
    expected = sacrebleu_run(args)
    assert expected[0] == 0 and expected[1]
    assert shim_run(args, monkeypatch=monkeypatch) == expected


@pytest.mark.parametrize("spec", ["ref.A", "ref.A -f text -m bleu chrf",
                                  "ref.A --paired-bs --paired-bs-n 100 -m bleu -f text"])
def test_standard_input(files, spec, monkeypatch):
    args = _args(spec, files)
    expected = sacrebleu_run(args, stdin=files["stdin"])
    assert expected[0] == 0 and expected[1]
    assert shim_run(args, files["stdin"], monkeypatch) == expected


def test_format_from_environment(files, monkeypatch):
    args = _args("ref.A -i hyp.UEdin -m bleu chrf", files)
    expected = sacrebleu_run(args, env={"SACREBLEU_FORMAT": "text"})
    monkeypatch.setenv("SACREBLEU_FORMAT", "text")
    assert shim_run(args, monkeypatch=monkeypatch) == expected


def test_every_entry_point_prints_the_same(files, capfd):
    args = _args("ref.A -i hyp.UEdin -m bleu chrf -f text", files)
    expected = sacrebleu_run(args)[1]
    assert mtalign_main(["sacrebleu", *args]) == 0
    assert capfd.readouterr().out.replace(SHIM_VERSION, "2.6.0") == expected
    proc = subprocess.run([sys.executable, "-m", "mtalign.compat.sacrebleu", *args],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout.replace(SHIM_VERSION, "2.6.0") == expected


# sacrebleu's own checks: its exit status, nothing on stdout
SACREBLEU_ERRORS = [
    "ref.A -i hyp.UEdin -sl -m bleu chrf",
    "ref.A -i hyp.UEdin --paired-bs",
    "ref.A -i hyp.UEdin hyp.Online-W --confidence",
    "ref.A -i hyp.UEdin hyp.Online-W -sl",
    "ref.A -i wrong_length.hyp -sl",
    "ref.A ref.C -i wrong_length.hyp -sl",
    "ref.A -i hyp.UEdin hyp.UEdin",
    "ref.A -i wrong_length.hyp",
    "-nr 3 refs.tsv -i hyp.UEdin",
    "-nr 2 ref.A ref.C -i hyp.UEdin",
    "-i hyp.UEdin",
    "ref.A -i hyp.UEdin -m bleu --nonsense",
    "ref.A -i hyp.UEdin -tok nonsense",
    "ref.A -i hyp.UEdin -t wmt21 -l en-de",
    "-i hyp.UEdin -t nonsense -l en-de",
    "-i hyp.UEdin -t wmt21",
    "-i hyp.UEdin -t wmt21 -l xx-yy",
    "-nr 2 -i hyp.UEdin -t wmt21 -l en-de",
]


@pytest.mark.parametrize("spec", SACREBLEU_ERRORS)
def test_bad_input_as_sacrebleu(files, spec, monkeypatch, capsys):
    args = _args(spec, files)
    status, out = sacrebleu_run(args)
    assert status != 0
    assert shim_run(args, monkeypatch=monkeypatch) == (status, out)
    assert "Traceback" not in capsys.readouterr().err


# where sacrebleu prints a traceback: one line on stderr, exit 2
@pytest.mark.parametrize("spec", ["ref.A -i missing.hyp", "missing.ref -i hyp.UEdin",
                                  "ref.A -i dir", "ref.A -i hyp.UEdin --origlang de",
                                  "-i hyp.UEdin -t wmt20 -l en-de",
                                  "ref.A -i hyp.UEdin -e nonsense-encoding"])
def test_tracebacks_become_one_line(files, spec, monkeypatch, capsys):
    args = _args(spec, {**files, "missing.hyp": files["dir"] + "/missing.hyp",
                        "missing.ref": files["dir"] + "/missing.ref"})
    assert shim_run(args, monkeypatch=monkeypatch) == (2, "")
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_paired_json_where_sacrebleu_cannot_write_it(files, monkeypatch):
    """sacrebleu's --paired-bs JSON dies on chrF/TER's float32 means (a traceback); ours is
    the JSON it would write: the numbers of sacrebleu's own PairedTest."""
    import json

    import sacrebleu
    from sacrebleu.significance import PairedTest

    args = _args("ref.A -i hyp.Facebook-AI hyp.Online-W -m bleu chrf ter --paired-bs "
                 "--paired-bs-n 100", files)
    assert sacrebleu_run(args)[0] != 0
    status, out = shim_run(args, monkeypatch=monkeypatch)
    assert status == 0
    ours = json.loads(out)
    refs = [open(files["ref.A"], encoding="utf-8").read().splitlines()]
    systems = [(f"Baseline: {files['hyp.Facebook-AI']}", None), (files["hyp.Online-W"], None)]
    systems = [(name, open(files[k], encoding="utf-8").read().splitlines())
               for (name, _), k in zip(systems, ["hyp.Facebook-AI", "hyp.Online-W"],
                                       strict=True)]
    metrics = {"BLEU": sacrebleu.BLEU(references=refs), "chrF2": sacrebleu.CHRF(references=refs),
               "TER": sacrebleu.TER(references=refs)}
    _, theirs = PairedTest(systems, metrics, None, "bs", 100)()
    assert [row["system"] for row in ours] == theirs["System"]
    for metric in ("BLEU", "chrF2", "TER"):
        for row, result in zip(ours, theirs[metric], strict=True):
            expected = {k: None if v is None else float(v) for k, v in result.__dict__.items()}
            assert row[metric] == expected


@pytest.mark.parametrize("end", ["\n", "", "\n  "])
def test_lines_split_as_sacrebleu_reads_them(tmp_path, end, monkeypatch):
    """Only "\\n" ends a line (sacrebleu opens files with newline="\\n"): \\r, \\v, U+2028 and
    U+0085 inside a line, trailing blanks, and the last line with or without its newline."""
    ref = "The cat sat \r\non the\x0bmat.\nA dog\u2028barked \u0085 twice.\t \nOne more line."
    hyp = "The cat sat\non the mat.\nA dog barked\u2028 twice.\nOne more line  "
    paths = []
    for name, text in (("ref", ref + end), ("hyp", hyp + end)):
        (tmp_path / name).write_bytes(text.encode("utf-8"))
        paths.append(str(tmp_path / name))
    for extra in ([], ["-sl"], ["-m", "chrf", "-sl"]):
        args = [paths[0], "-i", paths[1], *extra]
        expected = sacrebleu_run(args)
        assert expected[0] == 0 and expected[1]
        assert shim_run(args, monkeypatch=monkeypatch) == expected


def test_sentence_bleu_starts_without_numpy(files):
    """`mtalign sacrebleu -sl` (BLEU) is one native call from the files' bytes: neither
    NumPy nor mtalign's metrics are imported (they are most of a start-up's time), and the
    lines are sacrebleu's."""
    args = _args("ref.A ref.C -i hyp.UEdin -sl", files)
    script = ("import sys\nfrom mtalign.cli import main\n"
              f"status = main(['sacrebleu', *{args!r}])\n"
              "heavy = [m for m in ('numpy', 'mtalign.metrics', 'mtalign.meta') "
              "if m in sys.modules]\n"
              "print(status, heavy, file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)
    assert proc.stderr.strip() == "0 []"
    assert proc.stdout.replace(SHIM_VERSION, "2.6.0") == sacrebleu_run(args)[1]
