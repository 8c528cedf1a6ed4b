"""``rouge_score.rouge_scorer`` on mtalign: ``RougeScorer`` with ``score`` and ``score_multi``.

Same tokenization (Python ``lower()``, runs of ``[a-z0-9]``), same stemmer (nltk's
``PorterStemmer`` in its default mode, on tokens longer than 3 characters, implemented in
Rust), same ``rougeLsum`` (union LCS over the lines of the texts) and the same choice of
reference in ``score_multi`` (highest F, first on ties); the tests check the numbers against
rouge-score itself.

>>> from mtalign.compat.rouge_score import rouge_scorer
>>> scorer = rouge_scorer.RougeScorer(["rouge2", "rougeLsum"])
>>> scorer.score_multi(["a b c", "x b c"], "x b c d")["rouge2"].fmeasure
0.8
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtalign._mtalign import ConfigError
from mtalign.metrics.rouge import Rouge, Score

__all__ = ["RougeScorer"]


class RougeScorer:
    """Computes ROUGE scores between two texts, as ``rouge_score.rouge_scorer.RougeScorer``.

    Args:
        rouge_types: e.g. ``["rouge1", "rouge2", "rougeL", "rougeLsum"]`` (any mtalign
            variant name is accepted; unknown names raise ``ValueError`` here rather than
            at scoring time).
        use_stemmer: nltk Porter stemming of tokens longer than 3 characters.
        split_summaries: for ``rougeLsum``, split texts into sentences with
            ``nltk.sent_tokenize`` (nltk and its punkt data must be installed) instead of
            at newlines.
        tokenizer: an object with ``tokenize(text) -> list[str]`` replacing the default
            tokenization (its tokens are used verbatim; not with ``rougeLsum``).

    >>> RougeScorer(["rougeL"]).score("police killed the gunman", "police kill the gunman")
    {'rougeL': Score(precision=0.75, recall=0.75, fmeasure=0.75)}
    """

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False,
                 split_summaries: bool = False, tokenizer: Any = None) -> None:
        self.rouge_types = list(rouge_types)
        self._split_summaries = bool(split_summaries)
        self._tokenizer = tokenizer
        if tokenizer is not None and "rougeLsum" in self.rouge_types:
            raise ConfigError("rougeLsum needs the texts' lines; it is not available with a "
                              "custom tokenizer here")
        lsum = [t for t in self.rouge_types if t == "rougeLsum" and split_summaries]
        rest = [t for t in self.rouge_types if t not in lsum]
        opts: dict[str, Any] = {"compat": "rouge_score", "stem": bool(use_stemmer)}
        if tokenizer is not None:
            opts["stem"] = False  # the custom tokenizer decides, as in rouge-score
        self._rouge = Rouge(rest, **opts) if rest else None
        self._lsum = Rouge(lsum, **opts) if lsum else None

    def _sentence_lines(self, text: str) -> str:
        import nltk  # type: ignore[import-untyped]  # optional, as in rouge-score

        return "\n".join(s.replace("\n", " ") for s in nltk.sent_tokenize(text))

    def _prepare(self, text: str) -> Any:
        return self._tokenizer.tokenize(text) if self._tokenizer is not None else text

    def _scores(self, targets: list[str], prediction: str) -> dict[str, Score]:
        out: dict[str, Score] = {}
        if self._rouge is not None:
            hyp = self._prepare(prediction)
            refs = [self._prepare(t) for t in targets]
            out.update(self._rouge.sentence_score(hyp, refs))
        if self._lsum is not None:
            lines = [self._sentence_lines(t) for t in targets]
            out.update(self._lsum.sentence_score(self._sentence_lines(prediction), lines))
        return {t: out[t] for t in self.rouge_types}

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against one ``target``: rouge type -> Score."""
        return self._scores([target], prediction)

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Score]:
        """Per rouge type, the Score against the target with the highest F (first on ties)."""
        targets = list(targets)
        if not targets:
            raise ValueError("score_multi needs at least one target")
        return self._scores(targets, prediction)
