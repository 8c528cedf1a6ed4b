"""A slow, straightforward pure-Python twin of ORANGE (Lin & Och 2004, section 4).

Written from the paper, not from mtalign.orange: plain loops, one sentence-level scoring call
per (translation, reference set), explicit rank counting, a hand-written percentile. The tests
compare ``mtalign.orange`` with it on real data.

``score(hyp, refs) -> float`` is any sentence-level scorer, ``refs`` a list of references.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Score = Callable[[Any, list[Any]], float]


def leave_one_out(refs: Sequence[Any]) -> list[list[Any]]:
    """The R reference sets that leave out one reference each, in order."""
    return [[r for j, r in enumerate(refs) if j != k] for k in range(len(refs))]


def rank_of(target: float, candidate_scores: Sequence[float], higher_is_better: bool) -> float:
    """1 + number of candidates scoring better than the target + half the ties."""
    better = 0
    ties = 0
    for c in candidate_scores:
        if c == target:
            ties += 1
        elif (c > target) == higher_is_better:
            better += 1
    return 1 + better + 0.5 * ties


def sentence_rank(score: Score, candidates: Sequence[Any], refs: Sequence[Any],
                  oracle: str = "average_score", higher_is_better: bool = True,
                  n: int | None = None) -> float:
    """The oracle's rank among the first ``n`` candidates (all by default)."""
    subsets = leave_one_out(refs)
    ref_scores = [score(refs[k], subsets[k]) for k in range(len(refs))]
    cand_scores = []
    for c in candidates[: n if n is not None else len(candidates)]:
        per_subset = [score(c, subset) for subset in subsets]
        cand_scores.append(sum(per_subset) / len(per_subset))
    if oracle == "average_score":
        return rank_of(sum(ref_scores) / len(ref_scores), cand_scores, higher_is_better)
    ranks = [rank_of(s, cand_scores, higher_is_better) for s in ref_scores]
    return sum(ranks) / len(ranks)


def percentile(values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default method)."""
    v = sorted(values)
    pos = q / 100 * (len(v) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def orange(score: Score, candidates: Sequence[Sequence[Any]], refs: Sequence[Sequence[Any]],
           oracle: str = "average_score", min_size: int | None = None,
           higher_is_better: bool = True, n_bootstrap: int = 0,
           seed: int | None = 12345) -> dict[str, Any]:
    """ORANGE, average rank, per-sentence ranks and the bootstrap interval of ORANGE."""
    ranks, sizes = [], []
    for cands, rs in zip(candidates, refs, strict=True):
        if min_size is not None and len(cands) < min_size:
            continue
        ranks.append(sentence_rank(score, cands, rs, oracle, higher_is_better))
        sizes.append(len(cands))
    ratios = [r / (n + 1) for r, n in zip(ranks, sizes, strict=True)]
    out: dict[str, Any] = {
        "ranks": ranks,
        "orange": math.fsum(ratios) / len(ratios),
        "avg_rank": math.fsum(ranks) / len(ranks),
    }
    if n_bootstrap:
        rng = np.random.default_rng(seed)
        means = []
        for _ in range(n_bootstrap):
            picks = rng.integers(0, len(ratios), size=len(ratios))
            means.append(sum(ratios[int(i)] for i in picks) / len(ratios))
        out["ci"] = (percentile(means, 2.5), percentile(means, 97.5))
    return out
