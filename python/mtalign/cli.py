"""The ``mtalign`` command line.

``mtalign score -r REF [REF ...] -i HYP [-m rougeL rougeS4 ...]`` scores a hypothesis file
against one or more reference files (one segment per line, UTF-8, aligned line by line);
``mtalign demo`` scores the sample shipped inside the package.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mtalign import __version__
from mtalign.errors import MtalignError
from mtalign.rouge import MULTI_REF, TOKENIZERS, Rouge, Score

DEFAULT_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"]
DEMO_METRICS = ["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS0", "rougeS4", "rougeS9",
                "rougeS*", "rougeSU4", "rougeSU*"]


class CliError(Exception):
    """A problem with the command's files or arguments, reported without a traceback."""


def read_lines(path: str) -> list[str]:
    """Reads a UTF-8 file, one segment per line (a final newline is not a segment)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise CliError(f"{path}: line {line} is not valid UTF-8 (byte offset {e.start})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def load_references(paths: Sequence[str], n_hyps: int, hyp_path: str) -> list[list[str]]:
    """Reads reference files and checks that each has as many lines as the hypotheses."""
    ref_files = [read_lines(p) for p in paths]
    for path, lines in zip(paths, ref_files, strict=True):
        if len(lines) != n_hyps:
            raise CliError(
                f"{path} has {len(lines)} lines but {hyp_path} has {n_hyps}; "
                "files must be aligned line by line"
            )
    return [list(refs) for refs in zip(*ref_files, strict=True)]


def _format_text(name: str, result_dict: dict) -> str:
    lines = [f"# {name}"]
    width = max([len("metric")] + [len(k) for k in result_dict["scores"]])
    lines.append(f"{'metric':<{width}}  precision  recall  fmeasure")
    for k, s in result_dict["scores"].items():
        lines.append(f"{k:<{width}}  {s['precision']:9.4f}  {s['recall']:6.4f}  "
                     f"{s['fmeasure']:8.4f}")
    lines.append(f"signature: {result_dict['signature']}")
    return "\n".join(lines)


def _format_tsv(result_dict: dict, per_sentence: dict[str, np.ndarray] | None) -> str:
    if per_sentence is not None:
        names = list(per_sentence)
        header = ["line"] + [f"{n}_{c}" for n in names for c in ("P", "R", "F")]
        rows = ["\t".join(header)]
        n = next(iter(per_sentence.values())).shape[0]
        for i in range(n):
            cells = [str(i + 1)]
            for name in names:
                cells += [repr(float(x)) for x in per_sentence[name][i]]
            rows.append("\t".join(cells))
        return "\n".join(rows)
    rows = ["metric\tprecision\trecall\tfmeasure"]
    for k, s in result_dict["scores"].items():
        rows.append(f"{k}\t{s['precision']!r}\t{s['recall']!r}\t{s['fmeasure']!r}")
    return "\n".join(rows)


def cmd_score(args: argparse.Namespace) -> int:
    hyps = read_lines(args.input)
    refs = load_references(args.refs, len(hyps), args.input)
    scorer = Rouge(args.metrics, tokenize=args.tokenize, lowercase=not args.no_lowercase,
                   beta=args.beta, multi_ref=args.multi_ref, jackknife=args.jackknife)
    result = scorer.corpus_score(hyps, refs, threads=args.threads)
    out = result.to_dict()
    per_sentence = result.per_sentence if args.sentence_level else None
    if args.format == "json":
        if per_sentence is not None:
            out["sentences"] = [
                {name: Score(*map(float, arr[i]))._asdict() for name, arr in per_sentence.items()}
                for i in range(result.n_sentences)
            ]
        print(json.dumps(out, indent=1, ensure_ascii=False))
    elif args.format == "tsv":
        print(_format_tsv(out, per_sentence))
    else:
        print(_format_text(args.input, out))
        if per_sentence is not None:
            print(_format_tsv(out, per_sentence))
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mtalign", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"mtalign {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("score", help="score a hypothesis file against reference files",
                       description="Score HYP against one or more reference files (UTF-8, one "
                                   "segment per line, aligned). Prints JSON by default.")
    s.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                   help="reference file(s); several files = several references per segment")
    s.add_argument("-i", "--input", required=True, metavar="HYP", help="hypothesis file")
    s.add_argument("-m", "--metrics", nargs="+", default=DEFAULT_METRICS, metavar="METRIC",
                   help="ROUGE variants: rouge1..rouge9, rougeL, rougeW-<w>, rougeS<d>, "
                        "rougeS*, rougeSU<d>, rougeSU* (default: %(default)s)")
    s.add_argument("--tokenize", default="unicode", choices=TOKENIZERS,
                   help="tokenizer (default: %(default)s)")
    s.add_argument("--no-lowercase", action="store_true", help="keep case")
    s.add_argument("--multi-ref", default="max", choices=MULTI_REF,
                   help="how several references combine (default: %(default)s)")
    s.add_argument("--jackknife", action="store_true",
                   help="mean over leave-one-out reference sets (needs >= 2 references)")
    s.add_argument("--beta", type=float, default=1.0, help="F-measure beta (default: 1)")
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
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (CliError, MtalignError) as e:
        print(f"mtalign: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
