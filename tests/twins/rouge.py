"""Slow, obviously correct pure-Python twins of mtalign's ROUGE kernels and aggregation.

Everything here is written straight from Lin & Och (2004), "Automatic Evaluation of Machine
Translation Quality Using Longest Common Subsequence and Skip-Bigram Statistics", and from the
spec of mtalign's ``compat="paper"`` mode. Nothing is optimised: full DP tables, explicit lists
of skip-bigrams, ``collections.Counter`` for clipped counts. The tests compare the fast Rust
kernels and ``mtalign.Rouge`` against these functions, and these functions against the
ROUGE-1.5.5 / rouge-score golden numbers in ``tests/data/rouge155_dev.jsonl``.

Conventions: ``hyp`` is the candidate (length n), ``ref`` a reference (length m). Recall is
measured against the reference, precision against the candidate. Any 0 denominator gives 0.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

Tokens = Sequence[object]

# --------------------------------------------------------------------------------------------
# Tokenization
# --------------------------------------------------------------------------------------------

_ROUGE155_KEEP = re.compile(r"^[a-z0-9$]")


def rouge155_tokenize(text: str) -> list[str]:
    """ROUGE-1.5.5's tokenization (see tests/data/README.md).

    Perl works on the UTF-8 *bytes*: ``tr/A-Z/a-z/`` lowercases ASCII only, ``-`` is set apart
    as `` - ``, every byte outside ``[A-Za-z0-9-]`` becomes a space (so each byte of a
    non-ASCII letter becomes a space: ``café`` -> ``caf``, ``Zürich`` -> ``z rich``), the line is
    split on whitespace, and a token is kept only if it starts with ``[a-z0-9$]`` (which drops
    the lone ``-`` tokens).
    """
    out = []
    for byte in text.encode("utf-8"):
        if 0x41 <= byte <= 0x5A:  # A-Z
            out.append(chr(byte + 0x20))
        elif 0x61 <= byte <= 0x7A or 0x30 <= byte <= 0x39:  # a-z, 0-9
            out.append(chr(byte))
        elif byte == 0x2D:  # '-'
            out.append(" - ")
        else:
            out.append(" ")
    return [tok for tok in "".join(out).split() if _ROUGE155_KEEP.match(tok)]


def whitespace_tokenize(text: str, lowercase: bool = True) -> list[str]:
    """Split on whitespace, optionally lowercasing first (Python's ``str.lower``)."""
    return (text.lower() if lowercase else text).split()


# --------------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------------


def lcs_dp(a: Tokens, b: Tokens) -> int:
    """Length of a longest common subsequence, textbook O(mn) table."""
    m, n = len(a), len(b)
    c = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                c[i][j] = c[i - 1][j - 1] + 1
            else:
                c[i][j] = max(c[i - 1][j], c[i][j - 1])
    return c[m][n]


def wlcs(x_ref: Tokens, y_hyp: Tokens, weight: float) -> float:
    """Weighted LCS by the paper's recurrence, verbatim, with f(k) = k**weight.

    X (rows, i) is the reference, Y (columns, j) the candidate. The tie rule matters: the
    paper takes c(i-1, j) only when it is strictly greater than c(i, j-1).
    """

    def f(k: int) -> float:
        return float(k) ** weight

    m, n = len(x_ref), len(y_hyp)
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    w = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if x_ref[i - 1] == y_hyp[j - 1]:
                k = w[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + f(k + 1) - f(k)
                w[i][j] = k + 1
            elif c[i - 1][j] > c[i][j - 1]:
                c[i][j] = c[i - 1][j]
                w[i][j] = 0
            else:
                c[i][j] = c[i][j - 1]
                w[i][j] = 0
    return c[m][n]


def ngrams(tokens: Tokens, n: int) -> Counter:
    """Counter of the n-grams (as tuples) of ``tokens``; empty when len(tokens) < n."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def clipped_hits(hyp_counts: Counter, ref_counts: Counter) -> int:
    """Sum over units g of min(count_hyp(g), count_ref(g))."""
    return sum(min(cnt, ref_counts[g]) for g, cnt in hyp_counts.items())


def ngram_overlap(hyp: Tokens, ref: Tokens, n: int) -> tuple[int, int, int]:
    """(clipped n-gram hits, #hyp n-grams, #ref n-grams)."""
    h, r = ngrams(hyp, n), ngrams(ref, n)
    return clipped_hits(h, r), sum(h.values()), sum(r.values())


def skip_bigrams(tokens: Tokens, max_gap: int | None) -> list[tuple[object, object]]:
    """All ordered pairs (t_i, t_j), i < j, with at most ``max_gap`` tokens between them
    (j - i - 1 <= max_gap); ``None`` means unlimited (ROUGE-S*)."""
    pairs = []
    for i in range(len(tokens)):
        for j in range(i + 1, len(tokens)):
            if max_gap is None or j - i - 1 <= max_gap:
                pairs.append((tokens[i], tokens[j]))
    return pairs


def skip_bigram_overlap(
    hyp: Tokens, ref: Tokens, max_gap: int | None, unigrams: bool
) -> tuple[int, int, int]:
    """(clipped skip-bigram hits, #hyp skip-bigrams, #ref skip-bigrams); with ``unigrams``
    (ROUGE-SU) every unigram is added as a unit as well: clipped unigram hits are added to
    the hits and the lengths to the totals."""
    h, r = Counter(skip_bigrams(hyp, max_gap)), Counter(skip_bigrams(ref, max_gap))
    hit, hyp_total, ref_total = clipped_hits(h, r), sum(h.values()), sum(r.values())
    if unigrams:
        u_hit, u_hyp, u_ref = ngram_overlap(hyp, ref, 1)
        hit, hyp_total, ref_total = hit + u_hit, hyp_total + u_hyp, ref_total + u_ref
    return hit, hyp_total, ref_total


# --------------------------------------------------------------------------------------------
# Variants and per-reference statistics
# --------------------------------------------------------------------------------------------


class Variant(NamedTuple):
    name: str
    kind: str  # "n", "l", "w", "s"
    n: int = 0  # ROUGE-N order
    weight: float = 1.0  # ROUGE-W exponent
    max_gap: int | None = None  # ROUGE-S/SU skip distance, None = unlimited
    unigrams: bool = False  # ROUGE-SU


_VARIANT_RE = re.compile(r"^rouge(?:([1-9])|(L)|W-([0-9.]+)|(SU|S)(\*|[0-9]+))$")


def parse_variant(name: str) -> Variant:
    """``rouge1``..``rouge9``, ``rougeL``, ``rougeW-<w>``, ``rougeS<d>``/``rougeS*``,
    ``rougeSU<d>``/``rougeSU*``."""
    mt = _VARIANT_RE.match(name)
    if mt is None:
        raise ValueError(f"unknown ROUGE variant {name!r}")
    n, lcs, w, s_kind, gap = mt.groups()
    if n is not None:
        return Variant(name, "n", n=int(n))
    if lcs is not None:
        return Variant(name, "l")
    if w is not None:
        return Variant(name, "w", weight=float(w))
    return Variant(name, "s", max_gap=None if gap == "*" else int(gap), unigrams=(s_kind == "SU"))


class Stats(NamedTuple):
    """Sufficient statistics of one (candidate, reference) pair. For ROUGE-W, ``hit`` is the
    WLCS and the totals are n**w and m**w; for the others they are counts."""

    hit: float
    hyp_total: float
    ref_total: float


def pair_stats(variant: Variant | str, hyp: Tokens, ref: Tokens) -> Stats:
    v = parse_variant(variant) if isinstance(variant, str) else variant
    if v.kind == "n":
        return Stats(*map(float, ngram_overlap(hyp, ref, v.n)))
    if v.kind == "l":
        return Stats(float(lcs_dp(ref, hyp)), float(len(hyp)), float(len(ref)))
    if v.kind == "w":
        return Stats(
            wlcs(ref, hyp, v.weight),
            float(len(hyp)) ** v.weight,
            float(len(ref)) ** v.weight,
        )
    return Stats(*map(float, skip_bigram_overlap(hyp, ref, v.max_gap, v.unigrams)))


def finalizer(variant: Variant | str) -> Callable[[float], float]:
    """g: identity, or x -> x**(1/w) for ROUGE-W (the paper's f^-1)."""
    v = parse_variant(variant) if isinstance(variant, str) else variant
    if v.kind == "w":
        inv = 1.0 / v.weight
        return lambda x: x**inv
    return lambda x: x


# --------------------------------------------------------------------------------------------
# Scores and aggregation
# --------------------------------------------------------------------------------------------


class PRF(NamedTuple):
    p: float
    r: float
    f: float


def safe_div(a: float, b: float) -> float:
    return a / b if b != 0 else 0.0


def fmeasure(p: float, r: float, beta: float = 1.0) -> float:
    """F = (1 + beta^2) R P / (R + beta^2 P); 0 when the denominator is 0."""
    b2 = beta * beta
    return safe_div((1.0 + b2) * r * p, r + b2 * p)


def single_prf(stats: Stats, g: Callable[[float], float], beta: float = 1.0) -> PRF:
    p = g(safe_div(stats.hit, stats.hyp_total))
    r = g(safe_div(stats.hit, stats.ref_total))
    return PRF(p, r, fmeasure(p, r, beta))


MULTI_REF_MODES = ("max", "average", "best", "best_f")


def _argmax_first(values: Sequence[float]) -> int:
    best = 0
    for j in range(1, len(values)):
        if values[j] > values[best]:  # strict: the first wins ties
            best = j
    return best


def aggregate_candidates(
    per_ref: Sequence[Stats],
    g: Callable[[float], float],
    mode: str,
    beta: float = 1.0,
    tie_tol: float = 0.0,
    round_recall: int | None = None,
) -> list[PRF]:
    """Aggregate one candidate's per-reference statistics with ``mode``.

    Returns the list of acceptable results. With ``tie_tol == 0`` it is exactly one result,
    the spec's. With ``tie_tol > 0`` and a selecting mode (``best``/``best_f``), every
    reference whose criterion is within ``tie_tol`` of the maximum is a candidate: two
    implementations may break a tie between *mathematically* equal but differently rounded
    floats (ROUGE-W's powers, F computed in another order) either way.

    ``round_recall`` (ROUGE-1.5.5's ``-f B`` for ROUGE-N/S) rounds the recalls to that many
    decimals before comparing them.
    """
    if not per_ref:
        raise ValueError("at least one reference is needed")
    if mode == "max":
        prfs = [single_prf(s, g, beta) for s in per_ref]
        p = max(x.p for x in prfs)
        r = max(x.r for x in prfs)
        return [PRF(p, r, fmeasure(p, r, beta))]
    if mode == "average":
        n_refs = len(per_ref)
        hit = sum(s.hit for s in per_ref)
        r = g(safe_div(hit, sum(s.ref_total for s in per_ref)))
        p = g(safe_div(hit, n_refs * per_ref[0].hyp_total))
        return [PRF(p, r, fmeasure(p, r, beta))]
    if mode in ("best", "best_f"):
        prfs = [single_prf(s, g, beta) for s in per_ref]
        crit = [x.r if mode == "best" else x.f for x in prfs]
        if round_recall is not None:
            crit = [float(f"{c:.{round_recall}f}") for c in crit]
        if tie_tol == 0.0:
            return [prfs[_argmax_first(crit)]]
        top = max(crit)
        out: list[PRF] = []
        for j, c in enumerate(crit):
            if c >= top - tie_tol and prfs[j] not in out:
                out.append(prfs[j])
        return out
    raise ValueError(f"unknown multi_ref mode {mode!r}")


def score_candidates(
    per_ref: Sequence[Stats],
    g: Callable[[float], float],
    mode: str,
    beta: float = 1.0,
    jackknife: bool = False,
    tie_tol: float = 0.0,
    round_recall: int | None = None,
) -> list[PRF]:
    """Like :func:`aggregate_candidates`, plus jackknifing: with N >= 2 references, the mean
    over the N leave-one-out subsets of P, of R and of F, each subset aggregated with
    ``mode``; with one reference jackknifing returns the plain score."""
    if not jackknife or len(per_ref) < 2:
        return aggregate_candidates(per_ref, g, mode, beta, tie_tol, round_recall)
    options = [
        aggregate_candidates(
            [s for j, s in enumerate(per_ref) if j != k], g, mode, beta, tie_tol, round_recall
        )
        for k in range(len(per_ref))
    ]
    out: list[PRF] = []
    for combo in itertools.product(*options):
        n = len(combo)
        prf = PRF(
            sum(x.p for x in combo) / n,
            sum(x.r for x in combo) / n,
            sum(x.f for x in combo) / n,
        )
        if prf not in out:
            out.append(prf)
    return out


def rouge_score(
    variant: str,
    hyp: Tokens,
    refs: Sequence[Tokens],
    mode: str = "max",
    beta: float = 1.0,
    jackknife: bool = False,
    round_recall: int | None = None,
) -> PRF:
    """The one score the spec defines (ties broken exactly: first reference wins)."""
    v = parse_variant(variant)
    per_ref = [pair_stats(v, hyp, ref) for ref in refs]
    (prf,) = score_candidates(per_ref, finalizer(v), mode, beta, jackknife, 0.0, round_recall)
    return prf


def rouge_score_candidates(
    variant: str,
    hyp: Tokens,
    refs: Sequence[Tokens],
    mode: str = "max",
    beta: float = 1.0,
    jackknife: bool = False,
    tie_tol: float = 1e-12,
) -> list[PRF]:
    """Every score acceptable when near-ties (within ``tie_tol``) may go either way."""
    v = parse_variant(variant)
    per_ref = [pair_stats(v, hyp, ref) for ref in refs]
    return score_candidates(per_ref, finalizer(v), mode, beta, jackknife, tie_tol)


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def prf_close(a: Sequence[float], b: Sequence[float], tol: float = 1e-9) -> bool:
    return all(close(x, y, tol) for x, y in zip(a, b, strict=True))
