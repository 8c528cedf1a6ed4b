"""TER against sacrebleu 2.6.0 (edit counts, sentence and corpus scores, bit for bit) on
real WMT21 text, on sacrebleu's own test cases, on random small-alphabet sentences
(hypothesis, sacrebleu as the oracle) and on a hypothesis longer than 1000 words."""

from __future__ import annotations

import numpy as np
import pytest
import wmt_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import TER  # noqa: E402

SEGMENTS = 80  # per system: sacrebleu's TER is slow


def segments(streams: list[list[str]]) -> list[list[str]]:
    return [list(seg) for seg in zip(*streams, strict=True)]


@pytest.mark.parametrize("name", wmt_data.SETS)
def test_systems_equal_sacrebleu(mtalign, name):
    """Statistics rows and corpus TER of four systems per set, one and all references."""
    data = wmt_data.load(name)
    streams = [r[:SEGMENTS] for r in data["refs"].values()]
    peer, ours = TER(), mtalign.Ter()
    for system in list(data["hyps"])[:4]:
        hyps = data["hyps"][system][:SEGMENTS]
        for refs in (streams[:1], streams):
            want = peer._extract_corpus_statistics(hyps, refs)
            got = ours.statistics(hyps, segments(refs))
            assert np.array_equal(got, np.array(want, dtype=np.float64)), system
            res = ours.corpus_score(hyps, segments(refs))
            sb = peer._aggregate_and_compute(want)
            assert res.score == sb.score, system
            assert res.details == {"num_edits": sb.num_edits, "ref_length": sb.ref_length}


def test_sentence_scores_case_sensitive(mtalign):
    data = wmt_data.load("wmt21_deen_news")
    hyps, refs = data["hyps"]["Facebook-AI"][:150], data["refs"]["A"][:150]
    for case in (False, True):
        peer, ours = TER(case_sensitive=case), mtalign.Ter(case_sensitive=case)
        want = [peer.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
        assert ours.batch_score(hyps, refs).tolist() == want
        assert float(ours.sentence_score(hyps[3], refs[3])) == want[3]


# sacrebleu's own test cases (test/test_ter.py of mjpost/sacrebleu): TER / 100
SACREBLEU_CASES = [
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0),
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1),
    ([""], ["a"], 1),
    (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),
    (["wählen Sie \" Bild neu berechnen , \" um beim Ändern der Bildgröße Pixel hinzuzufügen "
      "oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere "
      "Größe .",
      "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne "
      "enthält ."],
     ["wählen Sie \" Bild neu berechnen , \" um beim Ändern der Bildgröße Pixel hinzuzufügen "
      "oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe "
      "beibehalten wird .",
      "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich "
      "über die Bühne bewegt ."], None),
]


def test_sacrebleu_test_cases(mtalign):
    for hyps, refs, expected in SACREBLEU_CASES:
        got = float(mtalign.Ter().corpus_score(hyps, refs))
        assert got == TER().corpus_score(hyps, [refs]).score
        if expected is not None:
            assert abs(got - 100 * expected) < 1e-3


def test_empty_texts_and_multiple_references(mtalign):
    cases = [("", [""]), ("a b", [""]), ("", ["a b", ""]), ("a b c", ["c b a", "a c"]),
             ("x", ["a b c d", "y"])]
    for h, refs in cases:
        assert float(mtalign.Ter().sentence_score(h, refs)) == \
            TER().sentence_score(h, refs).score


def test_long_hypothesis_and_the_candidate_limit(mtalign):
    rng = np.random.default_rng(1)
    words = [f"w{k}" for k in range(200)]
    long_hyp = " ".join(rng.choice(words, 1005))  # longer than 1000 words
    ref = " ".join(rng.choice(words, 60))
    # many repeated words: more than 1000 shift candidates, so the search stops early
    many_hyp, many_ref = (" ".join(rng.choice(["a", "b", "c"], 90)) for _ in range(2))
    for hyp, r in ((long_hyp, ref), (ref, long_hyp), (many_hyp, many_ref)):
        want = TER()._extract_corpus_statistics([hyp], [[r]])[0]
        assert mtalign.Ter().statistics([hyp], [r])[0].tolist() == want


SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
sentence = st.lists(st.sampled_from("a b c d A".split()), max_size=25).map(" ".join)


@SETTINGS
@given(hyp=sentence, refs=st.lists(sentence, min_size=1, max_size=3), case=st.booleans())
def test_random_sentences_equal_sacrebleu(mtalign, hyp, refs, case):
    want = TER(case_sensitive=case)._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
    assert mtalign.Ter(case_sensitive=case).statistics([hyp], [refs])[0].tolist() == want


TOKENIZATIONS = [dict(normalized=True), dict(no_punct=True),
                  dict(normalized=True, no_punct=True, asian_support=True, case_sensitive=True),
                  dict(normalized=True, asian_support=True)]


@pytest.mark.parametrize("kw", TOKENIZATIONS, ids=str)
@pytest.mark.parametrize("name", ["wmt21_deen_news", "wmt21_enzh_news_extract",
                                  "wmt21_enja_news_extract"])
def test_tercom_tokenizations_equal_sacrebleu(mtalign, name, kw):
    data = wmt_data.load(name)
    refs = data["refs"]["A"][:40]
    hyps = next(iter(data["hyps"].values()))[:40]
    peer, ours = TER(**kw), mtalign.Ter(**kw)
    want = peer._extract_corpus_statistics(hyps, [refs])
    assert ours.statistics(hyps, refs).tolist() == want
    assert float(ours.sentence_score(hyps[0], [refs[0], refs[1]])) == \
        peer.sentence_score(hyps[0], [refs[0], refs[1]]).score
    lines = list(dict.fromkeys(wmt_data.all_lines(name)))[:3000]
    from mtalign.metrics.ter import tercom_normalize

    flags = [kw.get(k, False) for k in ("normalized", "no_punct", "asian_support",
                                        "case_sensitive")]
    bad = [t for t in lines if tercom_normalize(t, *flags) != peer._preprocess_segment(t)]
    assert not bad, bad[:1]


def test_options(mtalign):
    with pytest.raises(mtalign.ConfigError):
        mtalign.Ter(case_sensitive="yes")
    with pytest.raises(TypeError):
        mtalign.Ter(beta=2)
    assert mtalign.Ter.higher_is_better is False
    peer = TER()
    peer.corpus_score(["a"], [["a"]])
    assert mtalign.Ter().signature(1).rsplit("|", 1)[0] == \
        peer.get_signature().format().rsplit("|", 1)[0]
