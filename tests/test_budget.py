"""SIA's and GTM's size limit (issue 30, item 8): their time grows faster than a pair's
length, so a pair over ``max_words`` is refused before any work, fast, with an InputError
naming the pair (``hyps[i]``, ``refs[i][j]``), its size and the limit, in Python and on the
command line (one line, exit 2); ``max_words=None`` (``--max-words 0``) scores it.

Independent numbers: SIA of a text against itself is α (one round aligns every word: a chain
score of |mt| / |mt| = 1, weighted α; nothing is left for a second round); GTM-1's matching
size is the number of words two texts share (counted here with a Counter); a pair within any
limit scores the same whatever the limit.
"""

from __future__ import annotations

import pickle
import time
from collections import Counter

import mtalign
import pytest
from mtalign import Gtm, Sia
from mtalign.cli import main
from mtalign.metrics.sia import DEFAULT_MAX_WORDS

#: About 1 MB: 170,000 words of 5,000 types.
HUGE = " ".join(f"w{(k * 7919) % 5000}" for k in range(170_000))


def test_a_one_megabyte_pair_is_refused_at_once_by_name() -> None:
    t = time.perf_counter()
    with pytest.raises(mtalign.InputError) as e:
        Sia().corpus_score(["a short one", HUGE], [["a short one"], ["a b", HUGE]])
    assert time.perf_counter() - t < 0.5
    msg = str(e.value)
    assert msg.startswith(f"hyps[1] has 170000 words, over SIA's limit of "
                          f"max_words={DEFAULT_MAX_WORDS} ")
    assert "split the text into sentences" in msg and "max_words=None" in msg
    assert "\n" not in msg
    with pytest.raises(mtalign.InputError, match=r"^refs\[1\]\[1\] has 170000 words"):
        Sia().batch_score(["a", "a b"], [["a"], ["a b", HUGE]])
    with pytest.raises(mtalign.InputError, match=r"^refs\[1\] has 170000 words"):
        Sia().explain("a b", ["a b", HUGE])
    similar = mtalign.WordSimilarity.from_pairs([("w1", "w2", 0.5)])
    with pytest.raises(mtalign.InputError, match=r"^hyps\[0\] has 170000 words"):
        Sia(similarity=similar).batch_score([HUGE], [HUGE])


def test_a_text_that_repeats_its_words_is_refused_by_its_repetition() -> None:
    one_word = " ".join(["the"] * 2_500)  # 6.25 million identical pairs, minutes of work
    t = time.perf_counter()
    with pytest.raises(mtalign.InputError) as e:
        Sia().sentence_score(one_word, one_word)
    assert time.perf_counter() - t < 0.5
    assert str(e.value).startswith(
        "hyps[0] and refs[0][0] have 6250000 pairs of identical words (2500 × 2500 words), "
        "over SIA's limit of max_words²/100 = 4000000 for max_words=20000")
    few = " ".join(["the"] * 6 + [f"w{k}" for k in range(15_000)])
    with pytest.raises(mtalign.InputError, match=r"repeat their words too much for SIA: .* "
                       r"\(the costliest word: 6 × 20000 times\), over the limit "
                       r"max_words³/4000 = 2000000000"):
        Sia().sentence_score(few, " ".join(["the"] * 20_000))


def test_the_limit_is_an_option_that_never_changes_a_score() -> None:
    words = " ".join(f"w{k % 997}" for k in range(1_001))
    with pytest.raises(mtalign.InputError, match=r"hyps\[0\] has 1001 words, over SIA's "
                       r"limit of max_words=1000"):
        Sia(max_words=1_000).batch_score([words], [words])
    assert Sia(max_words=1_001).batch_score([words], [words]).tolist() == [0.35]
    assert Sia(max_words=None).batch_score([words], [words]).tolist() == [0.35]
    # max_words=1000: at most 10,000 identical pairs, a repetition cost of 250,000.
    the = " ".join(["the"] * 101)  # 10,201 pairs
    with pytest.raises(mtalign.InputError, match=r"10201 pairs of identical words"):
        Sia(max_words=1_000).sentence_score(the, the)
    assert float(Sia(max_words=None, alpha=0.5).sentence_score(the, the)) == 0.5
    # A moderately long pair of text over the default: scored when the limit is lifted.
    text = " ".join(f"w{(k * 31) % 4000}" for k in range(20_001))
    with pytest.raises(mtalign.InputError):
        Sia().sentence_score(text, text)
    assert float(Sia(max_words=None).sentence_score(text, text)) == 0.35
    assert Sia(max_words=None).signature() == Sia().signature()
    assert pickle.loads(pickle.dumps(Sia(max_words=7))) == Sia(max_words=7) != Sia()
    for bad in (0, -3, 2.5, "10", True):
        with pytest.raises(mtalign.ConfigError, match="max_words must be"):
            Sia(max_words=bad)


def test_the_command_line_prints_the_same_message(tmp_path, capsys) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a short line\n" + HUGE + "\n", encoding="utf-8")
    ref.write_text("a short line\nw1 w2\n", encoding="utf-8")
    t = time.perf_counter()
    assert main(["score", "-m", "sia", "-q", "-r", str(ref), "-i", str(hyp)]) == 2
    assert time.perf_counter() - t < 5  # reading the file included
    err = capsys.readouterr().err
    assert err == (f"mtalign: error: {hyp} line 2 has 170000 words, over SIA's limit of "
                   f"max_words=20000 (its time grows faster than the length); split the text "
                   f"into sentences (SIA is a sentence-level metric) or raise the limit: "
                   f"max_words=N, or max_words=None for none (mtalign score --max-words "
                   f"N, 0 for none)\n")
    long = " ".join(f"w{k}" for k in range(30))
    hyp.write_text("a b\n" + long + "\n", encoding="utf-8")
    ref.write_text("a b\n" + long + "\n", encoding="utf-8")
    args = ["score", "-m", "sia", "-q", "-f", "tsv", "-r", str(ref), "-i", str(hyp)]
    assert main([*args, "--max-words", "29"]) == 2
    assert capsys.readouterr().err.startswith(f"mtalign: error: {hyp} line 2 has 30 words")
    assert main([*args, "--max-words", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split("\t")[-1] == "0.35"


def test_gtm_has_the_same_limit() -> None:
    t = time.perf_counter()
    with pytest.raises(mtalign.InputError, match=r"^hyps\[1\]: GTM: the hypothesis has 170000 "
                       r"words, over the limit of max_words=20000 .*max_words=None"):
        Gtm().corpus_score(["a b", HUGE], ["a b", "a b"])
    with pytest.raises(mtalign.InputError, match=r"^hyps\[0\]: GTM: reference 1 has 170000 "):
        Gtm(2.0).batch_score(["a b"], [["a b", HUGE]])
    # 20,000 words a side of 555 types, skewed: 5.7·10⁶ matching word pairs.
    zipf = " ".join(f"w{int(5000 ** (k % 997 / 997))}" for k in range(20_000))
    with pytest.raises(mtalign.InputError, match=r"GTM: \d+ matching word pairs with reference 0, "
                       r"over the limit max_words²/100 = 4000000 for max_words=20000"):
        Gtm().sentence_score(zipf, zipf)
    assert time.perf_counter() - t < 1.0
    hyp = " ".join(f"w{k % 300}" for k in range(1_200))
    ref = " ".join(f"w{k % 400}" for k in range(1_100))
    with pytest.raises(mtalign.InputError, match=r"the hypothesis has 1200 words"):
        Gtm(max_words=1_000).sentence_score(hyp, ref)
    shared = sum((Counter(hyp.split()) & Counter(ref.split())).values())
    p, r = shared / 1_200, shared / 1_100
    for limit in (None, 1_200):
        got = float(Gtm(max_words=limit).sentence_score(hyp, ref))
        assert got == pytest.approx(2 * p * r / (p + r), abs=1e-12)
    assert Gtm(max_words=None).signature() == Gtm().signature()
