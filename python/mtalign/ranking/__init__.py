"""Metrics put to work on candidate lists: ORANGE (judging metrics) and oracle reranking.

Both take any metric through one :class:`~mtalign.ranking.scorer.Scorer`.

>>> from mtalign.ranking import rerank
>>> from mtalign import Rouge
>>> rerank(Rouge("rouge1"), [["a", "a b"]], ["a b"]).best.tolist()
[1]
"""

from mtalign.ranking.mbr import MbrResult, mbr
from mtalign.ranking.orange import (
    OrangeCurve,
    OrangeResult,
    orange,
    orange_from_scores,
    orange_many,
)
from mtalign.ranking.rerank import RerankResult, feature_scores, rerank, rerank_one

__all__ = ["MbrResult", "OrangeCurve", "OrangeResult", "RerankResult", "mbr", "orange",
           "feature_scores", "orange_from_scores", "orange_many", "rerank", "rerank_one"]
