"""Slow pure-Python twins of WER and PER (written from the definitions, for the tests)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Tokens = Sequence[object]


def levenshtein(a: Tokens, b: Tokens) -> int:
    row = list(range(len(a) + 1))
    for i, y in enumerate(b, 1):
        prev, row[0] = row[0], i
        for j, x in enumerate(a, 1):
            cur = min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
            prev, row[j] = row[j], cur
    return row[len(a)]


def per_errors(hyp: Tokens, ref: Tokens) -> int:
    overlap = sum((Counter(hyp) & Counter(ref)).values())
    return max(len(hyp), len(ref)) - overlap


def rate(errors: int, ref_len: int) -> float:
    if ref_len:
        return errors / ref_len
    return 1.0 if errors else 0.0


def best(errors_fn, hyp: Tokens, refs: Sequence[Tokens]) -> tuple[float, int, int]:
    """(rate, errors, ref_len) of the reference with the lowest rate, the first on ties."""
    out = None
    for r in refs:
        e = errors_fn(hyp, r)
        x = rate(e, len(r))
        if out is None or x < out[0]:
            out = (x, e, len(r))
    assert out is not None
    return out
