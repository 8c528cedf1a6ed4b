"""``mtalign rouge155 [ROUGE-1.5.5 options] config.xml [systemID]``: ROUGE-1.5.5's command line.

Reads ROUGE-1.5.5's own XML configuration (``<EVAL ID>``, ``<PEER-ROOT>``, ``<MODEL-ROOT>``,
``<INPUT-FORMAT TYPE="SPL|SEE|ISI">``, ``<PEERS><P ID>``, ``<MODELS><M ID>``) and prints the
same report (``---`` blocks of ``<peer> ROUGE-x Average_R: ... (95%-conf.int. ... - ...)``,
per-evaluation lines with ``-d``), computed by mtalign. Options, with ROUGE-1.5.5's meaning:
``-a`` (all systems), ``-n N``, ``-x`` (no ROUGE-L), ``-w W``, ``-2 D`` (``-1``: any
distance), ``-u``, ``-U``, ``-m``, ``-s``, ``-f A|B``, ``-l N``, ``-b N``, ``-c CF``, ``-r R``,
``-p ALPHA``, ``-d``; ``-e DIR`` is accepted and ignored (mtalign ships its data). One
option of mtalign's own, ``--max-words N``, sets ROUGE's size limit (``Rouge(max_words=...)``,
0 for none).

Multi-sentence texts, as ROUGE-1.5.5: ROUGE-N and ROUGE-S/SU use the sentences joined;
ROUGE-L and ROUGE-W the summary-level union LCS (each model sentence against every peer
sentence, hits clipped by the texts' unigram counts; ``mtalign.compat.rouge155.summary_lcs``).

>>> from mtalign.cli.rouge155 import parse_options
>>> parse_options(["-a", "-n", "2", "-2", "-1", "-U", "conf.xml"])[0]["2"]
'-1'
>>> parse_options(["-a", "--max-words", "0", "conf.xml"])[0]["max-words"]
'0'
"""

from __future__ import annotations

import argparse
import getopt
import io
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._mtalign import stem as _native_stem
from mtalign._mtalign import tokenize as _native_tokenize
from mtalign.compat.rouge155 import (
    _ASCII_SPACE,
    _UPPER,
    SMART_COMMON_WORDS,
    confidence_intervals,
    per_evaluation,
    summary_lcs,
)
from mtalign.io import read_bytes
from mtalign.metrics.rouge import DEFAULT_MAX_WORDS, Rouge

__all__ = ["add_command", "parse_options", "run"]

_FLAGS = "hHad2:uUxmsf:l:b:c:r:w:n:e:p:"
_LONG = ["max-words="]  # mtalign's own option: ROUGE's size limit
_SEE = [re.compile(rb'^<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+'
                   rb'<a href="#[0-9]+" id=[0-9]+>([^<]+)'),
        re.compile(rb'^<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')]
_ISI = re.compile(rb'^<S SNTNO="[0-9a-z,]+">([^<]+)</S>')
_RULE = "-" * 45
USAGE = "mtalign rouge155 [ROUGE-1.5.5 options] config.xml [systemID]"
#: ``mtalign rouge155 --help`` (and ``-h``, as ROUGE-1.5.5's own).
DESCRIPTION = """\
ROUGE-1.5.5's own command line, computed by mtalign: it reads ROUGE-1.5.5's
XML configuration (EVAL, PEER-ROOT, MODEL-ROOT, INPUT-FORMAT of type SPL, SEE
or ISI, PEERS and MODELS) and prints the same report: for each system and
measure, the average recall, precision and F-measure with their confidence
intervals. Give a system ID after the configuration file, or -a for every
system. gzip, xz and bzip2 files are read as they are.

Options, with ROUGE-1.5.5's meaning:
  -a         evaluate every system          -n N     ROUGE-1 .. ROUGE-N (N <= 9)
  -x         no ROUGE-L                     -w W     ROUGE-W with weight W
  -2 D       ROUGE-S with skip distance D   -u, -U   ROUGE-SU only, or S and SU
             (-1: any distance)             -m       Porter stemming
  -s         remove stopwords               -f A|B   model average or best model
  -l N       first N words only             -b N     first N bytes only
  -c CF      confidence level (0-100)       -r R     bootstrap resamples (>= 1)
  -p ALPHA   F-measure weight (0-1)         -d       per-evaluation scores
  -e DIR     accepted and ignored: mtalign ships ROUGE-1.5.5's data
  -h, -H     this help

mtalign's own option:
  --max-words N  ROUGE's size limit (default 50000): with -w or -2, a peer and
                 a model of m and n words with m*n > N*N are refused up front
                 (their time grows with m*n); 0 for no limit"""
_DOTS = "." * 45


def parse_options(argv: list[str]) -> tuple[dict[str, str], list[str]]:
    """ROUGE-1.5.5's options (Perl ``getopts``) and mtalign's ``--max-words``: option name
    (letter, or ``max-words``) -> value ("" for flags), and the remaining arguments (config
    file, optional system ID)."""
    try:
        pairs, rest = getopt.getopt(argv, _FLAGS, _LONG)
    except getopt.GetoptError as e:
        raise ConfigError(f"rouge155: {e}") from None
    return {k.lstrip("-"): v for k, v in pairs}, rest


@dataclass
class Evaluation:
    eval_id: str
    fmt: str
    peers: dict[str, Path] = field(default_factory=dict)
    models: list[Path] = field(default_factory=list)


def _text_of(node: ET.Element | None) -> str:
    return "" if node is None or node.text is None else node.text.strip()


def read_config(path: str) -> list[Evaluation]:
    """The ``<EVAL>`` elements of a ROUGE-1.5.5 configuration, in document order."""
    try:
        root = ET.fromstring(read_bytes(path))
    except ET.ParseError as err:
        raise InputError(f"{path}: not a valid XML configuration ({err})") from None
    out = []
    for ev in root.iter("EVAL"):
        fmt_node = ev.find("INPUT-FORMAT")
        fmt = (fmt_node.get("TYPE") or "") if fmt_node is not None else ""
        if fmt.upper() not in ("SPL", "SEE", "ISI"):
            raise InputError(f"{path}: evaluation {ev.get('ID', '')}: input format {fmt!r} "
                             "is not supported (SPL, SEE, ISI)")
        peer_root = Path(_text_of(ev.find("PEER-ROOT")))
        model_root = Path(_text_of(ev.find("MODEL-ROOT")))
        e = Evaluation(ev.get("ID", ""), fmt.upper())
        for p in ev.iter("P"):
            e.peers[p.get("ID", "")] = peer_root / _text_of(p)
        e.models = [model_root / _text_of(m) for m in ev.iter("M")]
        if not e.models:
            raise InputError(f"{path}: evaluation {e.eval_id} has no models (<M>)")
        out.append(e)
    if not out:
        raise InputError(f"{path} has no evaluations (<EVAL>)")
    return out


def read_sentences(path: Path, fmt: str) -> list[bytes]:
    """The sentences ROUGE-1.5.5 reads from a file (bytes, ASCII-lowercased)."""
    sents = []
    with io.BytesIO(read_bytes(path)) as fh:
        for line in fh:
            if fmt == "SPL":
                line = line[:-1] if line.endswith(b"\n") else line
                if line:
                    sents.append(line.translate(_UPPER))
            elif fmt == "ISI":
                m = _ISI.match(line)
                if m:
                    sents.append(m.group(1).translate(_UPPER))
            else:
                for rx in _SEE:
                    m = rx.match(line)
                    if m:
                        sents.append(m.group(2).translate(_UPPER))
                        break
    return sents


def joined_text(sents: list[bytes], length_limit: int, byte_limit: int) -> bytes:
    """ROUGE-1.5.5's ``readText``: the sentences joined, cut at the word or byte limit."""
    return b" ".join(_cut(sents, length_limit, byte_limit, bytes_so_far=True))


def _cut(sents: list[bytes], length_limit: int, byte_limit: int,
         bytes_so_far: bool) -> list[bytes]:
    """The sentences up to ``length_limit`` words or, without one, ``byte_limit`` bytes (0:
    no limit), the last one cut; ``bytes_so_far``: the byte limit counts the sentences
    already kept (``readText``) rather than each one alone (``readText_LCS``)."""
    if not length_limit and not byte_limit:
        return list(sents)
    kept: list[bytes] = []
    used = 0
    for s in sents:
        if length_limit:
            words = _ASCII_SPACE.split(s)
            if words and words[-1] == b"":
                words.pop()
            if used + len(words) < length_limit:
                kept.append(s)
                used += len(words)
                continue
            kept.append(b" ".join(words[:length_limit - used]))
        else:
            room = byte_limit - used
            if len(s) < room:
                kept.append(s)
                used += len(s) if bytes_so_far else 0
                continue
            kept.append(s[:room])
        break
    return kept


def _tokens(sents: list[bytes], opts: dict[str, Any]) -> list[str]:
    text = joined_text(sents, opts["l"], opts["b"]).decode("utf-8", errors="replace")
    tokens = _native_tokenize(text, tokenize="rouge155")
    if opts["s"]:
        tokens = [t for t in tokens if t not in SMART_COMMON_WORDS]
    return tokens


def lcs_sentences(sents: list[bytes], length_limit: int, byte_limit: int) -> list[bytes]:
    """ROUGE-1.5.5's ``readText_LCS``: the sentences kept for ROUGE-L/W under ``-l``/``-b``
    (its byte limit never counts the sentences already kept, as in the script)."""
    return _cut(sents, length_limit, byte_limit, bytes_so_far=False)


def _stemmed(tokens: list[str], stem: bool) -> list[str]:
    return _native_stem(tokens, stemmer="rouge155") if stem else tokens


def _summary_pr(hyp: list[bytes], models: list[list[bytes]], opts: dict[str, Any], stem: bool,
                best: bool, weight: float | None) -> tuple[float, float]:
    """(P, R) of ROUGE-L (``weight`` None) or ROUGE-W over multi-sentence texts, as
    ROUGE-1.5.5's ``computeLCSScore`` / ``computeWLCSScore``."""
    def sentences(sents: list[bytes]) -> list[list[str]]:
        out = []
        for s in lcs_sentences(sents, opts["l"], opts["b"]):
            tokens = _native_tokenize(s.decode("utf-8", errors="replace"), tokenize="rouge155")
            if opts["s"]:
                tokens = [t for t in tokens if t not in SMART_COMMON_WORDS]
            out.append(_stemmed(tokens, stem))
        return out

    f = (lambda x: float(x)) if weight is None else (lambda x: float(x) ** weight)
    peer = sentences(hyp)
    peer_uni = Counter(_stemmed(_tokens(hyp, opts), stem))
    peer_total = sum(peer_uni.values())
    hit = count = count_p = 0.0
    top = -1.0
    for model in models:
        h, base = summary_lcs(sentences(model), peer, Counter(_stemmed(_tokens(model, opts), stem)),
                              peer_uni, weight)
        score = 0.0 if base <= 0 else h / base if weight is None else (h / base) ** (1 / weight)
        if not best:
            hit, count, count_p = hit + h, count + f(base), count_p + f(peer_total)
        elif score > top:
            top, hit, count, count_p = score, h, f(base), f(peer_total)
    inv = (lambda x: x) if weight is None else (lambda x: x ** (1 / weight))
    return (inv(hit / count_p) if count_p else 0.0, inv(hit / count) if count else 0.0)


def _by_eval_id(key: str) -> tuple:
    m = re.match(r"[0-9]+", key)
    return (0, int(m.group()), "") if m else (1, 0, key)


def _int_option(flags: dict[str, str], name: str, default: int, low: int,
                high: int | None = None) -> int:
    """Option ``-name``'s whole number in [low, high], or ``default`` when it is not given."""
    if name not in flags:
        return default
    text = flags[name]
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        upto = f"from {low} to {high}" if high is not None else f">= {low}"
        dash = "-" if len(name) == 1 else "--"
        raise ConfigError(f"rouge155: {dash}{name} expects a whole number {upto}, got {text!r}")
    return value


def _float_option(flags: dict[str, str], name: str, default: float, low: float, high: float,
                  low_open: bool = False) -> float:
    """Option ``-name``'s number in [low, high] (``low_open``: low excluded)."""
    if name not in flags:
        return default
    text = flags[name]
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (low < value if low_open else low <= value) or not value <= high:
        what = f"> {low:g}" if high == float("inf") else f"from {low:g} to {high:g}"
        raise ConfigError(f"rouge155: -{name} expects a number {what}, got {text!r}")
    return value


def _sentences(config: str, e: Evaluation, path: Path) -> list[bytes]:
    """:func:`read_sentences`, its errors naming the configuration and the evaluation."""
    try:
        return read_sentences(path, e.fmt)
    except InputError as err:
        raise InputError(f"{config}: evaluation {e.eval_id}: {err}") from None


def _pair_named(err: InputError, config: str, present: list[Evaluation],
                peer: str) -> InputError:
    """A size-limit refusal of :meth:`Rouge.batch_score` (``hyps[i] and refs[i][j] ...``)
    naming the evaluation, the peer file and the model file, and this command's option."""
    def where(m: re.Match[str]) -> str:
        e = present[int(m.group(1))]
        return (f"{config}: evaluation {e.eval_id}: peer {peer}'s file {e.peers[peer]} and "
                f"model file {e.models[int(m.group(2))]}")
    text = re.sub(r"^hyps\[(\d+)\] and refs\[\d+\]\[(\d+)\]", where, str(err), count=1)
    text = re.sub(r"for max_words=(\d+)", r"for --max-words \1", text, count=1)
    text = re.sub(r"raise the limit: .*$", "raise the limit with mtalign rouge155 --max-words N "
                  "(0 for none)", text, count=1)
    return InputError(text)


def run(argv: list[str], out: Any = None) -> int:
    """Runs ``mtalign rouge155`` with ROUGE-1.5.5's arguments; prints the report to ``out``."""
    out = sys.stdout if out is None else out
    flags, rest = parse_options(argv[1:] if argv[:1] == ["--"] else argv)
    if "h" in flags or "H" in flags:
        print(f"usage: {USAGE}\n\n{DESCRIPTION}", file=out)
        return 0
    if not rest:
        raise ConfigError("rouge155: give a ROUGE-1.5.5 configuration file")
    if len(rest) > 2:
        raise ConfigError(f"rouge155: unexpected arguments after the system ID: "
                          f"{' '.join(rest[2:])} (options go before the configuration file)")
    if "l" in flags and "b" in flags:
        raise ConfigError("rouge155: -l and -b cannot be used together")
    opts = {"l": _int_option(flags, "l", 0, 0), "b": _int_option(flags, "b", 0, 0),
            "s": "s" in flags}
    alpha = _float_option(flags, "p", 0.5, 0.0, 1.0)
    conf = flags.get("c", "95")
    _float_option(flags, "c", 95.0, 0.0, 100.0)
    samples = _int_option(flags, "r", 1000, 1)
    max_n = _int_option(flags, "n", 0, 0, 9)
    if flags.get("f", "A") not in ("A", "B"):
        raise ConfigError(f"rouge155: -f expects A (average over models) or B (best model), "
                          f"got {flags['f']!r}")
    if "w" in flags:
        _float_option(flags, "w", 1.2, 0.0, float("inf"), low_open=True)
    if "2" in flags:
        _int_option(flags, "2", 0, -1)
    stem, mode = "m" in flags, {"A": "average", "B": "best"}[flags.get("f", "A")]
    max_words = _int_option(flags, "max-words", DEFAULT_MAX_WORDS, 0) or None
    evals = read_config(rest[0])
    known = sorted({p for e in evals for p in e.peers})
    if "a" in flags:
        peers = known
        if not peers:
            raise InputError(f"{rest[0]} has no peers (<P>) to evaluate")
    elif len(rest) > 1:
        peers = [rest[1]]
        if rest[1] not in known:
            raise InputError(f"{rest[0]}: no evaluation has a peer with ID {rest[1]!r} "
                             f"(peer IDs: {', '.join(known) or 'none'})")
    else:
        raise ConfigError("rouge155: give a system ID or -a")
    # (tag, mtalign variant, summary-level over several sentences)
    metrics = [(f"ROUGE-{n}", f"rouge{n}", False) for n in range(1, max_n + 1)]
    if "x" not in flags:
        metrics.append(("ROUGE-L", "rougeL", True))
    if "w" in flags:
        metrics.append((f"ROUGE-W-{flags['w']}", f"rougeW-{flags['w']}", True))
    if "2" in flags:
        d = int(flags["2"])
        dist = "*" if d < 0 else str(d)
        if "u" in flags:
            metrics.append((f"ROUGE-SU{dist}", f"rougeSU{dist}", False))
        else:
            metrics.append((f"ROUGE-S{dist}", f"rougeS{dist}", False))
            if "U" in flags:
                metrics.append((f"ROUGE-SU{dist}", f"rougeSU{dist}", False))
    if not metrics:  # e.g. -x without -n, -w or -2: the script prints nothing either
        return 0
    rouge = Rouge([v for _, v, _ in metrics], compat="rouge155", stem=stem, multi_ref=mode,
                  max_words=max_words)
    for peer in peers:
        present = [e for e in evals if peer in e.peers]
        for e in evals:
            if peer not in e.peers:
                print(f"*ROUGE Warning: test instance for peer {peer} does not exist for "
                      f"evaluation {e.eval_id}", file=sys.stderr)
        hyp_sents = [_sentences(rest[0], e, e.peers[peer]) for e in present]
        ref_sents = [[_sentences(rest[0], e, m) for m in e.models] for e in present]
        try:
            batch = rouge.batch_score([_tokens(s, opts) for s in hyp_sents],
                                      [[_tokens(m, opts) for m in r] for r in ref_sents])
        except InputError as err:
            raise _pair_named(err, rest[0], present, peer) from None
        # Owned (n, 3) arrays: the rows of multi-sentence evaluations are replaced below.
        scores = {var: np.array(batch[var]) for var in rouge.variants}
        # ROUGE-L/W of evaluations with a multi-sentence text: the summary-level LCS.
        for row, (hyp, refs) in enumerate(zip(hyp_sents, ref_sents, strict=True)):
            if all(len(x) <= 1 for x in [hyp, *refs]):
                continue
            for tag, var, summary in metrics:
                if summary:
                    weight = float(flags["w"]) if tag.startswith("ROUGE-W") else None
                    p, r = _summary_pr(hyp, refs, opts, stem, mode == "best", weight)
                    scores[var][row, :2] = (p, r)
        ids = [e.eval_id for e in present]
        for tag, var, _ in metrics:
            ci = confidence_intervals(scores[var], confidence=float(conf), n_samples=samples,
                                      eval_ids=ids, peer_id=peer, alpha=alpha)
            print(_RULE, file=out)
            for m in "RPF":
                print(f"{peer} {tag} Average_{m}: {ci[m].mean:.5f} ({conf}%-conf.int. "
                      f"{ci[m].low:.5f} - {ci[m].high:.5f})", file=out)
            if "d" in flags:
                print(_DOTS, file=out)
                rows = dict(zip((f"{i}.{peer}" for i in ids),
                                per_evaluation(scores[var], alpha), strict=True))
                for key in sorted(rows, key=_by_eval_id):
                    r, p, f = rows[key]
                    print(f"{peer} {tag} Eval {key} R:{r:.5f} P:{p:.5f} F:{f:.5f}", file=out)
    return 0


def add_command(sub: Any) -> None:
    """Registers ``mtalign rouge155`` on the CLI's subparsers."""
    p = sub.add_parser("rouge155", help="ROUGE-1.5.5's command line (its XML config, its report)",
                       usage=USAGE, description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("args", nargs=argparse.REMAINDER, metavar="...",
                   help="ROUGE-1.5.5 options, the config file and an optional system ID")
    p.set_defaults(func=lambda a: run(list(a.args)))
