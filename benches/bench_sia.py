#!/usr/bin/env python3
"""Throughput benchmark: SIA (exact and stochastic), its fast kernel against the paper's DP,
and IBM-1 training.

* **exact**: every line of the 19 system outputs of ``wmt21_deen_news`` (1000 lines each)
  against both references, one ``Sia().batch_score`` call (19,000 hypotheses, 38,000
  hypothesis-reference pairs), ``threads=None`` and ``threads=1``.
* **stochastic**: the same corpus with a similarity table trained inside mtalign (IBM-1,
  5 iterations on the 50,000 Tanaka en-ja pairs, English side = the MT output language).
* **fast vs naive**: an evenly spaced 1,000-hypothesis subset (2,000 pairs), exact and
  stochastic matching, the fast kernel against the paper's O(M²N²) programme
  (``naive=True``), same thread count; the scores must be identical.
* **IBM-1**: training on the 50,000 Tanaka pairs, 5 iterations, and building the similarity
  table from it (eq. 3, top 100).

Usage (from the repository root)::

    python benches/bench_sia.py            # ~1 minute on 2 cores
    python benches/bench_sia.py --repeat 5

It is a script, not a test: it prints a table and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"
TARGET_EXACT_SECONDS = 2.0
TARGET_IBM1_SECONDS = 30.0

sys.path.insert(0, str(REPO_ROOT / "benches"))
from _common import machine_info, read_lines, timed  # noqa: E402


def naive_core(sia: Any) -> Any:
    """The native object of ``sia`` with the paper's O(M²N²) chain search."""
    sim = sia.similarity
    return sia._native(sia._config, similarity=None if sim is None else sim._core, naive=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="SIA benchmark")
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)

    import mtalign
    import numpy as np

    info = machine_info(["mtalign"])
    deen = args.data_dir / "wmt21_deen_news"
    tanaka = args.data_dir / "parallel_enja_tanaka"
    systems = sorted((deen / "hyp").glob("*.en"))
    ref_a, ref_b = read_lines(deen / "ref.A.en"), read_lines(deen / "ref.B.en")
    hyps: list[str] = []
    for p in systems:
        hyps += read_lines(p)
    refs = [[ref_a[i % len(ref_a)], ref_b[i % len(ref_b)]] for i in range(len(hyps))]
    print(f"mtalign {mtalign.__version__}, numpy {np.__version__}, {info['python']}")
    print(f"machine: {info['nproc']} usable cores, {info['cpu']}")
    print(f"corpus: {deen}: {len(systems)} systems x {len(ref_a)} segments, 2 references "
          f"({len(hyps):,} hypotheses, {2 * len(hyps):,} pairs)")
    print()

    rows: list[tuple[str, str, float, str]] = []
    sia = mtalign.Sia()
    t_exact = timed(lambda: sia.batch_score(hyps, refs), args.repeat)
    exact_scores = t_exact.result
    rows.append(("exact SIA, all 19 systems", "None", t_exact, f"{2 * len(hyps) / t_exact:,.0f}"))
    t_exact1 = timed(lambda: sia.batch_score(hyps, refs, threads=1), args.repeat)
    rows.append(("exact SIA, all 19 systems", "1", t_exact1, f"{2 * len(hyps) / t_exact1:,.0f}"))

    src = read_lines(tanaka / "train.ja")
    tgt = read_lines(tanaka / "train.en")
    t_train = timed(
        lambda: mtalign.TranslationTable.train(src, tgt, iterations=5), 1)
    table = t_train.result
    rows.append(("IBM-1 train, 50k pairs, 5 it.", "None", t_train, f"{len(src) / t_train:,.0f}"))
    t_sim = timed(lambda: mtalign.WordSimilarity.from_translation_table(table), 1)
    sim = t_sim.result
    rows.append(("similarity table (eq. 3)", "None", t_sim, f"{len(sim):,} words"))
    sto = mtalign.Sia(similarity=sim)
    t_sto = timed(lambda: sto.batch_score(hyps, refs), args.repeat)
    sto_scores = t_sto.result
    rows.append(("stochastic SIA, all 19 systems", "None", t_sto,
                 f"{2 * len(hyps) / t_sto:,.0f}"))

    step = len(hyps) // 1000
    sub_h = hyps[::step][:1000]
    sub_r = refs[::step][:1000]
    speed_up = []  # naive over fast: exact, stochastic
    for metric, fast_row, naive_row in (
            (sia, "fast kernel, 1k subset", "naive DP (paper), 1k subset"),
            (sto, "fast kernel, 1k subset, stoch.", "naive DP, 1k subset, stoch.")):
        fast = timed(lambda m=metric: m._core.score_texts(sub_h, sub_r, None)[0], args.repeat)
        naive_core_ = naive_core(metric)
        naive = timed(lambda n=naive_core_: n.score_texts(sub_h, sub_r, None)[0], 1)
        assert np.array_equal(fast.result, naive.result), f"{fast_row} and {naive_row} disagree"
        rows.append((fast_row, "None", fast, f"{2000 / fast:,.0f}"))
        rows.append((naive_row, "None", naive, f"{2000 / naive:,.0f}"))
        speed_up.append(naive / fast)

    print(f"median of {args.repeat} runs (training and naive DP: 1 run)")
    header = f"{'what':<32} {'threads':>7} {'seconds':>9} {'pairs/s (or size)':>18}"
    print(header)
    print("-" * len(header))
    for what, threads, secs, rate in rows:
        print(f"{what:<32} {threads:>7} {secs:9.3f} {rate:>18}")
    print()
    print(f"fast / naive speed-up on the 1k subset: exact {speed_up[0]:,.1f}x, "
          f"stochastic {speed_up[1]:,.1f}x (identical scores)")
    print(f"threads=None over threads=1 (exact): {t_exact1 / t_exact:.2f}x")
    print(f"mean SIA: exact {exact_scores.mean():.4f}, stochastic {sto_scores.mean():.4f}; "
          f"p(school|学校) = {table.prob('school', '学校'):.3f}")
    print("targets (2 cores):")
    print(f"  [{'met' if t_exact < TARGET_EXACT_SECONDS else 'NOT met'}] exact SIA of all 19 "
          f"systems vs both references < {TARGET_EXACT_SECONDS} s: {t_exact:.3f} s")
    print(f"  [{'met' if t_train < TARGET_IBM1_SECONDS else 'NOT met'}] IBM-1 50k pairs, "
          f"5 iterations < {TARGET_IBM1_SECONDS} s: {t_train:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
