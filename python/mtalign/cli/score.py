"""``mtalign score`` and ``mtalign demo``: corpus and sentence scores of hypothesis files.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_commands(sub)
>>> sorted(sub.choices)
['demo', 'score']
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from mtalign import __version__, registry
from mtalign.cli.common import load_references
from mtalign.io import read_lines
from mtalign.metrics.results import RougeResult

DEFAULT_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]
DEMO_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS0", "rougeS4", "rougeS9",
                "rougeS*", "rougeSU4", "rougeSU*"]

FIELDS = ("precision", "recall", "fmeasure", "score")


def compute(args: argparse.Namespace, hyps: list[str], refs: list[list[str]]) -> dict:
    """Scores every requested metric: corpus values, per-sentence arrays, signatures."""
    scores: dict[str, dict[str, float]] = {}
    sentences: dict[str, tuple[tuple[str, ...], np.ndarray]] = {}
    signatures: dict[str, str] = {}
    counts = {"n_sentences": len(hyps), "n_empty_hyps": 0, "n_empty_refs": 0}
    options = registry.MetricOptions.from_args(args)
    for fam, metric, names in registry.group_metrics(args.metrics, options):
        rep = fam.report(metric, names, hyps, refs, args.threads)
        scores.update(rep.scores)
        sentences.update(rep.sentences)
        signatures[names[0] if fam.per_name else fam.name] = rep.signature
        counts["n_empty_hyps"] = max(counts["n_empty_hyps"], rep.n_empty_hyps)
        counts["n_empty_refs"] = max(counts["n_empty_refs"], rep.n_empty_refs)
    out: dict = {"scores": scores, **counts}
    if len(signatures) == 1:
        out["signature"] = next(iter(signatures.values()))
    out["signatures"] = signatures
    return {"out": out, "sentences": sentences}


def _format_text(name: str, out: dict) -> str:
    lines = [f"# {name}"]
    width = max([len("metric")] + [len(k) for k in out["scores"]])
    used = [f for f in FIELDS if any(f in v for v in out["scores"].values())]
    lines.append(f"{'metric':<{width}}  " + "  ".join(f"{f:>9}" for f in used))
    for k, vals in out["scores"].items():
        cells = [f"{vals[f]:9.4f}" if f in vals else " " * 9 for f in used]
        lines.append(f"{k:<{width}}  " + "  ".join(cells))
    for family, sig in out["signatures"].items():
        lines.append(f"signature ({family}): {sig}")
    return "\n".join(lines)


def _format_tsv(out: dict, sentences: dict | None) -> str:
    if sentences is not None:
        short = {"precision": "P", "recall": "R", "fmeasure": "F", "score": ""}
        header = ["line"]
        for name, (cols, _) in sentences.items():
            header += [f"{name}_{short[c]}" if short[c] else name for c in cols]
        rows = ["\t".join(header)]
        n = out["n_sentences"]
        for i in range(n):
            cells = [str(i + 1)]
            for _, arr in sentences.values():
                cells += [repr(float(x)) for x in arr[i]]
            rows.append("\t".join(cells))
        return "\n".join(rows)
    rows = ["metric\tfield\tvalue"]
    for k, vals in out["scores"].items():
        rows += [f"{k}\t{f}\t{v!r}" for f, v in vals.items()]
    return "\n".join(rows)


def cmd_score(args: argparse.Namespace) -> int:
    hyps = read_lines(args.input)
    refs = load_references(args.refs, len(hyps), args.input)
    computed = compute(args, hyps, refs)
    out = computed["out"]
    sentences = computed["sentences"] if args.sentence_level else None
    if args.format == "json":
        if sentences is not None:
            out["sentences"] = [
                {name: dict(zip(cols, map(float, arr[i]), strict=True))
                 for name, (cols, arr) in sentences.items()}
                for i in range(len(hyps))
            ]
        print(json.dumps(out, indent=1, ensure_ascii=False))
    elif args.format == "tsv":
        print(_format_tsv(out, sentences))
    else:
        print(_format_text(args.input, out))
        if sentences is not None:
            print(_format_tsv(out, sentences))
    return 0


#: The metrics ``mtalign demo`` compares (registry names).
DEMO_METRICS = ["bleu", "chrf", "chrf++", "ter", "rougeL", "rougeSU4", "wer", "ribes"]


def cmd_demo(args: argparse.Namespace) -> int:
    from mtalign import meta
    from mtalign.demo import load_mqm_sample
    from mtalign.ranking import orange

    systems, refs, mqm = load_mqm_sample()
    names = list(systems)
    n_boot = args.n_bootstrap
    print(f"mtalign {__version__} demo: WMT21 newstest2021 en-de, {len(refs)} segments, "
          f"{len(refs[0])} references (A, C), {len(systems)} systems rated by MQM\n")
    metrics = {m: registry.make_metric(m) for m in DEMO_METRICS}
    human = np.stack([mqm[s] for s in names])
    # 1. The metric table: corpus scores, and the MQM average for comparison.
    width = max(len(s) for s in names)
    header = f"{'system':<{width}}  {'MQM':>7}  " + "  ".join(f"{m:>8}" for m in metrics)
    print(header)
    print("-" * len(header))
    seg: dict[str, np.ndarray] = {}
    for m, (metric, variant) in metrics.items():
        seg[m] = np.stack([metric.scalar_scores(systems[s], refs, variant, args.threads)
                           for s in names])
    def corpus(metric: Any, variant: str | None, hyps: list[str]) -> float:
        res = metric.corpus_score(hyps, refs, args.threads)
        if isinstance(res, RougeResult):  # F, in percent like the others
            return 100.0 * res[variant or res.variants[0]].fmeasure
        return float(res)

    table = {m: [corpus(metric, variant, systems[s]) for s in names]
             for m, (metric, variant) in metrics.items()}
    for i, s in enumerate(names):
        cells = "  ".join(f"{table[m][i]:8.2f}" for m in metrics)
        print(f"{s:<{width}}  {np.nanmean(human[i]):7.3f}  {cells}")
    # 2. The metrics ranked by correlation with MQM (sentence scores; error rates negated).
    print(f"\nCorrelation with MQM (Pearson, 95% bootstrap CI over segments, {n_boot} "
          f"resamples; error rates negated; system level = mean sentence scores)")
    rows = []
    for m, (metric, variant) in metrics.items():
        sign = 1.0 if metric.higher_is_better else -1.0
        sys_c = meta.correlate(sign * seg[m], human, level="system", n_bootstrap=n_boot)
        seg_c = meta.correlate(sign * seg[m], human, level="segment", n_bootstrap=n_boot)
        res = orange(metric, [[systems[s][i] for s in names] for i in range(len(refs))],
                     refs, variant=variant, n_bootstrap=n_boot, threads=args.threads)
        rows.append((m, sys_c, seg_c, res))
    rows.sort(key=lambda r: -r[1].value)
    print(f"{'rank':>4}  {'metric':<9} {'system r':>8} {'[95% CI]':>17}  {'segment r':>9} "
          f"{'[95% CI]':>17}  {'ORANGE':>7} {'[95% CI]':>17}")
    for k, (m, sys_c, seg_c, res) in enumerate(rows, 1):
        print(f"{k:>4}  {m:<9} {sys_c.value:8.3f} [{sys_c.ci[0]:6.3f}, {sys_c.ci[1]:6.3f}]  "
              f"{seg_c.value:9.3f} [{seg_c.ci[0]:6.3f}, {seg_c.ci[1]:6.3f}]  "
              f"{res.orange:7.3f} [{res.ci[0]:6.3f}, {res.ci[1]:6.3f}]")
    print("\nORANGE: the mean rank of the references among the 8 system outputs, as a share "
          "of 9 places (lower is better;\nreferences always above every output give 1/9 = "
          "0.111). Ranked by system-level r.")
    print("With 8 systems the system-level intervals are wide: read them before the ranks.")
    print("data: an extract of WMT21 (research use) with MQM scores (Apache-2.0); see "
          "mtalign/data/README.md")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Adds ``score`` and ``demo`` to the ``mtalign`` subcommands."""
    s = sub.add_parser("score", help="score a hypothesis file against reference files",
                       description="Score HYP against one or more reference files (UTF-8, one "
                                   "segment per line, aligned). Prints JSON by default.")
    s.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    s.add_argument("-i", "--input", required=True, metavar="HYP", help="hypothesis file")
    s.add_argument("-m", "--metrics", nargs="+", default=DEFAULT_METRICS, metavar="METRIC",
                   help=f"metric names ({registry.names_help()}) (default: %(default)s)")
    registry.add_metric_options(s)
    s.add_argument("-f", "--format", default="json", choices=("json", "text", "tsv"),
                   help="output format (default: %(default)s)")
    s.add_argument("--sentence-level", action="store_true",
                   help="also print the scores of every segment")
    s.add_argument("--threads", type=int, default=None,
                   help="threads (default: all cores, or MTALIGN_NUM_THREADS)")
    s.set_defaults(func=cmd_score)

    d = sub.add_parser("demo", help="judge metrics against MQM on the WMT21 en-de sample "
                                    "shipped with mtalign: scores, correlations, ORANGE")
    d.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    d.add_argument("--n-bootstrap", type=int, default=1000,
                   help="bootstrap resamples of the intervals (default: %(default)s)")
    d.set_defaults(func=cmd_demo)
