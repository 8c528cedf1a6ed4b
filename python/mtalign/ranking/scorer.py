"""Any metric — an mtalign metric object or a Python callable — as one batch scoring function.

>>> from mtalign import Rouge
>>> Scorer(Rouge("rouge1"), None, None, None)(["a b", "c"], ["a b", "d"]).tolist()
[1.0, 0.0]
>>> Scorer(lambda h, r: len(h), None, None, None)(["a b", "c"], ["x", "y"]).tolist()
[3.0, 1.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign.metrics.base import pick_scalar
from mtalign.metrics.options import check_threads

ProgressFn = Callable[[int, int], None]


class Scorer:
    """Any metric as one function (hyps, refs) -> float64 array, plus its description."""

    def __init__(self, metric: Any, variant: str | None, higher_is_better: bool | None,
                 threads: int | None) -> None:
        self.threads = check_threads(threads)
        if hasattr(metric, "scalar_scores") and hasattr(metric, "scalar_names"):
            self.variant: str | None = pick_scalar(metric, variant)
            self.metric = metric
            self.native = True
            default_hib = bool(getattr(metric, "higher_is_better", True))
            # It ranks by sentence scores: the signature of the metric at sentence level
            # (Bleu(): sentence_bleu's effective order).
            at_sentence = getattr(metric, "at_sentence_level", None)
            sig = getattr(at_sentence() if callable(at_sentence) else metric, "signature", None)
            metric_sig = sig() if callable(sig) else ""
            self.name = f"{type(metric).__name__}:{self.variant}"
        elif callable(metric):
            if variant is not None:
                raise ConfigError("variant= applies to metric objects; a Python callable "
                                  "returns one score already")
            self.variant = None
            self.metric = metric
            self.native = False
            default_hib = bool(getattr(metric, "higher_is_better", True))
            metric_sig = ""
            self.name = getattr(metric, "__name__", type(metric).__name__)
        else:
            raise ConfigError("metric must be an mtalign metric (with scalar_scores) or a "
                              f"callable (hyp, refs) -> float (got {type(metric).__name__})")
        if higher_is_better is not None and not isinstance(higher_is_better, bool):
            raise ConfigError(f"higher_is_better must be True, False or None "
                              f"(got {higher_is_better!r})")
        self.higher_is_better = default_hib if higher_is_better is None else higher_is_better
        self.metric_signature = metric_sig

    def __call__(self, hyps: list[Any], refs: list[Any],
                 progress: ProgressFn | None = None, chunk: int = 20000) -> np.ndarray:
        n = len(hyps)
        if n == 0:
            return np.zeros(0, dtype=np.float64)
        if not self.native:
            chunk = max(1, chunk // 100)
        if progress is None:
            chunk = n
        parts = []
        for start in range(0, n, chunk):
            h, r = hyps[start:start + chunk], refs[start:start + chunk]
            parts.append(self._score(h, r))
            if progress is not None:
                progress(min(start + chunk, n), n)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def rows(self, hyps: list[Any], refs: list[Any],
             progress: ProgressFn | None = None, chunk: int = 20000) -> np.ndarray:
        """The native statistics rows of each pair (native metrics only), shape (n, *row)."""
        n = len(hyps)
        step = n if progress is None else chunk
        parts = []
        for start in range(0, max(n, 1), max(step, 1)):
            h, r = hyps[start:start + step], refs[start:start + step]
            parts.append(np.asarray(self.metric._run(h, r, self.threads)[0], dtype=np.float64))
            if progress is not None:
                progress(min(start + step, n), n)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def _score(self, hyps: list[Any], refs: list[Any]) -> np.ndarray:
        if self.native:
            out = self.metric.scalar_scores(hyps, refs, variant=self.variant,
                                            threads=self.threads)
            arr = np.asarray(out, dtype=np.float64)
            if arr.shape != (len(hyps),):
                raise InputError(f"{self.name}.scalar_scores returned shape {arr.shape} for "
                                 f"{len(hyps)} hypotheses")
            return arr
        vals = np.empty(len(hyps), dtype=np.float64)
        for k, (h, r) in enumerate(zip(hyps, refs, strict=True)):
            vals[k] = float(self.metric(h, r))
        return vals
