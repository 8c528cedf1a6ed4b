"""The metrics: one module per metric, each a class on one base (:mod:`mtalign.metrics.base`).

>>> from mtalign.metrics import Rouge
>>> Rouge("rougeL").sentence_score("a b c", "a c")["rougeL"].fmeasure
0.8
"""

from mtalign.metrics.base import Metric
from mtalign.metrics.bleu import Bleu, BleuResult
from mtalign.metrics.dcs import Dcs, DcsResult, DcsScore
from mtalign.metrics.error_rate import Per, Wer
from mtalign.metrics.nist import Nist
from mtalign.metrics.results import CorpusResult, Result
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

__all__ = ["Bleu", "BleuResult", "Metric", "Result", "CorpusResult", "Dcs", "DcsResult",
           "DcsScore", "Nist", "Per", "Ribes", "Rouge", "RougeResult", "Score", "Sia",
           "SiaExplanation", "SiaResult", "SiaRound", "TranslationTable", "Wer",
           "WordSimilarity"]
