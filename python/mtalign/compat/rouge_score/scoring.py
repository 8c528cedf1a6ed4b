"""``rouge_score.scoring``'s ``Score``: a named tuple (precision, recall, fmeasure).

>>> from mtalign.compat.rouge_score.scoring import Score
>>> Score(precision=0.5, recall=1.0, fmeasure=2 / 3)._fields
('precision', 'recall', 'fmeasure')
"""

from mtalign.metrics.rouge import Score

__all__ = ["Score"]
