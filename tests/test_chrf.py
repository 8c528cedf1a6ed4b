"""chrF and chrF++ against sacrebleu 2.6.0 (sentence, corpus and statistics, bit for bit) on
real WMT21 text and on sacrebleu's own test cases, and against the pure-Python twin
(``tests/twins/chrf.py``) with hypothesis."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
import wmt_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import chrf as twin

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import CHRF  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SEGMENTS = 60  # segments per system in the every-system checks (sacrebleu is slow)


def jaen() -> dict:
    with gzip.open(DATA / "en_pairs.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)["wmt21_jaen_news"]  # type: ignore[no-any-return]


def dataset(name: str) -> dict:
    return jaen() if name == "ja-en" else wmt_data.load(name)


SETS = [*wmt_data.SETS, "ja-en"]
VARIANTS = [dict(), dict(word_order=2), dict(word_order=2, lowercase=True),
            dict(eps_smoothing=True), dict(word_order=2, whitespace=True, beta=1)]


def segments(streams: list[list[str]]) -> list[list[str]]:
    return [list(seg) for seg in zip(*streams, strict=True)]


@pytest.mark.parametrize("name", SETS)
def test_every_system_equals_sacrebleu(mtalign, name):
    """Corpus scores (one reference and all references) and statistics rows of every system,
    chrF and chrF++, on the first SEGMENTS segments."""
    data = dataset(name)
    streams = [r[:SEGMENTS] for r in data["refs"].values()]
    for kw in VARIANTS[:2]:
        peer, ours = CHRF(**kw), mtalign.Chrf(**kw)
        for system, hyps in data["hyps"].items():
            hyps = hyps[:SEGMENTS]
            for refs in (streams[:1], streams):
                want = peer._extract_corpus_statistics(hyps, refs)
                got = ours.statistics(hyps, segments(refs))
                assert np.array_equal(got, np.array(want, dtype=np.float64)), (system, kw)
                res = ours.corpus_score(hyps, segments(refs))
                assert res.score == peer._aggregate_and_compute(want).score, (system, kw)


@pytest.mark.parametrize("kw", VARIANTS, ids=str)
def test_sentence_and_full_corpus_equal_sacrebleu(mtalign, kw):
    """Every option: each sentence score and the whole-set corpus score of one system."""
    data = wmt_data.load("wmt21_deen_news")
    streams = list(data["refs"].values())
    hyps = data["hyps"]["Facebook-AI"]
    peer, ours = CHRF(**kw), mtalign.Chrf(**kw)
    got = ours.batch_score(hyps, streams[0])
    want = [peer.sentence_score(h, [r]).score for h, r in zip(hyps, streams[0], strict=True)]
    assert got.tolist() == want
    for h, r in list(zip(hyps, segments(streams), strict=True))[:50]:
        assert float(ours.sentence_score(h, r)) == peer.sentence_score(h, r).score
    assert float(ours.corpus_score(hyps, segments(streams))) == \
        peer.corpus_score(hyps, streams).score


def test_signature_and_name_are_sacrebleus(mtalign):
    for kw in ({}, {"word_order": 2, "lowercase": True, "eps_smoothing": True,
                    "whitespace": True}):
        peer = CHRF(**kw)
        peer.corpus_score(["a"], [["a"], ["b"]])
        want = peer.get_signature().format().rsplit("|", 1)[0]
        got = mtalign.Chrf(**kw).corpus_score(["a"], [["a", "b"]])
        assert got.signature.rsplit("|", 1)[0] == want
        assert got.name == peer.corpus_score(["a"], [["a"]]).name


# sacrebleu's own test cases (test/test_chrf.py of mjpost/sacrebleu, expected values as there)
SACREBLEU_EPS = [
    (["abcdefg"], ["hijklmnop"], 0.0), (["a"], ["b"], 0.0), ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0), ([""], ["reference"], 0.0), (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333), (["a"], ["a"], 16.6667), (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector "
      "- these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that "
      "area - that is the scientists ."], 63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
     64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"],
     ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]
SACREBLEU_EFF = [
    (["a"], ["a"], 100.0), ([""], ["reference"], 0.0), (["a b c"], ["a b c"], 100.0),
    (["a b c"], ["abc"], 100.0), ([""], ["c"], 0.0), (["a", "b"], ["a", "c"], 50.0),
    (["aa"], ["ab"], 25.0),
]


@pytest.mark.parametrize("eps", [True, False])
def test_sacrebleu_test_cases(mtalign, eps):
    cases = SACREBLEU_EPS if eps else SACREBLEU_EFF
    for hyps, refs, expected in cases:
        got = float(mtalign.Chrf(beta=3, eps_smoothing=eps).corpus_score(hyps, refs))
        assert abs(got - expected) < 1e-4
        assert got == CHRF(beta=3, eps_smoothing=eps).corpus_score(hyps, [refs]).score


def test_zero_overlap_corpus_is_the_f_of_summed_statistics(mtalign):
    """A zero-overlap sentence counts in the corpus statistics (sacrebleu's 0.4217 case, not
    a mean of sentence scores and not a corpus that drops the sentence)."""
    hyps = ["abc def", "xyz", "the cat"]
    refs = ["abc deg", "qqq", "the cat"]
    want = CHRF().corpus_score(hyps, [refs]).score
    res = mtalign.Chrf().corpus_score(hyps, refs)
    assert res.score == want
    assert res.score != pytest.approx(float(np.mean(res.per_sentence)))


def test_empty_texts_and_whitespace(mtalign):
    pairs = [("", ""), ("", "a"), ("a", ""), ("  ", " x "), ("\x1c a\u3000b ", "a b"),
             ("(hi)", "(hi )"), ("a", "a")]
    for kw in VARIANTS:
        peer, ours = CHRF(**kw), mtalign.Chrf(**kw)
        for h, r in pairs:
            assert float(ours.sentence_score(h, r)) == peer.sentence_score(h, [r]).score
        hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
        assert float(ours.corpus_score(hyps, refs)) == peer.corpus_score(hyps, [refs]).score


def test_pairwise_and_tokens(mtalign):
    m = mtalign.Chrf(word_order=2)
    texts = ["the cat sat", "a cat sat down", "nothing"]
    mat = m.pairwise(texts, texts)
    assert mat.shape == (3, 3) and np.allclose(np.diag(mat), 100.0)
    assert mat[0, 1] == CHRF(word_order=2).sentence_score(texts[0], [texts[1]]).score
    assert m.batch_score([["the", "cat"]], [[["the", "cat"]]]).tolist() == [100.0]
    assert float(m.sentence_score(["the", "cat"], [["the", "cat", "x"]])) == \
        CHRF(word_order=2).sentence_score("the cat", ["the cat x"]).score


@pytest.mark.parametrize("kw", [dict(char_order=0), dict(char_order=13), dict(beta=0),
                                dict(beta=-1.0), dict(word_order=13), dict(lowercase=1),
                                dict(tokenize="13a")], ids=str)
def test_bad_options(mtalign, kw):
    with pytest.raises((mtalign.ConfigError, TypeError)):
        mtalign.Chrf(**kw)


# --------------------------------------------------------------------------- hypothesis twin

SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
text = st.text(alphabet="ab c.,(\t\u3000Ä", max_size=30)


@SETTINGS
@given(hyp=text, refs=st.lists(text, min_size=1, max_size=3), char_order=st.integers(1, 6),
       word_order=st.integers(0, 3), lowercase=st.booleans(), whitespace=st.booleans(),
       eps=st.booleans(), beta=st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_statistics_and_scores_equal_the_twin(mtalign, hyp, refs, char_order, word_order,
                                               lowercase, whitespace, eps, beta):
    kw = dict(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
              whitespace=whitespace, eps_smoothing=eps)
    m = mtalign.Chrf(**kw)
    want = twin.statistics(hyp, refs, **kw)
    assert m.statistics([hyp], [refs])[0].tolist() == want
    assert float(m.sentence_score(hyp, refs)) == pytest.approx(
        twin.f_score(want, beta, eps), rel=1e-12, abs=1e-12)
