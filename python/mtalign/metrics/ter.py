"""TER, the translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0 computes it.

>>> float(Ter().sentence_score("d a b c", "a b c d"))
25.0
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

import numpy as np

from mtalign._mtalign import ConfigError, InputError, NativeMetric, ter_explain_ids
from mtalign.metrics.base import Metric
from mtalign.metrics.chrf import texts_of
from mtalign.metrics.options import CORE, option
from mtalign.metrics.results import CorpusResult
from mtalign.token_ids import is_token_ids

# Tercom's normalizations, as sacrebleu 2.6.0's TercomTokenizer writes them (Apache-2.0,
# Memsource; after jhclark/tercom's Normalizer.java): the same patterns, in the same order.
_ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
_FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"
_GENERAL = [(r"\n-", ""), (r"\n", " "), (r"&quot;", "\""), (r"&amp;", "&"), (r"&lt;", "<"),
            (r"&gt;", ">"), (None, None), (r"([{-~[-` -&(-+:-@/])", r" \1 "), (r"'s ", r" 's "),
            (r"'s$", r" 's"), (r"([^0-9])([\.,])", r"\1 \2 "), (r"([\.,])([^0-9])", r" \1 \2"),
            (r"([0-9])(-)", r"\1 \2 ")]
_ASIAN = [(r"([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "),
          (r"([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),
          (r"([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "),
          (r"([\u3200-\u3f22])", r" \1 "),
          (r"(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])", r"\1 \2 "),
          (r"(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])", r"\1 \2 "),
          (r"(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])", r"\1 \2 "),
          (_ASIAN_PUNCT, r" \1 "), (_FULL_WIDTH_PUNCT, r" \1 ")]


@functools.lru_cache(maxsize=2**16)
def tercom_normalize(sent: str, normalized: bool, no_punct: bool, asian_support: bool,
                     case_sensitive: bool) -> str:
    """sacrebleu's ``TercomTokenizer`` (after ``rstrip()``, as its TER applies it).

    >>> tercom_normalize("Hello, World's end.", True, False, False, False)
    "hello , world 's end ."
    >>> tercom_normalize("(a) b? c!", False, True, False, True)
    'a b c'
    """
    sent = sent.rstrip()
    if not sent:
        return ""
    if not case_sensitive:
        sent = sent.lower()
    if normalized:
        for pattern, repl in _GENERAL:
            if pattern is None:  # the line is padded with spaces before the punctuation rules
                sent = f" {sent} "
            else:
                sent = re.sub(pattern, repl, sent)  # type: ignore[arg-type]
        if asian_support:
            for pattern, repl in _ASIAN:
                sent = re.sub(pattern, repl, sent)
    if no_punct:
        sent = re.sub(r"[\.,\?:;!\"\(\)]", "", sent)
        if asian_support:
            sent = re.sub(_ASIAN_PUNCT, r"", sent)
            sent = re.sub(_FULL_WIDTH_PUNCT, r"", sent)
    return " ".join(sent.split())


#: The columns of :meth:`Ter.edit_counts`.
EDIT_FIELDS = ("edits", "ref_length", "insertions", "deletions", "substitutions", "shifts")
_EDIT_DTYPE = np.dtype([(name, np.float64 if name == "ref_length" else np.int64)
                        for name in EDIT_FIELDS])
_OPS = {" ": "match", "s": "sub", "i": "ins", "d": "del"}


class TerShift(NamedTuple):
    """One shift: ``length`` words taken at ``start`` and moved (sacrebleu's
    ``_perform_shift(words, start, length, target)``), and the hypothesis after it."""

    start: int
    length: int
    target: int
    moved: list[str]
    words: list[str]


class TerExplanation(NamedTuple):
    """TER's edit script of one hypothesis against one reference (see :meth:`Ter.explain`).

    ``alignment`` turns ``shifted`` (the hypothesis after ``shifts``) into ``ref``: steps
    ``(op, hyp_word, ref_word)`` with op ``"match"``, ``"sub"``, ``"del"`` (a hypothesis
    word with no reference word; ``ref_word`` is None) or ``"ins"`` (a reference word the
    hypothesis lacks; ``hyp_word`` is None). ``edits`` = insertions + deletions +
    substitutions + len(shifts); ``score`` = 100 · edits / ``ref_length``, the average
    length of all the references (as TER divides).
    """

    hyp: list[str]
    ref: list[str]
    ref_index: int
    shifts: list[TerShift]
    shifted: list[str]
    alignment: list[tuple[str, str | None, str | None]]
    insertions: int
    deletions: int
    substitutions: int
    edits: int
    ref_length: float
    score: float

    def __str__(self) -> str:
        lines = [f"TER = {self.score:.4f} ({self.edits} edits / {self.ref_length:g} words: "
                 f"{len(self.shifts)} shifts, {self.substitutions} sub, "
                 f"{self.insertions} ins, {self.deletions} del)"]
        for s in self.shifts:
            lines.append(f"shift {' '.join(s.moved)!r} at {s.start} to {s.target}: "
                         f"{' '.join(s.words)}")
        for op, h, r in self.alignment:
            lines.append(f"{op:5} {h or '-':>15} {r or '-'}")
        return "\n".join(lines)


def _case(value: Any, metric: Any) -> str:
    return "mixed" if value else "lc"


class Ter(Metric[CorpusResult]):
    """TER: edits (insertions, deletions, substitutions and shifts of word spans) per
    reference word, on sacrebleu's 0-100 scale; lower is better. Edit counts and scores are
    identical to sacrebleu 2.6.0's ``TER``.

    The edits are sacrebleu's (after Tercom): greedy shifts, each the one that most reduces
    the edit distance (spans of at most 10 words moved at most 50 positions, at most 1000
    candidates per sentence pair, ties broken as Tercom does), then a beam edit distance
    (width 25 around the length-scaled diagonal). With several references the fewest edits
    are kept and divided by the *average* reference length; corpus TER is Σ edits / Σ
    average reference lengths. An empty reference gives 100 for a non-empty hypothesis, 0
    for an empty one.

    Text is lowercased unless ``case_sensitive`` and split on whitespace (sacrebleu's
    default tercom tokenization); pre-tokenized input is joined with single spaces first.
    ``normalized`` (tercom's punctuation and entity rules; with ``asian_support`` also CJK
    characters set apart) and ``no_punct`` (punctuation removed; with ``asian_support`` CJK
    and full-width punctuation too) are applied in Python, sacrebleu's patterns in its order
    (the default tokenization runs natively).

    ``batch_score`` returns float64 (n,); ``sentence_score`` / ``corpus_score`` a
    :class:`~mtalign.CorpusResult` named ``TER`` with ``num_edits`` and ``ref_length``.
    :meth:`statistics` rows are (edits, average reference length), sacrebleu's.
    :meth:`edit_counts` splits each sentence's edits into insertions, deletions,
    substitutions and shifts, and :meth:`explain` shows the whole edit script.

    Example:
        >>> print(Ter().corpus_score(["d a b c", "a b"], ["a b c d", "a b x"]))
        TER = 28.5714 (num_edits = 2 ref_length = 7)
        >>> Ter().signature(1)
        'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:0.1.0'
        >>> Ter.higher_is_better
        False
    """


    __slots__ = ()
    higher_is_better = False
    aggregation = "sum"

    normalized: bool = option(default=False, doc="tercom's normalization", sig="norm")
    no_punct: bool = option(default=False, doc="remove punctuation",
                            sig="punct", show=lambda v, m: "no" if v else "yes")
    asian_support: bool = option(default=False, doc="CJK handling (with normalized/no_punct)",
                                 sig="asian")
    native = "ter"
    case_sensitive: bool = option(default=CORE, sig="case", show=_case)

    signature_fields = ("case_sensitive", "tok:tercom", "normalized", "no_punct",
                        "asian_support")

    def _python_tokenization(self) -> bool:
        return bool(self._config["normalized"] or self._config["no_punct"])

    def edit_counts(self, hyps: Any, refs: Any, threads: int | None = None) -> np.ndarray:
        """Each sentence's edits by kind, for the reference TER keeps (the first with the
        fewest edits): a structured array with fields ``edits``, ``ref_length`` (average
        over the references, as :meth:`statistics`), ``insertions`` (reference words the
        shifted hypothesis lacks), ``deletions`` (hypothesis words with no reference word),
        ``substitutions`` and ``shifts``. ``edits`` is their sum and equals sacrebleu's.

        >>> c = Ter().edit_counts(["d a b c", "a b x y"], ["a b c d", "a b z"])
        >>> [(int(r["shifts"]), int(r["substitutions"]), int(r["deletions"])) for r in c]
        [(1, 0, 0), (0, 1, 1)]
        >>> c["edits"].tolist()
        [1, 2]
        """
        core = self._native({}, case_sensitive=self._core_case_sensitive(), ops=True)
        arr, _, _, _ = self._run(hyps, refs, threads, core)
        rows = np.ascontiguousarray(arr.reshape(-1, 6))
        out = np.empty(rows.shape[0], dtype=_EDIT_DTYPE)
        for k, name in enumerate(EDIT_FIELDS):
            out[name] = rows[:, k]
        return out

    def explain(self, hyp: str | list[str], refs: str | list[str]) -> TerExplanation:
        """TER's edit script for one hypothesis: the shifts in the order they were applied,
        then the alignment of the shifted hypothesis with the reference TER keeps (the first
        with the fewest edits; ``refs`` is one text or a list). Words are as TER compares
        them (lowercased unless ``case_sensitive``, after any normalization).

        >>> e = Ter().explain("d a b c x", "a b c d")
        >>> e.shifts[0].moved, e.shifted
        (['d'], ['a', 'b', 'c', 'd', 'x'])
        >>> e.alignment[-1], e.edits, e.score
        (('del', 'x', None), 2, 50.0)
        """
        ref_list = [refs] if isinstance(refs, str) else list(refs)
        if isinstance(hyp, (list, tuple)):
            hyp, ref_list = " ".join(hyp), [" ".join(r) if isinstance(r, (list, tuple)) else r
                                             for r in ref_list]
        if not isinstance(hyp, str) or not ref_list or not all(isinstance(r, str)
                                                                for r in ref_list):
            raise InputError("explain takes a hypothesis (str) and one or more references (str)")
        c = self._config
        words = [tercom_normalize(t, c["normalized"], c["no_punct"], c["asian_support"],
                                  c["case_sensitive"]).split() for t in [hyp, *ref_list]]
        vocab: dict[str, int] = {}
        ids = [[vocab.setdefault(w, len(vocab)) for w in ws] for ws in words]
        names = list(vocab)
        best = None
        for k, r in enumerate(ids[1:]):
            shifts, final, ops = ter_explain_ids(ids[0], r)
            edits = len(shifts) + sum(op != " " for op in ops)
            if best is None or edits < best[0]:
                best = (edits, k, shifts, final, ops)
        assert best is not None
        edits, k, shifts, final, ops = best
        hyp_words, ref_words = words[0], words[1 + k]
        shifted = [names[i] for i in final]
        alignment: list[tuple[str, str | None, str | None]] = []
        i = j = 0
        for op in ops:
            hw = shifted[i] if op in " sd" else None
            rw = ref_words[j] if op in " si" else None
            i += op in " sd"
            j += op in " si"
            alignment.append((_OPS[op], hw, rw))
        before = hyp_words
        steps = []
        for start, length, target, after in shifts:
            steps.append(TerShift(start, length, target, before[start:start + length],
                                  [names[w] for w in after]))
            before = steps[-1].words
        ref_length = sum(len(w) for w in words[1:]) / len(ref_list)
        return TerExplanation(hyp_words, ref_words, k, steps, shifted, alignment,
                              ops.count("i"), ops.count("d"), ops.count("s"), edits,
                              ref_length, self._row_score(edits, ref_length))

    def _row_score(self, edits: float, ref_length: float) -> float:
        """The TER of one statistics row (edits, average reference length), natively."""
        row = np.array([[edits, ref_length]], dtype=np.float64)
        return float(self._core.sentence_scores(row)[0])

    def _core_case_sensitive(self) -> bool:
        c = self._config
        return bool(c["case_sensitive"] or c["normalized"] or c["no_punct"])

    def _build(self, c: dict[str, Any]) -> NativeMetric:
        # With a Python normalization the text arrives lowercased (or not) already.
        return self._native({}, case_sensitive=self._core_case_sensitive())

    def _texts(self, texts: list[str]) -> list[str]:
        c = self._config
        return [tercom_normalize(t, c["normalized"], c["no_punct"], c["asian_support"],
                                 c["case_sensitive"]) for t in texts]

    def _tokenizer_name(self) -> str:
        return "tercom"

    def _check_token_ids(self, core: Any = None) -> None:
        if self._python_tokenization():
            raise ConfigError("Ter(normalized=True) and Ter(no_punct=True) rewrite text, and "
                              "token ids are not text: score ids without them")
        super()._check_token_ids(core)

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        if is_token_ids(hyps):
            return super()._run(hyps, refs, threads, core)
        hyps, refs = texts_of(hyps, refs)
        if self._python_tokenization():
            hyps = self._texts(list(hyps))
            refs = [self._texts([r]) if isinstance(r, str) else self._texts(list(r))
                    for r in refs]
        return super()._run(hyps, refs, threads, core)

    def sentence_score(self, hyp: Any, refs: Any) -> CorpusResult:
        if is_token_ids(hyp):
            return super().sentence_score(hyp, refs)
        if isinstance(hyp, (list, tuple)):
            (hyp,), (refs,) = texts_of([hyp], [refs])
        if self._python_tokenization():
            hyp = self._texts([hyp])[0]
            refs = self._texts([refs] if isinstance(refs, str) else list(refs))
        return super().sentence_score(hyp, refs)

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        return self._core.sentence_scores(rows)  # type: ignore[no-any-return]

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> CorpusResult:
        """Σ edits / Σ average reference lengths (sacrebleu's corpus TER)."""
        score, edits, ref_len = self._core.corpus_figures(rows)
        return CorpusResult("TER", score, (self, rows),
                            {"num_edits": int(edits), "ref_length": ref_len}, n_empty_hyps,
                            n_empty_refs, signature, rows.shape[0])


__all__ = ["EDIT_FIELDS", "Ter", "TerExplanation", "TerShift"]
