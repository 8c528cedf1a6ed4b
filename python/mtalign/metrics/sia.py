"""SIA, stochastic iterative alignment (Liu & Gildea 2006), and its word-similarity tables.

The spec (the paper's pseudo-code repaired) is in ``docs/sia.md``: a monotone chain of matching
cells scored Σ w/√(gap_mt · gap_ref) from a virtual (0, 0), divided by |mt|; rounds over the
references with decaying weights; a length penalty.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from os import PathLike
from typing import Any, NamedTuple

import numpy as np

from mtalign._mtalign import (
    OPTIONS,
    ConfigError,
    InputError,
    NativeMetric,
    TranslationTableCore,
    WordSimilarityCore,
)
from mtalign.metrics.base import Metric
from mtalign.metrics.options import (
    CORE,
    DECAYS,
    TABLE_FORMATS,
    check_bool,
    check_threads,
    option,
)
from mtalign.metrics.results import CorpusResult, SiaResult, mean_result

__all__ = ["DECAYS", "DEFAULT_ALPHA", "DEFAULT_MAX_WORDS", "Sia", "SiaExplanation", "SiaResult",
           "SiaRound", "TABLE_FORMATS", "TranslationTable", "WordSimilarity"]

#: The default decay factor, chosen on half of ted21_zhen_mqm (see docs/sia.md).
DEFAULT_ALPHA: float = OPTIONS["sia"]["alpha"]["default"]


class TranslationTable:
    """A lexical translation table p(e|f): read from an aligner's output or trained (IBM-1).

    ``e`` is a word of the language whose similarity you want (the MT output's), ``f`` a word
    of the pivot language.

    Example:
        >>> t = TranslationTable.train(["学校 に 行く", "学校"], ["go to school", "school"],
        ...                            iterations=10)
        >>> round(t.prob("school", "学校"), 3)
        0.931
    """

    __slots__ = ("_core",)
    _core: TranslationTableCore

    def __init__(self, core: TranslationTableCore) -> None:
        self._core = core

    @classmethod
    def read(cls, path: str | PathLike[str], format: str = "tsv", *,
             src_vcb: str | PathLike[str] | None = None,
             tgt_vcb: str | PathLike[str] | None = None) -> TranslationTable:
        """Reads a table file.

        Formats: ``"tsv"`` (``e<TAB>f<TAB>p(e|f)``), ``"fast_align"`` (its ``-p`` output,
        ``f<TAB>e<TAB>ln p(e|f)``), ``"moses"`` (``lex.f2e``: ``e f p(e|f)``; ``lex.e2f`` gives
        the other language's table), ``"giza"`` (a GIZA++ t-table ``src_id tgt_id p(tgt|src)``
        with the run's source and target ``.vcb`` files; the target is e). NULL pivots are
        skipped. Malformed lines raise :class:`InputError` naming file and line.
        """
        return cls(TranslationTableCore.read(
            str(path), format, None if src_vcb is None else str(src_vcb),
            None if tgt_vcb is None else str(tgt_vcb)))

    @classmethod
    def train(cls, src: Sequence[str], tgt: Sequence[str], *, iterations: int = 5,
              src_tokenize: str = "whitespace", tgt_tokenize: str = "unicode",
              lowercase: bool = True, min_prob: float = 1e-3, threads: int | None = None,
              progress: Callable[[int, int, float], Any] | None = None) -> TranslationTable:
        """Trains IBM Model 1 by EM (with a NULL source word) on aligned sentences.

        ``src`` is the pivot language f (pre-tokenized text: ``src_tokenize="whitespace"``),
        ``tgt`` the language e of the MT outputs (tokenized like the scorer will). Entries with
        p(e|f) < ``min_prob`` are dropped from the result. ``progress(iteration, iterations,
        log_likelihood_per_word)`` is called after each iteration. Results do not depend on the
        thread count.
        """
        check_bool("lowercase", lowercase)
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ConfigError(f"iterations must be a positive int (got {iterations!r})")
        src, tgt = list(src), list(tgt)
        return cls(TranslationTableCore.train(src, tgt, iterations, src_tokenize, tgt_tokenize,
                                              lowercase, float(min_prob),
                                              check_threads(threads), progress))

    def prob(self, e: str, f: str) -> float:
        """p(e|f), 0.0 when the pair is not in the table."""
        return self._core.prob(e, f)

    def entries(self) -> list[tuple[str, str, float]]:
        """All (e, f, p(e|f)) entries."""
        return self._core.entries()

    def __len__(self) -> int:
        return len(self._core)

    def __repr__(self) -> str:
        return f"TranslationTable(entries={len(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its entries.
        return (_table_from_entries, (self.entries(),))


def _table_from_entries(entries: list[tuple[str, str, float]]) -> TranslationTable:
    return TranslationTable(TranslationTableCore.from_entries(entries))


class WordSimilarity:
    """Directed word similarity sim(mt_word, ref_word) for SIA's stochastic matching.

    From a translation table (eq. 3 of the paper): sim(e_i, e_j) = Σ_k p(e_i|f_k)·p(e_j|f_k),
    keeping each word's ``top`` (100) most similar words — itself included — renormalised to
    sum 1. Identical words are always 1; words outside the table are similar only to
    themselves.

    Saved format (:meth:`save`/:meth:`load`): UTF-8 text, first line
    ``mtalign-word-similarity 1``, then ``mt_word<TAB>ref_word<TAB>value`` lines (values in
    (0, 1], written in round-trip precision).

    Example:
        >>> s = WordSimilarity.from_pairs([("big", "large", 0.5)])
        >>> s.lookup("big", "large"), s.lookup("large", "big"), s.lookup("cat", "cat")
        (0.5, 0.0, 1.0)
    """

    __slots__ = ("_core", "_digest")
    _core: WordSimilarityCore
    _digest: str | None

    def __init__(self, core: WordSimilarityCore) -> None:
        self._core = core
        self._digest = None

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[str, str, float]]) -> WordSimilarity:
        """A table of explicit (mt_word, ref_word, value) triples; values must be in (0, 1]."""
        return cls(WordSimilarityCore.from_pairs(list(pairs)))

    @classmethod
    def from_translation_table(cls, table: TranslationTable, *, top: int = 100,
                               min_prob: float = 1e-3,
                               threads: int | None = None) -> WordSimilarity:
        """Eq. 3 from p(e|f); entries with p < ``min_prob`` are dropped first."""
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise ConfigError(f"top must be a positive int (got {top!r})")
        return cls(WordSimilarityCore.from_translation_table(table._core, top, float(min_prob),
                                                             check_threads(threads)))

    @classmethod
    def read(cls, path: str | PathLike[str], format: str = "tsv", *, top: int = 100,
             min_prob: float = 1e-3, src_vcb: str | PathLike[str] | None = None,
             tgt_vcb: str | PathLike[str] | None = None) -> WordSimilarity:
        """:meth:`TranslationTable.read` then :meth:`from_translation_table`."""
        table = TranslationTable.read(path, format, src_vcb=src_vcb, tgt_vcb=tgt_vcb)
        return cls.from_translation_table(table, top=top, min_prob=min_prob)

    @classmethod
    def train(cls, src: Sequence[str], tgt: Sequence[str], *, iterations: int = 5,
              top: int = 100, min_prob: float = 1e-3, **kwargs: Any) -> WordSimilarity:
        """:meth:`TranslationTable.train` (IBM-1) then :meth:`from_translation_table`."""
        table = TranslationTable.train(src, tgt, iterations=iterations, min_prob=min_prob,
                                       **kwargs)
        return cls.from_translation_table(table, top=top, min_prob=min_prob)

    @classmethod
    def load(cls, path: str | PathLike[str]) -> WordSimilarity:
        """Loads a table written by :meth:`save`; bad lines raise InputError (file, line)."""
        return cls(WordSimilarityCore.load(str(path)))

    def save(self, path: str | PathLike[str]) -> None:
        """Writes the table in the documented text format."""
        self._core.save(str(path))

    def lookup(self, mt_word: str, ref_word: str) -> float:
        """sim(mt_word, ref_word): 1 for identical words, 0 when absent."""
        return self._core.lookup(mt_word, ref_word)

    def neighbors(self, word: str) -> list[tuple[str, float]]:
        """The entries of ``word``'s row, most similar first (the word itself not listed)."""
        return self._core.neighbors(word)

    def __len__(self) -> int:
        return self._core.n_words()

    @property
    def n_entries(self) -> int:
        """Number of stored (mt_word, ref_word) entries."""
        return self._core.n_entries()

    def digest(self) -> str:
        """A short content hash (used in SIA's signature)."""
        if self._digest is None:
            text = self._core.to_text().encode("utf-8")
            object.__setattr__(self, "_digest", hashlib.sha256(text).hexdigest()[:12])
        return self._digest  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WordSimilarity) and self._core.same_as(other._core)

    def __hash__(self) -> int:
        return hash((len(self), self.n_entries))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_similarity_from_text, (self._core.to_text(),))

    def __repr__(self) -> str:
        return f"WordSimilarity(words={len(self)}, entries={self.n_entries})"


def _similarity_from_text(text: str) -> WordSimilarity:
    return WordSimilarity(WordSimilarityCore.from_text(text))


#: SIA's default size limit (``Sia(max_words=...)``): a pair with a text of more words, or
#: more than ``max_words² / 100`` pairs of identical words between its hypothesis and a
#: reference (4,000,000: a text that repeats its words), is refused before any work. SIA's
#: time grows faster than a pair's length; at the limit a pair takes at most about 6 s on one
#: core of the 2-core development machine (20,000 words a side of natural text: 1.6 s; one
#: word repeated 2,000 times a side: 4.9 s), past it minutes to hours.
DEFAULT_MAX_WORDS: int = OPTIONS["sia"]["max_words"]["default"]


def positive_words(value: int) -> int:
    """``max_words`` (the size limit of SIA, GTM and ROUGE) as given, or ConfigError below 1."""
    if value < 1:
        raise ConfigError(f"max_words must be a positive int or None (got {value!r})")
    return value


def _similarity(sim: WordSimilarity | None, sia: Any) -> str:
    """SIA's signature names the table by a hash of its content."""
    return "exact" if sim is None else f"table-{sim.digest()}"


class SiaRound(NamedTuple):
    """One alignment round: the reference chosen, its aligned (mt, ref) token positions
    (0-based), the round score (chain score / |mt|) and its weight."""

    reference: int
    pairs: list[tuple[int, int]]
    score: float
    weight: float


class SiaExplanation(NamedTuple):
    """Why a sentence scored what it did (see :meth:`Sia.explain`)."""

    score: float
    before_length_penalty: float
    length_penalty: float
    first_round_raw: list[float]
    rounds: list[SiaRound]
    mt_tokens: list[str]
    ref_tokens: list[list[str]]


class Sia(Metric[CorpusResult]):
    """SIA scorer (Liu & Gildea 2006), with the pseudo-code repaired as in ``docs/sia.md``.

    Each round aligns the MT output with every reference — the best monotone chain of matching
    words scoring Σ w/√((i−n)(j−p)) from a virtual (0, 0), divided by |mt| — keeps the best
    reference (lowest index on ties), adds its score × the round weight and blocks the aligned
    words; rounds stop when nothing matches. The sum is multiplied by the length penalty
    (1 if |mt| > mean reference length, else |mt| / mean).

    Args:
        alpha: decay factor in (0, 1] (default 0.35, chosen on ted21_zhen_mqm; docs/sia.md).
        decay: ``"figure"`` (weights α, α², α⁴, …: Figure 6's ``α ×= α``) or ``"geometric"``
            (α, α², α³, …).
        similarity: a :class:`WordSimilarity` for stochastic matching (None: exact matching).
        tokenize, lowercase: the tokenizer (any of :data:`~mtalign.metrics.options.TOKENIZERS`;
            pre-tokenized input is used verbatim) and lowercasing.
        max_words: the size limit of a pair (default :data:`DEFAULT_MAX_WORDS`, 20,000):
            SIA's time grows faster than the length, so a pair with a text over ``max_words``
            words, or over ``max_words² / 100`` identical-word pairs between its hypothesis
            and a reference, is refused up front with an :class:`~mtalign.InputError` naming
            it (``hyps[i]``, ``refs[i][j]``): split documents into sentences. ``None``: no
            limit. It never changes a score, so it is not in the signature.

    ``batch_score`` returns float64 (n,); ``sentence_score`` and ``corpus_score`` a
    :class:`~mtalign.CorpusResult` named ``SIA`` whose score is the mean of the sentence
    scores (the paper's system level); :meth:`statistics` has one column, the sentence score.

    Example:
        >>> sia = Sia(alpha=1.0)
        >>> round(float(sia.sentence_score("England with France discussed this crisis in London",
        ...     ["Britain and France consulted about this crisis in London with each other",
        ...      "England and France discussed the crisis in London"])), 4)
        0.5406
    """


    __slots__ = ()
    aggregation = "mean"

    native = "sia"
    alpha: float = option(default=CORE, sig="alpha")
    decay: str = option(default=CORE, sig="decay")
    similarity: WordSimilarity | None = option(default=CORE, kind=WordSimilarity, sig="sim",
                                               show=_similarity)
    tokenize: str = option(default=CORE, sig="tok")
    lowercase: bool = option(default=CORE, sig="lc")
    max_words: int | None = option(default=CORE, kw_only=True, convert=positive_words)

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        sim = c["similarity"]
        return self._native(c, similarity=None if sim is None else sim._core)

    def _check_token_ids(self, core: Any = None) -> None:
        raise ConfigError("Sia does not take token ids (give it text)")

    def _native_matrix(self, hyps: Sequence[Any], refs: Sequence[Any] | None) -> bool:
        # Matrices go through batches, which refuse a pair the fast search gives up on.
        return False

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return np.ascontiguousarray(rows.reshape(-1))

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """The mean of the sentence scores (the paper's system level)."""
        return mean_result("SIA", self, rows, n_empty_hyps, n_empty_refs, signature)

    def explain(self, hyp: Any, refs: Any) -> SiaExplanation:
        """The rounds behind one sentence's score: which reference each round used, the
        aligned token positions (0-based), the round score and weight.

        >>> e = Sia(alpha=1.0).explain("life is like one nice chocolate in box",
        ...                            "life is just like a box of tasty chocolate")
        >>> [(e.mt_tokens[i], j) for i, j in e.rounds[0].pairs]
        [('life', 0), ('is', 1), ('like', 3), ('box', 5)]
        >>> round(e.rounds[0].score, 4)
        0.3779
        """
        return self._explain(hyp, refs, naive=False)

    def _explain(self, hyp: Any, refs: Any, naive: bool) -> SiaExplanation:
        if isinstance(refs, str) or (refs and isinstance(hyp, (list, tuple))
                                     and isinstance(refs[0], str)):
            refs = [refs]
        if not isinstance(refs, (list, tuple)):
            raise InputError(f"refs must be a str or a list (got {type(refs).__name__})")
        score, before, lp, first, rounds, mt, rt = self._core.explain(hyp, list(refs), naive)
        return SiaExplanation(score, before, lp, list(first),
                              [SiaRound(r, [(int(i), int(j)) for i, j in pairs], s, w)
                               for r, s, w, pairs in rounds], mt, rt)
