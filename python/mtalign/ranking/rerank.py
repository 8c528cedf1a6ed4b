"""Oracle reranking of n-best lists: the hypothesis each metric would pick given the references.

For decoder developers: ``rerank`` scores every hypothesis of every list against its
sentence's references in one parallel batch and returns, per sentence, the index of the best
one (the oracle selection, first on ties so the decoder's own order breaks them) and all the
scores. For minimum-Bayes-risk decoding without references, see ``metric.pairwise``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import InputError
from mtalign.ranking.scorer import ProgressFn, Scorer


class RerankResult:
    """Per sentence, the chosen hypothesis and the scores of all of them.

    Attributes:
        best: index of the chosen hypothesis in each list (int array).
        best_scores: its score (float array).
        scores: per sentence, the score of every hypothesis (list of float arrays).
        hypotheses: the chosen hypothesis of every sentence (as given: str or token list).
        higher_is_better, signature: how the choice was made.
    """

    __slots__ = ("best", "best_scores", "scores", "hypotheses", "higher_is_better",
                 "signature")

    def __init__(self, best: np.ndarray, scores: list[np.ndarray], hypotheses: list[Any],
                 higher_is_better: bool, signature: str) -> None:
        self.best = best
        self.scores = scores
        self.best_scores = np.array([s[b] for s, b in zip(scores, best, strict=True)],
                                    dtype=np.float64)
        self.hypotheses = hypotheses
        self.higher_is_better = higher_is_better
        self.signature = signature

    def mean_score(self, index: int | None = None) -> float:
        """The mean over sentences of the chosen score, or of entry ``index`` of each list.

        >>> r = RerankResult(np.array([1]), [np.array([0.25, 0.5])], ["b"], True, "")
        >>> r.mean_score(), r.mean_score(0)
        (0.5, 0.25)
        """
        vals = self.best_scores if index is None else \
            [s[min(index, s.size - 1)] for s in self.scores]
        return math.fsum(float(v) for v in vals) / max(len(vals), 1)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: chosen indices and scores, the mean, the signature."""
        return {"best": self.best.tolist(), "best_scores": self.best_scores.tolist(),
                "mean_best_score": self.mean_score(), "mean_first_score": self.mean_score(0),
                "higher_is_better": self.higher_is_better, "signature": self.signature}

    def __repr__(self) -> str:
        return (f"RerankResult(n={self.best.size}, mean_best={self.mean_score():.4f}, "
                f"mean_first={self.mean_score(0):.4f})")


def _hypothesis(entry: Any) -> Any:
    # NBestEntry is a tuple too, so look for its field first.
    return entry.hypothesis if hasattr(entry, "hypothesis") else entry


def rerank(metric: Any, nbest: Sequence[Sequence[Any]], refs: Sequence[Any],
           variant: str | None = None, threads: int | None = None, *,
           higher_is_better: bool | None = None,
           progress: ProgressFn | None = None) -> RerankResult:
    """Picks, in every n-best list, the hypothesis the metric scores best against the refs.

    Args:
        metric: an mtalign metric (or a callable ``(hyp, refs) -> float``, slowly).
        nbest: ``nbest[i]`` is the list of hypotheses of sentence i: strings, token lists or
            :class:`mtalign.io.NBestEntry` (as :func:`mtalign.io.read_nbest` returns).
        refs: ``refs[i]`` is one reference (str) or a list of references.
        variant: the metric's score to maximise (default: its first scalar).
        threads: threads for the native scorer.
        higher_is_better: override the metric's direction (error rates are minimised).

    Ties go to the earliest hypothesis (the decoder's preferred one).

    >>> from mtalign import Rouge
    >>> res = rerank(Rouge("rougeL"), [["a cat", "the cat sat", "the cat"]], ["the cat sat"])
    >>> res.best.tolist(), res.hypotheses
    ([1], ['the cat sat'])
    """
    scorer = Scorer(metric, variant, higher_is_better, threads)
    if isinstance(nbest, (str, bytes)) or not isinstance(nbest, Sequence):
        raise InputError(f"nbest must be a list of n-best lists (got {type(nbest).__name__})")
    if isinstance(refs, (str, bytes)) or not isinstance(refs, Sequence):
        raise InputError(f"refs must be a list with one entry per sentence "
                         f"(got {type(refs).__name__})")
    if len(nbest) != len(refs):
        raise InputError(f"nbest has {len(nbest)} sentences but refs has {len(refs)}")
    hyps: list[Any] = []
    sets: list[Any] = []
    lists: list[list[Any]] = []
    for i, (lst, r) in enumerate(zip(nbest, refs, strict=True)):
        if isinstance(lst, (str, bytes)) or not isinstance(lst, Sequence):
            raise InputError(f"nbest[{i}] must be a list of hypotheses "
                             f"(got {type(lst).__name__})")
        if len(lst) == 0:
            raise InputError(f"nbest[{i}] is empty: every sentence needs at least one "
                             "hypothesis")
        texts = [_hypothesis(e) for e in lst]
        lists.append(texts)
        hyps.extend(texts)
        sets.extend([r] * len(texts))
    flat = scorer(hyps, sets, progress)
    best, scores, chosen = [], [], []
    pos = 0
    for texts in lists:
        s = flat[pos:pos + len(texts)]
        pos += len(texts)
        k = int(np.argmax(s) if scorer.higher_is_better else np.argmin(s))
        best.append(k)
        scores.append(s)
        chosen.append(texts[k])
    sig = f"rerank:oracle|higher:{'yes' if scorer.higher_is_better else 'no'}|" \
          f"metric:{scorer.name}" + (f"|{scorer.metric_signature}"
                                     if scorer.metric_signature else "")
    return RerankResult(np.asarray(best, dtype=np.int64), scores, chosen,
                        scorer.higher_is_better, sig)
