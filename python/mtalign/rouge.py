"""ROUGE-N, L, W, S and SU (Lin & Och 2004), with reference sets and batch scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Union

import numpy as np

from mtalign._batch import check_bool, nrefs, run_batch, single_refs
from mtalign._metric import ConfiguredMetric
from mtalign._mtalign import ConfigError, RougeCore
from mtalign._mtalign import __version__ as _native_version

TOKENIZERS = ("unicode", "whitespace", "char", "codepoint", "rouge155", "rouge_score", "13a",
              "intl")
MULTI_REF = ("max", "average", "best", "best_f")
COMPAT = ("paper", "rouge155", "rouge_score")
# What each profile means when tokenize / multi_ref are not given, and its stemmer.
_COMPAT_DEFAULTS = {
    "paper": ("unicode", "max", "nltk_porter"),
    "rouge155": ("rouge155", "average", "rouge155"),
    "rouge_score": ("rouge_score", "best_f", "nltk_porter"),
}
# Tokenizers that lowercase by definition (ROUGE-1.5.5: ASCII only; rouge-score: str.lower()).
_SELF_LOWERCASING = ("rouge155", "rouge_score")

Text = Union[str, Sequence[str]]  # noqa: UP007 (a runtime alias)
"""A sentence: a str, or a pre-tokenized list of str tokens."""


class Score(NamedTuple):
    """Precision, recall and F-measure of one ROUGE variant (rouge-score's field order)."""

    precision: float
    recall: float
    fmeasure: float


class RougeResult:
    """Corpus-level ROUGE: per variant, the mean precision, recall and F over sentences.

    Attributes:
        scores: variant name -> :class:`Score` of means.
        per_sentence: variant name -> (n, 3) array of P, R, F per sentence.
        n_sentences: number of hypotheses scored.
        n_empty_hyps / n_empty_refs: non-empty texts that produced no tokens.
        signature: the ``key:value|...`` string that makes the numbers reproducible.
    """

    __slots__ = ("scores", "per_sentence", "n_sentences", "n_empty_hyps", "n_empty_refs",
                 "signature")
    scores: dict[str, Score]
    per_sentence: dict[str, np.ndarray]
    n_sentences: int
    n_empty_hyps: int
    n_empty_refs: int
    signature: str

    def __init__(self, per_sentence: dict[str, np.ndarray], n_empty_hyps: int,
                 n_empty_refs: int, signature: str) -> None:
        self.per_sentence = per_sentence
        self.n_sentences = next(iter(per_sentence.values())).shape[0] if per_sentence else 0
        self.scores = {
            name: Score(*(float(x) for x in arr.mean(axis=0)))
            if arr.shape[0] else Score(0.0, 0.0, 0.0)
            for name, arr in per_sentence.items()
        }
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self.signature = signature

    def __getitem__(self, variant: str) -> Score:
        return self.scores[variant]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: scores, counts and signature."""
        return {
            "scores": {k: s._asdict() for k, s in self.scores.items()},
            "n_sentences": self.n_sentences,
            "n_empty_hyps": self.n_empty_hyps,
            "n_empty_refs": self.n_empty_refs,
            "signature": self.signature,
        }

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={s.fmeasure:.4f}" for k, s in self.scores.items())
        return f"RougeResult({body}, n={self.n_sentences})"

    def __str__(self) -> str:
        width = max([len("variant")] + [len(k) for k in self.scores])
        lines = [f"{'variant':<{width}}  precision  recall  fmeasure"]
        for k, s in self.scores.items():
            lines.append(f"{k:<{width}}  {s.precision:9.4f}  {s.recall:6.4f}  {s.fmeasure:8.4f}")
        lines.append(self.signature)
        return "\n".join(lines)


class Rouge(ConfiguredMetric):
    """ROUGE scorer: ROUGE-N, ROUGE-L, ROUGE-W, ROUGE-S and ROUGE-SU as Lin & Och (2004).

    Args:
        variants: names among ``rouge1``..``rouge9`` (clipped n-gram overlap), ``rougeL``
            (LCS), ``rougeW-<w>`` (weighted LCS, f(k) = k^w, e.g. ``rougeW-1.2``),
            ``rougeS<d>`` / ``rougeS*`` (skip-bigrams with at most d words between the two
            words, or unlimited; ``rougeS0`` is bigram overlap), ``rougeSU<d>`` /
            ``rougeSU*`` (skip-bigrams plus unigrams). A single str is one variant.
            ``rougeLsum`` is rouge-score's summary-level LCS: texts are split into lines at
            ``"\\n"`` and the union LCS of each reference line with the candidate lines counts
            (it equals ``rougeL`` on one-line texts).
        tokenize: ``"unicode"`` (splits on anything that is not a letter, digit or mark in any
            script; each CJK ideograph, kana or hangul character is a token),
            ``"whitespace"``, ``"char"``, ``"rouge155"`` (ROUGE-1.5.5: ASCII-only lowercasing,
            tokens are runs of ASCII letters and digits, so ``café`` -> ``caf``) or
            ``"rouge_score"`` (rouge-score: Python ``lower()``, then runs of ``[a-z0-9]``).
            Default: the ``compat`` profile's (``unicode``, ``rouge155``, ``rouge_score``).
            Pre-tokenized input bypasses it.
        lowercase: lowercase (full Unicode) before tokenizing. ``rouge155`` and
            ``rouge_score`` lowercase by definition (``lowercase=False`` is refused).
        stem: stem tokens longer than 3 characters, once per distinct token: with
            ``compat="rouge155"`` as ROUGE-1.5.5 ``-m`` (WordNet 2.0 exception list, then the
            Porter stemmer inside ROUGE-1.5.5.pl: Porter's Perl "Release 1" with the ROUGE
            author's 2004 step 4); otherwise as rouge-score
            (nltk's ``PorterStemmer`` in its default mode), implemented natively.
        beta: the F-measure's β (eq. 6); must be > 0.
        multi_ref: how several references combine: ``"max"`` (eqs. 7-9: max recall and max
            precision over references, F from those), ``"average"`` (ROUGE-1.5.5 ``-f A``:
            counts pooled, R = Σhit/Σm, P = Σhit/(N·n)), ``"best"`` (ROUGE-1.5.5 ``-f B``:
            the reference with the highest recall, first on ties), ``"best_f"``
            (rouge-score's ``score_multi``: the reference with the highest F). Default: the
            ``compat`` profile's (``max``, ``average``, ``best_f``).
        jackknife: with N ≥ 2 references, the mean of P, R and F over the N leave-one-out
            sets of N-1 references (paper section 5); with one reference, no effect.
        compat: the convention followed: ``"paper"`` (Lin & Och 2004 as written),
            ``"rouge155"`` (ROUGE-1.5.5's numbers: ROUGE-W hits recounted from the traced-back
            LCS over runs consecutive in the reference and recall over m^(w*w); ROUGE-SU never
            counts the last token's unigram; ``"best"`` compares ROUGE-N/S recalls rounded to
            5 decimals) or ``"rouge_score"`` (rouge-score 0.1.2's numbers).

    Example:
        >>> r = Rouge(["rougeL", "rougeS*"], tokenize="whitespace")
        >>> r.sentence_score("police kill the gunman", "police killed the gunman")["rougeL"]
        Score(precision=0.75, recall=0.75, fmeasure=0.75)
        >>> r155 = Rouge(["rouge1", "rougeSU*"], compat="rouge155", stem=True)
        >>> r155.sentence_score("Police kill the gunman.", "police killed the gunman")["rouge1"]
        Score(precision=1.0, recall=1.0, fmeasure=1.0)

    Objects are immutable and picklable; their configuration is all they hold.
    """

    __slots__ = ("_variants", "_tokenize", "_lowercase", "_stem", "_beta", "_multi_ref",
                 "_jackknife", "_compat", "_core")
    _variants: tuple[str, ...]
    _tokenize: str
    _lowercase: bool
    _stem: bool
    _beta: float
    _multi_ref: str
    _jackknife: bool
    _compat: str
    _core: RougeCore

    def __init__(
        self,
        variants: str | Sequence[str],
        *,
        tokenize: str | None = None,
        lowercase: bool = True,
        stem: bool = False,
        beta: float = 1.0,
        multi_ref: str | None = None,
        jackknife: bool = False,
        compat: str = "paper",
    ) -> None:
        if isinstance(variants, str):
            variants = [variants]
        variants = list(variants)
        if not variants:
            raise ConfigError("no ROUGE variant given")
        for v in variants:
            if not isinstance(v, str):
                raise ConfigError(f"variant names must be str (got {type(v).__name__})")
        dup = next((v for i, v in enumerate(variants) if v in variants[:i]), None)
        if dup is not None:
            raise ConfigError(f"variant '{dup}' given twice")
        if compat not in _COMPAT_DEFAULTS:
            raise ConfigError(f"unknown compat {compat!r} (choose from: {', '.join(COMPAT)})")
        default_tok, default_multi, stemmer = _COMPAT_DEFAULTS[compat]
        tokenize = default_tok if tokenize is None else tokenize
        multi_ref = default_multi if multi_ref is None else multi_ref
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise ConfigError(f"beta must be a number > 0 (got {beta!r})")
        check_bool("lowercase", lowercase)
        check_bool("stem", stem)
        check_bool("jackknife", jackknife)
        if tokenize in _SELF_LOWERCASING and not lowercase:
            raise ConfigError(f"tokenize={tokenize!r} always lowercases (as the tool it "
                              "reproduces); lowercase=False is not available with it")
        core = RougeCore(list(variants), tokenize, lowercase, float(beta), multi_ref,
                         jackknife, compat, stemmer if stem else None)
        self._init_slots(_variants=tuple(variants), _tokenize=tokenize, _lowercase=lowercase,
                         _stem=stem, _beta=float(beta), _multi_ref=multi_ref,
                         _jackknife=jackknife, _compat=compat, _core=core)

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {
            "variants": list(self._variants),
            "tokenize": self._tokenize,
            "lowercase": self._lowercase,
            "stem": self._stem,
            "beta": self._beta,
            "multi_ref": self._multi_ref,
            "jackknife": self._jackknife,
            "compat": self._compat,
        }

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.config().items() if k != "variants")
        return f"Rouge({list(self._variants)!r}, {args})"

    @property
    def variants(self) -> tuple[str, ...]:
        return self._variants

    higher_is_better = True

    def scalar_names(self) -> tuple[str, ...]:
        """The configured variants; ranking uses the F-measure of the one chosen.

        >>> Rouge(["rougeL", "rouge2"]).scalar_names()
        ('rougeL', 'rouge2')
        """
        return self._variants

    def scalar_scores(self, hyps: Sequence[Text], refs: Sequence[Text | Sequence[Text]],
                      variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """The F-measure of one variant per hypothesis, shape (n,).

        >>> Rouge("rouge1").scalar_scores(["a b", "c"], ["a c", "c"]).tolist()
        [0.5, 1.0]
        """
        k = self._variants.index(self._pick_scalar(variant))
        arr, _, _ = self._score(hyps, refs, threads)
        return np.ascontiguousarray(arr[:, k, 2])

    # -- scoring -----------------------------------------------------------------------

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature of every option and the version; ``stem`` names the
        stemmer (``rouge155``: WordNet 2.0 exceptions + ROUGE-1.5.5's Porter; ``nltk_porter``).

        >>> Rouge("rougeL").signature()
        'tok:unicode|lc:yes|stem:no|multi_ref:max|jk:no|beta:1|compat:paper|version:0.1.0'
        >>> Rouge("rougeL", compat="rouge155", stem=True).signature()
        'tok:rouge155|lc:yes|stem:rouge155|multi_ref:average|jk:no|beta:1|compat:rouge155|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        beta = format(self._beta, "g")
        stem = _COMPAT_DEFAULTS[self._compat][2] if self._stem else "no"
        parts += [
            f"tok:{self._tokenize}",
            f"lc:{'yes' if self._lowercase else 'no'}",
            f"stem:{stem}",
            f"multi_ref:{self._multi_ref}",
            f"jk:{'yes' if self._jackknife else 'no'}",
            f"beta:{beta}",
            f"compat:{self._compat}",
            f"version:{_native_version}",
        ]
        return "|".join(parts)

    def _score(self, hyps: Any, refs: Any, threads: int | None) -> tuple[np.ndarray, int, int]:
        arr, nh, nr, _ = run_batch(self._core, hyps, refs, threads, self._tokenize)
        return arr, nh, nr

    def batch_score(self, hyps: Sequence[Text], refs: Sequence[Text | Sequence[Text]],
                    threads: int | None = None) -> dict[str, np.ndarray]:
        """Scores ``hyps[i]`` against ``refs[i]``, in parallel with the GIL released.

        ``refs[i]`` is a str (one reference) or a list of str (several). With pre-tokenized
        hypotheses (lists of tokens), ``refs[i]`` is a list of token lists. ``threads=None``
        uses every core (or ``MTALIGN_NUM_THREADS``); results are identical for any count.

        Returns variant name -> float64 array (n, 3) with columns precision, recall, F.

        >>> r = Rouge("rouge1")
        >>> r.batch_score(["a b", "c"], ["a c", ["c", "d"]])["rouge1"][:, 2].tolist()
        [0.5, 1.0]
        """
        arr, _, _ = self._score(hyps, refs, threads)
        return {v: np.ascontiguousarray(arr[:, k, :]) for k, v in enumerate(self._variants)}

    def sentence_score(self, hyp: Text, refs: Text | Sequence[Text]) -> dict[str, Score]:
        """Scores one hypothesis against one reference (str) or several (list of str).

        >>> Rouge("rougeS*", tokenize="whitespace").sentence_score(
        ...     "the gunman police killed", ["police killed the gunman"])["rougeS*"].fmeasure
        0.3333333333333333
        """
        arr, _, _ = self._score([hyp], [single_refs(hyp, refs)], None)
        return {v: Score(*(float(x) for x in arr[0, k])) for k, v in enumerate(self._variants)}

    def corpus_score(self, hyps: Sequence[Text], refs: Sequence[Text | Sequence[Text]],
                     threads: int | None = None) -> RougeResult:
        """Mean precision, recall and F over sentences, with counts and the signature.

        >>> res = Rouge("rougeL", tokenize="whitespace").corpus_score(["a b", "c d"],
        ...                                                           ["a b", "c x"])
        >>> res["rougeL"].fmeasure
        0.75
        """
        arr, nh, nr, refs = run_batch(self._core, hyps, refs, threads, self._tokenize)
        per_sentence = {v: np.ascontiguousarray(arr[:, k, :])
                        for k, v in enumerate(self._variants)}
        return RougeResult(per_sentence, nh, nr, self.signature(nrefs(refs)))
