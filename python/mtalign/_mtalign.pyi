"""Type stubs of the native module (kept by hand; checked with mypy.stubtest)."""

from typing import Any, final

import numpy as np

__all__ = [
    "ConfigError",
    "DcsCore",
    "InputError",
    "MtalignError",
    "RougeCore",
    "__version__",
    "dcs",
    "default_threads",
    "lcs_length",
    "lcs_length_dp",
    "ngram_overlap",
    "skip_bigram_overlap",
    "stem",
    "tokenize",
    "wlcs",
]
__version__: str

class MtalignError(ValueError): ...
class ConfigError(MtalignError): ...
class InputError(MtalignError): ...

@final
class RougeCore:
    def __new__(
        cls,
        variants: list[str],
        tokenize: str,
        lowercase: bool,
        beta: float,
        multi_ref: str,
        jackknife: bool,
        compat: str,
        stem: str | None = None,
    ) -> RougeCore: ...
    def score_texts(
        self, hyps: Any, refs: Any, threads: int | None = None
    ) -> tuple[np.ndarray, list[int], list[tuple[int, int]]]: ...
    def score_tokens(
        self, hyps: Any, refs: Any, threads: int | None = None
    ) -> tuple[np.ndarray, list[int], list[tuple[int, int]]]: ...

@final
class DcsCore:
    def __new__(cls, tokenize: str, lowercase: bool) -> DcsCore: ...
    def score_texts(
        self, hyps: Any, refs: Any, threads: int | None = None
    ) -> tuple[np.ndarray, list[int], list[tuple[int, int]]]: ...
    def score_tokens(
        self, hyps: Any, refs: Any, threads: int | None = None
    ) -> tuple[np.ndarray, list[int], list[tuple[int, int]]]: ...

def dcs(x: list[int], y: list[int]) -> tuple[float, float, float, float]: ...
def tokenize(text: str, tokenize: str = "unicode", lowercase: bool = True) -> list[str]: ...
def lcs_length(a: list[int], b: list[int]) -> int: ...
def lcs_length_dp(a: list[int], b: list[int]) -> int: ...
def wlcs(x: list[int], y: list[int], weight: float) -> float: ...
def ngram_overlap(hyp: list[int], reference: list[int], n: int) -> tuple[int, int, int]: ...
def skip_bigram_overlap(
    hyp: list[int], reference: list[int], max_gap: int | None = None, unigrams: bool = False
) -> tuple[int, int, int]: ...
def default_threads() -> int: ...

def stem(words: list[str], stemmer: str = "nltk_porter") -> list[str]: ...
