"""``mtalign sacrebleu ARGS`` / ``python -m mtalign.compat.sacrebleu ARGS``: sacrebleu 2.6.0's
command line, computed by mtalign.

The same options, and on stdout the same bytes sacrebleu 2.6.0 prints to a pipe (text, JSON,
``-b``, ``-w``, ``--short``, ``-sl``, ``-f latex``, ``--confidence``, ``--paired-bs`` /
``--paired-ar`` tables with their ``*`` marks and legend), except the signature's version
field, ``version:2.6.0+mtalign-X``, which names both. Differences, all on bad input or
where sacrebleu needs the network: a missing or unreadable file, a line that is not valid in
the encoding, ``--origlang``/``--subset`` without a test set, or a JSON table sacrebleu cannot
write give one line on stderr and exit 2 (sacrebleu prints a traceback). Test sets (``-t``,
``--echo``) are read from sacrebleu's cache (``$SACREBLEU``, default ``~/.sacrebleu``), the
WMT XML ones (WMT21-WMT24, see :mod:`mtalign.compat.sacrebleu.testsets`); one not there, one
of the older formats, ``--list``, ``--download``, ``--citation``, ``--origlang``/``--subset``
or ``-d`` with a test set give one line naming sacrebleu for them, exit 2. Terminal colours
are never printed.

>>> main(["--version"])
sacrebleu 2.6.0+mtalign-0.1.0
0
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import io
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from mtalign.compat.sacrebleu._testsets import OTHER_SETS, WMT_XML
from mtalign.compat.sacrebleu.metrics import NAMES
from mtalign.compat.sacrebleu.metrics.base import VERSION
from mtalign.compat.sacrebleu.metrics.bleu import BLEU
from mtalign.compat.sacrebleu.metrics.chrf import CHRF
from mtalign.compat.sacrebleu.utils import (
    args_to_dict,
    print_results_table,
    print_single_results,
    smart_open,
)
from mtalign.errors import InputError

__all__ = ["add_command", "build_parser", "main"]

FORMATS = ["json", "text", "latex"]

#: ``mtalign sacrebleu --help``'s description.
DESCRIPTION = ("sacrebleu 2.6.0's command line, computed by mtalign: the same options, and on "
               "standard output the same bytes sacrebleu prints; only the signature's version "
               "field differs (version:2.6.0+mtalign-X). Test sets are read from sacrebleu's "
               "cache, never downloaded. Usage: mtalign sacrebleu REF [REF ...] -i HYP [HYP ...] "
               "-m bleu chrf ter. sacrebleu's options and files are listed below.")


class _Exit(Exception):
    """Ends the command with an exit status (after its messages were printed)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _error(*lines: str, status: int = 1) -> _Exit:
    """sacrebleu's error messages (``sacreBLEU: ...`` on stderr) and its exit status; or,
    with status 2, mtalign's one line where sacrebleu has no message of its own."""
    prefix = "mtalign: error:" if status == 2 else "sacreBLEU:"
    for line in lines:
        print(f"{prefix} {line}", file=sys.stderr)
    return _Exit(status)


def build_parser(prog: str = "sacrebleu") -> argparse.ArgumentParser:
    """sacrebleu 2.6.0's options (same names, defaults and help).

    >>> build_parser().parse_args(["ref", "-i", "hyp", "-m", "bleu", "chrf"]).metrics
    ['bleu', 'chrf']
    """
    bleu, chrf = BLEU, CHRF
    p = argparse.ArgumentParser(
        prog=prog,
        description=DESCRIPTION)
    p.add_argument("--citation", "--cite", default=False, action="store_true",
                   help="Dump the bibtex citation and quit (needs sacrebleu's test sets).")
    p.add_argument("--list", default=False, action="store_true",
                   help="Print a list of all available test sets (needs sacrebleu).")
    p.add_argument("--test-set", "-t", type=str, default=None,
                   help="A sacrebleu WMT XML test set (wmt21 ... wmt24), read from sacrebleu's "
                        "cache ($SACREBLEU, default ~/.sacrebleu); never downloaded.")
    p.add_argument("--language-pair", "-l", dest="langpair", default=None,
                   help="Source-target language pair (2-char ISO639-1 codes).")
    p.add_argument("--origlang", "-ol", dest="origlang", default=None,
                   help="Use a subset of sentences with a given original language (needs -t).")
    p.add_argument("--subset", dest="subset", default=None,
                   help="Use a subset of sentences whose document annotation matches a given "
                        "regex (needs -t).")
    p.add_argument("--download", type=str, default=None,
                   help="Download a test set and quit (not done here: mtalign never "
                        "downloads).")
    p.add_argument("--echo", nargs="+", type=str, default=None,
                   help="Output the source (src), reference (ref), or other available field "
                        "(docid, ref:A, ...) of the test set and quit. --echo all: every "
                        "field.")
    p.add_argument("--input", "-i", type=str, nargs="*", default=None,
                   help="Read input from file(s) instead of STDIN.")
    p.add_argument("refs", nargs="*", default=[],
                   help="Optional list of references. If given, it should preceed the "
                        "-i/--input argument.")
    p.add_argument("--num-refs", "-nr", type=int, default=1,
                   help="Split the reference stream on tabs, and expect this many "
                        "references. (Default: %(default)s)")
    p.add_argument("--encoding", "-e", type=str, default="utf-8",
                   help="Open text files with specified encoding (Default: %(default)s)")
    p.add_argument("--metrics", "-m", choices=[m.lower() for m in NAMES], nargs="+",
                   default=["bleu"], metavar="METRIC",
                   help="Space-delimited list of metrics to compute: bleu, chrf, ter "
                        "(Default: bleu)")
    p.add_argument("--sentence-level", "-sl", action="store_true",
                   help="Compute metric for each sentence.")
    g = p.add_argument_group("BLEU related arguments")
    g.add_argument("--smooth-method", "-s", choices=bleu.SMOOTH_DEFAULTS.keys(), default="exp",
                   dest="bleu_smooth_method",
                   help="Smoothing method: exponential decay, floor (increment zero counts), "
                        "add-k (increment num/denom by k for n>1), or none. "
                        "(Default: %(default)s)")
    g.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
                   help="The smoothing value. Only valid for floor and add-k. (Defaults: "
                        f"floor: {bleu.SMOOTH_DEFAULTS['floor']}, "
                        f"add-k: {bleu.SMOOTH_DEFAULTS['add-k']})")
    g.add_argument("--tokenize", "-tok", choices=bleu.TOKENIZERS, default=None,
                   dest="bleu_tokenize", metavar="TOK",
                   help=f"Tokenization method to use for BLEU ({', '.join(bleu.TOKENIZERS)})."
                        " If not provided, defaults to "
                        "zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean "
                        "and 13a (mteval) otherwise.")
    g.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true",
                   default=False,
                   help="If True, enables case-insensitivity. (Default: %(default)s)")
    g.add_argument("--force", default=False, action="store_true", dest="bleu_force",
                   help="Insist that your tokenized input is actually detokenized.")
    g = p.add_argument_group("chrF related arguments")
    g.add_argument("--chrf-char-order", "-cc", type=int, default=chrf.CHAR_ORDER,
                   help="Character n-gram order. (Default: %(default)s)")
    g.add_argument("--chrf-word-order", "-cw", type=int, default=chrf.WORD_ORDER,
                   help="Word n-gram order (Default: %(default)s). If equals to 2, the metric "
                        "is referred to as chrF++.")
    g.add_argument("--chrf-beta", type=int, default=chrf.BETA,
                   help="Determine the importance of recall w.r.t precision. "
                        "(Default: %(default)s)")
    g.add_argument("--chrf-whitespace", action="store_true", default=False,
                   help="Include whitespaces when extracting character n-grams. "
                        "(Default: %(default)s)")
    g.add_argument("--chrf-lowercase", action="store_true", default=False,
                   help="Enable case-insensitivity. (Default: %(default)s)")
    g.add_argument("--chrf-eps-smoothing", action="store_true", default=False,
                   help="Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; "
                        "instead of effective order smoothing. (Default: %(default)s)")
    g = p.add_argument_group(
        "TER related arguments (The defaults replicate TERCOM's behavior)")
    g.add_argument("--ter-case-sensitive", action="store_true",
                   help="Enables case sensitivity. (Default: %(default)s)")
    g.add_argument("--ter-asian-support", action="store_true",
                   help="Enables special treatment of Asian characters. "
                        "(Default: %(default)s)")
    g.add_argument("--ter-no-punct", action="store_true",
                   help="Removes punctuation. (Default: %(default)s)")
    g.add_argument("--ter-normalized", action="store_true",
                   help="Applies basic normalization and tokenization. (Default: %(default)s)")
    g = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    g.add_argument("--confidence", "-ci", action="store_true",
                   help="Report confidence interval using bootstrap resampling.")
    g.add_argument("--confidence-n", "-cin", type=int, default=1000,
                   help="Set the number of bootstrap resamples for CI estimation "
                        "(Default: %(default)s).")
    g = p.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = g.add_mutually_exclusive_group()
    choice.add_argument("--paired-ar", "-par", action="store_true",
                        help="Perform paired test using approximate randomization (AR). This "
                             "option is mutually exclusive with --paired-bs "
                             "(Default: %(default)s).")
    choice.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="Perform paired test using bootstrap resampling. This option is "
                             "mutually exclusive with --paired-ar (Default: %(default)s).")
    g.add_argument("--paired-ar-n", "-parn", type=int, default=10000,
                   help="Number of trials for approximate randomization test "
                        "(Default: %(default)s).")
    g.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000,
                   help="Number of bootstrap resamples for paired bootstrap resampling test "
                        "(Default: %(default)s).")
    g.add_argument("--paired-jobs", "-j", type=int, default=1,
                   help="If 0, launches as many workers as the number of systems. If > 0, "
                        "sets the number of workers manually.")
    g = p.add_argument_group("Reporting related arguments")
    g.add_argument("--quiet", "-q", default=False, action="store_true",
                   help="Suppress verbose messages.")
    g.add_argument("--short", "-sh", default=False, action="store_true",
                   help="Produce a shorter (less human readable) signature.")
    g.add_argument("--score-only", "-b", default=False, action="store_true",
                   help="Print only the computed score.")
    g.add_argument("--width", "-w", type=int, default=1,
                   help="Floating point width (Default: %(default)s).")
    g.add_argument("--detail", "-d", default=False, action="store_true",
                   help="Print detailed information (split test sets based on origlang; "
                        "needs -t).")
    g.add_argument("--no-color", "-nc", action="store_true",
                   help="Disable the occasional use of terminal colors (never used here).")
    g.add_argument("--format", "-f", default="json", choices=FORMATS,
                   help="Set the output format. latex is only valid for multi-system mode "
                        "whereas json and text apply to single-system mode only. This "
                        "flag is overridden if the SACREBLEU_FORMAT environment variable is "
                        "set to one of the valid choices (Default: %(default)s).")
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {VERSION}")
    return p


@contextlib.contextmanager
def _reading(path: str, encoding: str) -> Iterator[None]:
    """A file read in the block: a missing, unreadable or undecodable file, or an unknown
    encoding, is one line on stderr, exit 2."""
    try:
        yield
    except FileNotFoundError:
        raise _error(f"{path}: no such file", status=2) from None
    except IsADirectoryError:
        raise _error(f"{path}: is a directory, not a file", status=2) from None
    except (OSError, EOFError) as e:
        raise _error(f"{path}: cannot be read ({e})", status=2) from None
    except UnicodeDecodeError as e:
        raise _error(f"{path}: not valid {encoding} ({e.reason} at byte {e.start})",
                     status=2) from None
    except LookupError:
        raise _error(f"--encoding {encoding}: unknown encoding", status=2) from None


def _lines(path: str, encoding: str) -> list[str]:
    """A file's lines, right-stripped (``.gz`` read transparently)."""
    with _reading(path, encoding), smart_open(path, encoding=encoding) as f:
        text = f.read()
    # the lines sacrebleu iterates (newline="\n": split on "\n" alone), right-stripped;
    # one read and one split instead of a Python step per line
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return list(map(str.rstrip, lines))


def _file_bytes(path: str, encoding: str) -> bytes:
    """A file's text as UTF-8 bytes: read as they are when the encoding is UTF-8 (``.gz``
    decompressed), else its lines decoded and encoded again. Not checked here: the native
    call that reads them refuses bytes that are not UTF-8."""
    with _reading(path, encoding):
        if codecs.lookup(encoding).name != "utf-8":
            return _utf8_lines(_lines(path, encoding))
        if path.endswith(".gz"):
            import gzip
            with gzip.open(path, "rb") as f:
                return f.read()
        with open(path, "rb") as f:
            return f.read()


def _utf8_lines(lines: Sequence[str]) -> bytes:
    """Lines as the UTF-8 bytes of a file, each ended by a newline."""
    return "".join(f"{line}\n" for line in lines).encode()


def _count_lines(data: bytes) -> int:
    """The lines of a file's bytes (the last one may lack its newline)."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _read_refs(args: argparse.Namespace) -> list[list[str]]:
    refs: list[list[str]] = [[] for _ in range(max(len(args.refs), args.num_refs))]
    for refno, path in enumerate(args.refs):
        for lineno, line in enumerate(_lines(path, args.encoding), 1):
            if args.num_refs == 1:
                refs[refno].append(line)
                continue
            fields = line.split(sep="\t", maxsplit=args.num_refs - 1)
            if len(fields) != args.num_refs:
                raise _error(f"FATAL: line {lineno}: expected {args.num_refs} fields, but "
                             f"found {len(fields)}.", status=17)
            for i, ref in enumerate(fields):
                refs[i].append(ref)
    return refs


def _read_systems(args: argparse.Namespace, paired: bool) -> tuple[list[list[str]], list[str]]:
    systems: list[list[str]] = []
    names: list[str] = []
    if args.input is None:
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding=args.encoding) \
            if hasattr(sys.stdin, "buffer") else sys.stdin
        try:
            first = stdin.readline().rstrip().split("\t")
            systems = [[s] for s in first]
            names = [f"System {i + 1}" for i in range(len(first))]
            for line in stdin:
                fields = line.rstrip().split("\t")
                if len(fields) != len(first):
                    raise _error("FATAL: the number of tab-delimited fields in the input "
                                 "stream differ across lines.", status=17)
                for i, sent in enumerate(fields):
                    systems[i].append(sent.rstrip())
        except UnicodeDecodeError as e:
            raise _error(f"standard input: not valid {args.encoding} ({e.reason})",
                         status=2) from None
    else:
        for path in args.input:
            if path in names:
                if paired and path == names[0]:
                    continue  # the baseline given again
                raise _error(f"{path!r} already used to name a system.",
                             "Make sure to have a different basename for each system.")
            systems.append(_lines(path, args.encoding))
            names.append(path)
    if paired:
        if args.input is None:
            names = ["Baseline"] + [f"System {i + 1}" for i in range(len(names) - 1)]
        elif names:
            names[0] = f"Baseline: {names[0]}"
    return systems, names


def _check(args: argparse.Namespace) -> None:
    """sacrebleu's argument checks (its messages and exit statuses), and one line with exit
    2 for what mtalign does not do (download, list or cite test sets)."""
    if args.sentence_level and len(args.metrics) > 1:
        raise _error("Only one metric can be used in sentence-level mode.")
    needs_sets = [flag for flag, given in (("--list", args.list), ("--citation", args.citation),
                                           ("--download", args.download)) if given]
    if needs_sets:
        raise _error(f"{needs_sets[0]}: not done by mtalign's drop-in (it never downloads); "
                     "run sacrebleu itself (e.g. sacrebleu -t wmt21 -l en-de --echo src > "
                     "/dev/null fills its cache, which mtalign sacrebleu -t then reads)",
                     status=2)
    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        raise _error("The --num-refs argument allows you to provide any number of "
                     "tab-delimited references in a single file.",
                     "You can only use it with externally provided references, however "
                     "(i.e., not with `-t`),",
                     "and you cannot then provide multiple reference files.")
    test_sets = [] if args.test_set is None else args.test_set.split(",")
    for test_set in test_sets:
        if test_set not in WMT_XML and test_set not in OTHER_SETS:
            raise _error(f"Unknown test set {test_set!r}",
                         "Please run with --list to see the available test sets.")
    if args.test_set is None:
        if not args.refs:
            raise _error("If manual references given, make sure to provide them before the "
                         "-i/--input argument to avoid confusion.",
                         "Otherwise, I need a predefined test set (-t) from sacrebleu's list.")
    elif args.refs:
        raise _error("I need exactly one of (a) a predefined test set (-t) or (b) a list of "
                     "references")
    elif args.langpair is None:
        raise _error("I need a language pair (-l). Use --list to see available language pairs "
                     "for this test set.")
    else:
        for test_set in test_sets:
            langpairs = list(WMT_XML[test_set][1]) if test_set in WMT_XML else []
            if test_set in WMT_XML and args.langpair not in langpairs:
                raise _error(f"No such language pair {args.langpair!r}",
                             f"Available language pairs for {test_set!r} are:",
                             *(f" > {lp}" for lp in langpairs))
    if args.origlang is not None or args.subset is not None:
        if args.test_set is None:
            raise _error("Filtering for --origlang or --subset needs a test (-t) and a "
                         "language pair (-l).", status=2)
        raise _error("--origlang/--subset: not supported by mtalign's drop-in; echo the test "
                     "set with sacrebleu itself (sacrebleu -t ... -l ... --origlang ... --echo "
                     "ref > ref.txt) and pass the files", status=2)
    if args.detail and args.test_set is not None:
        raise _error("-d/--detail with a test set: not supported by mtalign's drop-in; run "
                     "sacrebleu itself", status=2)


def _test_set_fields(args: argparse.Namespace) -> list[tuple[str, dict[str, list[str]]]]:
    """Each ``-t`` test set's fields, from sacrebleu's cache (exit 2 when it is not there)."""
    from mtalign.compat.sacrebleu import testsets
    try:
        return [(name, testsets.fields(name, args.langpair))
                for name in args.test_set.split(",")]
    except testsets.MissingTestSet as e:
        raise _error(str(e), status=2) from None
    except (OSError, UnicodeDecodeError) as e:
        raise _error(f"sacrebleu's cache: cannot be read ({e})", status=2) from None


def _echo(args: argparse.Namespace) -> None:
    """``--echo FIELD ...``: sacrebleu's ``print_test_set`` (its messages on a wrong field)."""
    if args.langpair is None or args.test_set is None:
        raise _error("--echo requires a test set (--t) and a language pair (-l)")
    requested = list(args.echo)
    if "all" in requested and len(requested) != 1:
        raise _error("Cannot use --echo all with other fields")
    lines: list[str] = []
    for test_set, fields in _test_set_fields(args):
        names = list(fields) if requested == ["all"] else requested
        if "ref" in names and "ref" not in fields:  # sacrebleu: "ref" is the first ref:X
            first = min(f for f in fields if f.startswith("ref"))
            names = [first if f == "ref" else f for f in names]
        for name in names:
            if name not in fields:
                extra = []
                if "ref" not in fields:
                    subref = min(f for f in fields if f.startswith("ref"))
                    extra = [f"'ref' also allowed for backwards compatibility (will return "
                             f"{subref})"]
                raise _error(f"No such field {name} in test set {test_set} for language pair "
                             f"{args.langpair}.",
                             f"available fields for {test_set}/{args.langpair}: "
                             f"{', '.join(fields)}", *extra)
        lines.extend("\t".join(row) for row in zip(*(fields[n] for n in names),
                                                        strict=False))
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def _test_set_refs(args: argparse.Namespace) -> list[list[str]]:
    """The references sacrebleu scores ``-t`` against, test sets concatenated."""
    from mtalign.compat.sacrebleu import testsets
    refs: list[list[str]] = []
    for test_set, fields in _test_set_fields(args):
        allowed = testsets.reference_fields(test_set, args.langpair)
        streams = [fields[f] for f in fields if f in allowed]
        if not streams:
            print(f"sacreBLEU: No references found for test set {test_set}/{args.langpair}.",
                  file=sys.stderr)
        refs = refs or [[] for _ in streams]
        for stream, lines in zip(refs, streams, strict=False):
            stream.extend(lines)
    return refs or [[]]


def _metrics(args: argparse.Namespace, refs: list[list[str]]) -> dict[str, Any]:
    from mtalign.compat.sacrebleu.metrics import METRICS
    metrics = {}
    for name in args.metrics:
        options = args_to_dict(args, name, strip_prefix=True)
        options["references"] = refs
        metrics[name.upper()] = METRICS[name.upper()](**options)
    return metrics


def _sentence_level(metric: Any, system: list[str], refs: list[list[str]],
                    args: argparse.Namespace) -> None:
    """One line per segment; BLEU's from one native call, the other metrics' statistics of
    all segments from one mtalign call."""
    sig = metric.get_signature().format(args.short)
    if isinstance(metric, BLEU):
        _write(metric._sentence_lines_of_bytes(_utf8_lines(system), list(map(_utf8_lines, refs)),
                                               args.width, args.score_only, sig))
        return
    rows = metric._mtalign_rows(system, None)
    lines = metric._sentence_lines(rows, args.width, args.score_only, sig)
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def _bleu_lines_of_files(args: argparse.Namespace) -> None:
    """``-sl`` BLEU of one hypothesis file against reference files: their bytes go to one
    native call, which splits the lines and prints every segment's line (no Python object
    per segment, and neither NumPy nor mtalign's metrics imported)."""
    paths = [*args.refs, args.input[0]]
    refs = [_file_bytes(path, args.encoding) for path in args.refs]
    hyps = _file_bytes(args.input[0], args.encoding)
    if not hyps:
        raise _error(f"Test set {args.test_set!r} contains no sentence")
    args.bleu_effective_order = True
    metric = BLEU(**args_to_dict(args, "bleu", strip_prefix=True))
    metric.num_refs = len(refs)
    sig = metric.get_signature().format(args.short)
    try:
        out = metric._sentence_lines_of_bytes(hyps, refs, args.width, args.score_only, sig)
    except UnicodeDecodeError:
        for path in paths:  # which file: decoded again, to name it as _lines does
            _lines(path, args.encoding)
        raise
    except InputError:  # the native call refuses streams of different lengths
        if any(_count_lines(ref) != _count_lines(hyps) for ref in refs):
            raise _error("System and reference streams have different lengths.") from None
        raise
    _write(out)


def _write(data: bytes) -> None:
    """UTF-8 text on standard output, written as bytes where it takes bytes."""
    if hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data.decode())


def run(args: argparse.Namespace) -> int:
    """Runs a parsed command; returns the exit status."""
    paired = args.paired_bs or args.paired_ar
    _check(args)
    if args.echo:
        _echo(args)
        return 0
    if args.langpair:  # the target language picks BLEU's tokenizer, as in sacrebleu
        args.bleu_trg_lang = args.langpair.split("-")[1]
    if (args.sentence_level and args.metrics == ["bleu"] and args.test_set is None
            and args.input is not None and len(args.input) == 1 and args.num_refs == 1
            and not (args.confidence or paired)):
        _bleu_lines_of_files(args)
        return 0
    refs = _read_refs(args) if args.test_set is None else _test_set_refs(args)
    args.num_refs = len(refs)
    systems, names = _read_systems(args, paired)
    if args.sentence_level:
        if len(systems) > 1:
            raise _error("Only one system can be evaluated in sentence-level mode.")
        if args.confidence or paired:
            raise _error("Statistical tests are unavailable in sentence-level mode.")
        args.bleu_effective_order = True
    if paired and len(systems) == 1:
        raise _error("Paired tests require multiple input systems given to --input (-i).")
    if len(systems) > 1 and args.confidence:
        raise _error("Use paired tests (--paired) for multiple systems.")
    for system in systems:
        if not system:
            raise _error(f"Test set {args.test_set!r} contains no sentence")
        if any(len(stream) != len(system) for stream in refs):
            raise _error("System and reference streams have different lengths.")
    metrics = _metrics(args, refs)
    if args.sentence_level:
        _sentence_level(next(iter(metrics.values())), systems[0], refs, args)
        return 0
    if args.detail and args.format == "json":
        args.format = "text"
    if len(systems) == 1:
        results = []
        for name in sorted(metrics):
            n_bootstrap = args.confidence_n if args.confidence else 1
            score = metrics[name].corpus_score(systems[0], None, n_bootstrap=n_bootstrap)
            sig = metrics[name].get_signature().format(
                args.short if args.format != "json" else False)
            results.append(score.format(args.width, args.score_only, sig,
                                        args.format == "json"))
        print_single_results(results, args)
        if args.detail:
            print("No subset information found. Consider using --origlang argument.")
        return 0
    named: list[tuple[str, Sequence[str]]] = list(zip(names, systems, strict=True))
    if not paired:
        sigs: dict[str, Any] = {}
        scores: dict[str, list[Any]] = {"System": names}
        for system in systems:
            for name in sorted(metrics):
                score = metrics[name].corpus_score(system, None)
                sigs[score.name] = metrics[name].get_signature().format(args.short)
                scores.setdefault(score.name, []).append(score.format(args.width, True))
    else:
        from mtalign.compat.sacrebleu.significance import PairedTest
        test = PairedTest(named, metrics, references=None,
                          test_type="bs" if args.paired_bs else "ar",
                          n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n,
                          n_jobs=args.paired_jobs)
        signatures, scores = test()
        sigs = {k: v.format(args.short) for k, v in signatures.items()}
    print_results_table(scores, sigs, args)
    return 0


def add_command(sub: Any) -> None:
    """Registers ``mtalign sacrebleu``: every argument after it goes to sacrebleu's parser
    (no option is parsed by ``mtalign``'s own).

    >>> p = argparse.ArgumentParser(); add_command(p.add_subparsers(dest="command"))
    >>> p.parse_args(["sacrebleu", "ref", "-i", "hyp", "-b"]).sacrebleu_args
    ['ref', '-i', 'hyp', '-b']
    """
    p = sub.add_parser("sacrebleu", prefix_chars="\0", add_help=False,
                       help="sacrebleu 2.6.0's command line (its options and output), "
                            "computed by mtalign; mtalign sacrebleu --help lists the options",
                       description=DESCRIPTION)
    p.add_argument("sacrebleu_args", nargs="*",
                   help="sacrebleu's options and files (mtalign sacrebleu --help)")
    p.set_defaults(func=lambda args: main(args.sacrebleu_args, prog="mtalign sacrebleu"))


def main(argv: Sequence[str] | None = None, prog: str = "sacrebleu") -> int:
    """Runs sacrebleu's command line on ``argv``; returns the exit status."""
    parser = build_parser(prog)
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as e:  # --help, --version, or a usage error (exit 2), as argparse does
        return int(e.code or 0)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if env_format in FORMATS:
        args.format = env_format
    if hasattr(sys.stdout, "reconfigure") and (sys.stdout.encoding or "").lower() != "utf-8":
        sys.stdout.reconfigure(encoding="utf-8")
    try:
        return run(args)
    except _Exit as e:
        return e.status
    except BrokenPipeError:
        return 0
    except (ValueError, TypeError, KeyError, RuntimeError) as e:  # mtalign's checks included
        print(f"mtalign: error: {e}", file=sys.stderr)
        return 2
