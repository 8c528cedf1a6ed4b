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

from mtalign._mtalign import __version__

if TYPE_CHECKING:  # what the lazy attributes below resolve to, for type checkers
    from mtalign import cli as cli
    from mtalign import compat as compat
    from mtalign import dask as dask
    from mtalign import demo as demo
    from mtalign import io, kernels, meta, metrics
    from mtalign import registry as registry
    from mtalign import reporting as reporting
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
    from mtalign.reporting import report as report
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

# Every public name is imported on first access (PEP 562), so that `import mtalign` costs
# next to nothing: `mtalign sacrebleu -sl` starts without NumPy, and `mtalign.dask` does not
# import Dask until it is used. Name -> the module that defines it (None: the name is a
# submodule of its own); the metrics and results are the names in mtalign.metrics.__all__.
_HOMES: dict[str, str | None] = {
    "io": None, "kernels": None, "meta": None, "metrics": None,
    # imported only on first use even before: they pull in more (Dask, HTML, the CLI)
    "cli": None, "compat": None, "dask": None, "demo": None, "registry": None,
    "reporting": None,
    "refs_from_streams": "checks",
    "ConfigError": "errors", "InputError": "errors", "MtalignError": "errors",
    "MtalignWarning": "errors",
    "PairedResult": "meta.paired", "paired_test": "meta.paired",
    "MbrResult": "ranking.mbr", "mbr": "ranking.mbr",
    "OrangeCurve": "ranking.orange", "OrangeResult": "ranking.orange",
    "orange": "ranking.orange", "orange_from_scores": "ranking.orange",
    "orange_many": "ranking.orange",
    "RerankResult": "ranking.rerank", "rerank": "ranking.rerank",
    "report": "reporting",
    "TokenIds": "token_ids",
    "default_threads": "tokenizers", "stem": "tokenizers", "tokenize": "tokenizers",
}
_NOT_IN_ALL = {"cli", "compat", "dask", "demo", "registry", "reporting"}


def __getattr__(name: str) -> Any:
    """Each public name, imported on first access (``mtalign.demo``, ``mtalign.Bleu``,
    ``mtalign.report`` ...)."""
    if name in _HOMES:
        home = _HOMES[name]
        value = importlib.import_module(f"{__name__}.{name if home is None else home}")
        if home is not None:
            value = getattr(value, name)
    elif name == "__all__":
        value = [n for n in _HOMES if n not in _NOT_IN_ALL] + ["__version__"] + \
            importlib.import_module(f"{__name__}.metrics").__all__
    else:
        metrics = importlib.import_module(f"{__name__}.metrics")
        if name not in metrics.__all__:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(metrics, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # Without Dask installed, mtalign.dask cannot be imported: listing it would make
    # inspect.getmembers(mtalign) and similar tools fail.
    names = set(_HOMES) if importlib.util.find_spec("dask") else set(_HOMES) - {"dask"}
    return sorted(set(globals()) | names | set(__getattr__("__all__")))
