"""``rouge_score.rouge_scorer`` on mtalign: ``RougeScorer`` with ``score`` and ``score_multi``.

Same tokenization (Python ``lower()``, runs of ``[a-z0-9]``), same stemmer (nltk's
``PorterStemmer`` in its default mode, on tokens longer than 3 characters, implemented in
Rust), same ``rougeLsum`` (union LCS over the lines of the texts) and the same choice of
reference in ``score_multi`` (highest F, first on ties); the tests check the numbers against
rouge-score itself and run rouge-score's own test suite through this module.

>>> from mtalign.compat.rouge_score import rouge_scorer
>>> scorer = rouge_scorer.RougeScorer(["rouge2", "rougeLsum"])
>>> scorer.score_multi(["a b c", "x b c"], "x b c d")["rouge2"].fmeasure
0.8
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from mtalign._mtalign import ConfigError
from mtalign.compat.rouge_score.scoring import BaseScorer
from mtalign.compat.rouge_score.tokenizers import DefaultTokenizer
from mtalign.metrics.rouge import Rouge, Score

__all__ = ["RougeScorer"]


class RougeScorer(BaseScorer):
    """Computes ROUGE scores between two texts, as ``rouge_score.rouge_scorer.RougeScorer``.

    Args:
        rouge_types: e.g. ``["rouge1", "rouge2", "rougeL", "rougeLsum"]`` (any mtalign
            variant name is accepted). As in rouge-score, an unknown name raises
            ``ValueError`` (``mtalign.ConfigError``) when scoring.
        use_stemmer: nltk Porter stemming of tokens longer than 3 characters (ignored when a
            ``tokenizer`` is given: the tokenizer decides, as in rouge-score).
        split_summaries: for ``rougeLsum``, split texts into sentences with
            ``nltk.sent_tokenize`` (nltk and its punkt data must be installed) instead of
            at newlines.
        tokenizer: an object with ``tokenize(text) -> list[str]``. A
            ``tokenizers.DefaultTokenizer`` runs natively; other tokenizers' tokens are
            scored verbatim (``rougeLsum`` tokenizes each sentence with it).

    >>> RougeScorer(["rougeL"]).score("police killed the gunman", "police kill the gunman")
    {'rougeL': Score(precision=0.75, recall=0.75, fmeasure=0.75)}
    """

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False,
                 split_summaries: bool = False, tokenizer: Any = None) -> None:
        self.rouge_types = list(rouge_types)
        self._split_summaries = bool(split_summaries)
        stem = bool(use_stemmer)
        if isinstance(tokenizer, DefaultTokenizer):
            stem, tokenizer = tokenizer.use_stemmer, None
        self._tokenizer = tokenizer
        self._error: ConfigError | None = None
        self._rouge: Rouge | None = None
        self._lsum: Rouge | None = None
        if tokenizer is None:
            # rougeLsum from the text's lines natively, unless sentences come from nltk.
            lsum = [t for t in self.rouge_types if t == "rougeLsum" and split_summaries]
            rest = [t for t in self.rouge_types if t not in lsum]
        else:
            lsum = []
            rest = [t for t in self.rouge_types if t != "rougeLsum"]
            stem = False
        try:
            opts: dict[str, Any] = {"compat": "rouge_score", "stem": stem}
            self._rouge = Rouge(rest, **opts) if rest else None
            self._lsum = Rouge(lsum, **opts) if lsum else None
        except ConfigError as e:  # rouge-score reports an unknown type when scoring
            self._error = e

    def _sentences(self, text: str) -> list[str]:
        if self._split_summaries:
            import nltk  # type: ignore[import-untyped]  # optional, as in rouge-score

            sents = nltk.sent_tokenize(text)
        else:
            sents = text.split("\n")
        return [s for s in sents if s]

    def _scores(self, targets: list[str], prediction: str) -> dict[str, Score]:
        if self._error is not None:
            raise self._error
        out: dict[str, Score] = {}
        tok = self._tokenizer
        if self._rouge is not None:
            if tok is None:
                out.update(self._rouge.sentence_score(prediction, targets))
            else:
                refs = [list(tok.tokenize(t)) for t in targets]
                out.update(self._rouge.sentence_score(list(tok.tokenize(prediction)), refs))
        if self._lsum is not None:
            lines = ["\n".join(s.replace("\n", " ") for s in self._sentences(t))
                     for t in targets]
            hyp = "\n".join(s.replace("\n", " ") for s in self._sentences(prediction))
            out.update(self._lsum.sentence_score(hyp, lines))
        if tok is not None and "rougeLsum" in self.rouge_types:
            hyp_sents = [list(tok.tokenize(s)) for s in self._sentences(prediction)]
            best: Score | None = None
            for t in targets:
                s = _summary_level_lcs([list(tok.tokenize(x)) for x in self._sentences(t)],
                                       hyp_sents)
                if best is None or s.fmeasure > best.fmeasure:
                    best = s
            assert best is not None
            out["rougeLsum"] = best
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


# rouge-score's module-level helpers, for code that reaches into them (its own test suite
# does). The scorer above does not use them: it runs natively.

def _lcs_table(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[list[int]]:
    """``t[i][j]`` = LCS length of ``ref[:i]`` and ``can[:j]``."""
    t = [[0] * (len(can) + 1)]
    for r in ref:
        prev, row = t[-1], [0]
        for j, c in enumerate(can):
            row.append(prev[j] + 1 if r == c else max(prev[j + 1], row[j]))
        t.append(row)
    return t


def _backtrack_norec(t: list[list[int]], ref: Sequence[Hashable],
                     can: Sequence[Hashable]) -> list[int]:
    """Indices into ``ref`` of one LCS, traced back from the end: a match is taken when the
    tokens are equal, else the step goes left in ``can`` when that keeps a strictly longer
    LCS, otherwise up in ``ref``."""
    i, j, picked = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            picked.append(i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return picked[::-1]


def lcs_ind(ref: Sequence[Hashable], can: Sequence[Hashable]) -> list[int]:
    """Indices into ``ref`` of the LCS of ``ref`` and ``can`` that rouge-score picks."""
    return _backtrack_norec(_lcs_table(ref, can), ref, can)


def _find_union(lcs_list: Sequence[Sequence[int]]) -> list[int]:
    """The sorted union of several index lists."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Sequence[Hashable], c_list: Sequence[Sequence[Hashable]]) -> list[Any]:
    """The tokens of ``ref`` in the union of its LCS with each candidate sentence."""
    return [ref[i] for i in _find_union([lcs_ind(ref, c) for c in c_list])]


def _summary_level_lcs(ref_sent: Sequence[Sequence[Hashable]],
                       can_sent: Sequence[Sequence[Hashable]]) -> Score:
    """Summary-level LCS (rougeLsum) of token-list sentences, computed natively: tokens
    are renamed to distinct words and scored as lines of text."""
    if not any(ref_sent) or not any(can_sent):
        return Score(precision=0.0, recall=0.0, fmeasure=0.0)
    names: dict[Hashable, str] = {}

    def text(sents: Sequence[Sequence[Hashable]]) -> str:
        return "\n".join(" ".join(names.setdefault(tok, f"t{len(names)}") for tok in s)
                         for s in sents if s)

    ref, can = text(ref_sent), text(can_sent)
    return _LSUM.sentence_score(can, ref)["rougeLsum"]


_LSUM = Rouge(["rougeLsum"], compat="rouge_score", tokenize="whitespace", lowercase=False)
