"""ORANGE streamed in chunks: bit-identical to the one-batch computation (ranks, ORANGE,
intervals, every candidate and reference score, the curve) for any chunk size and thread
count, with lists or lazy generators as input."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import mtalign
import numpy as np
import pytest
from mtalign import registry

WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"


def _data() -> tuple[list[list[str]], list[list[str]]]:
    systems = sorted((WMT / "hyp").iterdir())
    hyps = [p.read_text(encoding="utf-8").splitlines() for p in systems]
    refs = [(WMT / f"ref.{k}.de").read_text(encoding="utf-8").splitlines() for k in "ACD"]
    n = len(refs[0])
    # Ragged lists (2 to 20 candidates), as n-best lists of different lengths.
    cands = [[h[i] for h in hyps[: 2 + (i * 7) % 19]] for i in range(n)]
    return cands, [[r[i] for r in refs] for i in range(n)]


def _same(a: mtalign.OrangeResult, b: mtalign.OrangeResult) -> None:
    assert a.orange == b.orange and a.avg_rank == b.avg_rank
    assert a.ci == b.ci and a.rank_ci == b.rank_ci
    assert np.array_equal(a.ranks, b.ranks)
    for x, y in zip(a.candidate_scores, b.candidate_scores, strict=True):
        assert np.array_equal(x, y)
    for x, y in zip(a.reference_scores, b.reference_scores, strict=True):
        assert np.array_equal(x, y)
    ca, cb = a.curve(range(1, 21, 3)), b.curve(range(1, 21, 3))
    assert np.array_equal(ca.orange, cb.orange) and np.array_equal(ca.avg_rank, cb.avg_rank)
    assert a.signature == b.signature


@pytest.mark.parametrize("name", ["rougeL", "rougeW-1.2", "rougeSU4", "bleus4", "nist", "wer",
                                  "per", "chrf", "ter", "dcs"])
def test_chunked_equals_one_batch(name: str) -> None:
    metric, variant = registry.make_metric(name)
    cands, refs = _data()
    want = mtalign.orange(metric, cands, refs, variant=variant, n_bootstrap=50, threads=1)
    for chunk, threads in ((1, 2), (3, 1), (7, 2), (1000, 2)):
        got = mtalign.orange(metric, cands, refs, variant=variant, n_bootstrap=50,
                             threads=threads, chunk_size=chunk)
        _same(got, want)


def test_generators_are_read_chunk_by_chunk() -> None:
    cands, refs = _data()
    pulled: list[int] = []

    def lazy(items: list[list[str]]) -> Iterator[list[str]]:
        for k, x in enumerate(items):
            pulled.append(k)
            yield x

    seen: list[tuple[int, int]] = []
    metric = mtalign.Rouge("rougeL")
    got = mtalign.orange(metric, lazy(cands), iter(refs), chunk_size=8, n_bootstrap=0,
                         progress=lambda d, t: seen.append((d, len(pulled))))
    _same(got, mtalign.orange(metric, cands, refs, n_bootstrap=0))
    # When chunk k is scored, at most the next chunk's first item has been read.
    assert all(read <= done + 1 for done, read in seen)
    assert seen[-1][0] == len(cands)


def test_chunk_errors_name_the_sentence() -> None:
    cands, refs = _data()
    bad = [list(r) for r in refs]
    bad[13] = bad[13][:1]
    with pytest.raises(mtalign.InputError, match=r"refs\[13\] has 1 reference"):
        mtalign.orange(mtalign.Wer(), cands, bad, chunk_size=5)
    with pytest.raises(mtalign.InputError, match="differ in length"):
        mtalign.orange(mtalign.Wer(), iter(cands), iter(refs[:-1]), chunk_size=5)
    with pytest.raises(mtalign.ConfigError, match="chunk_size"):
        mtalign.orange(mtalign.Wer(), cands, refs, chunk_size=0)


@pytest.mark.parametrize("name", ["rougeL", "rougeW-1.2", "rougeSU4", "rouge2", "wer", "per"])
def test_single_reference_combination_equals_scoring_the_sets(name: str) -> None:
    """Each candidate scored against each reference once, the leave-one-out sets combined
    from those rows: bit-identical to scoring every set (the path for other metrics)."""
    from mtalign.ranking.orange import _jackknife_scores, _single_ref_scores
    from mtalign.ranking.scorer import Scorer

    metric, variant = registry.make_metric(name)
    cands, refs = _data()
    cands[5] = cands[5] + ["", cands[5][0]]  # an empty candidate, a repeated one
    scorer = Scorer(metric, variant, None, 2)
    got = _single_ref_scores(scorer, cands, refs, None)
    assert got is not None
    want = _jackknife_scores(scorer, cands, refs, None)
    for g, w in zip(got[0] + got[1], want[0] + want[1], strict=True):
        assert np.array_equal(g, w)


def test_metrics_without_the_combination_fall_back() -> None:
    from mtalign.ranking.orange import _single_ref_scores
    from mtalign.ranking.scorer import Scorer

    cands, refs = _data()
    for metric in (mtalign.Bleu(), mtalign.Rouge("rougeL", multi_ref="average"),
                   mtalign.Rouge("rougeL", jackknife=True)):
        assert _single_ref_scores(Scorer(metric, None, None, 1), cands, refs, None) is None
