"""Paired tests on metrics whose corpus score is a mean of sentence scores (ROUGE, DCS,
METEOR).

Regression: before ``Metric.aggregation = "mean"`` was declared on them, ``paired_test``
summed their statistics rows, so the reported system score was n times the corpus score.
The oracle is the metric's own ``corpus_score`` of the same texts.
"""

from __future__ import annotations

import mtalign
import pytest
from mtalign import paired_test

HYPS_A = ["the cat sat on the mat", "a dog barked at night", "it rains in spain today",
          "he reads a long book", "we walk to the old town"]
HYPS_B = ["the cat is on the mat", "the dog barked loudly", "rain falls in spain",
          "he is reading a book", "we go to town"]
REFS = ["the cat sat on a mat", "a dog was barking at night", "it is raining in spain",
        "he reads a book", "we walk into the old town"]


@pytest.mark.parametrize("metric", [mtalign.Rouge("rougeL"), mtalign.Dcs(), mtalign.Meteor()],
                         ids=["rougeL", "dcs", "meteor"])
def test_reported_scores_are_corpus_scores(metric: mtalign.Metric) -> None:
    assert metric.aggregation == "mean"
    results = paired_test(metric, HYPS_A, {"B": HYPS_B}, REFS, kind="bs", n_samples=50)
    for name, hyps in (("baseline", HYPS_A), ("B", HYPS_B)):
        want = float(metric.corpus_score(hyps, REFS))
        assert results[name].score == pytest.approx(want, rel=1e-12)
