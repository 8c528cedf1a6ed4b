"""Chooses SIA's default decay factor alpha on real data (docs/sia.md records the result).

Procedure: ted21_zhen_mqm (13 systems x 529 segments, MQM for every system, 2 references).
Segments are split by line number into a development half (lines 1-264) and a test half
(lines 265-529). For each alpha on a grid, SIA (exact matching, both references, default
tokenizer) scores every system segment; the segment-level Pearson correlation with MQM
(higher MQM = better here: the file stores negated penalties) over all (system, segment) pairs
of the development half is computed. The alpha with the highest development correlation is
chosen (ties: the larger alpha) and its correlation on the test half reported, next to
alpha = 1 (no decay) and the paper's own procedure's neighbourhood.

Usage: python scripts/choose_sia_alpha.py [--data-dir ../shared/data] [--decay figure]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import mtalign
import numpy as np
from mtalign.io import read_lines

GRID = [round(0.05 * k, 2) for k in range(1, 21)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path,
                    default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--decay", default="figure", choices=("figure", "geometric"))
    args = ap.parse_args()
    d = args.data_dir / "ted21_zhen_mqm"
    refs_a, refs_b = read_lines(d / "ref.A.en"), read_lines(d / "ref.B.en")
    mqm: dict[tuple[str, int], float] = {}
    with open(d / "mqm_seg.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            mqm[(row["system"], int(row["line"]))] = float(row["mqm"])
    systems = sorted(p.stem for p in (d / "hyp").glob("*.en"))
    hyps, refs, human, line = [], [], [], []
    for s in systems:
        for i, h in enumerate(read_lines(d / "hyp" / f"{s}.en"), start=1):
            hyps.append(h)
            refs.append([refs_a[i - 1], refs_b[i - 1]])
            human.append(mqm[(s, i)])
            line.append(i)
    human_arr, line_arr = np.array(human), np.array(line)
    n_lines = len(refs_a)
    dev = line_arr <= n_lines // 2
    test = ~dev
    print(f"{len(systems)} systems x {n_lines} segments; dev = lines 1-{n_lines // 2} "
          f"({dev.sum()} pairs), test = the rest ({test.sum()} pairs); decay={args.decay}")
    print(f"{'alpha':>6} {'dev r':>8} {'test r':>8}")
    results = []
    for alpha in GRID:
        scores = mtalign.Sia(alpha=alpha, decay=args.decay).batch_score(hyps, refs)
        r_dev = float(np.corrcoef(scores[dev], human_arr[dev])[0, 1])
        r_test = float(np.corrcoef(scores[test], human_arr[test])[0, 1])
        results.append((alpha, r_dev, r_test))
        print(f"{alpha:6.2f} {r_dev:8.4f} {r_test:8.4f}")
    best = max(results, key=lambda x: (round(x[1], 12), x[0]))
    print(f"chosen alpha = {best[0]} (dev r = {best[1]:.4f}); test r = {best[2]:.4f}; "
          f"alpha = 1.0 test r = {results[-1][2]:.4f}")


if __name__ == "__main__":
    main()
