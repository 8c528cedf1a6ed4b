"""A slow pure-Python twin of chrF / chrF++ (Popović 2015, 2017), written from sacrebleu
2.6.0's definition: Counters of n-gram strings, one reference at a time.

Characters: the text without Python whitespace (``"".join(text.split())``) unless
``whitespace``; words (chrF++): ``text.split()`` with a trailing (else leading) ASCII
punctuation mark of a longer word split off. Per order: [hyp n-grams (0 when the reference
has none of that order), ref n-grams, clipped matches]. Several references: the statistics
of the best sentence F, the first on ties.
"""

from __future__ import annotations

import string
from collections import Counter

PUNCT = set(string.punctuation)


def words(text: str) -> list[str]:
    out: list[str] = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCT:
            out += [w[:-1], w[-1]]
        elif len(w) > 1 and w[0] in PUNCT:
            out += [w[0], w[1:]]
        else:
            out.append(w)
    return out


def ngrams(items: list[str] | str, n: int, sep: str) -> Counter[str]:
    return Counter(sep.join(items[i:i + n]) for i in range(len(items) - n + 1))


def counters(text: str, char_order: int, word_order: int, whitespace: bool,
             lowercase: bool) -> list[Counter[str]]:
    if lowercase:
        text = text.lower()
    chars = text if whitespace else "".join(text.split())
    out = [ngrams(chars, n, "") for n in range(1, char_order + 1)]
    ws = words(text)
    out += [ngrams(ws, n, " ") for n in range(1, word_order + 1)]
    return out


def f_score(stats: list[float], beta: float, eps_smoothing: bool) -> float:
    """chrF from statistics rows (sacrebleu's ``_compute_f_score``, written out)."""
    eps, factor = 1e-16, beta**2
    orders = len(stats) // 3
    total, eff, sum_p, sum_r = 0.0, 0, 0.0, 0.0
    for i in range(orders):
        h, r, m = stats[3 * i:3 * i + 3]
        p = m / h if h > 0 else eps
        rc = m / r if r > 0 else eps
        d = factor * p + rc
        total += (1 + factor) * p * rc / d if d > 0 else eps
        if h > 0 and r > 0:
            sum_p += p
            sum_r += rc
            eff += 1
    if eps_smoothing:
        return 100 * total / orders
    if eff:
        sum_p /= eff
        sum_r /= eff
    else:
        sum_p = sum_r = 0.0
    if sum_p + sum_r:
        return 100 * ((1 + factor) * sum_p * sum_r) / (factor * sum_p + sum_r)
    return 0.0


def statistics(hyp: str, refs: list[str], char_order: int = 6, word_order: int = 0,
               beta: float = 2.0, lowercase: bool = False, whitespace: bool = False,
               eps_smoothing: bool = False) -> list[float]:
    """The statistics row of ``hyp`` against its best reference."""
    hc = counters(hyp, char_order, word_order, whitespace, lowercase)
    best: list[float] = []
    best_f = -1.0
    for ref in refs:
        rc = counters(ref, char_order, word_order, whitespace, lowercase)
        row: list[float] = []
        for h, r in zip(hc, rc, strict=True):
            matches = sum(min(c, r[g]) for g, c in h.items() if g in r)
            row += [float(sum(h.values())) if r else 0.0, float(sum(r.values())), float(matches)]
        f = f_score(row, beta, eps_smoothing)
        if f > best_f:
            best, best_f = row, f
    return best
