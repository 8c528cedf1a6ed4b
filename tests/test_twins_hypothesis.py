"""Property tests: mtalign's kernels and ``Rouge.batch_score`` always agree with the twins.

Random token sequences over small alphabets (so there are many matches, repeats and ties),
lengths 0..80, plus 60..200 to cross the 64-token word boundary of the bit-parallel LCS. Then
the same checks on 200 real WMT21 de-en sentences against their two references.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import rouge as twins

DATA = Path(__file__).resolve().parent / "data"
TOL = 1e-9
# raise it for a longer hunt, e.g. MTALIGN_HYPOTHESIS_EXAMPLES=5000
MAX_EXAMPLES = int(os.environ.get("MTALIGN_HYPOTHESIS_EXAMPLES", "250"))

SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def token_ids(min_size: int, max_size: int, max_symbol: int = 3):
    return st.lists(st.integers(0, max_symbol), min_size=min_size, max_size=max_size)


# short (0..80) or long (60..200, across the 64-bit word boundary) sequences
seqs = st.one_of(token_ids(0, 80), token_ids(60, 200))
# a few alphabet sizes: 2, 4, 8 symbols, or 26 (sparser matches)
varied_alphabet = st.sampled_from([1, 3, 7, 25]).flatmap(lambda k: token_ids(0, 130, k))
weights = st.sampled_from([1.0, 1.2, 1.5, 2.0, 3.0])
max_gaps = st.one_of(st.none(), st.integers(0, 10))


# ----------------------------------------------------------------------------------- kernels


@SETTINGS
@given(a=seqs, b=seqs)
def test_lcs_kernels_equal_twin(mtalign, a, b):
    k = mtalign.kernels
    want = twins.lcs_dp(a, b)
    assert k.lcs_length(a, b) == want
    assert k.lcs_length_dp(a, b) == want
    assert k.lcs_length(b, a) == want


@SETTINGS
@given(a=varied_alphabet, b=varied_alphabet)
def test_lcs_kernels_equal_twin_varied_alphabets(mtalign, a, b):
    want = twins.lcs_dp(a, b)
    assert mtalign.kernels.lcs_length(a, b) == want
    assert mtalign.kernels.lcs_length_dp(a, b) == want


@pytest.mark.parametrize("m", [1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 256])
@pytest.mark.parametrize("n", [1, 64, 65, 200])
def test_lcs_word_boundaries(mtalign, m, n):
    rng = np.random.default_rng(1000 * m + n)
    for alphabet in (1, 2, 4):
        a = rng.integers(0, alphabet, m).tolist()
        b = rng.integers(0, alphabet, n).tolist()
        want = twins.lcs_dp(a, b)
        assert mtalign.kernels.lcs_length(a, b) == want, (alphabet, a, b)
        assert mtalign.kernels.lcs_length_dp(a, b) == want
    same = list(range(m))
    assert mtalign.kernels.lcs_length(same, same) == m


@SETTINGS
@given(
    a=st.lists(st.sampled_from([0, 1, 2**20, 2**31 - 1]), max_size=100),
    b=st.lists(st.sampled_from([0, 1, 2**20, 2**31 - 1]), max_size=100),
)
def test_kernels_large_token_ids(mtalign, a, b):
    k = mtalign.kernels
    assert k.lcs_length(a, b) == twins.lcs_dp(a, b)
    assert k.ngram_overlap(a, b, 2) == twins.ngram_overlap(a, b, 2)
    assert k.skip_bigram_overlap(a, b, 3, True) == twins.skip_bigram_overlap(a, b, 3, True)


@SETTINGS
@given(x=seqs, y=seqs, weight=weights)
def test_wlcs_equals_twin(mtalign, x, y, weight):
    want = twins.wlcs(x, y, weight)
    got = mtalign.kernels.wlcs(x, y, weight)
    assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), (got, want)
    if weight == 1.0:  # f(k) = k: the recurrence is the LCS one
        assert want == twins.lcs_dp(x, y)


@SETTINGS
@given(hyp=seqs, ref=seqs, n=st.integers(1, 9))
def test_ngram_overlap_equals_twin(mtalign, hyp, ref, n):
    got = mtalign.kernels.ngram_overlap(hyp, ref, n)
    assert tuple(got) == twins.ngram_overlap(hyp, ref, n)
    assert all(isinstance(v, int) for v in got)


@SETTINGS
@given(hyp=seqs, ref=seqs, max_gap=max_gaps, unigrams=st.booleans())
def test_skip_bigram_overlap_equals_twin(mtalign, hyp, ref, max_gap, unigrams):
    got = mtalign.kernels.skip_bigram_overlap(hyp, ref, max_gap, unigrams)
    assert tuple(got) == twins.skip_bigram_overlap(hyp, ref, max_gap, unigrams)
    assert all(isinstance(v, int) for v in got)
    if max_gap == 0 and not unigrams:
        assert tuple(got) == twins.ngram_overlap(hyp, ref, 2)


# ---------------------------------------------------------------------- Rouge.batch_score

VARIANTS = [
    "rouge1",
    "rouge2",
    "rouge3",
    "rouge4",
    "rougeL",
    "rougeW-1.2",
    "rougeW-2",
    "rougeS0",
    "rougeS1",
    "rougeS4",
    "rougeS*",
    "rougeSU0",
    "rougeSU4",
    "rougeSU*",
]
MODES = ("max", "average", "best", "best_f")
BETAS = (0.5, 1.0, 2.0)
CONFIGS = [(mode, jk, beta) for mode in MODES for jk in (False, True) for beta in BETAS]
SYMBOLS = ("a", "b", "c", "d")


@pytest.fixture(scope="module")
def rouge_for(mtalign):
    cache: dict = {}

    def get(mode: str, jackknife: bool, beta: float):
        key = (mode, jackknife, beta)
        if key not in cache:
            cache[key] = mtalign.Rouge(
                VARIANTS, beta=beta, multi_ref=mode, jackknife=jackknife, stem=False
            )
        return cache[key]

    return get


words = st.lists(st.sampled_from(SYMBOLS), min_size=0, max_size=25)
items = st.lists(st.tuples(words, st.lists(words, min_size=1, max_size=4)), min_size=1, max_size=4)


def acceptable(variant: str, hyp, refs, mode: str, beta: float, jackknife: bool):
    """The twins' score, as the list of results acceptable under near-ties. Recall ties of
    ROUGE-N/L/S are between exact quotients of small integers, so for "best" they are broken
    strictly (first reference); ROUGE-W's recalls and every F are rounded differently by
    different (correct) formulas, so mathematically tied references may go either way."""
    strict = mode == "best" and not variant.startswith("rougeW")
    return twins.rouge_score_candidates(
        variant, hyp, refs, mode, beta, jackknife, tie_tol=0.0 if strict else 1e-12
    )


def check_rows(
    out: dict, batch, mode: str, beta: float, jackknife: bool, variants=VARIANTS
) -> list[str]:
    bad = []
    for var in variants:
        arr = out[var]
        assert isinstance(arr, np.ndarray) and arr.dtype == np.float64, var
        assert arr.shape == (len(batch), 3), (var, arr.shape)
        assert not np.isnan(arr).any(), var
        assert ((arr >= 0.0) & (arr <= 1.0)).all(), (var, arr)
        for row, (hyp, refs) in zip(arr, batch, strict=True):
            options = acceptable(var, hyp, refs, mode, beta, jackknife)
            if not any(twins.prf_close(tuple(row), opt, TOL) for opt in options):
                bad.append(f"{var} hyp={hyp} refs={refs}: got {tuple(row)} want {options}")
    return bad


@SETTINGS
@given(batch=items, config=st.sampled_from(CONFIGS))
def test_batch_score_equals_twins(rouge_for, batch, config):
    mode, jackknife, beta = config
    rouge = rouge_for(mode, jackknife, beta)
    hyps = [hyp for hyp, _ in batch]
    refs = [rs for _, rs in batch]
    out = rouge.batch_score(hyps, refs)
    bad = check_rows(out, batch, mode, beta, jackknife)
    assert not bad, "\n".join(bad)
    # the single-sentence path agrees with the batch path
    single = rouge.sentence_score(hyps[0], refs[0])
    for var in VARIANTS:
        s = single[var]
        got = (s.precision, s.recall, s.fmeasure)
        assert twins.prf_close(got, tuple(out[var][0]), 1e-12), var


@SETTINGS
@given(batch=items, config=st.sampled_from(CONFIGS), threads=st.sampled_from([None, 1, 2]))
def test_batch_score_threads_do_not_change_results(rouge_for, batch, config, threads):
    rouge = rouge_for(*config)
    hyps = [hyp for hyp, _ in batch]
    refs = [rs for _, rs in batch]
    base = rouge.batch_score(hyps, refs, threads=1)
    other = rouge.batch_score(hyps, refs, threads=threads)
    for var in VARIANTS:
        assert np.array_equal(base[var], other[var]), var


SKIP_VARIANTS = [v for v in VARIANTS if v.startswith("rougeS")]
# segments: several system outputs sharing one set of references, as in WMT
segments = st.lists(
    st.tuples(
        st.lists(st.lists(st.sampled_from(SYMBOLS), max_size=30), min_size=1, max_size=8),
        st.lists(words, min_size=1, max_size=2),
    ),
    min_size=1,
    max_size=6,
)


@SETTINGS
@given(segs=segments, threads=st.sampled_from([1, 2]))
def test_shared_references_equal_pairs_alone(mtalign, segs, threads):
    """The systems of a segment share its references, consecutive in a text batch (where a
    prepared reference serves them all): every skip-bigram row equals the twins' and that of
    the pair scored alone, bit for bit."""
    rouge = mtalign.Rouge(SKIP_VARIANTS, stem=False)
    batch = [(hyp, refs) for hyps, refs in segs for hyp in hyps]
    hyps = [" ".join(hyp) for hyp, _ in batch]
    refs = [[" ".join(r) for r in rs] for _, rs in batch]
    out = rouge.batch_score(hyps, refs, threads=threads)
    bad = check_rows({v: out[v] for v in SKIP_VARIANTS}, batch, "max", 1.0, False, SKIP_VARIANTS)
    assert not bad, "\n".join(bad)
    for i, (hyp, rs) in enumerate(zip(hyps, refs, strict=True)):
        alone = rouge.sentence_score(hyp, rs)
        for var in SKIP_VARIANTS:
            s = alone[var]
            assert (s.precision, s.recall, s.fmeasure) == tuple(out[var][i]), (var, i)


# ------------------------------------------------------------------------ real sentences


def _read_lines(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


REAL_HYP = _read_lines("wmt21_deen_hyp.Facebook-AI.en")
REAL_REF_A = _read_lines("wmt21_deen_ref.A.en")
REAL_REF_B = _read_lines("wmt21_deen_ref.B.en")


def real_ids():
    vocab: dict[str, int] = {}

    def ids(text: str) -> list[int]:
        return [vocab.setdefault(tok, len(vocab)) for tok in twins.whitespace_tokenize(text)]

    return [
        (ids(h), ids(a), ids(b)) for h, a, b in zip(REAL_HYP, REAL_REF_A, REAL_REF_B, strict=True)
    ]


def test_real_data_extract_shape():
    assert len(REAL_HYP) == len(REAL_REF_A) == len(REAL_REF_B) == 200
    lengths = [len(twins.whitespace_tokenize(t)) for t in REAL_HYP + REAL_REF_A + REAL_REF_B]
    assert max(lengths) > 64  # some cross the bit-parallel word boundary


def test_real_data_kernels_equal_twins(mtalign):
    k = mtalign.kernels
    bad = []
    for line, (hyp, ref_a, ref_b) in enumerate(real_ids(), start=1):
        for ref in (ref_a, ref_b):
            want_lcs = twins.lcs_dp(hyp, ref)
            got = {
                "lcs_length": k.lcs_length(hyp, ref),
                "lcs_length_dp": k.lcs_length_dp(hyp, ref),
                "ngram": [tuple(k.ngram_overlap(hyp, ref, n)) for n in (1, 2, 3, 4)],
                "skip4": tuple(k.skip_bigram_overlap(hyp, ref, 4, False)),
                "skip*u": tuple(k.skip_bigram_overlap(hyp, ref, None, True)),
            }
            want = {
                "lcs_length": want_lcs,
                "lcs_length_dp": want_lcs,
                "ngram": [twins.ngram_overlap(hyp, ref, n) for n in (1, 2, 3, 4)],
                "skip4": twins.skip_bigram_overlap(hyp, ref, 4, False),
                "skip*u": twins.skip_bigram_overlap(hyp, ref, None, True),
            }
            for key in want:
                if got[key] != want[key]:
                    bad.append(f"line {line} {key}: got {got[key]} want {want[key]}")
            w_got, w_want = k.wlcs(ref, hyp, 1.2), twins.wlcs(ref, hyp, 1.2)
            if not math.isclose(w_got, w_want, rel_tol=1e-12, abs_tol=1e-12):
                bad.append(f"line {line} wlcs: got {w_got} want {w_want}")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("mode", MODES)
def test_real_data_batch_score_equals_twins(rouge_for, mode):
    """The real sentences through Rouge.batch_score (pre-tokenized, two references each)."""
    batch = [
        (twins.whitespace_tokenize(h), [twins.whitespace_tokenize(a), twins.whitespace_tokenize(b)])
        for h, a, b in zip(REAL_HYP, REAL_REF_A, REAL_REF_B, strict=True)
    ]
    out = rouge_for(mode, False, 1.0).batch_score([h for h, _ in batch], [r for _, r in batch])
    bad = check_rows(out, batch, mode, 1.0, False)
    assert not bad, "\n".join(bad[:20])
