"""``mtalign.orange_many``: several metrics over the same lists, the lists read once and
encoded once per tokenizer, the scalars of one metric object scored in one native pass.
Oracle: ``mtalign.orange`` of each metric on its own (itself bit-identical to the Python
path, tests/test_orange_native.py); every score, rank and ORANGE must be the same bits, for
1 and 2 threads, one batch and chunks."""

from __future__ import annotations

from typing import Any

import mtalign
import numpy as np
import pytest
from mtalign import registry
from mtalign._mtalign import NativeMetric, OrangeTexts
from test_orange_native import _data, _same

TABLE6 = ["bleus6", "nist", "per", "wer", "rougeL", "rougeW-1.1", "rougeS4"]


def _entries(names: list[str]) -> list[tuple[str, Any, str | None]]:
    """(name, metric, variant) with one object per family (one Rouge for every ROUGE name),
    as the benchmark and the CLI group them."""
    return [(n, metric, fam.variant(n)) for fam, metric, ns in registry.group_metrics(names)
            for n in ns]


def _one(name: str, cands: Any, refs: Any, **kw: Any) -> mtalign.OrangeResult:
    metric, variant = registry.make_metric(name)  # an object of its own
    return mtalign.orange(metric, cands, refs, variant=variant, **kw)


@pytest.mark.parametrize("oracle", ["average_score", "average_rank"])
def test_table6_equals_one_metric_at_a_time(oracle: str) -> None:
    cands, refs = _data()
    names = [*TABLE6, "chrf", "rouge2", "dcs"]  # dcs: scored in Python, inside the same call
    entries = _entries(names)
    rouge = next(m for n, m, _ in entries if n == "rougeL")
    assert list(rouge.scalar_names()) == ["rougeL", "rougeW-1.1", "rougeS4", "rouge2"]
    wants = {n: _one(n, cands, refs, oracle=oracle, n_bootstrap=20, threads=1) for n in names}
    for threads, chunk in ((1, None), (2, None), (2, 1), (1, 7)):
        got = mtalign.orange_many([(m, v) for _, m, v in entries], cands, refs, oracle=oracle,
                                  n_bootstrap=20, threads=threads, chunk_size=chunk)
        assert len(got) == len(entries)
        for (name, _, _), res in zip(entries, got, strict=True):
            _same(res, wants[name])


def test_one_native_pass_per_metric_object() -> None:
    """The core call behind it: every scalar of one object from one pass, each equal to the
    one-scalar call; an object whose scalar is not native gives None (Python then scores)."""
    cands, refs = _data()
    texts = OrangeTexts(cands, refs)
    assert len(texts) == len(cands)
    rouge = mtalign.Rouge(["rougeL", "rougeW-1.1", "rougeS4"])
    many = rouge._core.orange_scores_of(texts, [2, 0, 1], 2)
    assert many is not None and len(many) == 3
    for k, (c, r) in zip([2, 0, 1], many, strict=True):
        want_c, want_r = rouge._core.orange_scores(cands, refs, 1, k)
        assert np.array_equal(c, want_c) and np.array_equal(r, want_r)
    for name in ("bleus6", "nist", "wer"):
        metric, _ = registry.make_metric(name)
        ((c, r),) = metric._core.orange_scores_of(texts, [0], None, 1)
        want_c, want_r = metric._core.orange_scores(cands, refs, None, 0)
        assert np.array_equal(c, want_c) and np.array_equal(r, want_r)
    # Corpus-weighted NIST needs the whole batch: not native, as orange_scores says.
    corpus_nist = NativeMetric("nist", corpus_weights=True)
    assert corpus_nist.orange_scores_of(texts, [0]) is None
    assert corpus_nist.orange_scores(cands, refs) is None


def test_token_lists_callables_and_plain_metrics() -> None:
    cands, refs = _data()
    cands, refs = cands[:6], refs[:6]
    tok_c = [[c.split() for c in cl] for cl in cands]
    tok_r = [[r.split() for r in rl] for rl in refs]

    def overlap(hyp: str, rs: list[str]) -> float:
        return max(len(set(hyp.split()) & set(r.split())) for r in rs)

    wer = mtalign.Wer()
    got = mtalign.orange_many([wer, overlap, (mtalign.Rouge("rouge1"), "rouge1")], cands, refs,
                              n_bootstrap=0)
    _same(got[0], mtalign.orange(wer, cands, refs, n_bootstrap=0))
    _same(got[1], mtalign.orange(overlap, cands, refs, n_bootstrap=0))
    _same(got[2], mtalign.orange(mtalign.Rouge("rouge1"), cands, refs, n_bootstrap=0))
    rouge = mtalign.Rouge(["rougeL", "rouge1"])
    got = mtalign.orange_many([(rouge, "rouge1"), (rouge, "rougeL")], tok_c, tok_r,
                              n_bootstrap=0, chunk_size=4)
    for res, v in zip(got, ["rouge1", "rougeL"], strict=True):
        _same(res, mtalign.orange(rouge, tok_c, tok_r, variant=v, n_bootstrap=0))


def test_streams_progress_and_errors() -> None:
    cands, refs = _data()
    cands, refs = cands[:9], refs[:9]
    seen: list[tuple[int, int]] = []
    got = mtalign.orange_many([mtalign.Bleu(), mtalign.Per()], iter(cands), iter(refs),
                              n_bootstrap=0, chunk_size=4,
                              progress=lambda d, t: seen.append((d, t)))
    assert seen == [(4, 4), (8, 8), (9, 9)]
    _same(got[1], mtalign.orange(mtalign.Per(), cands, refs, n_bootstrap=0))
    seen.clear()
    mtalign.orange_many([mtalign.Bleu(), mtalign.Per()], cands, refs, n_bootstrap=0,
                        progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 2), (2, 2)]
    with pytest.raises(mtalign.ConfigError, match="non-empty list"):
        mtalign.orange_many([], cands, refs)
    with pytest.raises(mtalign.ConfigError, match=r"metrics\[1\] must be a metric"):
        mtalign.orange_many([mtalign.Wer(), (mtalign.Wer(), "wer", 1)], cands, refs)
    with pytest.raises(mtalign.ConfigError, match="unknown"):
        mtalign.orange_many([(mtalign.Rouge("rougeL"), "rouge9")], cands, refs)
    with pytest.raises(mtalign.InputError, match="refs has 8"):
        mtalign.orange_many([mtalign.Wer()], cands, refs[:8])
    with pytest.raises(mtalign.InputError, match=r"refs\[2\] has 1 reference"):
        mtalign.orange_many([mtalign.Wer()], cands, refs[:2] + [refs[2][:1]] + refs[3:])
    with pytest.raises(mtalign.InputError, match=r"candidates\[0\]\[1\]"):
        OrangeTexts([["a", 3]], [["a", "b"]])
