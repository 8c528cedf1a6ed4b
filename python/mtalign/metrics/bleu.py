"""BLEU (sacrebleu's by default) and Lin & Och's BLEUS, from per-sentence sufficient statistics.

``Bleu()`` is sacrebleu 2.6.0's BLEU: its ``corpus_score`` is ``sacrebleu.corpus_bleu`` and
its sentence-level calls are ``sacrebleu.sentence_bleu`` (exp smoothing, effective order).
``Bleu.bleus(n)`` is BLEUS-n (add-one smoothing, nltk's method2). Scores are on sacrebleu's
0-100 scale. Corpus BLEU is computed from statistics summed over
sentences (true corpus BLEU, as sacrebleu), so :meth:`Bleu.statistics` +
:meth:`Bleu.corpus_from_statistics` make bootstrap resampling cheap.

>>> float(Bleu(tokenize="whitespace").sentence_score("a b c d", "a b c d"))  # as sacrebleu
100.00000000000004
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from mtalign._mtalign import ConfigError, NativeMetric
from mtalign.metrics.base import Metric
from mtalign.metrics.external_tokenizers import (
    EXTERNAL_TOKENIZERS,
    TOKENIZER_FOR_LANG,
    external_tokenizer,
    tokenized_input,
)
from mtalign.metrics.options import CORE, REF_LENGTHS, SMOOTHINGS, TOKENIZERS, case, option
from mtalign.metrics.results import BleuResult, bleu_figures, sentence_bleu_result
from mtalign.token_ids import is_token_ids

_DEFAULT_VALUE = {"floor": 0.1, "add-k": 1.0, "method1": 0.1, "method4": 5.0, "method6": 5.0,
                  "method7": 5.0}


def _smoothing(smooth: str, bleu: Any) -> str:
    """The smoothing in the signature, with its parameter where it has one."""
    if smooth in _DEFAULT_VALUE:
        value = bleu.smooth_value
        smooth += f"[{_DEFAULT_VALUE[smooth] if value is None else value:.2f}]"
    return smooth


def _tok(value: str, bleu: Any) -> str:
    """The tokenizer in the signature: sacrebleu's signature of an external one."""
    if value in EXTERNAL_TOKENIZERS:
        return external_tokenizer(value, bleu.spm_model).signature
    return value


#: sacrebleu's smoothings: with ``effective_order=None`` they use the effective order at
#: sentence level, as ``sacrebleu.sentence_bleu`` does (nltk's never do, as nltk's default).
SACREBLEU_SMOOTHINGS = ("none", "floor", "add-k", "exp")


def sentence_effective_order(effective_order: bool | None, smooth: str) -> bool:
    """Whether sentence-level scores use the effective order: ``effective_order`` when given;
    ``None``: as the smoothing's home package does at sentence level (sacrebleu's
    ``sentence_bleu``: yes; nltk's ``sentence_bleu``, ``auto_reweigh=False``: no).

    >>> sentence_effective_order(None, "exp"), sentence_effective_order(None, "add1")
    (True, False)
    >>> sentence_effective_order(False, "exp")
    False
    """
    if effective_order is None:
        return smooth in SACREBLEU_SMOOTHINGS
    return effective_order


def _path(value: Any) -> str:
    try:
        return os.fspath(value)
    except TypeError:
        raise ConfigError(f"spm_model must be a path (got {type(value).__name__})") from None


class Bleu(Metric[BleuResult]):
    """BLEU-N with sacrebleu's and nltk's smoothings; ``Bleu()`` is sacrebleu's BLEU.

    ``Bleu()`` equals sacrebleu 2.6.0: ``corpus_score`` is ``sacrebleu.corpus_bleu`` and
    ``sentence_score``, ``batch_score``, ``scalar_scores`` (and what ranks by them: ORANGE,
    reranking, MBR) are ``sacrebleu.sentence_bleu``: exp smoothing with the effective order.
    Lin & Och's BLEUS-n (add-one smoothing) is :meth:`bleus` (``bleus4`` on the command line).

    Args:
        max_order: the longest n-gram, 1 to 12 (BLEU1..BLEU12, BLEUS1..BLEUS12).
        smooth: ``"exp"`` (default, sacrebleu's), sacrebleu's ``"none"``, ``"floor"``,
            ``"add-k"``; ``"add1"`` (Lin & Och's BLEUS: add one to the matches and totals of
            every order n >= 2, nltk's method2), or Chen & Cherry (2014) ``"method1"`` ..
            ``"method7"`` as nltk numbers and implements them.
        tokenize: ``"13a"`` (sacrebleu's default) or any of
            :data:`~mtalign.metrics.options.TOKENIZERS`, or sacrebleu's ``"ja-mecab"``,
            ``"ko-mecab"``, ``"spm"``, ``"flores101"``, ``"flores200"`` (optional packages,
            see :mod:`mtalign.metrics.external_tokenizers`). ``None`` (default): chosen by
            ``trg_lang`` as sacrebleu does. Pre-tokenized input bypasses it.
        lowercase: lowercase (Python ``str.lower``) before tokenizing.
        effective_order: sacrebleu smoothings: stop at the last order the hypothesis has
            n-grams of; nltk smoothings: use weights 1/n over those orders only (nltk's
            ``auto_reweigh``). ``None`` (default): as the smoothing's package does, so the
            corpus score never uses it (``corpus_bleu``) and sentence-level scores use it
            with sacrebleu's smoothings (``sentence_bleu``), not with nltk's. ``True`` /
            ``False``: at both levels. The signature shows what its numbers used: ``eff:no``
            on a corpus result, ``eff:yes`` on a sentence result of a sacrebleu smoothing.
        smooth_value: the parameter of ``floor`` (0.1), ``add-k`` (1), ``method1`` (epsilon,
            0.1), ``method4``/``method7`` (k, 5), ``method6`` (alpha, 5); > 0, or 0 for
            ``floor`` and ``add-k`` (as sacrebleu).
        ref_length: the reference length for the brevity penalty: ``"closest"`` (ties go to
            the shorter), ``"shortest"`` or ``"average"``.
        trg_lang: the target language; with ``tokenize=None`` it picks sacrebleu's
            tokenizer: ``zh`` for ``"zh"``, ``ja-mecab`` for ``"ja"``, ``ko-mecab`` for
            ``"ko"``, ``13a`` otherwise.
        spm_model: the local SentencePiece model file for ``spm`` / ``flores101`` /
            ``flores200`` (never downloaded).

    Hypotheses shorter than n: ``"add-k"`` scores the missing order k/k (sacrebleu) while
    ``"add1"`` scores it 1/2 (nltk's method2 takes max(1, 0) = 1 as the total); ``"none"``,
    ``"floor"`` and ``"exp"`` score 0 unless the effective order is used (by default at
    sentence level). An empty
    hypothesis scores 0 under every smoothing. Multi-reference clipping uses the maximum
    count of each n-gram over the references.

    Method 5 and 7 average each order with the next one: they count order max_order + 1
    (nltk always uses order 5, the same thing for the default max_order=4). Method 6 is
    computed where nltk refuses (it asserts a non-zero trigram precision).

    ``batch_score`` returns each sentence's BLEU, float64 (n,); ``sentence_score``,
    ``corpus_score`` and ``corpus_from_statistics`` return a :class:`~mtalign.BleuResult`
    (``corpus_from_statistics`` and ``scores_from_statistics`` are corpus-level: rows are a
    corpus, or resampled corpora).
    :meth:`statistics` rows are hyp_len, ref_len, then matches, totals and nltk's denominators
    max(1, total) for each order; corpus BLEU is computed from their sum (sacrebleu's
    ``corpus_bleu``), so any subset or resample of rows gives that subset's corpus BLEU.

    Example:
        >>> print(Bleu().sentence_score("The cat sat", ["The cat sat down"]))  # sentence_bleu
        BLEU = 71.65 100.0/100.0/100.0/0.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)
        >>> print(Bleu().corpus_score(["The cat sat"], [["The cat sat down"]]))  # corpus_bleu
        BLEU = 0.00 100.0/100.0/100.0/0.0 (BP = 0.717 ratio = 0.750 hyp_len = 3 ref_len = 4)
        >>> b = Bleu.bleus(2, tokenize="whitespace")  # BLEUS2: add-one smoothing
        >>> round(b.sentence_score("the cat sat", ["the cat sat down"]).score, 4)
        71.6531
        >>> Bleu(tokenize="whitespace").batch_score(["a b c d", "x"], ["a b c d", "y"])
        Scores([100.,   0.], columns=('score',))
        >>> print(Bleu(smooth="none", tokenize="whitespace").corpus_score(
        ...     ["a b c d e"], [["a b c d x", "a b c d"]]))
        BLEU = 66.87 80.0/75.0/66.7/50.0 (BP = 1.000 ratio = 1.000 hyp_len = 5 ref_len = 5)
        >>> r = Bleu(smooth="exp", tokenize="13a").sentence_score("Hello, world!", "Hello world!")
        >>> r.counts, r.totals
        ([3, 1, 0, 0], [4, 3, 2, 1])
        >>> Bleu(max_order=1, tokenize="whitespace").statistics(["a b"], ["a c"]).tolist()
        [[2.0, 2.0, 1.0, 2.0, 2.0]]
        >>> b = Bleu(smooth="none", tokenize="whitespace")
        >>> s = b.statistics(["a b c d", "e f"], ["a b c d", "e g"])
        >>> round(b.corpus_from_statistics(s[[0, 0]]).score, 6)
        100.0
        >>> Bleu().signature(1)
        'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|order:4|ref_len:closest|version:0.1.0'
        >>> Bleu().sentence_score("a b", "a b").signature.split("|")[2]
        'eff:yes'
        >>> Bleu(smooth="add-k").signature()
        'case:mixed|eff:no|tok:13a|smooth:add-k[1.00]|order:4|ref_len:closest|version:0.1.0'
        >>> Bleu(trg_lang="zh").tokenize, Bleu(trg_lang="de").tokenize
        ('zh', '13a')
        >>> b = Bleu(trg_lang="ja")  # sacrebleu's BLEU(trg_lang="ja")
        >>> b.signature(1).split("|")[3]
        'tok:ja-mecab-0.996-IPA'
        >>> print(b.sentence_score("今日は良い天気です。", "今日は天気が良いです。"))
        BLEU = 21.51 100.0/40.0/12.5/8.3 (BP = 0.846 ratio = 0.857 hyp_len = 6 ref_len = 7)
    """


    # _corpus_core: the native object of corpus figures (the same as _core unless the
    # effective order differs between levels); _sentence_twin: this BLEU with the effective
    # order resolved, made when a sentence result's signature is first read.
    __slots__ = ("_corpus_core", "_sentence_twin")
    if TYPE_CHECKING:  # typed as properties: a class annotation would be an option to mypy
        @property
        def _corpus_core(self) -> Any: ...
        @property
        def _sentence_twin(self) -> Bleu: ...

    aggregation = "sum"

    native = "bleu"
    max_order: int = option(default=CORE, sig="order")
    smooth: str = option(default=CORE, sig="smooth", show=_smoothing)
    tokenize: str | None = option(default=None, doc="the tokenizer (None: by trg_lang)", kind=str,
                           choices=TOKENIZERS + EXTERNAL_TOKENIZERS, sig="tok", show=_tok)
    lowercase: bool = option(default=CORE, sig="case", show=case)
    effective_order: bool | None = option(
        default=None, kind=bool, sig="eff",
        doc="stop at the hypothesis's longest order (None: at sentence level with sacrebleu's "
            "smoothings, as sacrebleu)")
    smooth_value: float | None = option(default=CORE, kw_only=True)
    ref_length: str = option(default=CORE, kw_only=True, sig="ref_len")

    trg_lang: str = option(default="", doc="target language (picks the default tokenizer)",
                           kw_only=True)
    spm_model: str | None = option(default=None, doc="local SentencePiece model file",
                                   kw_only=True, convert=_path)

    signature_fields = ("lowercase", "effective_order", "tokenize", "smooth", "max_order",
                        "ref_length")

    def _complete(self, c: dict[str, Any]) -> None:
        if c["tokenize"] is None:
            c["tokenize"] = TOKENIZER_FOR_LANG.get(c["trg_lang"], "13a")
        if c["spm_model"] is not None and c["tokenize"] not in ("spm", "flores101", "flores200"):
            raise ConfigError("spm_model is only used with tokenize='spm', 'flores101' or "
                              f"'flores200' (tokenize={c['tokenize']!r})")
        if c["tokenize"] in EXTERNAL_TOKENIZERS:  # a missing package is named now
            external_tokenizer(c["tokenize"], c["spm_model"])

    @classmethod
    def bleus(cls, n: int = 4, **options: Any) -> Bleu:
        """Lin & Och's (2004) BLEUS-n: ``Bleu(max_order=n, smooth="add1", **options)`` (add
        one to the matches and totals of every order >= 2; nltk's method2). ``bleus<N>`` on
        the command line.

        >>> Bleu.bleus() == Bleu(max_order=4, smooth="add1")
        True
        >>> round(float(Bleu.bleus(4).sentence_score("a b c", "a b c")), 4)
        84.0896
        """
        return cls(n, smooth="add1", **options)

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        # The returned object scores sentences (its effective order resolved for sentence
        # level); the corpus figures come from _corpus_core, the same object unless the
        # effective order differs between the levels (None with a sacrebleu smoothing).
        sentence = sentence_effective_order(c["effective_order"], c["smooth"])
        core = self._bleu_core(c, sentence)
        corpus = bool(c["effective_order"])
        object.__setattr__(self, "_corpus_core",
                           core if corpus == sentence else self._bleu_core(c, corpus))
        return core

    def _bleu_core(self, c: dict[str, Any], effective_order: bool) -> NativeMetric:
        if c["tokenize"] in EXTERNAL_TOKENIZERS:
            # Tokenized (and lowercased) in Python; split as sacrebleu splits its output.
            return self._native(c, effective_order=effective_order, tokenize="split",
                                lowercase=False)
        return self._native(c, effective_order=effective_order)

    def at_sentence_level(self) -> Bleu:
        """This BLEU as its sentence-level calls compute it: ``effective_order`` resolved
        (the object itself when it is given). Its signature is a sentence result's.

        >>> Bleu().at_sentence_level().effective_order, Bleu.bleus().at_sentence_level()
        (True, Bleu(max_order=4, smooth='add1', tokenize='13a', lowercase=False, \
effective_order=False, smooth_value=None, ref_length='closest', trg_lang='', spm_model=None))
        """
        c = self._config
        if c["effective_order"] is not None:
            return self
        try:
            return self._sentence_twin
        except AttributeError:
            twin = Bleu(**{**c, "effective_order": sentence_effective_order(None, c["smooth"])})
            object.__setattr__(self, "_sentence_twin", twin)
            return twin

    def _external(self) -> Any:
        c = self._config
        if c["tokenize"] in EXTERNAL_TOKENIZERS:
            return external_tokenizer(c["tokenize"], c["spm_model"])
        return None

    def _rewrites_input(self) -> bool:
        return self._external() is not None

    def _tokenizer_name(self) -> str:
        return str(self._config["tokenize"])

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        tok = None if is_token_ids(hyps) else self._external()
        if tok is not None:
            hyps, refs = tokenized_input(tok, self._config["lowercase"], hyps, refs)
        return super()._run(hyps, refs, threads, core)

    def _one_call(self, core: Any) -> Any:
        """The native one-pair call (it returns the pair's corpus figures, not its row);
        with an external tokenizer, the text is tokenized first (the tokenizer is loaded at
        the first call, as for batches)."""
        native = core.score_one
        if self._config["tokenize"] not in EXTERNAL_TOKENIZERS:
            return native
        lowercase = self._config["lowercase"]

        def tokenized_one(hyp: Any, refs: Any) -> Any:
            (hyp,), (refs,) = tokenized_input(self._external(), lowercase, [hyp], [refs])
            return native(hyp, refs)

        return tokenized_one

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return self._core.sentence_scores(rows)  # type: ignore[no-any-return]

    def _corpus_values(self, rows: np.ndarray) -> np.ndarray:
        return self._corpus_core.sentence_scores(rows)  # type: ignore[no-any-return]

    def _sentence_signature(self, signature: Any) -> Any:
        """A sentence result's signature: (metric, refs) of this BLEU at sentence level."""
        if signature.__class__ is tuple and self._config["effective_order"] is None:
            return (self.at_sentence_level(), signature[1])
        return signature

    def _sentence_result(self, row: Any, signature: Any) -> BleuResult:
        # The native one-pair call's (BLEU, statistics row): the sentence BLEU of one
        # sentence is its corpus BLEU at sentence level; the other figures are made from the
        # row when read.
        return sentence_bleu_result(row[0], self._core, row[1],
                                    self._sentence_signature(signature))

    def _result_one(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                    signature: Any) -> BleuResult:
        # a sentence: the figures at sentence level
        return BleuResult(bleu_figures(self._core.corpus_figures(rows)), (self, rows),
                          n_empty_hyps, n_empty_refs,
                          self._sentence_signature(signature), rows.shape[0])

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> BleuResult:
        """Corpus figures of the summed rows, with each row's sentence BLEU."""
        return BleuResult(bleu_figures(self._corpus_core.corpus_figures(rows)), (self, rows),
                          n_empty_hyps,
                          n_empty_refs, signature, rows.shape[0])


__all__ = ["Bleu", "BleuResult", "REF_LENGTHS", "SACREBLEU_SMOOTHINGS", "SMOOTHINGS",
           "sentence_effective_order"]
