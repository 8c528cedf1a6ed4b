"""sacrebleu 2.6.0's paired significance tests (``PairedTest``, ``Result``) and bootstrap
intervals, on statistics computed by mtalign.

The draws are sacrebleu's (``numpy.random.default_rng(SACREBLEU_SEED)``, default 12345, a
fresh generator per system), the resampled statistics are summed as sacrebleu sums them
(float32 for the bootstrap) and scored with its arithmetic (BLEU through
``mtalign.meta.paired``'s vectorized replay of it), so p-values, means and intervals are
sacrebleu's numbers.

>>> from mtalign.compat.sacrebleu.metrics import BLEU
>>> refs = [["a b c d", "e f g h", "i j k l", "m n o p"]]
>>> systems = [("base", ["a b c d", "e f g x", "i j y l", "m n o p"]),
...            ("other", ["a b c d", "e f g h", "i j k l", "m z o p"])]
>>> sigs, scores = PairedTest(systems, {"BLEU": BLEU()}, refs, "bs", 100)()
>>> scores["System"], round(scores["BLEU"][1].p_value, 4)
(['base', 'other'], 0.2376)
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mtalign.compat.sacrebleu.metrics.base import (  # the bootstrap lives with Score
    Metric,
    Score,  # noqa: F401 (sacrebleu.significance.Score, as in sacrebleu)
    Signature,
    _bootstrap_resample,
    _resampled_scores,
    _seed,
    sacrelogger,
)


class Result:
    """One system's result: ``score``, and ``p_value`` against the baseline, ``mean`` and
    ``ci`` (half the 95% interval) where the test estimates them.

    >>> Result(20.5, 0.01)
    score=20.5,p_value=0.01,mean=None,ci=None
    """

    def __init__(self, score: float, p_value: float | None = None,
                 mean: float | None = None, ci: float | None = None) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={str(v)}" for k, v in self.__dict__.items())


def estimate_ci(scores: np.ndarray) -> tuple[Any, Any]:
    """The mean of ``scores`` and half the width of their 95% interval.

    >>> [float(x) for x in estimate_ci(np.array([1.0, 2.0, 3.0]))]
    [2.0, 1.0]
    """
    scores = np.sort(scores)
    n = len(scores)
    low = n // 40
    return scores.mean(), 0.5 * (scores[n - low - 1] - scores[low])


def _compute_p_value(stats: np.ndarray, real_difference: float) -> float:
    """(count(stats > real) + 1) / (len + 1)."""
    return (np.sum(stats > real_difference).item() + 1) / (len(stats) + 1)


def _selected_sums(selection: np.ndarray, stats: Any) -> np.ndarray:
    """``selection @ stats`` (trials x segments times segments x statistics), as sacrebleu
    computes it; integer statistics through an exact float64 product (BLAS, not NumPy's
    integer loop), given back as the int64 sacrebleu gets."""
    stats = np.asarray(stats)
    if stats.dtype.kind in "iu":
        return (selection.astype(np.float64) @ stats.astype(np.float64)).astype(np.int64)
    return selection @ stats  # type: ignore[no-any-return]


def _against_baseline(metric: Metric, baseline: tuple[Any, Result],
                      hypotheses: Sequence[str], references: Any) -> tuple[Any, Any, Any, float]:
    """The baseline's statistics, the system's statistics and score, and the absolute
    difference of the two scores (what both paired tests start from)."""
    bl_stats, bl_result = baseline
    sys_stats = metric._extract_corpus_statistics(hypotheses, references)
    sys_score = metric._aggregate_and_compute(sys_stats)
    return bl_stats, sys_stats, sys_score, abs(bl_result.score - sys_score.score)


def _paired_ar_test(baseline_info: dict[str, tuple[Any, Result]], sys_name: str,
                    hypotheses: Sequence[str], references: Any, metrics: dict[str, Metric],
                    n_samples: int = 10000, n_ar_confidence: int = -1,
                    seed: int | None = None) -> tuple[str, dict[str, Result]]:
    """Approximate randomization against the baseline, for every metric."""
    rng = np.random.default_rng(seed)
    pos_sel = rng.integers(2, size=(n_samples, len(hypotheses)), dtype=bool)
    neg_sel = ~pos_sel
    bs_idxs = None
    if n_ar_confidence > 0:
        bs_idxs = rng.choice(len(hypotheses), size=(n_ar_confidence, len(hypotheses)),
                             replace=True)
    results = {}
    for name, metric in metrics.items():
        bl_stats, sys_stats, sys_score, diff = _against_baseline(metric, baseline_info[name],
                                                                 hypotheses, references)
        shuf_a = _selected_sums(pos_sel, bl_stats) + _selected_sums(neg_sel, sys_stats)
        shuf_b = _selected_sums(neg_sel, bl_stats) + _selected_sums(pos_sel, sys_stats)
        scores_a = np.array(metric._scores_of_sums(shuf_a))
        scores_b = np.array(metric._scores_of_sums(shuf_b))
        res = Result(sys_score.score, _compute_p_value(np.abs(scores_a - scores_b), diff))
        if bs_idxs is not None:
            sys32 = np.array(sys_stats, dtype="float32")
            res.mean, res.ci = estimate_ci(np.array(_resampled_scores(sys32, bs_idxs,
                                                                      metric)))
        results[name] = res
    return sys_name, results


def _paired_bs_test(baseline_info: dict[str, tuple[Any, Result]], sys_name: str,
                    hypotheses: Sequence[str], references: Any, metrics: dict[str, Metric],
                    n_samples: int = 1000, n_ar_confidence: int = -1,
                    seed: int | None = None) -> tuple[str, dict[str, Result]]:
    """Paired bootstrap resampling against the baseline (Koehn 2004), for every metric."""
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(hypotheses), size=(n_samples, len(hypotheses)), replace=True)
    results = {}
    for name, metric in metrics.items():
        bl_stats, sys_stats, sys_score, diff = _against_baseline(metric, baseline_info[name],
                                                                 hypotheses, references)
        scores_bl = np.array(_resampled_scores(np.array(bl_stats, dtype="float32"), idxs,
                                               metric))
        scores_sys = np.array(_resampled_scores(np.array(sys_stats, dtype="float32"), idxs,
                                                metric))
        sys_mean, sys_ci = estimate_ci(scores_sys)
        sample_diffs = np.abs(scores_sys - scores_bl)
        p = _compute_p_value(sample_diffs - sample_diffs.mean(), diff)
        results[name] = Result(sys_score.score, p, sys_mean, sys_ci)
    return sys_name, results


class PairedTest:
    """Paired tests of systems against the first one (the baseline), as sacrebleu's.

    Args:
        named_systems: ``[(name, hypotheses), ...]``, the baseline first.
        metrics: ``{name: metric}`` (this package's BLEU, CHRF, TER).
        references: reference streams (None: each metric's cached references).
        test_type: ``"ar"`` (approximate randomization) or ``"bs"`` (paired bootstrap).
        n_samples: trials or resamples (0: 10000 for ar, 1000 for bs).
        n_ar_confidence: with ar, bootstrap resamples for the intervals (-1: none,
            0: 1000).
        n_jobs: worker processes (1: none; 0: one per system up to half the CPUs).

    Calling it returns ``(signatures, scores)``: ``{metric: Signature}`` and
    ``{"System": names, metric: [Result, ...]}``.
    """

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(self, named_systems: list[tuple[str, Sequence[str]]],
                 metrics: Mapping[str, Metric], references: Any, test_type: str = "ar",
                 n_samples: int = 0, n_ar_confidence: int = -1, n_jobs: int = 1) -> None:
        assert test_type in ("ar", "bs"), f"Unknown test type {test_type!r}"
        self.test_type = test_type
        self._fn = _paired_ar_test if test_type == "ar" else _paired_bs_test
        self._seed = _seed()[1]
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else \
            self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        if os.name == "nt":
            self.n_jobs = 1
        elif self.n_jobs == 0:
            self.n_jobs = max(1, min(mp.cpu_count() // 2, self.n_systems))
        self._signatures: dict[str, Signature] = {}
        self._baseline_info: dict[str, tuple[Any, Result]] = {}
        self.metrics: dict[str, Metric] = {}
        bl_name, bl_hyps = named_systems[0]
        for metric in metrics.values():
            sacrelogger.info(f"Pre-computing statistics for {bl_name!r}")
            bl_stats = metric._extract_corpus_statistics(bl_hyps, references)
            bl_score = metric._aggregate_and_compute(bl_stats)
            confidence_n = self.n_samples if test_type == "bs" else self.n_ar_confidence
            bl_mean = bl_ci = None
            if confidence_n > 0:
                _, bl_scores = _bootstrap_resample(bl_stats, metric, confidence_n)
                bl_mean, bl_ci = estimate_ci(np.array([x.score for x in bl_scores]))
            self._baseline_info[bl_score.name] = (bl_stats, Result(bl_score.score,
                                                                   mean=bl_mean, ci=bl_ci))
            self.metrics[bl_score.name] = metric
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """Runs the tests: ``(signatures, scores)``."""
        scores: dict[str, list[Any]] = {"System": [ns[0] for ns in self.named_systems]}
        for metric, (_, result) in self._baseline_info.items():
            scores[metric] = [result]
        tasks = [(self._baseline_info, name, hyps, self.references, self.metrics,
                  self.n_samples, self.n_ar_confidence, self._seed if self._seed else None)
                 for name, hyps in self.named_systems[1:]]
        if self.n_jobs == 1:
            results = [self._fn(*args) for args in tasks]
        else:
            with mp.get_context("fork").Pool(self.n_jobs) as pool:
                jobs = [pool.apply_async(self._fn, args) for args in tasks]
                results = [j.get() for j in jobs]
        for _, sys_results in results:
            for metric, result in sys_results.items():
                scores[metric].append(result)
        return self._signatures, scores


__all__ = ["PairedTest", "Result", "estimate_ci"]
