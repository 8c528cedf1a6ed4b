"""sacrebleu's ``Tokenizer13a`` (``13a``), computed by mtalign's native tokenizer.

>>> Tokenizer13a()("Hello, world!")
'Hello , world !'
"""

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import NativeTokenizer


class Tokenizer13a(NativeTokenizer):
    """sacrebleu's ``13a`` tokenizer."""

    def __init__(self) -> None:
        super().__init__("13a")


__all__ = ["Tokenizer13a"]
