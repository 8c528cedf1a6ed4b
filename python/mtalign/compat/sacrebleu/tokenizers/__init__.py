"""sacrebleu 2.6.0's tokenizers, computed by mtalign's native ones (``13a``, ``intl``,
``zh``, ``char``; ``none`` splits nothing) or its Python ones (``tercom``; ``ja-mecab``,
``ko-mecab``, ``spm``, ``flores101``, ``flores200`` through the optional packages).

A tokenizer is called on a line and returns the tokens joined by single spaces, as
sacrebleu's do.

>>> tokenizer_for("13a")("Hello, world!")
'Hello , world !'
>>> tokenizer_for("13a").signature()
'13a'
"""

from __future__ import annotations

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer, NativeTokenizer


def tokenizer_for(name: str, spm_model: str | None = None) -> BaseTokenizer:
    """The tokenizer sacrebleu's BLEU calls ``name`` (``spm_model``: the SentencePiece model
    file of ``spm``, ``flores101``, ``flores200``).

    >>> tokenizer_for("none")("a  b ")
    'a  b '
    """
    from mtalign.compat.sacrebleu.tokenizers import (
        tokenizer_13a,
        tokenizer_char,
        tokenizer_intl,
        tokenizer_none,
        tokenizer_zh,
    )
    simple = {"13a": tokenizer_13a.Tokenizer13a, "intl": tokenizer_intl.TokenizerV14International,
              "zh": tokenizer_zh.TokenizerZh, "char": tokenizer_char.TokenizerChar,
              "none": tokenizer_none.NoneTokenizer}
    if name in simple:
        return simple[name]()
    return _ExternalTokenizer(name, spm_model)


class _ExternalTokenizer(BaseTokenizer):
    """sacrebleu's optional tokenizers, as mtalign runs them (a missing package is named)."""

    def __init__(self, name: str, spm_model: str | None) -> None:
        from mtalign.metrics.external_tokenizers import external_tokenizer
        self._tok = external_tokenizer(name, spm_model)

    def signature(self) -> str:
        return str(self._tok.signature)

    def __call__(self, line: str) -> str:
        return str(self._tok(line))


__all__ = ["BaseTokenizer", "NativeTokenizer", "tokenizer_for"]
