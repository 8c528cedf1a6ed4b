"""BLEU and smoothed sentence BLEU (BLEUS), from per-sentence sufficient statistics.

Scores are on sacrebleu's 0-100 scale. Corpus BLEU is computed from statistics summed over
sentences (true corpus BLEU, as sacrebleu), so :meth:`Bleu.statistics` +
:meth:`Bleu.corpus_from_statistics` make bootstrap resampling cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._baseline import WORD_TOKENIZERS, check_order, check_tokenizer
from mtalign._batch import check_bool, nrefs, run_batch, single_refs
from mtalign._metric import SingleScoreMetric
from mtalign._mtalign import BleuCore, ConfigError
from mtalign._mtalign import __version__ as _native_version

SMOOTHINGS = ("none", "floor", "add-k", "exp", "add1", "method1", "method2", "method3",
              "method4", "method5", "method6", "method7")
REF_LENGTHS = ("closest", "shortest", "average")
_DEFAULT_VALUE = {"floor": 0.1, "add-k": 1.0, "method1": 0.1, "method4": 5.0, "method6": 5.0,
                  "method7": 5.0}


class BleuResult:
    """A BLEU score with its sufficient statistics (sacrebleu's ``BLEUScore`` fields).

    Attributes:
        score: BLEU, 0-100.
        counts / totals: clipped n-gram matches and hypothesis n-grams per order (raw: the
            ``add-k`` smoothing's k is not added in).
        precisions: the (smoothed) precision of each order used in the score, in percent.
        bp: brevity penalty. ratio: sys_len / ref_len.
        sys_len / ref_len: hypothesis and (chosen) reference lengths, summed.
        per_sentence: (n,) array, the BLEU of each sentence's own statistics row.
        n_sentences, n_empty_hyps, n_empty_refs, signature: as for ROUGE.
    """

    __slots__ = ("score", "counts", "totals", "precisions", "bp", "ratio", "sys_len",
                 "ref_len", "per_sentence", "n_sentences", "n_empty_hyps", "n_empty_refs",
                 "signature")
    score: float
    counts: list[int]
    totals: list[int]
    precisions: list[float]
    bp: float
    ratio: float
    sys_len: float
    ref_len: float
    per_sentence: np.ndarray
    n_sentences: int
    n_empty_hyps: int
    n_empty_refs: int
    signature: str

    def __init__(self, figures: tuple[Any, ...], per_sentence: np.ndarray, n_empty_hyps: int,
                 n_empty_refs: int, signature: str) -> None:
        score, bp, precisions, sys_len, ref_len, counts, totals = figures
        self.score = float(score)
        self.bp = float(bp)
        self.precisions = [float(p) for p in precisions]
        self.sys_len = int(sys_len) if float(sys_len).is_integer() else float(sys_len)
        self.ref_len = int(ref_len) if float(ref_len).is_integer() else float(ref_len)
        self.counts = [int(c) for c in counts]
        self.totals = [int(t) for t in totals]
        self.ratio = self.sys_len / self.ref_len if self.ref_len else 0.0
        self.per_sentence = per_sentence
        self.n_sentences = int(per_sentence.shape[0])
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self.signature = signature

    def __float__(self) -> float:
        return self.score

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        return f"BleuResult(score={self.score:.4f}, n={self.n_sentences})"

    def __str__(self) -> str:
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (f"BLEU = {self.score:.2f} {prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
                f"hyp_len = {self.sys_len} ref_len = {self.ref_len})")


class Bleu(SingleScoreMetric):
    """BLEU-N with sacrebleu's and nltk's smoothings; BLEUS (Lin & Och 2004) by default.

    Args:
        max_order: the longest n-gram, 1 to 12 (BLEU1..BLEU12, BLEUS1..BLEUS12).
        smooth: ``"add1"`` (default; Lin & Och's BLEUS: add one to the matches and totals of
            every order n >= 2, nltk's method2), sacrebleu's ``"none"``, ``"floor"``,
            ``"add-k"``, ``"exp"``, or Chen & Cherry (2014) ``"method1"`` .. ``"method7"``
            as nltk numbers and implements them.
        tokenize: ``"13a"`` (sacrebleu's default), ``"intl"``, or mtalign's ``"unicode"``,
            ``"whitespace"``, ``"char"``. Pre-tokenized input bypasses it.
        lowercase: lowercase (Python ``str.lower``) before tokenizing.
        effective_order: sacrebleu smoothings: stop at the last order the hypothesis has
            n-grams of (sacrebleu's ``sentence_bleu`` turns this on); nltk smoothings: use
            weights 1/n over those orders only (nltk's ``auto_reweigh``).
        smooth_value: the parameter of ``floor`` (0.1), ``add-k`` (1), ``method1`` (epsilon,
            0.1), ``method4``/``method7`` (k, 5), ``method6`` (alpha, 5); > 0, or 0 for
            ``floor`` and ``add-k`` (as sacrebleu).
        ref_length: the reference length for the brevity penalty: ``"closest"`` (ties go to
            the shorter), ``"shortest"`` or ``"average"``.

    Hypotheses shorter than n: ``"add-k"`` scores the missing order k/k (sacrebleu) while
    ``"add1"`` scores it 1/2 (nltk's method2 takes max(1, 0) = 1 as the total); ``"none"``
    and ``"floor"`` score 0 unless ``effective_order``; ``"exp"`` likewise. An empty
    hypothesis scores 0 under every smoothing. Multi-reference clipping uses the maximum
    count of each n-gram over the references.

    Method 5 and 7 average each order with the next one: they count order max_order + 1
    (nltk always uses order 5, the same thing for the default max_order=4). Method 6 is
    computed where nltk refuses (it asserts a non-zero trigram precision).

    Example:
        >>> b = Bleu(max_order=2, smooth="add1", tokenize="whitespace")
        >>> round(b.sentence_score("the cat sat", ["the cat sat down"]).score, 4)
        71.6531
    """

    __slots__ = ("_max_order", "_smooth", "_tokenize", "_lowercase", "_effective_order",
                 "_smooth_value", "_ref_length", "_core")
    _max_order: int
    _smooth: str
    _tokenize: str
    _lowercase: bool
    _effective_order: bool
    _smooth_value: float | None
    _ref_length: str
    _core: BleuCore

    higher_is_better = True

    def __init__(self, max_order: int = 4, smooth: str = "add1", tokenize: str = "13a",
                 lowercase: bool = False, effective_order: bool = False, *,
                 smooth_value: float | None = None, ref_length: str = "closest") -> None:
        check_order(max_order)
        if smooth not in SMOOTHINGS:
            raise ConfigError(f"unknown smoothing {smooth!r} (choose from: "
                              f"{', '.join(SMOOTHINGS)})")
        if ref_length not in REF_LENGTHS:
            raise ConfigError(f"unknown ref_length {ref_length!r} (choose from: "
                              f"{', '.join(REF_LENGTHS)})")
        check_tokenizer(tokenize, lowercase)
        check_bool("effective_order", effective_order)
        if smooth_value is not None and (isinstance(smooth_value, bool)
                                         or not isinstance(smooth_value, (int, float))):
            raise ConfigError(f"smooth_value must be a number (got {smooth_value!r})")
        value = None if smooth_value is None else float(smooth_value)
        core = BleuCore(max_order, smooth, value, ref_length, effective_order, tokenize,
                        lowercase)
        self._init_slots(_max_order=max_order, _smooth=smooth, _tokenize=tokenize,
                         _lowercase=lowercase, _effective_order=effective_order,
                         _smooth_value=value, _ref_length=ref_length, _core=core)

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {"max_order": self._max_order, "smooth": self._smooth,
                "tokenize": self._tokenize, "lowercase": self._lowercase,
                "effective_order": self._effective_order, "smooth_value": self._smooth_value,
                "ref_length": self._ref_length}

    def __repr__(self) -> str:
        return "Bleu(" + ", ".join(f"{k}={v!r}" for k, v in self.config().items()) + ")"

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature of every option and the version.

        >>> Bleu().signature(1)
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:add1|order:4|ref_len:closest|version:0.1.0'
        >>> Bleu(smooth="add-k").signature()
        'case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|order:4|ref_len:closest|version:0.1.0'
        """
        smooth = self._smooth
        if smooth in _DEFAULT_VALUE:
            value = self._smooth_value
            smooth += f"[{_DEFAULT_VALUE[smooth] if value is None else value:.2f}]"
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        parts += [f"case:{'lc' if self._lowercase else 'mixed'}",
                  f"eff:{'yes' if self._effective_order else 'no'}",
                  f"tok:{self._tokenize}", f"smooth:{smooth}", f"order:{self._max_order}",
                  f"ref_len:{self._ref_length}", f"version:{_native_version}"]
        return "|".join(parts)

    def scalar_names(self) -> tuple[str, ...]:
        """``("bleu",)``."""
        return ("bleu",)

    def _stats(self, hyps: Any, refs: Any, threads: int | None):
        return run_batch(self._core, hyps, refs, threads, self._tokenize)

    def statistics(self, hyps: Sequence[Any], refs: Sequence[Any],
                   threads: int | None = None) -> np.ndarray:
        """Per-sentence sufficient statistics, shape (n, width): hyp_len, ref_len, then
        matches, totals and nltk's denominators max(1, total) for each order. Rows add up:
        pass any subset or resample to :meth:`corpus_from_statistics`.

        >>> Bleu(max_order=1, tokenize="whitespace").statistics(["a b"], ["a c"]).tolist()
        [[2.0, 2.0, 1.0, 2.0, 2.0]]
        """
        arr, _, _, _ = self._stats(hyps, refs, threads)
        return np.ascontiguousarray(arr)

    def corpus_from_statistics(self, stats: np.ndarray) -> BleuResult:
        """Corpus BLEU of the summed rows of :meth:`statistics`.

        >>> b = Bleu(smooth="none", tokenize="whitespace")
        >>> s = b.statistics(["a b c d", "e f"], ["a b c d", "e g"])
        >>> round(b.corpus_from_statistics(s[[0, 0]]).score, 6)
        100.0
        """
        stats = np.ascontiguousarray(stats, dtype=np.float64)
        if stats.ndim != 2:
            raise ConfigError("stats must be a 2-D array of statistics rows")
        return self._result(stats, 0, 0, self.signature())

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """Sentence BLEU of each ``hyps[i]`` against ``refs[i]`` (str or list of str), (n,).

        >>> Bleu(tokenize="whitespace").batch_score(["a b c d", "x"], ["a b c d", "y"]).tolist()
        [100.0, 0.0]
        """
        return self._core.sentence_scores(self.statistics(hyps, refs, threads))

    # Like sacrebleu, the full result (score, counts, BP), not a float.
    def sentence_score(self, hyp: Any, refs: Any) -> BleuResult:  # type: ignore[override]
        """BLEU of one hypothesis against one reference (str) or several (list of str).

        >>> r = Bleu(smooth="exp", tokenize="13a").sentence_score("Hello, world!", "Hello world!")
        >>> r.counts, r.totals
        ([3, 1, 0, 0], [4, 3, 2, 1])
        """
        arr, nh, nr, _ = self._stats([hyp], [single_refs(hyp, refs)], None)
        nref = 1 if isinstance(refs, str) else len(refs)
        return self._result(np.ascontiguousarray(arr), nh, nr, self.signature(nref))

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None) -> BleuResult:
        """Corpus BLEU from statistics summed over sentences (sacrebleu's ``corpus_bleu``).

        >>> b = Bleu(smooth="none", tokenize="whitespace")
        >>> print(b.corpus_score(["a b c d e"], [["a b c d x", "a b c d"]]))
        BLEU = 66.87 80.0/75.0/66.7/50.0 (BP = 1.000 ratio = 1.000 hyp_len = 5 ref_len = 5)
        """
        arr, nh, nr, refs = self._stats(hyps, refs, threads)
        return self._result(np.ascontiguousarray(arr), nh, nr, self.signature(nrefs(refs)))

    def _result(self, stats: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: str) -> BleuResult:
        """Corpus figures of the summed rows, with each row's sentence BLEU."""
        return BleuResult(self._core.corpus(stats), self._core.sentence_scores(stats),
                          n_empty_hyps, n_empty_refs, signature)


__all__ = ["Bleu", "BleuResult", "REF_LENGTHS", "SMOOTHINGS", "WORD_TOKENIZERS"]
