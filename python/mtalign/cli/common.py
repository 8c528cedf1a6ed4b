"""What every ``mtalign`` command shares: the parser that reports a bad argument in one line,
the checked number types of its options, the ``-q/--quiet`` and ``--progress`` options, the
errors reported without a traceback, and the line of strict JSON each ``-f json`` writes."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from mtalign._progress import Progress
from mtalign.errors import InputError
from mtalign.io import read_references, read_systems


class CliError(Exception):
    """A problem with the command's files or arguments, reported without a traceback.

    >>> str(CliError("cannot write out.txt"))
    'cannot write out.txt'
    """


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (``mtalign: error: ...`` and
    where to find the command's help), exit status 2: no usage block to scroll past.

    >>> import contextlib, io
    >>> p = Parser(prog="mtalign demo")
    >>> _ = p.add_argument("--top", type=positive_int)
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     try:
    ...         p.parse_args(["--top", "x"])
    ...     except SystemExit as e:
    ...         print(e.code)
    2
    >>> print(err.getvalue(), end="")
    mtalign: error: argument --top: expected a whole number >= 1, got 'x' (see mtalign demo --help)
    """

    def error(self, message: str) -> NoReturn:
        print(f"mtalign: error: {message} (see {self.prog} --help)",
              file=sys.stderr)
        raise SystemExit(2)


def json_line(obj: Any) -> str:
    """``obj`` as one line of strict JSON, as every ``-f json`` output writes it: a number
    that is not finite (NaN: undefined, or not computed such as an interval with
    ``--n-bootstrap 0``) is ``null``, since JSON has no NaN; text is written as it is.

    >>> print(json_line({"metric": "bleu", "ci": (float("nan"), float("nan")), "n": 3,
    ...                  "system": "Ünï"}))
    {"metric": "bleu", "ci": [null, null], "n": 3, "system": "Ünï"}
    """
    return json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False)


def _finite(value: Any) -> Any:
    """``value`` with every float that is not finite (NaN, ±inf) made ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _number(kind: Callable[[str], Any], text: str, what: str) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if kind is float and value != value:  # NaN passes every comparison below
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An option's whole number >= 1 (``--threads``, ``--chunk-lines``, ...).

    >>> positive_int("4")
    4
    """
    value = _number(int, text, "a whole number >= 1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(value)


def count(text: str) -> int:
    """An option's whole number >= 0 (``--bootstrap 0``: none).

    >>> count("0")
    0
    """
    value = _number(int, text, "a whole number >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(value)


def positive_float(text: str) -> float:
    """An option's number > 0.

    >>> positive_float("1.5")
    1.5
    """
    value = _number(float, text, "a number > 0")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return float(value)


def finite_float(text: str) -> float:
    """An option's finite number.

    >>> finite_float("-1")
    -1.0
    """
    value = _number(float, text, "a number")
    if value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return float(value)


def fraction(low_open: bool, high_open: bool) -> Callable[[str], float]:
    """An option's number between 0 and 1 (``low_open``: 0 excluded; ``high_open``: 1).

    >>> fraction(True, True)("0.95")
    0.95
    """
    what = f"a number in {'(' if low_open else '['}0, 1{')' if high_open else ']'}"

    def parse(text: str) -> float:
        value = _number(float, text, what)
        if value < 0 or value > 1 or (low_open and value == 0) or (high_open and value == 1):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return float(value)

    parse.__name__ = what
    return parse


def existing_file(text: str) -> str:
    """An option's input file: it must exist and not be a directory.

    >>> existing_file("/")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: / is a directory, not a file
    """
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory, not a file")
    if not os.path.exists(text):
        raise argparse.ArgumentTypeError(f"{text}: no such file")
    return text


def existing_dir(text: str) -> str:
    """An option's input directory: it must exist.

    >>> existing_dir("/")
    '/'
    """
    if not os.path.isdir(text):
        what = "not a directory" if os.path.exists(text) else "no such directory"
        raise argparse.ArgumentTypeError(f"{text}: {what}")
    return text


def bootstrap(n: int) -> int | None:
    """An option's number of bootstrap resamples as the library takes it: 0 = none (None).

    >>> bootstrap(0), bootstrap(100)
    (None, 100)
    """
    return None if n == 0 else n


def add_progress_options(p: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``--progress``, the same on every command with a progress bar."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", action="store_true",
                   help="no progress on stderr")
    g.add_argument("--progress", action="store_true",
                   help="show progress on stderr even when stderr is not a terminal "
                        "(default: on a terminal only)")


def progress_bar(args: argparse.Namespace, label: str, delay: float = 2.0) -> Progress:
    """The progress bar ``-q/--quiet`` and ``--progress`` ask for (``--progress`` draws at
    once and also when stderr is not a terminal).

    >>> bar = progress_bar(argparse.Namespace(quiet=True, progress=False), "scoring")
    >>> bar.enabled
    False
    """
    force = bool(getattr(args, "progress", False))
    bar = Progress(label, force=force, delay=0.0 if force else delay)
    if getattr(args, "quiet", False):
        bar.enabled = False
    return bar


def _not_empty(paths: Sequence[str], n: int) -> None:
    if n == 0:
        raise InputError(f"{paths[0]} is empty: nothing to score")


def load_systems(paths: Sequence[str]) -> list[list[str]]:
    """Reads system outputs aligned line by line (:func:`mtalign.io.read_systems`); empty
    files are an error.

    >>> import io
    >>> load_systems([io.StringIO("a\\n"), io.StringIO("b\\n")])
    [['a', 'b']]
    """
    out = read_systems(paths)
    _not_empty([getattr(p, "name", p) for p in paths], len(out))
    return out


def load_references(paths: Sequence[str], n_hyps: int | None = None,
                    hyp_path: str = "the candidates") -> list[list[str]]:
    """Reads reference files and checks that each has as many lines as the hypotheses (and
    at least one).

    >>> import io
    >>> load_references([io.StringIO("r1\\n")], 1, "hyp.txt")
    [['r1']]
    """
    out = read_references(paths, n_sentences=n_hyps, against=hyp_path)
    _not_empty([getattr(p, "name", p) for p in paths], len(out))
    return out
