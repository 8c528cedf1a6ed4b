"""sacrebleu's ``TokenizerZh`` (``zh``), computed by mtalign's native tokenizer.

>>> TokenizerZh()("你好,world")
'你 好 , world'
"""

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import NativeTokenizer


class TokenizerZh(NativeTokenizer):
    """sacrebleu's ``zh`` tokenizer."""

    def __init__(self) -> None:
        super().__init__("zh")


__all__ = ["TokenizerZh"]
