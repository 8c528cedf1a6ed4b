"""``mtalign train-similarity``: a word-similarity table for SIA, trained or converted.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_commands(sub)
>>> sorted(sub.choices)
['train-similarity']
"""

from __future__ import annotations

import argparse
import sys

from mtalign.cli.common import CliError
from mtalign.io import read_lines
from mtalign.metrics.options import TABLE_FORMATS, TOKENIZERS


def cmd_train_similarity(args: argparse.Namespace) -> int:
    from mtalign.metrics.sia import TranslationTable, WordSimilarity

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


def add_commands(sub: argparse._SubParsersAction) -> None:
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
    t.add_argument("--format", default="tsv", choices=TABLE_FORMATS,
                   help="format of --table (default: %(default)s)")
    t.add_argument("--src-vcb", help="GIZA++ source .vcb (with --format giza)")
    t.add_argument("--tgt-vcb", help="GIZA++ target .vcb (with --format giza)")
    t.add_argument("-o", "--output", required=True, metavar="TABLE", help="output file")
    t.add_argument("--iterations", type=int, default=5, help="EM iterations (default: 5)")
    t.add_argument("--src-tokenize", default="whitespace", choices=TOKENIZERS,
                   help="tokenizer of F (default: %(default)s: pre-tokenized text)")
    t.add_argument("--tgt-tokenize", default="unicode", choices=TOKENIZERS,
                   help="tokenizer of E; use the scorer's (default: %(default)s)")
    t.add_argument("--no-lowercase", action="store_true", help="keep case")
    t.add_argument("--top", type=int, default=100,
                   help="most similar words kept per word (default: 100)")
    t.add_argument("--min-prob", type=float, default=1e-3,
                   help="drop p(e|f) below this before eq. 3 (default: 0.001)")
    t.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    t.set_defaults(func=cmd_train_similarity)


