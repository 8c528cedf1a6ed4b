#!/usr/bin/env python3
"""Timing benchmark: minimum-Bayes-risk matrices (every sample against every sample).

For N = 16, 64, 256, 1024 (``--sizes``) samples of one source sentence — real WMT21 en→de
system outputs of one segment, perturbed (words dropped, swapped and replaced by words of
other outputs, seeded) until there are N distinct samples — it times the N × N utility
matrix (``metric.pairwise(samples)``, symmetric: each unordered pair scored once where the
metric allows) and the expected utilities, for ROUGE-L, BLEUS4 (sentence BLEU, add-one),
WER and chrF, with ``threads=1`` and ``threads=None``, and chrF's reference aggregation
(``expected_scores(aggregate=True)``, linear in N).

Peers, measured in the same run on the same samples:

* fastchrf (PyPI): ``pairwise_chrf`` and ``aggregate_chrf`` (its chrF has no word n-grams,
  as mtalign's default ``Chrf()``);
* mbrs (PyPI) ``MetricBLEU`` / ``MetricChrF`` when importable (mbrs needs torch). Where it is
  not, the row "sacrebleu per pair" times what mbrs's sacrebleu-backed metrics compute: one
  ``sacrebleu`` ``sentence_score`` per pair on one process, labelled as such;
* rouge-score (ROUGE-L) and jiwer (WER), one call per pair.

Per-pair peers are slow: at sizes above ``--peer-max`` (default 64) they run on a 64 × 64
block of the same samples and the time is scaled by N² / 64² (marked "extrapolated").

The targets of issue 17 are printed with MET / NOT MET: BLEUS4 N=1024 ≤ 0.3 s, ROUGE-L
N=1024 ≤ 0.1 s and N=64 ≤ 1 ms, chrF N=1024 ≤ 1 s exact and ≤ 50 ms aggregated, and
``threads=None`` never slower than ``threads=1`` (allowing 10% timer noise).

Usage (from the repository root; peers: ``pip install -e ".[bench]"``)::

    python benches/bench_mbr.py                      # the full run, ~1-3 min on 2 cores
    python benches/bench_mbr.py --sizes 16 64 --repeat 3   # a quick check

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "benches"))
DATA = REPO_ROOT / "tests" / "data" / "orange_wmt21_ende"

import mtalign  # noqa: E402
from _common import edit_words, machine_info, print_targets  # noqa: E402
from _common import timed as timed_runs  # noqa: E402

timed = partial(timed_runs, best=True)  # the best of the runs

TARGETS = {("ROUGE-L", 1024): 0.1, ("ROUGE-L", 64): 0.001, ("BLEUS4", 1024): 0.3,
           ("chrF", 1024): 1.0, ("chrF agg", 1024): 0.05}


def samples(n: int, seed: int = 17) -> list[str]:
    """N distinct perturbed system outputs of one WMT21 en→de segment."""
    outputs = [p.read_text(encoding="utf-8").splitlines()[3]
               for p in sorted((DATA / "hyp").iterdir())]
    vocab = sorted({w for o in outputs for w in o.split()})
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        words = rng.choice(outputs).split()
        edit_words(words, rng, vocab, keep=3)
        text = " ".join(words)
        if text not in seen:
            seen.add(text)
            out.append(text)
    return out


def per_pair(score: Callable[[str, str], float], xs: list[str]) -> Callable[[], Any]:
    return lambda: [[score(h, r) for r in xs] for h in xs]


def peers(name: str) -> list[tuple[str, Callable[[list[str]], Callable[[], Any]], bool]]:
    """(label, make(samples) -> timed call, per-pair?) of the peers of one metric."""
    out: list[tuple[str, Callable[[list[str]], Callable[[], Any]], bool]] = []
    mbrs_metrics: Any = None
    try:
        from mbrs import metrics as mbrs_metrics  # needs torch
    except Exception:  # noqa: BLE001 (any import failure: the peer is absent)
        mbrs_metrics = None
    if name == "BLEUS4":
        import sacrebleu

        if mbrs_metrics is not None:
            m = mbrs_metrics.MetricBLEU(mbrs_metrics.MetricBLEU.Config(
                smooth_method="add-k", smooth_value=1, effective_order=False, num_workers=1))
            out.append(("mbrs MetricBLEU.pairwise_scores", lambda xs: lambda: m.pairwise_scores(
                xs, xs), False))
        bleu = sacrebleu.metrics.BLEU(smooth_method="add-k", smooth_value=1)
        out.append(("sacrebleu per pair (mbrs's backend)",
                    lambda xs: per_pair(lambda h, r: bleu.sentence_score(h, [r]).score, xs), True))
    elif name == "chrF":
        try:
            import fastchrf

            out.append(("fastchrf.pairwise_chrf",
                        lambda xs: lambda: fastchrf.pairwise_chrf([xs], [xs]), False))
        except ImportError:
            pass
        if mbrs_metrics is not None:
            m2 = mbrs_metrics.MetricChrF(mbrs_metrics.MetricChrF.Config(num_workers=1))
            out.append(("mbrs MetricChrF.pairwise_scores",
                        lambda xs: lambda: m2.pairwise_scores(xs, xs), False))
        import sacrebleu

        chrf = sacrebleu.metrics.CHRF()
        out.append(("sacrebleu per pair (mbrs's backend)",
                    lambda xs: per_pair(lambda h, r: chrf.sentence_score(h, [r]).score, xs), True))
    elif name == "chrF agg":
        try:
            import fastchrf

            out.append(("fastchrf.aggregate_chrf",
                        lambda xs: lambda: fastchrf.aggregate_chrf([xs], [xs]), False))
        except ImportError:
            pass
    elif name == "ROUGE-L":
        try:
            from rouge_score import rouge_scorer

            rs = rouge_scorer.RougeScorer(["rougeL"])
            out.append(("rouge-score per pair",
                        lambda xs: per_pair(lambda h, r: rs.score(r, h)["rougeL"].fmeasure, xs),
                        True))
        except ImportError:
            pass
    elif name == "WER":
        try:
            import jiwer

            out.append(("jiwer per pair", lambda xs: per_pair(jiwer.wer, xs), True))
        except ImportError:
            pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256, 1024])
    ap.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    ap.add_argument("--peer-max", type=int, default=64,
                    help="per-pair peers above this N run on a 64×64 block, extrapolated")
    args = ap.parse_args()
    info = machine_info(["mtalign", "sacrebleu", "fastchrf", "mbrs", "rouge-score", "jiwer"])
    print(f"# MBR matrices: {info['nproc']} usable cores, {info['cpu']}, {info['python']}")
    print(f"# versions: {info['versions']}")
    print("# samples: perturbed WMT21 en-de system outputs of one segment (tests/data), "
          f"mean {np.mean([len(s.split()) for s in samples(64)]):.1f} words")
    metrics: dict[str, Callable[[list[str], int | None], Any]] = {
        "ROUGE-L": lambda xs, t: mtalign.Rouge("rougeL").expected_scores(xs, threads=t),
        "BLEUS4": lambda xs, t: mtalign.Bleu.bleus(4).expected_scores(xs, threads=t),
        "WER": lambda xs, t: mtalign.Wer().expected_scores(xs, threads=t),
        "chrF": lambda xs, t: mtalign.Chrf().expected_scores(xs, threads=t),
        "chrF agg": lambda xs, t: mtalign.Chrf().expected_scores(xs, threads=t, aggregate=True),
    }
    verdicts: list[str] = []
    print(f"\n{'metric':<9} {'N':>5} {'mtalign t=1':>12} {'t=None':>10} "
          f"{'None/1':>7}  peer (same samples): time, ratio peer/mtalign(t=None)")
    for name, run in metrics.items():
        for n in args.sizes:
            xs = samples(n)
            run(xs, None)  # warm the pools and buffers
            t1 = timed(lambda r=run, x=xs: r(x, 1), args.repeat)
            tn = timed(lambda r=run, x=xs: r(x, None), args.repeat)
            cells = []
            for label, make, pairwise in peers(name):
                if pairwise and n > args.peer_max:
                    block = xs[:args.peer_max]
                    tp = timed(make(block), 1) * (n / args.peer_max) ** 2
                    label += " (extrapolated)"
                else:
                    tp = timed(make(xs), 1 if n >= 256 else args.repeat)
                cells.append(f"{label} {tp * 1e3:.1f} ms ×{tp / tn:.1f}")
            print(f"{name:<9} {n:>5} {t1 * 1e3:>10.2f}ms {tn * 1e3:>8.2f}ms {tn / t1:>7.2f}  "
                  + "; ".join(cells), flush=True)
            target = TARGETS.get((name, n))
            if target is not None:
                verdicts.append(f"{name} N={n}: {tn:.4f} s (target ≤ {target} s) "
                                f"{'MET' if tn <= target else 'NOT MET'}")
            if tn > 1.1 * t1:
                verdicts.append(f"{name} N={n}: threads=None {tn * 1e3:.2f} ms slower than "
                                f"threads=1 {t1 * 1e3:.2f} ms: NOT MET")
    print_targets("issue 17", verdicts, "(no target size in --sizes)")


if __name__ == "__main__":
    main()
