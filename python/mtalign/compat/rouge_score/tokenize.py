"""``rouge_score.tokenize``: rouge-score's tokenization, computed natively.

``tokenize(text, stemmer)`` lowercases with Python's ``lower()``, keeps the runs of
``[a-z0-9]`` and, when a stemmer is given, stems the tokens longer than 3 characters. nltk's
``PorterStemmer`` in its default mode (what rouge-score passes) is run natively; any other
object with a ``stem(word)`` method is called per token, and tokens it turns into something
outside ``[a-z0-9]+`` are dropped, as in rouge-score.

>>> from mtalign.compat.rouge_score import tokenize
>>> tokenize.tokenize("The friends had a Meeting!", None)
['the', 'friends', 'had', 'a', 'meeting']
"""

from __future__ import annotations

import re
from typing import Any

from mtalign._mtalign import stem as _native_stem
from mtalign._mtalign import tokenize as _native_tokenize

__all__ = ["tokenize"]

_VALID = re.compile(r"^[a-z0-9]+$")


def _is_nltk_default_porter(stemmer: Any) -> bool:
    cls = type(stemmer)
    return (cls.__module__ == "nltk.stem.porter" and cls.__name__ == "PorterStemmer"
            and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS")


def tokenize(text: str, stemmer: Any) -> list[str]:
    """The tokens of ``text`` as rouge-score's ``tokenize.tokenize(text, stemmer)`` gives them.

    >>> from nltk.stem import porter
    >>> tokenize("Running dogs ran", porter.PorterStemmer())
    ['run', 'dog', 'ran']
    """
    tokens = _native_tokenize(text, tokenize="rouge_score")
    if not stemmer:
        return tokens
    if _is_nltk_default_porter(stemmer):
        return _native_stem(tokens, stemmer="nltk_porter")
    stemmed = [str(stemmer.stem(t)) if len(t) > 3 else t for t in tokens]
    return [t for t in stemmed if _VALID.match(t)]
