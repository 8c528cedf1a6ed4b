"""Tokenizers (implemented in Rust) and the thread-count default.

>>> from mtalign import tokenize
>>> tokenize("Hello, World! 東京")
['hello', 'world', '東', '京']
>>> tokenize("Hello, World!", tokenize="whitespace", lowercase=False)
['Hello,', 'World!']
>>> tokenize("ab c", tokenize="char")
['a', 'b', 'c']
>>> tokenize("Café owners' 100-mile trip", tokenize="rouge155")
['caf', 'owners', '100', 'mile', 'trip']

``stem`` stems words as a ROUGE profile does (words of 3 characters or fewer are kept):
``"rouge155"`` (ROUGE-1.5.5's ``MorphStem``: WordNet 2.0 exceptions, then the Porter stemmer
inside ROUGE-1.5.5.pl) or ``"nltk_porter"``
(nltk's PorterStemmer, default mode, as rouge-score uses it).

>>> from mtalign import stem
>>> stem(["monday", "went", "agreement", "running"], stemmer="rouge155")
['mondai', 'go', 'agreem', 'run']
>>> stem(["monday", "went", "agreement", "running"], stemmer="nltk_porter")
['monday', 'went', 'agreement', 'run']
"""

from mtalign._mtalign import default_threads, stem, tokenize

__all__ = ["default_threads", "stem", "tokenize"]
