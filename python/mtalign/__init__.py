"""mtalign: fast, faithful MT evaluation with a Rust core.

>>> import mtalign
>>> r = mtalign.Rouge(["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"])
>>> r.sentence_score("The cat sat on the mat.", ["A cat sat on the mat."])["rougeL"].fmeasure
0.8333333333333334
"""

from mtalign import io, kernels
from mtalign._mtalign import __version__
from mtalign.dcs import Dcs, DcsResult, DcsScore
from mtalign.errors import ConfigError, InputError, MtalignError, MtalignWarning
from mtalign.orange import OrangeCurve, OrangeResult, orange, orange_from_scores
from mtalign.rerank import RerankResult, rerank
from mtalign.rouge import Rouge, RougeResult, Score
from mtalign.sia import (
    Sia,
    SiaExplanation,
    SiaResult,
    SiaRound,
    TranslationTable,
    WordSimilarity,
)
from mtalign.tokenizers import default_threads, stem, tokenize

__all__ = [
    "ConfigError",
    "Dcs",
    "DcsResult",
    "DcsScore",
    "InputError",
    "MtalignError",
    "MtalignWarning",
    "Rouge",
    "RougeResult",
    "Score",
    "Sia",
    "SiaExplanation",
    "SiaResult",
    "SiaRound",
    "TranslationTable",
    "WordSimilarity",
    "__version__",
    "default_threads",
    "kernels",
    "stem",
    "tokenize",
    "OrangeCurve",
    "OrangeResult",
    "orange",
    "orange_from_scores",
    "RerankResult",
    "io",
    "rerank",
]
