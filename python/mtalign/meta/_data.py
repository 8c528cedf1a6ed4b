"""Input checks and the group layout shared by the meta-evaluation functions.

>>> m, names = as_matrix({"A": [1, None], "B": [3, 4]}, "human")
>>> m.tolist(), names
([[1.0, nan], [3.0, 4.0]], ['A', 'B'])
>>> layout(m, m, "item").mask.tolist()      # one group per segment, over systems
[[True, True], [False, True]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign.meta._kernels import METHODS

LEVELS = ("segment", "system")
GROUPINGS = ("none", "item", "system")


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ConfigError(f"unknown {name} {value!r} (choose from: {', '.join(choices)})")
    return str(value)


def check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ConfigError(f"{name} must be an int >= {minimum} (got {value!r})")
    return int(value)


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    return check_int("seed", seed, 0)


def check_epsilon(epsilon: Any, method: str, allow_calibrate: bool = True
                  ) -> float | str | None:
    if epsilon is None:
        return None
    if isinstance(epsilon, str):
        if epsilon != "calibrate" or not allow_calibrate:
            raise ConfigError(f"epsilon must be None, a number >= 0 or 'calibrate' "
                              f"(got {epsilon!r})")
        if method not in ("tau_eq", "acc_eq"):
            raise ConfigError(f"epsilon='calibrate' needs method 'tau_eq' or 'acc_eq' "
                              f"(got {method!r})")
        return epsilon
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.floating)) \
            or not float(epsilon) >= 0:
        raise ConfigError(f"epsilon must be None, a number >= 0 or 'calibrate' "
                          f"(got {epsilon!r})")
    if float(epsilon) > 0 and method not in ("kendall_b", "tau_eq", "acc_eq"):
        raise ConfigError(f"epsilon > 0 applies to kendall_b, tau_eq and acc_eq only "
                          f"(got method {method!r})")
    return float(epsilon)


def as_matrix(value: Any, name: str, systems: Sequence[str] | None = None
              ) -> tuple[np.ndarray, list[str] | None]:
    """A float array (NaN for None) from an array, nested lists, or ``{system: scores}``."""
    names: list[str] | None = None
    if isinstance(value, Mapping):
        names = list(systems) if systems is not None else list(value.keys())
        missing = [s for s in names if s not in value]
        if missing:
            raise InputError(f"{name} has no scores for system {missing[0]!r}")
        value = [value[s] for s in names]
    try:
        if isinstance(value, np.ndarray) and value.dtype != object:
            arr = value.astype(np.float64)
        else:
            arr = np.array(_none_to_nan(value), dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise InputError(f"{name} must be numbers (None or NaN for missing): {e}") from None
    if arr.ndim not in (1, 2):
        raise InputError(f"{name} must be 1-D (systems) or 2-D (systems x segments), "
                         f"got shape {arr.shape}")
    return arr, names


def _none_to_nan(value: Any) -> Any:
    if value is None:
        return np.nan
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (list, tuple)):
        return [_none_to_nan(v) for v in value]
    return value


def check_pair(metric: np.ndarray, human: np.ndarray, mname: str = "metric") -> None:
    if metric.shape != human.shape:
        raise InputError(f"{mname} has shape {metric.shape} but human has shape {human.shape}")
    bad = np.isnan(metric) & ~np.isnan(human) | np.isinf(metric)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InputError(f"{mname} has a NaN or infinite score at {where} where human has a "
                         f"score")
    if np.isinf(human).any():
        raise InputError("human has an infinite score")


@dataclass
class Groups:
    """Entries arranged as padded groups: ``metric``, ``human``, ``mask`` (G, L) and, per
    entry, its segment (column) index ``seg`` (G, L) for bootstrap resampling."""

    metric: np.ndarray
    human: np.ndarray
    mask: np.ndarray
    seg: np.ndarray


def system_vectors(metric: np.ndarray, human: np.ndarray, names: list[str] | None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """System scores: 1-D input as is; 2-D rows averaged over the segments human scored."""
    if metric.ndim == 1:
        return metric, human
    mask = ~np.isnan(human)
    counts = mask.sum(1)
    empty = np.flatnonzero(counts == 0)
    if empty.size:
        who = names[empty[0]] if names else f"row {empty[0]}"
        raise InputError(f"system {who} has no human scores")
    m = np.where(mask, metric, 0.0).sum(1) / counts
    h = np.where(mask, human, 0.0).sum(1) / counts
    return m, h


def layout(metric: np.ndarray, human: np.ndarray, group_by: str) -> Groups:
    """Group a (systems, segments) pair of matrices: one group (``none``), a group per
    segment (``item``, over systems) or per system (``system``, over segments)."""
    if metric.ndim == 1:
        metric = metric[:, None]
        human = human[:, None]
        if group_by != "none":
            raise ConfigError("group_by needs (systems, segments) matrices")
    s, t = metric.shape
    seg = np.broadcast_to(np.arange(t), (s, t))
    mask = ~np.isnan(human)
    if group_by == "none":
        return Groups(metric.reshape(1, -1), human.reshape(1, -1), mask.reshape(1, -1),
                      seg.reshape(1, -1))
    if group_by == "item":
        return Groups(metric.T.copy(), human.T.copy(), mask.T.copy(), seg.T.copy())
    return Groups(metric.copy(), human.copy(), mask.copy(), np.array(seg))


def check_method(method: Any) -> str:
    return check_choice("method", method, METHODS)
