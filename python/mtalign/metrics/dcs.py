"""DCS, the double common subsequence score (Ding, Utiyama & Sumita), word or character level.

>>> float(Dcs().sentence_score("ab", "ab"))
1.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, NativeMetric
from mtalign.metrics.base import Metric
from mtalign.metrics.options import CORE, DCS_MULTI_REF, LEVELS, TOKENIZERS, option
from mtalign.metrics.results import DCS_FIELDS, DcsResult, DcsScore, Scores

_SCALARS = ("dcs", "cs0", "cs1", "cs2")


def _spaces(ignore: bool, dcs: Any) -> str | None:
    return None if dcs.level != "char" else ("no" if ignore else "yes")


def _word_tokenizer(tokenize: str, dcs: Any) -> str | None:
    return tokenize if dcs.level == "word" else None


class Dcs(Metric[DcsResult]):
    """DCS scorer, faithful to the authors' published code (their Table 1).

    The first matching keeps maximal common substrings (greedily, longest first, a run kept
    when it still has an unused position on each side); the second matching chains blocks
    that are consecutive in both orders. With A = √(|ref|·|hyp|): ``cs0`` = longest chain
    length / A, ``cs1`` = √ΣL² / A, ``cs2`` = √(Σ L_a·L_b over chain neighbours) / A,
    ``dcs`` = √(cs1² + cs2²). The comparison is dcs(reference, hypothesis), as the paper's
    Figure 1 (reference ABCDE, candidate EABFD).

    Quirks of the published definition, reproduced on purpose:

    * cs0 is not always the LCS length: ``Dcs().sentence_score("ACB", "ABC").cs0`` is 1/3
      (the LCS is 2);
    * values can exceed 1: hypothesis ``CBA`` against reference ``CBBA`` has cs0 = 1.1547,
      because overlapping blocks are both kept;
    * the argument order matters: swapping hypothesis and reference can change every score.

    Whole documents are fine: a long pair selects its blocks from a suffix array of both
    texts (the same blocks as the authors' walk), O(N log N) for N symbols and about 50
    bytes a symbol (500k characters against 500k: 1.5-2.5 s on a loaded 2-core machine).
    A pair of more than 2**24 symbols (hypothesis plus reference) raises
    :class:`~mtalign.InputError`.

    Args:
        level: ``"char"`` (every code point is a symbol, spaces included unless
            ``ignore_spaces``) or ``"word"`` (the text is split by ``tokenize``).
        tokenize: the word tokenizer for ``level="word"`` (``"unicode"`` or any of
            :data:`~mtalign.metrics.options.TOKENIZERS`).
        lowercase: lowercase before matching (off by default: the published metric compares
            strings as given).
        multi_ref: ``"max"``: the reference with the highest dcs (first on ties), reporting
            its four values.
        ignore_spaces: at character level, drop whitespace before matching.

    ``batch_score`` returns (n, 4) :class:`~mtalign.Scores`, columns ``cs0``, ``cs1``,
    ``cs2``, ``dcs`` (``out["dcs"]`` by name); ``sentence_score`` and
    ``corpus_score`` a :class:`~mtalign.DcsResult` (the means; ``float(result)`` is ``dcs``).
    :meth:`statistics` rows are the four values; the corpus is their mean.

    Example:
        >>> Dcs(level="char").sentence_score("EABFD", "ABCDE").scores
        DcsScore(cs0=0.6, cs1=0.4898979485566356, cs2=0.282842712474619, dcs=0.565685424949238)
        >>> Dcs().batch_score(["ab", "xy"], ["ab", ["q", "xy"]])["dcs"].tolist()
        [1.0, 1.0]
        >>> Dcs().corpus_score(["ab", "ab"], ["ab", "ba"])["cs0"]
        0.75
        >>> Dcs().scalar_scores(["ab"], ["ab"]).tolist()
        [1.0]
        >>> Dcs().signature()
        'level:char|spaces:yes|lc:no|multi_ref:max|version:0.1.0'
    """


    __slots__ = ()
    aggregation = "mean"

    native = "dcs"
    level: str = option(default="char", doc="the symbols compared", choices=LEVELS, sig="level")
    tokenize: str = option(default="unicode", doc="the word tokenizer (level='word')",
                           choices=TOKENIZERS, native=True, kw_only=True, sig="tok",
                           show=_word_tokenizer)
    lowercase: bool = option(default=CORE, kw_only=True, sig="lc")
    multi_ref: str = option(default="max", doc="how several references combine",
                            choices=DCS_MULTI_REF, kw_only=True, sig="multi_ref")
    ignore_spaces: bool = option(default=False, doc="drop whitespace (level='char')",
                                 kw_only=True, sig="spaces", show=_spaces)

    signature_fields = ("level", "ignore_spaces", "tokenize", "lowercase", "multi_ref")

    def _complete(self, c: dict[str, Any]) -> None:
        if c["level"] == "word" and c["ignore_spaces"]:
            raise ConfigError("ignore_spaces applies to level='char' only")

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        if c["level"] == "char":
            native_tok = "char" if c["ignore_spaces"] else "codepoint"
        else:
            native_tok = c["tokenize"]
        return self._native(c, tokenize=native_tok)

    def _check_token_ids(self, core: Any = None) -> None:
        if self._config["level"] == "char":
            raise ConfigError("Dcs(level='char') reads characters, and token ids have none: "
                              "use Dcs(level='word') for ids")
        super()._check_token_ids(core)

    def _tokenizer_name(self) -> str:
        return "char" if self._config["level"] == "char" else str(self._config["tokenize"])

    def scalar_names(self) -> tuple[str, ...]:
        """``("dcs", "cs0", "cs1", "cs2")``: ranking uses ``dcs`` unless told otherwise."""
        return _SCALARS

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return np.ascontiguousarray(rows[:, DCS_FIELDS.index(_SCALARS[k])])

    def score_columns(self) -> tuple[str, ...]:
        """``("cs0", "cs1", "cs2", "dcs")``, the native row's order."""
        return DCS_FIELDS

    def _sentences(self, rows: np.ndarray) -> Scores:
        return Scores(rows, DCS_FIELDS)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> DcsResult:
        return DcsResult(rows, n_empty_hyps, n_empty_refs, signature)


__all__ = ["DCS_FIELDS", "Dcs", "DcsResult", "DcsScore", "LEVELS"]
