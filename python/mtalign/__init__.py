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
"""

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
    "stem",
    "tokenize",
    "__version__",
]
__all__ += metrics.__all__
