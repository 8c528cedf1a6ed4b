"""TER, the translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0 computes it.

>>> float(Ter().sentence_score("d a b c", "a b c d"))
25.0
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np

from mtalign._mtalign import TerCore
from mtalign.metrics.base import Metric
from mtalign.metrics.chrf import texts_of
from mtalign.metrics.options import option
from mtalign.metrics.results import CorpusResult

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
    :meth:`statistics` rows are (edits, average reference length).

    Example:
        >>> print(Ter().corpus_score(["d a b c", "a b"], ["a b c d", "a b x"]))
        TER = 28.5714 (num_edits = 2 ref_length = 7)
        >>> Ter().signature(1)
        'nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:0.1.0'
        >>> Ter.higher_is_better
        False
    """

    statistics_reduce = "sum"

    __slots__ = ()
    higher_is_better = False

    normalized: bool = option(default=False, doc="tercom's normalization", sig="norm")
    no_punct: bool = option(default=False, doc="remove punctuation",
                            sig="punct", show=lambda v, m: "no" if v else "yes")
    asian_support: bool = option(default=False, doc="CJK handling (with normalized/no_punct)",
                                 sig="asian")
    case_sensitive: bool = option(default=False, doc="keep case", sig="case", show=_case)

    signature_fields = ("case_sensitive", "tok:tercom", "normalized", "no_punct",
                        "asian_support")

    def _python_tokenization(self) -> bool:
        return bool(self._config["normalized"] or self._config["no_punct"])

    def _build(self, c: dict[str, Any]) -> TerCore:
        # With a Python normalization the text arrives lowercased (or not) already.
        return TerCore(c["case_sensitive"] or c["normalized"] or c["no_punct"])

    def _texts(self, texts: list[str]) -> list[str]:
        c = self._config
        return [tercom_normalize(t, c["normalized"], c["no_punct"], c["asian_support"],
                                 c["case_sensitive"]) for t in texts]

    def _tokenizer_name(self) -> str:
        return "tercom"

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        hyps, refs = texts_of(hyps, refs)
        if self._python_tokenization():
            hyps = self._texts(list(hyps))
            refs = [self._texts([r]) if isinstance(r, str) else self._texts(list(r))
                    for r in refs]
        return super()._run(hyps, refs, threads, core)

    def sentence_score(self, hyp: Any, refs: Any) -> CorpusResult:
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
        core = self._core
        score, edits, ref_len = core.corpus(rows)
        return CorpusResult("TER", score, lambda: core.sentence_scores(rows),
                            {"num_edits": int(edits), "ref_length": ref_len}, n_empty_hyps,
                            n_empty_refs, signature, rows.shape[0])


__all__ = ["Ter"]
