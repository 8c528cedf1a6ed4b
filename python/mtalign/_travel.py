"""What lets a result travel: pickling, copying, ``==`` after the trip, and ``to_dict()``
that ``json.dumps`` accepts, for every result class of mtalign (metric results, ORANGE,
reranking, MBR, meta-evaluation).

* :func:`plain`: NumPy arrays and scalars, tuples and NamedTuples made plain Python for
  ``json.dumps``. NaN policy: an undefined number stays ``float('nan')``, which
  ``json.dumps`` writes as ``NaN`` (its default ``allow_nan=True``) and ``json.loads`` reads
  back; ``None`` (``null``) means "not computed", as a bootstrap interval without resamples
  (:func:`plain_interval`). The command line's ``-f json`` is strict JSON: every number that
  is not finite is ``null`` there.
* :func:`same`: equality as results compare: NaN equals NaN, arrays by shape, values and
  column names (:class:`~mtalign.Scores`).
* :class:`Travels`: pickling, copying and ``==`` for a class with ``__slots__`` whose lazy
  views are computed before it travels (so what travels is data, never a closure or a
  native object).
* :func:`dataclass_eq` / :func:`dataclass_hash`: ``==`` and ``hash`` of a frozen dataclass
  result, NaN-aware.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """``value`` with NumPy arrays and scalars, tuples and NamedTuples made plain Python
    (lists, dicts, ``float``, ``int``, ``bool``, ``str``, ``None``) for ``json.dumps``.
    NaN stays ``float('nan')`` (see the module doc).

    >>> plain({"a": np.arange(2), "b": (np.float32(0.5), np.int64(3)), 1: np.bool_(True)})
    {'a': [0, 1], 'b': [0.5, 3], '1': True}
    """
    if isinstance(value, np.ndarray):
        return plain(value.tolist()) if value.dtype == object else value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float) and type(value) is not float:
        return float(value)
    if isinstance(value, int) and type(value) not in (int, bool):
        return int(value)
    return value


def plain_interval(ci: tuple[float, float]) -> list[float] | None:
    """A confidence interval for ``json.dumps``: ``None`` where it was not computed (no
    bootstrap) or is undefined (a NaN bound).

    >>> plain_interval((np.float64(0.25), 0.5)), plain_interval((float("nan"), float("nan")))
    ([0.25, 0.5], None)
    """
    return None if any(math.isnan(x) for x in ci) else [float(x) for x in ci]


def same(a: Any, b: Any) -> bool:
    """Whether two values are equal as results compare them: NaN equals NaN, arrays are
    equal in shape and values, containers element by element.

    >>> same({"x": [float("nan"), np.array([1.0, np.nan])]},
    ...      {"x": [float("nan"), np.array([1.0, np.nan])]})
    True
    >>> same(np.zeros(2), np.zeros(3)), same(1.0, 1), same((1, 2), [1, 2])
    (False, True, False)
    """
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape \
                or getattr(a, "columns", None) != getattr(b, "columns", None):
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # no NaN in non-numeric arrays
            return bool(np.array_equal(a, b))
    if isinstance(a, (float, np.floating)) and isinstance(b, (float, np.floating)) \
            and a != a and b != b:
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(v, b[k])
                                                                 for k, v in a.items())
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return bool(a == b)


def slot_names(cls: type) -> tuple[str, ...]:
    """Every ``__slots__`` entry of ``cls`` and its bases, base first."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = vars(klass).get("__slots__", ())
        names.extend((slots,) if isinstance(slots, str) else slots)
    return tuple(n for n in names if n not in ("__dict__", "__weakref__"))


class Travels:
    """Pickling, copying and ``==`` for a class with ``__slots__``: the state is every slot
    that is set (after :meth:`_materialize`), compared with :func:`same`.

    >>> class Pair(Travels):
    ...     __slots__ = ("a", "b")
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    >>> import copy
    >>> p = Pair(np.array([1.0, np.nan]), float("nan"))
    >>> copy.deepcopy(p) == p, p == Pair(np.zeros(2), 0.0)
    (True, False)
    """

    __slots__ = ()

    def _materialize(self) -> None:
        """Computes every lazy view, so the slots hold only data (subclasses extend it)."""

    def _state(self) -> dict[str, Any]:
        self._materialize()
        return {name: getattr(self, name) for name in slot_names(type(self))
                if hasattr(self, name)}

    def __getstate__(self) -> dict[str, Any]:
        return self._state()

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return same(self._state(), other._state())  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


def dataclass_eq(self: Any, other: object) -> bool:
    """``==`` of two dataclass results: the same class and :func:`same` compared fields
    (those with ``compare=True``). Set as ``__eq__ = dataclass_eq`` in the class body."""
    compared = [f.name for f in dataclasses.fields(self) if f.compare]
    if type(other) is not type(self):
        return NotImplemented
    return all(same(getattr(self, name), getattr(other, name)) for name in compared)


def _hashable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)  # every NaN alike, as same() compares them
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def dataclass_hash(self: Any) -> int:
    """``hash`` consistent with :func:`dataclass_eq` (NaN fields hash alike).

    >>> from mtalign.meta import Correlation
    >>> a = Correlation(float("nan"), (float("nan"), float("nan")), 0)
    >>> b = Correlation(float("nan"), (float("nan"), float("nan")), 0)
    >>> a == b and hash(a) == hash(b)
    True
    """
    return hash(tuple(_hashable(getattr(self, f.name)) for f in dataclasses.fields(self)
                      if f.compare and f.hash in (None, True)))


def dataclass_dict(self: Any) -> dict[str, Any]:
    """A dataclass result's fields by name, plain (see :func:`plain`)."""
    return plain({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})  # type: ignore[no-any-return]


__all__ = ["Travels", "dataclass_dict", "dataclass_eq", "dataclass_hash", "plain",
           "plain_interval", "same", "slot_names"]
