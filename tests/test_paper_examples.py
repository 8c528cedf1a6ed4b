"""The worked examples of Lin & Och (2004), through ``mtalign.Rouge`` on raw text.

S1 (reference) "police killed the gunman"; candidates S2 "police kill the gunman", S3 "the
gunman kill police", S4 "the gunman police killed" (Sections 3.1 and 4). X = "A B C D E F G"
(reference), Y1 = "A B C D H I K", Y2 = "A H B K C I D" with f(k) = k^2 (Section 3.3).

Where the paper's value is an exact fraction it is asserted to within float rounding; the
paper prints 0.167 / 0.333 / 0.571 / 0.286 for 1/6, 1/3, 4/7 and 2/7.
"""

from __future__ import annotations

import pytest
from twins import rouge as twins

S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"
X = "A B C D E F G"
Y1 = "A B C D H I K"
Y2 = "A H B K C I D"

EXACT = 1e-12  # float rounding only


@pytest.fixture(scope="module")
def rouge(mtalign):
    return mtalign.Rouge(
        ["rouge1", "rouge2", "rougeL", "rougeW-2", "rougeS*", "rougeS0", "rougeSU*"],
        tokenize="whitespace",
    )


def prf(score) -> tuple[float, float, float]:
    return (score.precision, score.recall, score.fmeasure)


# ------------------------------------------------------------------------- ROUGE-L, Sec. 3.1


@pytest.mark.parametrize(
    "candidate, lcs, expected",
    [(S2, 3, 0.75), (S3, 2, 0.5), (S4, 2, 0.5), (S1, 4, 1.0)],
    ids=["S2", "S3", "S4", "S1"],
)
def test_rouge_l(rouge, candidate, lcs, expected):
    """S2 3/4 = 0.75, S3 2/4 = 0.5 and S4 the same as S3 (LCS "the gunman" or "police
    killed", not both); all sentences have 4 words, so P = R = F = LCS/4."""
    assert lcs / 4 == expected
    score = rouge.sentence_score(candidate, S1)["rougeL"]
    assert prf(score) == pytest.approx((expected,) * 3, abs=EXACT)


# ------------------------------------------------------------------------- ROUGE-S, Sec. 4


@pytest.mark.parametrize(
    "candidate, hits, expected",
    [(S2, 3, 0.5), (S3, 1, 1 / 6), (S4, 2, 1 / 3), (S1, 6, 1.0)],
    ids=["S2", "S3", "S4", "S1"],
)
def test_rouge_s_star(rouge, candidate, hits, expected):
    """C(4,2) = 6 skip-bigrams each: S2 matches 3 ("police the", "police gunman", "the
    gunman"), S3 1 ("the gunman"), S4 2 ("police killed", "the gunman")."""
    assert hits / 6 == pytest.approx(expected, abs=EXACT)
    score = rouge.sentence_score(candidate, S1)["rougeS*"]
    assert prf(score) == pytest.approx((expected,) * 3, abs=EXACT)
    assert round(score.fmeasure, 3) == {0.5: 0.5, 1 / 6: 0.167, 1 / 3: 0.333, 1.0: 1.0}[expected]


def test_s1_skip_bigrams_listed_in_paper():
    assert twins.skip_bigrams(S1.split(), None) == [
        ("police", "killed"),
        ("police", "the"),
        ("police", "gunman"),
        ("killed", "the"),
        ("killed", "gunman"),
        ("the", "gunman"),
    ]


def test_rouge_su_star_paper_s2(rouge):
    """SU* adds all unigrams: S2 vs S1 has (3 + 3) / (6 + 4) = 0.6 (ROUGE-1.5.5 prints 0.5556
    because it drops the last token's unigram; mtalign follows the paper)."""
    score = rouge.sentence_score(S2, S1)["rougeSU*"]
    assert prf(score) == pytest.approx((0.6, 0.6, 0.6), abs=EXACT)


# ------------------------------------------------------------------------- ROUGE-W, Sec. 3.3


@pytest.mark.parametrize(
    "candidate, wlcs, expected",
    [(Y1, 16.0, 4 / 7), (Y2, 4.0, 2 / 7), (X, 49.0, 1.0)],
    ids=["Y1", "Y2", "X"],
)
def test_rouge_w_weight_2(rouge, candidate, wlcs, expected):
    """f(k) = k^2: Y1 has one run of 4 consecutive matches, WLCS = 16, R = sqrt(16/49) = 4/7
    = 0.571; Y2 has four runs of 1, WLCS = 4, R = sqrt(4/49) = 2/7 = 0.286. Both have 7
    words, so P = R = F."""
    assert twins.wlcs(X.split(), candidate.split(), 2.0) == wlcs
    score = rouge.sentence_score(candidate, X)["rougeW-2"]
    assert prf(score) == pytest.approx((expected,) * 3, abs=EXACT)
    assert round(score.recall, 3) == {4 / 7: 0.571, 2 / 7: 0.286, 1.0: 1.0}[expected]


def test_rouge_w_kernel_paper_examples(mtalign):
    ids = {tok: i for i, tok in enumerate("ABCDEFGHIK")}
    x = [ids[t] for t in X.split()]
    assert mtalign.kernels.wlcs(x, [ids[t] for t in Y1.split()], 2.0) == pytest.approx(16.0)
    assert mtalign.kernels.wlcs(x, [ids[t] for t in Y2.split()], 2.0) == pytest.approx(4.0)


def test_y1_y2_same_rouge_l(rouge):
    """The paper's motivation: ROUGE-L cannot tell Y1 from Y2 (LCS 4 of 7 for both)."""
    l1 = rouge.sentence_score(Y1, X)["rougeL"]
    l2 = rouge.sentence_score(Y2, X)["rougeL"]
    assert prf(l1) == pytest.approx((4 / 7,) * 3, abs=EXACT)
    assert prf(l2) == pytest.approx(prf(l1), abs=EXACT)


# ------------------------------------------------------------ ROUGE-S0 is bigram overlap


@pytest.mark.parametrize(
    "candidate, reference",
    [
        (S2, S1),
        (S3, S1),
        (S4, S1),
        (Y2, X),
        ("the cat sat on the mat the cat", "the cat the cat sat on a mat"),
        ("a a a a", "a a"),
        ("single", "single word"),
        ("", "police killed the gunman"),
    ],
)
def test_rouge_s0_equals_rouge2(rouge, candidate, reference):
    """d_skip = 0: "ROUGE-S is equivalent to bigram overlap" (Sec. 4); both are hit/total of
    the same integer counts."""
    scores = rouge.sentence_score(candidate, reference)
    assert prf(scores["rougeS0"]) == prf(scores["rouge2"])
    t = twins.whitespace_tokenize
    assert twins.skip_bigram_overlap(t(candidate), t(reference), 0, False) == (
        twins.ngram_overlap(t(candidate), t(reference), 2)
    )


# ------------------------------------------------------ BLEU-2's blind spot (Sec. 2)


def test_s2_s3_same_unigrams_and_bigrams(rouge):
    """S2 and S3 both have 3 unigram and 1 bigram matches with S1: ROUGE-1/2 (like BLEU-2)
    cannot tell them apart, ROUGE-L and ROUGE-S can."""
    s2 = rouge.sentence_score(S2, S1)
    s3 = rouge.sentence_score(S3, S1)
    for var, value in (("rouge1", 0.75), ("rouge2", 1 / 3)):
        assert prf(s2[var]) == pytest.approx((value,) * 3, abs=EXACT)
        assert prf(s3[var]) == pytest.approx((value,) * 3, abs=EXACT)
    assert s2["rougeL"].fmeasure > s3["rougeL"].fmeasure
    assert s2["rougeS*"].fmeasure > s3["rougeS*"].fmeasure


# ----------------------------------------------- multiple references, eqs. 7-9 and the modes


def test_multi_reference_modes(mtalign):
    """Candidate S2 against references S1 and "police kill gunman": per reference
    ROUGE-L = (P, R) (3/4, 3/4) and (3/4, 3/3)."""
    refs = [S1, "police kill gunman"]
    expected = {
        # eqs. 7-9: R = max R_j, P = max P_j, F from them
        "max": (0.75, 1.0, 2 * 0.75 / 1.75),
        # pooled: R = (3 + 3) / (4 + 3), P = (3 + 3) / (2 * 4)
        "average": (0.75, 6 / 7, 2 * 0.75 * (6 / 7) / (0.75 + 6 / 7)),
        # the reference with the highest R: the second one
        "best": (0.75, 1.0, 2 * 0.75 / 1.75),
        "best_f": (0.75, 1.0, 2 * 0.75 / 1.75),
    }
    for mode, want in expected.items():
        r = mtalign.Rouge(["rougeL"], tokenize="whitespace", multi_ref=mode)
        got = prf(r.sentence_score(S2, refs)["rougeL"])
        assert got == pytest.approx(want, abs=EXACT), mode
        assert twins.rouge_score("rougeL", S2.split(), [x.split() for x in refs], mode) == (
            pytest.approx(want, abs=EXACT)
        )


@pytest.mark.parametrize(
    "refs, want",
    [
        # F ties exactly (2/3 both: (P, R) = (1, 1/2) and (1/2, 1)): the first reference wins
        (["a b c d", "a"], (1.0, 0.5)),
        (["a", "a b c d"], (0.5, 1.0)),
    ],
)
def test_best_f_first_reference_wins_ties(mtalign, refs, want):
    r = mtalign.Rouge(["rouge1"], tokenize="whitespace", multi_ref="best_f")
    score = r.sentence_score("a b", refs)["rouge1"]
    assert (score.precision, score.recall) == pytest.approx(want, abs=EXACT)
    assert score.fmeasure == pytest.approx(2 / 3, abs=EXACT)


@pytest.mark.parametrize(
    "refs, want",
    [
        # R ties exactly (1/2 both) with different P: the first reference wins
        (["a x", "a b c d"], (0.5, 0.5)),
        (["a b c d", "a x"], (1.0, 0.5)),
    ],
)
def test_best_first_reference_wins_ties(mtalign, refs, want):
    r = mtalign.Rouge(["rouge1"], tokenize="whitespace", multi_ref="best")
    score = r.sentence_score("a b", refs)["rouge1"]
    assert (score.precision, score.recall) == pytest.approx(want, abs=EXACT)


def test_jackknife(mtalign):
    """Three references, ROUGE-1, "max": the mean of the three leave-one-out scores."""
    hyp, refs = "a b c", ["a b", "a c d e", "x y"]
    r = mtalign.Rouge(["rouge1"], tokenize="whitespace", multi_ref="max", jackknife=True)
    got = prf(r.sentence_score(hyp, refs)["rouge1"])
    # per reference (P, R): (2/3, 1), (2/3, 1/2), (0, 0)
    subsets = [((2 / 3, 0.5), (0.0, 0.0)), ((2 / 3, 1.0), (0.0, 0.0)), ((2 / 3, 1.0), (2 / 3, 0.5))]
    ps, rs, fs = [], [], []
    for a, b in subsets:
        p, rr = max(a[0], b[0]), max(a[1], b[1])
        ps.append(p)
        rs.append(rr)
        fs.append(2 * p * rr / (p + rr))
    want = (sum(ps) / 3, sum(rs) / 3, sum(fs) / 3)
    assert got == pytest.approx(want, abs=EXACT)
    split = [x.split() for x in refs]
    assert twins.rouge_score("rouge1", hyp.split(), split, "max", jackknife=True) == (
        pytest.approx(want, abs=EXACT)
    )
    one = mtalign.Rouge(["rouge1"], tokenize="whitespace", jackknife=True)
    plain = mtalign.Rouge(["rouge1"], tokenize="whitespace")
    assert prf(one.sentence_score(hyp, refs[0])["rouge1"]) == prf(
        plain.sentence_score(hyp, refs[0])["rouge1"]
    )


def test_beta_weights_recall(mtalign):
    """F = (1 + b^2) R P / (R + b^2 P): b = 2 leans to R, b = 0.5 to P."""
    hyp, ref = "a b", "a b c d"  # P = 1, R = 1/2
    for beta in (0.5, 1.0, 2.0):
        r = mtalign.Rouge(["rouge1"], tokenize="whitespace", beta=beta)
        want = (1 + beta**2) * 0.5 / (0.5 + beta**2)
        assert r.sentence_score(hyp, ref)["rouge1"].fmeasure == pytest.approx(want, abs=EXACT)


def test_no_overlap_and_empty_give_zero_not_nan(rouge):
    for hyp, ref in (("a b c", "x y z"), ("", "x y z"), ("a b c", ""), ("", ""), ("a", "a")):
        for var, score in rouge.sentence_score(hyp, ref).items():
            for value in prf(score):
                assert value == value, (hyp, ref, var)  # not NaN
                assert 0.0 <= value <= 1.0
        if hyp != ref:
            assert all(prf(s) == (0.0, 0.0, 0.0) for s in rouge.sentence_score(hyp, ref).values())


# ------------------------------------------------------------------ input forms of the API


def test_batch_score_on_text_matches_sentence_score(rouge):
    """batch_score takes str candidates with references given as a str or a list of str."""
    hyps = [S2, S3, S4, Y2]
    refs = [S1, [S1], [S1, S2], X]
    out = rouge.batch_score(hyps, refs)
    for i, (hyp, ref) in enumerate(zip(hyps, refs, strict=True)):
        single = rouge.sentence_score(hyp, ref)
        for var, score in single.items():
            assert tuple(out[var][i]) == pytest.approx(prf(score), abs=EXACT), (i, var)
    assert tuple(out["rougeL"][0]) == pytest.approx((0.75, 0.75, 0.75), abs=EXACT)


def test_pretokenized_tokens_are_used_verbatim(mtalign):
    """Token lists are neither lowercased nor split, whatever the tokenizer settings."""
    r = mtalign.Rouge(["rouge1"], tokenize="whitespace", lowercase=True)
    assert prf(r.sentence_score(["Police"], [["police"]])["rouge1"]) == (0.0, 0.0, 0.0)
    assert prf(r.sentence_score(["Police"], [["Police"]])["rouge1"]) == (1.0, 1.0, 1.0)
    got = r.sentence_score(["new york", "city"], [["new york", "city"]])["rouge1"]
    assert prf(got) == (1.0, 1.0, 1.0)
    got = r.sentence_score(["new york", "city"], [["new", "york", "city"]])["rouge1"]
    assert prf(got) == pytest.approx((0.5, 1 / 3, 0.4), abs=EXACT)
    # and the text path does lowercase
    assert prf(r.sentence_score("Police", "police")["rouge1"]) == (1.0, 1.0, 1.0)
