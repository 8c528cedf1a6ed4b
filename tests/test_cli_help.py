"""Every ``mtalign`` command's ``--help``, read as a newcomer reads it on an 80-column terminal.

The commands are discovered from the parser (a new command is checked without being listed
here): ``--help`` exits 0, the command has a plain-text description of its own (no reST or
doctest markup, no developer docstring), every option has help, no line is wider than 80
columns. Also: one spelling of the progress options, and ``0`` = no bootstrap everywhere.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mtalign.cli import build_parser, main

MARKUP = ("``", "`", "::", ">>>", ":func:", ":class:", ":meth:")


def _commands() -> dict[str, argparse.ArgumentParser]:
    top = build_parser()
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    return {"": top, **sub.choices}


COMMANDS = _commands()


def _help(command: str, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    code = main([command, "--help"] if command else ["--help"])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", (command, err)
    return out


def test_the_commands_are_found() -> None:
    assert {"score", "demo", "orange", "rerank", "train-similarity", "rouge155", "correlate",
            "compare"} <= set(COMMANDS)


@pytest.mark.parametrize("command", list(COMMANDS), ids=lambda c: c or "mtalign")
def test_help(command: str, monkeypatch: pytest.MonkeyPatch,
              capsys: pytest.CaptureFixture[str]) -> None:
    parser = COMMANDS[command]
    out = _help(command, monkeypatch, capsys)
    # A description of its own: a paragraph of prose, printed.
    description = (parser.description or "").strip()
    first = description.split("\n\n")[0]
    assert len(first) >= 100 and first.count(".") >= 1, (command, description)
    assert " ".join(first.split()[:6]) in " ".join(out.split())
    for mark in MARKUP:
        assert mark not in out, (command, mark)
    assert "Args:" not in out and "Returns:" not in out and "%%" not in out
    assert "['" not in out  # a Python list as a default
    # Every option (and positional) has help, and it is printed.
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        assert action.help and action.help != argparse.SUPPRESS, (command, action.dest)
        first_words = " ".join(action.help.replace("%%", "%").split()[:3])
        assert first_words in " ".join(out.split()), (command, action.dest)
    # 80 columns.
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, (command, wide)


@pytest.mark.parametrize("command", ["rouge155", ""], ids=["rouge155", "mtalign"])
def test_help_from_the_shell(command: str) -> None:
    """``mtalign rouge155 --help`` exited 2 (its options went to ROUGE-1.5.5's parser)."""
    src = Path(__file__).resolve().parents[1] / "python"
    env = {**os.environ, "COLUMNS": "80",
           "PYTHONPATH": os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")])}
    for flag in ("--help", "-h"):
        argv = [sys.executable, "-m", "mtalign", *([command] if command else []), flag]
        res = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60)
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert "usage: mtalign" in res.stdout


def test_rouge155_help_is_its_own_option_too(capsys: pytest.CaptureFixture[str]) -> None:
    """ROUGE-1.5.5's ``-h`` among other options prints the same plain description."""
    assert main(["rouge155", "-a", "-h"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mtalign rouge155") and "-2 D" in out
    assert not any(mark in out for mark in MARKUP)


def test_one_spelling_of_the_progress_options() -> None:
    """-q/--quiet and --progress (flags), together, on every command that reports progress;
    no other option mentions progress or quiet."""
    with_progress = []
    for command, parser in COMMANDS.items():
        strings = {s for a in parser._actions for s in a.option_strings}
        if any("progress" in s or "quiet" in s for s in strings):
            with_progress.append(command)
            assert {"-q", "--quiet", "--progress"} <= strings, command
            assert {s for s in strings if "progress" in s or "quiet" in s} == \
                {"--quiet", "--progress"}, command
            args = parser.parse_args(_required(command) + ["--progress"])
            assert args.progress is True and args.quiet is False
            args = parser.parse_args(_required(command) + ["-q"])
            assert args.progress is False and args.quiet is True
    assert {"score", "orange", "rerank", "train-similarity", "correlate",
            "compare"} <= set(with_progress)


def test_progress_and_quiet_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "-r", "r", "-i", "h", "-q", "--progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mtalign: error: argument --progress: not allowed with") and \
        err.count("\n") == 1


def _required(command: str) -> list[str]:
    return {"score": ["-r", "r", "-i", "h"], "orange": ["--systems", "h", "-r", "r", "s"],
            "rerank": ["--nbest", "n"], "train-similarity": ["-o", "t"],
            "correlate": ["--human", "h"], "compare": ["-r", "r", "-i", "a", "b"],
            "report": ["-r", "r", "-i", "a", "b", "-o", "x.html"]}.get(command, [])


def test_zero_bootstrap_means_none_everywhere() -> None:
    """Every command with a bootstrap count spells it --n-bootstrap and takes 0 (= none)."""
    seen = []
    for command, parser in COMMANDS.items():
        strings = {s for a in parser._actions for s in a.option_strings}
        if any("bootstrap" in s for s in strings):
            seen.append(command)
            assert "--n-bootstrap" in strings, command
            args = parser.parse_args(_required(command) + ["--n-bootstrap", "0"])
            dest = next(a.dest for a in parser._actions if "--n-bootstrap" in a.option_strings)
            assert getattr(args, dest) == 0
    assert {"demo", "orange", "correlate"} <= set(seen)
