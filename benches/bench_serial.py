#!/usr/bin/env python3
"""The serial part of a text batch: time under the GIL / total, per metric, and Amdahl.

On the ``strict`` corpus (``corpus.py``: no text occurs twice anywhere, one reference per
hypothesis) it times mtalign's ``batch_score`` with ``threads=1`` and ``threads=2`` (medians)
and reads how long each call ran with the GIL released (``_mtalign._detached_seconds``, summed
by the native entry); the rest of the call held the GIL, one thread's work whatever the
thread count. It prints, per metric:

* ``GIL ms``: the median time a call held the GIL (reading the strings, building the result);
* ``serial@2``: that time / the call's time on 2 threads (issue 32's goal: under 0.05);
* ``s``: that time / the call's time on 1 thread, Amdahl's serial fraction of the work, and
  ``x16``: the speed-up it allows on 16 cores, ``1 / (s + (1 - s) / 16)``;
* ``s (CPU)``: the same fraction from CPU time, which a loaded machine disturbs less: the
  calling thread's CPU time (``time.thread_time``: it holds the GIL, or sleeps while the pool
  works) over the process's (``time.process_time``, every thread), on 2 threads; it also
  counts serial work on the pool (the grouping of the pairs) as parallel, so it is a floor.

Usage: ``python benches/bench_serial.py [--pairs N] [--calls 9]``
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402


def metrics(mtalign: Any) -> dict[str, Any]:
    """The rows' metrics, each with the options of the benchmarks' rows."""
    return {
        "rougeL": mtalign.Rouge(["rougeL"]),
        "rougeW-1.2": mtalign.Rouge(["rougeW-1.2"]),
        "rougeS4": mtalign.Rouge(["rougeS4"]),
        "rougeSU4": mtalign.Rouge(["rougeSU4"]),
        "sentence BLEU": mtalign.Bleu(smooth="add1"),
    }


def serial_timing(call: Callable[[], Any], detached: Callable[[], float],
          calls: int, warm: bool = True) -> tuple[float, float, float]:
    """Median seconds of a call, median seconds of it spent holding the GIL, and the median
    share of the process's CPU time that the calling thread used (after one untimed call
    unless the caller made it: ``warm=False``)."""
    total, held, cpu = [], [], []
    if warm:
        call()  # warm: pools, caches, UTF-8 forms of the strings
    for _ in range(calls):
        d0, c0, p0 = detached(), time.thread_time(), time.process_time()
        t0 = time.perf_counter()
        call()
        t = time.perf_counter() - t0
        c, p = time.thread_time() - c0, time.process_time() - p0
        total.append(t)
        held.append(t - (detached() - d0))
        cpu.append(c / p if p > 0 else 0.0)
    return statistics.median(total), statistics.median(held), statistics.median(cpu)


def amdahl(s: float, cores: int = 16) -> float:
    """The speed-up on ``cores`` cores of work whose serial fraction is ``s``."""
    return 1 / (s + (1 - s) / cores)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=corpora.DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=None, help="at most this many pairs")
    ap.add_argument("--calls", type=int, default=9, help="timed calls per row (median)")
    args = ap.parse_args()
    import mtalign
    from mtalign import _mtalign

    corpus = corpora.distinct_texts_pairs(args.data_dir, args.pairs)
    hyps, refs = list(corpus.hyps), list(corpus.refs)
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    print(f"{corpus.name} corpus, {corpus.label}: {len(hyps):,} pairs")
    print(f"{'metric':<14} {'1 thr ms':>9} {'2 thr ms':>9} {'GIL ms':>7} {'serial@2':>9} "
          f"{'s':>6} {'x16':>6} {'s (CPU)':>8} {'x16':>6}")
    gc.disable()
    for name, metric in metrics(mtalign).items():
        t1, g1, _ = serial_timing(lambda m=metric: m.batch_score(hyps, refs, threads=1),
                       _mtalign._detached_seconds, args.calls)
        t2, g2, c2 = serial_timing(lambda m=metric: m.batch_score(hyps, refs, threads=2),
                       _mtalign._detached_seconds, args.calls)
        held = min(g1, g2)  # the same serial work; the lower is the less disturbed
        s = held / t1
        print(f"{name:<14} {t1 * 1e3:9.2f} {t2 * 1e3:9.2f} {held * 1e3:7.2f} "
              f"{held / t2:9.3f} {s:6.3f} {amdahl(s):6.1f} {c2:8.3f} {amdahl(c2):6.1f}")
    gc.enable()


if __name__ == "__main__":
    main()
