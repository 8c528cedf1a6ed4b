"""Type stubs of the native module (kept by hand; checked with mypy.stubtest)."""

from typing import Any, final

import numpy as np

__all__ = [
    "BleuCore",
    "ConfigError",
    "DcsCore",
    "ErrorRateCore",
    "InputError",
    "MtalignError",
    "NistCore",
    "RibesCore",
    "RougeCore",
    "__version__",
    "dcs",
    "default_threads",
    "edit_distance",
    "lcs_length",
    "lcs_length_dp",
    "ngram_overlap",
    "skip_bigram_overlap",
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

_Batch = tuple[np.ndarray, list[int], list[tuple[int, int]]]

@final
class BleuCore:
    def __new__(
        cls,
        max_order: int,
        smooth: str,
        smooth_value: float | None,
        ref_length: str,
        effective_order: bool,
        tokenize: str,
        lowercase: bool,
    ) -> BleuCore: ...
    @property
    def width(self) -> int: ...
    def score_texts(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_tokens(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray: ...
    def corpus(
        self, stats: np.ndarray
    ) -> tuple[float, float, list[float], float, float, list[float], list[float]]: ...

@final
class NistCore:
    def __new__(
        cls, max_order: int, corpus_weights: bool, tokenize: str, lowercase: bool
    ) -> NistCore: ...
    def score_texts(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_tokens(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def scores(self, stats: np.ndarray) -> tuple[np.ndarray, float]: ...

@final
class ErrorRateCore:
    def __new__(cls, kind: str, tokenize: str, lowercase: bool) -> ErrorRateCore: ...
    def score_texts(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_tokens(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...

@final
class RibesCore:
    def __new__(cls, alpha: float, beta: float, tokenize: str, lowercase: bool) -> RibesCore: ...
    def score_texts(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_tokens(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...

def edit_distance(a: list[int], b: list[int]) -> int: ...
