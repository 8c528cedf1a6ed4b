"""sacrebleu's ``TokenizerChar`` (``char``), computed by mtalign's native tokenizer.

>>> TokenizerChar()("ab c")
'a b c'
"""

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import NativeTokenizer


class TokenizerChar(NativeTokenizer):
    """sacrebleu's ``char`` tokenizer."""

    def __init__(self) -> None:
        super().__init__("char")


__all__ = ["TokenizerChar"]
