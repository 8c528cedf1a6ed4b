"""sacrebleu's ``NoneTokenizer``: the line as it is (BLEU then splits on whitespace).

>>> NoneTokenizer()("a  b")
'a  b'
"""

from mtalign.compat.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """No tokenization."""

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        return line


__all__ = ["NoneTokenizer"]
