"""METEOR (Banerjee & Lavie 2005), as nltk 3.10's ``meteor_score`` computes it.

>>> m = Meteor(wordnet=None)
>>> round(float(m.sentence_score("the cat sat on the mat", "the cat is on the mat")), 6)
0.806667
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

import numpy as np

from mtalign._mtalign import OPTIONS, ConfigError
from mtalign.metrics.base import Metric
from mtalign.metrics.options import CORE, number, option
from mtalign.metrics.results import CorpusResult, sentence_result

#: The matching stages, in the order they run.
STAGES: tuple[str, ...] = OPTIONS["meteor"]["stages"]["choices"]


def _stages(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(
            isinstance(s, str) for s in value):
        raise ConfigError(f"stages must be a sequence of stage names (got {value!r})")
    return tuple(value)


def _wordnet(value: Any) -> str:
    if not isinstance(value, (str, os.PathLike)):
        raise ConfigError(f"wordnet must be a directory path or None (got {value!r})")
    return os.fspath(value)


def _show_stages(value: Any, metric: Any) -> str:
    on = [s for s in value if s != "synonym" or metric.wordnet is not None]
    return "+".join(on) + ("" if len(on) == len(value) else "|syn:off")


def _show_wordnet(value: Any, metric: Any) -> str | None:
    return None if value is None else "yes"


class Meteor(Metric[CorpusResult]):
    """METEOR: an F-mean weighted towards recall, times a fragmentation penalty.

    Words (lowercased, as nltk's ``preprocess=str.lower``) are aligned in ``stages``: exact
    words, then nltk's Porter stems, then WordNet synonyms (a reference word's stem is a
    lemma name of a synset of the hypothesis word's stem), each over the words left
    unmatched, each hypothesis word from the last taking the last unmatched reference word it
    matches (nltk's alignment: greedy, not the fewest-crossings alignment of the original
    METEOR; ``docs/meteor.md`` lists the differences). With m matches in ``chunks`` runs
    adjacent in both sentences: P = m/|hyp|, R = m/|ref|, Fmean = PR/(αP + (1−α)R),
    score = (1 − γ(chunks/m)^β)·Fmean, 0 if nothing matches. Several references: the best
    score. The corpus score is the mean sentence score (nltk has no corpus METEOR): the first
    column of the mean statistics row, so ``aggregation = "mean"`` and METEOR streams
    (``mtalign score`` in chunks, :mod:`mtalign.dask` by partitions, paired tests).

    Args:
        alpha: precision's weight in Fmean, 0 to 1 (0.9: recall weighted 9:1).
        beta: the penalty's exponent (>= 0).
        gamma: the penalty's largest share, 0 to 1.
        stages: a subsequence of ``("exact", "stem", "synonym")``.
        wordnet: a WordNet database directory (e.g. ``/usr/share/wordnet`` from Debian's
            ``wordnet-base``), read by mtalign; without it the synonym stage is off and the
            signature says ``syn:off``.
        tokenize: the tokenizer for text input (default ``whitespace``: nltk takes
            pre-tokenized input); token lists are used as given.

    ``batch_score`` returns float64 (n,); :meth:`statistics` has five columns: the score,
    matches, chunks, |hyp| and |ref| of the best reference.

    Example:
        >>> h = "It is a guide to action which ensures that the military always obeys the"
        >>> h += " commands of the party"
        >>> r = "It is a guide to action that ensures that the military will forever heed"
        >>> r += " Party commands"
        >>> round(float(Meteor().sentence_score(h, r)), 4)  # nltk's docstring: 0.6944
        0.6944
        >>> Meteor().signature()
        'stages:exact+stem|syn:off|tok:whitespace|a:0.9|b:3|g:0.5|version:0.1.0'
        >>> Meteor.preset("banerjee-lavie-2005") == Meteor(alpha=0.9, beta=3.0, gamma=0.5)
        True
    """

    __slots__ = ()

    # The corpus score is column 0 (the sentence score) of the mean row; the other columns
    # of a mean row (mean matches, chunks, lengths) are not used for it.
    aggregation = "mean"

    native = "meteor"
    alpha: float = option(default=CORE, sig="a", show=number)
    beta: float = option(default=CORE, sig="b", show=number)
    gamma: float = option(default=CORE, sig="g", show=number)
    stages: tuple = option(default=CORE, kind=object, convert=_stages, sig="stages",
                           show=_show_stages)
    wordnet: str | None = option(default=CORE, kind=object, convert=_wordnet, sig="wn",
                                 show=_show_wordnet)
    tokenize: str = option(default=CORE, kw_only=True, sig="tok")

    signature_fields = ("stages", "wordnet", "tokenize", "alpha", "beta", "gamma")

    #: Named parameter sets: Banerjee & Lavie (2005): Fmean = 10PR/(R + 9P) (α = 0.9),
    #: penalty = 0.5·(chunks/m)^3 (β = 3, γ = 0.5).
    PRESETS: ClassVar[dict[str, dict[str, float]]] = {
        "banerjee-lavie-2005": {"alpha": 0.9, "beta": 3.0, "gamma": 0.5},
    }

    @classmethod
    def preset(cls, name: str, **options: Any) -> Meteor:
        """A Meteor with a named parameter set (other options as keywords).

        >>> Meteor.preset("banerjee-lavie-2005").alpha
        0.9
        """
        if name not in cls.PRESETS:
            raise ConfigError(f"unknown METEOR preset {name!r} "
                              f"(choose from: {', '.join(cls.PRESETS)})")
        return cls(**{**cls.PRESETS[name], **options})

    def _check_token_ids(self, core: Any = None) -> None:
        c = self._config
        if any(stage != "exact" for stage in c["stages"]) or c["wordnet"] is not None:
            raise ConfigError("Meteor's stem and synonym stages read words, and token ids are "
                              "not words: score ids with Meteor(stages=['exact'])")
        super()._check_token_ids(core)

    def synonyms(self, word: str) -> list[str]:
        """The synonyms the synonym stage uses for ``word`` (the lemma names, without ``_``,
        of nltk's ``wordnet.synsets(word)``); empty when the stage is off.

        >>> Meteor().synonyms("dog")
        []
        """
        return self._core.synonyms(word)  # type: ignore[no-any-return]

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return np.ascontiguousarray(rows.reshape(-1, 5)[:, 0])

    def _sentence_result(self, row: Any, signature: Any) -> CorpusResult:
        # The native one-pair call's flat row: its METEOR is the mean of one sentence.
        return sentence_result("METEOR", row[0], {}, signature)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """The mean sentence METEOR."""
        each = self._sentence_values(rows, 0)
        score = float(each.mean()) if each.shape[0] else 0.0
        return CorpusResult("METEOR", score, each, {}, n_empty_hyps, n_empty_refs, signature)


__all__ = ["Meteor", "STAGES"]
