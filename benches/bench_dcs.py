#!/usr/bin/env python3
"""Throughput benchmark: character-level DCS with mtalign against its pure-Python twin.

Corpus: WMT21 newstest2021 English->Chinese (``wmt21_enzh_news`` in ``--data-dir``): every
line of each of the 29 system outputs (``hyp/*.zh``, 1002 lines each) against both references
(``ref.A.zh``, ``ref.B.zh``): 29 x 1002 = 29,058 hypotheses, 58,116 hypothesis-reference
pairs. Chinese is untokenised, so DCS runs on characters (code points; spaces, the rare Latin
words and punctuation included, nothing lowercased), as the DCS paper does for Chinese.

Two ways to score the same 58,116 pairs are timed:

* ``max`` (the headline figure): ``Dcs(level="char", multi_ref="max").batch_score(hyps,
  [[refA, refB], ...])``, one call with all 29,058 hypotheses, each scored against both of
  its references (the higher dcs is kept);
* ``separate``: each hypothesis against each reference on its own, one call of 58,116 rows
  with a single reference each (``batch_score(hyps * 2, refA + refB)``).

Each with ``threads=None`` (all cores) and ``threads=1``. The pure-Python twin
(``tests/twins/dcs.py``, slow and obviously correct) scores an evenly spaced subset of
``--twin-pairs`` pairs (300 by default); its pairs/s on the subset is extrapolated to the
whole run. Before timing, mtalign's scores on the subset are compared with the twin's.

Usage (from the repository root)::

    python benches/bench_dcs.py                   # ~15 s on 2 cores
    python benches/bench_dcs.py --repeat 5 --twin-pairs 1000 --json dcs.json

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"
DATASET = "wmt21_enzh_news"
TARGET_SECONDS = 1.0  # the whole 58k-pair run with threads=None on 2 cores
TARGET_RATIO = 1000.0  # mtalign (threads=None) pairs/s over the twin's

sys.path.insert(0, str(REPO_ROOT / "tests"))
from _common import machine_info, read_lines, timed  # noqa: E402
from twins import dcs as dcs_twin  # noqa: E402  (the pure-Python twins live with the tests)

# ------------------------------------------------------------------------------------- data


def load_corpus(data_dir: Path) -> tuple[dict[str, list[str]], list[str], list[str]]:
    folder = data_dir / DATASET
    if not folder.is_dir():
        sys.exit(f"bench_dcs: {folder} not found (give the folder holding {DATASET} "
                 "with --data-dir)")
    ref_a = read_lines(folder / "ref.A.zh")
    ref_b = read_lines(folder / "ref.B.zh")
    systems = {p.stem: read_lines(p) for p in sorted((folder / "hyp").glob("*.zh"))}
    for name, lines in [("ref.B.zh", ref_b), *systems.items()]:
        if len(lines) != len(ref_a):
            sys.exit(f"bench_dcs: {name} has {len(lines)} lines, ref.A.zh {len(ref_a)}")
    return systems, ref_a, ref_b


# ----------------------------------------------------------------------------------- timing


# ------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                    help=f"folder holding {DATASET} (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs, median reported")
    ap.add_argument("--twin-pairs", type=int, default=300,
                    help="pairs for the pure-Python twin (evenly spaced subset)")
    ap.add_argument("--json", type=Path, help="also write every figure as JSON")
    args = ap.parse_args(argv)

    import mtalign
    import numpy as np

    info = machine_info(("mtalign", "numpy"))
    systems, ref_a, ref_b = load_corpus(args.data_dir)
    hyps = [line for lines in systems.values() for line in lines]
    ref_sets = [[a, b] for _ in systems for a, b in zip(ref_a, ref_b, strict=True)]
    sep_hyps = hyps + hyps
    sep_refs = [a for a, _ in ref_sets] + [b for _, b in ref_sets]
    n_pairs = len(sep_hyps)
    n_chars = sum(len(h) for h in hyps) / len(hyps)
    r_chars = sum(len(r) for r in ref_a + ref_b) / (2 * len(ref_a))

    print(f"mtalign {mtalign.__version__}, numpy {np.__version__}, {info['python']}")
    print(f"machine: {info['nproc']} usable cores, {info['cpu']}, {info['platform']}")
    print(f"corpus: {args.data_dir / DATASET}: {len(systems)} systems x {len(ref_a)} segments "
          f"= {len(hyps):,} hypotheses, x 2 references = {n_pairs:,} pairs")
    print(f"        mean length {n_chars:.1f} chars (hypotheses), {r_chars:.1f} (references); "
          "level=char, spaces kept, no lowercasing")
    print()

    dcs = mtalign.Dcs(level="char", multi_ref="max")
    dcs.batch_score(hyps[:500], ref_sets[:500])  # warm-up (pool start, page faults)

    # --- correctness on the twin subset -------------------------------------------------
    k = max(1, min(args.twin_pairs, n_pairs))
    idx = [round(i * (n_pairs - 1) / max(1, k - 1)) for i in range(k)] if k > 1 else [0]
    sub_h = [sep_hyps[i] for i in idx]
    sub_r = [sep_refs[i] for i in idx]
    fast = dcs.batch_score(sub_h, sub_r)
    slow = np.array([dcs_twin.dcs(r, h) for h, r in zip(sub_h, sub_r, strict=True)])
    max_diff = float(np.abs(fast - slow).max())

    # --- timings -------------------------------------------------------------------------
    rows = []

    def add(tool: str, mode: str, threads: str, pairs: int, fn: Callable[[], Any],
            extrapolated: bool = False) -> None:
        med = timed(fn, args.repeat)
        times, out = med.times, med.result
        mean_dcs = float(np.asarray(out)[:, 3].mean())
        rows.append({"tool": tool, "mode": mode, "threads": threads, "pairs": pairs,
                     "seconds": med, "runs": times, "pairs_per_s": pairs / med,
                     "mean_dcs": mean_dcs, "extrapolated": extrapolated})

    for threads in (None, 1):
        label = f"None ({info['nproc']})" if threads is None else "1"
        add("mtalign", "max", label, n_pairs,
            lambda t=threads: dcs.batch_score(hyps, ref_sets, threads=t))
    for threads in (None, 1):
        label = f"None ({info['nproc']})" if threads is None else "1"
        add("mtalign", "separate", label, n_pairs,
            lambda t=threads: dcs.batch_score(sep_hyps, sep_refs, threads=t))
    add("twin (Python)", "separate", "1", k,
        lambda: [dcs_twin.dcs(r, h) for h, r in zip(sub_h, sub_r, strict=True)],
        extrapolated=True)

    twin = rows[-1]
    twin_full = n_pairs / twin["pairs_per_s"]
    print(f"Character-level DCS, {n_pairs:,} pairs; median of {args.repeat} runs "
          "(* = measured on the twin subset, time extrapolated to all pairs)")
    header = (f"{'tool':<14} {'mode':<9} {'threads':<9} {'pairs':>7} {'median s':>10} "
              f"{'all pairs s':>12} {'pairs/s':>12} {'mean dcs':>9}")
    print(header)
    print("-" * len(header))
    for r in rows:
        full = n_pairs / r["pairs_per_s"]
        star = "*" if r["extrapolated"] else " "
        print(f"{r['tool']:<14} {r['mode']:<9} {r['threads']:<9} {r['pairs']:>7,} "
              f"{r['seconds']:>10.4f} {full:>11.3f}{star} {r['pairs_per_s']:>12,.0f} "
              f"{r['mean_dcs']:>9.5f}")
    print()

    best = rows[0]
    ratios = {f"{r['mode']}, threads={r['threads']}": r["pairs_per_s"] / twin["pairs_per_s"]
              for r in rows[:-1]}
    print("mtalign pairs/s / twin pairs/s:")
    for name, ratio in ratios.items():
        print(f"  {name:<28} {ratio:>8,.0f}x")
    speedup = rows[1]["seconds"] / rows[0]["seconds"]
    print(f"  threads=None over threads=1 (max mode): {speedup:.2f}x")
    print()

    best_ratio = best["pairs_per_s"] / twin["pairs_per_s"]
    targets = [
        (f"whole run (max mode, threads=None) under {TARGET_SECONDS:g} s",
         best["seconds"] < TARGET_SECONDS, f"{best['seconds']:.3f} s"),
        (f"at least {TARGET_RATIO:,.0f}x the twin (max mode, threads=None)",
         best_ratio >= TARGET_RATIO, f"{best_ratio:,.0f}x"),
    ]
    if info["nproc"] != 2:
        print(f"note: the targets are for 2 cores; this machine has {info['nproc']}")
    print("targets:")
    for text, ok, value in targets:
        print(f"  [{'met' if ok else 'NOT met'}] {text}: {value}")
    print(f"twin: {twin_full:,.1f} s extrapolated for all {n_pairs:,} pairs")
    print(f"sanity: max |mtalign - twin| over the {k} subset pairs, all four values: "
          f"{max_diff:.3g}")

    if args.json:
        args.json.write_text(json.dumps({
            "machine": info, "pairs": n_pairs, "hypotheses": len(hyps),
            "systems": list(systems), "rows": rows, "ratios": ratios,
            "targets": [{"target": t, "met": ok, "value": v} for t, ok, v in targets],
            "twin_extrapolated_seconds": twin_full, "max_abs_diff_vs_twin": max_diff,
        }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
