"""sacrebleu's ``BaseTokenizer``, and the mtalign-native tokenizer the simple ones are.

>>> NativeTokenizer("intl")("Hello, world!")
'Hello , world !'
"""

from __future__ import annotations

import functools

from mtalign._mtalign import tokenize as _native_tokenize


class BaseTokenizer:
    """A tokenizer: ``signature()`` and ``__call__(line) -> str``."""

    def signature(self) -> str:
        """The name in the signature."""
        raise NotImplementedError

    def __call__(self, line: str) -> str:
        raise NotImplementedError


class NativeTokenizer(BaseTokenizer):
    """mtalign's native tokenizer ``name``, tokens joined by single spaces."""

    def __init__(self, name: str) -> None:
        self._name = name

    def signature(self) -> str:
        return self._name

    @functools.lru_cache(maxsize=2**16)  # noqa: B019 - instances are few and long-lived
    def __call__(self, line: str) -> str:
        return " ".join(_native_tokenize(line, tokenize=self._name, lowercase=False))


__all__ = ["BaseTokenizer", "NativeTokenizer"]
