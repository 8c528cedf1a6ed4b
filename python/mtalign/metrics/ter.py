"""TER, the translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0 computes it.

>>> float(Ter().sentence_score("d a b c", "a b c d"))
25.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, TerCore
from mtalign.metrics.base import Metric
from mtalign.metrics.chrf import texts_of
from mtalign.metrics.options import option
from mtalign.metrics.results import CorpusResult


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
    ``normalized`` and ``no_punct`` (tercom's normalizations) are not implemented yet and
    are refused; ``asian_support`` only acts together with them.

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

    __slots__ = ()
    higher_is_better = False

    normalized: bool = option(default=False, doc="tercom's normalization (not implemented)",
                              sig="norm")
    no_punct: bool = option(default=False, doc="remove punctuation (not implemented)",
                            sig="punct", show=lambda v, m: "no" if v else "yes")
    asian_support: bool = option(default=False, doc="CJK handling (with normalized/no_punct)",
                                 sig="asian")
    case_sensitive: bool = option(default=False, doc="keep case", sig="case", show=_case)

    signature_fields = ("case_sensitive", "tok:tercom", "normalized", "no_punct",
                        "asian_support")

    def _complete(self, c: dict[str, Any]) -> None:
        for name in ("normalized", "no_punct"):
            if c[name]:
                raise ConfigError(f"Ter({name}=True) is not implemented yet")

    def _build(self, c: dict[str, Any]) -> TerCore:
        return TerCore(c["case_sensitive"])

    def _tokenizer_name(self) -> str:
        return "tercom"

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        hyps, refs = texts_of(hyps, refs)
        return super()._run(hyps, refs, threads, core)

    def sentence_score(self, hyp: Any, refs: Any) -> CorpusResult:
        if isinstance(hyp, (list, tuple)):
            (hyp,), (refs,) = texts_of([hyp], [refs])
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
