"""NIST (= nltk), WER (= jiwer), PER (hand-computed + twin), RIBES (= nltk) on real text."""

from __future__ import annotations

import os

import numpy as np
import pytest
import wmt_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate.nist_score import corpus_nist, sentence_nist
from nltk.translate.ribes_score import corpus_ribes, sentence_ribes
from twins import baselines as twins

jiwer = pytest.importorskip("jiwer")
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

TOK = Tokenizer13a()
SETTINGS = settings(max_examples=int(os.environ.get("MTALIGN_HYPOTHESIS_EXAMPLES", "200")),
                    deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tokens(text):
    return TOK(text.rstrip()).split()


def cases(n=400, system="Online-W", letters="AB"):
    data = wmt_data.load("wmt21_deen_news")
    refs = [list(seg) for seg in zip(*(data["refs"][x] for x in letters), strict=True)]
    hyps = data["hyps"][system]
    # the first half with one reference, the rest with all
    return hyps[:n], [r[:1] for r in refs[: n // 2]] + refs[n // 2 : n]


def rel(a, b):
    return abs(a - b) / max(1.0, abs(b))


# -- NIST ---------------------------------------------------------------------------------

def test_sentence_nist_equals_nltk(mtalign):
    hyps, refs = cases(300)
    got = mtalign.Nist().batch_score(hyps, refs)
    compared = 0
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        if len(tokens(h)) < 5:
            continue  # nltk divides by zero when an order has no hypothesis n-gram
        compared += 1
        want = sentence_nist([tokens(x) for x in r], tokens(h), 5)
        assert rel(got[i], want) <= 1e-12, (i, got[i], want)
    assert compared > 250


@pytest.mark.parametrize("order", [5, 3, 1])
def test_corpus_nist_equals_nltk(mtalign, order):
    hyps, refs = cases(300, "HuaweiTSC")
    want = corpus_nist([[tokens(x) for x in r] for r in refs], [tokens(h) for h in hyps], order)
    got = mtalign.Nist(max_order=order).corpus_score(hyps, refs)
    assert rel(got.score, want) <= 1e-12


def test_nist_edges(mtalign):
    n = mtalign.Nist(tokenize="whitespace")
    assert float(n.sentence_score("", "a b")) == 0.0
    # orders the hypothesis does not reach add 0 (nltk divides by zero): only unigrams here
    want = sentence_nist([["a", "b", "c"]], ["a"], 1)
    assert float(n.sentence_score("a", "a b c")) == pytest.approx(want, rel=1e-12)
    assert n.corpus_score([], []).score == 0.0
    with pytest.raises(mtalign.ConfigError):
        mtalign.Nist(max_order=0)
    with pytest.raises(mtalign.ConfigError):
        mtalign.Nist(max_order=13)


# -- WER ----------------------------------------------------------------------------------

def test_wer_equals_jiwer(mtalign):
    data = wmt_data.load("wmt21_ende_news")
    hyps, refs = data["hyps"]["Online-B"], data["refs"]["A"]
    keep = [i for i, r in enumerate(refs) if tokens(r)]
    hyps = [hyps[i] for i in keep]
    refs = [refs[i] for i in keep]
    h_j = [" ".join(tokens(h)) for h in hyps]
    r_j = [" ".join(tokens(r)) for r in refs]
    w = mtalign.Wer()
    got = w.batch_score(hyps, refs)
    for i in range(len(hyps)):
        assert got[i] == jiwer.wer(r_j[i], h_j[i]), i
    assert w.corpus_score(hyps, refs).score == pytest.approx(jiwer.wer(r_j, h_j), abs=1e-15)
    assert len(hyps) > 990


def test_wer_multi_reference_takes_the_lowest(mtalign):
    w = mtalign.Wer(tokenize="whitespace")
    assert float(w.sentence_score("a b c", ["x y z", "a b d", "a b"])) == 1 / 3
    res = w.corpus_score(["a b c", "q"], [["a b d", "x y"], ["q"]])
    assert (res.details["errors"], res.details["ref_len"], res.score) == (1, 4, 0.25)
    assert not mtalign.Wer.higher_is_better


# -- PER ----------------------------------------------------------------------------------

PER_HAND = [
    # hyp, ref, errors (worked out by hand: max(|h|, |r|) - bag overlap)
    ("a b c", "a b c", 0),
    ("c b a", "a b c", 0),  # order does not matter
    ("a b", "a b c", 1),  # one deletion
    ("a b c d", "a b c", 1),  # one insertion
    ("a x c", "a b c", 1),  # one substitution
    ("a a a", "a b c", 2),  # one a matches; two substitutions
    ("x y", "a b c", 3),  # two substitutions and a deletion
    ("", "a b", 2),
    ("a", "", 1),
]


@pytest.mark.parametrize("hyp,ref,errors", PER_HAND)
def test_per_hand_computed(mtalign, hyp, ref, errors):
    p = mtalign.Per(tokenize="whitespace")
    res = p.corpus_score([hyp], [ref])
    assert res.details["errors"] == errors
    assert res.score == twins.rate(errors, len(ref.split()))
    assert float(p.sentence_score(hyp, ref)) == res.score


words = st.lists(st.sampled_from("abcdef"), max_size=12)


@SETTINGS
@given(hyp=words, refs=st.lists(words, min_size=1, max_size=3))
def test_per_and_wer_equal_twins(mtalign, hyp, refs):
    h = " ".join(hyp)
    r = [" ".join(x) for x in refs]
    for cls, fn in [(mtalign.Per, twins.per_errors), (mtalign.Wer, twins.levenshtein)]:
        stats = cls(tokenize="whitespace").statistics([h], [r])
        x, e, n = twins.best(fn, hyp, refs)
        assert stats.tolist() == [[e, n]]
        assert float(cls(tokenize="whitespace").sentence_score(h, r)) == x


@SETTINGS
@given(a=st.lists(st.integers(0, 6), max_size=150), b=st.lists(st.integers(0, 6), max_size=150))
def test_bit_parallel_edit_distance_equals_dp(mtalign, a, b):
    assert mtalign.kernels.edit_distance(a, b) == twins.levenshtein(a, b)


# -- RIBES --------------------------------------------------------------------------------

def test_ribes_equals_nltk(mtalign):
    hyps, refs = cases(400, "Facebook-AI")
    got = mtalign.Ribes().batch_score(hyps, refs)
    tr = [[tokens(x) for x in r] for r in refs]
    th = [tokens(h) for h in hyps]
    for i in range(len(hyps)):
        assert rel(got[i], sentence_ribes(tr[i], th[i])) <= 1e-12, i
    res = mtalign.Ribes().corpus_score(hyps, refs)
    assert rel(res.score, corpus_ribes(tr, th)) <= 1e-12
    other = mtalign.Ribes(alpha=0.5, beta=0.3).batch_score(hyps[:100], refs[:100])
    for i in range(100):
        assert rel(other[i], sentence_ribes(tr[i], th[i], 0.5, 0.3)) <= 1e-12


@SETTINGS
@given(hyp=st.lists(st.sampled_from("abcd"), min_size=1, max_size=10),
       refs=st.lists(st.lists(st.sampled_from("abcde"), max_size=10), min_size=1, max_size=2))
def test_ribes_equals_nltk_on_repetitive_input(mtalign, hyp, refs):
    got = float(mtalign.Ribes(tokenize="whitespace").sentence_score(
        " ".join(hyp), [" ".join(r) for r in refs]))
    assert rel(got, sentence_ribes(refs, hyp)) <= 1e-12


def test_ribes_edges(mtalign):
    r = mtalign.Ribes(tokenize="whitespace")
    assert float(r.sentence_score("", "a b")) == 0.0
    with pytest.raises(mtalign.ConfigError):
        mtalign.Ribes(alpha=-1)


# -- shared behaviour ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Nist", "Wer", "Per", "Ribes"])
def test_protocol(mtalign, name):
    import pickle

    cls = getattr(mtalign, name)
    m = cls(tokenize="intl", lowercase=True)
    assert pickle.loads(pickle.dumps(m)) == m
    hyps, refs = cases(50)
    a = m.scalar_scores(hyps, refs, threads=1)
    np.testing.assert_array_equal(a, m.batch_score(hyps, refs, threads=2))
    assert a.shape == (50,)
    with pytest.raises(mtalign.ConfigError):
        cls(tokenize="nope")
    with pytest.raises(mtalign.InputError):
        m.batch_score(["a"], [])
