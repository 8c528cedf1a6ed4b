"""The one list of native metrics: every Python metric class reads its options from its core
table, and every native metric names its columns and figures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from mtalign._mtalign import OPTIONS, ConfigError, NativeMetric
from mtalign.metrics.options import REQUIRED


def _classes(mtalign: Any) -> list[type]:
    return [c for c in (mtalign.Bleu, mtalign.Cer, mtalign.Chrf, mtalign.Dcs, mtalign.Wer,
                        mtalign.Per, mtalign.Gtm, mtalign.Meteor, mtalign.Nist, mtalign.Ribes,
                        mtalign.Rouge, mtalign.Sia, mtalign.Ter)]


def test_every_class_names_a_table_and_takes_its_defaults(mtalign: Any) -> None:
    assert {c.native for c in _classes(mtalign)} == set(OPTIONS)
    for cls in _classes(mtalign):
        table = OPTIONS[cls.native]
        core = [o for o in cls._options if o.table is not None]
        assert core, cls.__name__
        for o in core:
            row = table[o.name]
            want = REQUIRED if row["required"] else row["default"]
            assert o.default == want and o.doc == row["doc"], (cls.__name__, o.name)
            assert o.native and o.optional >= row["optional"], (cls.__name__, o.name)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_columns_and_figures_match_the_rows(mtalign: Any, name: str) -> None:
    options: dict[str, Any] = {"variants": ["rouge1", "rougeL"]} if name == "rouge" else {}
    core = NativeMetric(name, **options)
    assert core.name == name and len(core.columns) == core.width
    hyps, refs = ["a b c d", "a x"], ["a b d", "b a"]
    rows = np.ascontiguousarray(core.score_texts(hyps, refs)[0].reshape(2, -1))
    if core.fields:
        assert len(core.corpus_figures(rows)) == len(core.fields)
    else:
        with pytest.raises(ConfigError, match="no native corpus figures"):
            core.corpus_figures(rows)


def test_unknown_names_and_options_are_refused(mtalign: Any) -> None:
    with pytest.raises(ConfigError, match="unknown native metric 'blue' .*bleu, cer, chrf"):
        NativeMetric("blue")
    with pytest.raises(ConfigError, match="bleu has no option 'max_ordr' .*max_order"):
        NativeMetric("bleu", max_ordr=2)
    with pytest.raises(ConfigError, match="max_order must be an int"):
        NativeMetric("bleu", max_order="2")
    with pytest.raises(ConfigError, match="rouge needs option 'variants'"):
        NativeMetric("rouge")
    with pytest.raises(ConfigError, match="max_order must be >= 0"):
        NativeMetric("bleu", max_order=-1)
    # The same checks as the classes, which pass their options through.
    with pytest.raises(ConfigError, match="max_order must be between 1 and 12"):
        mtalign.Bleu(max_order=13)


def test_corpus_figures_equal_the_results(mtalign: Any) -> None:
    hyps = ["the cat sat on the mat", "a dog", "it rains today"]
    refs = ["the cat is on the mat", "the dog", "it is raining today"]
    for metric in (mtalign.Ter(), mtalign.Wer(), mtalign.Cer(), mtalign.Chrf(), mtalign.Gtm(2)):
        stats = metric.statistics(hyps, refs)
        assert metric._core.corpus_figures(stats)[0] == metric.corpus_score(hyps, refs).score
