"""``mtalign correlate`` and ``mtalign compare``: meta-evaluation and paired system tests on
the command line. :func:`add_commands` registers both on the ``mtalign`` parser.

``mtalign correlate --human mqm.tsv -r REF -i HYP... -m bleus rougeL ...`` correlates metric
scores (computed here, or read from ``--scores``) with human judgments from a TSV such as
WMT's MQM/DA files (columns ``line``, ``system`` or ``file``, and a score column); system
names are the hypothesis file names without their extension. Error rates (WER, PER) are
negated, as WMT negates TER, so that higher is better for every metric.

``mtalign compare -r REF -i BASELINE SYSTEM... -m bleu --test bs`` runs paired bootstrap
(``bs``) or approximate randomization (``ar``) tests of each system against the first, like
``sacrebleu --paired-bs`` / ``--paired-ar``.

>>> system_name("hyp/Online-W.de")
'Online-W'
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtalign import __version__, registry
from mtalign._mtalign import InputError
from mtalign.cli.common import (
    add_progress_options,
    bootstrap,
    count,
    finite_float,
    fraction,
    load_references,
    load_systems,
    positive_int,
    progress_bar,
)
from mtalign.io import read_text
from mtalign.meta._kernels import METHODS
from mtalign.meta.clusters import TESTS, clusters
from mtalign.meta.correlation import correlate
from mtalign.meta.paired import paired_test

SCORE_COLUMNS = ("mqm", "da_z", "score", "human")
#: The metrics of ``correlate`` and ``compare`` without ``-m``.
CORRELATE_METRICS = ["bleus", "rougeL"]
COMPARE_METRICS = ["bleu"]


def system_name(path: str) -> str:
    """``hyp/Online-W.de`` -> ``Online-W``."""
    return Path(path).stem if Path(path).suffix else Path(path).name


def _read_tsv(path: str) -> list[dict[str, Any]]:
    """The rows of a TSV file with a header (gzip, xz and bzip2 files read as they are)."""
    rows = list(csv.DictReader(io.StringIO(read_text(path), newline=""), delimiter="\t"))
    if not rows:
        raise InputError(f"{path} has no rows")
    return rows


def _line_number(path: str, row: int, text: str | None) -> int:
    """A ``line`` column's value: a segment number >= 1."""
    try:
        line = int(text or "")
    except ValueError:
        line = 0
    if line < 1:
        raise InputError(f"{path}:{row}: line is not a segment number (1, 2, ...): {text!r}")
    return line


def _value(path: str, row: int, column: str, text: str | None) -> float:
    try:
        return float(text or "")
    except ValueError:
        raise InputError(f"{path}:{row}: {column} is not a number: {text!r}") from None


def read_human(path: str, column: str | None, system_column: str | None
               ) -> tuple[dict[str, dict[int, float]] | dict[str, float], str]:
    """Human scores from a TSV: ``({system: {line: score}}, "segment")`` when it has a
    ``line`` column, else ``({system: score}, "system")``."""
    rows = _read_tsv(path)
    header = list(rows[0].keys())
    col = column or next((c for c in SCORE_COLUMNS if c in header), None)
    if col is None or col not in header:
        raise InputError(f"{path}: no score column {column or '/'.join(SCORE_COLUMNS)} "
                         f"(columns: {', '.join(header)})")
    key = system_column or ("file" if "file" in header else "system")
    if key not in header:
        raise InputError(f"{path}: no system column {key!r}")
    seg: dict[str, dict[int, float]] = {}
    sys_: dict[str, float] = {}
    for i, r in enumerate(rows, start=2):
        name = (r.get(key) or "").strip()
        value = (r.get(col) or "").strip()
        if not name or value in ("", "None", "nan", "NaN"):
            continue
        try:
            v = float(value)
        except ValueError:
            raise InputError(f"{path}:{i}: {col} is not a number: {value!r}") from None
        if "line" in header:
            seg.setdefault(name, {})[_line_number(path, i, r["line"])] = v
        else:
            sys_[name] = v
    if "line" in header:
        return seg, "segment"
    return sys_, "system"


def _scores_tsv(path: str) -> tuple[dict[str, dict[str, dict[int, float]]], bool]:
    """``--scores``: a TSV with ``system``, optional ``line``, one column per metric."""
    rows = _read_tsv(path)
    header = list(rows[0].keys())
    if "system" not in header:
        raise InputError(f"{path}: needs a 'system' column")
    by_line = "line" in header
    metrics = [c for c in header if c not in ("system", "line")]
    out: dict[str, dict[str, dict[int, float]]] = {m: {} for m in metrics}
    for i, r in enumerate(rows, start=2):
        line = _line_number(path, i, r["line"]) if by_line else 0
        for m in metrics:
            out[m].setdefault(r["system"], {})[line] = _value(path, i, m, r[m])
    return out, by_line


def _signature(args: argparse.Namespace, n_refs: int) -> str:
    eps = args.epsilon if args.epsilon is not None else "none"
    return (f"method:{args.method}|level:{args.corr_level}|group_by:{args.group_by}|eps:{eps}|"
            f"bs:{args.n_bootstrap}|ci:{args.ci}|seed:{args.seed}|nrefs:{n_refs}|"
            f"version:{__version__}")


def cmd_correlate(args: argparse.Namespace) -> int:
    human, human_level = read_human(args.human, args.human_column, args.human_system_column)
    if human_level == "system" and args.corr_level != "system":
        raise InputError(f"{args.human} has system-level scores: use --corr-level system")
    metric_rows: dict[str, dict[str, np.ndarray]] = {}
    n_refs = 0
    if args.scores:
        table, by_line = _scores_tsv(args.scores)
        systems = [s for s in human if all(s in t for t in table.values())]
        lines = sorted({ln for t in table.values() for d in t.values() for ln in d})
        for m, t in table.items():
            metric_rows[m] = {s: np.array([t[s].get(ln, math.nan) for ln in lines])
                              for s in systems}
        if not by_line and args.corr_level != "system":
            raise InputError("--scores has no 'line' column: use --corr-level system")
    else:
        if not args.input or not args.refs:
            raise InputError("give -r/--refs and -i/--input hypothesis files, or --scores")
        outputs = load_systems(args.input)
        names = [system_name(p) for p in args.input]
        refs = load_references(args.refs, len(outputs), args.input[0])
        n_refs = len(args.refs)
        systems = [s for s in names if s in human]
        skipped = [s for s in names if s not in human]
        if skipped:
            print(f"mtalign: note: no human scores for {', '.join(skipped)}", file=sys.stderr)
        lines = list(range(1, len(outputs) + 1))
        options = registry.MetricOptions.from_args(args)
        bar = progress_bar(args, "scoring")
        for k, name in enumerate(args.metrics):
            metric, variant = registry.make_metric(name, options)
            hyps = [row[names.index(s)] for s in systems for row in outputs]
            flat = np.asarray(metric.scalar_scores(hyps, refs * len(systems), variant=variant,
                                                   threads=args.threads), dtype=np.float64)
            if not getattr(metric, "higher_is_better", True):
                flat = -flat  # error rates negated (as WMT negates TER): higher = better
            metric_rows[name] = {s: flat[i * len(lines):(i + 1) * len(lines)]
                                 for i, s in enumerate(systems)}
            bar(k + 1, len(args.metrics))
        bar.close()
    if len(systems) < 2:
        raise InputError(f"fewer than 2 systems have both metric and human scores "
                         f"({', '.join(systems) or 'none'})")
    if human_level == "segment":
        seg = human
        h = np.array([[seg[s].get(ln, math.nan) for ln in lines] for s in systems])  # type: ignore[union-attr]
    else:
        h = np.array([human[s] for s in systems], dtype=np.float64)
    matrices = {}
    for m, rows in metric_rows.items():
        mat = np.array([rows[s] for s in systems])
        if h.ndim == 1:  # system-level human scores: one metric score per system
            mat = np.nanmean(mat, axis=1) if mat.ndim == 2 else mat
        matrices[m] = mat
    eps: Any = args.epsilon
    results = {}
    for m, mat in matrices.items():
        c = correlate(mat, h, method=args.method, level=args.corr_level, group_by=args.group_by,
                      epsilon=eps, n_bootstrap=bootstrap(args.n_bootstrap), seed=args.seed,
                      ci=args.ci)
        results[m] = c.to_dict()
    ranking = None
    if args.clusters and len(matrices) > 1:
        cl = clusters(matrices, h, method=args.method, level=args.corr_level,
                      group_by=args.group_by, epsilon=eps, test=args.test, k=args.k,
                      seed=args.seed)
        ranking = cl.to_dict()
        for place in cl.ranking:
            results[place.name]["rank"] = place.rank
    out = {"signature": _signature(args, n_refs), "systems": systems, "metrics": results}
    if ranking is not None:
        out["clusters"] = ranking
    if args.format == "json":
        print(json.dumps(out, indent=2, allow_nan=True))
        return 0
    order = sorted(results, key=lambda m: -np.nan_to_num(results[m]["value"], nan=-9))
    width = max(len("metric"), *(len(m) for m in order))
    print(f"# {args.method} at {args.corr_level} level, group_by {args.group_by}: "
          f"{len(systems)} systems, {int(100 * args.ci)}% bootstrap CI")
    print(f"{'metric':<{width}}  {'value':>8}  {'CI':>19}  {'n':>6}" +
          ("  rank" if ranking else ""))
    for m in order:
        r = results[m]
        lo, hi = r["ci"]
        line = f"{m:<{width}}  {r['value']:8.4f}  [{lo:8.4f}, {hi:8.4f}]  {r['n']:6d}"
        if ranking:
            line += f"  {r.get('rank', ''):>4}"
        print(line)
    print(f"\nsignature: {out['signature']}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    if len(args.input) < 2:
        raise InputError("compare needs a baseline and at least one system (-i BASE SYS...)")
    outputs = load_systems(args.input)
    names = [system_name(p) for p in args.input]
    if len(set(names)) != len(names):
        names = list(args.input)
    refs = load_references(args.refs, len(outputs), args.input[0])
    options = registry.MetricOptions.from_args(args)
    columns = [[row[i] for row in outputs] for i in range(len(names))]
    report: dict[str, Any] = {}
    bar = progress_bar(args, f"paired {args.test}")
    for k, name in enumerate(args.metrics):
        metric, variant = registry.make_metric(name, options)
        if hasattr(metric, "statistics") and hasattr(metric, "corpus_from_statistics"):
            res = paired_test(metric, columns[0], dict(zip(names[1:], columns[1:],
                                                            strict=True)), refs,
                              kind=args.test, n_samples=args.n_samples, seed=args.seed,
                              rng=args.rng, baseline_name=names[0], threads=args.threads)
        else:
            scored = [np.asarray(metric.scalar_scores(c, refs, variant=variant,
                                                      threads=args.threads)) for c in columns]
            res = paired_test(None, scored[0], dict(zip(names[1:], scored[1:], strict=True)),
                              kind=args.test, n_samples=args.n_samples, seed=args.seed,
                              rng=args.rng, baseline_name=names[0])
        report[name] = {s: r.to_dict() for s, r in res.items()}
        bar(k + 1, len(args.metrics))
    bar.close()
    n = args.n_samples or (1000 if args.test == "bs" else 10000)
    sig = f"test:{args.test}|n:{n}|seed:{args.seed}|rng:{args.rng}|version:{__version__}"
    if args.format == "json":
        print(json.dumps({"signature": sig, "baseline": names[0], "metrics": report},
                         indent=2))
        return 0
    table = [["System", *report]]
    for s in names:
        row = [s]
        for m in report:
            r = report[m][s]
            cell = f"{r['score']:.4f}"
            if r["mean"] is not None:
                cell += f" (μ = {r['mean']:.4f} ± {r['ci']:.4f})"
            if r["p_value"] is not None:
                cell += f" (p = {r['p_value']:.4f})"
            row.append(cell)
        table.append(row)
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    print(f"\nbaseline: {names[0]}; signature: {sig}")
    return 0


def _epsilon(text: str) -> float | str:
    """``--epsilon``: a number >= 0 or ``calibrate``."""
    if text == "calibrate":
        return text
    try:
        value = finite_float(text)
    except argparse.ArgumentTypeError:
        value = -1.0
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0 or 'calibrate', got {text!r}")
    return value


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("-f", "--format", default="text", choices=("text", "json"),
                   help="output format (default: %(default)s)")
    p.add_argument("--seed", type=int, default=12345, metavar="N",
                   help="random seed (default: %(default)s)")
    p.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores)")
    add_progress_options(p)


def add_commands(sub: Any) -> None:
    """Registers ``correlate`` and ``compare`` on the ``mtalign`` subcommand parsers."""
    c = sub.add_parser("correlate", help="correlate metric scores with human judgments",
                       description="Correlate metric scores with human judgments, as WMT's "
                                   "metrics task does. The metric scores are computed here "
                                   "from reference files (-r) and system outputs (-i), or "
                                   "read from a TSV (--scores); the human scores come from a "
                                   "TSV such as WMT's MQM or DA files (columns line, system "
                                   "or file, and a score column). Error rates (WER, PER, TER) "
                                   "are negated so that higher is better for every metric. "
                                   "Prints each metric's correlation with a bootstrap "
                                   "confidence interval, and with --clusters the metrics' "
                                   "significance clusters.")
    c.add_argument("--human", required=True, metavar="TSV",
                   help="human scores (columns line, system/file, and mqm/da_z/score)")
    c.add_argument("--human-column", default=None, metavar="NAME",
                   help="the human score column (default: the first of "
                        f"{', '.join(SCORE_COLUMNS)} present)")
    c.add_argument("--human-system-column", default=None, metavar="NAME",
                   help="the column naming systems (default: file if present, else system)")
    c.add_argument("-r", "--refs", nargs="+", metavar="REF", help="reference file(s)")
    c.add_argument("-i", "--input", nargs="+", metavar="HYP",
                   help="system outputs (name = file name without extension)")
    c.add_argument("-m", "--metrics", nargs="+", default=CORRELATE_METRICS,
                   metavar="METRIC", help=f"metric names ({registry.names_help()}) "
                                          f"(default: {' '.join(CORRELATE_METRICS)})")
    c.add_argument("--scores", metavar="TSV",
                   help="read metric scores instead (columns system, line, one per metric)")
    c.add_argument("--method", default="pearson", choices=METHODS, metavar="NAME",
                   help="correlation: pearson, spearman, kendall_b, kendall_c, or Deutsch "
                        "et al. (2023)'s tau and accuracy with ties, tau_eq and acc_eq "
                        "(default: %(default)s)")
    c.add_argument("--corr-level", dest="corr_level", default="segment",
                   choices=("segment", "system"),
                   help="correlate segment scores or system scores (default: %(default)s; "
                        "--level is DCS's option)")
    c.add_argument("--group-by", default="none", choices=("none", "item", "system"),
                   help="segment level: one correlation over all scores (none), per segment "
                        "across systems (item) or per system (system), averaged "
                        "(default: %(default)s)")
    c.add_argument("--epsilon", default=None, type=_epsilon, metavar="EPS",
                   help="kendall_b, tau_eq, acc_eq: metric scores within EPS count as tied; "
                        "a number >= 0, or calibrate to find the best one (default: only "
                        "equal scores tie)")
    c.add_argument("--n-bootstrap", type=count, default=1000, metavar="N",
                   help="bootstrap resamples of the confidence interval (default: "
                        "%(default)s; 0 = none)")
    c.add_argument("--ci", type=fraction(True, True), default=0.95, metavar="LEVEL",
                   help="confidence level of the interval, in (0, 1) (default: %(default)s)")
    c.add_argument("--clusters", action="store_true",
                   help="significance clusters over the metrics")
    c.add_argument("--test", default="perm", choices=TESTS,
                   help="test for --clusters (default: %(default)s)")
    c.add_argument("-k", type=positive_int, default=1000, metavar="N",
                   help="trials per pair of metrics for --clusters (default: %(default)s)")
    registry.add_metric_options(c)
    _common(c)
    c.set_defaults(func=cmd_correlate)

    p = sub.add_parser("compare", help="paired bootstrap / randomization tests of systems "
                                       "against a baseline (the first -i)",
                       description="Test whether each system's score differs significantly "
                                   "from a baseline's on the same segments, as sacrebleu's "
                                   "--paired-bs and --paired-ar do: paired bootstrap "
                                   "resampling (bs: the score's mean and 95% confidence "
                                   "interval over resamples, and a p-value) or approximate "
                                   "randomization (ar: a p-value). The first -i file is the "
                                   "baseline, the others are compared with it; every metric "
                                   "given with -m is tested.")
    p.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP",
                   help="the baseline first, then the systems")
    p.add_argument("-m", "--metrics", nargs="+", default=COMPARE_METRICS, metavar="METRIC",
                   help=f"metric names ({registry.names_help()}) "
                        f"(default: {' '.join(COMPARE_METRICS)})")
    p.add_argument("--test", default="bs", choices=("bs", "ar"),
                   help="bs: paired bootstrap resampling; ar: approximate randomization "
                        "(default: %(default)s)")
    p.add_argument("--n-samples", type=positive_int, default=None, metavar="N",
                   help="resamples (bs, default 1000) or trials (ar, default 10000)")
    p.add_argument("--rng", default="mtalign", choices=("mtalign", "sacrebleu"),
                   help="random numbers: mtalign's, or sacrebleu's exact draws so that "
                        "p-values equal sacrebleu's (default: %(default)s)")
    registry.add_metric_options(p)
    _common(p)
    p.set_defaults(func=cmd_compare)


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - for debugging
    parser = argparse.ArgumentParser(prog="mtalign")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
