"""A slow, obviously correct pure-Python twin of SIA, written from the paper (Liu & Gildea 2006,
Figures 3-7) and the settled spec in docs/sia.md.

``best_chain_naive`` is the paper's dynamic programme: every candidate cell looks at every
candidate below-left of it (O(M²N²)); ``sia`` runs the iterative scheme of Figure 6 realigning
every reference in every round. Positions are 1-based as in the paper.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Weight = Callable[[object, object], float]


def exact(a: object, b: object) -> float:
    return 1.0 if a == b else 0.0


def table_weight(table: dict[tuple[object, object], float]) -> Weight:
    """Identical words 1, else the directed (mt word, ref word) entry, else 0."""
    return lambda a, b: 1.0 if a == b else table.get((a, b), 0.0)


def best_chain_naive(mt: Sequence[object], ref: Sequence[object], weight: Weight,
                     mt_blocked: set[int], ref_blocked: set[int]) -> tuple[float, list]:
    """(raw score, [(i, j), ...]) of the best chain; ties as the spec says."""
    cells = [(i, j, weight(mt[i - 1], ref[j - 1]))
             for i in range(1, len(mt) + 1) for j in range(1, len(ref) + 1)
             if i not in mt_blocked and j not in ref_blocked]
    cells = [c for c in cells if c[2] > 0]
    best: list[float] = []
    back: list[int] = []
    for i, j, w in cells:
        v, p = w / math.sqrt(i * j), -1
        for k, (n, q, _) in enumerate(cells[: len(best)]):
            if n < i and q < j:
                cand = best[k] + w / math.sqrt((i - n) * (j - q))
                if cand > v:
                    v, p = cand, k
        best.append(v)
        back.append(p)
    if not cells:
        return 0.0, []
    end = 0
    for k in range(1, len(best)):
        if best[k] > best[end]:
            end = k
    pairs = []
    k = end
    while k != -1:
        pairs.append((cells[k][0], cells[k][1]))
        k = back[k]
    return best[end], pairs[::-1]


def length_penalty(m: int, ref_lens: Sequence[int]) -> float:
    if m == 0:
        return 0.0
    mean = sum(ref_lens) / len(ref_lens)
    return 1.0 if m > mean else m / mean


def sia(mt: Sequence[object], refs: Sequence[Sequence[object]], alpha: float,
        weight: Weight = exact, decay: str = "figure") -> float:
    m = len(mt)
    mt_blocked: set[int] = set()
    ref_blocked: list[set[int]] = [set() for _ in refs]
    total, w = 0.0, alpha
    while True:
        max_score, max_ref, max_pairs = 0.0, -1, []
        for r, ref in enumerate(refs):
            raw, pairs = best_chain_naive(mt, ref, weight, mt_blocked, ref_blocked[r])
            s = raw / m if m else 0.0
            if s > max_score:
                max_score, max_ref, max_pairs = s, r, pairs
        if max_ref < 0:
            break
        total += max_score * w
        w = w * w if decay == "figure" else w * alpha
        for i, j in max_pairs:
            mt_blocked.add(i)
            ref_blocked[max_ref].add(j)
    return total * length_penalty(m, [len(r) for r in refs])
