"""Paired significance tests between MT systems: bootstrap resampling (Koehn 2004) and
approximate randomization (Riezler & Maxwell 2005), as sacrebleu's ``--paired-bs`` and
``--paired-ar``, from per-segment sufficient statistics (corpus BLEU) or segment scores.

The per-segment statistics are extracted once per system; a resample is then a matrix
product (multiplicities or swap masks times the statistics rows) and every resample is
scored in one vectorized call. ``rng="sacrebleu"`` reproduces sacrebleu 2.6.0 exactly: its
draws (``default_rng(seed)``, a fresh generator per system), its float32 bootstrap
statistics and its arithmetic, so p-values, means and CIs are the same numbers.

>>> import mtalign
>>> base = [0.1, 0.4, 0.35, 0.8, 0.5, 0.6]
>>> res = mtalign.paired_test(None, base, {"better": [0.3, 0.5, 0.45, 0.9, 0.6, 0.8]},
...                           kind="bs", n_samples=200)
>>> round(res["better"].score, 4), res["better"].p_value < 0.05, res["baseline"].p_value
(0.5917, True, None)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._travel import dataclass_eq, dataclass_hash, plain
from mtalign.meta._data import check_int, check_seed
from mtalign.metrics.bleu import SACREBLEU_SMOOTHINGS as _SACREBLEU_SMOOTHINGS

KINDS = ("bs", "ar")
RNGS = ("mtalign", "sacrebleu")
_DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
_SMOOTH_DEFAULT = {"none": 0.0, "floor": 0.1, "add-k": 1.0, "exp": 0.0}


@dataclass(frozen=True)
class PairedResult:
    """One system's result, as sacrebleu's ``Result``.

    Attributes:
        score: the corpus score.
        p_value: p-value of the test against the baseline (None for the baseline).
        mean: the bootstrap mean of the score (None when no bootstrap was run).
        ci: half the width of the 95% bootstrap interval, sacrebleu's "± ci".
        interval: the interval itself, (low, high).
    """

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    interval: tuple[float, float] | None = None

    __eq__ = dataclass_eq
    __hash__ = dataclass_hash

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (None: not computed)."""
        return plain({"score": self.score, "p_value": self.p_value, "mean": self.mean,  # type: ignore[no-any-return]
                      "ci": self.ci, "interval": self.interval})

    def __str__(self) -> str:
        out = f"{self.score:.4f}"
        if self.mean is not None and self.ci is not None:
            out += f" (μ = {self.mean:.4f} ± {self.ci:.4f})"
        if self.p_value is not None:
            out += f" (p = {self.p_value:.4f})"
        return out


def estimate_ci(scores: np.ndarray) -> tuple[float, float, tuple[float, float]]:
    """sacrebleu's ``estimate_ci``: mean, half-width and bounds of the 95% interval."""
    s = np.sort(scores)
    n = len(s)
    lo_i = n // 40
    lower, upper = s[lo_i], s[n - lo_i - 1]
    return float(s.mean()), float(0.5 * (upper - lower)), (float(lower), float(upper))


def p_value(stats: np.ndarray, real: float) -> float:
    """sacrebleu's (and multeval's) ``(count(stats > real) + 1) / (len + 1)``."""
    return (int(np.sum(stats > real)) + 1) / (len(stats) + 1)


# --- scorers: statistics rows (R, k) -> scores (R,) --------------------------------------

class _Scorer:
    """Statistics of the systems (one call for all: each distinct text is tokenized once)
    and a vectorized score of summed rows."""

    def __init__(self, stats: Callable[[Sequence[Any]], np.ndarray],
                 score: Callable[[np.ndarray, bool], np.ndarray], texts: bool,
                 mean_rows: bool = False) -> None:
        self.stats = stats
        self.score = score  # (rows, float32_semantics) -> scores
        self.texts = texts
        self.mean_rows = mean_rows  # summed rows are divided by n before scoring

    def all_stats(self, systems: list[Any], refs: Any) -> list[np.ndarray]:
        if not self.texts:
            return [self.stats(v) for v in systems]
        sizes = [len(v) for v in systems]
        n = sizes[0]
        for size in sizes:
            if size != n:
                raise InputError(f"a system has {size} segments but the baseline has {n}")
        flat = [h for v in systems for h in v]
        big = self.stats(flat)
        return [big[i * n:(i + 1) * n] for i in range(len(systems))]


def _sacrebleu_bleu(config: dict[str, Any]) -> Callable[[np.ndarray, bool], np.ndarray]:
    """sacrebleu's ``BLEU.compute_bleu`` on many summed statistics rows at once, replaying
    its arithmetic: float32 precisions for bootstrap rows (its statistics are float32),
    float64 otherwise, ``math.log``/``math.exp`` and left-to-right sums."""
    smooth = config["smooth"]
    if smooth not in _SACREBLEU_SMOOTHINGS:
        raise ConfigError(f"rng='sacrebleu' needs a sacrebleu smoothing "
                          f"({', '.join(_SACREBLEU_SMOOTHINGS)}), not {smooth!r}")
    value = config["smooth_value"]
    value = _SMOOTH_DEFAULT[smooth] if value is None else float(value)
    order = int(config["max_order"])
    eff = bool(config["effective_order"])
    log: Any = np.frompyfunc(math.log, 1, 1)
    exp: Any = np.frompyfunc(math.exp, 1, 1)

    def score(rows: np.ndarray, f32: bool) -> np.ndarray:
        r = rows.shape[0]
        sys_len = rows[:, 0].astype(np.int64)
        ref_len = rows[:, 1].astype(np.int64)
        ftype: Any = np.float32 if f32 else np.float64
        correct: Any = rows[:, 2:2 + order].astype(ftype)
        total: Any = rows[:, 2 + order:2 + 2 * order].astype(ftype)
        bp = np.ones(r)
        short = sys_len < ref_len
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = 1 - ref_len / np.where(sys_len > 0, sys_len, 1)
        bp_short = np.where(sys_len > 0, exp(ratio).astype(np.float64), 0.0)
        bp = np.where(short, bp_short, bp)
        none_correct = ~(correct != 0).any(1)
        prec = np.zeros((r, order))
        active = np.ones(r, dtype=bool)
        eff_order = np.full(r, order)
        smooth_mteval = np.ones(r)
        hundred: Any = ftype(100.0)
        for n in range(order):
            c = correct[:, n]
            t = total[:, n]
            if smooth == "add-k" and n > 0:
                if f32:
                    c = c + np.float32(value)
                    t = t + np.float32(value)
                else:
                    c = c + value
                    t = t + value
            active &= t != 0
            if eff:
                eff_order = np.where(active, n + 1, eff_order)
            zero = active & (c == 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                if smooth == "exp":
                    smooth_mteval = np.where(zero, smooth_mteval * 2, smooth_mteval)
                    p_zero = hundred / (smooth_mteval.astype(ftype) * t)
                elif smooth == "floor":
                    p_zero = ftype(100.0 * value) / t
                else:
                    p_zero = np.zeros(r, dtype=ftype)
                p_hit = (hundred * c) / t
            p = np.where(zero, p_zero, np.where(active, p_hit, 0.0))
            prec[:, n] = p.astype(np.float64)
        logs = np.where(prec == 0.0, -9999999999.0,
                        log(np.where(prec == 0.0, 1.0, prec)).astype(np.float64))
        acc = logs[:, 0].copy()
        for n in range(1, order):
            acc = np.where(n < eff_order, acc + logs[:, n], acc)
        s = bp * exp(acc / eff_order).astype(np.float64)
        return np.where(none_correct, 0.0, s)

    return score


def _scorer(metric: Any, refs: Any, rng: str, threads: int | None) -> _Scorer:
    """How to get statistics and score summed rows for ``metric`` (duck-typed)."""
    if metric is None:
        def values(values: Sequence[Any]) -> np.ndarray:
            arr = np.asarray(values, dtype=np.float64)
            if arr.ndim != 1 or not np.isfinite(arr).all():
                raise InputError("without a metric, systems must be 1-D arrays of finite "
                                 "per-segment scores")
            return arr[:, None]
        return _Scorer(values, lambda rows, f32: rows[:, 0], False)
    has_stats = hasattr(metric, "statistics") and hasattr(metric, "corpus_from_statistics")
    if refs is None and not has_stats:
        raise InputError("refs are needed to score hypotheses with a metric")
    refs = None if refs is None else list(refs)

    def repeat(hyps: Sequence[Any]) -> list[Any]:
        assert refs is not None
        if len(hyps) % max(len(refs), 1):
            raise InputError(f"{len(hyps) % len(refs)} hypotheses left over: systems must "
                             f"have one hypothesis per reference ({len(refs)})")
        return refs * (len(hyps) // max(len(refs), 1))

    if has_stats:
        texts = refs is not None

        def stats(hyps: Sequence[Any]) -> np.ndarray:
            if not texts:  # statistics rows given (metric.statistics() of each system)
                try:
                    arr = np.asarray(hyps, dtype=np.float64)
                except (TypeError, ValueError):
                    arr = np.zeros(0)
                if arr.ndim != 2 or not np.isfinite(arr).all():
                    raise InputError("with refs=None, the baseline and each system must be "
                                     "statistics arrays (n, width) from metric.statistics() "
                                     "(give refs to score hypotheses)")
                return arr
            return np.asarray(metric.statistics(hyps, repeat(hyps), threads=threads),
                              dtype=np.float64)
        from mtalign.metrics.bleu import Bleu
        if rng == "sacrebleu" and isinstance(metric, Bleu):
            return _Scorer(stats, _sacrebleu_bleu(metric.config()), texts)
        aggregation = getattr(metric, "aggregation", None)
        if aggregation in ("sum", "mean") and hasattr(metric, "scores_from_statistics"):
            # A resample's summed rows (divided by n for a mean) scored in one call.
            return _Scorer(stats, lambda rows, f32: np.asarray(
                metric.scores_from_statistics(rows), dtype=np.float64), texts,
                mean_rows=aggregation == "mean")

        def by_row(rows: np.ndarray, f32: bool) -> np.ndarray:
            return np.array([float(metric.corpus_from_statistics(row[None, :]))
                             for row in rows])
        return _Scorer(stats, by_row, texts)
    if hasattr(metric, "batch_score"):
        def seg(hyps: Sequence[Any]) -> np.ndarray:
            return np.asarray(metric.batch_score(hyps, repeat(hyps)),
                              dtype=np.float64)[:, None]
        return _Scorer(seg, lambda rows, f32: rows[:, 0], True)
    raise ConfigError(f"{type(metric).__name__} has neither statistics() and "
                      f"corpus_from_statistics() nor batch_score()")



def paired_test(metric: Any, baseline_hyps: Sequence[Any] | np.ndarray,
                systems: Mapping[str, Sequence[Any] | np.ndarray], refs: Any = None, *,
                kind: str = "bs", n_samples: int | None = None, seed: int | None = 12345,
                rng: str = "mtalign", baseline_name: str = "baseline",
                ar_confidence: int | None = None, threads: int | None = None
                ) -> dict[str, PairedResult]:
    """Compare ``systems`` with a baseline by paired bootstrap (``kind="bs"``) or
    approximate randomization (``"ar"``).

    Args:
        metric: an mtalign metric (with ``statistics()``/``corpus_from_statistics()``: the
            corpus score of resampled statistics; else ``batch_score()``: the mean segment
            score) or ``None``: then ``baseline_hyps`` and each system are per-segment
            scores from any outside metric (their mean is the system score).
        baseline_hyps, systems: the baseline's hypotheses and ``{name: hypotheses}``; with a
            metric and ``refs=None``, their statistics instead (``metric.statistics(...)``
            arrays), so that several tests share one statistics pass.
        refs: the references, as the metric takes them (per segment: a str or a list).
        n_samples: resamples (bs, default 1000) or trials (ar, default 10000).
        seed: seeds the draws (None: fresh entropy; sacrebleu's default is 12345).
        rng: ``"mtalign"`` (float64 statistics, the metric's own scoring) or
            ``"sacrebleu"`` (sacrebleu 2.6.0's numbers exactly; BLEU with a sacrebleu
            smoothing, or plain scores).
        ar_confidence: for ``"ar"``, bootstrap resamples for the CIs (sacrebleu's
            ``n_ar_confidence``; default none, as its command line).

    Returns:
        ``{name: PairedResult}``: the baseline first (no p-value), then each system.
        In ``bs`` the p-value is sacrebleu's: the share of resamples whose centred score
        difference exceeds the observed one (+1 smoothed); in ``ar`` the share of trials
        whose swapped difference does.
    """
    if kind not in KINDS:
        raise ConfigError(f"unknown kind {kind!r} (choose from: bs, ar)")
    if rng not in RNGS:
        raise ConfigError(f"unknown rng {rng!r} (choose from: mtalign, sacrebleu)")
    n_samples = _DEFAULT_SAMPLES[kind] if n_samples is None else check_int(
        "n_samples", n_samples, 1)
    seed = check_seed(seed)
    conf = None if ar_confidence is None else check_int("ar_confidence", ar_confidence, 1)
    if not isinstance(systems, Mapping) or not systems:
        raise InputError("systems must be a non-empty {name: hypotheses} dict")
    if baseline_name in systems:
        raise InputError(f"a system is named like the baseline ({baseline_name!r})")
    scorer = _scorer(metric, refs, rng, threads)
    names = list(systems)
    everything = scorer.all_stats([baseline_hyps, *[systems[k] for k in names]], refs)
    base = everything[0]
    n = base.shape[0]
    if n == 0:
        raise InputError("the baseline has no segments")
    for name, st in zip(names, everything[1:], strict=True):
        if st.shape != base.shape:
            raise InputError(f"system {name!r} has {st.shape[0]} segments but the baseline "
                             f"has {n}")
    is_mean = metric is None or not (hasattr(metric, "statistics")
                                     and hasattr(metric, "corpus_from_statistics"))
    width = base.shape[1]
    stacked = np.concatenate(everything, axis=1)  # (n, width * (1 + systems))
    totals = stacked.sum(0)
    # integer statistics sum exactly in float32 (half the matrix-product time)
    exact32 = bool(np.all(stacked == np.round(stacked))) and \
        float(np.abs(stacked).sum(0).max(initial=0.0)) < 2.0 ** 24

    def score(rows: np.ndarray, f32: bool = False) -> np.ndarray:
        """Scores of summed rows (R, width * systems) -> (R, systems)."""
        r = rows.shape[0]
        flat = rows.reshape(r * (rows.shape[1] // width), width)
        if scorer.mean_rows:
            flat = flat / n
        out = scorer.score(flat, f32).reshape(r, -1)
        return out / n if is_mean else out

    f32 = rng == "sacrebleu"
    observed = score(totals[None, :])[0]
    base_score = float(observed[0])
    results: dict[str, PairedResult] = {}

    def boot_counts(g: np.random.Generator, k: int) -> np.ndarray:
        idx = g.choice(n, size=(k, n), replace=True)
        flat = (np.arange(k)[:, None] * n + idx).ravel()
        return np.bincount(flat, minlength=k * n).reshape(k, n)

    def resampled(counts: np.ndarray, cols: np.ndarray) -> np.ndarray:
        dtype = np.float32 if exact32 else np.float64
        rows = (counts.astype(dtype) @ cols.astype(dtype)).astype(np.float64)
        if f32:  # sacrebleu bootstraps float32 statistics
            rows = rows.astype(np.float32).astype(np.float64)
        return score(rows, f32)

    if kind == "bs":
        boot = resampled(boot_counts(np.random.default_rng(seed), n_samples), stacked)
        mean, ci, bounds = estimate_ci(boot[:, 0])
        results[baseline_name] = PairedResult(base_score, None, mean, ci, bounds)
        for i, name in enumerate(names, start=1):
            sample = np.abs(boot[:, i] - boot[:, 0])
            p = p_value(sample - sample.mean(), abs(base_score - float(observed[i])))
            mean, ci, bounds = estimate_ci(boot[:, i])
            results[name] = PairedResult(float(observed[i]), p, mean, ci, bounds)
        return results

    Ci = tuple[float | None, float | None, tuple[float, float] | None]
    base_ci: Ci = (None, None, None)
    if conf is not None:
        base_ci = estimate_ci(resampled(boot_counts(np.random.default_rng(seed), conf),
                                        base)[:, 0])
    results[baseline_name] = PairedResult(base_score, None, *base_ci)
    # sacrebleu draws each system's trials from a fresh default_rng(seed): the same trials
    # for every system, so they are drawn once here.
    g = np.random.default_rng(seed)
    pos = g.integers(2, size=(n_samples, n), dtype=bool)
    sys_ci: list[Ci] = [(None, None, None)] * len(names)
    if conf is not None:
        counts = boot_counts(g, conf)
        boot = resampled(counts, stacked[:, width:])
        sys_ci = [estimate_ci(boot[:, i]) for i in range(len(names))]
    diffs = np.tile(base, (1, len(names))) - stacked[:, width:]
    sys_totals = totals[width:]
    base_totals = np.tile(totals[:width], len(names))
    dtype = np.float32 if exact32 else np.float64
    diffs_t = diffs.astype(dtype)
    trial_a = np.empty((n_samples, len(names)))
    trial_b = np.empty((n_samples, len(names)))
    step = max(1, 4_000_000 // max(diffs.shape[1], n))
    for a in range(0, n_samples, step):
        moved = (pos[a:a + step].astype(dtype) @ diffs_t).astype(np.float64)
        trial_a[a:a + step] = score(moved + sys_totals)    # pos @ base + neg @ system
        trial_b[a:a + step] = score(base_totals - moved)   # neg @ base + pos @ system
    for i, name in enumerate(names):
        p = p_value(np.abs(trial_a[:, i] - trial_b[:, i]),
                    abs(base_score - float(observed[i + 1])))
        results[name] = PairedResult(float(observed[i + 1]), p, *sys_ci[i])
    return results
