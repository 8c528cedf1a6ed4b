"""chrF and chrF++ (Popović 2015, 2017), as sacrebleu 2.6.0 computes them.

>>> float(Chrf().sentence_score("The cat sat on the mat.", "The cat is on the mat."))
67.17273492330233
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign.errors import InputError
from mtalign.metrics.base import Metric
from mtalign.metrics.inputs import as_list
from mtalign.metrics.options import CORE, case, option, yes_no
from mtalign.metrics.results import CorpusResult
from mtalign.token_ids import is_token_ids


def texts_of(hyps: Any, refs: Any) -> tuple[Any, Any]:
    """Pre-tokenized input (lists of tokens) as texts: tokens joined by single spaces.

    >>> texts_of([["a", "b"]], [[["a", "c"]]])
    (['a b'], [['a c']])
    """
    hyps = list(as_list(hyps, "hyps"))
    if not hyps or not isinstance(hyps[0], (list, tuple)):
        return hyps, refs
    refs = as_list(refs, "refs")
    for i, rs in enumerate(refs):
        bad = rs if not isinstance(rs, (list, tuple)) else next(
            (r for r in rs if not isinstance(r, (list, tuple))), None)
        if bad is not None:
            raise InputError(f"refs[{i}] must be a list of token lists, as the hypotheses are "
                             f"lists of tokens (got {type(bad).__name__})")
    return [" ".join(h) for h in hyps], [[" ".join(r) for r in rs] for rs in refs]


def _beta(value: Any, metric: Any) -> str | None:
    """beta in the signature only when it is not sacrebleu's fixed 2."""
    return None if value == 2 else format(value, "g")


def _eff(value: Any, metric: Any) -> str:
    """sacrebleu's ``eff``: effective-order averaging, i.e. *no* eps smoothing."""
    return yes_no(not value, metric)


class CharacterInput:
    """What every metric that reads characters (chrF, CER) does with its input: a list of
    tokens is joined into one text (single spaces), a str goes through as is, and token ids
    are refused, since they have no characters. Put before the metric's base class."""

    __slots__ = ()
    _run_keeps_text = True  # texts_of joins token lists only; str input goes through as is
    #: what the refusal of token ids suggests in their place
    _for_token_ids = "a word-level metric (Bleu, Rouge, Wer, Ter, ...)"

    def _tokenizer_name(self) -> str:
        return "codepoint"

    def _check_token_ids(self, core: Any = None) -> None:
        raise ConfigError(f"{type(self).__name__} reads characters, and token ids have none: "
                          f"decode the ids to text, or use {self._for_token_ids}")

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        if is_token_ids(hyps):
            self._check_token_ids()
        hyps, refs = texts_of(hyps, refs)
        return super()._run(hyps, refs, threads, core)  # type: ignore[misc, no-any-return]

    def sentence_score(self, hyp: Any, refs: Any) -> CorpusResult:
        if isinstance(hyp, (list, tuple)):
            (hyp,), (refs,) = texts_of([hyp], [refs])
        return super().sentence_score(hyp, refs)  # type: ignore[misc, no-any-return]


class Chrf(CharacterInput, Metric[CorpusResult]):
    """chrF (``word_order=0``) and chrF++ (``word_order=2``): the character (and word)
    n-gram F-score, on sacrebleu's 0-100 scale and bit-identical to sacrebleu 2.6.0's
    ``CHRF``.

    Characters are the text's code points with every (Python) whitespace character removed,
    unless ``whitespace=True``; chrF++'s words are the text split on whitespace, with a
    trailing (else a leading) ASCII punctuation mark of a longer word split off (sacrebleu's
    rule: ``"(hi)"`` gives ``"(hi"`` and ``")"``). No tokenizer option: the metric reads
    code points (the native ``codepoint`` encoding, which lowercases when asked) and builds
    both views itself. Pre-tokenized input is joined with single spaces.

    For each order the statistics are hypothesis n-grams, reference n-grams and clipped
    matches, the hypothesis count being 0 where the reference has no n-gram of that order.
    The score is F-beta of precision and recall averaged over the orders both sides have
    (sacrebleu's default), or with ``eps_smoothing`` the mean of per-order F-beta, an empty
    order counting 1e-16 (chrF++.py, Moses, NLTK). With several references the row of the
    best sentence F is kept (the first on ties); the corpus score is the F of the summed
    rows of the kept references (not the mean of sentence scores).

    Args:
        char_order: character n-gram order, 1 to 12.
        word_order: word n-gram order, 0 (chrF) to 12; 2 is chrF++.
        beta: recall's weight (> 0).
        lowercase: lowercase (full Unicode) first.
        whitespace: keep whitespace in character n-grams.
        eps_smoothing: mean of per-order F instead of effective-order averaging.

    ``batch_score`` returns float64 (n,); ``sentence_score``/``corpus_score`` a
    :class:`~mtalign.CorpusResult` named ``chrF2`` or ``chrF2++``.

    Example:
        >>> m = Chrf(word_order=2)
        >>> print(m.corpus_score(["The cat sat on the mat.", ""], [["The cat is on the mat."],
        ...                                                       ["Nothing."]]))
        chrF2++ = 54.7036
        >>> m.statistics(["ab"], ["ab"]).shape
        (1, 24)
        >>> Chrf().signature(1)
        'nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:0.1.0'
        >>> Chrf(beta=1, eps_smoothing=True).signature()
        'case:mixed|eff:no|nc:6|nw:0|space:no|beta:1|version:0.1.0'
    """


    __slots__ = ()
    aggregation = "sum"

    native = "chrf"
    char_order: int = option(default=CORE, sig="nc")
    word_order: int = option(default=CORE, sig="nw")
    beta: float = option(default=CORE, sig="beta", show=_beta)
    lowercase: bool = option(default=CORE, sig="case", show=case)
    whitespace: bool = option(default=CORE, sig="space")
    eps_smoothing: bool = option(default=CORE, sig="eff", show=_eff)

    signature_fields = ("lowercase", "eps_smoothing", "char_order", "word_order", "whitespace",
                        "beta")

    def _name(self) -> str:
        return f"chrF{self.beta:g}" + "+" * self.word_order

    def scalar_names(self) -> tuple[str, ...]:
        """``("chrf",)`` or ``("chrf++",)`` (the registry's names)."""
        return ("chrf" + "+" * self.word_order,)

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return self._core.sentence_scores(rows)  # type: ignore[no-any-return]

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """F of the summed rows (sacrebleu's corpus chrF)."""
        return CorpusResult(self._name(), self._core.corpus_figures(rows)[0], (self, rows), {},
                            n_empty_hyps, n_empty_refs, signature, rows.shape[0])


__all__ = ["Chrf"]
