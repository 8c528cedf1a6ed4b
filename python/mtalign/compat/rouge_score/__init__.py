"""rouge-score 0.1.2's API on mtalign's native scorer (``compat="rouge_score"``).

Replace ``from rouge_score import rouge_scorer`` by
``from mtalign.compat.rouge_score import rouge_scorer``; the numbers are the same. The other
modules a drop-in needs are here too: ``scoring`` (``Score``, ``BootstrapAggregator``, equal
to rouge-score's under the same NumPy seed), ``tokenize``, ``tokenizers``
(``DefaultTokenizer``) and ``io``. rouge-score's own test suite runs through this package
(``tests/rouge_score_suite``).

>>> from mtalign.compat.rouge_score import rouge_scorer
>>> scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
>>> scorer.score("The quick brown fox jumps", "the quick foxes jumped")["rouge1"]
Score(precision=1.0, recall=0.8, fmeasure=0.888888888888889)
"""

from mtalign.compat.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["io", "rouge_scorer", "scoring", "tokenize", "tokenizers"]
