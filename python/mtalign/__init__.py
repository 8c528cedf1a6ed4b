"""mtalign: fast, faithful MT evaluation with a Rust core.

>>> import mtalign
>>> r = mtalign.Rouge(["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"])
>>> r.sentence_score("The cat sat on the mat.", ["A cat sat on the mat."])["rougeL"].fmeasure
0.8333333333333334
"""

from mtalign import io, kernels, meta
from mtalign._baseline import CorpusResult
from mtalign._mtalign import __version__
from mtalign.bleu import Bleu, BleuResult
from mtalign.dcs import Dcs, DcsResult, DcsScore
from mtalign.error_rate import Per, Wer
from mtalign.errors import ConfigError, InputError, MtalignError, MtalignWarning
from mtalign.meta.paired import PairedResult, paired_test
from mtalign.nist import Nist
from mtalign.orange import OrangeCurve, OrangeResult, orange, orange_from_scores
from mtalign.rerank import RerankResult, rerank
from mtalign.ribes import Ribes
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
    "meta",
    "MtalignError",
    "MtalignWarning",
    "Nist",
    "paired_test",
    "PairedResult",
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
