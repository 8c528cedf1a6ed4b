"""The numbers of ``mtalign report``: corpus scores with bootstrap intervals, significance
against the best system and clusters, correlation with human scores, compare-mt's buckets
and n-gram differences, and the segments where two systems differ most.

Everything here is data (NumPy arrays, lists, dicts); :mod:`mtalign.reporting.page` draws it.

>>> from mtalign.reporting.analysis import length_bucket, frequency_bucket
>>> [length_bucket(n) for n in (0, 9, 10, 55)]
['<10', '<10', '10-19', '≥50']
>>> [frequency_bucket(n) for n in (0, 1, 5, 99, 1000)]
['0', '1', '5-9', '10-99', '≥1000']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtalign import registry
from mtalign._mtalign import __version__
from mtalign.errors import InputError
from mtalign.meta.clusters import assign_ranks
from mtalign.meta.correlation import Correlation, correlate
from mtalign.meta.paired import p_value, paired_test
from mtalign.meta.systems import SystemScores
from mtalign.metrics.base import confidence, pick_scalar
from mtalign.metrics.ter import Ter, TerExplanation
from mtalign.tokenizers import tokenize

#: Reference-length buckets (words): upper bounds, as compare-mt's default cut-offs.
LENGTH_CUTOFFS = (10, 20, 30, 40, 50)
#: Word-frequency buckets: compare-mt's default cut-offs (1, 2, 3, 4, 5, 10, 100, 1000).
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def length_bucket(n: int) -> str:
    """The reference-length bucket of a segment of ``n`` words."""
    if n < LENGTH_CUTOFFS[0]:
        return f"<{LENGTH_CUTOFFS[0]}"
    for lo, hi in zip(LENGTH_CUTOFFS, LENGTH_CUTOFFS[1:], strict=False):
        if n < hi:
            return f"{lo}-{hi - 1}"
    return f"≥{LENGTH_CUTOFFS[-1]}"


def length_buckets() -> list[str]:
    """Every length bucket, in order."""
    return [length_bucket(n) for n in (0, *LENGTH_CUTOFFS)]


def frequency_bucket(n: int) -> str:
    """The bucket of a word seen ``n`` times in the frequency corpus."""
    if n < FREQUENCY_CUTOFFS[0]:
        return "0"
    for lo, hi in zip(FREQUENCY_CUTOFFS, FREQUENCY_CUTOFFS[1:], strict=False):
        if n < hi:
            return str(lo) if hi == lo + 1 else f"{lo}-{hi - 1}"
    return f"≥{FREQUENCY_CUTOFFS[-1]}"


def frequency_buckets() -> list[str]:
    """Every frequency bucket, in order."""
    return [frequency_bucket(n) for n in (0, *FREQUENCY_CUTOFFS)]


def words(text: str) -> list[str]:
    """The words the buckets and n-grams count: sacrebleu's 13a tokens, case kept."""
    return tokenize(text, tokenize="13a", lowercase=False)


@dataclass
class MetricTable:
    """One metric over every system (systems in input order).

    ``scores``: corpus scores; ``sentence``: (systems, segments) sentence scores; ``low``,
    ``high``, ``mean``: the 95% bootstrap interval and mean (None without a bootstrap);
    ``best``: the best system's index; ``p_values``: the paired test of each system against
    the best (NaN for the best); ``ranks``: significance clusters (1 = best; systems not
    significantly different from a member of a cluster share its rank; None without a
    bootstrap); ``correlation``: with the human scores (system level, corpus scores).
    """

    name: str
    higher_is_better: bool
    scores: np.ndarray
    sentence: np.ndarray
    signature: str
    test_signature: str
    best: int
    p_values: np.ndarray
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    mean: np.ndarray | None = None
    ranks: list[int] | None = None
    correlation: Correlation | None = None
    #: the systems' statistics behind ``scores`` (what a system-level correlation resamples)
    system_scores: SystemScores | None = None

    def order(self) -> list[int]:
        """System indices, best first (ties: input order)."""
        sign = -1.0 if self.higher_is_better else 1.0
        return sorted(range(len(self.scores)), key=lambda i: (sign * self.scores[i], i))

    def better(self, a: int, b: int) -> np.ndarray:
        """Per segment: how much better system ``a`` is than ``b`` (positive: ``a``)."""
        d = self.sentence[a] - self.sentence[b]
        return d if self.higher_is_better else -d


def score_metric(name: str, systems: list[list[str]], refs: list[list[str]], *,
                 options: registry.MetricOptions | None, test: str, n_samples: int | None,
                 n_bootstrap: int | None, seed: int, threads: int | None) -> MetricTable:
    """Corpus and sentence scores of every system by one metric (one native call for all
    systems: each reference is tokenized once), bootstrap intervals drawn as
    ``corpus_score(n_bootstrap=...)`` draws them (the same resamples for every system), the
    paired test of each system against the best, and significance clusters from the
    pairwise bootstrap p-values."""
    metric, variant = registry.make_metric(name, options)
    k = metric.scalar_names().index(pick_scalar(metric, variant))
    n_sys, n = len(systems), len(refs)
    arr, _, _, _ = metric._run([h for s in systems for h in s], refs * n_sys, threads)
    stats = metric._stats(arr)
    per_sys = [stats[s * n:(s + 1) * n] for s in range(n_sys)]
    sentence = np.asarray(metric._sentence_values(arr, k), dtype=np.float64).reshape(n_sys, n)
    by_system = SystemScores(metric, [str(i) for i in range(n_sys)], per_sys,
                             pick_scalar(metric, variant))
    scores = by_system.scores
    signature = metric._result(arr[:n], 0, 0, (metric, refs, n_bootstrap or 1, seed)).signature
    hib = bool(getattr(metric, "higher_is_better", True))
    sign = 1.0 if hib else -1.0
    best = min(range(n_sys), key=lambda i: (-sign * scores[i], i))
    n_test = n_samples or (1000 if test == "bs" else 10000)
    test_sig = f"test:{test}|n:{n_test}|seed:{seed}|rng:mtalign|version:{__version__}"
    table = MetricTable(name, hib, scores, sentence, signature, test_sig, best,
                        np.full(n_sys, np.nan), system_scores=by_system)
    if n_sys > 1:
        others = {str(i): per_sys[i] for i in range(n_sys) if i != best}
        res = paired_test(metric, per_sys[best], others, None, kind=test, n_samples=n_test,
                          seed=seed, baseline_name="best")
        for key in others:
            table.p_values[int(key)] = res[key].p_value
    if n_bootstrap:
        boot = resampled_scores(metric, per_sys, n_bootstrap, seed)
        cis = [confidence(boot[:, s], n_bootstrap, seed) for s in range(n_sys)]
        table.low = np.array([c.low for c in cis])
        table.high = np.array([c.high for c in cis])
        table.mean = np.array([c.mean for c in cis])
        table.ranks = clusters(boot, scores, table.order())
    return table


def resampled_scores(metric: Any, per_sys: list[np.ndarray], n_bootstrap: int,
                     seed: int) -> np.ndarray:
    """(resamples, systems) corpus scores of the resamples ``corpus_score(n_bootstrap=...,
    seed=...)`` draws (the same for every system, so that differences are paired): one
    matrix product of the multiplicities with every system's statistics side by side, and
    one vectorized scoring of the summed rows (one corpus per resample for metrics whose
    statistics do not add up)."""
    n = per_sys[0].shape[0]
    idx = np.random.default_rng(seed).choice(n, size=(n_bootstrap, n), replace=True)
    if metric.aggregation not in ("sum", "mean"):
        return np.stack([metric._resampled(st, idx) for st in per_sys], axis=1)
    counts = np.bincount((np.arange(n_bootstrap)[:, None] * n + idx).ravel(),
                         minlength=n_bootstrap * n).reshape(n_bootstrap, n)
    width = per_sys[0].shape[1]
    rows = counts.astype(np.float64) @ np.hstack(per_sys)
    rows = rows.reshape(n_bootstrap * len(per_sys), width)
    if metric.aggregation == "mean":
        rows /= n
    return np.asarray(metric.scores_from_statistics(rows)).reshape(n_bootstrap, len(per_sys))


def clusters(boot: np.ndarray, scores: np.ndarray, order: list[int],
             p_threshold: float = 0.05) -> list[int]:
    """Significance clusters of systems (rank per system, in input order): the systems
    sorted best first, the paired bootstrap p-value of every pair (sacrebleu's, from the
    shared resamples ``boot`` (resamples, systems)), and a new rank whenever a system is
    significantly different from a member of the current one
    (:func:`mtalign.meta.assign_ranks`, WMT's clusters).

    >>> g = np.random.default_rng(0)
    >>> shared = g.normal(size=(1000, 1))        # A and B differ by noise, C by 10 points
    >>> boot = np.hstack([shared + 30, shared + 30 + g.normal(size=(1000, 1)), shared + 20])
    >>> clusters(boot, np.array([30.0, 29.9, 20.0]), [0, 1, 2])
    [1, 1, 2]
    """
    m = len(order)
    p = np.ones((m, m))
    for a in range(m):
        for b in range(a + 1, m):
            i, j = order[a], order[b]
            diff = np.abs(boot[:, i] - boot[:, j])
            p[a, b] = p_value(diff - diff.mean(), abs(float(scores[i] - scores[j])))
    ranks = assign_ranks(p, p_threshold)
    out = [0] * m
    for rank, i in zip(ranks, order, strict=True):
        out[i] = rank
    return out


def human_matrix(human: Mapping[str, Any], names: Sequence[str], n: int) -> np.ndarray:
    """(systems, segments) human scores (NaN: not judged) from ``{system: score}`` (one
    number: a system-level score, given to every segment) or ``{system: segment scores}``.

    >>> human_matrix({"A": 1.0, "B": [0.0, float("nan")]}, ["A", "B"], 2).tolist()
    [[1.0, 1.0], [0.0, nan]]
    """
    out = np.full((len(names), n), np.nan)
    for i, s in enumerate(names):
        if s not in human:
            raise InputError(f"the human scores have no system {s!r}")
        v = np.asarray(human[s], dtype=np.float64)
        if v.ndim == 0:
            out[i] = float(v)
        elif v.shape == (n,):
            out[i] = v
        else:
            raise InputError(f"human scores of {s!r}: {v.size} values for {n} segments")
        if np.isnan(out[i]).all():
            raise InputError(f"system {s!r} has no human scores")
    return out


def correlate_human(table: MetricTable, human: np.ndarray, n_bootstrap: int | None,
                    seed: int) -> Correlation:
    """Pearson's r of the corpus scores with the human system scores, as WMT: each system's
    metric score is its corpus score (error rates negated); the interval resamples segments
    and re-scores each resample's corpus from the statistics :func:`score_metric` kept."""
    ss = table.system_scores
    if ss is None:
        raise ValueError(f"{table.name}: the table keeps no statistics to correlate")
    return correlate(ss if table.higher_is_better else -ss, human, level="system",
                     n_bootstrap=n_bootstrap, seed=seed)


# -- compare-mt's analyses -----------------------------------------------------------------

@dataclass
class Buckets:
    """Bucketed scores. ``labels``: the buckets shown (in order); ``counts[b]``: segments
    (length) or reference words (frequency) in bucket b; ``values[s][b]``: system s's
    score there (NaN: nothing to score)."""

    labels: list[str]
    counts: list[int]
    values: list[list[float]]


def by_length(sentence: np.ndarray, ref_words: list[list[str]]) -> Buckets:
    """Mean sentence score of each system per reference-length bucket (the first
    reference's words); empty buckets are left out."""
    keys = [length_bucket(len(w)) for w in ref_words]
    labels = [b for b in length_buckets() if b in keys]
    members = [[i for i, k in enumerate(keys) if k == b] for b in labels]
    values = [[float(np.mean(row[m])) for m in members] for row in sentence]
    return Buckets(labels, [len(m) for m in members], values)


def by_frequency(hyp_words: list[list[list[str]]], ref_words: list[list[str]],
                 freq: Counter[str]) -> Buckets:
    """compare-mt's word accuracy by frequency: each word type's bucket is its count in
    ``freq``; per system and bucket, matched words (per segment: min of the word's counts in
    hypothesis and reference) over hypothesis words (precision) and over reference words
    (recall), and their F-measure. ``counts``: reference words per bucket."""
    order = frequency_buckets()
    vocab: dict[str, int] = {}
    bucket_of: list[int] = []

    def ids(segments: list[list[str]]) -> np.ndarray:
        """(segment, word id) of every word; new words get an id and a bucket."""
        out = []
        for i, seg in enumerate(segments):
            for w in seg:
                j = vocab.get(w)
                if j is None:
                    j = vocab[w] = len(vocab)
                    bucket_of.append(order.index(frequency_bucket(freq.get(w, 0))))
                out.append((i, j))
        return np.array(out, dtype=np.int64).reshape(-1, 2)

    ref_pairs = ids(ref_words)
    hyp_pairs = [ids(h) for h in hyp_words]
    v = max(len(vocab), 1)
    buckets = np.array(bucket_of, dtype=np.int64)
    n_b = len(order)

    def counted(pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keys, c = np.unique(pairs[:, 0] * v + pairs[:, 1], return_counts=True)
        return keys, c

    ref_keys, ref_c = counted(ref_pairs)
    ref_total = np.bincount(buckets[ref_keys % v], weights=ref_c, minlength=n_b)
    rows = []
    for pairs in hyp_pairs:
        keys, c = counted(pairs)
        hyp_total = np.bincount(buckets[keys % v], weights=c, minlength=n_b)
        at = np.searchsorted(ref_keys, keys).clip(max=max(len(ref_keys) - 1, 0))
        hit = (ref_keys[at] == keys) if len(ref_keys) else np.zeros(len(keys), bool)
        matched = np.bincount(buckets[keys[hit] % v], weights=np.minimum(c[hit], ref_c[at[hit]]),
                              minlength=n_b)
        rows.append((hyp_total, matched))
    shown = [b for b in range(n_b) if ref_total[b] or any(t[b] for t, _ in rows)]
    values = []
    for hyp_total, matched in rows:
        row = []
        for b in shown:
            p = matched[b] / hyp_total[b] if hyp_total[b] else 0.0
            r = matched[b] / ref_total[b] if ref_total[b] else 0.0
            row.append(float(2 * p * r / (p + r)) if p + r else 0.0)
        values.append(row)
    return Buckets([order[b] for b in shown], [int(ref_total[b]) for b in shown], values)


def ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    """The n-grams of a token list, counted."""
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


@dataclass
class NgramDiff:
    """An n-gram and how often each of the two systems produced it where the reference has
    it (matches clipped by the reference's count, summed over segments)."""

    ngram: str
    a: int
    b: int


def ngram_differences(a_words: list[list[str]], b_words: list[list[str]],
                      ref_words: list[list[str]], max_order: int = 4, top: int = 10,
                      min_count: int = 2) -> tuple[list[NgramDiff], list[NgramDiff]]:
    """compare-mt's n-gram analysis: the matched n-grams (orders 1..``max_order``) that
    system A gets right much more often than B, and those B gets right more often, ranked
    by the smoothed share (a + 1) / (a + b + 2) (then by the total, then the n-gram); only
    n-grams matched at least ``min_count`` times in all.

    >>> a, b = ngram_differences([["x", "y"]] * 2, [["x", "z"]] * 2, [["x", "y"]] * 2, 1)
    >>> [(d.ngram, d.a, d.b) for d in a], [(d.ngram, d.a, d.b) for d in b]
    ([('y', 2, 0), ('x', 2, 2)], [('x', 2, 2), ('y', 2, 0)])
    """
    ma: Counter[tuple[str, ...]] = Counter()
    mb: Counter[tuple[str, ...]] = Counter()
    for ha, hb, r in zip(a_words, b_words, ref_words, strict=True):
        for n in range(1, max_order + 1):
            rc = ngrams(r, n)
            if not rc:
                break
            for hyp, total in ((ha, ma), (hb, mb)):
                for g, c in ngrams(hyp, n).items():
                    if g in rc:
                        total[g] += min(c, rc[g])
    found = [g for g in set(ma) | set(mb) if ma[g] + mb[g] >= min_count]

    def ranked(x: Counter[tuple[str, ...]], y: Counter[tuple[str, ...]]) -> list[NgramDiff]:
        key = sorted(found, key=lambda g: (-(x[g] + 1) / (x[g] + y[g] + 2), -(x[g] + y[g]), g))
        return [NgramDiff(" ".join(g), ma[g], mb[g]) for g in key[:top]]

    return ranked(ma, mb), ranked(mb, ma)


# -- segments ------------------------------------------------------------------------------

@dataclass
class Marked:
    """A hypothesis as TER edits it: each word (as written, in the hypothesis's order) with
    its operation (``match``, ``sub``, ``del``) and whether a shift moved it; the reference
    words it lacks (``ins``); and the explanation itself."""

    words: list[tuple[str, str, bool]]
    missing: list[str]
    explanation: TerExplanation


def mark_hypothesis(ter: Ter, hyp: str, refs: list[str]) -> Marked:
    """TER's edits of ``hyp`` (:meth:`mtalign.Ter.explain`) mapped back onto its words as
    written: the shifts are replayed on word positions (sacrebleu's ``_perform_shift``) so
    each operation of the alignment lands on the word it concerns.

    >>> m = mark_hypothesis(Ter(), "d a b c x", ["a b c d"])
    >>> m.words
    [('d', 'match', True), ('a', 'match', False), ('b', 'match', False), ('c', 'match', False), ('x', 'del', False)]
    """  # noqa: E501
    e = ter.explain(hyp, refs)
    shown = hyp.split()
    if len(shown) != len(e.hyp):  # normalized TER: show its own words
        shown = list(e.hyp)
    pos = list(range(len(e.hyp)))
    moved: set[int] = set()
    for s in e.shifts:
        moved.update(pos[s.start:s.start + s.length])
        pos = _perform_shift(pos, s.start, s.length, s.target)
    ops: dict[int, str] = {}
    missing = []
    i = 0
    for op, _, r in e.alignment:
        if op == "ins":
            missing.append(r or "")
            continue
        ops[pos[i]] = op
        i += 1
    return Marked([(w, ops.get(j, "match"), j in moved) for j, w in enumerate(shown)],
                  missing, e)


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacrebleu's ``_perform_shift``: ``length`` words taken at ``start`` moved to
    ``target``."""
    if target < start:
        return (words[:target] + words[start:start + length]
                + words[target:start] + words[start + length:])
    if target > start + length:
        return (words[:start] + words[start + length:target]
                + words[start:start + length] + words[target:])
    return (words[:start] + words[start + length:length + target]
            + words[start:start + length] + words[length + target:])


def biggest_differences(better: np.ndarray, count: int) -> tuple[list[int], list[int]]:
    """The segments where A beats B by the most and where B beats A by the most
    (``better``: A's advantage per segment), at most ``count`` each, biggest first."""
    order = np.argsort(-better, kind="stable")
    a = [int(i) for i in order if better[i] > 0][:count]
    rev = np.argsort(better, kind="stable")
    b = [int(i) for i in rev if better[i] < 0][:count]
    return a, b


@dataclass
class ReportData:
    """Everything the page shows."""

    names: list[str]
    n_segments: int
    n_refs: int
    tables: list[MetricTable]
    human: np.ndarray | None
    pair: tuple[int, int] | None
    segment_metric: int
    length: Buckets | None = None
    frequency: Buckets | None = None
    frequency_source: str = "the references"
    ngram_a: list[NgramDiff] = field(default_factory=list)
    ngram_b: list[NgramDiff] = field(default_factory=list)
    examples: list[tuple[str, list[int]]] = field(default_factory=list)
    marked: dict[tuple[int, int], Marked] = field(default_factory=dict)
    shown_segments: list[int] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
