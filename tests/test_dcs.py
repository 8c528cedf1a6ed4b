"""DCS (double common subsequence score, Ding, Utiyama & Sumita): golden numbers, twin, API, CLI.

``tests/data/dcs_dev.jsonl`` holds 200 cases computed with the DCS authors' own code (see
``tests/data/README.md``); ``x`` is the reference (the code's first argument), ``y`` the
candidate. ``tests/twins/dcs.py`` is the slow pure-Python twin written from the description of
that code; it is checked against every golden case first (those tests need no compiled
package), then mtalign's ``Dcs`` and ``kernels.dcs`` are checked against the golden numbers
and, with hypothesis, against the twin.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import dcs as dcs_twin
from twins import rouge as twins

DATA = Path(__file__).resolve().parent / "data"
TOL = 1e-12
MAX_EXAMPLES = int(os.environ.get("MTALIGN_HYPOTHESIS_EXAMPLES", "200"))
SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FIELDS = ("cs0", "cs1", "cs2", "dcs")

GOLDEN = [
    json.loads(line)
    for line in (DATA / "dcs_dev.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]
CHAR = [c for c in GOLDEN if c["level"] == "char"]
WORD = [c for c in GOLDEN if c["level"] == "word"]


def close(got, want, tol: float = TOL) -> bool:
    return len(got) == len(want) == 4 and all(
        abs(float(g) - w) <= tol for g, w in zip(got, want, strict=True)
    )


def to_ids(*seqs):
    """Interns symbols (characters or tokens) to ints, shared across the sequences."""
    table: dict[object, int] = {}
    return [[table.setdefault(s, len(table)) for s in seq] for seq in seqs]


def idfn(case: dict) -> str:
    return case["id"]


# ============================================================================================
# The twin against the authors' code (no compiled package needed)
# ============================================================================================


def test_golden_file_shape() -> None:
    assert len(GOLDEN) == 200
    assert len(CHAR) == 129 and len(WORD) == 71
    assert all(isinstance(c["x"], str) and isinstance(c["y"], str) for c in CHAR)
    assert all(isinstance(c["x"], list) and isinstance(c["y"], list) for c in WORD)


@pytest.mark.parametrize("case", GOLDEN, ids=idfn)
def test_twin_matches_golden(case: dict) -> None:
    x, y = case["x"], case["y"]
    got = dcs_twin.dcs_detail(x, y)
    assert close(got.scores, case["expected"]), (got.scores, case["expected"])
    assert [list(b) for b in got.blocks] == case["blocks"]
    assert got.chains == case["chains"]
    # the debugging flags say what each case exercises; the twin reproduces every one
    flags = case["flags"]
    assert (max(got.scores) > 1 + TOL) == flags["above_one"]
    assert (dcs_twin.dcs(y, x) != got.scores) == flags["asymmetric"]
    if x and y:
        lcs = twins.lcs_dp(x, y)
        area = math.sqrt(len(x) * len(y))
        assert (abs(got.cs0 * area - lcs) > 1e-9) == flags["cs0_differs_from_lcs"]
    spans = [
        (set(range(b.x_end - b.length, b.x_end)), set(range(b.y_end - b.length, b.y_end)))
        for b in got.blocks
    ]
    overlap = any(
        (a[0] & b[0]) or (a[1] & b[1]) for i, a in enumerate(spans) for b in spans[i + 1 :]
    )
    assert overlap == flags["overlapping_blocks"]


def test_twin_paper_figure1_both_directions() -> None:
    want = (0.6, math.sqrt(6) / 5, math.sqrt(2) / 5, math.sqrt(8) / 5)
    assert close(dcs_twin.dcs("ABCDE", "EABFD"), want)
    assert close(dcs_twin.dcs("EABFD", "ABCDE"), want)
    d = dcs_twin.dcs_detail("ABCDE", "EABFD")
    # kept: AB (ends at x2, y3), then the 1-runs in (y_end, x_end) order: E (x5, y1), D (x4, y5);
    # AB-D is the monotone pair
    assert [(b.length, b.x_end, b.y_end) for b in d.blocks] == [(2, 2, 3), (1, 5, 1), (1, 4, 5)]
    assert d.chains == [[0, 2], [1]]


# ============================================================================================
# mtalign against the paper and the golden numbers
# ============================================================================================


def test_paper_figure1(mtalign) -> None:
    want = (0.6, math.sqrt(6) / 5, math.sqrt(2) / 5, math.sqrt(8) / 5)
    s = mtalign.Dcs(level="char").sentence_score("EABFD", "ABCDE").scores  # hyp, reference
    assert isinstance(s, mtalign.DcsScore)
    assert s._fields == FIELDS
    assert close(s, want), s
    assert close((s.cs0, s.cs1, s.cs2, s.dcs), want)
    assert close(mtalign.Dcs(level="char").sentence_score("EABFD", ["ABCDE"]).scores, want)
    x, y = to_ids("ABCDE", "EABFD")
    k = mtalign.kernels.dcs(x, y)
    assert isinstance(k, tuple) and all(isinstance(v, float) for v in k)
    assert close(k, want), k


@pytest.mark.parametrize("case", CHAR, ids=idfn)
def test_golden_char_level(mtalign, case: dict) -> None:
    got = mtalign.Dcs(level="char").sentence_score(case["y"], case["x"]).scores
    assert close(got, case["expected"]), (case["x"], case["y"], tuple(got), case["expected"])


@pytest.mark.parametrize("case", WORD, ids=idfn)
def test_golden_word_level_pretokenized(mtalign, case: dict) -> None:
    for level in ("word", "char"):  # pre-tokenized input is used verbatim whatever the level
        got = mtalign.Dcs(level=level).sentence_score(case["y"], [case["x"]]).scores
        assert close(got, case["expected"]), (level, tuple(got), case["expected"])


@pytest.mark.parametrize("case", GOLDEN, ids=idfn)
def test_golden_kernel(mtalign, case: dict) -> None:
    x, y = to_ids(case["x"], case["y"])
    assert close(mtalign.kernels.dcs(x, y), case["expected"])


def test_golden_batch_one_call_per_level(mtalign) -> None:
    d = mtalign.Dcs(level="char")
    arr = d.batch_score([c["y"] for c in CHAR], [c["x"] for c in CHAR])
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float64 and arr.shape == (len(CHAR), 4)
    for row, case in zip(arr, CHAR, strict=True):
        assert close(row, case["expected"]), (case["id"], row.tolist(), case["expected"])
    arr = d.batch_score([c["y"] for c in WORD], [[c["x"]] for c in WORD])
    assert arr.shape == (len(WORD), 4)
    for row, case in zip(arr, WORD, strict=True):
        assert close(row, case["expected"]), (case["id"], row.tolist(), case["expected"])


def test_golden_word_level_from_text(mtalign) -> None:
    # the golden word tokens are plain words: joined by spaces, the whitespace tokenizer gives
    # them back, so level="word" on text must give the same numbers
    cases = [
        c for c in WORD if all(t and not any(ch.isspace() for ch in t) for t in c["x"] + c["y"])
    ]
    assert len(cases) == len(WORD)
    d = mtalign.Dcs(level="word", tokenize="whitespace")
    arr = d.batch_score([" ".join(c["y"]) for c in cases], [" ".join(c["x"]) for c in cases])
    for row, case in zip(arr, cases, strict=True):
        assert close(row, case["expected"]), case["id"]


# ============================================================================================
# The documented quirks of the authors' code (golden README), each on a tiny example
# ============================================================================================


@pytest.mark.parametrize(
    ("ref", "hyp", "index", "value"),
    [
        ("ABC", "ACB", 0, 1 / 3),  # cs0 is a common substring of block orders, not the LCS (2/3)
        ("今日は天気がいいです", "今日はいい天気です", 0, 0.31622776601683794),
        ("CBBA", "CBA", 0, 1.1547005383792517),  # overlapping blocks: cs0 above 1
        ("DADD", "DDAAD", 3, 0.6324555320336759),  # x = DADD (reference), y = DDAAD
        ("DDAAD", "DADD", 3, 0.8944271909999159),  # swapped
    ],
)
def test_quirks(mtalign, ref: str, hyp: str, index: int, value: float) -> None:
    want = dcs_twin.dcs(ref, hyp)
    assert abs(want[index] - value) <= TOL  # the twin agrees with the README's figures
    got = mtalign.Dcs(level="char").sentence_score(hyp, ref).scores
    assert abs(got[index] - value) <= TOL, tuple(got)
    assert close(got, want)
    x, y = to_ids(ref, hyp)
    assert close(mtalign.kernels.dcs(x, y), want)


def test_quirk_values_in_context(mtalign) -> None:
    d = mtalign.Dcs(level="char")
    # ABC vs ACB: LCS-based cs0 would be 2/3
    assert d.sentence_score("ACB", "ABC").cs0 < twins.lcs_dp("ABC", "ACB") / 3
    assert close(d.sentence_score("CBA", "CBBA").scores, (2 / math.sqrt(3), math.sqrt(2 / 3),
                                                   math.sqrt(1 / 3), 1.0))
    # argument order matters: the reference is x, the candidate y
    assert abs(d.sentence_score("DDAAD", "DADD").dcs - math.sqrt(0.4)) <= TOL
    assert abs(d.sentence_score("DADD", "DDAAD").dcs - math.sqrt(0.8)) <= TOL
    assert abs(mtalign.kernels.dcs([0, 1, 0, 0], [0, 0, 1, 1, 0])[3] - math.sqrt(0.4)) <= TOL
    assert abs(mtalign.kernels.dcs([0, 0, 1, 1, 0], [0, 1, 0, 0])[3] - math.sqrt(0.8)) <= TOL


def test_code_points_not_graphemes_or_utf16(mtalign) -> None:
    d = mtalign.Dcs(level="char")
    # one astral code point each: A = sqrt(1 * 2)
    assert close(d.sentence_score("😀😀", "😀").scores, (2 ** -0.5, 2 ** -0.5, 0.0, 2 ** -0.5))
    assert close(d.sentence_score("吉野家", "𠮷野家").scores, (2 / 3, 2 / 3, 0.0, 2 / 3))
    # decomposed é (e + U+0301) is two symbols and never equals precomposed é
    assert close(d.sentence_score("\u00e9", "e\u0301").scores, (0.0, 0.0, 0.0, 0.0))
    assert close(d.sentence_score("e\u0301", "e\u0301").scores, (1.0, 1.0, 0.0, 1.0))
    assert close(d.sentence_score("e", "e\u0301").scores, (2 ** -0.5, 2 ** -0.5, 0.0, 2 ** -0.5))
    # surrogate-pair halves must not match: U+1F600 and U+1F601 share the high surrogate
    assert close(d.sentence_score("\U0001f601", "\U0001f600").scores, (0.0, 0.0, 0.0, 0.0))


def test_spaces_are_symbols_unless_ignored(mtalign) -> None:
    assert close(mtalign.Dcs(level="char").sentence_score("CD AB", "AB CD").scores,
                 (0.4, 0.6, 0.0, 0.6))
    s = mtalign.Dcs(level="char", ignore_spaces=True).sentence_score("CD AB", "AB CD").scores
    assert close(s, dcs_twin.dcs("ABCD", "CDAB"))
    s = mtalign.Dcs(level="char", ignore_spaces=True).sentence_score("a\u3000b\tc\n", " abc").scores
    assert close(s, (1.0, 1.0, 0.0, 1.0))


# ============================================================================================
# Property tests against the twin
# ============================================================================================


def ints(max_symbol: int, min_size: int, max_size: int):
    return st.lists(st.integers(0, max_symbol), min_size=min_size, max_size=max_size)


short_seqs = ints(3, 0, 40)
long_seqs = st.one_of(ints(3, 60, 160), ints(1, 60, 160), ints(12, 100, 250))


@SETTINGS
@given(x=short_seqs, y=short_seqs)
def test_kernel_equals_twin(mtalign, x: list[int], y: list[int]) -> None:
    want = dcs_twin.dcs(x, y)
    assert close(mtalign.kernels.dcs(x, y), want), (x, y)
    # only equality matters: any ints in the i64 range, negative or large, are symbols
    def spread(seq: list[int]) -> list[int]:
        return [s * 1_000_003 - 2**40 if s % 2 else -(s + 1) * 2**61 for s in seq]

    assert close(mtalign.kernels.dcs(spread(x), spread(y)), want), (x, y)


@settings(SETTINGS, max_examples=max(10, MAX_EXAMPLES // 5))
@given(x=long_seqs, y=long_seqs)
def test_kernel_equals_twin_long(mtalign, x: list[int], y: list[int]) -> None:
    assert close(mtalign.kernels.dcs(x, y), dcs_twin.dcs(x, y)), (x, y)


@SETTINGS
@given(x=ints(2, 0, 30), edits=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 3))))
def test_kernel_equals_twin_near_copies(mtalign, x: list[int], edits) -> None:
    # an edited copy has long runs, overlapping and nested candidates, and long chains
    y = list(x)
    for pos, op in edits:
        if not y:
            break
        pos %= len(y)
        if op == 0:
            del y[pos]
        elif op == 1:
            y.insert(pos, y[pos])
        elif op == 2:
            y[pos] = (y[pos] + 1) % 3
        else:
            y = y[pos:] + y[:pos]
    assert close(mtalign.kernels.dcs(x, y), dcs_twin.dcs(x, y)), (x, y)
    assert close(mtalign.kernels.dcs(y, x), dcs_twin.dcs(y, x)), (y, x)


@pytest.mark.parametrize("seed", range(4))
def test_kernel_equals_twin_fixed_long(mtalign, seed: int) -> None:
    rng = random.Random(seed)
    n, m, k = [(300, 280, 2), (500, 450, 20), (64, 65, 1), (129, 127, 3)][seed]
    x = [rng.randrange(k + 1) for _ in range(n)]
    y = x[n // 3 :] + [rng.randrange(k + 1) for _ in range(m - n + n // 3)] + x[: n // 3]
    y = y[:m]
    assert close(mtalign.kernels.dcs(x, y), dcs_twin.dcs(x, y))
    same = [0] * n
    assert close(mtalign.kernels.dcs(same, same[:m]), dcs_twin.dcs(same, same[:m]))


@pytest.mark.parametrize("seed", range(6))
def test_kernel_equals_twin_on_the_suffix_array_path(mtalign, seed: int) -> None:
    # Pairs with |x|·|y| >= 2^16 and at least 16 matching cells per symbol select their
    # blocks from a suffix array (dcs/long.rs): these all do.
    rng = random.Random(100 + seed)
    n, m, k = [(400, 380, 1), (420, 350, 3), (300, 500, 2), (600, 300, 0), (450, 450, 1),
               (360, 360, 2)][seed]
    x = [rng.randrange(k + 1) for _ in range(n)]
    if seed % 2:
        unit = [rng.randrange(k + 1) for _ in range(7)]
        x = (unit * n)[:n]
        x[rng.randrange(n)] = k
    y = [x[(i * 3 // 4 + 17) % n] if rng.random() < 0.8 else rng.randrange(k + 1)
         for i in range(m)]
    assert close(mtalign.kernels.dcs(x, y), dcs_twin.dcs(x, y))
    assert close(mtalign.kernels.dcs(y, x), dcs_twin.dcs(y, x))


texts = st.text(alphabet="abc", max_size=14)


@SETTINGS
@given(hyp=texts, refs=st.lists(texts, min_size=1, max_size=4))
def test_several_references_pick_max_dcs_first_on_ties(mtalign, hyp: str, refs: list[str]):
    want = dcs_twin.dcs_multi_max([list(r) for r in refs], list(hyp))
    d = mtalign.Dcs(level="char", multi_ref="max")
    assert close(d.sentence_score(hyp, refs).scores, want), (hyp, refs)
    arr = d.batch_score([hyp, hyp], [refs, refs[::-1]])
    assert close(arr[0], want)
    assert close(arr[1], dcs_twin.dcs_multi_max([list(r) for r in refs[::-1]], list(hyp)))


def test_tie_on_dcs_keeps_the_first_reference(mtalign) -> None:
    # both references give dcs = sqrt(3)/3 (S1 + S2 = 3, A = 3) but cs0 2/3 vs 1/3
    d = mtalign.Dcs(level="char")
    first, second = dcs_twin.dcs("aac", "abc"), dcs_twin.dcs("acb", "abc")
    assert first[3] == second[3] and first[0] != second[0]
    assert close(d.sentence_score("abc", ["aac", "acb"]).scores, first)
    assert close(d.sentence_score("abc", ["acb", "aac"]).scores, second)
    # a strictly better later reference wins
    assert close(d.sentence_score("abc", ["acb", "abc", "aac"]).scores, (1.0, 1.0, 0.0, 1.0))


spacey = st.text(alphabet="ab \t\n\u3000\u00a0\u2009", max_size=16)


@SETTINGS
@given(hyp=spacey, ref=spacey)
def test_ignore_spaces(mtalign, hyp: str, ref: str) -> None:
    kept = mtalign.Dcs(level="char").sentence_score(hyp, ref).scores
    assert close(kept, dcs_twin.dcs(list(ref), list(hyp)))
    dropped = mtalign.Dcs(level="char", ignore_spaces=True).sentence_score(hyp, ref).scores
    want = dcs_twin.dcs(
        dcs_twin.char_symbols(ref, ignore_spaces=True),
        dcs_twin.char_symbols(hyp, ignore_spaces=True),
    )
    assert close(dropped, want), (hyp, ref)


# full Unicode lowercasing: İ becomes i + U+0307 (two symbols), a final Σ becomes ς
cased = st.text(alphabet="aAbBäÄéÉΣσςİi ", max_size=16)


@SETTINGS
@given(hyp=cased, ref=cased)
def test_lowercase(mtalign, hyp: str, ref: str) -> None:
    got = mtalign.Dcs(level="char", lowercase=True).sentence_score(hyp, ref).scores
    assert close(got, dcs_twin.dcs(ref.lower(), hyp.lower())), (hyp, ref)
    got = mtalign.Dcs(level="char", lowercase=False).sentence_score(hyp, ref).scores
    assert close(got, dcs_twin.dcs(ref, hyp)), (hyp, ref)


def test_lowercase_does_not_touch_pretokenized(mtalign) -> None:
    d = mtalign.Dcs(level="word", lowercase=True)
    assert close(d.sentence_score(["The", "cat"], [["the", "cat"]]).scores, (0.5, 0.5, 0.0, 0.5))
    assert close(d.sentence_score("The cat", "the cat").scores, (1.0, 1.0, 0.0, 1.0))


# astral emoji and CJK, combining acute, precomposed é, plain letters
exotic = st.text(alphabet=["a", "e", "\u0301", "\u00e9", "😀", "😁", "𠮷", "吉", "野"], max_size=14)


@SETTINGS
@given(hyp=exotic, refs=st.lists(exotic, min_size=1, max_size=3))
def test_code_points_outside_bmp_and_combining_marks(mtalign, hyp: str, refs: list[str]):
    got = mtalign.Dcs(level="char").sentence_score(hyp, refs).scores
    assert close(got, dcs_twin.dcs_multi_max([list(r) for r in refs], list(hyp))), (hyp, refs)


words = st.lists(st.sampled_from(["the", "The", "cat", "sat", "mat", "東京", "a", "."]), max_size=9)


@pytest.mark.filterwarnings("ignore:.*produced no tokens")
@SETTINGS
@given(hyp=words, ref=words, tokenize=st.sampled_from(["unicode", "whitespace", "char"]),
       lowercase=st.booleans())
def test_word_level_uses_the_tokenizer(mtalign, hyp, ref, tokenize: str, lowercase: bool):
    hyp_text, ref_text = " ".join(hyp), " ".join(ref)
    d = mtalign.Dcs(level="word", tokenize=tokenize, lowercase=lowercase)
    got = d.sentence_score(hyp_text, ref_text).scores
    h = mtalign.tokenize(hyp_text, tokenize=tokenize, lowercase=lowercase)
    r = mtalign.tokenize(ref_text, tokenize=tokenize, lowercase=lowercase)
    assert close(got, dcs_twin.dcs(r, h)), (hyp_text, ref_text, tokenize, lowercase)


# ============================================================================================
# Batches, threads, corpus results
# ============================================================================================


def random_corpus(n: int, seed: int = 0) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(seed)
    alphabet = "abcd 東京的"

    def sent() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))

    hyps = [sent() for _ in range(n)]
    refs = [[sent() for _ in range(rng.randrange(1, 4))] for _ in range(n)]
    return hyps, refs


def test_threads_give_identical_arrays(mtalign) -> None:
    hyps, refs = random_corpus(3000)
    for opts in ({}, {"ignore_spaces": True, "lowercase": True}, {"level": "word"}):
        d = mtalign.Dcs(**({"level": "char"} | opts))
        one = d.batch_score(hyps, refs, threads=1)
        two = d.batch_score(hyps, refs, threads=2)
        assert one.shape == (3000, 4)
        assert np.array_equal(one, two), opts
        assert np.array_equal(one, d.batch_score(hyps, refs, threads=None)), opts
        c1, c2 = d.corpus_score(hyps, refs, threads=1), d.corpus_score(hyps, refs, threads=2)
        assert tuple(c1.scores) == tuple(c2.scores)


def test_batch_equals_sentence_and_twin(mtalign) -> None:
    hyps, refs = random_corpus(150, seed=1)
    d = mtalign.Dcs(level="char")
    arr = d.batch_score(hyps, refs)
    for i, (h, rs) in enumerate(zip(hyps, refs, strict=True)):
        want = dcs_twin.dcs_multi_max([list(r) for r in rs], list(h))
        assert close(arr[i], want), (h, rs)
        assert close(d.sentence_score(h, rs).scores, want)


def test_corpus_score_is_mean_of_sentences(mtalign) -> None:
    hyps, refs = random_corpus(200, seed=2)
    d = mtalign.Dcs(level="char")
    arr = d.batch_score(hyps, refs)
    res = d.corpus_score(hyps, refs)
    assert res.n_sentences == 200
    assert isinstance(res.scores, mtalign.DcsScore)
    assert close(res.scores, arr.mean(axis=0))
    assert isinstance(res.signature, str) and res.signature
    out = res.to_dict()
    json.dumps(out)  # JSON-ready
    assert out["n_sentences"] == 200


def test_single_reference_forms_agree(mtalign) -> None:
    d = mtalign.Dcs(level="char")
    a = d.batch_score(["EABFD", "CBA"], ["ABCDE", "CBBA"])
    b = d.batch_score(["EABFD", "CBA"], [["ABCDE"], ["CBBA"]])
    assert np.array_equal(a, b)
    assert close(a[0], dcs_twin.dcs("ABCDE", "EABFD"))


# ============================================================================================
# Errors and empty inputs
# ============================================================================================


@pytest.mark.parametrize(
    "kwargs",
    [{"level": "phrase"}, {"level": "CHAR"}, {"multi_ref": "mean"}, {"multi_ref": "best_of"},
     {"level": "word", "tokenize": "13b"}],
)
def test_config_errors(mtalign, kwargs: dict) -> None:
    with pytest.raises(mtalign.ConfigError) as info:
        mtalign.Dcs(**kwargs)
    assert isinstance(info.value, mtalign.MtalignError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (["a"] * 5, ["a"] * 4, "hyps has 5 items but refs has 4"),
        (["a", "b", "c", "d"], ["a", "b", "c", []], r"refs\[3\] is empty"),
    ],
)
def test_input_errors(mtalign, hyps: list, refs: list, message: str) -> None:
    d = mtalign.Dcs(level="char")
    with pytest.raises(mtalign.InputError, match=message):
        d.batch_score(hyps, refs)
    with pytest.raises(mtalign.InputError, match=message):
        d.corpus_score(hyps, refs)


@pytest.mark.filterwarnings("ignore:.*produced no tokens")
def test_empty_inputs_score_zero_never_nan(mtalign) -> None:
    zero = (0.0, 0.0, 0.0, 0.0)
    for opts in ({"level": "char"}, {"level": "word"}, {"level": "char", "ignore_spaces": True}):
        d = mtalign.Dcs(**opts)
        arr = d.batch_score(["", "a", "", "a", "xyz", "   "], ["a", "", "", "a", "abc", "a b"])
        assert not np.isnan(arr).any(), opts
        assert arr[:3].tolist() == [list(zero)] * 3, opts
        assert arr[3].tolist() == [1.0, 1.0, 0.0, 1.0], opts
        assert arr[4].tolist() == list(zero), opts  # no match
        assert tuple(d.sentence_score("", "").scores) == zero
        assert tuple(d.sentence_score("", ["", "a"]).scores) == zero
        assert d.batch_score([], []).shape == (0, 4)
        res = d.corpus_score([], [])
        assert res.n_sentences == 0 and tuple(res.scores) == zero
    d = mtalign.Dcs(level="char", ignore_spaces=True)
    assert tuple(d.sentence_score(" \t", " ").scores) == zero  # nothing left after dropping spaces
    d = mtalign.Dcs(level="word")
    assert tuple(d.sentence_score([], [[]]).scores) == zero
    assert tuple(d.sentence_score(["a"], [[]]).scores) == zero
    assert tuple(d.sentence_score([], [["a"]]).scores) == zero
    assert tuple(mtalign.kernels.dcs([], [])) == zero
    assert tuple(mtalign.kernels.dcs([1], [])) == zero
    assert tuple(mtalign.kernels.dcs([1, 2], [3, 4])) == zero


# ============================================================================================
# Command line
# ============================================================================================


def test_cli_matches_api(mtalign, tmp_path: Path) -> None:
    hyps = ["EABFD", "今日はいい天気です", "CBA", "the cat sat"]
    refs_a = ["ABCDE", "今日は天気がいいです", "CBBA", "a cat sat on the mat"]
    refs_b = ["EABFD!", "天気", "ABC", "the cat"]
    (tmp_path / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(refs_a) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(refs_b) + "\n", encoding="utf-8")

    def cli(*args: str) -> dict:
        proc = subprocess.run(
            [sys.executable, "-m", "mtalign.cli", "score", *args],
            capture_output=True, text=True, encoding="utf-8", check=False,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    d = mtalign.Dcs(level="char")
    data = cli("-r", str(tmp_path / "a.txt"), "-i", str(tmp_path / "hyp.txt"),
               "-m", "dcs", "cs0", "--level", "char")
    want = d.corpus_score(hyps, refs_a).scores
    assert set(data["scores"]) == {"dcs", "cs0"}
    assert abs(data["scores"]["dcs"]["score"] - want.dcs) <= TOL
    assert abs(data["scores"]["cs0"]["score"] - want.cs0) <= TOL
    twin_mean = np.mean([dcs_twin.dcs(r, h) for h, r in zip(hyps, refs_a, strict=True)], axis=0)
    assert close(want, twin_mean)

    data = cli("-r", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
               "-i", str(tmp_path / "hyp.txt"), "-m", "dcs", "cs0", "cs1", "cs2",
               "--level", "char")
    want = d.corpus_score(hyps, [list(p) for p in zip(refs_a, refs_b, strict=True)]).scores
    for name in FIELDS:
        assert abs(data["scores"][name]["score"] - getattr(want, name)) <= TOL, name
