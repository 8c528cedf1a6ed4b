"""CER against jiwer 4's ``cer`` (the independent source): sentence by sentence, the corpus,
lowercasing, several references (the best one), and what CER refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jiwer
import numpy as np
import pytest
from mtalign import Cer, Chrf, InputError, registry

WMT = Path(__file__).resolve().parent / "data" / "orange_wmt21_ende"


def _pairs(n: int = 300) -> tuple[list[str], list[str]]:
    hyp_file = sorted((WMT / "hyp").iterdir())[0]
    hyps = hyp_file.read_text(encoding="utf-8").splitlines()[:n]
    refs = (WMT / "ref.A.de").read_text(encoding="utf-8").splitlines()[:n]
    keep = [k for k in range(len(refs)) if refs[k].strip()]  # jiwer refuses empty references
    return [hyps[k] for k in keep], [refs[k] for k in keep]


def test_sentences_and_corpus_equal_jiwer(mtalign: Any) -> None:
    hyps, refs = _pairs()
    cer = mtalign.Cer()
    want = [jiwer.cer(r, h) for h, r in zip(hyps, refs, strict=True)]
    assert cer.batch_score(hyps, refs).tolist() == want
    assert [float(cer.sentence_score(h, r)) for h, r in zip(hyps, refs, strict=True)] == want
    assert cer.corpus_score(hyps, refs).score == jiwer.cer(refs, hyps)
    # Whitespace at either end is stripped; inside, a space is a character.
    assert float(cer.sentence_score("  a b \n", "a  b")) == jiwer.cer("a  b", "  a b \n")


def test_lowercase_equals_jiwer_lowercased(mtalign: Any) -> None:
    hyps, refs = _pairs(100)
    lower = jiwer.Compose([jiwer.ToLowerCase(), jiwer.Strip(),
                           jiwer.ReduceToListOfListOfChars()])
    want = jiwer.cer(refs, hyps, reference_transform=lower, hypothesis_transform=lower)
    assert mtalign.Cer(lowercase=True).corpus_score(hyps, refs).score == want
    assert mtalign.Cer().corpus_score(hyps, refs).score != want


def test_several_references_keep_the_best(mtalign: Any) -> None:
    hyps, refs = _pairs(100)
    other = (WMT / "ref.C.de").read_text(encoding="utf-8").splitlines()[:len(refs)]
    sets = [[a, b] for a, b in zip(refs, other, strict=True)]
    got = mtalign.Cer().batch_score(hyps, sets).tolist()
    want = [min(jiwer.cer(r, h) for r in s if r.strip()) for h, s in zip(hyps, sets,
                                                                          strict=True)]
    assert got == want


def test_registry_name_and_refusals(mtalign: Any) -> None:
    metric, _ = registry.make_metric("cer")
    assert metric == mtalign.Cer() and metric.higher_is_better is False
    with pytest.raises(mtalign.ConfigError, match="Cer reads characters"):
        mtalign.Cer().sentence_score(np.array([1, 2]), [np.array([1, 3])])
    with pytest.raises(mtalign.ConfigError, match="lowercase must be True or False"):
        mtalign.Cer(lowercase=1)
    # Token lists are joined with spaces, as text.
    assert mtalign.Cer().batch_score([["a", "b"]], [[["a", "c"]]]).tolist() == [1 / 3]


@pytest.mark.parametrize("metric", [Cer(), Chrf()])
def test_token_list_hypotheses_need_token_list_references(metric) -> None:
    """A list of tokens is joined into a text; references must then be token lists too,
    not strings (whose characters would be joined) nor numbers (a TypeError before)."""
    assert float(metric.sentence_score(["a", "b"], [["a", "b"]])) == float(
        metric.sentence_score("a b", ["a b"]))
    for refs, got in ((5, "int"), (["a b"], "str")):
        with pytest.raises(InputError, match=rf"refs\[0\] .*\(got {got}\)"):
            metric.sentence_score(["a", "b"], refs)
