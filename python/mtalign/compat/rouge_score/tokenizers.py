"""``rouge_score.tokenizers``: the ``Tokenizer`` interface and ``DefaultTokenizer``.

``DefaultTokenizer`` tokenizes (and stems, with ``use_stemmer=True``) natively, exactly as
rouge-score's; a ``RougeScorer`` given one scores on the native text path. Any other object
with a ``tokenize(text) -> list[str]`` method can be passed to ``RougeScorer(tokenizer=...)``.

>>> from mtalign.compat.rouge_score import tokenizers
>>> tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("the friends had a meeting")
['the', 'friend', 'had', 'a', 'meet']
"""

from __future__ import annotations

import abc

from mtalign._mtalign import stem as _native_stem
from mtalign._mtalign import tokenize as _native_tokenize

__all__ = ["DefaultTokenizer", "Tokenizer"]


class Tokenizer(abc.ABC):
    """A tokenizer for ``RougeScorer``: subclasses implement ``tokenize(text)``."""

    @abc.abstractmethod
    def tokenize(self, text: str) -> list[str]:
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer: Python ``lower()``, runs of ``[a-z0-9]``, and with
    ``use_stemmer=True`` nltk's Porter stemmer on tokens longer than 3 characters.

    >>> DefaultTokenizer().tokenize("This is a TEST.")
    ['this', 'is', 'a', 'test']
    """

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text: str) -> list[str]:
        tokens = _native_tokenize(text, tokenize="rouge_score")
        return _native_stem(tokens, stemmer="nltk_porter") if self.use_stemmer else tokens
