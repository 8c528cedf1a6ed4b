"""sacrebleu's ``TercomTokenizer``, computed by mtalign's TER normalization
(:func:`mtalign.metrics.ter.tercom_normalize`).

>>> TercomTokenizer(normalized=True)("Jim's car.")
"jim 's car ."
"""

from __future__ import annotations

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
from mtalign.metrics.ter import tercom_normalize


class TercomTokenizer(BaseTokenizer):
    """Tercom's normalization: lowercasing (unless ``case_sensitive``), ``normalized``
    punctuation tokenization, ``no_punct`` removal, ``asian_support`` for CJK."""

    ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
    FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> None:
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive

    def __call__(self, sent: str) -> str:
        return tercom_normalize(sent, self._normalized, self._no_punct, self._asian_support,
                                self._case_sensitive)

    def signature(self) -> str:
        return "tercom"


__all__ = ["TercomTokenizer"]
