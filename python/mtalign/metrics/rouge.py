"""ROUGE-N, L, W, S and SU (Lin & Och 2004), with reference sets and batch scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

import numpy as np

from mtalign._mtalign import OPTIONS, ConfigError, NativeMetric
from mtalign.metrics.base import Metric
from mtalign.metrics.options import CORE, ROUGE_MULTI_REF, TOKENIZERS, names, option
from mtalign.metrics.results import (
    RougeResult,
    Score,
    Scores,
    rouge_columns,
    sentence_rouge_result,
)
from mtalign.metrics.sia import positive_words

# What each profile means when tokenize / multi_ref are not given, and its stemmer.
_COMPAT_DEFAULTS = {
    "paper": ("unicode", "max", "nltk_porter"),
    "rouge155": ("rouge155", "average", "rouge155"),
    "rouge_score": ("rouge_score", "best_f", "nltk_porter"),
}

#: ROUGE's default size limit (``Rouge(max_words=...)``): with a variant whose time grows with
#: the product of a pair's lengths (ROUGE-W, ROUGE-S, ROUGE-SU), a hypothesis and a reference
#: of m and n words are refused before any work when m·n > ``max_words²`` (2.5·10⁹ word
#: pairs). ROUGE-W at 50,000 words a side took 2.8 s on the 2-core development machine under
#: load, 11 s at 100,000 and 32 s at 170,000 (a 1 MB line); docs/reference.md, "Size limit".
DEFAULT_MAX_WORDS: int = OPTIONS["rouge"]["max_words"]["default"]

Text = Union[str, Sequence[str]]  # noqa: UP007 (a runtime alias)
"""A sentence: a str, or a pre-tokenized list of str tokens."""


def _stemmer(stem: bool, rouge: Any) -> str:
    return _COMPAT_DEFAULTS[rouge.compat][2] if stem else "no"


class Rouge(Metric[RougeResult]):
    """ROUGE scorer: ROUGE-N, ROUGE-L, ROUGE-W, ROUGE-S and ROUGE-SU as Lin & Och (2004).

    Args:
        variants: names among ``rouge1``..``rouge9`` (clipped n-gram overlap), ``rougeL``
            (LCS), ``rougeW-<w>`` (weighted LCS, f(k) = k^w, e.g. ``rougeW-1.2``),
            ``rougeS<d>`` / ``rougeS*`` (skip-bigrams with at most d words between the two
            words, or unlimited; ``rougeS0`` is bigram overlap), ``rougeSU<d>`` /
            ``rougeSU*`` (skip-bigrams plus unigrams). A single str is one variant.
            ``rougeLsum`` is rouge-score's summary-level LCS: texts are split into lines at
            ``"\\n"`` and the union LCS of each reference line with the candidate lines counts
            (it equals ``rougeL`` on one-line texts).
        tokenize: one of :data:`~mtalign.metrics.options.TOKENIZERS`: ``"unicode"`` (splits
            on anything that is not a letter, digit or mark in any script; each CJK
            ideograph, kana or hangul character is a token), ``"whitespace"``, ``"char"``,
            ``"codepoint"``, ``"rouge155"`` (ROUGE-1.5.5: ASCII-only lowercasing, tokens are
            runs of ASCII letters and digits, so ``café`` -> ``caf``), ``"rouge_score"``
            (rouge-score: Python ``lower()``, then runs of ``[a-z0-9]``), ``"13a"`` or
            ``"intl"`` (sacrebleu's). Default: the ``compat`` profile's (``unicode``,
            ``rouge155``, ``rouge_score``). Pre-tokenized input bypasses it.
        lowercase: lowercase (full Unicode) before tokenizing. ``rouge155`` and
            ``rouge_score`` lowercase by definition (``lowercase=False`` is refused).
        stem: stem tokens longer than 3 characters, once per distinct token: with
            ``compat="rouge155"`` as ROUGE-1.5.5 ``-m`` (WordNet 2.0 exception list, then the
            Porter stemmer inside ROUGE-1.5.5.pl: Porter's Perl "Release 1" with the ROUGE
            author's 2004 step 4); otherwise as rouge-score
            (nltk's ``PorterStemmer`` in its default mode), implemented natively.
        beta: the F-measure's β (eq. 6); must be > 0.
        multi_ref: how several references combine: ``"max"`` (eqs. 7-9: max recall and max
            precision over references, F from those), ``"average"`` (ROUGE-1.5.5 ``-f A``:
            counts pooled, R = Σhit/Σm, P = Σhit/(N·n)), ``"best"`` (ROUGE-1.5.5 ``-f B``:
            the reference with the highest recall, first on ties), ``"best_f"``
            (rouge-score's ``score_multi``: the reference with the highest F). Default: the
            ``compat`` profile's (``max``, ``average``, ``best_f``).
        jackknife: with N ≥ 2 references, the mean of P, R and F over the N leave-one-out
            sets of N-1 references (paper section 5); with one reference, no effect.
        compat: the convention followed: ``"paper"`` (Lin & Och 2004 as written),
            ``"rouge155"`` (ROUGE-1.5.5's numbers: ROUGE-W hits recounted from the traced-back
            LCS over runs consecutive in the reference and recall over m^(w*w); ROUGE-SU never
            counts the last token's unigram; ``"best"`` compares ROUGE-N/S recalls rounded to
            5 decimals) or ``"rouge_score"`` (rouge-score 0.1.2's numbers).
        max_words: the size limit of a pair (default :data:`DEFAULT_MAX_WORDS`, 50,000), the
            option :class:`mtalign.Sia` and :class:`mtalign.Gtm` have: ROUGE-W's and
            ROUGE-S/SU's time grows with the product of a pair's lengths (ROUGE-W: 11 s at
            100,000 words a side, 32 s at 170,000), so with one of them configured a
            hypothesis and a reference of m and n words with m·n > ``max_words²`` are refused
            up front with an :class:`~mtalign.InputError` naming them (``hyps[i]``,
            ``refs[i][j]``). ``None``: no limit. ROUGE-N, ROUGE-L and ROUGE-Lsum check
            nothing (a 1 MB pair takes them a few seconds at most). Never changes a score and
            is not in the signature.

    ``batch_score`` returns (n, 3 · variants) :class:`~mtalign.Scores`: precision, recall
    and F of each variant, columns ``<variant>_P``, ``<variant>_R``, ``<variant>_F``
    (``out["rougeL_F"]`` is the F-measures);
    ``sentence_score`` and ``corpus_score`` return a :class:`~mtalign.RougeResult`
    (``result["rougeL"].fmeasure``; ``float(result)`` is the first variant's F).

    Example:
        >>> Rouge("rouge1").batch_score(["a b", "c"], ["a c", ["c", "d"]])["rouge1_F"]
        array([0.5, 1. ])
        >>> res = Rouge("rougeL", tokenize="whitespace").corpus_score(["a b", "c d"],
        ...                                                           ["a b", "c x"])
        >>> res["rougeL"].fmeasure, float(res)
        (0.75, 0.75)
        >>> Rouge("rougeL", compat="rouge155", stem=True).signature()
        'tok:rouge155|lc:yes|stem:rouge155|multi_ref:average|jk:no|beta:1|compat:rouge155|version:0.1.0'
        >>> r = Rouge(["rougeL", "rougeS*"], tokenize="whitespace")
        >>> r.sentence_score("police kill the gunman", "police killed the gunman")["rougeL"]
        Score(precision=0.75, recall=0.75, fmeasure=0.75)
        >>> r155 = Rouge(["rouge1", "rougeSU*"], compat="rouge155", stem=True)
        >>> r155.sentence_score("Police kill the gunman.", "police killed the gunman")["rouge1"]
        Score(precision=1.0, recall=1.0, fmeasure=1.0)

    Objects are immutable and picklable; their configuration is all they hold.
    """

    __slots__ = ()
    aggregation = "mean"

    native = "rouge"
    variants: str | Sequence[str] = option(doc="the ROUGE variants scored", convert=names)
    tokenize: str | None = option(default=None, doc="the tokenizer (None: the compat profile's)",
                                  kind=str, choices=TOKENIZERS, native=True, kw_only=True,
                                  sig="tok")
    lowercase: bool = option(default=CORE, kw_only=True, sig="lc")
    stem: bool = option(default=False, doc="stem tokens (the compat profile's stemmer)",
                        kw_only=True, sig="stem", show=_stemmer)
    beta: float = option(default=CORE, kw_only=True, sig="beta")
    multi_ref: str | None = option(
        default=None, doc="how several references combine (None: the compat profile's)", kind=str,
        choices=ROUGE_MULTI_REF, native=True, kw_only=True, sig="multi_ref")
    jackknife: bool = option(default=CORE, kw_only=True, sig="jk")
    compat: str = option(default=CORE, kw_only=True, sig="compat")
    max_words: int | None = option(default=CORE, kw_only=True, convert=positive_words)

    signature_fields = ("tokenize", "lowercase", "stem", "multi_ref", "jackknife", "beta",
                        "compat")

    def _complete(self, config: dict[str, Any]) -> None:
        tok, multi, _ = _COMPAT_DEFAULTS.get(config["compat"], _COMPAT_DEFAULTS["paper"])
        if config["tokenize"] is None:
            config["tokenize"] = tok
        if config["multi_ref"] is None:
            config["multi_ref"] = multi

    def _check_token_ids(self, core: Any = None) -> None:
        if self._config["stem"]:
            raise ConfigError("Rouge(stem=True) stems words, and token ids are not words: "
                              "score ids without stem")
        super()._check_token_ids(core)

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        stemmer = _COMPAT_DEFAULTS.get(c["compat"], _COMPAT_DEFAULTS["paper"])[2]
        return self._native(c, stemmer=stemmer if c["stem"] else None)

    def scalar_names(self) -> tuple[str, ...]:
        """The configured variants; ranking uses the F-measure of the one chosen.

        >>> Rouge(["rougeL", "rouge2"]).scalar_names()
        ('rougeL', 'rouge2')
        """
        return self._config["variants"]  # type: ignore[no-any-return]

    # -- statistics: per variant, the sentence's P, R, F (the corpus is their mean) ----------

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        n = rows.shape[0]
        return np.ascontiguousarray(rows.reshape(n, len(self._config["variants"]), 3)[:, k, 2])

    def score_columns(self) -> tuple[str, ...]:
        """P, R and F of each variant: ``<variant>_P``, ``<variant>_R``, ``<variant>_F``.

        >>> Rouge(["rougeL", "rouge2"]).score_columns()[:4]
        ('rougeL_P', 'rougeL_R', 'rougeL_F', 'rouge2_P')
        """
        return rouge_columns(self._config["variants"])

    def scalar_column(self, variant: str | None = None) -> str:
        """The F-measure column of the variant (ranking reads F)."""
        return f"{self._pick_scalar(variant)}_F"

    def _sentences(self, rows: np.ndarray) -> Scores:
        return Scores(rows, self.score_columns())

    def _sentence_result(self, row: Any, signature: Any) -> RougeResult:
        # A flat list from the native one-pair call is kept as it is (no array is made).
        return sentence_rouge_result(self._config["variants"], row, signature)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> RougeResult:
        variants = self._config["variants"]
        if rows.ndim != 3:  # statistics rows (n, 3 * len(variants))
            rows = rows.reshape(rows.shape[0], len(variants), 3)
        return RougeResult(variants, rows, n_empty_hyps, n_empty_refs, signature)


__all__ = ["DEFAULT_MAX_WORDS", "Rouge", "RougeResult", "Score", "Text"]
