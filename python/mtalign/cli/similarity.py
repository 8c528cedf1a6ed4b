"""``mtalign train-similarity``: a word-similarity table for SIA, trained or converted.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_commands(sub)
>>> sorted(sub.choices)
['train-similarity']
"""

from __future__ import annotations

import argparse
import os
import sys

from mtalign.cli.common import (
    CliError,
    add_progress_options,
    existing_file,
    fraction,
    positive_int,
)
from mtalign.io import read_lines
from mtalign.metrics.options import TABLE_FORMATS, TOKENIZERS


def cmd_train_similarity(args: argparse.Namespace) -> int:
    from mtalign.metrics.sia import TranslationTable, WordSimilarity

    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir) or os.path.isdir(args.output):
        what = "is a directory" if os.path.isdir(args.output) else f"{out_dir}: no such directory"
        raise CliError(f"cannot write {args.output}: {what}")
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
            raise CliError(f"{args.src} has {len(src)} lines but {args.tgt} has {len(tgt)}; "
                           "files must be aligned line by line")
        if not src:
            raise CliError(f"{args.src} is empty: nothing to train on")

        # Like the progress bars: on a terminal, or wherever with --progress; never with -q.
        shown = not args.quiet and (args.progress or sys.stderr.isatty())

        def progress(it: int, n: int, ll: float) -> None:
            if shown:
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


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Adds ``train-similarity`` to the ``mtalign`` subcommands."""
    t = sub.add_parser("train-similarity",
                       help="build a SIA word-similarity table (IBM-1 training or a table file)",
                       description="Build the word-similarity table of SIA's stochastic "
                                   "matching (mtalign score -m sia --similarity TABLE). "
                                   "Either train IBM Model 1 p(e|f) on aligned files F (a "
                                   "pivot language) and E (the MT output language), or read "
                                   "a lexical table (--table); then write the similarity "
                                   "sim(e1,e2) = sum over f of p(e1|f) p(e2|f), the most "
                                   "similar words of each word kept and renormalised, to "
                                   "TABLE.")
    t.add_argument("--src", metavar="F", help="pivot-language file (one sentence a line)")
    t.add_argument("--tgt", metavar="E", help="MT-output-language file, aligned with F")
    t.add_argument("--table", metavar="LEX", type=existing_file,
                   help="read p(e|f) from LEX instead of training")
    t.add_argument("--format", default="tsv", choices=TABLE_FORMATS,
                   help="format of --table (default: %(default)s)")
    t.add_argument("--src-vcb", metavar="FILE", type=existing_file,
                   help="GIZA++ source .vcb (with --format giza)")
    t.add_argument("--tgt-vcb", metavar="FILE", type=existing_file,
                   help="GIZA++ target .vcb (with --format giza)")
    t.add_argument("-o", "--output", required=True, metavar="TABLE", help="output file")
    t.add_argument("--iterations", type=positive_int, default=5, metavar="N",
                   help="EM iterations (default: %(default)s)")
    t.add_argument("--src-tokenize", default="whitespace", choices=TOKENIZERS, metavar="NAME",
                   help="tokenizer of F: " + ", ".join(TOKENIZERS) + " (default: "
                        "%(default)s: pre-tokenized text)")
    t.add_argument("--tgt-tokenize", default="unicode", choices=TOKENIZERS, metavar="NAME",
                   help="tokenizer of E, as --src-tokenize; use the scorer's (default: "
                        "%(default)s)")
    t.add_argument("--no-lowercase", action="store_true", help="keep case")
    t.add_argument("--top", type=positive_int, default=100, metavar="N",
                   help="most similar words kept per word (default: %(default)s)")
    t.add_argument("--min-prob", type=fraction(False, True), default=1e-3, metavar="P",
                   help="drop p(e|f) below P before the similarity (default: %(default)s)")
    t.add_argument("--threads", type=positive_int, default=None, metavar="N",
                   help="threads (default: all cores)")
    add_progress_options(t)
    t.set_defaults(func=cmd_train_similarity)
