"""Tokenizers (implemented in Rust) and the thread-count default.

>>> from mtalign import tokenize
>>> tokenize("Hello, World! 東京")
['hello', 'world', '東', '京']
>>> tokenize("Hello, World!", tokenize="whitespace", lowercase=False)
['Hello,', 'World!']
>>> tokenize("ab c", tokenize="char")
['a', 'b', 'c']
"""

from mtalign._mtalign import default_threads, tokenize

__all__ = ["default_threads", "tokenize"]
