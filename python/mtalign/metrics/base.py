"""The base of metric objects: immutable, equal when configured alike, pickled as config."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign.metrics.inputs import single_refs


def pick_scalar(metric: Any, variant: str | None) -> str:
    """The scalar ``variant`` names on ``metric`` (anything with ``scalar_names()``): the
    first name when ``None``, :class:`~mtalign.ConfigError` when it has no such scalar."""
    names = tuple(metric.scalar_names())
    if variant is None:
        return names[0]
    if variant not in names:
        raise ConfigError(f"unknown variant {variant!r} for {type(metric).__name__} "
                          f"(choose from: {', '.join(names)})")
    return variant


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

    def pairwise(self, hyps: Sequence[Any], pseudo_refs: Sequence[Any],
                 variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """The (n, m) matrix of ``hyps[i]`` scored against ``pseudo_refs[j]``.

        For minimum-Bayes-risk decoding: ``pseudo_refs`` is usually the n-best list itself
        (``pairwise(hyps, hyps)``). ``pseudo_refs[j]`` is one text (or one token list when
        ``hyps`` are token lists) or a list of texts used together as a reference set. The
        n·m pairs go to :meth:`scalar_scores` as one batch, so each distinct text is
        tokenized once and the work runs in parallel with the GIL released.

        >>> from mtalign import Rouge
        >>> Rouge("rouge1").pairwise(["a b", "a"], ["a b", "b", "c"]).tolist()
        [[1.0, 0.6666666666666666, 0.0], [0.6666666666666666, 0.0, 0.0]]
        """
        return pairwise_scores(self.scalar_scores, hyps, pseudo_refs, variant, threads)

    def _pick_scalar(self, variant: str | None) -> str:
        return pick_scalar(self, variant)

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


class SingleScoreMetric(ConfiguredMetric):
    """A metric with one number per sentence (BLEU, NIST, WER, PER, RIBES, SIA): it ranks by
    :meth:`batch_score`, and :meth:`sentence_score` is that number for one hypothesis."""

    __slots__ = ()

    @abstractmethod
    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """The sentence score of each hypothesis, shape (n,)."""

    def scalar_scores(self, hyps: Sequence[Any], refs: Sequence[Any],
                      variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """The sentence score per hypothesis, shape (n,) (as :meth:`batch_score`)."""
        self._pick_scalar(variant)
        return self.batch_score(hyps, refs, threads)

    def sentence_score(self, hyp: Any, refs: Any) -> float:
        """The score of one hypothesis against one reference (str) or several (list of str)."""
        return float(self.batch_score([hyp], [single_refs(hyp, refs)])[0])


def _rebuild(cls: type[ConfiguredMetric], config: dict[str, Any]) -> ConfiguredMetric:
    return cls(**config)


def pairwise_scores(scalar_scores: Any, hyps: Sequence[Any], pseudo_refs: Sequence[Any],
                    variant: str | None = None, threads: int | None = None) -> np.ndarray:
    """:meth:`ConfiguredMetric.pairwise` for any object with a ``scalar_scores`` method."""
    hyps = list(hyps)
    refs = list(pseudo_refs)
    n, m = len(hyps), len(refs)
    if n == 0 or m == 0:
        return np.zeros((n, m), dtype=np.float64)
    if isinstance(hyps[0], (list, tuple)):
        # Token lists: a pseudo-reference is one token list, i.e. a reference set of one.
        refs = [[r] for r in refs]
    flat_hyps = [h for h in hyps for _ in range(m)]
    flat_refs = refs * n
    scores = np.asarray(scalar_scores(flat_hyps, flat_refs, variant=variant, threads=threads),
                        dtype=np.float64)
    return scores.reshape(n, m)
