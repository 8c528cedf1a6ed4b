"""Drop-in replacements for other packages' APIs, computed by mtalign.

``mtalign.compat.rouge_score`` mirrors rouge-score 0.1.2 (``from mtalign.compat.rouge_score
import rouge_scorer``).
"""
