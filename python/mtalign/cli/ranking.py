"""``mtalign orange`` and ``mtalign rerank``: the command-line side of ORANGE and reranking.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_commands(sub)
>>> sorted(sub.choices)
['orange', 'rerank']
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from mtalign import registry, tables
from mtalign._progress import Progress
from mtalign.cli.common import (
    CliError,
    add_progress_options,
    count,
    finite_float,
    json_line,
    load_references,
    load_systems,
    positive_int,
    progress_bar,
)
from mtalign.cli.metric_options import add_metric_options
from mtalign.errors import InputError
from mtalign.io import NBestEntry, nbest_hypotheses, read_nbest
from mtalign.ranking.orange import ORACLES, OrangeCurve, OrangeResult, orange, plot_curves
from mtalign.ranking.rerank import rerank

ORANGE_METRICS = ["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]


class _Combined:
    """Progress over several metrics on one bar."""

    def __init__(self, bar: Progress, k: int, n_metrics: int) -> None:
        self.bar, self.k, self.n = bar, k, n_metrics

    def __call__(self, done: int, total: int) -> None:
        self.bar(self.k * total + done, self.n * total)


def _load(args: argparse.Namespace) -> tuple[list[list[str]], list[list[str]], str]:
    """Candidate lists, reference sets and a description of the candidates' source."""
    if args.nbest is not None:
        refs = load_references(args.refs)
        nbest = read_nbest(args.nbest, n_sentences=len(refs))
        return nbest_hypotheses(nbest), refs, args.nbest
    cands = load_systems(args.systems)
    refs = load_references(args.refs, len(cands), args.systems[0])
    return cands, refs, f"{len(args.systems)} system outputs"


def _curve_sizes(longest: int) -> list[int]:
    if longest <= 200:
        return list(range(1, longest + 1))
    step = math.ceil(longest / 100)
    return sorted({1, *range(step, longest + 1, step), longest})


def _text_report(results: dict[str, OrangeResult], curves: dict[str, OrangeCurve] | None,
                 where: str, n_refs: str, n_bootstrap: int) -> str:
    first = next(iter(results.values()))
    sizes = first.list_sizes
    size_desc = str(sizes[0]) if sizes.min() == sizes.max() else f"{sizes.min()}-{sizes.max()}"
    lines = tables.wrap(f"# ORANGE of {len(results)} metric(s) on {where}: "
                        f"{first.n_sentences} sentences (+{first.n_dropped} dropped), lists of "
                        f"{size_desc}, {n_refs} references, oracle {first.oracle}")
    lines += tables.wrap("ORANGE (Lin & Och 2004, eq. 10) on its 0-1 scale: the oracle's "
                         "rank among the candidates divided by (list length + 1), averaged "
                         "over sentences; lower is better (the paper's tables print it as a "
                         "percentage: 0.1966 = 19.66%). "
                         + ("95% CI from a bootstrap over sentences." if n_bootstrap
                            else "No intervals (--bootstrap 0)."))
    rank_note = f"↓ 1-{sizes.max() + 1}" if sizes.min() == sizes.max() else "↓ ≥1"
    ci = [tables.Column("95% CI")] if n_bootstrap else []
    columns = [tables.Column("ORANGE", f"↓ {tables.ORANGE_SCALE}"), *ci,
               tables.Column("avg rank", rank_note), *ci]
    rows = [[name, f"{r.orange:.4f}",
             *([f"[{r.ci[0]:.4f}, {r.ci[1]:.4f}]"] if n_bootstrap else []), f"{r.avg_rank:.2f}",
             *([f"[{r.rank_ci[0]:.2f}, {r.rank_ci[1]:.2f}]"] if n_bootstrap else [])]
            for name, r in results.items()]
    lines += tables.table([tables.label("metric")], columns, rows)
    if curves:
        names = list(curves)
        c0 = curves[names[0]]
        lines += ["", "# ORANGE by list length N (first N candidates)"]
        columns = [tables.Column(n, f"↓ {tables.ORANGE_SCALE}") for n in names]
        columns.append(tables.Column("sentences"))
        rows = [[str(n), *(f"{curves[m].orange[k]:.4f}" for m in names),
                 str(c0.n_sentences[k])] for k, n in enumerate(c0.sizes)]
        lines += tables.table([tables.label("N")], columns, rows)
    lines += tables.signature_lines({name: r.signature for name, r in results.items()})
    return "\n".join(lines)


def cmd_orange(args: argparse.Namespace) -> int:
    if len(args.refs) < 2:
        raise CliError("orange needs at least 2 reference files (-r/--refs): each reference "
                       "is ranked among the candidates by its score against the others")
    cands, refs, where = _load(args)
    options = registry.MetricOptions.from_args(args)
    metrics = [(name, *registry.make_metric(name, options)) for name in args.metrics]
    bar = progress_bar(args, "mtalign orange")
    results: dict[str, OrangeResult] = {}
    try:
        for k, (name, metric, variant) in enumerate(metrics):
            results[name] = orange(metric, cands, refs, variant=variant, oracle=args.oracle,
                                   min_size=args.min_size, n_bootstrap=args.bootstrap,
                                   seed=args.seed, threads=args.threads,
                                   progress=_Combined(bar, k, len(metrics)))
            results[name].label = name
    finally:
        bar.close()
    curves = None
    if args.curve or args.plot:
        longest = int(next(iter(results.values())).list_sizes.max())
        grid = _curve_sizes(longest)
        curves = {name: r.curve(grid) for name, r in results.items()}
    if args.plot:
        try:
            plot_curves(list(curves.values()) if curves else [], path=args.plot,
                        title=f"ORANGE vs list length ({where})")
        except ImportError as e:
            raise CliError(str(e)) from None
        except OSError as e:
            raise CliError(f"cannot write {args.plot}: {e.strerror or e}") from None
    counts = {len(r) for r in refs}
    n_refs = str(counts.pop()) if len(counts) == 1 else "varying"
    if args.format == "json":  # JSON Lines: one object per metric, whatever their number
        for name, r in results.items():
            entry = {"metric": name, "candidates": where, "n_refs": n_refs,
                     **r.to_dict(sentences=args.sentence_level),
                     "curve": curves[name].to_dict() if args.curve and curves else None,
                     "plot": args.plot}
            print(json_line(entry))
    else:
        print(_text_report(results, curves if args.curve else None, where, n_refs,
                           args.bootstrap))
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0


def _weights(specs: list[str] | None) -> dict[str, float | list[float]] | None:
    """``NAME=V[,V...]`` items → feature weights (one value: the weight of every value of
    the feature)."""
    if not specs:
        return None
    out: dict[str, float | list[float]] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.rstrip(":")
        if not sep or not name or not values:
            raise CliError(f"--weights: expected NAME=V[,V...] (e.g. lm=0.5), got {spec!r}")
        if name in out:
            raise CliError(f"--weights: feature {name!r} is given twice")
        try:
            weights = [finite_float(v) for v in values.split(",")]
        except argparse.ArgumentTypeError as e:
            raise CliError(f"--weights {spec}: {e}") from None
        out[name] = weights[0] if len(weights) == 1 else weights
    return out


def _check_features(path: str, nbest: list[list[NBestEntry]],
                    weights: dict[str, float | list[float]]) -> None:
    """Every entry's features are numbers, every weighted feature is in the file, and a
    feature weighted value by value has as many values as weights (errors name the line)."""
    known: list[str] = []
    line = 0
    for entries in nbest:
        for entry in entries:
            line += 1  # one entry a line: read_nbest refuses blank lines
            try:
                values = entry.feature_values()
            except InputError as e:
                raise InputError(f"{path}: line {line}: {e}") from None
            for name, v in values.items():
                if name not in known:
                    known.append(name)
                w = weights.get(name)
                if isinstance(w, list) and v and len(w) != len(v):
                    raise InputError(f"{path}: line {line}: feature {name!r} has {len(v)} "
                                     f"values but --weights gives {len(w)} for it")
    for name in weights:
        if name not in known:
            hint = [k for k in known if k.lower() == name.lower()]
            raise CliError(f"--weights: unknown feature {name!r}"
                           + (f" (did you mean {hint[0]!r}?)" if hint else "")
                           + f"; the features of {path}: "
                           + (", ".join(known) if known else "none"))


def cmd_rerank(args: argparse.Namespace) -> int:
    weights = _weights(args.weights)
    if args.refs is None and weights is None:
        raise CliError("rerank needs -r/--refs (oracle), --weights (features), or both")
    refs: list[Any] | None = None
    if args.refs is not None:
        refs = [r[0] if len(r) == 1 else r for r in load_references(args.refs)]
    nbest = read_nbest(args.nbest, n_sentences=None if refs is None else len(refs))
    if not nbest:
        raise InputError(f"{args.nbest} is empty: no n-best entries")
    if weights is not None:
        _check_features(args.nbest, nbest, weights)
    options = registry.MetricOptions.from_args(args)
    metric, variant = registry.make_metric(args.metric, options)
    if refs is None:
        metric, variant = None, None
    bar = progress_bar(args, "mtalign rerank")
    try:
        res = rerank(metric, nbest, refs, variant=variant, threads=args.threads, progress=bar,
                     weights=weights, metric_weight=args.metric_weight)
    finally:
        bar.close()
    text = "".join(h + "\n" for h in res.hypotheses)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise CliError(f"cannot write {args.output}: {e.strerror}") from None
    sizes = np.array([len(lst) for lst in nbest])
    what = (tables.metric_header(args.metric) if weights is None
            else "combined score ↑" if refs else "feature score ↑")
    summary = (f"mtalign rerank: {len(nbest)} sentences, {int(sizes.sum())} hypotheses; mean "
               f"{what} of the first hypothesis {res.mean_score(0):.4f}, of the choice "
               f"{res.mean_score():.4f}; chose the first in {int((res.best == 0).sum())} "
               f"sentences")
    print("\n".join(tables.wrap(summary)), file=sys.stderr)
    return 0


def _metric_options(p: argparse.ArgumentParser) -> None:
    add_metric_options(p)
    p.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores, or MTALIGN_NUM_THREADS)")
    add_progress_options(p)


def add_commands(sub: Any) -> None:
    """Adds ``orange`` and ``rerank`` to the ``mtalign`` subcommands."""
    o = sub.add_parser(
        "orange", help="ORANGE: how well metrics rank references above candidates",
        description="ORANGE (Lin & Och 2004) judges a metric by how it ranks references "
                    "among candidate translations: for every source sentence, each reference "
                    "is scored against the other references and each candidate against the "
                    "same leave-one-out sets; ORANGE is the average rank of the references "
                    "among the candidates divided by (list length + 1), so lower is better. "
                    "Candidates come from system outputs aligned line by line (--systems) or "
                    "a Moses n-best list (--nbest); at least two reference files are needed.")
    src = o.add_mutually_exclusive_group(required=True)
    src.add_argument("--nbest", metavar="FILE",
                     help="Moses n-best file (id ||| hypothesis ||| features ||| score)")
    src.add_argument("--systems", nargs="+", metavar="HYP",
                     help="system output files; line i of each is a candidate for sentence i")
    o.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference files (at least 2), aligned with the sentences")
    o.add_argument("-m", "--metrics", nargs="+", default=ORANGE_METRICS, metavar="METRIC",
                   help="metric names as for mtalign score (default: "
                        f"{' '.join(ORANGE_METRICS)})")
    o.add_argument("--oracle", default="average_score", choices=ORACLES,
                   help="rank the mean reference score (paper) or average each "
                        "reference's own rank (default: %(default)s)")
    o.add_argument("--min-size", type=positive_int, default=None, metavar="N",
                   help="drop sentences with fewer than N candidates")
    o.add_argument("--n-bootstrap", "--bootstrap", dest="bootstrap", type=count, default=1000,
                   metavar="N",
                   help="bootstrap resamples for the 95%% CI (default: %(default)s; 0 = none)")
    o.add_argument("--seed", type=int, default=12345, metavar="N",
                   help="bootstrap seed (default: %(default)s)")
    o.add_argument("-f", "--format", default="text", choices=("json", "text"),
                   help="output format: text = tables of at most 80 columns; json = JSON "
                        "Lines, one object per metric (also for one) with keys metric, "
                        "candidates, n_refs, orange (0-1, lower is better), avg_rank, ci, "
                        "rank_ci, n_sentences, n_dropped, oracle, higher_is_better, "
                        "n_bootstrap, seed, signature, curve (null without --curve), plot "
                        "(null without --plot) and sentences with --sentence-level "
                        "(default: %(default)s)")
    o.add_argument("--curve", action="store_true",
                   help="also report ORANGE for every list length N (prefixes of the lists)")
    o.add_argument("--plot", metavar="PNG",
                   help="draw ORANGE vs list length to PNG (needs mtalign[plot])")
    o.add_argument("--sentence-level", action="store_true",
                   help="JSON: include each sentence's reference rank")
    _metric_options(o)
    o.set_defaults(func=cmd_orange)

    r = sub.add_parser(
        "rerank", help="rerank an n-best list: oracle (metric vs references), feature "
                       "weights, or both",
        description="Pick one hypothesis from every list of a Moses n-best file and write "
                    "the picks one per line. With -r, the pick is the hypothesis the metric "
                    "scores best against the references (the oracle; ties go to the "
                    "earliest); with --weights, the one with the best sum of weight times "
                    "feature value (plus --metric-weight times the metric score when -r is "
                    "also given). A summary goes to stderr.")
    r.add_argument("--nbest", required=True, metavar="FILE",
                   help="Moses n-best file (id ||| hypothesis ||| features ||| score)")
    r.add_argument("-r", "--refs", nargs="+", default=None, metavar="REF",
                   help="reference file(s), one line per n-best id")
    r.add_argument("--weights", nargs="+", metavar="NAME=V[,V...]",
                   help="feature weights: one value for all of a feature's values, or one "
                        "per value (e.g. lm=0.5,0.5 tm=0.2 w=-1); the names are those of "
                        "the n-best file's features, case included")
    r.add_argument("--metric-weight", type=finite_float, default=1.0, metavar="W",
                   help="the metric score's weight with --weights and -r (default: 1)")
    r.add_argument("-m", "--metric", default="rougeL", metavar="METRIC",
                   help="metric name as for mtalign score (default: %(default)s)")
    r.add_argument("-o", "--output", default=None, metavar="OUT",
                   help="where to write the chosen hypotheses (default: stdout)")
    _metric_options(r)
    r.set_defaults(func=cmd_rerank)
