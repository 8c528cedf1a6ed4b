"""``mtalign report``: one self-contained HTML page comparing systems
(:func:`mtalign.report`).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_command(sub)
>>> sorted(sub.choices)
['report']
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import Any

from mtalign import registry
from mtalign.cli.common import (
    CliError,
    add_progress_options,
    bootstrap,
    count,
    existing_file,
    load_references,
    load_systems,
    positive_int,
    progress_bar,
)
from mtalign.cli.metric_options import add_metric_options
from mtalign.errors import InputError
from mtalign.io import read_lines, system_names

#: The metrics of ``mtalign report`` without ``-m``.
REPORT_METRICS = ["bleu", "chrf", "ter"]


def read_human_scores(path: str, names: list[str], n: int, column: str | None,
                      system_column: str | None) -> dict[str, Any]:
    """``{system: segment scores}`` (or ``{system: score}``) from a human-score TSV, as
    ``mtalign correlate --human`` reads it; a scored line outside the test set and a system
    without scores are errors naming the file."""
    from mtalign.cli.meta import read_human

    human = read_human(path, column, system_column)
    human.check_test_set(names, n)
    missing = [s for s in names if s not in human.scores]
    if missing:
        raise InputError(f"{path} has no scores for system {missing[0]!r} (systems in the "
                         f"file: {', '.join(sorted(human.scores)) or 'none'})")
    m = human.matrix(names, n)
    return {s: m[i] for i, s in enumerate(names)}


def cmd_report(args: argparse.Namespace) -> int:
    from mtalign.reporting import report

    check_writable(args.output)  # before any work
    outputs = load_systems(args.input)
    names = system_names(args.input, args.names)
    refs = load_references(args.refs, len(outputs), args.input[0])
    n = len(outputs)
    src = None
    if args.src is not None:
        src = read_lines(args.src)
        if len(src) != n:
            raise InputError(f"{args.src} has {len(src)} lines but {args.input[0]} has {n}; "
                             f"files must be aligned line by line")
    human = None
    if args.human is not None:
        human = read_human_scores(args.human, names, n, args.human_column,
                                  args.human_system_column)
    freq = None if args.freq_corpus is None else read_lines(args.freq_corpus)
    if args.pair is not None:
        for s in args.pair:
            if s not in names:
                raise CliError(f"--pair: no system named {s!r} (systems: {', '.join(names)})")
    if args.segment_metric is not None and args.segment_metric not in args.metrics:
        raise CliError(f"--segment-metric {args.segment_metric} is not one of -m "
                       f"{' '.join(args.metrics)}")
    systems = {s: [row[i] for row in outputs] for i, s in enumerate(names)}
    bar = progress_bar(args, "report")
    html = report(systems, refs, src=src, metrics=args.metrics, human=human, test=args.test,
                  n_samples=args.n_samples, n_bootstrap=bootstrap(args.n_bootstrap),
                  seed=args.seed, pair=args.pair, segment_metric=args.segment_metric,
                  examples=args.examples, max_segments=args.max_segments, freq_corpus=freq,
                  ngram_order=args.ngram_order,
                  options=registry.MetricOptions.from_args(args), threads=args.threads,
                  title=args.title, progress=bar)
    bar.close()
    write_page(args.output, html)
    if not args.quiet:
        print(f"wrote {args.output} ({len(html.encode()) // 1024} KB: {len(names)} "
              f"system{'s' * (len(names) != 1)}, {n} segment{'s' * (n != 1)})", file=sys.stderr)
    return 0


def check_writable(path: str) -> None:
    """Refuses, before any work, a page path that :func:`write_page` could not write: a
    folder, a path in a missing folder, a file or folder without write permission.

    >>> check_writable("/no-folder/p.html")
    Traceback (most recent call last):
    mtalign.cli.common.CliError: cannot write /no-folder/p.html: No such file or directory
    """
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        problem = errno.EISDIR
    elif not os.path.isdir(folder):
        problem = errno.ENOENT if not os.path.exists(folder) else errno.ENOTDIR
    elif not os.access(path if os.path.exists(path) else folder, os.W_OK):
        problem = errno.EACCES
    else:
        return
    raise CliError(f"cannot write {path}: {os.strerror(problem)}")


def write_page(path: str, html: str) -> None:
    """Writes the page; an unwritable path is a one-line error naming it."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(html)
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def _not_a_directory(text: str) -> str:
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text} is a directory: give a file name")
    return text


def add_command(sub: argparse._SubParsersAction) -> None:
    """Adds ``report`` to the ``mtalign`` subcommands."""
    p = sub.add_parser("report", help="one self-contained HTML page comparing systems",
                       description="Write one self-contained HTML page (inline CSS and SVG, "
                                   "nothing fetched; readable offline and printable) that "
                                   "compares systems: corpus scores of every metric with 95% "
                                   "bootstrap intervals, a paired test against the best "
                                   "system and significance clusters; with --human, each "
                                   "metric's system-level correlation and a scatter plot; "
                                   "scores by reference length and word frequency and the "
                                   "n-grams one system gets right more often (as compare-mt); "
                                   "the segments where two systems differ most with TER's "
                                   "edits marked; a sortable table of every segment; and "
                                   "the signature of every metric and test.")
    p.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP",
                   help="the systems' output files, one per system")
    p.add_argument("-o", "--output", required=True, metavar="HTML", type=_not_a_directory,
                   help="the page to write, e.g. report.html")
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="the systems' names, one per -i file, in order (default: the file "
                        "names without the part all share, e.g. ende.hyp.Online-W.de -> "
                        "Online-W)")
    p.add_argument("--src", metavar="FILE", type=existing_file,
                   help="the source segments, shown with the examples")
    p.add_argument("-m", "--metrics", nargs="+", default=REPORT_METRICS, metavar="METRIC",
                   help=f"metric names ({registry.names_help()}) "
                        f"(default: {' '.join(REPORT_METRICS)})")
    p.add_argument("--human", metavar="TSV", type=existing_file,
                   help="human scores, as correlate --human reads them (columns line, "
                        "system/file, and mqm/da_z/score; or one score per system)")
    p.add_argument("--human-column", default=None, metavar="NAME",
                   help="the human score column (default: the first of mqm, da_z, score, "
                        "human present)")
    p.add_argument("--human-system-column", default=None, metavar="NAME",
                   help="the column naming systems (default: file if present, else system)")
    p.add_argument("--test", default="bs", choices=("bs", "ar"),
                   help="the paired test against the best system: bs = paired bootstrap "
                        "resampling, ar = approximate randomization (default: %(default)s)")
    p.add_argument("--n-samples", type=positive_int, default=None, metavar="N",
                   help="resamples (bs, default 1000) or trials (ar, default 10000) of "
                        "the paired test")
    p.add_argument("--n-bootstrap", type=count, default=1000, metavar="N",
                   help="bootstrap resamples of the 95%% intervals and the clusters "
                        "(default: %(default)s; 0 = none)")
    p.add_argument("--seed", type=int, default=12345, metavar="N",
                   help="random seed (default: %(default)s)")
    p.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the two systems whose segments and n-grams are compared "
                        "(default: the two best by the first metric)")
    p.add_argument("--segment-metric", default=None, metavar="METRIC",
                   help="the metric (one of -m) comparing segments (default: the first)")
    p.add_argument("--examples", type=count, default=5, metavar="N",
                   help="segments shown where each system of the pair is better "
                        "(default: %(default)s)")
    p.add_argument("--max-segments", type=positive_int, default=1000, metavar="N",
                   help="rows of the segment table; beyond it, the segments where the pair "
                        "differs least are summarised in one line (default: %(default)s)")
    p.add_argument("--freq-corpus", metavar="FILE", type=existing_file,
                   help="text whose word counts make the frequency buckets (default: the "
                        "references)")
    p.add_argument("--ngram-order", type=positive_int, default=4, metavar="N",
                   help="the longest n-grams compared (default: %(default)s)")
    p.add_argument("--title", default="mtalign report", metavar="TEXT",
                   help="the page's title (default: %(default)s)")
    p.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores)")
    add_metric_options(p)
    add_progress_options(p)
    p.set_defaults(func=cmd_report)
