#!/usr/bin/env python3
"""Per-call latency: the cost of ONE call with one sentence pair, mtalign against the peers.

For every metric of ``mtalign.registry`` (ROUGE-L, 1+2+L, W-1.2, S4, SU4; BLEU, BLEUS4,
``Bleu()``; NIST; WER; PER; RIBES; DCS; SIA; chrF, chrF++, TER, GTM, METEOR) it times
``metric.sentence_score(hyp, ref)`` called in a loop over distinct pairs of 10-20 words,
one pair per call, and reports the median over ``--repeat`` rounds of the mean
microseconds per call. In the same run, the peers' one-pair APIs are timed on the same
pairs, each peer in a child process of its own:

* rouge-score ``RougeScorer(types).score(ref, hyp)``; rouge-score-rs
  ``RougeScorer(types).score(ref, hyp)``; rouge-rust ``fast_rouge.score(ref, hyp)`` (always
  rouge1, rouge2 and rougeL); rouge-metric ``PyRouge(...).evaluate([hyp], [[ref]])``;
* sacrebleu ``sentence_bleu(hyp, [ref])``, ``BLEU(effective_order=True).sentence_score`` and
  ``BLEU(smooth_method="add-k").sentence_score`` (one object reused); nltk ``sentence_bleu``
  (method3 for BLEU, method2 for BLEUS4), ``sentence_nist`` and ``sentence_ribes`` on tokens
  split beforehand (not timed); jiwer ``wer(ref, hyp)``.

Beside each mtalign row: its per-pair cost inside one large ``batch_score`` call (distinct
pairs of the same length, ``threads=1`` and all cores), the ratio call / batch (one thread),
and the speed-up over the fastest peer. A targets section checks the latency items of
issue 12's acceptance list.

Usage (from the repository root)::

    python benches/bench_latency.py                 # about a minute on 2 cores
    python benches/bench_latency.py --peers none --calls 500 --repeat 5
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections import deque
from collections.abc import Callable
from functools import partial
from itertools import starmap
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
from _common import machine_info  # noqa: E402

RESULT_MARK = "@@LATENCY-RESULT@@ "
PEERS = ("rouge-score", "rouge-score-rs", "rouge-rust", "rouge-metric", "sacrebleu", "nltk",
         "jiwer")
PEER_MODULES = {
    "rouge-score": "rouge_score",
    "rouge-score-rs": "rouge_score_rs",
    "rouge-rust": "fast_rouge",
    "rouge-metric": "rouge_metric",
    "sacrebleu": "sacrebleu",
    "nltk": "nltk",
    "jiwer": "jiwer",
}
DIST_NAMES = ("mtalign", "numpy", *PEERS)

# (key, how mtalign builds it): ROUGE objects with their defaults (as in the acceptance
# list), the other metrics from the registry by their command-line name.
MTALIGN_ROWS: tuple[tuple[str, str], ...] = (
    ("rougeL", 'Rouge(["rougeL"])'),
    ("rouge1+rouge2+rougeL", 'Rouge(["rouge1", "rouge2", "rougeL"])'),
    ("rougeW-1.2", 'Rouge(["rougeW-1.2"])'),
    ("rougeS4", 'Rouge(["rougeS4"])'),
    ("rougeSU4", 'Rouge(["rougeSU4"])'),
    ("Bleu()", "Bleu()"),
    ("bleu", 'registry "bleu"'),
    ("bleus4", 'registry "bleus4"'),
    ("nist", 'registry "nist"'),
    ("wer", 'registry "wer"'),
    ("per", 'registry "per"'),
    ("ribes", 'registry "ribes"'),
    ("dcs", 'registry "dcs"'),
    ("dcs-word", 'Dcs("word")'),
    ("sia", 'registry "sia"'),
    ("chrf", 'registry "chrf"'),
    ("chrf++", 'registry "chrf++"'),
    ("ter", 'registry "ter"'),
    ("gtm", 'registry "gtm"'),
    ("meteor", 'registry "meteor"'),
)


# --------------------------------------------------------------------------------------------
# Timing


def loop_us(fn: Callable[..., Any], rounds: list[list[tuple]], before: Callable | None) -> dict:
    """Median over rounds of (seconds for one loop over the round's pairs) / pairs, in µs.

    Each round calls ``fn(*args)`` once per tuple, through ``deque(starmap(...))`` (the
    cheapest Python loop); the garbage collector is off while timing.
    """
    per_call = []
    for args in rounds:
        if before is not None:
            before()
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            deque(starmap(fn, args), maxlen=0)
            elapsed = time.perf_counter() - t0
        finally:
            gc.enable()
        per_call.append(elapsed / len(args) * 1e6)
    return {
        "us": statistics.median(per_call),
        "us_min": min(per_call),
        "us_max": max(per_call),
        "calls": sum(len(a) for a in rounds),
    }


def time_call(
    fn: Callable[..., Any],
    args_of: Callable[[str, str], tuple],
    warm: list[tuple[str, str]],
    rounds: list[list[tuple[str, str]]],
    before: Callable | None = None,
) -> dict[str, Any]:
    """Warm up on ``warm``, then time ``fn(*args_of(hyp, ref))`` over each round."""
    try:
        warm_args = [args_of(h, r) for h, r in warm]
        round_args = [[args_of(h, r) for h, r in rnd] for rnd in rounds]
        deque(starmap(fn, warm_args), maxlen=0)
        return {**loop_us(fn, round_args, before), "error": None}
    except Exception as exc:  # noqa: BLE001 - report and go on
        return {"us": None, "error": f"{type(exc).__name__}: {exc}"}


def noop(a: Any, b: Any) -> None:
    return None


# --------------------------------------------------------------------------------------------
# mtalign


# What the registry builds for each name today (used only if mtalign.registry moves).
FALLBACK = {
    "bleu": lambda m: m.Bleu(4, smooth="exp"),
    "bleus4": lambda m: m.Bleu(4, smooth="add1"),
    "nist": lambda m: m.Nist(),
    "wer": lambda m: m.Wer(),
    "per": lambda m: m.Per(),
    "ribes": lambda m: m.Ribes(),
    "dcs": lambda m: m.Dcs("char", multi_ref="max"),
    "sia": lambda m: m.Sia(),
}


def build_mtalign(mtalign: Any, key: str) -> Any:
    if key.startswith("rouge"):
        return mtalign.Rouge(key.split("+"))
    if key == "Bleu()":
        return mtalign.Bleu()
    if key == "dcs-word":
        return mtalign.Dcs("word")
    try:
        from mtalign.registry import make_metric
    except ImportError:
        return FALLBACK[key](mtalign)
    return make_metric(key)[0]


def time_batch(metric: Any, hyps: list[str], refs: list[str], threads: int | None,
               repeat: int) -> dict[str, Any]:
    """Median seconds of ``metric.batch_score(hyps, refs, threads=...)``, as µs per pair."""
    try:
        metric.batch_score(hyps[:500], refs[:500], threads=threads)  # warm-up
        times = []
        for _ in range(repeat):
            gc.collect()
            gc.disable()
            try:
                t0 = time.perf_counter()
                metric.batch_score(hyps, refs, threads=threads)
                times.append(time.perf_counter() - t0)
            finally:
                gc.enable()
        return {"us": statistics.median(times) / len(hyps) * 1e6, "error": None}
    except Exception as exc:  # noqa: BLE001
        return {"us": None, "error": f"{type(exc).__name__}: {exc}"}


def mtalign_rows(
    mtalign: Any,
    warm: list[tuple[str, str]],
    rounds: list[list[tuple[str, str]]],
    batch: corpora.Corpus,
    batch_repeat: int,
) -> list[dict[str, Any]]:
    rows = []
    for key, how in MTALIGN_ROWS:
        row: dict[str, Any] = {"metric": key, "tool": "mtalign", "call": f"{how}.sentence_score"}
        try:
            metric = build_mtalign(mtalign, key)
            row["repr"] = repr(metric)
        except Exception as exc:  # noqa: BLE001
            rows.append({**row, "us": None, "error": f"{type(exc).__name__}: {exc}"})
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row.update(time_call(metric.sentence_score, lambda h, r: (h, r), warm, rounds))
            one = time_call(partial(metric.batch_score, threads=1), lambda h, r: ([h], [r]),
                            warm, rounds)
            b1 = time_batch(metric, batch.hyps, batch.refs, 1, batch_repeat)
            ball = time_batch(metric, batch.hyps, batch.refs, None, batch_repeat)
        row["one_pair_batch_us"] = one["us"]
        row["batch_us_1"] = b1["us"]
        row["batch_us_all"] = ball["us"]
        row["batch_error"] = b1["error"] or ball["error"]
        rows.append(row)
    return rows


def registry_coverage() -> list[str]:
    """Families of mtalign.registry that no row of this benchmark times."""
    try:
        from mtalign import registry
    except ImportError:
        return []
    keys = [k for k, _ in MTALIGN_ROWS]
    names = [n for k in keys for n in k.split("+")] + ["dcs"]
    missing = []
    for fam in getattr(registry, "FAMILIES", ()):
        if not any(fam.matches(n) for n in names):
            missing.append(f"{fam.name} ({fam.names_help})")
    return missing


# --------------------------------------------------------------------------------------------
# Peers (each in a child process)


def peer_jobs(peer: str) -> list[tuple[str, str, Callable, Callable, Callable | None]]:
    """(metric key, call, fn, args_of(hyp, ref), before_round) of each one-call API."""
    jobs: list[tuple[str, str, Callable, Callable, Callable | None]] = []
    std = ("rougeL", "rouge1+rouge2+rougeL")

    def ref_hyp(h: str, r: str) -> tuple:
        return (r, h)

    if peer == "rouge-score":
        from rouge_score import rouge_scorer

        for key in std:
            scorer = rouge_scorer.RougeScorer(key.split("+"), use_stemmer=False)
            jobs.append((key, "RougeScorer.score(ref, hyp)", scorer.score, ref_hyp, None))
    elif peer == "rouge-score-rs":
        from rouge_score_rs import RougeScorer

        for key in std:
            scorer = RougeScorer(key.split("+"), use_stemmer=False)
            jobs.append((key, "RougeScorer.score(ref, hyp)", scorer.score, ref_hyp, None))
    elif peer == "rouge-rust":
        import fast_rouge

        for key in std:
            jobs.append((key, "fast_rouge.score(ref, hyp) (always 1+2+L)", fast_rouge.score,
                         ref_hyp, None))
    elif peer == "rouge-metric":
        import re

        from rouge_metric import PyRouge

        word = re.compile(r"[^\W_]+")

        def tokenize(sentence: str) -> list[str]:
            return word.findall(sentence.lower())

        options = {
            "rougeL": {"rouge_n": (), "rouge_l": True},
            "rouge1+rouge2+rougeL": {"rouge_n": (1, 2), "rouge_l": True},
            "rougeW-1.2": {"rouge_n": (), "rouge_l": False, "rouge_w": True},
            "rougeS4": {"rouge_n": (), "rouge_l": False, "rouge_s": True},
            "rougeSU4": {"rouge_n": (), "rouge_l": False, "rouge_su": True},
        }
        for key, opts in options.items():
            py_rouge = PyRouge(**opts, rouge_w_weight=1.2, skip_gap=4, mode="individual")
            fn = partial(py_rouge.evaluate, tokenizer=tokenize)
            jobs.append((key, "PyRouge.evaluate([hyp], [[ref]])", fn,
                         lambda h, r: ([h], [[r]]), None))
    elif peer == "sacrebleu":
        import logging

        import sacrebleu
        from sacrebleu.metrics import BLEU
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
        from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

        logging.getLogger("sacrebleu").setLevel(logging.ERROR)

        def cold() -> None:  # its 13a tokenizer has an LRU cache: start each round cold
            Tokenizer13a.__call__.cache_clear()
            TokenizerRegexp.__call__.cache_clear()

        def h_refs(h: str, r: str) -> tuple:
            return (h, [r])

        for key in ("Bleu()", "bleu"):
            jobs.append((key, "sacrebleu.sentence_bleu(hyp, [ref])", sacrebleu.sentence_bleu,
                         h_refs, cold))
            jobs.append((key, "BLEU(effective_order=True).sentence_score(hyp, [ref])",
                         BLEU(effective_order=True).sentence_score, h_refs, cold))
        for key in ("bleus4",):
            jobs.append((key, 'BLEU(smooth_method="add-k").sentence_score(hyp, [ref])',
                         BLEU(smooth_method="add-k").sentence_score, h_refs, cold))
    elif peer == "nltk":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        from nltk.translate.nist_score import sentence_nist
        from nltk.translate.ribes_score import sentence_ribes

        def tokens(h: str, r: str) -> tuple:
            return ([r.split()], h.split())

        smooth = SmoothingFunction()
        for key, method in (("bleu", "method3"), ("bleus4", "method2")):
            fn = partial(sentence_bleu, smoothing_function=getattr(smooth, method))
            jobs.append((key, f"sentence_bleu(refs, hyp, {method}) on split tokens", fn,
                         tokens, None))
        jobs.append(("nist", "sentence_nist(refs, hyp) on split tokens", sentence_nist, tokens,
                     None))
        jobs.append(("ribes", "sentence_ribes(refs, hyp) on split tokens", sentence_ribes,
                     tokens, None))
    elif peer == "jiwer":
        import jiwer

        jobs.append(("wer", "jiwer.wer(ref, hyp)", jiwer.wer, ref_hyp, None))
    else:
        raise ValueError(f"unknown peer {peer}")
    return jobs


def worker_main(peer: str, pairs_file: Path) -> None:
    data = json.loads(pairs_file.read_text(encoding="utf-8"))
    warm = [tuple(p) for p in data["warm"]]
    rounds = [[tuple(p) for p in rnd] for rnd in data["rounds"]]
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, call, fn, args_of, before in peer_jobs(peer):
            rows.append({"metric": key, "tool": peer, "call": call,
                         **time_call(fn, args_of, warm, rounds, before)})
    print(RESULT_MARK + json.dumps(rows), flush=True)


def run_peer(peer: str, pairs_file: Path) -> list[dict[str, Any]]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", peer,
           "--pairs-file", str(pairs_file)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=dict(os.environ))
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
    return [{"metric": "*", "tool": peer, "call": "-", "us": None,
             "error": f"worker exited {proc.returncode}: {tail[0]}"}]


# --------------------------------------------------------------------------------------------
# Report


def fmt_us(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.2f}" if x < 10 else (f"{x:,.1f}" if x < 1000 else f"{x:,.0f}")


def fmt_x(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:.2f}x" if x < 10 else f"{x:,.0f}x"


def print_table(headers: list[str], rows: list[list[str]], right: set[int]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def fastest(rows: list[dict[str, Any]], metric: str, tools: tuple[str, ...] | None = None,
            call_contains: str | None = None) -> dict[str, Any] | None:
    found = [r for r in rows if r["metric"] == metric and r["tool"] != "mtalign"
             and r.get("us") is not None and (tools is None or r["tool"] in tools)
             and (call_contains is None or call_contains in r["call"])]
    return min(found, key=lambda r: r["us"], default=None)


def report(rows: list[dict[str, Any]], overhead: dict[str, Any],
           args: argparse.Namespace) -> dict[str, Any]:
    ours = [r for r in rows if r["tool"] == "mtalign"]
    print(f"\n== Latency of one call (µs per call: median over {args.repeat} rounds of "
          f"{args.calls:,} calls, each call one distinct pair)")
    table = []
    for r in ours:
        peer = fastest(rows, r["metric"])
        call_batch = (None if r.get("us") is None or not r.get("batch_us_1")
                      else r["us"] / r["batch_us_1"])
        speedup = None if peer is None or r.get("us") is None else peer["us"] / r["us"]
        r["call_over_batch"] = call_batch
        r["fastest_peer"] = None if peer is None else f"{peer['tool']}: {peer['call']}"
        r["speedup_vs_fastest_peer"] = speedup
        if r.get("us") is None:
            table.append([r["metric"], "mtalign", "error: " + str(r["error"])[:60],
                          "-", "-", "-", "-", "-", "-"])
        else:
            table.append([r["metric"], "mtalign", fmt_us(r["us"]),
                          fmt_us(r.get("one_pair_batch_us")), fmt_us(r.get("batch_us_1")),
                          fmt_us(r.get("batch_us_all")), fmt_x(call_batch),
                          "-" if peer is None else f"{peer['tool']} {fmt_us(peer['us'])}",
                          fmt_x(speedup)])
        for p in sorted((p for p in rows if p["metric"] == r["metric"] and p["tool"] != "mtalign"),
                        key=lambda p: (p.get("us") is None, p.get("us") or 0)):
            shown = fmt_us(p["us"]) if p.get("us") is not None else "error: " + str(p["error"])
            table.append(["", f"  {p['tool']}: {p['call']}", shown, "", "", "", "", "", ""])
    print_table(["metric", "tool / call", "µs/call", "1-pair batch", "batch µs/pair 1 thr",
                 "batch µs/pair all", "call/batch", "fastest peer µs", "speed-up"],
                table, right={2, 3, 4, 5, 6, 8})
    print(f"Loop overhead (a Python no-op function in the same loop): {fmt_us(overhead['us'])} "
          "µs/call, included in every row.")
    print("batch µs/pair: one batch_score call on the batch corpus (median of "
          f"{args.batch_repeat}), seconds / pairs; 1 thr = threads=1, all = threads=None.")
    print("1-pair batch: µs per batch_score([hyp], [ref], threads=1) call, same loop.")
    print("call/batch: µs per sentence_score call / batch µs per pair with one thread.")
    print("speed-up: fastest peer's µs per call / mtalign's (> 1: mtalign is faster).")
    print("Peers without mtalign's tokenization inside the call: nltk (tokens split "
          "beforehand, not timed).")
    errors = [r for r in rows if r["metric"] == "*"]
    for r in errors:
        print(f"  {r['tool']}: {r['error']}")

    # Targets
    print("\n== Targets (issue 12 acceptance, latency items)")
    targets = []

    def target(name: str, ok: bool | None, shown: str) -> None:
        status = "n/a" if ok is None else ("MET" if ok else "NOT MET")
        targets.append({"target": name, "value": shown, "status": status})
        print(f"  {name:<66} {shown:<28} {status}")

    by_key = {r["metric"]: r for r in ours}
    rl = by_key.get("rougeL", {}).get("us")
    for tool in ("rouge-score-rs", "rouge-rust"):
        peer = fastest(rows, "rougeL", (tool,))
        ok = None if rl is None or peer is None else rl <= peer["us"]
        shown = "-" if ok is None else f"{fmt_us(rl)} vs {fmt_us(peer['us'])} µs"
        target(f'Rouge(["rougeL"]).sentence_score <= {tool} .score', ok, shown)
    bl = by_key.get("Bleu()", {}).get("us")
    sac = fastest(rows, "Bleu()", ("sacrebleu",))
    ratio = None if bl is None or sac is None else sac["us"] / bl
    target("Bleu().sentence_score >= 10x faster than sacrebleu's (fastest call)",
           None if ratio is None else ratio >= 10, "-" if ratio is None else fmt_x(ratio))
    worst = None
    for r in ours:
        cb = r.get("call_over_batch")
        ok = None if cb is None else cb <= 3.0
        target(f"{r['metric']}: sentence_score within 3x of batch per-pair (1 thr)", ok,
               "-" if cb is None else fmt_x(cb))
        if cb is not None and (worst is None or cb > worst):
            worst = cb
    return {"targets": targets, "worst_call_over_batch": worst}


# --------------------------------------------------------------------------------------------
# Main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=corpora.DEFAULT_DATA_DIR,
                    help="folder holding the English-target sets (default: %(default)s)")
    ap.add_argument("--calls", type=int, default=1000,
                    help="calls (distinct pairs) per timed round (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=7,
                    help="timed rounds; the median µs/call is reported (default: %(default)s)")
    ap.add_argument("--min-words", type=int, default=10)
    ap.add_argument("--max-words", type=int, default=20)
    ap.add_argument("--batch-pairs", type=int, default=20_000,
                    help="pairs of the batch_score call (distinct corpus, same word range; "
                    "fewer if the data has fewer) (default: %(default)s)")
    ap.add_argument("--batch-repeat", type=int, default=7,
                    help="timed batch_score calls per batch figure; the median is used "
                         "(default: 7, as many as the rounds of one-pair calls)")
    ap.add_argument("--peers", default="all",
                    help=f"comma-separated from {', '.join(PEERS)}, or all/none")
    ap.add_argument("--json", metavar="OUT", type=Path)
    ap.add_argument("--worker", choices=PEERS, help=argparse.SUPPRESS)
    ap.add_argument("--pairs-file", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.calls < 1 or args.repeat < 1 or args.batch_repeat < 1:
        ap.error("--calls, --repeat and --batch-repeat must be positive")
    value = args.peers.strip().lower()
    args.peers = (list(PEERS) if value == "all" else [] if value == "none"
                  else [p.strip() for p in args.peers.split(",") if p.strip()])
    bad = [p for p in args.peers if p not in PEERS]
    if bad:
        ap.error(f"unknown peer(s): {', '.join(bad)}")
    return args


def is_importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        worker_main(args.worker, args.pairs_file)
        return 0

    info = machine_info(DIST_NAMES)
    print("== mtalign per-call latency benchmark")
    print(f"machine: {info['nproc']} usable cores, {info['cpu']}; {info['python']}")
    print("packages: " + ", ".join(f"{d} {v or 'not installed'}"
                                   for d, v in info["versions"].items()))

    lo, hi = args.min_words, args.max_words
    strict = corpora.distinct_texts_pairs(args.data_dir)
    pool = strict.filter_words(lo, hi)
    n_warm = min(200, max(1, len(pool) // 10))
    warm = pool.pairs[-n_warm:]
    usable = pool.pairs[:-n_warm] or pool.pairs
    need = args.calls * args.repeat
    wrapped = need > len(usable)
    rounds = [[usable[(k * args.calls + i) % len(usable)] for i in range(args.calls)]
              for k in range(args.repeat)]
    call_stats = corpora.Corpus("strict", strict.label, [h for r in rounds for h, _ in r],
                                [x for r in rounds for _, x in r]).stats()
    print(f"calls:   {strict.label}, strict corpus ({len(strict):,} pairs) filtered to "
          f"{lo}-{hi} words on both sides: {len(pool):,} pairs;")
    print(f"         {args.repeat} rounds x {args.calls:,} calls = {need:,} calls on "
          + (f"{len(usable):,} pairs (cycled: pairs repeat across rounds)" if wrapped
             else f"{need:,} pairs, all distinct (no text repeats in any call or round)")
          + f"; {n_warm} other pairs for the warm-up")
    print(f"         mean words: hyp {call_stats['mean_words_hyp']:.1f}, "
          f"ref {call_stats['mean_words_ref']:.1f}")
    distinct = corpora.distinct_pairs(args.data_dir)
    batch = distinct.filter_words(lo, hi).head(args.batch_pairs)
    bstats = batch.stats()
    print(f"batch:   {distinct.label}, distinct corpus filtered to {lo}-{hi} words: "
          f"{len(batch):,} pairs"
          + (f" (asked for {args.batch_pairs:,})" if len(batch) < args.batch_pairs else "")
          + f"; {bstats['distinct_hyps']:,} distinct hypotheses, {bstats['distinct_refs']:,} "
          f"distinct references (each used {bstats['mean_ref_uses']:.2f} times on average); "
          f"mean words hyp {bstats['mean_words_hyp']:.1f}, ref {bstats['mean_words_ref']:.1f}")
    print("timing:  loop = deque(starmap(fn, args)); garbage collector off; each peer in a "
          "child process; sacrebleu's tokenizer cache cleared before each round", flush=True)

    overhead = loop_us(noop, rounds, None)
    rows: list[dict[str, Any]] = []
    skipped = {}
    try:
        import mtalign
    except ImportError as exc:
        mtalign = None
        skipped["mtalign"] = f"not installed ({exc})"
    if mtalign is not None:
        print("running: mtalign ...", flush=True)
        rows += mtalign_rows(mtalign, warm, rounds, batch, args.batch_repeat)
        uncovered = registry_coverage()
        if uncovered:
            print("         NOTE: registry families without a row here: " + "; ".join(uncovered))

    with tempfile.TemporaryDirectory() as tmp:
        pairs_file = Path(tmp) / "pairs.json"
        pairs_file.write_text(json.dumps({"warm": warm, "rounds": rounds}), encoding="utf-8")
        for peer in args.peers:
            if not is_importable(PEER_MODULES[peer]):
                skipped[peer] = "not installed"
                continue
            print(f"running: {peer} ...", flush=True)
            rows += run_peer(peer, pairs_file)
    for name, why in skipped.items():
        print(f"         {name}: {why}, skipped")

    summary = report(rows, overhead, args)
    print("\nchrF, chrF++, TER: sacrebleu's one-pair calls are timed by bench_chrf.py, not "
          "here. PER, DCS, SIA: no peer with a one-call API.")
    print("Configurations: " + "; ".join(f"{r['metric']} = {r.get('repr', '?')}"
                                         for r in rows if r["tool"] == "mtalign"))
    if args.json:
        payload = {"machine": info, "args": {k: (str(v) if isinstance(v, Path) else v)
                                              for k, v in vars(args).items()},
                   "loop_overhead_us": overhead["us"], "rows": rows, "skipped": skipped,
                   "batch_pairs": len(batch), "call_pairs": len(pool), **summary}
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
