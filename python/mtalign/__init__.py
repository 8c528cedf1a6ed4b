"""mtalign: fast, faithful MT evaluation with a Rust core.

Every metric is a :class:`Metric` with the same methods (``sentence_score``,
``corpus_score``, ``batch_score``, ``statistics``, ``corpus_from_statistics``,
``scalar_scores``, ``pairwise``) and its results are one family (:class:`Result`).

>>> import mtalign
>>> r = mtalign.Rouge(["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"])
>>> r.sentence_score("The cat sat on the mat.", ["A cat sat on the mat."])["rougeL"].fmeasure
0.8333333333333334
>>> float(mtalign.Wer().sentence_score("a b c", "a b d"))
0.3333333333333333
>>> mtalign.Bleu().batch_score(["The cat sat"], ["The cat sat down"]).round(2).tolist()
[71.65]

The submodules that pull in more (``demo``, ``dask``, ``compat``, ``registry``, ``cli``) are
imported on first use, so ``mtalign.demo.load_sample()`` works after ``import mtalign`` alone
and ``import mtalign`` does not import Dask:

>>> len(mtalign.demo.load_sample()[0])
4

``mtalign.report(systems, refs, ...)`` (:func:`mtalign.reporting.report`) writes one HTML page
comparing systems; it too is imported on first use.
"""

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from mtalign import io, kernels, meta, metrics
from mtalign._mtalign import __version__
from mtalign.checks import refs_from_streams
from mtalign.errors import ConfigError, InputError, MtalignError, MtalignWarning
from mtalign.meta.paired import PairedResult, paired_test
from mtalign.metrics import *  # noqa: F403 (every metric and result; see metrics.__all__)
from mtalign.ranking.mbr import MbrResult, mbr
from mtalign.ranking.orange import (
    OrangeCurve,
    OrangeResult,
    orange,
    orange_from_scores,
    orange_many,
)
from mtalign.ranking.rerank import RerankResult, rerank
from mtalign.token_ids import TokenIds
from mtalign.tokenizers import default_threads, stem, tokenize

__all__ = [
    "ConfigError",
    "default_threads",
    "InputError",
    "io",
    "kernels",
    "mbr",
    "MbrResult",
    "meta",
    "refs_from_streams",
    "MtalignError",
    "MtalignWarning",
    "paired_test",
    "PairedResult",
    "orange",
    "orange_from_scores",
    "orange_many",
    "OrangeCurve",
    "OrangeResult",
    "rerank",
    "RerankResult",
    "report",
    "stem",
    "tokenize",
    "TokenIds",
    "__version__",
]
__all__ += metrics.__all__

if TYPE_CHECKING:  # what the lazy attributes below resolve to, for type checkers
    from mtalign import cli as cli
    from mtalign import compat as compat
    from mtalign import dask as dask
    from mtalign import demo as demo
    from mtalign import registry as registry
    from mtalign import reporting as reporting
    from mtalign.reporting import report as report

# Submodules reachable as ``mtalign.<name>`` without an import of their own, imported on
# first access (PEP 562): ``dask`` imports Dask, and the others are not needed to score.
_LAZY_SUBMODULES = frozenset({"cli", "compat", "dask", "demo", "registry", "reporting"})


def __getattr__(name: str) -> Any:
    """``mtalign.demo`` and the other lazy submodules, imported on first access, and
    ``mtalign.report`` (the function of :mod:`mtalign.reporting`)."""
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "report":
        return importlib.import_module(f"{__name__}.reporting").report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    # Without Dask installed, mtalign.dask cannot be imported: listing it would make
    # inspect.getmembers(mtalign) and similar tools fail.
    lazy = _LAZY_SUBMODULES if importlib.util.find_spec("dask") else _LAZY_SUBMODULES - {"dask"}
    return sorted(set(globals()) | lazy | {"report"})
