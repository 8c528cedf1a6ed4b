"""sacrebleu 2.6.0's ``TER`` and ``TERScore``, computed by :class:`mtalign.Ter`.

>>> from mtalign.compat.sacrebleu.metrics import TER
>>> ter = TER()
>>> print(ter.corpus_score(["d a b c"], [["a b c d"]]))
TER = 25.00
>>> ter.get_signature().format()
'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0+mtalign-0.1.0'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign.compat.sacrebleu.metrics.base import Metric, Score, Signature
from mtalign.compat.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from mtalign.metrics.ter import Ter


class TERSignature(Signature):
    """TER's signature: ``case``, ``tok``, ``norm``, ``punct``, ``asian``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn",
                           "asian": "as"})
        self.info.update({"case": "mixed" if args["case_sensitive"] else "lc",
                          "tok": args["tokenizer_signature"], "norm": args["normalized"],
                          "punct": not args["no_punct"], "asian": args["asian_support"]})


class TERScore(Score):
    """A TER score with ``num_edits`` and ``ref_length`` (summed average reference length).

    >>> TERScore(25.0, 1.0, 4.0).num_edits
    1
    """

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric):
    """sacrebleu's ``TER`` (same arguments), computed by :class:`mtalign.Ter`.

    Args:
        normalized: tercom's punctuation tokenization.
        no_punct: remove punctuation.
        asian_support: CJK handling (with ``normalized`` or ``no_punct``).
        case_sensitive: keep case.
        references: reference streams to cache for many systems.

    >>> TER().sentence_score("a b", ["a c"]).num_edits
    1
    """

    _SIGNATURE_TYPE = TERSignature

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer = TercomTokenizer(normalized=normalized, no_punct=no_punct,
                                         asian_support=asian_support,
                                         case_sensitive=case_sensitive)
        self.tokenizer_signature = self.tokenizer.signature()
        self._metric = Ter(normalized=normalized, no_punct=no_punct,
                           asian_support=asian_support, case_sensitive=case_sensitive)
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _mtalign(self) -> Ter:
        return self._metric

    def _preprocess_segment(self, sent: str) -> str:
        return self.tokenizer(sent.rstrip())

    def _name(self) -> str:
        return "TER"

    def _score_of_rows(self, rows: np.ndarray) -> TERScore:
        edits, ref_length = (float(x) for x in rows.sum(0))
        score = float(self._metric.corpus_from_statistics(rows).score)
        return TERScore(score, edits, ref_length)

    def _compute_score_from_stats(self, stats: Any) -> TERScore:
        """TER of one summed row [edits, reference length], in sacrebleu's arithmetic."""
        edits, ref_length = stats[0], stats[1]
        if ref_length > 0:
            score = edits / ref_length
        elif edits > 0:
            score = 1.0  # empty reference(s), non-empty hypothesis
        else:
            score = 0.0
        return TERScore(100 * score, edits, ref_length)


__all__ = ["TER", "TERScore", "TERSignature"]
