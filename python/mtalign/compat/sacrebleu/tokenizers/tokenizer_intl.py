"""sacrebleu's ``TokenizerV14International`` (``intl``), computed by mtalign's native tokenizer.

>>> TokenizerV14International()("Hello, world!")
'Hello , world !'
"""

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import NativeTokenizer


class TokenizerV14International(NativeTokenizer):
    """sacrebleu's ``intl`` tokenizer."""

    def __init__(self) -> None:
        super().__init__("intl")


__all__ = ["TokenizerV14International"]
