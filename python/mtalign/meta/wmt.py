"""The WMT23/WMT24 metrics-task average: every task's score mapped to [0, 1] (correlations
from [-1, 1], accuracies from [0, 1]), then a weighted average over tasks (mt-metrics-eval's
``TaskSetResults.AverageCorrs`` and the ``WMT23`` / ``WMT24`` task sets).

>>> from mtalign import meta
>>> tasks = [("pairwise_accuracy", {"A": 0.9, "B": 0.8}), ("pearson", {"A": 0.2, "B": 0.6})]
>>> meta.wmt_average(tasks)
{'B': 0.8, 'A': 0.75}
>>> meta.wmt_weights("wmt23", n_lps=3)[:2]
[0.25, 0.08333333333333333]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mtalign._mtalign import ConfigError, InputError

#: Methods scored in [0, 1]; every other method is a correlation in [-1, 1].
ACCURACIES = ("acc_eq", "pairwise_accuracy", "accuracy", "spa", "pce")


def wmt_weights(task_set: str, n_lps: int) -> list[float]:
    """Task weights, summing to 1, in mt-metrics-eval's task order.

    ``"wmt23"``: the pooled pairwise-accuracy task first (weight n_lps), then per language
    pair system Pearson, segment Pearson and segment acc_eq (weight 1 each).
    ``"wmt24"``: per language pair SPA and segment acc_eq, all weighted alike.
    """
    if isinstance(n_lps, bool) or not isinstance(n_lps, int) or n_lps < 1:
        raise ConfigError(f"n_lps must be an int >= 1 (got {n_lps!r})")
    if task_set == "wmt23":
        w = [float(n_lps)] + [1.0] * (3 * n_lps)
    elif task_set == "wmt24":
        w = [1.0] * (2 * n_lps)
    else:
        raise ConfigError(f"unknown task set {task_set!r} (choose from: wmt23, wmt24)")
    total = sum(w)
    return [x / total for x in w]


def wmt_average(tasks: Sequence[tuple[str, Mapping[str, float]]],
                weights: Sequence[float] | None = None) -> dict[str, float]:
    """The weighted average of [0, 1]-normalised task scores, best first.

    Args:
        tasks: ``(method, {metric: value})`` per task; ``method`` decides the range.
        weights: one per task (default: uniform); they are used as given.

    Only metrics present in every task are averaged.
    """
    if not tasks:
        raise InputError("wmt_average needs at least one task")
    if weights is None:
        weights = [1.0 / len(tasks)] * len(tasks)
    if len(weights) != len(tasks):
        raise InputError(f"{len(tasks)} tasks but {len(weights)} weights")
    sums: dict[str, float] = {}
    seen: dict[str, int] = {}
    for (method, values), w in zip(tasks, weights, strict=False):
        lo = 0.0 if method in ACCURACIES else -1.0
        for name, v in values.items():
            sums[name] = sums.get(name, 0.0) + w * (float(v) - lo) / (1.0 - lo)
            seen[name] = seen.get(name, 0) + 1
    out = {m: s for m, s in sums.items() if seen[m] == len(tasks)}
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))
