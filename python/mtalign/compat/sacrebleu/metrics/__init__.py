"""sacrebleu 2.6.0's metrics (``BLEU``, ``CHRF``, ``TER`` and their score objects),
computed by mtalign.

>>> sorted(METRICS)
['BLEU', 'CHRF', 'TER']
"""

from mtalign.compat.sacrebleu.metrics.base import Metric
from mtalign.compat.sacrebleu.metrics.bleu import BLEU, BLEUScore
from mtalign.compat.sacrebleu.metrics.chrf import CHRF, CHRFScore
from mtalign.compat.sacrebleu.metrics.ter import TER, TERScore

METRICS: dict[str, type[Metric]] = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "TERScore"]
