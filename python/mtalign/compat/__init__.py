"""Drop-in replacements for other packages' APIs, computed by mtalign.

``mtalign.compat.rouge_score`` mirrors rouge-score 0.1.2 (``from mtalign.compat.rouge_score
import rouge_scorer``); ``mtalign.compat.sacrebleu`` mirrors sacrebleu 2.6.0's API and command
line (``import mtalign.compat.sacrebleu as sacrebleu``; ``mtalign sacrebleu ARGS``, see
docs/sacrebleu.md).

>>> from mtalign.compat.rouge_score import rouge_scorer
>>> rouge_scorer.RougeScorer(["rouge1"]).score("a b", "a b")["rouge1"].fmeasure
1.0
"""
