"""ORANGE (Lin & Och 2004): judge a metric by where it ranks the references among candidates.

For each source sentence i there is a list of N_i candidate translations (an n-best list, or
the outputs of several systems) and R_i ≥ 2 reference translations. A good metric should
score the references above the machine translations. Section 4 of the paper:

* each reference r is scored against the other R−1 references: s_r;
* each candidate is scored against each of the R leave-one-out sets (all references but r)
  and the R scores are averaged (jackknifing: candidates and references then face the same
  number of references);
* ``oracle="average_score"`` (the paper's procedure): the oracle score is the mean of the
  s_r, and its rank among the candidates is 1 + #candidates scoring better + ½·#ties;
  ``oracle="average_rank"`` (the paper's other wording, "the average rank of the
  references"): each reference is ranked on its own among the candidates the same way, and
  the R ranks are averaged;
* ORANGE = mean over sentences of rank_i / (N_i + 1), which is eq. 10 when every list has N
  entries. Smaller is better: 1/(N+1) means the references always come first.

The 95% confidence interval resamples source sentences with replacement (seeded bootstrap,
percentile method), for ORANGE and for the average rank.

>>> import mtalign
>>> res = mtalign.orange(mtalign.Rouge("rougeL", tokenize="whitespace"),
...                      [["a b c", "x y z"]], [["a b c", "a b d"]], n_bootstrap=0)
>>> res.ranks.tolist(), round(res.orange, 4)
([2.0], 0.6667)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError, OrangeTexts, orange_ranks
from mtalign._travel import Travels, plain, plain_interval
from mtalign.checks import check_nonempty_list
from mtalign.ranking.scorer import ProgressFn, Scorer

ORACLES = ("average_score", "average_rank")


# -- results ------------------------------------------------------------------------------


class OrangeCurve(Travels):
    """ORANGE as a function of the list length N (prefixes of each list), as in Figure 1.

    Attributes:
        sizes: the list lengths N (int array).
        orange / avg_rank: ORANGE and the mean oracle rank at each N.
        n_sentences: how many sentences have at least N candidates (only those count at N).
        label: a name for legends.
    """

    __slots__ = ("sizes", "orange", "avg_rank", "n_sentences", "label")

    def __init__(self, sizes: np.ndarray, orange: np.ndarray, avg_rank: np.ndarray,
                 n_sentences: np.ndarray, label: str) -> None:
        self.sizes = sizes
        self.orange = orange
        self.avg_rank = avg_rank
        self.n_sentences = n_sentences
        self.label = label

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready lists."""
        return plain({"label": self.label, "sizes": self.sizes, "orange": self.orange,  # type: ignore[no-any-return]
                      "avg_rank": self.avg_rank, "n_sentences": self.n_sentences})

    def plot(self, path: str | None = None, ax: Any = None) -> Any:
        """Draws this curve (see :func:`plot_curves`)."""
        return plot_curves([self], path=path, ax=ax)

    def __repr__(self) -> str:
        return f"OrangeCurve({self.label!r}, sizes={self.sizes.size})"


class OrangeResult(Travels):
    """The outcome of :func:`orange` / :func:`orange_from_scores`.

    Attributes:
        orange: mean over sentences of rank_i / (N_i + 1) (smaller is better).
        avg_rank: mean oracle rank over sentences.
        ci: (low, high) 95% bootstrap interval of ``orange``; NaNs when ``n_bootstrap=0``.
        rank_ci: the same interval for ``avg_rank`` (the paper's 95%-CI columns).
        ranks: per kept sentence, the oracle's rank (float array; halves come from ties).
        list_sizes: N_i of each kept sentence.
        sentence_ids: index in the input of each kept sentence.
        n_sentences / n_dropped: sentences kept, and dropped by ``min_size``.
        candidate_scores / reference_scores: per kept sentence, the (jackknifed) candidate
            scores and the leave-one-out reference scores, for error analysis and curves.
        oracle, higher_is_better, n_bootstrap, seed, signature: how it was computed.
    """

    __slots__ = ("orange", "avg_rank", "ci", "rank_ci", "ranks", "list_sizes",
                 "sentence_ids", "n_sentences", "n_dropped", "candidate_scores",
                 "reference_scores", "oracle", "higher_is_better", "n_bootstrap", "seed",
                 "signature", "label")

    orange: float
    avg_rank: float
    ci: tuple[float, float]
    rank_ci: tuple[float, float]
    ranks: np.ndarray
    list_sizes: np.ndarray
    sentence_ids: np.ndarray
    n_sentences: int
    n_dropped: int
    candidate_scores: list[np.ndarray]
    reference_scores: list[np.ndarray]
    oracle: str
    higher_is_better: bool
    n_bootstrap: int
    seed: int | None
    signature: str
    label: str

    def to_dict(self, sentences: bool = False) -> dict[str, Any]:
        """A JSON-ready dict; ``sentences=True`` adds per-sentence ranks and list sizes."""
        out: dict[str, Any] = {
            "orange": self.orange, "avg_rank": self.avg_rank,
            "ci": plain_interval(self.ci), "rank_ci": plain_interval(self.rank_ci),
            "n_sentences": self.n_sentences, "n_dropped": self.n_dropped,
            "oracle": self.oracle, "higher_is_better": self.higher_is_better,
            "n_bootstrap": self.n_bootstrap, "seed": self.seed, "signature": self.signature,
        }
        if sentences:
            out["sentences"] = [
                {"id": int(i), "rank": float(r), "list_size": int(n)}
                for i, r, n in zip(self.sentence_ids, self.ranks, self.list_sizes,
                                   strict=True)
            ]
        return plain(out)  # type: ignore[no-any-return]

    def curve(self, sizes: Sequence[int] | None = None) -> OrangeCurve:
        """ORANGE for the first N candidates of every list, for each N in ``sizes``.

        Only sentences with at least N candidates count at N (as the paper's 16384-best
        experiment). ``sizes`` defaults to 1 … the longest list. Nothing is rescored: the
        candidate scores do not depend on the list.

        >>> res = orange_from_scores([[0.9, 0.1, 0.2]], [[0.5, 0.5]], n_bootstrap=0)
        >>> res.curve().orange.tolist()
        [1.0, 0.6666666666666666, 0.5]
        """
        return _curve(self, sizes)

    def __repr__(self) -> str:
        return (f"OrangeResult(orange={self.orange:.4f}, avg_rank={self.avg_rank:.2f}, "
                f"ci=({self.ci[0]:.4f}, {self.ci[1]:.4f}), n={self.n_sentences})")

    def __str__(self) -> str:
        return (f"ORANGE {self.orange:.4f} (0-1, lower is better; 95% CI {self.ci[0]:.4f}-"
                f"{self.ci[1]:.4f}), average rank {self.avg_rank:.2f} "
                f"(95% CI {self.rank_ci[0]:.2f}-{self.rank_ci[1]:.2f}), "
                f"{self.n_sentences} sentences\n{self.signature}")


# -- argument checks --------------------------------------------------------------------


def _check_options(oracle: str, min_size: int | None, n_bootstrap: int,
                   seed: int | None) -> None:
    if oracle not in ORACLES:
        raise ConfigError(f"unknown oracle {oracle!r} (choose from: {', '.join(ORACLES)})")
    if min_size is not None and (isinstance(min_size, bool) or not isinstance(min_size, int)
                                 or min_size < 1):
        raise ConfigError(f"min_size must be a positive int or None (got {min_size!r})")
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 0:
        raise ConfigError(f"n_bootstrap must be an int >= 0 (got {n_bootstrap!r})")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError(f"seed must be an int or None (got {seed!r})")


def _as_lists(obj: Any, name: str) -> list:
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Sequence):
        raise InputError(f"{name} must be a list with one list per source sentence "
                         f"(got {type(obj).__name__})")
    return list(obj)


def _distinct(c_list: list[Any]) -> tuple[list[Any], np.ndarray]:
    """A sentence's distinct candidates in first-seen order, and each candidate's index
    among them (identical system outputs are scored once)."""
    seen: dict[Any, int] = {}
    unique: list[Any] = []
    idx = np.empty(len(c_list), dtype=np.int64)
    for j, c in enumerate(c_list):
        key = c if isinstance(c, str) else tuple(c)
        t = seen.get(key)
        if t is None:
            t = seen[key] = len(unique)
            unique.append(c)
        idx[j] = t
    return unique, idx


def _check_candidates(candidates: Any, start: int = 0) -> list[list[Any]]:
    cands = _as_lists(candidates, "candidates")
    out = []
    for i, c in enumerate(cands, start):
        check_nonempty_list(c, f"candidates[{i}]", "candidate translations",
                            "candidate translation", "source sentence")
        out.append(list(c))
    return out


def _check_references(refs: Any, n: int, start: int = 0) -> list[list[Any]]:
    rlist = _as_lists(refs, "refs")
    if len(rlist) != n:
        raise InputError(f"candidates has {n} sentences but refs has {len(rlist)}")
    out = []
    for i, r in enumerate(rlist, start):
        count = 1 if isinstance(r, str) else len(r) if isinstance(r, Sequence) else 0
        if isinstance(r, str) or count < 2:
            raise InputError(
                f"refs[{i}] has {count} reference(s); ORANGE needs at least 2 per sentence: "
                "each reference is scored against the other references (against itself it "
                "would score perfectly), so one reference leaves nothing to score it against")
        out.append(list(r))
    return out


# -- scoring with a metric ----------------------------------------------------------------


def _sequential_mean(flat: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean of flat[starts[t] : starts[t] + counts[t]] for every t, summed left to right.

    Left to right (as Python's ``sum``) so that results are bit-identical to a plain loop.
    """
    acc = np.zeros(starts.size, dtype=np.float64)
    for k in range(int(counts.max()) if counts.size else 0):
        live = counts > k
        acc[live] += flat[starts[live] + k]
    return acc / counts


def _jackknife_scores(scorer: Scorer, cands: list[list[Any]], refs: list[list[Any]],
                      progress: ProgressFn | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Candidate scores (mean over leave-one-out sets) and reference scores, per sentence.

    Everything is one flat batch (candidates, then references) so the native scorer
    tokenizes each distinct text once and scores in parallel. A text that appears several
    times in a sentence's list (identical system outputs) is scored once.
    """
    hyps: list[Any] = []
    sets: list[Any] = []
    item_start: list[int] = []
    item_count: list[int] = []
    cand_items: list[np.ndarray] = []  # per sentence: item index of each candidate
    for c_list, r_list in zip(cands, refs, strict=True):
        loo = [r_list[:k] + r_list[k + 1:] for k in range(len(r_list))]
        unique, idx = _distinct(c_list)
        cand_items.append(idx + len(item_start))
        for c in unique:
            item_start.append(len(hyps))
            item_count.append(len(loo))
            for subset in loo:
                hyps.append(c)
                sets.append(subset)
    n_cand_flat = len(hyps)
    for r_list in refs:
        for k in range(len(r_list)):
            hyps.append(r_list[k])
            sets.append(r_list[:k] + r_list[k + 1:])
    flat = scorer(hyps, sets, progress)
    if not np.all(np.isfinite(flat)):
        bad = int(np.flatnonzero(~np.isfinite(flat))[0])
        raise InputError(f"{scorer.name} returned a non-finite score ({flat[bad]}) for "
                         f"{hyps[bad]!r}")
    means = _sequential_mean(flat, np.asarray(item_start, dtype=np.int64),
                             np.asarray(item_count, dtype=np.int64))
    cand_scores = [means[idx] for idx in cand_items]
    ref_scores = []
    pos = n_cand_flat
    for r_list in refs:
        ref_scores.append(flat[pos:pos + len(r_list)].copy())
        pos += len(r_list)
    return cand_scores, ref_scores


def _scores(scorer: Scorer, cands: list[list[Any]], refs: list[list[Any]],
            progress: ProgressFn | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Candidate and reference scores: in the native loop where the metric computes its
    scalar natively (:func:`_native_scores`), else from single-reference rows where the
    metric allows it (:func:`_single_ref_scores`), else by scoring every leave-one-out set."""
    out = _native_scores(scorer, cands, refs, progress)
    if out is None:
        out = _single_ref_scores(scorer, cands, refs, progress)
    return out if out is not None else _jackknife_scores(scorer, cands, refs, progress)


# Cells (candidate × reference comparisons) per native call when progress is reported (the
# other paths report every ≤ 20,000 pairs too).
_PROGRESS_CELLS = 20000


def _native_scores(scorer: Scorer, cands: list[list[Any]], refs: list[list[Any]],
                   progress: ProgressFn | None
                   ) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """The scores of :func:`_single_ref_scores` / :func:`_jackknife_scores`, bit for bit,
    from the native ORANGE loop (``orange_scores`` of the metric's core: texts encoded
    once, each candidate against each reference once where the metric combines
    single-reference rows, else against each leave-one-out set, means taken natively, no
    Python object per pair). None when it does not apply: a callable or a metric whose
    scores are made in Python, token-list input, or a scalar not computed natively."""
    metric = scorer.metric
    native = getattr(getattr(metric, "_core", None), "orange_scores", None)
    if not scorer.native or native is None or not metric._native_matrix(["a"], ["a"]):
        return None
    if not cands:
        return [], []
    if not all(isinstance(c[0], str) for c in cands) or \
            not all(isinstance(r[0], str) for r in refs):
        return None
    k = metric.scalar_names().index(scorer.variant)
    # Groups of sentences (all at once without progress), each one native call.
    cells = [(len(c) + len(r)) * len(r) for c, r in zip(cands, refs, strict=True)]
    limit = _PROGRESS_CELLS if progress is not None else max(sum(cells), 1)
    total, done, start = sum(cells), 0, 0
    flat_c: list[np.ndarray] = []
    flat_r: list[np.ndarray] = []
    while start < len(cands):
        end, size = start, 0
        while end < len(cands) and (end == start or size + cells[end] <= limit):
            size += cells[end]
            end += 1
        try:
            out = native(cands[start:end], refs[start:end], scorer.threads, k)
        except InputError as e:
            if "is not a str" in str(e):
                return None  # token lists among the texts: the Python path takes them
            raise
        if out is None:
            return None
        flat_c.append(out[0])
        flat_r.append(out[1])
        done += size
        start = end
        if progress is not None:
            progress(done, total)
    c_all = np.concatenate(flat_c) if len(flat_c) != 1 else flat_c[0]
    r_all = np.concatenate(flat_r) if len(flat_r) != 1 else flat_r[0]
    return _split_flat(scorer, c_all, r_all, cands, refs)


def _split_flat(scorer: Scorer, c_all: np.ndarray, r_all: np.ndarray, cands: list[list[Any]],
                refs: list[list[Any]]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Flat native candidate and reference scores → one array per sentence (checked finite)."""
    c_ends = np.cumsum([len(c) for c in cands])
    r_ends = np.cumsum([len(r) for r in refs])
    cand_scores = np.split(c_all, c_ends[:-1])
    ref_scores = np.split(r_all, r_ends[:-1])
    for i, c in enumerate(cand_scores):
        if not np.all(np.isfinite(c)):
            raise InputError(f"{scorer.name} returned a non-finite score in sentence {i}")
    return cand_scores, ref_scores


def _native_ok(scorer: Scorer) -> bool:
    """Whether the metric of ``scorer`` may take the native ORANGE loop (text input aside)."""
    metric = scorer.metric
    core = getattr(metric, "_core", None)
    return scorer.native and hasattr(core, "orange_scores_of") and \
        bool(metric._native_matrix(["a"], ["a"]))


def _scores_many(scorers: list[Scorer], cands: list[list[Any]], refs: list[list[Any]],
                 progress: ProgressFn | None) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    """:func:`_scores` of each scorer, bit for bit, with the text lists read once and encoded
    once per tokenizer, and the scalars of one metric object scored in one native pass
    (``orange_scores_of`` on an ``OrangeTexts``). ``progress(done, total)`` counts scorers."""
    out: list[tuple[list[np.ndarray], list[np.ndarray]] | None] = [None] * len(scorers)
    groups: dict[int, list[int]] = {}
    for i, scorer in enumerate(scorers):
        if _native_ok(scorer):
            groups.setdefault(id(scorer.metric), []).append(i)
    texts = None
    if groups and cands and all(isinstance(c[0], str) for c in cands) and \
            all(isinstance(r[0], str) for r in refs):
        try:
            texts = OrangeTexts(cands, refs)
        except InputError as e:
            if "is not a str" not in str(e):
                raise  # token lists among the texts: each scorer's own path takes them
    done = 0
    if texts is not None:
        for idx in groups.values():
            metric = scorers[idx[0]].metric
            names = metric.scalar_names()
            ks = [names.index(scorers[i].variant) for i in idx]
            res = metric._core.orange_scores_of(texts, ks, scorers[idx[0]].threads)
            if res is None:
                continue
            for i, (c_all, r_all) in zip(idx, res, strict=True):
                out[i] = _split_flat(scorers[i], c_all, r_all, cands, refs)
                done += 1
                if progress is not None:
                    progress(done, len(scorers))
    result = []
    for i, scorer in enumerate(scorers):
        scores = out[i]
        if scores is None:
            scores = _scores(scorer, cands, refs, None)
            done += 1
            if progress is not None:
                progress(done, len(scorers))
        result.append(scores)
    return result


def _streamed_scores(scorer: Scorer, candidates: Any, refs: Any, chunk_size: int,
                     progress: ProgressFn | None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """:func:`_jackknife_scores` chunk by chunk over (possibly lazy) sentence streams."""
    return _streamed(lambda c, r: [_scores(scorer, c, r, None)], 1, candidates, refs,
                     chunk_size, progress)[0]


_ChunkScores = list[tuple[list[np.ndarray], list[np.ndarray]]]


def _streamed(score_chunk: Any, n_out: int, candidates: Any, refs: Any, chunk_size: int,
              progress: ProgressFn | None) -> _ChunkScores:
    """``score_chunk(cands, refs)`` (one (candidate, reference) score lists per output)
    chunk by chunk over (possibly lazy) sentence streams, concatenated per output."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"chunk_size must be a positive int or None (got {chunk_size!r})")
    for name, obj in (("candidates", candidates), ("refs", refs)):
        if isinstance(obj, (str, bytes)) or not hasattr(obj, "__iter__"):
            raise InputError(f"{name} must be a list (or an iterable) with one entry per "
                             f"source sentence (got {type(obj).__name__})")
    total = len(candidates) if hasattr(candidates, "__len__") else 0
    if hasattr(candidates, "__len__") and hasattr(refs, "__len__") and len(refs) != total:
        raise InputError(f"candidates has {total} sentences but refs has {len(refs)}")
    out: _ChunkScores = [([], []) for _ in range(n_out)]
    c_iter, r_iter = iter(candidates), iter(refs)
    start = 0
    while True:
        c_chunk = list(itertools.islice(c_iter, chunk_size))
        r_chunk = list(itertools.islice(r_iter, chunk_size))
        if len(c_chunk) != len(r_chunk):
            n_c, n_r = start + len(c_chunk), start + len(r_chunk)
            raise InputError(f"candidates and refs differ in length (one ends after "
                             f"{min(n_c, n_r)} sentences)")
        if not c_chunk:
            break
        cands = _check_candidates(c_chunk, start)
        rlists = _check_references(r_chunk, len(cands), start)
        for (c_all, r_all), (c, r) in zip(out, score_chunk(cands, rlists), strict=True):
            c_all.extend(c)
            r_all.extend(r)
        start += len(cands)
        if progress is not None:
            progress(start, max(total, start))
    return out


def _single_ref_scores(scorer: Scorer, cands: list[list[Any]], refs: list[list[Any]],
                       progress: ProgressFn | None
                       ) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """:func:`_jackknife_scores` with each candidate scored against each reference once.

    For metrics whose score against a set is a function of the scores against its members
    (``Metric._combine_single``: WER/PER take the best reference, ROUGE with
    ``multi_ref="max"`` the maximum P and R), the R leave-one-out sets of a candidate are
    combined from its R single-reference rows: R comparisons instead of R·(R−1). The numbers
    are bit-identical to scoring the sets. None when the metric does not allow it.
    """
    metric = scorer.metric
    combine = getattr(metric, "_combine_single", None)
    run = getattr(metric, "_run", None)
    if not scorer.native or combine is None or run is None \
            or getattr(metric, "_core", None) is None:
        return None
    from mtalign.metrics.base import Metric

    if type(metric).scalar_scores is not Metric.scalar_scores:
        return None  # scores not made from the native rows
    names = metric.scalar_names()
    k = names.index(scorer.variant)
    probe = combine(np.zeros((1, 1) + _row_shape(metric)), k)
    if probe is None:
        return None
    cand_items: list[np.ndarray] = []
    blocks: list[tuple[list[Any], list[Any]]] = []
    for c_list, r_list in zip(cands, refs, strict=True):
        unique, idx = _distinct(c_list)
        cand_items.append(idx)
        blocks.append((unique, r_list))
    blocks += [(r_list, r_list) for r_list in refs]
    # One matrix per sentence (its distinct candidates × its references) and one per
    # reference set (references × references): each pair once, as statistics rows.
    matrices = _block_rows(scorer, blocks, progress)
    cand_scores = []
    for idx, block in zip(cand_items, matrices[:len(cands)], strict=True):
        n_r = block.shape[1]
        acc = np.zeros(block.shape[0])
        for left_out in range(n_r):  # summed left to right, as _sequential_mean
            keep = [j for j in range(n_r) if j != left_out]
            value = combine(block[:, keep], k)
            if value is None:
                return None  # these rows do not allow it (ROUGE: β so large F overflows)
            acc += value
        cand_scores.append((acc / n_r)[idx])
    ref_scores = []
    for block in matrices[len(cands):]:
        n_r = block.shape[0]
        others = np.array([[b for b in range(n_r) if b != a] for a in range(n_r)])
        rows = block[np.arange(n_r)[:, None], others]  # (R, R-1, *row)
        value = combine(rows, k)
        if value is None:
            return None
        ref_scores.append(np.asarray(value, dtype=np.float64))
    for i, c in enumerate(cand_scores):
        if not np.all(np.isfinite(c)):
            raise InputError(f"{scorer.name} returned a non-finite score in sentence {i}")
    return cand_scores, ref_scores


def _block_rows(scorer: Scorer, blocks: list[tuple[list[Any], list[Any]]],
                progress: ProgressFn | None) -> list[np.ndarray]:
    """Statistics rows of each block's hypotheses × single references, (n_b, m_b, *row):
    the native many-matrix call for text, else the flat batch of the pairs."""
    metric = scorer.metric
    texts = all(isinstance(x, str) for h, r in blocks for x in (*h, *r))
    if texts and hasattr(metric._core, "score_matrices") and metric._native_matrix(["a"], ["a"]):
        # Groups of blocks of at most `chunk` pairs when progress is reported.
        sizes = [len(h) * len(r) for h, r in blocks]
        total, chunk = sum(sizes), 20000 if progress is not None else max(sum(sizes), 1)
        out: list[np.ndarray] = []
        start = done = 0
        while start < len(blocks):
            end, pairs = start, 0
            while end < len(blocks) and (end == start or pairs + sizes[end] <= chunk):
                pairs += sizes[end]
                end += 1
            arrays, _, _ = metric._core.score_matrices(blocks[start:end], scorer.threads, None)
            out.extend(np.asarray(a, dtype=np.float64) for a in arrays)
            done += pairs
            start = end
            if progress is not None:
                progress(done, total)
        return out
    hyps = [h for hs, rs in blocks for h in hs for _ in rs]
    sets = [[r] for hs, rs in blocks for _ in hs for r in rs]
    flat = scorer.rows(hyps, sets, progress)
    out, pos = [], 0
    for hs, rs in blocks:
        n = len(hs) * len(rs)
        out.append(flat[pos:pos + n].reshape((len(hs), len(rs)) + flat.shape[1:]))
        pos += n
    return out


def _row_shape(metric: Any) -> tuple[int, ...]:
    """The shape of one statistics row of a native metric (its native output per pair)."""
    arr = metric._run(["a"], ["a"], 1)[0]
    return tuple(arr.shape[1:])


# -- ranking --------------------------------------------------------------------------------


def _oracle_ranks(cands: Sequence[np.ndarray], refs: Sequence[np.ndarray], oracle: str,
                  higher_is_better: bool, sizes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """The oracle's rank in each list at its own length, and at each N of ``sizes``
    (ascending; NaN where a list is shorter), in one native pass over each list."""
    c_off = np.zeros(len(cands) + 1, dtype=np.int64)
    np.cumsum([c.size for c in cands], out=c_off[1:])
    r_off = np.zeros(len(refs) + 1, dtype=np.int64)
    np.cumsum([r.size for r in refs], out=r_off[1:])
    flat_c = np.ascontiguousarray(np.concatenate(cands) if cands else np.zeros(0), np.float64)
    flat_r = np.ascontiguousarray(np.concatenate(refs) if refs else np.zeros(0), np.float64)
    last, grid = orange_ranks(flat_c, c_off.tolist(), flat_r, r_off.tolist(), oracle,
                              higher_is_better, [int(n) for n in sizes])
    return last, grid


def _bootstrap(values: Sequence[np.ndarray], n_bootstrap: int,
               seed: int | None) -> list[tuple[float, float]]:
    """Percentile 95% intervals of the mean of each array, over the same resamples."""
    if n_bootstrap == 0:
        return [(math.nan, math.nan) for _ in values]
    n = values[0].size
    rng = np.random.default_rng(seed)
    means = [np.empty(n_bootstrap) for _ in values]
    for b in range(n_bootstrap):
        idx = rng.integers(0, n, size=n)  # one resample of the sentences
        for m, v in zip(means, values, strict=True):
            m[b] = v[idx].mean()
    return [(float(np.percentile(m, 2.5)), float(np.percentile(m, 97.5))) for m in means]


def _finish(cand_scores: list[np.ndarray], ref_scores: list[np.ndarray], oracle: str,
            min_size: int | None, n_bootstrap: int, seed: int | None,
            higher_is_better: bool, signature: str, label: str) -> OrangeResult:
    keep = [i for i, c in enumerate(cand_scores) if min_size is None or c.size >= min_size]
    if not keep:
        what = "no sentences were given" if not cand_scores else \
            f"min_size={min_size} dropped all {len(cand_scores)} sentences"
        raise InputError(f"nothing to rank: {what}")
    cands = [cand_scores[i] for i in keep]
    refs = [ref_scores[i] for i in keep]
    sizes = np.array([c.size for c in cands], dtype=np.int64)
    ranks, _ = _oracle_ranks(cands, refs, oracle, higher_is_better, [])
    ratios = ranks / (sizes + 1)
    ci, rank_ci = _bootstrap([ratios, ranks], n_bootstrap, seed)
    signature = (f"orange:{oracle}|higher:{'yes' if higher_is_better else 'no'}|"
                 f"min_size:{min_size if min_size is not None else 'none'}|"
                 f"boot:{n_bootstrap}|seed:{seed}" + (f"|{signature}" if signature else ""))
    res = OrangeResult.__new__(OrangeResult)
    res.__setstate__({  # every slot, as unpickling sets them
        "orange": math.fsum(ratios.tolist()) / len(keep),
        "avg_rank": math.fsum(ranks.tolist()) / len(keep),
        "ci": ci, "rank_ci": rank_ci, "ranks": ranks, "list_sizes": sizes,
        "sentence_ids": np.asarray(keep, dtype=np.int64), "n_sentences": len(keep),
        "n_dropped": len(cand_scores) - len(keep), "candidate_scores": cands,
        "reference_scores": refs, "oracle": oracle, "higher_is_better": higher_is_better,
        "n_bootstrap": n_bootstrap, "seed": seed, "label": label, "signature": signature,
    })
    return res


def _curve(res: OrangeResult, sizes: Sequence[int] | None) -> OrangeCurve:
    list_sizes = np.array([c.size for c in res.candidate_scores], dtype=np.int64)
    longest = int(list_sizes.max())
    grid = np.arange(1, longest + 1) if sizes is None else np.asarray(list(sizes), np.int64)
    if grid.size and (grid.min() < 1 or grid.max() > longest):
        raise ConfigError(f"curve sizes must be between 1 and the longest list ({longest})")
    # One pass over each list for every N (ascending; any order given comes back as given).
    order = np.argsort(grid, kind="stable")
    _, by_size = _oracle_ranks(res.candidate_scores, res.reference_scores, res.oracle,
                               res.higher_is_better, grid[order].tolist())
    prefix = np.empty_like(by_size)
    prefix[:, order] = by_size
    orange_n = np.empty(grid.size)
    rank_n = np.empty(grid.size)
    count_n = np.empty(grid.size, dtype=np.int64)
    for k, n in enumerate(grid):
        live = list_sizes >= n
        ranks = prefix[live, k]
        count_n[k] = ranks.size
        orange_n[k] = math.fsum((ranks / (n + 1)).tolist()) / ranks.size
        rank_n[k] = math.fsum(ranks.tolist()) / ranks.size
    return OrangeCurve(grid, orange_n, rank_n, count_n, res.label)


# -- public API -------------------------------------------------------------------------------


def orange(metric: Any, candidates: Sequence[Sequence[Any]], refs: Sequence[Sequence[Any]],
           *, variant: str | None = None, oracle: str = "average_score",
           min_size: int | None = None, n_bootstrap: int = 1000, seed: int | None = 12345,
           higher_is_better: bool | None = None, threads: int | None = None,
           progress: ProgressFn | None = None,
           chunk_size: int | None = None) -> OrangeResult:
    """ORANGE of ``metric``: where it ranks the references among the candidates.

    Args:
        metric: an mtalign metric (anything with ``scalar_names``/``scalar_scores``), or a
            Python callable ``(hyp, refs) -> float`` where ``refs`` is a list of references
            (slow: called once per pair).
        candidates: ``candidates[i]`` is the list of candidate translations of sentence i
            (an n-best list in order, or one output per system); lists may differ in length.
        refs: ``refs[i]`` is the list of R_i ≥ 2 references of sentence i.
        variant: the score to rank by when the metric has several (e.g. ``"rougeL"``, whose
            F-measure is used; ``Dcs`` → ``"dcs"``); default the metric's first.
        oracle: ``"average_score"`` (rank of the mean reference score) or
            ``"average_rank"`` (mean of each reference's own rank); see the module doc.
        min_size: drop sentences with fewer candidates (the paper kept only full lists).
        n_bootstrap, seed: the bootstrap of the 95% interval over sentences (0 = none).
        higher_is_better: override the metric's own direction (for callables that
            compute an error rate, pass False).
        threads: threads for the native scorer (default: all cores).
        progress: optional ``callback(done, total)`` called as the scoring advances (with
            ``chunk_size``: sentences done, and the total when ``candidates`` has a length).
        chunk_size: stream the sentences in chunks of this many (``candidates`` and ``refs``
            may then be iterables, e.g. generators reading files): only one chunk's texts
            are held at a time, and the result is bit-identical to ``chunk_size=None``
            (every score is a function of its own pair, whatever the batch), for any thread
            count. Memory is then the chunk's texts plus one float per candidate (the ranks
            and the curve need them): 474 × 16384 candidates keep 62 MB of scores.

    Without ``chunk_size``, all the scoring is one batch call to the metric: each candidate
    against each of its sentence's R leave-one-out reference sets, and each reference
    against the others. For text and a metric whose sentence score is native (ROUGE, BLEU,
    NIST, chrF, WER, PER) that call is the native ORANGE loop: each distinct candidate of a
    list scored once, the R leave-one-out means taken natively (from single-reference rows
    where the metric allows), the same bits as the Python path.

    >>> from mtalign import Rouge
    >>> cands = [["the cat sat", "a cat sat down", "dogs"], ["hello world", "hello"]]
    >>> refs = [["the cat sat down", "a cat sat"], ["hello world !", "hello world"]]
    >>> res = orange(Rouge("rougeL"), cands, refs, n_bootstrap=0)
    >>> res.ranks.tolist(), res.orange
    ([3.0, 1.5], 0.625)
    """
    _check_options(oracle, min_size, n_bootstrap, seed)
    scorer = Scorer(metric, variant, higher_is_better, threads)
    if chunk_size is None:
        cands = _check_candidates(candidates)
        rlists = _check_references(refs, len(cands))
        cand_scores, ref_scores = _scores(scorer, cands, rlists, progress)
    else:
        cand_scores, ref_scores = _streamed_scores(scorer, candidates, refs, chunk_size,
                                                   progress)
    parts = [f"metric:{scorer.name}"]
    if scorer.metric_signature:
        parts.append(scorer.metric_signature)
    return _finish(cand_scores, ref_scores, oracle, min_size, n_bootstrap, seed,
                   scorer.higher_is_better, "|".join(parts), scorer.name)


def orange_many(metrics: Sequence[Any], candidates: Sequence[Sequence[Any]],
                refs: Sequence[Sequence[Any]], *, oracle: str = "average_score",
                min_size: int | None = None, n_bootstrap: int = 1000,
                seed: int | None = 12345, threads: int | None = None,
                progress: ProgressFn | None = None,
                chunk_size: int | None = None) -> list[OrangeResult]:
    """ORANGE of several metrics over the same lists: one :class:`OrangeResult` per entry,
    each the same as ``orange(metric, ..., variant=variant)`` gives on its own.

    ``metrics`` holds metric objects (ranked by their default scalar), ``(metric, variant)``
    pairs, or Python callables. For text and native metrics, the lists are read once (per
    chunk with ``chunk_size``), each distinct text is tokenized once per tokenizer (BLEU,
    NIST, WER and PER share 13a), and the scalars of one metric object are scored in one
    pass: give ``Rouge(["rougeL", "rougeW-1.1", "rougeS4"])`` once per variant, e.g.
    ``[(rouge, "rougeL"), (rouge, "rougeW-1.1"), (rouge, "rougeS4")]``, and its
    single-reference rows are computed once for all three. The other arguments are those of
    :func:`orange`, shared by every entry (``progress``: sentences done with
    ``chunk_size``, else entries done).

    >>> from mtalign import Rouge, Wer
    >>> rouge = Rouge(["rougeL", "rouge1"])
    >>> cands = [["the cat sat", "a cat sat down", "dogs"], ["hello world", "hello"]]
    >>> refs = [["the cat sat down", "a cat sat"], ["hello world !", "hello world"]]
    >>> res = orange_many([(rouge, "rougeL"), (rouge, "rouge1"), Wer()], cands, refs,
    ...                   n_bootstrap=0)
    >>> [r.orange for r in res] == [orange(m, cands, refs, variant=v, n_bootstrap=0).orange
    ...                             for m, v in [(rouge, "rougeL"), (rouge, "rouge1"),
    ...                                          (Wer(), None)]]
    True
    >>> res[0].orange
    0.625
    """
    _check_options(oracle, min_size, n_bootstrap, seed)
    if isinstance(metrics, (str, bytes)) or not isinstance(metrics, Sequence) or not metrics:
        raise ConfigError("metrics must be a non-empty list of metrics or (metric, variant) "
                          f"pairs (got {metrics!r})")
    scorers = []
    for j, entry in enumerate(metrics):
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ConfigError(f"metrics[{j}] must be a metric or a (metric, variant) pair "
                                  f"(got a tuple of {len(entry)})")
            metric, variant = entry
        else:
            metric, variant = entry, None
        scorers.append(Scorer(metric, variant, None, threads))
    if chunk_size is None:
        cands = _check_candidates(candidates)
        rlists = _check_references(refs, len(cands))
        per = _scores_many(scorers, cands, rlists, progress)
    else:
        per = _streamed(lambda c, r: _scores_many(scorers, c, r, None), len(scorers),
                        candidates, refs, chunk_size, progress)
    out = []
    for scorer, (cand_scores, ref_scores) in zip(scorers, per, strict=True):
        parts = [f"metric:{scorer.name}"]
        if scorer.metric_signature:
            parts.append(scorer.metric_signature)
        out.append(_finish(cand_scores, ref_scores, oracle, min_size, n_bootstrap, seed,
                           scorer.higher_is_better, "|".join(parts), scorer.name))
    return out


def orange_from_scores(candidate_scores: Sequence[Sequence[float]],
                       reference_scores: Sequence[Sequence[float]], *,
                       oracle: str = "average_score", min_size: int | None = None,
                       n_bootstrap: int = 1000, seed: int | None = 12345,
                       higher_is_better: bool = True, label: str = "scores") -> OrangeResult:
    """ORANGE from precomputed scores, for metrics outside mtalign.

    ``candidate_scores[i]`` holds the score of each candidate of sentence i (already
    averaged over the leave-one-out reference sets if you follow the paper), and
    ``reference_scores[i]`` the score of each reference against the other references.

    >>> res = orange_from_scores([[0.2, 0.9, 0.5]], [[0.5, 0.5]], n_bootstrap=0)
    >>> res.ranks.tolist(), res.orange
    ([2.5], 0.625)
    >>> orange_from_scores([[0.2, 0.9, 0.5]], [[0.5, 0.7]], n_bootstrap=0,
    ...                    oracle="average_rank").ranks.tolist()
    [2.25]
    """
    _check_options(oracle, min_size, n_bootstrap, seed)
    if not isinstance(higher_is_better, bool):
        raise ConfigError(f"higher_is_better must be True or False (got {higher_is_better!r})")
    cands = _as_lists(candidate_scores, "candidate_scores")
    refs = _as_lists(reference_scores, "reference_scores")
    if len(cands) != len(refs):
        raise InputError(f"candidate_scores has {len(cands)} sentences but reference_scores "
                         f"has {len(refs)}")
    c_arrays: list[np.ndarray] = []
    r_arrays: list[np.ndarray] = []
    for name, rows, out in (("candidate_scores", cands, c_arrays),
                            ("reference_scores", refs, r_arrays)):
        for i, row in enumerate(rows):
            arr = np.asarray(row, dtype=np.float64)
            if arr.ndim != 1 or arr.size == 0:
                raise InputError(f"{name}[{i}] must be a non-empty list of numbers")
            if not np.all(np.isfinite(arr)):
                raise InputError(f"{name}[{i}] has a non-finite score")
            out.append(arr)
    return _finish(c_arrays, r_arrays, oracle, min_size, n_bootstrap, seed, higher_is_better,
                   "", label)


def plot_curves(curves: Sequence[OrangeCurve], path: str | None = None, ax: Any = None,
                title: str | None = None) -> Any:
    """Plots ORANGE against list length for several curves (needs ``mtalign[plot]``).

    Writes the figure to ``path`` when given; returns the matplotlib Axes.
    """
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install 'mtalign[plot]'") from None
    if ax is None:
        if path is not None:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    for c in curves:
        ax.plot(c.sizes, c.orange, label=c.label, linewidth=1.4,
                marker="o" if c.sizes.size <= 40 else None, markersize=3)
    from matplotlib.ticker import MaxNLocator  # type: ignore[import-not-found, unused-ignore]

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("list length N (first N candidates)")
    ax.set_ylabel("ORANGE (0-1) — lower is better")
    ax.set_title(title or "ORANGE vs list length")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    if path is not None:
        fig.tight_layout()
        fig.savefig(path, dpi=120)
    return ax
