"""Reranking of n-best lists: the oracle (the hypothesis a metric scores best against the
references), decoder feature weights, or both combined.

For decoder developers: ``rerank`` scores every hypothesis of every list against its
sentence's references in one parallel batch and returns, per sentence, the index of the best
one (the oracle selection, first on ties so the decoder's own order breaks them) and all the
scores. With ``weights``, each hypothesis's Moses features (``name: v1 v2 …``) enter as
Σ weight·value, plus ``metric_weight`` times the metric's score when a metric is given:
the log-linear model of the decoder, optionally with a metric as one more feature.
``rerank_one`` does the same for one list at decoder latency (one native call). For
minimum-Bayes-risk decoding without references, see :func:`mtalign.mbr`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._travel import Travels, plain
from mtalign.checks import check_nonempty_list
from mtalign.ranking.scorer import ProgressFn, Scorer


class RerankResult(Travels):
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
        return plain({"best": self.best, "best_scores": self.best_scores,  # type: ignore[no-any-return]
                      "mean_best_score": self.mean_score(),
                      "mean_first_score": self.mean_score(0),
                      "higher_is_better": self.higher_is_better, "signature": self.signature})

    def __repr__(self) -> str:
        return (f"RerankResult(n={self.best.size}, mean_best={self.mean_score():.4f}, "
                f"mean_first={self.mean_score(0):.4f})")


def _hypothesis(entry: Any) -> Any:
    # NBestEntry is a tuple too, so look for its field first.
    return entry.hypothesis if hasattr(entry, "hypothesis") else entry


Weights = Mapping[str, "float | Sequence[float]"]


def _check_weights(weights: Weights | None, metric_weight: float) -> dict[str, Any] | None:
    if isinstance(metric_weight, bool) or not isinstance(metric_weight, (int, float)) \
            or not math.isfinite(metric_weight):
        raise ConfigError(f"metric_weight must be a finite number (got {metric_weight!r})")
    if weights is None:
        return None
    if not isinstance(weights, Mapping) or not weights:
        raise ConfigError("weights must be a non-empty mapping feature name -> weight(s)")
    out: dict[str, Any] = {}
    for name, w in weights.items():
        arr = np.atleast_1d(np.asarray(w, dtype=np.float64))
        if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
            raise ConfigError(f"weights[{name!r}] must be a finite number or a list of them")
        out[str(name)] = float(arr[0]) if np.ndim(w) == 0 else arr
    return out


def feature_scores(entries: Sequence[Any], weights: Weights, where: str = "nbest") -> np.ndarray:
    """Σ weight·value of each entry's Moses features (a weight per value, or one weight for
    all the values of a feature); a feature an entry lacks counts as 0.

    >>> from mtalign.io import NBestEntry
    >>> feature_scores([NBestEntry("a", "lm: -2 -4 w: -1")], {"lm": [0.5, 0.25], "w": 2}).tolist()
    [-4.0]
    """
    checked = _check_weights(weights, 0.0)
    assert checked is not None
    out = np.empty(len(entries), dtype=np.float64)
    for k, e in enumerate(entries):
        if not hasattr(e, "feature_values"):
            raise InputError(f"{where}[{k}] has no features (weights need n-best entries as "
                             "mtalign.io.read_nbest returns)")
        values = e.feature_values()
        total = 0.0
        for name, w in checked.items():
            v = values.get(name)
            if not v:
                continue
            if isinstance(w, float):
                total += w * math.fsum(v)
            elif len(w) != len(v):
                raise InputError(f"{where}[{k}]: feature {name!r} has {len(v)} values but "
                                 f"weights[{name!r}] has {len(w)}")
            else:
                total += math.fsum(float(a) * b for a, b in zip(w, v, strict=True))
        out[k] = total
    return out


def _combine(metric_scores: np.ndarray | None, entries: Sequence[Any],
             weights: dict[str, Any] | None, metric_weight: float, where: str) -> np.ndarray:
    if weights is None:
        assert metric_scores is not None
        return metric_scores
    feats = feature_scores(entries, weights, where)
    return feats if metric_scores is None else feats + metric_weight * metric_scores


def rerank(metric: Any, nbest: Sequence[Sequence[Any]], refs: Sequence[Any] | None = None,
           variant: str | None = None, threads: int | None = None, *,
           higher_is_better: bool | None = None, weights: Weights | None = None,
           metric_weight: float = 1.0,
           progress: ProgressFn | None = None) -> RerankResult:
    """Picks, in every n-best list, the best hypothesis: by the metric against the refs (the
    oracle), by decoder feature weights, or by both.

    Args:
        metric: an mtalign metric (or a callable ``(hyp, refs) -> float``, slowly); None
            with ``weights`` to rerank by features alone (no references needed).
        nbest: ``nbest[i]`` is the list of hypotheses of sentence i: strings, token lists or
            :class:`mtalign.io.NBestEntry` (as :func:`mtalign.io.read_nbest` returns; needed
            for ``weights``).
        refs: ``refs[i]`` is one reference (str) or a list of references.
        variant: the metric's score to use (default: its first scalar).
        threads: threads for the native scorer.
        higher_is_better: override the metric's direction (error rates are minimised).
        weights: ``feature name -> weight`` (one weight for every value of the feature, or
            a list, one per value). The choice then maximises Σ weight·value +
            ``metric_weight``·metric score (give an error rate a negative metric_weight).
        metric_weight: the metric score's weight when ``weights`` are given.

    Ties go to the earliest hypothesis (the decoder's preferred one).

    >>> from mtalign import Rouge
    >>> res = rerank(Rouge("rougeL"), [["a cat", "the cat sat", "the cat"]], ["the cat sat"])
    >>> res.best.tolist(), res.hypotheses
    ([1], ['the cat sat'])
    >>> from mtalign.io import NBestEntry
    >>> nb = [[NBestEntry("a cat", "lm: -1"), NBestEntry("the cat sat", "lm: -3")]]
    >>> rerank(None, nb, weights={"lm": 1.0}).best.tolist()
    [0]
    >>> rerank(Rouge("rougeL"), nb, ["the cat sat"], weights={"lm": 0.1},
    ...        metric_weight=1.0).best.tolist()
    [1]
    """
    checked = _check_weights(weights, metric_weight)
    if metric is None and checked is None:
        raise ConfigError("rerank needs a metric, or weights to rerank by features alone")
    scorer = None if metric is None else Scorer(metric, variant, higher_is_better, threads)
    if isinstance(nbest, (str, bytes)) or not isinstance(nbest, Sequence):
        raise InputError(f"nbest must be a list of n-best lists (got {type(nbest).__name__})")
    if scorer is not None:
        if refs is None:
            raise InputError("refs are needed to score the hypotheses with a metric")
        if isinstance(refs, (str, bytes)) or not isinstance(refs, Sequence):
            raise InputError(f"refs must be a list with one entry per sentence "
                             f"(got {type(refs).__name__})")
        if len(nbest) != len(refs):
            raise InputError(f"nbest has {len(nbest)} sentences but refs has {len(refs)}")
    hyps: list[Any] = []
    sets: list[Any] = []
    lists: list[list[Any]] = []
    for i, lst in enumerate(nbest):
        check_nonempty_list(lst, f"nbest[{i}]", "hypotheses", "hypothesis", "sentence")
        texts = [_hypothesis(e) for e in lst]
        lists.append(texts)
        hyps.extend(texts)
        if scorer is not None and refs is not None:
            sets.extend([refs[i]] * len(texts))
    flat = scorer(hyps, sets, progress) if scorer is not None else None
    # Feature reranking maximises the combined score; the oracle follows the metric.
    hib = True if checked is not None or scorer is None else scorer.higher_is_better
    best, scores, chosen = [], [], []
    pos = 0
    for i, texts in enumerate(lists):
        m = None if flat is None else flat[pos:pos + len(texts)]
        pos += len(texts)
        s = _combine(m, nbest[i], checked, metric_weight, f"nbest[{i}]")
        k = int(np.argmax(s) if hib else np.argmin(s))
        best.append(k)
        scores.append(s)
        chosen.append(texts[k])
    return RerankResult(np.asarray(best, dtype=np.int64), scores, chosen, hib,
                        _signature(scorer, checked, metric_weight, hib))


def rerank_one(metric: Any, hyps: Sequence[Any], refs: Any = None, *,
               variant: str | None = None, weights: Weights | None = None,
               metric_weight: float = 1.0, higher_is_better: bool | None = None
               ) -> tuple[int, np.ndarray]:
    """One n-best list at decoder latency: (index of the best hypothesis, its scores).

    The same choice as :func:`rerank` of one list, with one native batch call for the
    list (no parallel pool for short lists) and no result object.

    >>> from mtalign import Bleu
    >>> best, scores = rerank_one(Bleu(), ["a cat sat", "the cat sat on the mat"],
    ...                           "the cat sat on the mat")
    >>> best, scores.round(2).tolist()
    (1, [20.25, 100.0])
    """
    checked = _check_weights(weights, metric_weight)
    if metric is None and checked is None:
        raise ConfigError("rerank_one needs a metric, or weights to rerank by features alone")
    if isinstance(hyps, (str, bytes)) or not isinstance(hyps, Sequence) or len(hyps) == 0:
        raise InputError("hyps must be a non-empty list of hypotheses")
    m = None
    hib = True
    if metric is not None:
        scorer = Scorer(metric, variant, higher_is_better, None)
        if refs is None:
            raise InputError("refs are needed to score the hypotheses with a metric")
        texts = [_hypothesis(e) for e in hyps]
        m = scorer(texts, [refs] * len(texts))
        hib = scorer.higher_is_better if checked is None else True
    s = _combine(m, hyps, checked, metric_weight, "hyps")
    return int(np.argmax(s) if hib else np.argmin(s)), s


def _signature(scorer: Scorer | None, weights: dict[str, Any] | None, metric_weight: float,
               hib: bool) -> str:
    how = "oracle" if weights is None else "features" if scorer is None else "combined"
    sig = f"rerank:{how}|higher:{'yes' if hib else 'no'}"
    if weights is not None:
        ws = ",".join(f"{k}={v if isinstance(v, float) else '/'.join(map(str, v.tolist()))}"
                      for k, v in weights.items())
        sig += f"|weights:{ws}"
        if scorer is not None:
            sig += f"|metric_weight:{metric_weight}"
    if scorer is not None:
        sig += f"|metric:{scorer.name}" + (f"|{scorer.metric_signature}"
                                           if scorer.metric_signature else "")
    return sig
