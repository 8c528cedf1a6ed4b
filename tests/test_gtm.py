"""GTM: the native greedy matcher against its slow twin, the exact maximum matching size
(exhaustive search) showing where the greedy approximation falls short, corpus aggregation,
multiple references, errors, and the generic paths (registry, pairwise, ORANGE, rerank)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from twins import gtm as twin


def _tok(s: str) -> list[str]:
    return s.split()


def test_worked_examples_by_hand(mtalign: Any) -> None:
    # Hand-computed from the definitions (docs/gtm.md): "a b c d" vs "a b x c d" has runs
    # [a b] and [c d]: e=1 MMS 4, e=2 MMS sqrt(8), e=3 MMS 16^(1/3).
    for e, mms in [(1.0, 4.0), (2.0, 8 ** 0.5), (3.0, 16 ** (1 / 3))]:
        r = mtalign.Gtm(e, tokenize="whitespace").sentence_score("a b c d", "a b x c d")
        p, rec = mms / 4, mms / 5
        assert r.details["precision"] == pytest.approx(p, abs=1e-15)
        assert r.details["recall"] == pytest.approx(rec, abs=1e-15)
        assert float(r) == pytest.approx(2 * p * rec / (p + rec), abs=1e-15)
    # Word order matters only for e > 1: a reversed sentence has four runs of one.
    rev = mtalign.Gtm(2.0, tokenize="whitespace").sentence_score("a b c d", "d c b a")
    assert float(rev) == pytest.approx(0.5)
    assert float(mtalign.Gtm(1.0, tokenize="whitespace").sentence_score("a b c d", "d c b a")) == 1


def test_greedy_falls_short_of_the_exact_mms_here(mtalign: Any) -> None:
    # hyp "a a b a", ref "b a a a a": longest first takes "a a" at (0, 1), which blocks
    # "b a" at (2, 0); the best matching is two runs of two ("a a"→(1,2)... and "b a"→(0,1)).
    hyp, ref = "a a b a".split(), "b a a a a".split()
    assert twin.greedy_runs(hyp, ref) == [2, 1, 1]
    assert twin.exact_weight(hyp, ref, 2.0) == 8.0
    stats = mtalign.Gtm(2.0, tokenize="whitespace").statistics([" ".join(hyp)], [" ".join(ref)])
    assert stats.tolist() == [[6.0, 4.0, 5.0]]


def _random_pairs(seed: int, n: int, max_len: int,
                  alphabet: str) -> list[tuple[list[str], list[str]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        h = [rng.choice(alphabet) for _ in range(rng.randint(0, max_len))]
        r = [rng.choice(alphabet) for _ in range(rng.randint(0, max_len))]
        out.append((h, r))
    return out


@pytest.mark.parametrize("e", [1.0, 2.0, 3.0])
def test_native_equals_twin_and_is_bounded_by_exact(mtalign: Any, e: float) -> None:
    pairs = _random_pairs(7, 300, 6, "ab") + _random_pairs(8, 200, 7, "abc")
    g = mtalign.Gtm(e)
    stats = g.statistics([h for h, _ in pairs], [[r] for _, r in pairs])
    shorter = 0
    for (h, r), row in zip(pairs, stats, strict=True):
        assert row.tolist() == twin.sentence_row(h, [r], e)
        exact = twin.exact_weight(h, r, e)
        assert row[0] <= exact + 1e-9
        if e == 1.0:
            assert row[0] == exact  # e = 1: greedy is exact (bag-of-words overlap)
        shorter += row[0] < exact - 1e-9
    if e > 1:
        assert shorter > 0  # the approximation does differ on some of these pairs


def test_twin_on_real_sentences(mtalign: Any) -> None:
    hyps, refs = _wmt(300)
    for e in (1.0, 2.0, 3.0):
        g = mtalign.Gtm(e, tokenize="whitespace", lowercase=True)
        stats = g.statistics(hyps, refs)
        for k in range(0, len(hyps), 7):
            want = twin.sentence_row(hyps[k].lower().split(),
                                     [r.lower().split() for r in refs[k]], e)
            assert stats[k].tolist() == want


def _wmt(n: int) -> tuple[list[str], list[list[str]]]:
    from pathlib import Path

    data = Path(__file__).resolve().parent / "data"
    hyps = (data / "wmt21_deen_hyp.Facebook-AI.en").read_text(encoding="utf-8").splitlines()[:n]
    a = (data / "wmt21_deen_ref.A.en").read_text(encoding="utf-8").splitlines()[:n]
    b = (data / "wmt21_deen_ref.B.en").read_text(encoding="utf-8").splitlines()[:n]
    return hyps, [[x, y] for x, y in zip(a, b, strict=True)]


def test_multiple_references_keep_the_best_f_and_corpus_sums_rows(mtalign: Any) -> None:
    hyps, refs = _wmt(120)
    for e in (1.0, 2.0, 3.0):
        g = mtalign.Gtm(e, tokenize="whitespace")
        stats = g.statistics(hyps, refs)
        for k in range(0, 120, 11):
            rows = [twin.sentence_row(hyps[k].split(), [r.split()], e) for r in refs[k]]
            fs = [twin.prf(w, int(h), int(r), e)[2] for w, h, r in rows]
            assert stats[k].tolist() == rows[int(np.argmax(fs))]
        res = g.corpus_score(hyps, refs)
        w, h, r = stats.sum(axis=0)
        p, rec, f = twin.prf(w, int(h), int(r), e)
        assert res.score == pytest.approx(f, rel=1e-13)
        assert res.details["precision"] == pytest.approx(p, rel=1e-13)
        assert res.details["recall"] == pytest.approx(rec, rel=1e-13)
        each = g.batch_score(hyps, refs)
        assert np.allclose(each, [twin.prf(*row[:1], int(row[1]), int(row[2]), e)[2]
                                  for row in stats], rtol=0, atol=1e-14)
        assert np.array_equal(res.per_sentence, each)


def test_pretokenized_input(mtalign: Any) -> None:
    g = mtalign.Gtm(2.0)
    a = g.batch_score([["a", "b", "c"]], [[["a", "b", "x", "c"]]])
    b = mtalign.Gtm(2.0, tokenize="whitespace").batch_score(["a b c"], ["a b x c"])
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize("bad", [0.5, 0.0, -1.0, float("nan"), float("inf"), 65.0])
def test_bad_exponent_is_named(mtalign: Any, bad: float) -> None:
    with pytest.raises(mtalign.ConfigError, match="exponent"):
        mtalign.Gtm(bad)


def test_empty_sides_score_zero(mtalign: Any) -> None:
    g = mtalign.Gtm(2.0, tokenize="whitespace")
    assert g.batch_score(["", "a", "a"], ["a", "", "b"]).tolist() == [0.0, 0.0, 0.0]


def test_registry_cli_pairwise_orange_rerank(mtalign: Any) -> None:
    from mtalign import registry

    for name, e in [("gtm", 1.0), ("gtm1", 1.0), ("gtm2", 2.0), ("gtm3", 3.0), ("gtm1.5", 1.5)]:
        m, _ = registry.make_metric(name)
        assert isinstance(m, mtalign.Gtm) and m.exponent == e
    g = mtalign.Gtm(2.0)
    hyps, refs = _wmt(12)
    first = [r[0] for r in refs]
    mat = g.pairwise(hyps, first)
    flat = g.scalar_scores([h for h in hyps for _ in first], [r for _ in hyps for r in first])
    assert np.array_equal(mat.reshape(-1), flat)
    cands = [[h, r] for h, r in zip(hyps, first, strict=True)]
    res = mtalign.orange(g, cands, refs, n_bootstrap=0)
    assert 0.0 <= res.orange <= 1.0
    picked = mtalign.rerank(g, cands, [r[1] for r in refs])
    want = [int(np.argmax(g.scalar_scores(c, [r[1]] * len(c)))) for c, r in zip(cands, refs,
                                                                                 strict=True)]
    assert list(picked.best) == want
