"""The ``mtalign`` command line.

``mtalign score -r REF [REF ...] -i HYP [-m rougeL rougeS4 dcs ...]`` scores a hypothesis file
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
from mtalign.baselines_cli import BASELINE_HELP, score_baselines, split_baselines
from mtalign.dcs import DCS_FIELDS, LEVELS, Dcs
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


FIELDS = ("precision", "recall", "fmeasure", "score")


def _split_metrics(metrics: Sequence[str]) -> tuple[list[str], list[str]]:
    rouge, dcs = [], []
    for m in metrics:
        if m in DCS_FIELDS:
            dcs.append(m)
        elif m.startswith("rouge"):
            rouge.append(m)
        else:
            raise CliError(f"unknown metric {m!r} (expected ROUGE variants such as rougeL, "
                           "rougeW-1.2, rougeS4, rougeSU4, or dcs, cs0, cs1, cs2, or "
                           f"{BASELINE_HELP})")
    return rouge, dcs


def _word_tok(args: argparse.Namespace) -> str:
    """The tokenizer for ROUGE and DCS (the baselines default to 13a instead)."""
    return args.tokenize or "unicode"


def compute(args: argparse.Namespace, hyps: list[str], refs: list[list[str]]) -> dict:
    """Scores every requested metric: corpus values, per-sentence arrays, signatures."""
    baseline_names, other_names = split_baselines(args.metrics)
    rouge_names, dcs_names = _split_metrics(other_names)
    scores: dict[str, dict[str, float]] = {}
    sentences: dict[str, tuple[tuple[str, ...], np.ndarray]] = {}
    signatures: dict[str, str] = {}
    counts = {"n_sentences": len(hyps), "n_empty_hyps": 0, "n_empty_refs": 0}
    if rouge_names:
        scorer = Rouge(rouge_names, tokenize=_word_tok(args), lowercase=not args.no_lowercase,
                       beta=args.beta, multi_ref=args.multi_ref, jackknife=args.jackknife)
        res = scorer.corpus_score(hyps, refs, threads=args.threads)
        for name in rouge_names:
            scores[name] = res[name]._asdict()
            sentences[name] = (Score._fields, res.per_sentence[name])
        signatures["rouge"] = res.signature
        counts["n_empty_hyps"] = max(counts["n_empty_hyps"], res.n_empty_hyps)
        counts["n_empty_refs"] = max(counts["n_empty_refs"], res.n_empty_refs)
    if dcs_names:
        dres = Dcs(args.level, tokenize=_word_tok(args), ignore_spaces=args.ignore_spaces,
                   multi_ref="max").corpus_score(hyps, refs, threads=args.threads)
        for name in dcs_names:
            k = DCS_FIELDS.index(name)
            scores[name] = {"score": dres.scores[k]}
            sentences[name] = (("score",), dres.per_sentence[:, k : k + 1])
        signatures["dcs"] = dres.signature
        counts["n_empty_hyps"] = max(counts["n_empty_hyps"], dres.n_empty_hyps)
        counts["n_empty_refs"] = max(counts["n_empty_refs"], dres.n_empty_refs)
    score_baselines(args, hyps, refs, baseline_names, scores, sentences, signatures, counts)
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
                   help="ROUGE variants (rouge1..rouge9, rougeL, rougeW-<w>, rougeS<d>, "
                        "rougeS*, rougeSU<d>, rougeSU*), DCS scores (dcs, cs0, cs1, cs2) and "
                        f"baselines ({BASELINE_HELP}) (default: %(default)s)")
    s.add_argument("--tokenize", default=None, choices=(*TOKENIZERS, "13a", "intl"),
                   help="word tokenizer (default: unicode for ROUGE and word-level DCS, "
                        "sacrebleu's 13a for the baselines)")
    s.add_argument("--lowercase-baselines", action="store_true",
                   help="lowercase for BLEU, NIST, WER, PER, RIBES (case is kept by default, "
                        "as in sacrebleu)")
    s.add_argument("--no-lowercase", action="store_true",
                   help="keep case for ROUGE (DCS always compares case as given)")
    s.add_argument("--level", default="char", choices=LEVELS,
                   help="DCS level: char (code points; for CJK) or word (default: %(default)s)")
    s.add_argument("--ignore-spaces", action="store_true",
                   help="DCS at character level: drop whitespace before matching")
    s.add_argument("--multi-ref", default="max", choices=MULTI_REF,
                   help="how several references combine for ROUGE (default: %(default)s); "
                        "DCS keeps the reference with the highest dcs")
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
