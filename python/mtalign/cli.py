"""The ``mtalign`` command line.

``mtalign score -r REF [REF ...] -i HYP [-m rougeL rougeS4 dcs ...]`` scores a hypothesis file
against one or more reference files (one segment per line, UTF-8, aligned line by line);
``mtalign demo`` scores the sample shipped inside the package; ``mtalign orange`` judges
metrics by how they rank the references among candidates (ORANGE); ``mtalign rerank`` picks
the best hypothesis of every n-best list against the references;
``mtalign train-similarity --src F --tgt E -o TABLE`` builds a word-similarity table for SIA.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mtalign import __version__, registry
from mtalign._cli_orange import add_commands as add_orange_commands
from mtalign.errors import MtalignError
from mtalign.meta.cli import add_commands as add_meta_commands
from mtalign.rouge import Rouge

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


def cmd_train_similarity(args: argparse.Namespace) -> int:
    from mtalign.sia import TranslationTable, WordSimilarity

    if args.table is not None:
        if args.src is not None or args.tgt is not None:
            raise CliError("give either --table or --src/--tgt, not both")
        table = TranslationTable.read(args.table, args.format, src_vcb=args.src_vcb,
                                      tgt_vcb=args.tgt_vcb)
    else:
        if args.src is None or args.tgt is None:
            raise CliError("--src and --tgt are needed to train (or --table to convert)")
        src, tgt = read_lines(args.src), read_lines(args.tgt)
        if len(src) != len(tgt):
            raise CliError(f"{args.src} has {len(src)} lines but {args.tgt} has {len(tgt)}")

        def progress(it: int, n: int, ll: float) -> None:
            if not args.quiet:
                print(f"IBM-1 iteration {it}/{n}: log-likelihood per word {ll:.4f}",
                      file=sys.stderr)

        table = TranslationTable.train(src, tgt, iterations=args.iterations,
                                       src_tokenize=args.src_tokenize,
                                       tgt_tokenize=args.tgt_tokenize,
                                       lowercase=not args.no_lowercase,
                                       min_prob=args.min_prob, threads=args.threads,
                                       progress=progress)
    sim = WordSimilarity.from_translation_table(table, top=args.top, min_prob=args.min_prob,
                                                threads=args.threads)
    sim.save(args.output)
    if not args.quiet:
        print(f"wrote {args.output}: {len(sim)} words, {sim.n_entries} entries "
              f"(from {len(table)} translation entries)", file=sys.stderr)
    return 0


def _add_train_similarity(sub: argparse._SubParsersAction) -> None:
    t = sub.add_parser("train-similarity",
                       help="build a SIA word-similarity table (IBM-1 training or a table file)",
                       description="Train IBM Model 1 p(e|f) on aligned files F (pivot "
                                   "language) and E (the MT output language), or read a "
                                   "lexical table, then write SIA's word similarity "
                                   "sim(e1,e2) = sum_f p(e1|f) p(e2|f) (top 100 per word, "
                                   "renormalised) to TABLE.")
    t.add_argument("--src", metavar="F", help="pivot-language file (one sentence a line)")
    t.add_argument("--tgt", metavar="E", help="MT-output-language file, aligned with F")
    t.add_argument("--table", metavar="LEX", help="read p(e|f) from LEX instead of training")
    t.add_argument("--format", default="tsv", choices=("tsv", "fast_align", "moses", "giza"),
                   help="format of --table (default: %(default)s)")
    t.add_argument("--src-vcb", help="GIZA++ source .vcb (with --format giza)")
    t.add_argument("--tgt-vcb", help="GIZA++ target .vcb (with --format giza)")
    t.add_argument("-o", "--output", required=True, metavar="TABLE", help="output file")
    t.add_argument("--iterations", type=int, default=5, help="EM iterations (default: 5)")
    t.add_argument("--src-tokenize", default="whitespace", choices=registry.TOKENIZERS,
                   help="tokenizer of F (default: %(default)s: pre-tokenized text)")
    t.add_argument("--tgt-tokenize", default="unicode", choices=registry.TOKENIZERS,
                   help="tokenizer of E; use the scorer's (default: %(default)s)")
    t.add_argument("--no-lowercase", action="store_true", help="keep case")
    t.add_argument("--top", type=int, default=100,
                   help="most similar words kept per word (default: 100)")
    t.add_argument("--min-prob", type=float, default=1e-3,
                   help="drop p(e|f) below this before eq. 3 (default: 0.001)")
    t.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    t.set_defaults(func=cmd_train_similarity)


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
    add_orange_commands(sub)
    add_meta_commands(sub)  # correlate, compare
    _add_train_similarity(sub)
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
