"""BLEU against sacrebleu (corpus and sentence, sacrebleu's smoothings) and nltk (add1 and
Chen & Cherry methods 1-7), on real WMT21 text."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import wmt_data

sacrebleu = pytest.importorskip("sacrebleu")
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

TOK13A = Tokenizer13a()
NLTK_METHODS = [f"method{k}" for k in range(1, 8)]


def refsets(data, letters):
    """sacrebleu's layout (one list per reference) and mtalign's (one list per segment)."""
    streams = [data["refs"][x] for x in letters]
    return streams, [list(seg) for seg in zip(*streams, strict=True)]


CORPUS_CASES = [("wmt21_ende_news", "A"), ("wmt21_ende_news", "ACD"),
                ("wmt21_deen_news", "A"), ("wmt21_deen_news", "AB")]


@pytest.mark.parametrize("dataset,letters", CORPUS_CASES)
def test_corpus_bleu_equals_sacrebleu_for_every_system(mtalign, dataset, letters):
    data = wmt_data.load(dataset)
    streams, per_segment = refsets(data, letters)
    peer = BLEU(references=streams)  # the references cached once, as sacrebleu allows
    ours = mtalign.Bleu(smooth="exp")
    assert len(data["hyps"]) >= 19
    for system, hyps in data["hyps"].items():
        want = peer.corpus_score(hyps, None)
        got = ours.corpus_score(hyps, per_segment)
        assert got.score == want.score, system  # bit for bit
        assert got.counts == want.counts and got.totals == want.totals, system
        assert (got.sys_len, got.ref_len) == (want.sys_len, want.ref_len), system
        assert got.bp == want.bp and got.ratio == want.ratio, system
        assert got.precisions == want.precisions, system
        assert got.signature.startswith(f"nrefs:{len(letters)}|case:mixed|eff:no|tok:13a")


def test_corpus_bleu_lowercase_intl_and_orders(mtalign):
    data = wmt_data.load("wmt21_deen_news")
    streams, per_segment = refsets(data, "AB")
    hyps = data["hyps"]["Facebook-AI"]
    for kw, sb in [({"lowercase": True}, {"lowercase": True}),
                   ({"tokenize": "intl"}, {"tokenize": "intl"}),
                   ({"max_order": 2}, {"max_ngram_order": 2}),
                   ({"max_order": 6, "smooth": "floor"},
                    {"max_ngram_order": 6, "smooth_method": "floor"})]:
        want = BLEU(**sb).corpus_score(hyps, streams)
        got = mtalign.Bleu(**{"smooth": "exp", **kw}).corpus_score(hyps, per_segment)
        assert got.score == want.score and got.counts == want.counts, kw


def sentence_cases():
    data = wmt_data.load("wmt21_deen_news")
    _, per_segment = refsets(data, "AB")
    hyps = data["hyps"]["happypoet"][:300] + data["hyps"]["Online-W"][300:500]
    refs = [r[:1] for r in per_segment[:300]] + per_segment[300:500]
    # short and degenerate hypotheses: every smoothing's corner
    hyps += ["", "Hello", "The cat", "the the the", "A B C", "x y z w"]
    refs += [["a b"], ["Hello there"], ["The cat sat"], ["the cat", "the the"],
             ["A B C D E"], ["x y z w"]]
    return hyps, refs


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
@pytest.mark.parametrize("effective", [True, False])
def test_sentence_bleu_equals_sacrebleu(mtalign, smooth, effective):
    hyps, refs = sentence_cases()
    peer = BLEU(smooth_method=smooth, effective_order=effective)
    ours = mtalign.Bleu(smooth=smooth, effective_order=effective)
    got = ours.batch_score(hyps, refs)
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        want = peer.sentence_score(h, r)
        assert got[i] == want.score, (i, h)
    one = ours.sentence_score(hyps[0], refs[0])
    want = peer.sentence_score(hyps[0], refs[0])
    assert one.score == want.score and one.totals[0] == want.totals[0]


def tokens(text):
    return TOK13A(text.rstrip()).split()


def nltk_score(method, h, r, order=4, auto_reweigh=False):
    fn = getattr(SmoothingFunction(), "method2" if method == "add1" else method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return 100 * sentence_bleu([tokens(x) for x in r], tokens(h), (1 / order,) * order,
                                   smoothing_function=fn, auto_reweigh=auto_reweigh)


@pytest.mark.parametrize("method", ["add1", *NLTK_METHODS])
def test_sentence_bleu_equals_nltk(mtalign, method):
    hyps, refs = sentence_cases()
    got = mtalign.Bleu(smooth=method).batch_score(hyps, refs)
    # the same through pre-tokenized input
    got_tok = mtalign.Bleu(smooth=method).batch_score(
        [tokens(h) for h in hyps], [[tokens(x) for x in r] for r in refs])
    np.testing.assert_array_equal(got, got_tok)
    compared = 0
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        try:
            want = nltk_score(method, h, r)
        except (AssertionError, IndexError):
            assert method == "method6"  # nltk refuses a zero trigram precision
            continue
        assert abs(got[i] / 100 - want / 100) <= 1e-12, (i, h, got[i], want)
        compared += 1
    assert compared >= 400


@pytest.mark.parametrize("method", ["add1", "method1", "method3"])
def test_effective_order_is_nltk_auto_reweigh(mtalign, method):
    hyps = ["a b", "a b c", "a", "a b c d e"]
    refs = [["a b c"], ["a b d"], ["a"], ["a b c d e"]]
    got = mtalign.Bleu(smooth=method, effective_order=True, tokenize="whitespace")
    for h, r, g in zip(hyps, refs, got.batch_score(hyps, refs), strict=True):
        assert abs(g - nltk_score(method, h, r, auto_reweigh=True)) <= 1e-10


@pytest.mark.parametrize("order", [1, 2, 3, 5, 8, 12])
def test_other_orders_equal_nltk_method2(mtalign, order):
    hyps, refs = sentence_cases()
    got = mtalign.Bleu(max_order=order, smooth="add1").batch_score(hyps[:200], refs[:200])
    for i in range(200):
        assert abs(got[i] - nltk_score("add1", hyps[i], refs[i], order)) <= 1e-10


@pytest.mark.parametrize("method", ["add1", "method1", "method2", "method3", "method4"])
def test_corpus_nltk_smoothings_equal_nltk_corpus_bleu(mtalign, method):
    hyps, refs = sentence_cases()
    fn = getattr(SmoothingFunction(), "method2" if method == "add1" else method)
    want = corpus_bleu([[tokens(x) for x in r] for r in refs], [tokens(h) for h in hyps],
                       smoothing_function=fn)
    got = mtalign.Bleu(smooth=method).corpus_score(hyps, refs).score
    assert abs(got / 100 - want) <= 1e-12


def test_known_difference_add_k_and_add1_on_short_hypotheses(mtalign):
    # "a b" against "a b": the 3- and 4-gram orders are missing.
    # sacrebleu add-k: (0+1)/(0+1) for them -> 100; nltk method2: (0+1)/(max(1,0)+1) = 1/2.
    addk = mtalign.Bleu(smooth="add-k", tokenize="whitespace").sentence_score("a b", "a b")
    add1 = mtalign.Bleu(smooth="add1", tokenize="whitespace").sentence_score("a b", "a b")
    assert addk.score == pytest.approx(100.0)
    assert add1.score == pytest.approx(100 * math.exp((math.log(0.5) * 2) / 4))
    assert addk.score == BLEU(smooth_method="add-k", tokenize="none").sentence_score(
        "a b", ["a b"]).score
    assert add1.score == pytest.approx(nltk_score("add1", "a b", ["a b"]), abs=1e-10)


@pytest.mark.parametrize("smooth", ["none", "floor", "add-k", "exp", "add1", *NLTK_METHODS])
def test_empty_hypothesis_scores_zero(mtalign, smooth):
    b = mtalign.Bleu(smooth=smooth)
    assert b.sentence_score("", "a reference").score == 0.0
    assert b.batch_score(["", "   "], ["a", ["b", "c"]]).tolist() == [0.0, 0.0]
    assert b.corpus_score([], []).score == 0.0


def test_short_hypotheses_per_smoothing(mtalign):
    # "a b c" vs "a b c": orders 1-3 perfect, order 4 missing.
    want = {"none": 0.0, "floor": 0.0, "exp": 0.0, "add-k": 100.0,
            "add1": 100 * 0.5 ** 0.25, "method1": 100 * 0.1 ** 0.25,
            "method3": 100 * 0.5 ** 0.25}
    for smooth, value in want.items():
        got = mtalign.Bleu(smooth=smooth, effective_order=False, tokenize="whitespace"
                           ).sentence_score("a b c", "a b c").score
        assert got == pytest.approx(value, abs=1e-9), smooth
        # the default (effective_order=None): sacrebleu's smoothings use the effective order
        # at sentence level (sentence_bleu), nltk's do not (nltk's auto_reweigh=False)
        default = mtalign.Bleu(smooth=smooth, tokenize="whitespace")
        at_sentence = default.sentence_score("a b c", "a b c").score
        in_corpus = default.corpus_score(["a b c"], ["a b c"]).score
        sacrebleu_smoothing = smooth in ("none", "floor", "exp", "add-k")
        assert at_sentence == pytest.approx(100.0 if sacrebleu_smoothing else value), smooth
        assert in_corpus == pytest.approx(value, abs=1e-9), smooth
    eff = mtalign.Bleu(smooth="none", effective_order=True, tokenize="whitespace")
    assert eff.sentence_score("a b c", "a b c").score == pytest.approx(100.0)


def test_multi_reference_clipping_and_ref_length(mtalign):
    b = mtalign.Bleu(max_order=1, smooth="none", tokenize="whitespace")
    r = b.sentence_score("the the the cat", ["the cat the", "the the mat"])
    assert r.counts == [3] and r.totals == [4] and r.ref_len == 3
    cases = [(["a", "a b c d"], {"closest": 4, "shortest": 1, "average": 2.5}),
             (["a b c d", "a b"], {"closest": 2, "shortest": 2, "average": 3})]  # tie: shorter
    for refs, wants in cases:
        for mode, want in wants.items():
            got = mtalign.Bleu(max_order=1, smooth="none", tokenize="whitespace",
                               ref_length=mode).sentence_score("a b c", refs)
            assert got.ref_len == want, mode


def test_statistics_rows_add_up_to_the_corpus(mtalign):
    data = wmt_data.load("wmt21_deen_news")
    _, refs = refsets(data, "AB")
    hyps = data["hyps"]["UEdin"]
    b = mtalign.Bleu(smooth="exp")
    stats = b.statistics(hyps, refs)
    assert stats.shape == (1000, 2 + 3 * 4)
    assert b.corpus_from_statistics(stats).score == b.corpus_score(hyps, refs).score
    rng = np.random.default_rng(0)
    sample = stats[rng.integers(0, len(hyps), len(hyps))]
    picked = BLEU().corpus_score  # resampled corpus = the same corpus resampled in sacrebleu
    idx = rng.integers(0, len(hyps), 50)
    want = picked([hyps[i] for i in idx], [[refs[i][0] for i in idx], [refs[i][1] for i in idx]])
    assert b.corpus_from_statistics(stats[idx]).score == want.score
    assert 0 < b.corpus_from_statistics(sample).score < 100


@pytest.mark.parametrize("kw", [{"max_order": 0}, {"max_order": 13}, {"max_order": 2.0},
                                {"smooth": "method8"}, {"smooth": "add-one"},
                                {"tokenize": "13b"}, {"ref_length": "longest"},
                                {"smooth": "exp", "smooth_value": 2},
                                {"smooth": "floor", "smooth_value": -1}])
def test_bad_options(mtalign, kw):
    with pytest.raises(mtalign.ConfigError):
        mtalign.Bleu(**kw)


def test_object_protocol(mtalign):
    import pickle

    b = mtalign.Bleu(max_order=6, smooth="method4", smooth_value=3)
    assert pickle.loads(pickle.dumps(b)) == b
    assert hash(b) == hash(mtalign.Bleu(**b.config()))
    assert "smooth:method4[3.00]" in b.signature()
    with pytest.raises(AttributeError):
        b.x = 1
    assert mtalign.Bleu.higher_is_better
    np.testing.assert_array_equal(b.scalar_scores(["a b"], ["a b"]), b.batch_score(["a b"],
                                                                                   ["a b"]))
    assert b.batch_score(["a b"] * 3, ["a c"] * 3, threads=1).tolist() == \
        b.batch_score(["a b"] * 3, ["a c"] * 3, threads=2).tolist()


def test_corpus_result_carries_sentence_scores(mtalign):
    hyps = ["the cat sat on the mat", "a dog", ""]
    refs = [["the cat is on the mat", "a cat sat on a mat"], ["the dog"], ["nothing"]]
    for smooth in ("add1", "exp"):
        bleu = mtalign.Bleu(smooth=smooth)
        res = bleu.corpus_score(hyps, refs)
        assert res.per_sentence.tolist() == bleu.batch_score(hyps, refs).tolist()
        assert res.n_sentences == 3
        assert bleu.sentence_score(hyps[0], refs[0]).per_sentence.tolist() == [
            bleu.batch_score(hyps[:1], refs[:1])[0]]


def segment_major(dataset, n_segments):
    """Every system's output of each of the first segments in turn (the systems of a segment
    share its references, consecutive in the batch, as in a WMT layout read by segment), one
    reference on even segments and two on odd ones."""
    data = wmt_data.load(dataset)
    _, per_segment = refsets(data, "AB")
    hyps, refs = [], []
    for s in range(n_segments):
        for lines in data["hyps"].values():
            hyps.append(lines[s])
            refs.append(per_segment[s] if s % 2 else per_segment[s][:1])
    return hyps, refs


def test_shared_references_equal_pair_by_pair_scores(mtalign):
    """Pairs that share references reuse their n-gram table: the rows equal sacrebleu's
    sentence scores and mtalign's own pair-by-pair scores, in any order of the pairs."""
    hyps, refs = segment_major("wmt21_deen_news", 120)
    assert len(hyps) > 2000
    peer = BLEU(smooth_method="exp", effective_order=True)  # sacrebleu's sentence_bleu
    ours = mtalign.Bleu(smooth="exp")
    got = ours.batch_score(hyps, refs, threads=2)
    for i, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        assert got[i] == peer.sentence_score(h, r).score, (i, h)
    add1 = mtalign.Bleu(smooth="add1")
    grouped = add1.batch_score(hyps, refs, threads=1)
    perm = np.random.default_rng(3).permutation(len(hyps))
    shuffled = add1.batch_score([hyps[i] for i in perm], [refs[i] for i in perm], threads=2)
    assert grouped.tolist() == shuffled[np.argsort(perm)].tolist()
    one = [float(add1.sentence_score(h, r)) for h, r in zip(hyps, refs, strict=True)]
    assert grouped.tolist() == one
    assert add1.statistics(hyps, refs).tolist() == [
        add1.statistics([h], [r])[0].tolist() for h, r in zip(hyps, refs, strict=True)]
