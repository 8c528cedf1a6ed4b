"""``mtalign correlate`` and ``mtalign compare``: meta-evaluation and paired system tests on
the command line. :func:`add_commands` registers both on the ``mtalign`` parser.

``mtalign correlate --human mqm.tsv -r REF -i HYP... -m bleus rougeL ...`` correlates metric
scores (computed here, or read from ``--scores``) with human judgments from a TSV such as
WMT's MQM/DA files (columns ``line``, ``system`` or ``file``, and a score column); systems
are named as every command names them (:func:`mtalign.io.system_names`, or ``--names``). At
the system level a system's metric score is its corpus score, as WMT computes it
(``--system-score mean``: the mean of its segment scores). Error rates (WER, PER) are
negated, as WMT negates TER, so that higher is better for every metric.

``mtalign compare -r REF -i BASELINE SYSTEM... -m bleu --test bs`` runs paired bootstrap
(``bs``) or approximate randomization (``ar``) tests of each system against the first, like
``sacrebleu --paired-bs`` / ``--paired-ar``.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mtalign import registry, tables
from mtalign._mtalign import InputError, __version__
from mtalign.cli.common import (
    add_progress_options,
    bootstrap,
    count,
    finite_float,
    fraction,
    json_line,
    load_references,
    load_systems,
    positive_int,
    progress_bar,
)
from mtalign.cli.metric_options import add_metric_options
from mtalign.io import read_text, system_names
from mtalign.meta._data import system_vectors
from mtalign.meta._kernels import METHODS
from mtalign.meta.clusters import TESTS, clusters
from mtalign.meta.correlation import correlate
from mtalign.meta.paired import paired_test
from mtalign.meta.systems import SYSTEM_SCORES, SystemScores, system_scores

SCORE_COLUMNS = ("mqm", "da_z", "score", "human")
#: The metrics of ``correlate`` and ``compare`` without ``-m``.
CORRELATE_METRICS = ["bleus", "rougeL"]
COMPARE_METRICS = ["bleu"]


def _read_tsv(path: str) -> list[dict[str, Any]]:
    """The rows of a TSV file with a header (gzip, xz and bzip2 files read as they are)."""
    rows = list(csv.DictReader(io.StringIO(read_text(path), newline=""), delimiter="\t"))
    if not rows:
        raise InputError(f"{path} has no rows")
    return rows


def read_human(path: str, column: str | None, system_column: str | None) -> Human:
    """Human scores from a TSV: segment scores when it has a ``line`` column, else one score
    per system. A second score for the same system and line is an error."""
    rows = _read_tsv(path)
    header = list(rows[0].keys())
    col = column or next((c for c in SCORE_COLUMNS if c in header), None)
    if col is None or col not in header:
        raise InputError(f"{path}: no score column {column or '/'.join(SCORE_COLUMNS)} "
                         f"(columns: {', '.join(header)})")
    key = system_column or ("file" if "file" in header else "system")
    if key not in header:
        raise InputError(f"{path}: no system column {key!r}")
    level = "segment" if "line" in header else "system"
    human = Human(path, level, {}, {})
    for i, r in enumerate(rows, start=2):
        name = (r.get(key) or "").strip()
        value = (r.get(col) or "").strip()
        if not name or value in ("", "None", "nan", "NaN"):
            continue
        try:
            v = float(value)
        except ValueError:
            raise InputError(f"{path}:{i}: {col} is not a number: {value!r}") from None
        line = 0
        if level == "segment":
            raw = (r.get("line") or "").strip()
            if not raw.isdigit():
                raise InputError(f"{path}:{i}: line is not a line number: {raw!r}")
            line = int(raw)
        if (name, line) in human.row:
            raise InputError(f"{path}:{i}: a second score for system {name!r}"
                             + (f" line {line}" if level == "segment" else "")
                             + f" (the first is on line {human.row[name, line]})")
        human.scores.setdefault(name, {})[line] = v
        human.row[name, line] = i
    return human


class Human(NamedTuple):
    """Human scores: ``scores[system][line]`` (line 0 for system-level scores) and, for
    messages, the file's row of each entry."""

    path: str
    level: str
    scores: dict[str, dict[int, float]]
    row: dict[tuple[str, int], int]

    def check_test_set(self, systems: Sequence[str], n_lines: int) -> None:
        """A scored system's human line outside the test set is an error naming the file and
        row; systems the file scores but the command does not are named in one warning."""
        outside = [(self.row[name, line], name, line) for name in systems
                   for line in self.scores.get(name, {})
                   if self.level == "segment" and not 1 <= line <= n_lines]
        if outside:  # the first such row of the file
            row, name, line = min(outside)
            raise InputError(f"{self.path}:{row}: line {line} of {name} is outside the test "
                             f"set (lines 1-{n_lines})")
        unscored = [s for s in self.scores if s not in systems]
        if unscored:
            print(f"mtalign: warning: {self.path} scores systems that are not scored here "
                  f"(left out): {', '.join(unscored)}", file=sys.stderr)

    def matrix(self, systems: Sequence[str], n_lines: int) -> np.ndarray:
        """(systems, lines) segment scores (NaN: not judged), or (systems,) system scores."""
        if self.level == "system":
            return np.array([self.scores[s][0] for s in systems], dtype=np.float64)
        h = np.full((len(systems), n_lines), math.nan)
        for i, s in enumerate(systems):
            for line, v in self.scores[s].items():
                h[i, line - 1] = v
        return h


def _number(path: str, row: int, column: str, value: str | None) -> float:
    try:
        return float(value or "")
    except ValueError:
        raise InputError(f"{path}:{row}: {column} is not a number: {value!r}") from None


def read_scores(path: str) -> tuple[dict[str, dict[str, dict[int, float]]],
                                    dict[str, dict[str, float]]]:
    """``--scores``: the TSV that ``mtalign score -f tsv`` writes (columns ``system``,
    ``line``, one per metric; ``line`` is a segment number, or ``corpus`` on the row of a
    system's corpus score). Without a ``line`` column every row is a system's score.

    Returns ``(segments[metric][system][line], corpus[metric][system])``.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.tsv")
    >>> _ = open(path, "w").write("system\\tline\\tbleu\\nA\\t1\\t30.5\\nA\\tcorpus\\t28.0\\n")
    >>> read_scores(path)
    ({'bleu': {'A': {1: 30.5}}}, {'bleu': {'A': 28.0}})
    """
    rows = _read_tsv(path)
    header = list(rows[0].keys())
    if "system" not in header:
        raise InputError(f"{path}: needs a 'system' column (columns: {', '.join(header)})")
    metrics = [c for c in header if c not in ("system", "line")]
    segments: dict[str, dict[str, dict[int, float]]] = {m: {} for m in metrics}
    corpus: dict[str, dict[str, float]] = {m: {} for m in metrics}
    for i, r in enumerate(rows, start=2):
        system = (r["system"] or "").strip()
        raw = (r.get("line") or "corpus").strip()
        if raw != "corpus" and not raw.isdigit():
            raise InputError(f"{path}:{i}: line is neither a line number nor 'corpus': "
                             f"{raw!r}")
        for m in metrics:
            v = _number(path, i, m, r[m])
            if raw == "corpus":
                corpus[m][system] = v
            else:
                segments[m].setdefault(system, {})[int(raw)] = v
    return segments, corpus


def _signature(args: argparse.Namespace, n_refs: int, resample: str) -> str:
    eps = args.epsilon if args.epsilon is not None else "none"
    sys_score = (f"sys:{args.system_score}|resample:{resample}|"
                 if args.corr_level == "system" else "")
    return (f"method:{args.method}|level:{args.corr_level}|{sys_score}group_by:{args.group_by}|"
            f"eps:{eps}|bs:{args.n_bootstrap}|ci:{args.ci}|seed:{args.seed}|nrefs:{n_refs}|"
            f"version:{__version__}")


def _from_scores_file(args: argparse.Namespace, human: Human
                      ) -> tuple[list[str], int, dict[str, Any]]:
    """Systems, number of lines and per-metric scores read from ``--scores``: (systems,
    lines) matrices, or (systems,) corpus scores at the system level."""
    segments, corpus = read_scores(args.scores)
    corpus_level = args.corr_level == "system" and args.system_score == "corpus"
    table: dict[str, dict[str, Any]] = dict(corpus if corpus_level else segments)
    if not any(table.values()):
        raise InputError(
            f"{args.scores} has no corpus rows (line 'corpus', as `mtalign score -f tsv` "
            "writes them): use --system-score mean" if corpus_level else
            f"{args.scores} has no segment rows (a line number in a 'line' column): "
            + ("--system-score mean averages them" if args.corr_level == "system" else
               "use --corr-level system"))
    scored = list(next(iter(table.values())))
    n_lines = max((ln for t in segments.values() for d in t.values() for ln in d), default=0)
    if n_lines == 0:  # corpus rows only: the test set's lines are the human file's
        n_lines = max((ln for s in scored for ln in human.scores.get(s, {})), default=0)
    human.check_test_set(scored, n_lines)
    systems = [s for s in scored if s in human.scores and all(s in t for t in table.values())]
    if corpus_level:
        return systems, n_lines, {m: np.array([t[s] for s in systems])
                                  for m, t in table.items()}
    return systems, n_lines, {m: np.array([[t[s].get(ln, math.nan)
                                            for ln in range(1, n_lines + 1)]
                                           for s in systems]) for m, t in segments.items()}


def _from_files(args: argparse.Namespace, human: Human
                ) -> tuple[list[str], int, dict[str, Any]]:
    """Systems, number of lines and per-metric scores of ``-i`` files: (systems, lines)
    matrices, or :func:`~mtalign.meta.system_scores` (corpus scores) at the system level."""
    if not args.input or not args.refs:
        raise InputError("give -r/--refs and -i/--input hypothesis files, or --scores")
    outputs = load_systems(args.input)
    names = system_names(args.input, args.names)
    refs = load_references(args.refs, len(outputs), args.input[0])
    n_lines = len(outputs)
    human.check_test_set(names, n_lines)
    systems = [s for s in names if s in human.scores]
    skipped = [s for s in names if s not in human.scores]
    if skipped:
        print(f"mtalign: note: no human scores for {', '.join(skipped)}", file=sys.stderr)
    columns = {s: [row[names.index(s)] for row in outputs] for s in systems}
    options = registry.MetricOptions.from_args(args)
    corpus_level = args.corr_level == "system" and args.system_score == "corpus"
    scores: dict[str, Any] = {}
    bar = progress_bar(args, "scoring")
    for k, name in enumerate(args.metrics):
        metric, variant = registry.make_metric(name, options)
        higher = getattr(metric, "higher_is_better", True)
        if corpus_level and systems:
            ss = system_scores(metric, columns, refs, variant=variant, threads=args.threads)
            scores[name] = ss if higher else -ss  # error rates negated, as WMT negates TER
        else:
            hyps = [h for s in systems for h in columns[s]]
            flat = np.asarray(metric.scalar_scores(hyps, refs * len(systems), variant=variant,
                                                   threads=args.threads), dtype=np.float64)
            scores[name] = (flat if higher else -flat).reshape(len(systems), n_lines)
        bar(k + 1, len(args.metrics))
    bar.close()
    return systems, n_lines, scores


def cmd_correlate(args: argparse.Namespace) -> int:
    human = read_human(args.human, args.human_column, args.human_system_column)
    if human.level == "system" and args.corr_level != "system":
        raise InputError(f"{args.human} has system-level scores: use --corr-level system")
    if args.scores:
        systems, n_lines, scores = _from_scores_file(args, human)
        n_refs = 0
    else:
        systems, n_lines, scores = _from_files(args, human)
        n_refs = len(args.refs)
    if len(systems) < 2:
        raise InputError(f"fewer than 2 systems have both metric and human scores "
                         f"({', '.join(systems) or 'none'})")
    h = human.matrix(systems, n_lines)
    # What is correlated: segment matrices; at the system level corpus scores (WMT's way:
    # against the mean human score of each system) or, on request, means of segment scores.
    matrices: dict[str, Any] = {}
    for m, mat in scores.items():
        if isinstance(mat, np.ndarray) and mat.ndim == 2 and h.ndim == 1:
            mat = np.nanmean(mat, axis=1)  # system-level human scores, mean system scores
        matrices[m] = mat
    h_sys = h
    if h.ndim == 2 and any(not (isinstance(v, np.ndarray) and v.ndim == 2)
                           for v in matrices.values()):
        _, h_sys = system_vectors(np.zeros_like(h), h, systems)  # each system's mean
    eps: Any = args.epsilon
    results = {}
    for m, mat in matrices.items():
        vs = h_sys if isinstance(mat, np.ndarray) and mat.ndim == 1 else h
        c = correlate(mat, vs, method=args.method, level=args.corr_level,
                      group_by=args.group_by, epsilon=eps,
                      n_bootstrap=bootstrap(args.n_bootstrap), seed=args.seed, ci=args.ci)
        results[m] = c.to_dict()
    ranking = None
    if args.clusters and len(matrices) > 1:
        plain = {m: v.scores if isinstance(v, SystemScores) else v for m, v in matrices.items()}
        vs = h_sys if any(v.ndim == 1 for v in plain.values()) else h
        cl = clusters(plain, vs, method=args.method, level=args.corr_level,
                      group_by=args.group_by, epsilon=eps, test=args.test, k=args.k,
                      seed=args.seed)
        ranking = cl.to_dict()
        for place in cl.ranking:
            results[place.name]["rank"] = place.rank
    # At the system level the interval resamples segments, except where only system scores
    # are known (corpus rows of --scores, system-level human scores): then systems.
    resample = "systems" if any(isinstance(v, np.ndarray) and v.ndim == 1
                                for v in matrices.values()) or h.ndim == 1 else "segments"
    signature = _signature(args, n_refs, resample)
    if args.format == "json":  # JSON Lines: one object per metric, whatever their number
        for m, r in results.items():
            r.setdefault("rank", None)
            print(json_line({"metric": m, **r, "systems": systems, "signature": signature,
                             "clusters": ranking}))
        return 0
    order = sorted(results, key=lambda m: -np.nan_to_num(results[m]["value"], nan=-9))
    intervals = (f"{int(100 * args.ci)}% bootstrap CI" if args.n_bootstrap
                 else "no intervals (--n-bootstrap 0)")
    title = (f"# {args.method} at {args.corr_level} level, group_by {args.group_by}: "
             f"{len(systems)} systems, {intervals}; error rates negated (higher is better "
             f"for every metric)")
    columns = [tables.Column(args.method, tables.correlation_note(args.method)),
               *([tables.Column(f"{int(100 * args.ci)}% CI")] if args.n_bootstrap else []),
               tables.Column("n")]
    if ranking:
        columns.append(tables.Column("rank", "↓ ≥1"))
    cells = []
    for m in order:
        r = results[m]
        lo, hi = r["ci"] or (math.nan, math.nan)  # None: no interval (an undefined value)
        cells.append([m, f"{r['value']:.4f}",
                      *([f"[{lo:.4f}, {hi:.4f}]"] if args.n_bootstrap else []), str(r["n"]),
                      *([str(r.get("rank", ""))] if ranking else [])])
    text = tables.wrap(title) + tables.table([tables.label("metric")], columns, cells)
    print("\n".join(text + [""] + tables.wrap(f"signature: {signature}")))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    if len(args.input) < 2:
        raise InputError("compare needs a baseline and at least one system (-i BASE SYS...)")
    outputs = load_systems(args.input)
    names = system_names(args.input, args.names)
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
    if args.format == "json":  # JSON Lines: one object per system, the baseline first
        for name in names:
            print(json_line({"system": name, "baseline": names[0],
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


def _common(p: argparse.ArgumentParser, shape: str) -> None:
    p.add_argument("-f", "--format", default="text", choices=("text", "json"),
                   help=f"output format: text = tables of at most 80 columns, each metric "
                        f"with its direction (↑/↓) and scale; json = JSON Lines, {shape} "
                        f"(default: %(default)s)")
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
                                   "or file, and a score column). At the system level a "
                                   "system's metric score is its corpus score, as WMT "
                                   "computes it (--system-score mean: the mean of its "
                                   "segment scores). Error rates (WER, PER, TER) are negated "
                                   "so that higher is better for every metric. "
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
                   help="system outputs (named by their file names without the part all "
                        "share, e.g. ende.hyp.Online-W.de -> Online-W; see --names)")
    c.add_argument("--names", nargs="+", metavar="NAME",
                   help="the systems' names, one per -i file, in order")
    c.add_argument("--system-score", dest="system_score", default="corpus",
                   choices=SYSTEM_SCORES,
                   help="a system's metric score at --corr-level system: its corpus score "
                        "(WMT's way, e.g. corpus BLEU) or the mean of its segment scores "
                        "(default: %(default)s)")
    c.add_argument("-m", "--metrics", nargs="+", default=CORRELATE_METRICS,
                   metavar="METRIC", help=f"metric names ({registry.names_help()}) "
                                          f"(default: {' '.join(CORRELATE_METRICS)})")
    c.add_argument("--scores", metavar="TSV",
                   help="read metric scores instead: the TSV of mtalign score -f tsv "
                        "(columns system, line, one per metric)")
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
    add_metric_options(c)
    _common(c, "one object per metric (also for one) with keys metric, value, ci, n, epsilon, "
               "n_groups, method, level, group_by, rank (null without --clusters), systems, "
               "signature, clusters (null without --clusters)")
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
    p.add_argument("--names", nargs="+", metavar="NAME",
                   help="the systems' names, one per -i file, in order (default: the file "
                        "names without the part all share)")
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
    add_metric_options(p)
    _common(p, "one object per system (the baseline first, also with one system against it) "
               "with keys system, baseline, metrics (metric -> score, p_value, mean, ci, "
               "interval), signature")
    p.set_defaults(func=cmd_compare)


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - for debugging
    parser = argparse.ArgumentParser(prog="mtalign")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
