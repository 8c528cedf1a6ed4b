"""mtalign: fast, faithful MT evaluation with a Rust core.

>>> import mtalign
>>> r = mtalign.Rouge(["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"])
>>> r.sentence_score("The cat sat on the mat.", ["A cat sat on the mat."])["rougeL"].fmeasure
0.8333333333333334
"""

from mtalign import io, kernels
from mtalign._mtalign import __version__
from mtalign.errors import ConfigError, InputError, MtalignError, MtalignWarning
from mtalign.metrics.bleu import Bleu, BleuResult
from mtalign.metrics.dcs import Dcs, DcsResult, DcsScore
from mtalign.metrics.error_rate import Per, Wer
from mtalign.metrics.nist import Nist
from mtalign.metrics.results import CorpusResult
from mtalign.metrics.ribes import Ribes
from mtalign.metrics.rouge import Rouge, RougeResult, Score
from mtalign.metrics.sia import (
    Sia,
    SiaExplanation,
    SiaResult,
    SiaRound,
    TranslationTable,
    WordSimilarity,
)
from mtalign.ranking.orange import OrangeCurve, OrangeResult, orange, orange_from_scores
from mtalign.ranking.rerank import RerankResult, rerank
from mtalign.tokenizers import default_threads, stem, tokenize

__all__ = [
    "Bleu",
    "BleuResult",
    "ConfigError",
    "CorpusResult",
    "Dcs",
    "DcsResult",
    "DcsScore",
    "default_threads",
    "InputError",
    "io",
    "kernels",
    "MtalignError",
    "MtalignWarning",
    "Nist",
    "orange",
    "orange_from_scores",
    "OrangeCurve",
    "OrangeResult",
    "Per",
    "rerank",
    "RerankResult",
    "Ribes",
    "Rouge",
    "RougeResult",
    "Score",
    "Sia",
    "SiaExplanation",
    "SiaResult",
    "SiaRound",
    "stem",
    "tokenize",
    "TranslationTable",
    "Wer",
    "WordSimilarity",
    "__version__",
]
