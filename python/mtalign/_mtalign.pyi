"""Type stubs of the native module (kept by hand; checked with mypy.stubtest)."""

from typing import Any, final

import numpy as np

__all__ = [
    "BleuCore",
    "CHOICES",
    "ChrfCore",
    "ConfigError",
    "DcsCore",
    "ErrorRateCore",
    "GtmCore",
    "InputError",
    "MeteorCore",
    "MtalignError",
    "NistCore",
    "OrangeTexts",
    "RibesCore",
    "RougeCore",
    "SiaCore",
    "TerCore",
    "TranslationTableCore",
    "WordSimilarityCore",
    "__version__",
    "_detached_seconds",
    "dcs",
    "default_threads",
    "edit_distance",
    "lcs_length",
    "lcs_length_dp",
    "ngram_overlap",
    "orange_ranks",
    "sacrebleu_bleu_lines",
    "skip_bigram_overlap",
    "stem",
    "tokenize",
    "wlcs",
]
__version__: str
CHOICES: dict[str, tuple[str, ...]]

class MtalignError(ValueError): ...
class ConfigError(MtalignError): ...
class InputError(MtalignError): ...

_Batch = tuple[np.ndarray, list[int], list[tuple[int, int]]]
_Matrices = tuple[list[np.ndarray], list[tuple[int, int]], list[tuple[int, int, int]]]

class _NativeMetric:
    """The methods every native metric has (``batch_pymethods!`` in src/batch.rs)."""

    def score_texts(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_tokens(self, hyps: Any, refs: Any, threads: int | None = None) -> _Batch: ...
    def score_one_ids(self, hyp: np.ndarray, refs: list[np.ndarray]) -> Any: ...
    def score_ids(
        self, hyps: tuple[np.ndarray, np.ndarray, np.ndarray],
        refs: tuple[np.ndarray, np.ndarray, np.ndarray], ref_ends: np.ndarray | None = None,
        threads: int | None = None, line_sep: int | None = None,
    ) -> _Batch: ...
    def score_matrix(
        self, hyps: Any, refs: Any = None, threads: int | None = None,
        scalar: int | None = None,
    ) -> _Batch: ...
    def score_matrices(
        self, blocks: Any, threads: int | None = None, scalar: int | None = None
    ) -> _Matrices: ...
    def row_scores(self, stats: np.ndarray, scalar: int = 0) -> np.ndarray | None: ...
    def set_scores(self, stats: np.ndarray, scalar: int = 0) -> np.ndarray | None: ...
    def result_of_row(self, row: list[float]) -> Any: ...
    def score_one(
        self, hyp: Any, refs: Any
    ) -> tuple[Any, list[int] | None, list[tuple[int, int]] | None]: ...
    def orange_scores(
        self, candidates: Any, refs: Any, threads: int | None = None, scalar: int = 0,
        group_cells: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray] | None: ...
    def orange_scores_of(
        self, texts: OrangeTexts, scalars: list[int], threads: int | None = None,
        group_cells: int | None = None,
    ) -> list[tuple[np.ndarray, np.ndarray]] | None: ...

@final
class OrangeTexts:
    """ORANGE's text lists read once for several metrics (``mtalign.orange_many``)."""

    def __new__(cls, candidates: Any, refs: Any) -> OrangeTexts: ...
    def __len__(self) -> int: ...

@final
class RougeCore(_NativeMetric):
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
        max_words: int | None = ...,
    ) -> RougeCore: ...

@final
class DcsCore(_NativeMetric):
    def __new__(cls, tokenize: str, lowercase: bool) -> DcsCore: ...

def _detached_seconds() -> float: ...
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
def orange_ranks(
    candidates: np.ndarray, cand_offsets: list[int], references: np.ndarray,
    ref_offsets: list[int], oracle: str, higher_is_better: bool, sizes: list[int],
) -> tuple[np.ndarray, np.ndarray]: ...

def stem(words: list[str], stemmer: str = "nltk_porter") -> list[str]: ...
def sacrebleu_bleu_lines(
    hyp: bytes, refs: list[bytes], max_order: int, smooth: str, smooth_value: float | None,
    effective_order: bool, tokenize: str, lowercase: bool, head: str, width: int,
    score_only: bool, threads: int | None = None,
) -> bytes: ...

# SIA
@final
class TranslationTableCore:
    @staticmethod
    def from_entries(entries: list[tuple[str, str, float]]) -> TranslationTableCore: ...
    @staticmethod
    def read(
        path: str, format: str, src_vcb: str | None = None, tgt_vcb: str | None = None
    ) -> TranslationTableCore: ...
    @staticmethod
    def train(
        src: list[str],
        tgt: list[str],
        iterations: int,
        src_tokenize: str,
        tgt_tokenize: str,
        lowercase: bool,
        min_prob: float,
        threads: int | None = None,
        progress: Any = None,
    ) -> TranslationTableCore: ...
    def prob(self, e: str, f: str) -> float: ...
    def entries(self) -> list[tuple[str, str, float]]: ...
    def __len__(self) -> int: ...

@final
class WordSimilarityCore:
    @staticmethod
    def from_pairs(pairs: Any) -> WordSimilarityCore: ...
    @staticmethod
    def from_translation_table(
        table: TranslationTableCore, top: int, min_prob: float, threads: int | None = None
    ) -> WordSimilarityCore: ...
    @staticmethod
    def load(path: str) -> WordSimilarityCore: ...
    @staticmethod
    def from_text(text: str) -> WordSimilarityCore: ...
    def to_text(self) -> str: ...
    def save(self, path: str) -> None: ...
    def lookup(self, mt_word: str, ref_word: str) -> float: ...
    def neighbors(self, word: str) -> list[tuple[str, float]]: ...
    def n_words(self) -> int: ...
    def n_entries(self) -> int: ...
    def same_as(self, other: WordSimilarityCore) -> bool: ...

@final
class SiaCore(_NativeMetric):
    def __new__(
        cls,
        alpha: float,
        decay: str,
        tokenize: str,
        lowercase: bool,
        similarity: WordSimilarityCore | None = None,
        max_words: int | None = None,
    ) -> SiaCore: ...
    def score_texts(
        self, hyps: Any, refs: Any, threads: int | None = None, naive: bool = False
    ) -> _Batch: ...
    def explain(
        self, hyp: Any, refs: Any, naive: bool = False
    ) -> tuple[
        float,
        float,
        float,
        list[float],
        list[tuple[int, float, float, list[tuple[int, int]]]],
        list[str],
        list[list[str]],
    ]: ...


@final
class BleuCore(_NativeMetric):
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
    def score_aggregate(
        self, hyps: Any, samples: Any, weights: list[float] | None = None,
        threads: int | None = None,
    ) -> np.ndarray: ...
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray: ...
    def corpus(
        self, stats: np.ndarray
    ) -> tuple[float, float, list[float], float, float, list[float], list[float]]: ...

@final
class ChrfCore(_NativeMetric):
    def __new__(
        cls,
        char_order: int,
        word_order: int,
        beta: float,
        lowercase: bool,
        whitespace: bool,
        eps_smoothing: bool,
    ) -> ChrfCore: ...
    def score_aggregate(
        self, hyps: Any, samples: Any, weights: list[float] | None = None,
        threads: int | None = None,
    ) -> np.ndarray: ...
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray: ...
    def corpus(self, stats: np.ndarray) -> float: ...

@final
class TerCore(_NativeMetric):
    def __new__(cls, case_sensitive: bool, ops: bool = False) -> TerCore: ...
    @staticmethod
    def explain_ids(
        hyp: list[int], ref_: list[int]
    ) -> tuple[list[tuple[int, int, int, list[int]]], list[int], str]: ...
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray: ...
    def corpus(self, stats: np.ndarray) -> tuple[float, float, float]: ...

@final
class NistCore(_NativeMetric):
    def __new__(
        cls, max_order: int, corpus_weights: bool, tokenize: str, lowercase: bool
    ) -> NistCore: ...
    def scores(self, stats: np.ndarray) -> tuple[np.ndarray, float]: ...

@final
class ErrorRateCore(_NativeMetric):
    def __new__(cls, kind: str, tokenize: str, lowercase: bool) -> ErrorRateCore: ...

@final
class RibesCore(_NativeMetric):
    def __new__(cls, alpha: float, beta: float, tokenize: str, lowercase: bool) -> RibesCore: ...

@final
class GtmCore(_NativeMetric):
    def __new__(
        cls, exponent: float, tokenize: str, lowercase: bool, max_words: int | None = None
    ) -> GtmCore: ...

@final
class MeteorCore(_NativeMetric):
    def __new__(
        cls, alpha: float, beta: float, gamma: float, stages: list[str], wordnet: str | None,
        tokenize: str,
    ) -> MeteorCore: ...
    @property
    def synonyms_on(self) -> bool: ...
    def synonyms(self, word: str) -> list[str]: ...
    @staticmethod
    def stem(word: str) -> str: ...

def edit_distance(a: list[int], b: list[int]) -> int: ...
