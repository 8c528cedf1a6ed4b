"""sacrebleu 2.6.0's ``CHRF`` and ``CHRFScore``, computed by :class:`mtalign.Chrf`.

>>> from mtalign.compat.sacrebleu.metrics import CHRF
>>> chrf = CHRF(word_order=2)
>>> print(chrf.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]]))
chrF2++ = 69.44
>>> chrf.get_signature().format()
'nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0+mtalign-0.1.0'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtalign.compat.sacrebleu.metrics.base import Metric, Score, Signature

if TYPE_CHECKING:
    from mtalign.metrics.chrf import Chrf


class CHRFSignature(Signature):
    """chrF's signature: ``case``, ``eff``, ``nc``, ``nw``, ``space``."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update({"case": "lc" if args["lowercase"] else "mixed",
                          "eff": "yes" if not args["eps_smoothing"] else "no",
                          "nc": args["char_order"], "nw": args["word_order"],
                          "space": "yes" if args["whitespace"] else "no"})


class CHRFScore(Score):
    """A chrF score, named ``chrF{beta}`` plus one ``+`` per word order.

    >>> CHRFScore(50.0, 6, 2, 2).name
    'chrF2++'
    """

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)


class CHRF(Metric):
    """sacrebleu's ``CHRF`` (same arguments), computed by :class:`mtalign.Chrf`.

    Args:
        char_order: character n-gram order (6).
        word_order: word n-gram order (0; 2 is chrF++).
        beta: recall's weight (2).
        lowercase: case-insensitive.
        whitespace: keep whitespace in character n-grams.
        eps_smoothing: mean of per-order F (chrF++.py) instead of effective-order averaging.
        references: reference streams to cache for many systems.

    >>> CHRF().sentence_score("abc", ["abd"]).score
    38.888888888888886
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE = CHRFSignature

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER,
                 beta: int = BETA, lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False,
                 references: Sequence[Sequence[str]] | None = None) -> None:
        super().__init__()
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        from mtalign.metrics.chrf import Chrf  # here: the command line's parser needs CHRF
        self._metric = Chrf(char_order=char_order, word_order=word_order, beta=beta,
                            lowercase=lowercase, whitespace=whitespace,
                            eps_smoothing=eps_smoothing)
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _mtalign(self) -> Chrf:
        return self._metric

    def _name(self) -> str:
        return f"chrF{self.beta}" + "+" * self.word_order

    def _score_of(self, result: Any) -> CHRFScore:
        return CHRFScore(float(result.score), self.char_order, self.word_order, self.beta)

    def _preprocess_segment(self, sent: str) -> str:
        return sent.lower() if self.lowercase else sent

    def _compute_f_score(self, statistics: Any) -> Any:
        """The F-score of one summed row [hyp, ref, match] * orders, in sacrebleu's
        arithmetic (its significance tests pass float32 rows: the result keeps their type).
        """
        eps = 1e-16
        score: Any = 0.0
        factor = self.beta ** 2
        avg_prec: Any = 0.0
        avg_rec: Any = 0.0
        effective = 0
        for i in range(self.order):
            n_hyp, n_ref, n_match = statistics[3 * i:3 * i + 3]
            prec = n_match / n_hyp if n_hyp > 0 else eps
            rec = n_match / n_ref if n_ref > 0 else eps
            denom = factor * prec + rec
            score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
            if n_hyp > 0 and n_ref > 0:
                avg_prec += prec
                avg_rec += rec
                effective += 1
        if self.eps_smoothing:
            return 100 * score / self.order
        if effective == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= effective
            avg_rec /= effective
        if avg_prec + avg_rec:
            return 100 * ((1 + factor) * avg_prec * avg_rec / ((factor * avg_prec) + avg_rec))
        return 0.0

    def _compute_score_from_stats(self, stats: Any) -> CHRFScore:
        return CHRFScore(self._compute_f_score(stats), self.char_order, self.word_order,
                         self.beta)


__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]
