"""Slow pure-Python twins of GTM (written from the definitions, for the tests): the greedy
matcher as ``docs/gtm.md`` states it, and the exact maximum matching size by exhaustive
search (exponential: short sentences only)."""

from __future__ import annotations

from collections.abc import Sequence

Tokens = Sequence[object]


def runs_of(match: Sequence[int | None]) -> list[int]:
    """Run lengths of a matching given as the reference position of each hypothesis word."""
    runs: list[int] = []
    prev: int | None = None
    for j in match:
        if j is not None and prev is not None and j == prev + 1:
            runs[-1] += 1
        elif j is not None:
            runs.append(1)
        prev = j
    return runs


def weight(runs: Sequence[int], e: float) -> float:
    return float(sum(float(r) ** e for r in runs))


def greedy_runs(hyp: Tokens, ref: Tokens) -> list[int]:
    """Longest run of free hits first (ties: smallest hypothesis, then reference position),
    by scanning the whole grid again after every choice."""
    hyp_free = [True] * len(hyp)
    ref_free = [True] * len(ref)
    taken: list[int] = []
    while True:
        best = (0, 0, 0)  # (length, i, j)
        for i in range(len(hyp)):
            for j in range(len(ref)):
                k = 0
                while (i + k < len(hyp) and j + k < len(ref) and hyp_free[i + k]
                       and ref_free[j + k] and hyp[i + k] == ref[j + k]):
                    k += 1
                if k > best[0]:
                    best = (k, i, j)
        k, i, j = best
        if k == 0:
            return taken
        for d in range(k):
            hyp_free[i + d] = ref_free[j + d] = False
        taken.append(k)


def exact_weight(hyp: Tokens, ref: Tokens, e: float) -> float:
    """max Σ|run|^e over every one-to-one matching of equal words (exhaustive)."""
    best = 0.0
    used = [False] * len(ref)
    match: list[int | None] = []

    def go(i: int) -> None:
        nonlocal best
        if i == len(hyp):
            best = max(best, weight(runs_of(match), e))
            return
        match.append(None)
        go(i + 1)
        match.pop()
        for j, w in enumerate(ref):
            if not used[j] and w == hyp[i]:
                used[j] = True
                match.append(j)
                go(i + 1)
                match.pop()
                used[j] = False

    go(0)
    return best


def prf(w: float, h: int, r: int, e: float) -> tuple[float, float, float]:
    mms = w ** (1.0 / e) if e != 1.0 else w
    p = mms / h if h else 0.0
    rec = mms / r if r else 0.0
    f = 2 * p * rec / (p + rec) if p + rec > 0 else 0.0
    return p, rec, f


def sentence_row(hyp: Tokens, refs: Sequence[Tokens], e: float) -> list[float]:
    """[Σ|run|^e, |hyp|, |ref|] of the reference with the best F (the first on ties)."""
    best: list[float] | None = None
    best_f = -1.0
    for ref in refs:
        row = [weight(greedy_runs(hyp, ref), e), float(len(hyp)), float(len(ref))]
        f = prf(row[0], len(hyp), len(ref), e)[2]
        if f > best_f:
            best, best_f = row, f
    return best if best is not None else [0.0, float(len(hyp)), 0.0]
