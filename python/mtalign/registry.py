"""Metric names (as on the command line) → metric objects: one table for every command.

A new metric family is one more :class:`Family` row in :data:`FAMILIES`; ``mtalign score``,
``mtalign orange`` and ``mtalign rerank`` then all accept its names.

>>> metric, variant = make_metric("rougeS4")
>>> type(metric).__name__, variant
('Rouge', 'rougeS4')
>>> family_of("cs0").name
'dcs'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mtalign._mtalign import ConfigError
from mtalign.dcs import DCS_FIELDS, Dcs
from mtalign.rouge import Rouge


@dataclass(frozen=True)
class MetricOptions:
    """The command-line options metrics are built from (one field per shared option)."""

    tokenize: str | None = None  # None: each metric's own default (ROUGE: the compat profile's)
    lowercase: bool = True
    beta: float = 1.0
    multi_ref: str | None = None  # None: the ROUGE compat profile's
    jackknife: bool = False
    compat: str = "paper"
    stem: bool = False
    level: str = "char"
    ignore_spaces: bool = False

    @classmethod
    def from_args(cls, args: Any) -> MetricOptions:
        """Reads the fields from an argparse namespace (missing ones keep their default)."""
        base = cls()
        lowercase = not getattr(args, "no_lowercase", not base.lowercase)
        return cls(tokenize=getattr(args, "tokenize", base.tokenize), lowercase=lowercase,
                   beta=getattr(args, "beta", base.beta),
                   multi_ref=getattr(args, "multi_ref", base.multi_ref),
                   jackknife=getattr(args, "jackknife", base.jackknife),
                   compat=getattr(args, "compat", base.compat),
                   stem=getattr(args, "stem", base.stem),
                   level=getattr(args, "level", base.level),
                   ignore_spaces=getattr(args, "ignore_spaces", base.ignore_spaces))


@dataclass(frozen=True)
class Family:
    """A metric family: which names it owns and how to build one object scoring them.

    ``build(names, options)`` returns one metric object that scores all ``names``;
    ``variant(name)`` is the scalar name to rank by (``scalar_scores(variant=...)``).
    """

    name: str
    matches: Callable[[str], bool]
    build: Callable[[Sequence[str], MetricOptions], Any]
    names_help: str
    variant: Callable[[str], str] = lambda name: name  # noqa: E731 (the name itself)


def _rouge(names: Sequence[str], o: MetricOptions) -> Rouge:
    return Rouge(list(names), tokenize=o.tokenize, lowercase=o.lowercase, beta=o.beta,
                 multi_ref=o.multi_ref, jackknife=o.jackknife, compat=o.compat, stem=o.stem)


def _dcs(names: Sequence[str], o: MetricOptions) -> Dcs:
    # DCS compares case as given (the authors' definition) and keeps the best reference.
    return Dcs(o.level, tokenize=o.tokenize or "unicode", ignore_spaces=o.ignore_spaces,
               multi_ref="max")


FAMILIES: tuple[Family, ...] = (
    Family("rouge", lambda n: n.startswith("rouge"), _rouge,
           "rouge1..rouge9, rougeL, rougeW-<w>, rougeS<d>, rougeS*, rougeSU<d>, rougeSU*"),
    Family("dcs", lambda n: n in DCS_FIELDS, _dcs, "dcs, cs0, cs1, cs2"),
    # New families (BLEU/NIST/WER/PER/RIBES, SIA): one Family(...) line each here.
)


def family_of(name: str) -> Family:
    """The family owning a metric name; :class:`~mtalign.ConfigError` if none does."""
    for fam in FAMILIES:
        if fam.matches(name):
            return fam
    known = "; ".join(f"{f.name}: {f.names_help}" for f in FAMILIES)
    raise ConfigError(f"unknown metric {name!r} (known: {known})")


def make_metric(name: str, options: MetricOptions | None = None) -> tuple[Any, str]:
    """One metric object for one name, and the variant to rank by."""
    fam = family_of(name)
    return fam.build([name], options or MetricOptions()), fam.variant(name)


def group_metrics(names: Sequence[str],
                  options: MetricOptions | None = None) -> list[tuple[Family, Any, list[str]]]:
    """Names grouped by family, one object per family scoring all of its names, in order.

    >>> [(f.name, ns) for f, _, ns in group_metrics(["rougeL", "dcs", "rouge1"])]
    [('rouge', ['rougeL', 'rouge1']), ('dcs', ['dcs'])]
    """
    groups: dict[str, tuple[Family, list[str]]] = {}
    for n in names:
        fam = family_of(n)
        groups.setdefault(fam.name, (fam, []))[1].append(n)
    opts = options or MetricOptions()
    return [(fam, fam.build(ns, opts), ns) for fam, ns in groups.values()]
