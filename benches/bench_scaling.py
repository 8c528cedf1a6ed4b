#!/usr/bin/env python3
"""Threads 1 → 16 on one machine: how a batch call's time falls with the cores it is given.

For each thread count of ``--threads`` (default ``1,2,4,8,16``, capped at the usable cores)
it times ``batch_score(hyps, refs, threads=t)`` (the median of ``--calls`` calls after one
warm call) on three shapes users have:

* **strict** text (``corpus.py``): no text occurs twice anywhere, one reference per
  hypothesis; nothing is shared or deduplicated (training-data filtering, RL on distinct
  prompts);
* **distinct** text, WMT-shaped: no hypothesis repeats, each reference serves the ~6 systems
  of its segment (**sharing helps**: a reference is read and prepared once per call);
* **token ids**: TensorBLEU's shape, 512 × 1,024 ids (and 4,096 × 1,024), as
  :class:`mtalign.TokenIds` over a padded int64 array; no Python object per token.

Each row gives milliseconds per thread count, the speed-up over one thread, and what
Amdahl's law predicts from the call's serial part: ``s`` = (time the call held the GIL, read
from ``_mtalign._detached_seconds``) / (the 1-thread call), ``1 / (s + (1 - s) / t)``.
With ``--peers`` it also times sacrebleu's ``sentence_bleu`` loop on a prefix of the strict
corpus (one process, as sacrebleu users run it) and prints mtalign's ratio at each thread
count.

Usage (from the repository root)::

    python benches/bench_scaling.py                       # needs ../shared/data
    python benches/bench_scaling.py --threads 1,2 --calls 5
    python benches/bench_scaling.py --data-dir DIR --peers sacrebleu --markdown out.md
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
import mtalign  # noqa: E402
from _common import machine_info  # noqa: E402
from bench_serial import amdahl, serial_timing  # noqa: E402
from bench_token_ids import make_batch  # noqa: E402
from mtalign import TokenIds, _mtalign  # noqa: E402

SACREBLEU_PAIRS = 3000


def text_metrics() -> dict[str, Any]:
    """The text rows: the metrics of ``bench_serial.py`` and the two sacrebleu users score."""
    return {
        "sentence BLEU": mtalign.Bleu(smooth="add1"),
        "chrF": mtalign.Chrf(),
        "ROUGE-L": mtalign.Rouge(["rougeL"]),
        "ROUGE-W-1.2": mtalign.Rouge(["rougeW-1.2"]),
        "ROUGE-S4": mtalign.Rouge(["rougeS4"]),
        "ROUGE-SU4": mtalign.Rouge(["rougeSU4"]),
        "TER": mtalign.Ter(),
    }


def id_metrics() -> dict[str, Any]:
    return {"sentence BLEU": mtalign.Bleu(smooth="exp", effective_order=True),
            "ROUGE-L": mtalign.Rouge("rougeL")}


def median_call(call: Callable[[], Any], calls: int) -> tuple[float, float]:
    """Median seconds of ``call`` and median seconds of it spent holding the GIL, garbage
    collector off (one warm call first: pools, caches, the strings' UTF-8 forms). A call
    slower than a quarter of a second is timed 3 to 10 times (about 3 s of calls), not
    ``calls``."""
    t0 = time.perf_counter()
    call()
    calls = max(3, min(calls, int(3.0 / max(time.perf_counter() - t0, 1e-9))))  # slow rows
    gc.collect()
    gc.disable()
    try:
        total, held, _ = serial_timing(call, _mtalign._detached_seconds, calls, warm=False)
    finally:
        gc.enable()
    return total, held


class Table:
    """Rows of one shape: ms at each thread count, speed-up, Amdahl's prediction."""

    def __init__(self, title: str, threads: list[int], out: list[str]) -> None:
        self.threads, self.out = threads, out
        top = max(threads)
        out += [f"\n### {title}\n",
                "| metric | " + " | ".join(f"{t} thr ms" for t in threads)
                + f" | GIL ms | s | ×{top} measured | ×{top} Amdahl |",
                "|---|" + "---:|" * (len(threads) + 4)]
        print("\n".join(out[-3:]), flush=True)

    def row(self, name: str, call: Callable[[int], Any], calls: int) -> dict[int, float]:
        ms: dict[int, float] = {}
        gil = []
        for t in self.threads:
            total, held = median_call(lambda k=t: call(k), calls)
            ms[t] = total * 1e3
            gil.append(held * 1e3)
        held_ms = min(gil)  # the same serial work at every count; the least disturbed
        s = held_ms / ms[self.threads[0]] if self.threads[0] == 1 else float("nan")
        top = max(self.threads)
        line = (f"| {name} | " + " | ".join(f"{ms[t]:.2f}" for t in self.threads)
                + f" | {held_ms:.2f} | {s:.3f} | {ms[self.threads[0]] / ms[top]:.1f}× "
                f"| {amdahl(s, top):.1f}× |")
        self.out.append(line)
        print(line, flush=True)
        return ms


def text_rows(corpus: corpora.Corpus, threads: list[int], calls: int, out: list[str],
              title: str) -> dict[str, dict[int, float]]:
    hyps, refs = list(corpus.hyps), list(corpus.refs)
    table = Table(f"{title}: {len(hyps):,} pairs, {corpus.label}", threads, out)
    return {name: table.row(name, lambda t, m=m: m.batch_score(hyps, refs, threads=t), calls)
            for name, m in text_metrics().items()}


def id_rows(n: int, length: int, threads: list[int], calls: int, out: list[str]) -> None:
    h, r = make_batch(n, length, 32_000, 0.3, 12345)  # bench_token_ids.py's batch
    full = np.full(n, length)
    hyps, refs = TokenIds.from_padded(h, lengths=full), TokenIds.from_padded(r, lengths=full)
    table = Table(f"token ids: {n:,} × {length:,} ids from 32,000 (30% of each reference "
                  "replaced)", threads, out)
    for name, m in id_metrics().items():
        table.row(name, lambda t, m=m: m.batch_score(hyps, refs, threads=t), calls)


def sacrebleu_rows(corpus: corpora.Corpus, bleu_ms: dict[int, float], out: list[str]) -> None:
    """sacrebleu's sentence_bleu loop on a prefix, scaled per pair to the whole corpus."""
    try:
        import sacrebleu
    except ImportError:
        print("sacrebleu is not installed: no peer row", flush=True)
        return
    smooth = sacrebleu.metrics.BLEU(smooth_method="add-k")  # as bench_bleu.py's loop
    pairs = list(zip(corpus.hyps, corpus.refs, strict=True))[:SACREBLEU_PAIRS]
    t0 = time.perf_counter()
    for h, r in pairs:
        smooth.sentence_score(h, [r])
    per_pair = (time.perf_counter() - t0) / len(pairs)
    peer_ms = per_pair * len(corpus) * 1e3
    out += [f"\nsacrebleu {sacrebleu.__version__} `sentence_score` loop (add-k, "
            f"{len(pairs):,} pairs timed, scaled to {len(corpus):,}): {peer_ms:,.0f} ms; "
            "mtalign sentence BLEU is "
            + ", ".join(f"{peer_ms / ms:,.0f}× at {t} thr" for t, ms in bleu_ms.items())]
    print(out[-1], flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=corpora.DEFAULT_DATA_DIR,
                    help="the folder of the WMT21, TED and Moses sets (default: ../shared/data)")
    ap.add_argument("--threads", default="1,2,4,8,16",
                    help="comma-separated thread counts (capped at the usable cores)")
    ap.add_argument("--calls", type=int, default=11, help="timed calls per cell (median)")
    ap.add_argument("--peers", default="", help="'sacrebleu' to time its loop too")
    ap.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = ap.parse_args()
    info = machine_info(["mtalign", "numpy", "sacrebleu"])
    threads = sorted({t for t in map(int, args.threads.split(",")) if t <= info["nproc"]})
    if not threads:
        raise SystemExit(f"no thread count of {args.threads} fits the {info['nproc']} cores")
    out = [f"{info['nproc']} usable cores ({info['cpu']}), {info['python']}, "
           f"{info['platform']}; versions {info['versions']}; median of {args.calls} calls"]
    print(out[0], flush=True)
    strict = corpora.distinct_texts_pairs(args.data_dir)
    got = text_rows(strict, threads, args.calls, out, "strict text (nothing repeats)")
    if "sacrebleu" in args.peers:
        sacrebleu_rows(strict, got["sentence BLEU"], out)
    wmt = corpora.distinct_pairs(args.data_dir)
    text_rows(wmt, threads, args.calls, out, "WMT-shaped text (sharing helps)")
    for n in (512, 4096):
        id_rows(n, 1024, threads, args.calls, out)
    if args.markdown:
        args.markdown.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
