"""Every result travels (issue 30, item 4): pickled (default and highest protocol), copied
(``copy.copy``, ``copy.deepcopy``), returned from a ``multiprocessing.Pool`` worker, it is
``==`` to the original, prints the same and gives the same ``float()``; ``to_dict()`` holds
only plain Python, and ``json.loads(json.dumps(to_dict()))`` gives the same numbers.

The metrics come from the registry (every family, every example name), and every public
metric class must be reached by one of them, so a new metric cannot be left out. The
results of ORANGE, reranking, MBR and meta-evaluation are checked alongside.

What the round trip is compared against is the original object and its own printing; the
equality itself is checked to fail on a different result (a test that cannot fail would
prove nothing).
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
import pickle
from typing import Any

import mtalign
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mtalign import meta, registry
from mtalign.metrics.base import Metric
from mtalign.metrics.partial import combine, corpus_result, partial

HYPS = ["the cat sat on the mat .", "a dog , barking", "", "hello world again"]
REFS = [["the cat is on the mat .", "a cat sat there"], ["the dog barks", "a dog"],
        ["nothing here"], ["hello there world", "hi world"]]
NAMES = registry.example_names()
_PLAIN = (dict, list, str, int, float, bool, type(None))


def _metric(name: str) -> Any:
    return registry.make_metric(name)[0]


def _assert_plain(value: Any, where: str = "to_dict()") -> None:
    """Only JSON's own types: no NumPy scalar or array, no tuple, str keys."""
    assert type(value) in _PLAIN, f"{where} holds a {type(value).__name__}"
    if isinstance(value, dict):
        for k, v in value.items():
            assert type(k) is str, f"{where} has a {type(k).__name__} key"
            _assert_plain(v, f"{where}[{k!r}]")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _assert_plain(v, f"{where}[{i}]")


def _same_json(a: Any, b: Any) -> bool:
    """Equal numbers after JSON (NaN equal to NaN; an int read back equals its float)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_json, a, b))
    return type(a) is type(b) and a == b


def travels(fresh: Any, twin: Any, has_float: bool = True) -> None:
    """``fresh`` (nothing read from it yet) through pickle and copies; ``twin`` is the same
    result made by the same call and never copied: how it prints is what must not change."""
    copies = [pickle.loads(pickle.dumps(fresh)),
              pickle.loads(pickle.dumps(fresh, protocol=pickle.HIGHEST_PROTOCOL)),
              copy.copy(fresh), copy.deepcopy(fresh)]
    for other in copies:
        assert type(other) is type(fresh)
        assert other == fresh and fresh == other and not other != fresh
        assert other == twin
        assert str(other) == str(twin) and repr(other) == repr(twin)
        if has_float:
            a, b = float(other), float(twin)
            assert a == b or (math.isnan(a) and math.isnan(b))
    d = fresh.to_dict()
    _assert_plain(d)
    back = json.loads(json.dumps(d))
    assert _same_json(back, d), (back, d)
    assert _same_json(copies[0].to_dict(), twin.to_dict())


# -- every metric of the registry ------------------------------------------------------------


def test_every_family_has_examples_and_every_metric_class_is_reached() -> None:
    assert all(fam.examples for fam in registry.FAMILIES)
    reached = {type(_metric(n)) for n in NAMES}
    public = {obj for obj in vars(mtalign).values()
              if isinstance(obj, type) and issubclass(obj, Metric) and obj is not Metric}
    assert public and public <= reached, f"not in the registry: {public - reached}"


def _results(metric: Any, hyps: list[str], refs: list[list[str]]) -> list[tuple[str, Any]]:
    """Every way a metric makes a result, each called twice (a fresh one and its twin)."""
    makers = [
        ("sentence_score", lambda: metric.sentence_score(hyps[0], refs[0])),
        ("sentence_score, one reference", lambda: metric.sentence_score(hyps[0], refs[0][0])),
        ("corpus_score", lambda: metric.corpus_score(hyps, refs)),
        ("corpus_score with a bootstrap",
         lambda: metric.corpus_score(hyps, refs, n_bootstrap=20, seed=3)),
        ("corpus_from_statistics",
         lambda: metric.corpus_from_statistics(metric.statistics(hyps, refs))),
    ]
    if metric.aggregation is not None:  # what `mtalign score` streaming and Dask build
        makers.append(("partials", lambda: corpus_result(metric, combine(
            [partial(metric, hyps[:1], refs[:1]), partial(metric, hyps[1:], refs[1:])]))))
    return [(what, make) for what, make in makers]


@pytest.mark.parametrize("name", NAMES)
def test_metric_results_travel(name: str) -> None:
    metric = _metric(name)
    for what, make in _results(metric, HYPS, REFS):
        fresh, twin = make(), make()
        try:
            travels(fresh, twin)
        except AssertionError as e:
            raise AssertionError(f"{name} {what}: {e}") from e


@pytest.mark.parametrize("name", NAMES)
def test_equality_can_fail(name: str) -> None:
    metric = _metric(name)
    a = metric.corpus_score(HYPS, REFS)
    b = metric.corpus_score(HYPS[::-1], REFS[::-1])  # same score maybe, other sentences
    c = metric.sentence_score("a b c", "x y z")
    assert a != b and a != c
    assert a != metric.corpus_score(HYPS, REFS, n_bootstrap=20)  # a confidence more


_WORDS = st.sampled_from(["the", "cat", "a", "dog", "sat", "on", "mat", ",", ".", "é", "大"])
_TEXT = st.lists(_WORDS, min_size=0, max_size=6).map(" ".join)
_REF = st.lists(_WORDS, min_size=1, max_size=6).map(" ".join)
_PAIRS = st.lists(st.tuples(_TEXT, st.lists(_REF, min_size=1, max_size=2)),
                  min_size=1, max_size=4)


# "," alone vanishes (counted in n_empty_*: that travels too); random refs may look like streams
@pytest.mark.filterwarnings("ignore::mtalign.MtalignWarning")
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=_PAIRS)
def test_random_small_inputs_travel(name: str, pairs: list[tuple[str, list[str]]]) -> None:
    metric = _metric(name)
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    for make in (lambda: metric.sentence_score(hyps[0], refs[0]),
                 lambda: metric.corpus_score(hyps, refs),
                 lambda: metric.corpus_from_statistics(metric.statistics(hyps, refs))):
        travels(make(), make())


# -- the results of ORANGE, reranking, MBR and meta-evaluation -----------------------------


def _orange(n_bootstrap: int) -> Any:
    return mtalign.orange(mtalign.Rouge("rougeL", tokenize="whitespace"),
                          [["a b c", "x y z", "a b"], ["d e", "d f"]],
                          [["a b c", "a b d"], ["d e f", "d e"]], n_bootstrap=n_bootstrap)


HUMAN = [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2.0, 1.0, 4.0, 3.0, 6.0, 5.0]]
GOOD = [[1.1, 2.2, 2.9, 4.2, 5.0, 6.3], [2.1, 1.2, 4.4, 2.8, 6.1, 5.0]]
BAD = [[6.0, 1.0, 5.0, 2.0, 4.0, 3.0], [1.0, 6.0, 2.0, 5.0, 3.0, 4.0]]

OTHERS: list[tuple[str, Any, bool]] = [
    ("OrangeResult", lambda: _orange(50), False),
    ("OrangeResult without bootstrap (NaN interval)", lambda: _orange(0), False),
    ("OrangeCurve", lambda: _orange(0).curve(), False),
    ("RerankResult", lambda: mtalign.rerank(mtalign.Wer(), [["a b", "a c"], ["x", "y z"]],
                                            ["a c", "y z"]), False),
    ("MbrResult", lambda: mtalign.mbr(mtalign.Rouge("rouge1"), ["the cat", "a cat sat",
                                                                 "the cat sat"]), False),
    ("MbrResult of token lists", lambda: mtalign.mbr(mtalign.Wer(), [["a", "b"], ["a"]]),
     False),
    ("PairedResult", lambda: mtalign.paired_test(
        None, [0.1, 0.4, 0.35, 0.8], {"b": [0.3, 0.5, 0.45, 0.9]}, kind="bs",
        n_samples=50)["b"], False),
    ("PairedResult of the baseline", lambda: mtalign.paired_test(
        None, [0.1, 0.4, 0.35, 0.8], {"b": [0.3, 0.5, 0.45, 0.9]}, kind="ar",
        n_samples=50)["baseline"], False),
    ("Correlation", lambda: meta.correlate(GOOD, HUMAN, n_bootstrap=50), True),
    ("Correlation undefined (NaN)", lambda: meta.correlate([[1.0, 1.0, 1.0]], [[1, 2, 3]]),
     True),
    ("Clusters", lambda: meta.clusters({"good": GOOD, "bad": BAD}, HUMAN, k=50), False),
    ("Ranked", lambda: meta.clusters({"good": GOOD, "bad": BAD}, HUMAN, k=50).ranking[0],
     False),
    ("SigResult", lambda: meta.perm_test(GOOD, BAD, HUMAN, k=50), False),
    ("WilliamsResult", lambda: meta.williams(GOOD, BAD, HUMAN), False),
]


@pytest.mark.parametrize("what, make, has_float", OTHERS, ids=[o[0] for o in OTHERS])
def test_other_results_travel(what: str, make: Any, has_float: bool) -> None:
    travels(make(), make(), has_float)


def test_the_nan_cases_are_nan() -> None:
    """The NaN cases above hold NaN (so they test NaN-aware equality and JSON)."""
    assert math.isnan(meta.correlate([[1.0, 1.0, 1.0]], [[1, 2, 3]]).value)
    assert math.isnan(_orange(0).ci[0])
    d = json.loads(json.dumps(meta.correlate([[1.0, 1.0, 1.0]], [[1, 2, 3]]).to_dict()))
    assert math.isnan(d["value"])  # NaN stays NaN (the stated policy); JSON writes NaN


@pytest.mark.parametrize("value", [
    mtalign.Score(0.5, 1.0, 2 / 3),
    mtalign.DcsScore(1.0, 0.5, 0.0, 0.5),
    mtalign.metrics.results.Confidence(20.5, 0.75, 19.8, 21.3, 1000, 12345),
])
def test_score_namedtuples_travel(value: Any) -> None:
    for other in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
        assert other == value and type(other) is type(value) and str(other) == str(value)
    d = value.to_dict()
    _assert_plain(d)
    assert json.loads(json.dumps(d)) == value._asdict()


def test_numpy_inside_a_result_comes_out_plain() -> None:
    """BLEU's to_dict() held an ndarray (json.dumps failed); every number is plain now."""
    d = mtalign.Bleu().corpus_score(HYPS, REFS).to_dict()
    assert type(d["per_sentence"]) is list and type(d["per_sentence"][0]) is float
    assert json.loads(json.dumps(d))["per_sentence"] == d["per_sentence"]


# -- a real multiprocessing.Pool (spawn) --------------------------------------------------------


def corpus_in_worker(metric: Any, hyps: list[str], refs: list[list[str]]) -> list[Any]:
    """Run in a spawned worker: a sentence result, a corpus result, one with a bootstrap."""
    return [metric.sentence_score(hyps[0], refs[0]), metric.corpus_score(hyps, refs),
            metric.corpus_score(hyps, refs, n_bootstrap=20, seed=3)]


def test_results_come_back_from_a_spawned_pool() -> None:
    metrics = [_metric(n) for n in NAMES]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.starmap(corpus_in_worker, [(m, HYPS, REFS) for m in metrics])
    for name, metric, results in zip(NAMES, metrics, got, strict=True):
        want = corpus_in_worker(metric, HYPS, REFS)
        for g, w in zip(results, want, strict=True):
            assert type(g) is type(w) and g == w, name
            assert str(g) == str(w) and float(g) == float(w), name
