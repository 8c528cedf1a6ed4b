"""DCS, the double common subsequence score (Ding, Utiyama & Sumita), word or character level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from mtalign._mtalign import ConfigError, DcsCore
from mtalign._mtalign import __version__ as _native_version
from mtalign.metrics.base import ConfiguredMetric
from mtalign.metrics.inputs import check_bool, nrefs, run_batch, single_refs

LEVELS = ("char", "word")
DCS_FIELDS = ("cs0", "cs1", "cs2", "dcs")


class DcsScore(NamedTuple):
    """The four DCS scores of one hypothesis (see :class:`Dcs`)."""

    cs0: float
    cs1: float
    cs2: float
    dcs: float


class DcsResult:
    """Corpus-level DCS: the mean of each score over sentences.

    Attributes:
        scores: :class:`DcsScore` of means.
        per_sentence: (n, 4) array of cs0, cs1, cs2, dcs per sentence.
        n_sentences, n_empty_hyps, n_empty_refs, signature: as for ROUGE.
    """

    __slots__ = ("scores", "per_sentence", "n_sentences", "n_empty_hyps", "n_empty_refs",
                 "signature")
    scores: DcsScore
    per_sentence: np.ndarray
    n_sentences: int
    n_empty_hyps: int
    n_empty_refs: int
    signature: str

    def __init__(self, per_sentence: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                 signature: str) -> None:
        self.per_sentence = per_sentence
        self.n_sentences = per_sentence.shape[0]
        means = per_sentence.mean(axis=0) if self.n_sentences else np.zeros(4)
        self.scores = DcsScore(*(float(x) for x in means))
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self.signature = signature

    def __getitem__(self, field: str) -> float:
        return float(getattr(self.scores, field))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: scores, counts and signature."""
        return {
            "scores": self.scores._asdict(),
            "n_sentences": self.n_sentences,
            "n_empty_hyps": self.n_empty_hyps,
            "n_empty_refs": self.n_empty_refs,
            "signature": self.signature,
        }

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v:.4f}" for k, v in self.scores._asdict().items())
        return f"DcsResult({body}, n={self.n_sentences})"


class Dcs(ConfiguredMetric):
    """DCS scorer, faithful to the authors' published code (their Table 1).

    The first matching keeps maximal common substrings (greedily, longest first, a run kept
    when it still has an unused position on each side); the second matching chains blocks
    that are consecutive in both orders. With A = √(|ref|·|hyp|): ``cs0`` = longest chain
    length / A, ``cs1`` = √ΣL² / A, ``cs2`` = √(Σ L_a·L_b over chain neighbours) / A,
    ``dcs`` = √(cs1² + cs2²). The comparison is dcs(reference, hypothesis), as the paper's
    Figure 1 (reference ABCDE, candidate EABFD).

    Quirks of the published definition, reproduced on purpose:

    * cs0 is not always the LCS length: ``Dcs().sentence_score("ACB", "ABC").cs0`` is 1/3
      (the LCS is 2);
    * values can exceed 1: hypothesis ``CBA`` against reference ``CBBA`` has cs0 = 1.1547,
      because overlapping blocks are both kept;
    * the argument order matters: swapping hypothesis and reference can change every score.

    Args:
        level: ``"char"`` (every code point is a symbol, spaces included unless
            ``ignore_spaces``) or ``"word"`` (the text is split by ``tokenize``).
        tokenize: the word tokenizer (``"unicode"``, ``"whitespace"``, ``"char"``) for
            ``level="word"``.
        lowercase: lowercase before matching (off by default: the published metric compares
            strings as given).
        multi_ref: ``"max"``: the reference with the highest dcs (first on ties), reporting
            its four values.
        ignore_spaces: at character level, drop whitespace before matching.

    Example:
        >>> Dcs(level="char").sentence_score("EABFD", "ABCDE")
        DcsScore(cs0=0.6, cs1=0.4898979485566356, cs2=0.282842712474619, dcs=0.565685424949238)
    """

    __slots__ = ("_level", "_tokenize", "_lowercase", "_multi_ref", "_ignore_spaces", "_core")
    _level: str
    _tokenize: str
    _lowercase: bool
    _multi_ref: str
    _ignore_spaces: bool
    _core: DcsCore

    higher_is_better = True

    def __init__(self, level: str = "char", *, tokenize: str = "unicode",
                 lowercase: bool = False, multi_ref: str = "max",
                 ignore_spaces: bool = False) -> None:
        if level not in LEVELS:
            raise ConfigError(f"unknown level {level!r} (choose from: char, word)")
        if multi_ref != "max":
            raise ConfigError(f"unknown multi_ref {multi_ref!r} for Dcs (choose from: max)")
        check_bool("lowercase", lowercase)
        check_bool("ignore_spaces", ignore_spaces)
        if level == "char":
            native_tok = "char" if ignore_spaces else "codepoint"
        else:
            if ignore_spaces:
                raise ConfigError("ignore_spaces applies to level='char' only")
            native_tok = tokenize
        self._init_slots(_level=level, _tokenize=tokenize, _lowercase=lowercase,
                         _multi_ref=multi_ref, _ignore_spaces=ignore_spaces,
                         _core=DcsCore(native_tok, lowercase))

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer."""
        return {"level": self._level, "tokenize": self._tokenize,
                "lowercase": self._lowercase, "multi_ref": self._multi_ref,
                "ignore_spaces": self._ignore_spaces}

    def __repr__(self) -> str:
        return "Dcs(" + ", ".join(f"{k}={v!r}" for k, v in self.config().items()) + ")"

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature of every option and the version.

        >>> Dcs().signature()
        'level:char|spaces:yes|lc:no|multi_ref:max|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        parts.append(f"level:{self._level}")
        if self._level == "char":
            parts.append(f"spaces:{'no' if self._ignore_spaces else 'yes'}")
        else:
            parts.append(f"tok:{self._tokenize}")
        parts += [f"lc:{'yes' if self._lowercase else 'no'}", f"multi_ref:{self._multi_ref}",
                  f"version:{_native_version}"]
        return "|".join(parts)

    def scalar_names(self) -> tuple[str, ...]:
        """``("dcs", "cs0", "cs1", "cs2")``: ranking uses ``dcs`` unless told otherwise."""
        return ("dcs", "cs0", "cs1", "cs2")

    def scalar_scores(self, hyps: Sequence[Any], refs: Sequence[Any],
                      variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """One of cs0, cs1, cs2, dcs per hypothesis, shape (n,).

        >>> Dcs().scalar_scores(["ab"], ["ab"]).tolist()
        [1.0]
        """
        k = DCS_FIELDS.index(self._pick_scalar(variant))
        arr, _, _, _ = self._run(hyps, refs, threads)
        return np.ascontiguousarray(arr[:, k])

    def _run(self, hyps: Any, refs: Any, threads: int | None):
        tok = "char" if self._level == "char" else self._tokenize
        return run_batch(self._core, hyps, refs, threads, tok)

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """Scores ``hyps[i]`` against ``refs[i]`` (a str or a list of str), in parallel.

        Returns a float64 array (n, 4) with columns cs0, cs1, cs2, dcs.

        >>> Dcs().batch_score(["ab", "xy"], ["ab", ["q", "xy"]])[:, 3].tolist()
        [1.0, 1.0]
        """
        arr, _, _, _ = self._run(hyps, refs, threads)
        return arr

    def sentence_score(self, hyp: Any, refs: Any) -> DcsScore:
        """Scores one hypothesis against one reference (str) or several (list of str)."""
        arr, _, _, _ = self._run([hyp], [single_refs(hyp, refs)], None)
        return DcsScore(*(float(x) for x in arr[0]))

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None) -> DcsResult:
        """The mean of each score over sentences, with the signature.

        >>> Dcs().corpus_score(["ab", "ab"], ["ab", "ba"])["cs0"]
        0.75
        """
        arr, nh, nr, refs = self._run(hyps, refs, threads)
        return DcsResult(arr, nh, nr, self.signature(nrefs(refs)))
