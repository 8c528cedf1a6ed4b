"""The metrics: one module per metric, each a class on one base (:mod:`mtalign.metrics.base`).

Everything listed in ``__all__`` here is also ``mtalign.<name>``. Adding a metric on the
Python side: a module here holding one class on :class:`~mtalign.metrics.base.Metric` — its
docstring, its options declared with :func:`~mtalign.metrics.options.option`, ``_build``
(the native object) and the statistics hooks ``_sentence_values`` / ``_result`` (see
``ribes.py``, the smallest) — one import line below, and one :class:`~mtalign.registry.Family`
row in ``registry.py`` for the command line. The docs, registry and contract tests pick it up
from there.

>>> from mtalign.metrics import Rouge
>>> Rouge("rougeL").sentence_score("a b c", "a c")["rougeL"].fmeasure
0.8
"""

from mtalign.metrics.base import Metric
from mtalign.metrics.bleu import Bleu, BleuResult
from mtalign.metrics.chrf import Chrf
from mtalign.metrics.dcs import Dcs, DcsResult, DcsScore
from mtalign.metrics.error_rate import Cer, Per, Wer
from mtalign.metrics.gtm import Gtm
from mtalign.metrics.meteor import Meteor
from mtalign.metrics.nist import Nist
from mtalign.metrics.results import Confidence, CorpusResult, Result, Scores
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
from mtalign.metrics.ter import Ter, TerExplanation, TerShift

__all__ = ["Bleu", "BleuResult", "Cer", "Chrf", "Confidence", "CorpusResult", "Dcs", "DcsResult",
           "DcsScore", "Gtm", "Meteor", "Metric", "Nist", "Per", "Result", "Ribes", "Rouge",
           "RougeResult", "Score", "Scores", "Sia", "SiaExplanation", "SiaResult", "SiaRound",
           "Ter", "TerExplanation", "TerShift", "TranslationTable", "Wer", "WordSimilarity"]
