"""Slow, obviously correct pure-Python twin of DCS (double common subsequence score).

Written from the description of the DCS authors' code in the golden-file README (Ding, Utiyama
and Sumita, "Structured Common Subsequences for Automatic Machine Translation Evaluation",
Table 1), not from that code. ``x`` is the REFERENCE (first argument), ``y`` the CANDIDATE. The
five steps, each a function below:

1. ``maximal_runs``: every maximal diagonal run (a common substring at fixed positions that
   cannot be extended at either end), recorded at its end cell, listed in order (y_end, x_end).
2. ``select_blocks``: a stable sort puts longer runs first; a run is kept if at least one of its
   x positions AND at least one of its y positions is still unused, then all its positions are
   marked used (so overlapping runs can both be kept).
3. ``rank_blocks``: each kept block gets its rank by end position in x and in y.
4. ``find_chains``: maximal sequences of blocks whose x rank and y rank both go up by exactly 1
   at each step; each chain in increasing rank order, chains sorted by their first block's
   index in ``blocks`` (as the golden file lists them).
5. ``scores``: A = sqrt(|x|*|y|); cs0 = max over chains of summed lengths / A (0 without
   chains); cs1 = sqrt(S1)/A with S1 = sum of L^2 over kept blocks; cs2 = sqrt(S2)/A with S2 =
   sum of L_a*L_b over neighbours in a chain; dcs = sqrt(S1 + S2)/A.

Empty input or no match gives (0, 0, 0, 0). Nothing is normalised: any hashable, comparable-by-
equality symbols work (code points for character level, tokens for word level, ints).

Positions are 1-based (as in the golden file's ``blocks`` field); ranks are 1-based.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple


class Block(NamedTuple):
    """One kept common substring. Same field order as the golden file's ``blocks`` rows."""

    length: int
    x_end: int  # 1-based position of the block's last symbol in x
    y_end: int  # 1-based position of the block's last symbol in y
    x_rank: int  # 1-based rank of x_end among the kept blocks
    y_rank: int  # 1-based rank of y_end among the kept blocks


class DcsDetail(NamedTuple):
    cs0: float
    cs1: float
    cs2: float
    dcs: float
    blocks: list[Block]  # in the order they were kept
    chains: list[list[int]]  # indices into ``blocks``; see find_chains for the order

    @property
    def scores(self) -> tuple[float, float, float, float]:
        return (self.cs0, self.cs1, self.cs2, self.dcs)


Run = tuple[int, int, int]  # (length, x_end, y_end), 1-based end positions


def maximal_runs(x: Sequence[object], y: Sequence[object]) -> list[Run]:
    """Step 1: all maximal diagonal runs, ordered by (y_end, x_end)."""
    runs: list[Run] = []
    for i in range(len(x)):
        for j in range(len(y)):
            if x[i] != y[j]:
                continue
            if i > 0 and j > 0 and x[i - 1] == y[j - 1]:
                continue  # not a start: the run extends to the upper left
            length = 1
            while i + length < len(x) and j + length < len(y) and x[i + length] == y[j + length]:
                length += 1
            runs.append((length, i + length, j + length))
    runs.sort(key=lambda r: (r[2], r[1]))  # end cells are distinct, so this order is total
    return runs


def select_blocks(runs: list[Run], len_x: int, len_y: int) -> list[Run]:
    """Step 2: greedy selection, longest first (stable), 'at least one unused' on each side."""
    used_x = [False] * (len_x + 1)  # index = 1-based position
    used_y = [False] * (len_y + 1)
    kept: list[Run] = []
    for length, x_end, y_end in sorted(runs, key=lambda r: -r[0]):  # sorted() is stable
        xs = range(x_end - length + 1, x_end + 1)
        ys = range(y_end - length + 1, y_end + 1)
        if any(not used_x[p] for p in xs) and any(not used_y[p] for p in ys):
            for p in xs:
                used_x[p] = True
            for p in ys:
                used_y[p] = True
            kept.append((length, x_end, y_end))
    return kept


def rank_blocks(kept: list[Run]) -> list[Block]:
    """Step 3: rank of each block's end position in x and in y (1 = leftmost)."""
    x_ends = sorted(r[1] for r in kept)
    y_ends = sorted(r[2] for r in kept)
    # a kept block's end positions are never shared with another kept block (the later one
    # would have all its positions on that side inside the earlier, longer-or-equal block)
    assert len(set(x_ends)) == len(x_ends) and len(set(y_ends)) == len(y_ends)
    return [
        Block(length, x_end, y_end, x_ends.index(x_end) + 1, y_ends.index(y_end) + 1)
        for length, x_end, y_end in kept
    ]


def find_chains(blocks: list[Block]) -> list[list[int]]:
    """Step 4: maximal runs of blocks whose x rank and y rank both go up by exactly 1."""
    at = {(b.x_rank, b.y_rank): k for k, b in enumerate(blocks)}
    chains = []
    for k, b in enumerate(blocks):
        if (b.x_rank - 1, b.y_rank - 1) in at:
            continue  # not the first block of its chain
        chain = [k]
        while (blocks[chain[-1]].x_rank + 1, blocks[chain[-1]].y_rank + 1) in at:
            chain.append(at[(blocks[chain[-1]].x_rank + 1, blocks[chain[-1]].y_rank + 1)])
        chains.append(chain)
    # the golden file lists chains by the index of their first block (the order of the chains
    # changes no score; the authors' table walk would list them by end cell instead)
    chains.sort()
    return chains


def dcs_detail(x: Sequence[object], y: Sequence[object]) -> DcsDetail:
    """All four scores plus the kept blocks and the chains (for debugging)."""
    if len(x) == 0 or len(y) == 0:
        return DcsDetail(0.0, 0.0, 0.0, 0.0, [], [])
    blocks = rank_blocks(select_blocks(maximal_runs(x, y), len(x), len(y)))
    chains = find_chains(blocks)
    area = (len(x) * len(y)) ** 0.5
    s0 = max([0] + [sum(blocks[k].length for k in chain) for chain in chains])
    s1 = sum(b.length**2 for b in blocks)
    s2 = sum(
        blocks[a].length * blocks[b].length
        for chain in chains
        for a, b in itertools.pairwise(chain)
    )
    return DcsDetail(
        s0 / area,
        math.sqrt(s1) / area,
        math.sqrt(s2) / area,
        math.sqrt(s1 + s2) / area,
        blocks,
        chains,
    )


def dcs(x: Sequence[object], y: Sequence[object]) -> tuple[float, float, float, float]:
    """(cs0, cs1, cs2, dcs) of reference ``x`` and candidate ``y``."""
    return dcs_detail(x, y).scores


def dcs_multi_max(
    refs: Sequence[Sequence[object]], hyp: Sequence[object]
) -> tuple[float, float, float, float]:
    """multi_ref="max": the four values of the reference with the highest dcs (first on ties)."""
    best = (0.0, 0.0, 0.0, 0.0)
    for k, ref in enumerate(refs):
        cur = dcs(ref, hyp)
        if k == 0 or cur[3] > best[3]:
            best = cur
    return best


# whitespace code points that every definition (Python str.isspace, Unicode White_Space, Rust
# char::is_whitespace) agrees on; used by the tests of ignore_spaces
WHITESPACE = frozenset(
    " \t\n\r\x0b\x0c\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
)


def char_symbols(text: str, lowercase: bool = False, ignore_spaces: bool = False) -> list[str]:
    """Character-level symbols: one per code point (after full lowercasing if asked)."""
    if lowercase:
        text = text.lower()
    return [c for c in text if not (ignore_spaces and c in WHITESPACE)]
