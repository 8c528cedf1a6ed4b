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
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtalign import __version__, registry
from mtalign._mtalign import InputError
from mtalign._progress import Progress
from mtalign.cli import tables
from mtalign.io import read_references, read_systems
from mtalign.meta._kernels import METHODS
from mtalign.meta.clusters import TESTS, clusters
from mtalign.meta.correlation import correlate
from mtalign.meta.paired import paired_test

SCORE_COLUMNS = ("mqm", "da_z", "score", "human")


def system_name(path: str) -> str:
    """``hyp/Online-W.de`` -> ``Online-W``."""
    return Path(path).stem if Path(path).suffix else Path(path).name


def read_human(path: str, column: str | None, system_column: str | None
               ) -> tuple[dict[str, dict[int, float]] | dict[str, float], str]:
    """Human scores from a TSV: ``({system: {line: score}}, "segment")`` when it has a
    ``line`` column, else ``({system: score}, "system")``."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    if not rows:
        raise InputError(f"{path} has no rows")
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
            seg.setdefault(name, {})[int(r["line"])] = v
        else:
            sys_[name] = v
    if "line" in header:
        return seg, "segment"
    return sys_, "system"


def _scores_tsv(path: str) -> tuple[dict[str, dict[str, dict[int, float]]], bool]:
    """``--scores``: a TSV with ``system``, optional ``line``, one column per metric."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    if not rows:
        raise InputError(f"{path} has no rows")
    header = list(rows[0].keys())
    if "system" not in header:
        raise InputError(f"{path}: needs a 'system' column")
    by_line = "line" in header
    metrics = [c for c in header if c not in ("system", "line")]
    out: dict[str, dict[str, dict[int, float]]] = {m: {} for m in metrics}
    for r in rows:
        line = int(r["line"]) if by_line else 0
        for m in metrics:
            out[m].setdefault(r["system"], {})[line] = float(r[m])
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
        outputs = read_systems(args.input)
        names = [system_name(p) for p in args.input]
        refs = read_references(args.refs, n_sentences=len(outputs), against=args.input[0])
        n_refs = len(args.refs)
        systems = [s for s in names if s in human]
        skipped = [s for s in names if s not in human]
        if skipped:
            print(f"mtalign: note: no human scores for {', '.join(skipped)}", file=sys.stderr)
        lines = list(range(1, len(outputs) + 1))
        options = registry.MetricOptions.from_args(args)
        bar = Progress("scoring", force=args.progress)
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
    if eps not in (None, "calibrate"):
        eps = float(eps)
    results = {}
    for m, mat in matrices.items():
        c = correlate(mat, h, method=args.method, level=args.corr_level, group_by=args.group_by,
                      epsilon=eps, n_bootstrap=args.n_bootstrap, seed=args.seed, ci=args.ci)
        results[m] = c.to_dict()
    ranking = None
    if args.clusters and len(matrices) > 1:
        cl = clusters(matrices, h, method=args.method, level=args.corr_level,
                      group_by=args.group_by, epsilon=eps, test=args.test, k=args.k,
                      seed=args.seed)
        ranking = cl.to_dict()
        for place in cl.ranking:
            results[place.name]["rank"] = place.rank
    signature = _signature(args, n_refs)
    if args.format == "json":  # JSON Lines: one object per metric, whatever their number
        for m, r in results.items():
            r.setdefault("rank", None)
            print(json.dumps({"metric": m, **r, "systems": systems, "signature": signature,
                              "clusters": ranking}, allow_nan=True))
        return 0
    order = sorted(results, key=lambda m: -np.nan_to_num(results[m]["value"], nan=-9))
    title = (f"# {args.method} at {args.corr_level} level, group_by {args.group_by}: "
             f"{len(systems)} systems, {int(100 * args.ci)}% bootstrap CI; error rates "
             f"negated (higher is better for every metric)")
    columns = [tables.Column(args.method, tables.correlation_note(args.method)),
               tables.Column(f"{int(100 * args.ci)}% CI"), tables.Column("n")]
    if ranking:
        columns.append(tables.Column("rank", "↓ ≥1"))
    cells = []
    for m in order:
        r = results[m]
        lo, hi = r["ci"]
        cells.append([m, f"{r['value']:.4f}", f"[{lo:.4f}, {hi:.4f}]", str(r["n"]),
                      *([str(r.get("rank", ""))] if ranking else [])])
    text = tables.wrap(title) + tables.table([tables.label("metric")], columns, cells)
    print("\n".join(text + [""] + tables.wrap(f"signature: {signature}")))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    if len(args.input) < 2:
        raise InputError("compare needs a baseline and at least one system (-i BASE SYS...)")
    outputs = read_systems(args.input)
    names = [system_name(p) for p in args.input]
    if len(set(names)) != len(names):
        names = list(args.input)
    refs = read_references(args.refs, n_sentences=len(outputs), against=args.input[0])
    options = registry.MetricOptions.from_args(args)
    columns = [[row[i] for row in outputs] for i in range(len(names))]
    report: dict[str, Any] = {}
    bar = Progress(f"paired {args.test}", force=args.progress)
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
    if args.format == "json":  # JSON Lines: one object per system, the baseline first
        for name in names:
            print(json.dumps({"system": name, "baseline": names[0],
                              "metrics": {m: report[m][name] for m in report},
                              "signature": sig}))
        return 0
    print("\n".join(_compare_text(report, names, args.test, sig)))
    return 0


def _compare_text(report: dict[str, dict[str, dict[str, Any]]], names: list[str], test: str,
                  sig: str) -> list[str]:
    """One table per metric: each system's score, the bootstrap mean and interval, p."""
    what = "paired bootstrap resampling" if test == "bs" else "approximate randomization"
    lines = tables.wrap(f"# {what} against the baseline {names[0]}; p: the p-value of the "
                        f"difference to the baseline (0-1; lower = less likely by chance)")
    for m, per_system in report.items():
        results = [per_system[s] for s in names]
        columns = [tables.Column("score", tables.metric_note(m))]
        has_mean = any(r["mean"] is not None for r in results)
        if has_mean:
            columns += [tables.Column("mean", tables.metric_note(m)), tables.Column("± 95% CI")]
        columns.append(tables.Column("p", tables.P_VALUE_SCALE))
        rows = []
        for s, r in zip(names, results, strict=True):
            row = [s, f"{r['score']:.4f}"]
            if has_mean:
                row += ["" if r["mean"] is None else f"{r['mean']:.4f}",
                        "" if r["ci"] is None else f"{r['ci']:.4f}"]
            row.append("" if r["p_value"] is None else f"{r['p_value']:.4f}")
            rows.append(row)
        lines += ["", *tables.wrap(f"## {tables.metric_header(m)}")]
        lines += tables.table([tables.label("system")], columns, rows)
    return lines + [""] + tables.wrap(f"baseline: {names[0]}; signature: {sig}")


def _common(p: argparse.ArgumentParser, shape: str) -> None:
    p.add_argument("-f", "--format", default="text", choices=("text", "json"),
                   help=f"output format: text = tables of at most 80 columns, each metric "
                        f"with its direction (↑/↓) and scale; json = JSON Lines, {shape} "
                        f"(default: %(default)s)")
    p.add_argument("--seed", type=int, default=12345, help="random seed (default: 12345)")
    p.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("--progress", action="store_true",
                   help="draw progress bars even when stderr is not a terminal")


def add_commands(sub: Any) -> None:
    """Registers ``correlate`` and ``compare`` on the ``mtalign`` subcommand parsers."""
    c = sub.add_parser("correlate", help="correlate metric scores with human judgments",
                       description=__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--human", required=True, metavar="TSV",
                   help="human scores (columns line, system/file, and mqm/da_z/score)")
    c.add_argument("--human-column", default=None, help="the human score column")
    c.add_argument("--human-system-column", default=None,
                   help="the column naming systems (default: file if present, else system)")
    c.add_argument("-r", "--refs", nargs="+", metavar="REF", help="reference file(s)")
    c.add_argument("-i", "--input", nargs="+", metavar="HYP",
                   help="system outputs (name = file name without extension)")
    c.add_argument("-m", "--metrics", nargs="+", default=["bleus", "rougeL"],
                   metavar="METRIC", help=f"metric names ({registry.names_help()})")
    c.add_argument("--scores", metavar="TSV",
                   help="read metric scores instead (columns system, line, one per metric)")
    c.add_argument("--method", default="pearson", choices=METHODS)
    c.add_argument("--corr-level", dest="corr_level", default="segment",
                   choices=("segment", "system"),
                   help="segment or system level (--level is DCS's option)")
    c.add_argument("--group-by", default="none", choices=("none", "item", "system"))
    c.add_argument("--epsilon", default=None, help="a number or 'calibrate'")
    c.add_argument("--n-bootstrap", type=int, default=1000)
    c.add_argument("--ci", type=float, default=0.95)
    c.add_argument("--clusters", action="store_true",
                   help="significance clusters over the metrics")
    c.add_argument("--test", default="perm", choices=TESTS,
                   help="test for --clusters (default: %(default)s)")
    c.add_argument("-k", type=int, default=1000, help="trials per pair for --clusters")
    registry.add_metric_options(c)
    _common(c, "one object per metric (also for one) with keys metric, value, ci, n, epsilon, "
               "n_groups, method, level, group_by, rank (null without --clusters), systems, "
               "signature, clusters (null without --clusters)")
    c.set_defaults(func=cmd_correlate)

    p = sub.add_parser("compare", help="paired bootstrap / randomization tests of systems "
                                       "against a baseline (the first -i)")
    p.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP",
                   help="the baseline first, then the systems")
    p.add_argument("-m", "--metrics", nargs="+", default=["bleu"], metavar="METRIC")
    p.add_argument("--test", default="bs", choices=("bs", "ar"))
    p.add_argument("--n-samples", type=int, default=None,
                   help="resamples (bs: 1000) or trials (ar: 10000)")
    p.add_argument("--rng", default="mtalign", choices=("mtalign", "sacrebleu"))
    registry.add_metric_options(p)
    _common(p, "one object per system (the baseline first, also with one system against it) "
               "with keys system, baseline, metrics (metric -> score, p_value, mean, ci, "
               "interval), signature")
    p.set_defaults(func=cmd_compare)


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - for debugging
    parser = argparse.ArgumentParser(prog="mtalign")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
