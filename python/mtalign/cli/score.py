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

import numpy as np

from mtalign import __version__, registry
from mtalign.cli.common import load_references
from mtalign.io import read_lines
from mtalign.metrics.rouge import Rouge

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


def cmd_demo(args: argparse.Namespace) -> int:
    from mtalign.demo import load_sample

    systems, refs = load_sample()
    scorer = Rouge(DEMO_METRICS, multi_ref="max")
    print(f"mtalign {__version__} demo: WMT21 newstest2021 de-en, {len(refs)} segments, "
          f"{len(refs[0])} references each, {len(systems)} systems (ROUGE F, multi_ref=max)\n")
    width = max(len(s) for s in systems)
    header = f"{'system':<{width}}  " + "  ".join(f"{m:>10}" for m in DEMO_METRICS)
    print(header)
    print("-" * len(header))
    signature = ""
    for name, hyps in systems.items():
        res = scorer.corpus_score(hyps, refs, threads=args.threads)
        signature = res.signature
        cells = "  ".join(f"{res[m].fmeasure:10.4f}" for m in DEMO_METRICS)
        print(f"{name:<{width}}  {cells}")
    print(f"\nsignature: {signature}")
    print("data: an extract of WMT21 (research use); see mtalign/data/README.md")
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

    d = sub.add_parser("demo", help="score the WMT21 de-en sample shipped with mtalign")
    d.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    d.set_defaults(func=cmd_demo)
