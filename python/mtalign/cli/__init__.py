"""The ``mtalign`` command line.

``mtalign score -r REF [REF ...] -i HYP [-m rougeL rougeS4 dcs ...]`` scores a hypothesis file
against one or more reference files (one segment per line, UTF-8, aligned line by line);
``mtalign demo`` scores the sample shipped inside the package; ``mtalign orange`` judges
metrics by how they rank the references among candidates (ORANGE); ``mtalign rerank`` picks
the best hypothesis of every n-best list against the references;
``mtalign train-similarity --src F --tgt E -o TABLE`` builds a word-similarity table for SIA;
``mtalign rouge155 [options] config.xml`` is ROUGE-1.5.5's own command line, computed by mtalign;
``mtalign report -r REF -i SYS1 SYS2 ... -o report.html`` writes one HTML page comparing systems;
``mtalign sacrebleu REF... -i HYP`` is sacrebleu 2.6.0's own command line, computed by mtalign.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtalign._mtalign import __version__

if TYPE_CHECKING:
    from mtalign.cli.common import CliError, Parser

#: ``mtalign --help``'s description.
DESCRIPTION = ("mtalign scores machine translation and summarization output against reference "
               "translations (ROUGE, BLEU, chrF, TER, METEOR, DCS, SIA and more), judges "
               "metrics against human scores and rankings, and tests whether one system is "
               "significantly better than another. Input files are UTF-8 text, one segment per "
               "line, aligned line by line; gzip, xz and bzip2 files are read as they are. "
               "Run 'mtalign demo' for a tour on data shipped with mtalign, and "
               "'mtalign COMMAND --help' for each command.")


def build_parser() -> Parser:
    """The ``mtalign`` parser with every subcommand.

    >>> build_parser().parse_args(["demo"]).command
    'demo'
    """
    # The commands' modules are imported here, not at the top: `mtalign sacrebleu` (see
    # main) starts without them.
    from mtalign.cli import meta, ranking, report, rouge155, score, similarity
    from mtalign.cli.common import Parser
    from mtalign.compat.sacrebleu import cli as sacrebleu_cli
    p = Parser(prog="mtalign", description=DESCRIPTION)
    p.add_argument("--version", action="version", version=f"mtalign {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND",
                           title="commands")
    score.add_commands(sub)
    ranking.add_commands(sub)
    similarity.add_commands(sub)
    rouge155.add_command(sub)
    meta.add_commands(sub)  # correlate, compare
    report.add_command(sub)
    sacrebleu_cli.add_command(sub)  # sacrebleu's own command line
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one ``mtalign`` command; returns the exit status (0, or 2 for an error, reported
    in one line on stderr; ``--help`` returns 0 after printing the help).

    >>> main(["score", "-r", "/nonexistent/ref", "-i", "/nonexistent/hyp"])
    2
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["sacrebleu"]:
        # sacrebleu's own command line parses everything after the name: it starts without
        # mtalign's other commands (their modules import NumPy and the metrics).
        from mtalign.compat.sacrebleu import cli as sacrebleu_cli
        try:
            return sacrebleu_cli.main(argv[1:], prog="mtalign sacrebleu")
        except KeyboardInterrupt:
            return _interrupted()
    from mtalign.cli.common import CliError, Parser
    from mtalign.errors import MtalignError
    if argv[:1] == ["rouge155"] and argv[1:] not in (["-h"], ["--help"]):
        # ROUGE-1.5.5's own option syntax (e.g. "-2 -1") follows: argparse must not read it.
        argv.insert(1, "--")
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # found by the top parser: point to the help of the command they follow
            Parser(prog=f"mtalign {args.command}").error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as e:  # --help, --version, or a bad argument (reported already)
        return e.code if isinstance(e.code, int) else 2
    try:
        return int(args.func(args))
    except (CliError, MtalignError) as e:
        print(f"mtalign: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return _interrupted()


def _interrupted() -> int:
    """Ctrl-C: one line, the shell's exit status for SIGINT (128 + 2), no traceback."""
    print("mtalign: interrupted", file=sys.stderr)
    return 130


def __getattr__(name: str) -> Any:
    """``CliError``, imported on first access (see :func:`main`)."""
    if name == "CliError":
        from mtalign.cli.common import CliError
        return CliError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CliError", "build_parser", "main"]
