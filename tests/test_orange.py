"""ORANGE: hand-computed cases, the 1/(N+1) bound, the twin on real WMT21 data, bootstrap."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twins import orange as orange_twin

DATA = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"


def read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def wmt() -> tuple[list[list[str]], list[list[str]]]:
    systems = [read(p) for p in sorted((DATA / "hyp").glob("*.de"))]
    refs = [read(DATA / f"ref.{x}.de") for x in "ACD"]
    n = len(refs[0])
    return [[s[i] for s in systems] for i in range(n)], [[r[i] for r in refs] for i in range(n)]


def length_distance(hyp: str, refs: Sequence[str]) -> float:
    """A toy error measure: the smallest length difference to a reference (lower = better)."""
    return float(min(abs(len(hyp) - len(r)) for r in refs))


def make_length_metric(mtalign: Any) -> Any:
    """A hand-made ConfiguredMetric: how any future metric plugs into ORANGE and reranking."""
    from mtalign import Metric as ConfiguredMetric

    class LengthDistance(ConfiguredMetric):
        __slots__ = ()
        higher_is_better = False

        def config(self) -> dict[str, Any]:
            return {}

        def scalar_names(self) -> tuple[str, ...]:
            return ("dist", "negdist")

        def scalar_scores(self, hyps: Sequence[Any], refs: Sequence[Any],
                          variant: str | None = None, threads: int | None = None) -> np.ndarray:
            sign = -1.0 if self._pick_scalar(variant) == "negdist" else 1.0
            return np.array([sign * length_distance(h, [r] if isinstance(r, str) else r)
                             for h, r in zip(hyps, refs, strict=True)])

        def signature(self) -> str:
            return "lendist"

    return LengthDistance()


def a(k: int) -> str:
    return "a" * k


# Sentence 0: references of lengths 1, 2, 6 score 1, 1, 4 against the others (oracle 2);
# candidates of lengths 3, 4, 7 score 4/3, 2 (a tie), 7/3 over the leave-one-out sets.
# Sentence 1: references 4, 2, 3 all score 1; candidates 3, 6 score 1/3, 7/3.
CANDS = [[a(3), a(4), a(7)], [a(3), a(6)]]
REFS = [[a(1), a(2), a(6)], [a(4), a(2), a(3)]]


def test_hand_computed_average_score(mtalign: Any) -> None:
    res = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0)
    assert res.ranks.tolist() == [2.5, 2.0]  # 1 better + 1 tie; 1 better
    assert res.list_sizes.tolist() == [3, 2]  # unequal list lengths: rank / (N_i + 1)
    assert res.orange == pytest.approx((2.5 / 4 + 2 / 3) / 2, abs=1e-15)
    assert res.avg_rank == 2.25
    assert res.candidate_scores[0].tolist() == pytest.approx([4 / 3, 2.0, 7 / 3])
    assert res.reference_scores[0].tolist() == [1.0, 1.0, 4.0]


def test_hand_computed_average_rank(mtalign: Any) -> None:
    res = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0,
                         oracle="average_rank")
    # Sentence 0: references scoring 1, 1 come first (rank 1), the one scoring 4 last (4).
    assert res.ranks.tolist() == [2.0, 2.0]
    assert res.orange == pytest.approx((2 / 4 + 2 / 3) / 2, abs=1e-15)


def test_min_size_drops_short_lists(mtalign: Any) -> None:
    res = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0, min_size=3)
    assert res.n_sentences == 1 and res.n_dropped == 1 and res.sentence_ids.tolist() == [0]
    assert res.orange == 2.5 / 4
    with pytest.raises(mtalign.InputError, match="min_size=4 dropped all 2 sentences"):
        mtalign.orange(make_length_metric(mtalign), CANDS, REFS, min_size=4)


def test_callable_and_direction(mtalign: Any) -> None:
    as_callable = mtalign.orange(length_distance, CANDS, REFS, n_bootstrap=0,
                                 higher_is_better=False)
    as_object = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0)
    assert as_callable.ranks.tolist() == as_object.ranks.tolist()
    # The same distance read as "higher is better" must rank differently (-dist: same order).
    neg = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0,
                         variant="negdist", higher_is_better=True)
    assert neg.ranks.tolist() == as_object.ranks.tolist()
    flipped = mtalign.orange(make_length_metric(mtalign), CANDS, REFS, n_bootstrap=0,
                             higher_is_better=True)
    assert flipped.ranks.tolist() == [2.5, 2.0] and flipped.signature.startswith(
        "orange:average_score|higher:yes")
    one = mtalign.orange(length_distance, [[a(3)]], [REFS[0]], n_bootstrap=0,
                         higher_is_better=False)
    worse = mtalign.orange(length_distance, [[a(3)]], [REFS[0]], n_bootstrap=0)
    assert one.ranks.tolist() == [2.0] and worse.ranks.tolist() == [1.0]


def test_ties_from_scores(mtalign: Any) -> None:
    # Every candidate ties with the oracle: rank = 1 + N/2.
    res = mtalign.orange_from_scores([[0.5, 0.5, 0.5]], [[0.5, 0.5]], n_bootstrap=0)
    assert res.ranks.tolist() == [2.5] and res.orange == 2.5 / 4
    res = mtalign.orange_from_scores([[0.1, 0.3], [0.2, 0.2, 0.9, 0.0]],
                                     [[0.2, 0.4], [0.2, 0.2]], n_bootstrap=0,
                                     oracle="average_rank")
    # sentence 0: ref 0.2 -> rank 2 (0.3 beats it), ref 0.4 -> rank 1, mean 1.5;
    # sentence 1: both refs 0.2 -> 1 + 1 (0.9) + 2 * 0.5 (two ties) = 3
    assert res.ranks.tolist() == [1.5, 3.0]
    low = mtalign.orange_from_scores([[0.1, 0.3]], [[0.2, 0.2]], n_bootstrap=0,
                                     higher_is_better=False)
    assert low.ranks.tolist() == [2.0]


def test_references_always_first(mtalign: Any, wmt: tuple[list, list]) -> None:
    cands, refs = wmt
    ref_texts = {r for rs in refs for r in rs}

    def oracle_metric(hyp: str, _refs: list[str]) -> float:
        return 1.0 if hyp in ref_texts else 0.0

    # Lists of unequal length: sentence i keeps its first 1 + i % 20 candidates.
    cut = [c[: 1 + i % 20] for i, c in enumerate(cands)]
    cut = [[c for c in lst if c not in ref_texts] or ["x"] for lst in cut]
    for oracle in ("average_score", "average_rank"):
        res = mtalign.orange(oracle_metric, cut, refs, oracle=oracle, n_bootstrap=0)
        assert res.ranks.tolist() == [1.0] * len(cut)
        want = math.fsum(1 / (len(c) + 1) for c in cut) / len(cut)
        assert res.orange == pytest.approx(want, abs=1e-15)
    # (The filter matters: in this extract some system outputs equal a reference verbatim.)
    assert sum(c in ref_texts for lst in cands for c in lst) > 0
    synthetic = [[f"mt {i} {j}" for j in range(20)] for i in range(len(refs))]
    full = mtalign.orange(oracle_metric, synthetic, refs, n_bootstrap=0)
    assert full.orange == pytest.approx(1 / 21, abs=1e-15) and full.avg_rank == 1.0


@pytest.mark.parametrize("oracle", ["average_score", "average_rank"])
@pytest.mark.parametrize("name", ["rougeL", "rougeS4", "rougeW-1.2", "rouge1", "dcs"])
def test_twin_on_wmt21(mtalign: Any, wmt: tuple[list, list], name: str, oracle: str) -> None:
    cands, refs = wmt
    if name == "dcs":
        metric: Any = mtalign.Dcs()

        def score(h: str, rs: list[str]) -> float:
            return metric.sentence_score(h, rs).dcs
        cands, refs = cands[:15], refs[:15]  # character-level DCS is slow in pure loops
    else:
        metric = mtalign.Rouge(name)

        def score(h: str, rs: list[str]) -> float:
            return metric.sentence_score(h, rs)[name].fmeasure
    res = mtalign.orange(metric, cands, refs, oracle=oracle, n_bootstrap=200, seed=7)
    twin = orange_twin.orange(score, cands, refs, oracle=oracle, n_bootstrap=200, seed=7)
    assert res.ranks.tolist() == twin["ranks"]  # exact
    assert res.orange == twin["orange"] and res.avg_rank == twin["avg_rank"]
    assert res.ci == pytest.approx(twin["ci"], abs=1e-12)


def test_twin_with_min_size_and_ragged_lists(mtalign: Any, wmt: tuple[list, list]) -> None:
    cands, refs = wmt
    ragged = [c[: 3 + (7 * i) % 18] for i, c in enumerate(cands)]
    # different numbers of references too: 2 for even sentences, 3 for odd ones
    rrefs = [r if i % 2 else r[:2] for i, r in enumerate(refs)]
    metric = mtalign.Rouge("rougeS4")

    def score(h: str, rs: list[str]) -> float:
        return metric.sentence_score(h, rs)["rougeS4"].fmeasure
    res = mtalign.orange(metric, ragged, rrefs, min_size=8, n_bootstrap=0)
    twin = orange_twin.orange(score, ragged, rrefs, min_size=8)
    assert res.ranks.tolist() == twin["ranks"] and res.orange == twin["orange"]
    assert res.n_dropped == sum(len(c) < 8 for c in ragged) > 0


def test_curve_matches_truncated_lists(mtalign: Any, wmt: tuple[list, list]) -> None:
    cands, refs = wmt
    ragged = [c[: 5 + i % 16] for i, c in enumerate(cands)]
    metric = mtalign.Rouge("rougeL")
    for oracle in ("average_score", "average_rank"):
        res = mtalign.orange(metric, ragged, refs, oracle=oracle, n_bootstrap=0)
        curve = res.curve()
        assert curve.sizes.tolist() == list(range(1, 21))
        for n in (1, 4, 5, 9, 20):
            keep = [i for i, c in enumerate(ragged) if len(c) >= n]
            direct = mtalign.orange(metric, [ragged[i][:n] for i in keep],
                                    [refs[i] for i in keep], oracle=oracle, n_bootstrap=0)
            assert curve.orange[n - 1] == direct.orange
            assert curve.n_sentences[n - 1] == len(keep)
        assert curve.to_dict()["orange"][19] == curve.orange[19]


def test_bootstrap_reproducible_and_seeded(mtalign: Any, wmt: tuple[list, list]) -> None:
    cands, refs = wmt
    metric = mtalign.Rouge("rougeL")
    one = mtalign.orange(metric, cands, refs, seed=1)
    again = mtalign.orange(metric, cands, refs, seed=1)
    other = mtalign.orange(metric, cands, refs, seed=2)
    assert one.ci == again.ci and one.rank_ci == again.rank_ci
    assert one.ci != other.ci and one.orange == other.orange
    assert one.ci[0] < one.orange < one.ci[1]
    assert one.rank_ci[0] < one.avg_rank < one.rank_ci[1]
    none = mtalign.orange(metric, cands, refs, n_bootstrap=0)
    assert all(math.isnan(x) for x in none.ci)


def test_result_reporting(mtalign: Any, wmt: tuple[list, list]) -> None:
    cands, refs = wmt
    res = mtalign.orange(mtalign.Rouge("rougeL"), cands, refs, n_bootstrap=50)
    d = res.to_dict(sentences=True)
    assert d["orange"] == res.orange and len(d["sentences"]) == len(cands)
    assert d["sentences"][3] == {"id": 3, "rank": res.ranks[3], "list_size": 20}
    assert "metric:Rouge:rougeL|tok:unicode" in res.signature
    assert "boot:50|seed:12345" in res.signature
    assert "ORANGE" in str(res) and "OrangeResult(orange=" in repr(res)


def test_errors(mtalign: Any) -> None:
    m = mtalign.Rouge("rougeL")
    with pytest.raises(mtalign.InputError, match=r"refs\[1\] has 1 reference.*at least 2"):
        mtalign.orange(m, [["a"], ["b"]], [["a", "b"], ["c"]])
    with pytest.raises(mtalign.InputError, match=r"refs\[0\] has 1 reference"):
        mtalign.orange(m, [["a"]], ["a"])
    with pytest.raises(mtalign.InputError, match=r"candidates\[1\] is empty"):
        mtalign.orange(m, [["a"], []], [["a", "b"], ["c", "d"]])
    with pytest.raises(mtalign.InputError, match="candidates has 1 sentences but refs has 2"):
        mtalign.orange(m, [["a"]], [["a", "b"], ["c", "d"]])
    with pytest.raises(mtalign.InputError, match="no sentences were given"):
        mtalign.orange(m, [], [])
    with pytest.raises(mtalign.ConfigError, match="unknown oracle"):
        mtalign.orange(m, [["a"]], [["a", "b"]], oracle="best")
    with pytest.raises(mtalign.ConfigError, match="unknown variant 'rouge2'"):
        mtalign.orange(m, [["a"]], [["a", "b"]], variant="rouge2")
    with pytest.raises(mtalign.ConfigError, match="variant= applies to metric objects"):
        mtalign.orange(length_distance, [["a"]], [["a", "b"]], variant="x")
    with pytest.raises(mtalign.ConfigError, match="metric must be"):
        mtalign.orange(42, [["a"]], [["a", "b"]])
    with pytest.raises(mtalign.InputError, match="non-finite"):
        mtalign.orange(lambda h, r: math.nan, [["a"]], [["a", "b"]])
    with pytest.raises(mtalign.InputError, match=r"candidate_scores\[0\] must be a non-empty"):
        mtalign.orange_from_scores([[]], [[1.0]])
    with pytest.raises(mtalign.ConfigError, match="n_bootstrap"):
        mtalign.orange_from_scores([[1.0]], [[1.0]], n_bootstrap=-1)


def test_plot_writes_png(mtalign: Any, wmt: tuple[list, list], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    cands, refs = wmt
    curves = [mtalign.orange(mtalign.Rouge(v), cands, refs, n_bootstrap=0).curve()
              for v in ("rougeL", "rougeS4")]
    from mtalign.ranking.orange import plot_curves

    plot_curves(curves, path=str(tmp_path / "c.png"))
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib(mtalign: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    res = mtalign.orange_from_scores([[0.1]], [[0.2]], n_bootstrap=0)
    with pytest.raises(ImportError, match=r"pip install 'mtalign\[plot\]'"):
        res.curve().plot("x.png")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 4), min_size=1, max_size=6),
                          st.lists(st.integers(0, 4), min_size=2, max_size=4)),
                min_size=1, max_size=6),
       st.sampled_from(["average_score", "average_rank"]), st.booleans())
def test_from_scores_matches_twin_ranks(mtalign: Any, data: list, oracle: str,
                                        higher: bool) -> None:
    # Small integer scores make ties frequent; the twin ranks them by plain counting.
    cands = [[x / 4 for x in c] for c, _ in data]
    refs = [[x / 4 for x in r] for _, r in data]
    res = mtalign.orange_from_scores(cands, refs, oracle=oracle, higher_is_better=higher,
                                     n_bootstrap=0)
    for i, (c, r) in enumerate(zip(cands, refs, strict=True)):
        if oracle == "average_score":
            want = orange_twin.rank_of(sum(r) / len(r), c, higher)
        else:
            want = sum(orange_twin.rank_of(s, c, higher) for s in r) / len(r)
        assert res.ranks[i] == want
