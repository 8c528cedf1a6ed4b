"""TER's edit operations (``Ter.edit_counts``, ``Ter.explain``) against sacrebleu 2.6.0's own
pieces: its ``_shift`` loop and ``BeamEditDistance`` trace, run here step by step, give the
shifts applied, the final hypothesis and the trace of the final edit distance, so the
insertions, deletions and substitutions are counted from sacrebleu's trace. Also TER's split
on Python whitespace (U+001C..U+001F)."""

from __future__ import annotations

import numpy as np
import pytest
import wmt_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER, lib_ter


def sacrebleu_ops(hyp: list[str], ref: list[str]) -> dict:
    """sacrebleu's ``translation_edit_rate`` written out so that its pieces can be read."""
    if not ref:
        return {"edits": len(hyp), "ins": 0, "del": len(hyp), "sub": 0, "shifts": [],
                "final": hyp, "trace": "d" * len(hyp)}
    ed = lib_ter.BeamEditDistance(ref)
    words, shifts, checked = hyp, [], 0
    while True:
        delta, new_words, checked = lib_ter._shift(words, ref, ed, checked)
        if checked >= lib_ter._MAX_SHIFT_CANDIDATES or delta <= 0:
            break
        shifts.append(new_words)
        words = new_words
    dist, trace = ed(words)
    want_edits, _ = lib_ter.translation_edit_rate(hyp, ref)
    assert want_edits == dist + len(shifts)
    # Unflipped trace (hypothesis rewritten into the reference): 'i' takes a reference word
    # only (an insertion into the hypothesis), 'd' a hypothesis word only (a deletion).
    return {"edits": want_edits, "ins": trace.count("i"), "del": trace.count("d"),
            "sub": trace.count("s"), "shifts": shifts, "final": words, "trace": trace}


def check_pair(mtalign, hyp: str, refs: list[str], case: bool = False) -> None:
    ter = mtalign.Ter(case_sensitive=case)
    tok = [(t if case else t.lower()).split() for t in [hyp, *refs]]
    per_ref = [sacrebleu_ops(tok[0], r) for r in tok[1:]]
    k = min(range(len(refs)), key=lambda i: (per_ref[i]["edits"], i))
    want = per_ref[k]
    row = ter.edit_counts([hyp], [refs])[0]
    got = (int(row["edits"]), int(row["insertions"]), int(row["deletions"]),
           int(row["substitutions"]), int(row["shifts"]))
    assert got == (want["edits"], want["ins"], want["del"], want["sub"], len(want["shifts"]))
    stats = TER(case_sensitive=case)._extract_corpus_statistics([hyp], [[r] for r in refs])[0]
    assert [row["edits"], row["ref_length"]] == stats
    e = ter.explain(hyp, refs)
    assert e.ref_index == k and e.edits == want["edits"]
    assert [s.words for s in e.shifts] == want["shifts"]
    assert e.shifted == want["final"]
    ops = {"match": " ", "sub": "s", "ins": "i", "del": "d"}
    assert "".join(ops[op] for op, _, _ in e.alignment) == want["trace"]
    assert e.score == TER(case_sensitive=case).sentence_score(hyp, refs).score


def test_worked_examples(mtalign):
    check_pair(mtalign, "d a b c", ["a b c d"])
    check_pair(mtalign, "the cat sat on the mat today", ["on the mat the cat sat"])
    check_pair(mtalign, "", ["a b c"])
    check_pair(mtalign, "a b", [""])
    check_pair(mtalign, "a b x", ["b a", "a b z w", "a b"])
    e = mtalign.Ter().explain("d a b c x", "a b c d")
    assert (e.insertions, e.deletions, e.substitutions, len(e.shifts)) == (0, 1, 0, 1)
    assert e.shifts[0].start == 0 and e.shifts[0].moved == ["d"]
    assert e.alignment == [("match", "a", "a"), ("match", "b", "b"), ("match", "c", "c"),
                           ("match", "d", "d"), ("del", "x", None)]
    assert "TER = 50.0000" in str(e)


@pytest.mark.parametrize("name", ["wmt21_ende_news", "wmt21_deen_news"])
def test_real_systems(mtalign, name):
    """Every pair of 40 segments × 2 systems × all references, case-insensitive and cased."""
    data = wmt_data.load(name)
    refs = [list(r) for r in zip(*data["refs"].values(), strict=True)][:40]
    for system in list(data["hyps"])[:2]:
        for h, rs in zip(data["hyps"][system][:40], refs, strict=True):
            check_pair(mtalign, h, rs)
        check_pair(mtalign, data["hyps"][system][7], refs[7], case=True)


def test_counts_sum_over_a_corpus(mtalign):
    data = wmt_data.load("wmt21_deen_news")
    hyps, refs = data["hyps"]["Facebook-AI"][:200], data["refs"]["A"][:200]
    c = mtalign.Ter().edit_counts(hyps, refs)
    parts = c["insertions"] + c["deletions"] + c["substitutions"] + c["shifts"]
    assert np.array_equal(parts, c["edits"])
    res = TER().corpus_score(hyps, [refs])
    assert c["edits"].sum() == res.num_edits and c["ref_length"].sum() == res.ref_length
    # Same counts whatever the thread count, and through the tercom normalisation too.
    assert np.array_equal(mtalign.Ter().edit_counts(hyps, refs, threads=1), c)
    norm = mtalign.Ter(normalized=True).edit_counts(hyps[:30], refs[:30])
    want = TER(normalized=True)._extract_corpus_statistics(hyps[:30], [refs[:30]])
    assert norm[["edits", "ref_length"]].tolist() == [tuple(w) for w in want]


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=14).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(hyp=WORDS, refs=st.lists(WORDS, min_size=1, max_size=3))
def test_random_sentences(mtalign, hyp, refs):
    check_pair(mtalign, hyp, refs)


def test_python_whitespace_splits_words(mtalign):
    """U+001C..U+001F are whitespace to Python's str.split() (sacrebleu), not to Rust."""
    hyps = ["a\x1cb c\x1fd", "x\x1d y\x1e z", "A\u3000B\x85c"]
    refs = ["a b c d", "x y z", "a b c"]
    want = TER()._extract_corpus_statistics(hyps, [refs])
    assert mtalign.Ter().statistics(hyps, refs).tolist() == want
    assert mtalign.Ter().batch_score(hyps, refs).tolist() == [0.0, 0.0, 0.0]


def test_explain_refuses_bad_input(mtalign):
    with pytest.raises(mtalign.InputError, match="explain"):
        mtalign.Ter().explain(3, "a")
    with pytest.raises(mtalign.InputError, match="explain"):
        mtalign.Ter().explain("a", [])
