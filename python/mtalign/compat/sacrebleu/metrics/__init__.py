"""sacrebleu 2.6.0's metrics (``BLEU``, ``CHRF``, ``TER`` and their score objects),
computed by mtalign.

>>> from mtalign.compat.sacrebleu.metrics import METRICS
>>> sorted(METRICS)
['BLEU', 'CHRF', 'TER']
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtalign.compat.sacrebleu.metrics.base import Metric
    from mtalign.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore
    from mtalign.compat.sacrebleu.metrics.chrf import CHRF, CHRFScore
    from mtalign.compat.sacrebleu.metrics.ter import TER, TERScore

    METRICS: dict[str, type[Metric]]

#: The metrics' names, as ``METRICS`` keys them (without importing them).
NAMES = ("BLEU", "CHRF", "TER")

# Each class is imported on first access (PEP 562): `mtalign sacrebleu -sl` imports BLEU's
# module alone.
_MODULES = {"BLEU": "bleu", "BLEUScore": "bleu", "CHRF": "chrf", "CHRFScore": "chrf",
            "TER": "ter", "TERScore": "ter"}


def __getattr__(name: str) -> Any:
    """The metric classes and ``METRICS``, imported on first access."""
    if name in _MODULES:
        value = getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    elif name == "METRICS":
        value = {metric: __getattr__(metric) for metric in NAMES}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value

__all__ = ["BLEU", "CHRF", "METRICS", "NAMES", "TER", "BLEUScore", "CHRFScore", "TERScore"]
