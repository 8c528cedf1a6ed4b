"""Option names and value checks shared by several metrics.

>>> check_order(4)
4
>>> "13a" in WORD_TOKENIZERS
True
"""

from __future__ import annotations

from typing import Any

from mtalign._mtalign import ConfigError
from mtalign.metrics.inputs import check_bool

#: Word tokenizers every baseline accepts; "13a" (sacrebleu's default) is the default.
WORD_TOKENIZERS = ("13a", "intl", "unicode", "whitespace", "char")


def check_tokenizer(tokenize: Any, lowercase: Any) -> None:
    if tokenize not in WORD_TOKENIZERS:
        raise ConfigError(f"unknown tokenizer {tokenize!r} (choose from: "
                          f"{', '.join(WORD_TOKENIZERS)})")
    check_bool("lowercase", lowercase)


def check_number(name: str, value: Any, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= minimum:
        raise ConfigError(f"{name} must be a number >= {minimum:g} (got {value!r})")
    return float(value)


def check_order(value: Any, maximum: int = 12) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ConfigError(f"max_order must be an int between 1 and {maximum} (got {value!r})")
    return value
