"""The base of metric objects: immutable, equal when configured alike, pickled as config."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class ConfiguredMetric(ABC):
    """A metric object holds only its configuration (and the native object built from it).

    Subclasses set their slots once in ``__init__`` through :meth:`_init_slots` and return,
    from :meth:`config`, the keyword arguments that rebuild them.
    """

    __slots__ = ()

    @abstractmethod
    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""

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
