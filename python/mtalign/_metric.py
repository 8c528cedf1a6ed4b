"""The base of metric objects: immutable, equal when configured alike, pickled as config."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError


class ConfiguredMetric(ABC):
    """A metric object holds only its configuration (and the native object built from it).

    Subclasses set their slots once in ``__init__`` through :meth:`_init_slots` and return,
    from :meth:`config`, the keyword arguments that rebuild them.
    """

    __slots__ = ()

    #: Whether a higher score means a better translation (False for error rates such as
    #: WER). ORANGE and reranking read it to rank in the right direction.
    higher_is_better: bool = True

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""

    @abstractmethod
    def scalar_names(self) -> tuple[str, ...]:
        """The names of the single numbers this scorer can rank by; the first is the default."""

    @abstractmethod
    def scalar_scores(self, hyps: Sequence[Any], refs: Sequence[Any],
                      variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """One float per hypothesis (shape (n,)): the score named ``variant``.

        This is the common interface of every metric for ranking (ORANGE, reranking,
        pairwise matrices); ``variant=None`` means ``scalar_names()[0]``.
        """

    def _pick_scalar(self, variant: str | None) -> str:
        names = self.scalar_names()
        if variant is None:
            return names[0]
        if variant not in names:
            raise ConfigError(f"unknown variant {variant!r} for {type(self).__name__} "
                              f"(choose from: {', '.join(names)})")
        return variant

    def _init_slots(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable; create a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.config()))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.config() == other.config()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(repr(self))


def _rebuild(cls: type[ConfiguredMetric], config: dict[str, Any]) -> ConfiguredMetric:
    return cls(**config)
