"""Symmetric matrices of token ids (GRPO groups, MBR): the native matrix, which scores each
unordered pair once where the metric is symmetric, against the flat batch of all n² pairs
that ``pairwise`` of ids ran before (still its path with pseudo-references:
``pairwise(ids, TokenIds(ids))``), and the text path of the same ids, space-joined.

The three calls alternate in one process (ABCABC..., then CBACBA...), so all see the same
drift of a shared machine; it prints the median wall time of each and the median of the
per-round ratios flat/matrix (> 1: the matrix is faster). Every matrix is checked equal to
the other two first, bit for bit.

    PYTHONPATH=python python3 benches/bench_id_matrices.py --rounds 7
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import mtalign
import numpy as np
from mtalign import TokenIds


def groups(n_groups: int, k: int, length: int, vocab: int, seed: int) -> list[np.ndarray]:
    """k samples per prompt, each its prompt's base sequence with 30% of the ids redrawn
    and a random length in [length/2, length]."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_groups):
        base = rng.integers(0, vocab, size=length)
        for _ in range(k):
            s = base.copy()
            mask = rng.random(length) < 0.3
            s[mask] = rng.integers(0, vocab, size=int(mask.sum()))
            out.append(s[:int(rng.integers(length // 2, length + 1))].astype(np.int32))
    return out


def texts(seqs: list[np.ndarray]) -> list[str]:
    return [" ".join(map(str, s.tolist())) for s in seqs]


def alternate(calls: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    names = list(calls)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            t = time.perf_counter()
            calls[name]()
            times[name].append(time.perf_counter() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--vocab", type=int, default=32_000)
    args = ap.parse_args()
    shapes = {
        "GRPO 32 groups x 16 samples, <=256 ids (pairwise_blocks)": (32, 16, 256),
        "MBR 1 group x 128 samples, <=100 ids (pairwise)": (1, 128, 100),
    }
    metrics = {"BLEU": mtalign.Bleu(tokenize="whitespace"),
               "ROUGE-L": mtalign.Rouge("rougeL", tokenize="whitespace"),
               "WER": mtalign.Wer(tokenize="whitespace"),
               "RIBES (no mirror)": mtalign.Ribes(tokenize="whitespace")}
    print(f"# median wall ms of {args.rounds} alternated rounds; ratio = median of per-round "
          f"flat/matrix; mtalign {mtalign.__version__}")
    print("| shape | metric | threads | matrix (new) | all n² pairs (before) | text | "
          "ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for shape, (n_groups, k, length) in shapes.items():
        seqs = groups(n_groups, k, length, args.vocab, 7)
        parts = [seqs[g * k:(g + 1) * k] for g in range(n_groups)]
        ids = [TokenIds(p) for p in parts]
        as_text = [texts(p) for p in parts]
        for name, metric in metrics.items():
            for threads in (1, 2):
                one = n_groups == 1

                def matrix(m: Any = metric, t: int = threads, g: Any = ids,
                           one: bool = one) -> Any:
                    if one:
                        return [m.pairwise(g[0], threads=t)]
                    return m.pairwise_blocks([(x, None) for x in g], threads=t)

                def flat(m: Any = metric, t: int = threads, g: Any = ids, one: bool = one) -> Any:
                    if one:
                        return [m.pairwise(g[0], g[0], threads=t)]
                    return m.pairwise_blocks([(x, x) for x in g], threads=t)

                def text(m: Any = metric, t: int = threads, g: Any = as_text,
                         one: bool = one) -> Any:
                    if one:
                        return [m.pairwise(g[0], threads=t)]
                    return m.pairwise_blocks([(x, None) for x in g], threads=t)

                for a, b, c in zip(matrix(), flat(), text(), strict=True):
                    assert np.array_equal(a, b) and np.array_equal(a, c), (shape, name)
                times = alternate({"matrix": matrix, "flat": flat, "text": text}, args.rounds)
                ratio = statistics.median(f / m for f, m in zip(times["flat"], times["matrix"],
                                                                strict=True))
                med = {k2: 1e3 * statistics.median(v) for k2, v in times.items()}
                print(f"| {shape} | {name} | {threads} | {med['matrix']:.1f} | "
                      f"{med['flat']:.1f} | {med['text']:.1f} | {ratio:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
