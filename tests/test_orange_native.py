"""ORANGE's native loop (``orange_scores`` of a metric's core) against the Python path it
replaces: every candidate and reference score, the ranks and ORANGE bit-identical, for every
registry metric whose scalar is computed natively, 1 and 2 threads, one batch and chunks.
The Python path (single-reference rows combined in NumPy, or every leave-one-out set scored
through ``scalar_scores``) is the oracle; it was itself checked against hand-computed ranks
and the pure-Python twin (tests/test_orange.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import mtalign
import numpy as np
import pytest
from mtalign import registry
from mtalign.ranking.scorer import Scorer

orange_mod = importlib.import_module("mtalign.ranking.orange")  # the module, not the function
WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"

NATIVE = ["rougeL", "rouge1", "rouge2", "rougeW-1.1", "rougeW-1.2", "rougeS4", "rougeSU4",
          "rougeS*", "rougeLsum", "bleu", "bleus4", "bleus6", "bleu2", "nist", "wer", "per",
          "chrf", "chrf++", "gtm1", "gtm2"]
PYTHON_ONLY = ["dcs", "sia", "ter", "ribes", "meteor"]


def _data() -> tuple[list[list[str]], list[list[str]]]:
    systems = sorted((WMT / "hyp").iterdir())
    hyps = [p.read_text(encoding="utf-8").splitlines() for p in systems]
    refs = [(WMT / f"ref.{k}.de").read_text(encoding="utf-8").splitlines() for k in "ACD"]
    n = len(refs[0])
    # Ragged lists of 1 to 20 candidates; some repeat a candidate, one has an empty one.
    cands = [[h[i] for h in hyps[: 1 + (i * 7) % 20]] for i in range(n)]
    cands[3] = cands[3] + [cands[3][0], "", refs[0][3]]
    # Two to four references: the three human ones, or fewer, or one more system output.
    ref_lists = [[r[i] for r in refs] for i in range(n)]
    ref_lists[5] = ref_lists[5][:2]
    ref_lists[6] = ref_lists[6] + [hyps[0][6]]
    return cands, ref_lists


def _python_path(metric: Any, cands: Any, refs: Any, monkeypatch: pytest.MonkeyPatch,
                 **kw: Any) -> mtalign.OrangeResult:
    with monkeypatch.context() as m:
        m.setattr(orange_mod, "_native_scores", lambda *a: None)
        return mtalign.orange(metric, cands, refs, **kw)


def _same(a: mtalign.OrangeResult, b: mtalign.OrangeResult) -> None:
    assert a.orange == b.orange and a.avg_rank == b.avg_rank and a.ci == b.ci
    assert np.array_equal(a.ranks, b.ranks)
    assert len(a.candidate_scores) == len(b.candidate_scores)
    for x, y in zip(a.candidate_scores + a.reference_scores,
                    b.candidate_scores + b.reference_scores, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert a.signature == b.signature


@pytest.mark.parametrize("name", NATIVE)
def test_native_loop_equals_the_python_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    metric, variant = registry.make_metric(name)
    cands, refs = _data()
    scorer = Scorer(metric, variant, None, 1)
    assert orange_mod._native_scores(scorer, cands, refs, None) is not None, name
    for oracle in ("average_score", "average_rank"):
        want = _python_path(metric, cands, refs, monkeypatch, variant=variant, oracle=oracle,
                            n_bootstrap=20, threads=1)
        for threads, chunk in ((1, None), (2, None), (2, 1), (1, 7)):
            got = mtalign.orange(metric, cands, refs, variant=variant, oracle=oracle,
                                 n_bootstrap=20, threads=threads, chunk_size=chunk)
            _same(got, want)


@pytest.mark.parametrize("metric", [
    mtalign.Rouge("rougeL", multi_ref="average"), mtalign.Rouge("rouge2", jackknife=True),
    mtalign.Rouge(["rouge1", "rougeL"], multi_ref="best_f"),
    mtalign.Rouge("rougeLsum", compat="rouge_score"), mtalign.Rouge("rouge1", compat="rouge155"),
    mtalign.Bleu(smooth="exp", effective_order=True),
    mtalign.Nist(max_order=2), mtalign.Chrf(word_order=2, beta=3)],
    ids=repr)
def test_other_configurations(metric: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set-scored ROUGE (average, jackknife, best_f), a second variant, compat profiles, a
    β large enough to overflow F's products, other BLEU / NIST / chrF options."""
    cands, refs = _data()
    variant = metric.scalar_names()[-1]
    want = _python_path(metric, cands, refs, monkeypatch, variant=variant, n_bootstrap=0)
    for threads, chunk in ((2, None), (1, 3)):
        _same(mtalign.orange(metric, cands, refs, variant=variant, n_bootstrap=0,
                             threads=threads, chunk_size=chunk), want)


def test_beta_so_large_that_f_overflows() -> None:
    """β = 1e200: F's products overflow and the native formula divides through by β²; the
    oracle is every leave-one-out set scored natively as a set (the Python path for metrics
    without the combination). The combination of single-reference rows is the native one
    (``set_scores``, the same F formula), so it gives the same bits."""
    metric = mtalign.Rouge("rougeL", beta=1e200)
    cands, refs = _data()
    want = orange_mod._jackknife_scores(Scorer(metric, None, None, 1), cands, refs, None)
    single = orange_mod._single_ref_scores(Scorer(metric, None, None, 1), cands, refs, None)
    assert single is not None
    for g, w in zip(single[0] + single[1], want[0] + want[1], strict=True):
        assert np.array_equal(g, w)
    for threads in (1, 2):
        got = orange_mod._native_scores(Scorer(metric, None, None, threads), cands, refs, None)
        assert got is not None
        for g, w in zip(got[0] + got[1], want[0] + want[1], strict=True):
            assert np.array_equal(g, w)


# -- ranks: the NumPy computation mtalign.orange used before the native pass, as the oracle

def _padded(rows: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    sizes = np.array([r.size for r in rows], dtype=np.int64)
    out = np.full((len(rows), int(sizes.max())), np.nan)
    for i, r in enumerate(rows):
        out[i, : r.size] = r
    return out, sizes


def _rank_prefix(cands: list[np.ndarray], refs: list[np.ndarray], oracle: str,
                 higher: bool) -> np.ndarray:
    """(S, Nmax) oracle rank among the first N candidates (NaN past a list's end is
    never better nor tied, so padding changes nothing before it)."""
    cand, _ = _padded(cands)
    ref, counts = _padded(refs)

    def rank(t: np.ndarray) -> np.ndarray:
        better = cand > t[:, None] if higher else cand < t[:, None]
        return 1.0 + np.cumsum(better, axis=1) + 0.5 * np.cumsum(cand == t[:, None], axis=1)

    if oracle == "average_score":
        acc = np.zeros(len(refs))
        for k in range(ref.shape[1]):
            live = counts > k
            acc[live] += ref[live, k]
        return rank(acc / counts)
    out = np.zeros(cand.shape)
    for k in range(ref.shape[1]):
        live = counts > k
        out[live] += rank(np.where(live, ref[:, k], 0.0))[live]
    return out / counts[:, None]


@pytest.mark.parametrize("oracle", ["average_score", "average_rank"])
@pytest.mark.parametrize("higher", [True, False])
def test_native_ranks_equal_numpy_cumulative_sums(oracle: str, higher: bool) -> None:
    rng = np.random.default_rng(7)
    # Scores on a coarse grid, so ties between candidates and references are common.
    cands = [rng.integers(0, 6, size=int(n)) / 4 for n in rng.integers(1, 40, size=60)]
    refs = [rng.integers(0, 6, size=int(r)) / 4 for r in rng.integers(2, 5, size=60)]
    want = _rank_prefix(cands, refs, oracle, higher)
    sizes = [c.size for c in cands]
    grid = [1, 2, 3, 5, 8, 13, 21, 34, 39]
    last, by_n = orange_mod._oracle_ranks(cands, refs, oracle, higher, grid)
    assert np.array_equal(last, want[np.arange(60), np.array(sizes) - 1])
    for k, n in enumerate(grid):
        live = np.array(sizes) >= n
        assert np.array_equal(by_n[live, k], want[live, n - 1])
        assert np.isnan(by_n[~live, k]).all()
    res = mtalign.orange_from_scores(cands, refs, oracle=oracle, higher_is_better=higher,
                                     n_bootstrap=0)
    assert np.array_equal(res.ranks, last)
    # The curve in any order of N: the same numbers as in ascending order.
    up = res.curve(grid)
    down = res.curve(grid[::-1])
    assert np.array_equal(up.orange[::-1], down.orange)
    assert np.array_equal(up.avg_rank[::-1], down.avg_rank)


def test_native_ranks_refuse_bad_offsets() -> None:
    from mtalign._mtalign import orange_ranks

    c, r = np.array([0.5, 0.2]), np.array([0.1, 0.3])
    with pytest.raises(mtalign.InputError, match="offsets"):
        orange_ranks(c, [0, 3], r, [0, 2], "average_score", True, [])
    with pytest.raises(mtalign.InputError, match="ascending"):
        orange_ranks(c, [0, 2], r, [0, 2], "average_score", True, [2, 1])
    with pytest.raises(mtalign.ConfigError, match="unknown oracle"):
        orange_ranks(c, [0, 2], r, [0, 2], "best", True, [])


@pytest.mark.parametrize("name", PYTHON_ONLY)
def test_metrics_scored_in_python_keep_the_python_path(name: str) -> None:
    metric, variant = registry.make_metric(name)
    cands, refs = _data()
    cands, refs = cands[:4], refs[:4]
    assert orange_mod._native_scores(Scorer(metric, variant, None, 1), cands, refs,
                                     None) is None


def test_token_lists_and_callables_keep_the_python_path() -> None:
    tokens = [[["a", "b"], ["a"]]]
    ref_tokens = [[["a", "b"], ["a", "c"]]]
    wer = mtalign.Wer()
    assert orange_mod._native_scores(Scorer(wer, None, None, 1), tokens, ref_tokens,
                                     None) is None
    got = mtalign.orange(wer, tokens, ref_tokens, n_bootstrap=0)
    assert got.ranks.tolist() == mtalign.orange(wer, [["a b", "a"]], [["a b", "a c"]],
                                                n_bootstrap=0).ranks.tolist()
    # Text, then a token list in the same list: the Python path refuses it, as before.
    with pytest.raises(mtalign.InputError, match="not a str"):
        mtalign.orange(wer, [["a b", ["a"]]], [["a b", "a c"]], n_bootstrap=0)
    call = lambda h, r: float(len(h))  # noqa: E731
    assert orange_mod._native_scores(Scorer(call, None, None, 1), [["a"]], [["a", "b"]],
                                     None) is None


def test_progress_and_errors() -> None:
    cands, refs = _data()
    seen: list[tuple[int, int]] = []
    old = orange_mod._PROGRESS_CELLS
    orange_mod._PROGRESS_CELLS = 500  # several native calls
    try:
        got = mtalign.orange(mtalign.Rouge("rougeL"), cands, refs, n_bootstrap=0,
                             progress=lambda d, t: seen.append((d, t)))
    finally:
        orange_mod._PROGRESS_CELLS = old
    assert len(seen) > 3 and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    _same(got, mtalign.orange(mtalign.Rouge("rougeL"), cands, refs, n_bootstrap=0))
    with pytest.raises(mtalign.InputError, match=r"candidates\[1\]\[0\] is not a str"):
        mtalign.Wer()._core.orange_scores([["a"], [3]], [["a", "b"], ["a", "b"]])
    with pytest.raises(mtalign.InputError, match=r"refs\[0\] has 1 reference"):
        mtalign.Wer()._core.orange_scores([["a"]], [["a"]])


def test_group_size_never_changes_a_number() -> None:
    cands, refs = _data()
    for core in (mtalign.Rouge("rougeW-1.2")._core, mtalign.Bleu()._core):
        want = core.orange_scores(cands, refs, 1, 0)
        for threads, cells in ((2, 0), (1, 37), (2, 10**9)):
            got = core.orange_scores(cands, refs, threads, 0, cells)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
