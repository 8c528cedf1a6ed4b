"""`pairwise` on text goes through the native matrix call (each distinct text encoded once);
its numbers equal the flat batch of every (hypothesis, pseudo-reference) pair, bit for bit,
for every metric in the registry and any thread count."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from mtalign import MtalignWarning, registry
from mtalign.metrics.base import pairwise_scores

WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"


def _texts() -> list[str]:
    systems = sorted((WMT / "hyp").iterdir())[:3]
    lines = [p.read_text(encoding="utf-8").splitlines()[:6] for p in systems]
    return [t for group in lines for t in group] + ["", "..."]


@pytest.mark.parametrize("name", registry.example_names())
@pytest.mark.parametrize("threads", [1, 2])
def test_matrix_equals_the_flat_batch(name: str, threads: int) -> None:
    metric, variant = registry.make_metric(name)
    texts = _texts()
    hyps, refs = texts[:9], texts[5:] + [texts[:2]]  # the last pseudo-reference is a set
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MtalignWarning)  # "..." has no token for some
        got = metric.pairwise(hyps, refs, variant=variant, threads=threads)
        want = pairwise_scores(metric.scalar_scores, hyps, refs, variant, threads)
    assert got.shape == (len(hyps), len(refs))
    assert np.array_equal(got, want)


def test_empty_sides_give_empty_matrices() -> None:
    metric, _ = registry.make_metric("rougeL")
    assert metric.pairwise([], ["a"]).shape == (0, 1)
    assert metric.pairwise(["a"], []).shape == (1, 0)


def test_vanished_text_warns_once_per_call() -> None:
    metric, _ = registry.make_metric("rougeL")
    with pytest.warns(MtalignWarning, match="produced no tokens"):
        metric.pairwise(["...", "a b"], ["a", "..."])


@pytest.mark.parametrize("make", [lambda: __import__("mtalign").Ter(normalized=True, no_punct=True),
                                  lambda: __import__("mtalign").Chrf(word_order=2)])
def test_metrics_that_rewrite_input_in_python_keep_it_in_pairwise(make: object) -> None:
    metric = make()  # type: ignore[operator]
    hyps, refs = ["Hello, World! It's 3.5 km.", "a b c"], ["hello world its 3 km", "a c b", "x"]
    want = pairwise_scores(metric.scalar_scores, hyps, refs)
    assert np.array_equal(metric.pairwise(hyps, refs), want)


IDS_HINT = r" \(got int; token ids go in as NumPy integer arrays or mtalign\.TokenIds\)"


@pytest.mark.parametrize(("call", "message"), [
    # A flat list of ids is the usual mistake: it is named as the argument the user gave,
    # not as the reference list a matrix reads it into.
    (lambda m: m.pairwise([1, 2, 3]), r"^hyps\[0\] is not a str" + IDS_HINT),
    (lambda m: m.pairwise([1, 2, 3], [4, 5]), r"^hyps\[0\] is not a str" + IDS_HINT),
    (lambda m: m.pairwise(["a b", 2]), r"^hyps\[1\] is not a str" + IDS_HINT),
    (lambda m: m.pairwise(["a b"], ["a", 5]), r"^pseudo_refs\[1\] is not a str" + IDS_HINT),
    (lambda m: m.pairwise(["a b"], [["a", None]]),
     r"^pseudo_refs\[0\]\[1\] is not a str \(got NoneType\)$"),
    (lambda m: m.pairwise_blocks([(["a"], None), ([1, 2], None)]),
     r"^blocks\[1\]: hyps\[0\] is not a str" + IDS_HINT),
    (lambda m: m.pairwise_blocks([(["a b"], [[1, 2]])]),
     r"^blocks\[0\]: pseudo_refs\[0\]\[0\] is not a str" + IDS_HINT),
])
@pytest.mark.parametrize("name", ["rouge", "bleu", "wer"])
def test_a_misplaced_item_is_named_as_the_caller_gave_it(name: str, call: object,
                                                        message: str) -> None:
    from mtalign import InputError
    metric = {"rouge": lambda: __import__("mtalign").Rouge("rougeL"),
              "bleu": lambda: __import__("mtalign").Bleu(),
              "wer": lambda: __import__("mtalign").Wer()}[name]()
    with pytest.raises(InputError, match=message):
        call(metric)  # type: ignore[operator]
