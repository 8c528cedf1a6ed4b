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


# -- ROUGE-W and ROUGE-S/SU: time grows with the product of the lengths -----------------------

def _wlcs_paper(x: list[str], y: list[str], w: float) -> float:
    """Lin & Och (2004) section 3.3, as written: x the reference (rows), y the candidate."""
    c = [[0.0] * (len(y) + 1) for _ in range(len(x) + 1)]
    run = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                k = run[i - 1][j - 1]
                c[i][j] = c[i - 1][j - 1] + (k + 1) ** w - k ** w
                run[i][j] = k + 1
            elif c[i - 1][j] > c[i][j - 1]:
                c[i][j] = c[i - 1][j]
            else:
                c[i][j] = c[i][j - 1]
    return c[len(x)][len(y)]


def _skip_bigrams(t: list[str]) -> Counter[tuple[str, str]]:
    return Counter((t[i], t[j]) for i in range(len(t)) for j in range(i + 1, len(t)))


def _f(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p and r else 0.0


def test_rouge_w_and_s_refuse_a_one_megabyte_pair_at_once_by_name() -> None:
    for variants in (["rouge1", "rougeW-1.2"], ["rougeS*"], ["rougeSU4", "rougeL"]):
        t = time.perf_counter()
        with pytest.raises(mtalign.InputError) as e:
            mtalign.Rouge(variants).corpus_score(["a short one", HUGE],
                                                 [["a short one"], ["a b", HUGE]])
        assert time.perf_counter() - t < 0.5
        msg = str(e.value)
        assert msg.startswith("hyps[1] and refs[1][1] have 170000 × 170000 words, over "
                              "ROUGE's limit of max_words² = 2500000000 word pairs for "
                              "max_words=50000 (the time of ROUGE-"), msg
        assert "split the texts" in msg and "max_words=None" in msg and "\n" not in msg
    assert mtalign.metrics.rouge.DEFAULT_MAX_WORDS == 50_000
    # The three batch paths name the same pair, the lowest refused: chunk by chunk as the
    # hypotheses are read (1,024 pairs or more, 2 threads), chunk by chunk after reading
    # them (1 thread), and batch-wide (a stemmer). Chunks group the pairs by reference, so
    # pair 1100 (the reference of pair 5) is in the first chunk and pair 300 in a later one.
    hyps = [f"w{k} w{k + 1}" for k in range(1_500)]
    refs = list(hyps)
    refs[5] = refs[1_100] = "y " + HUGE
    refs[300] = "z " + HUGE
    hyps[300] = hyps[1_100] = HUGE
    for metric, threads in ((mtalign.Rouge("rougeW-1.2"), 2), (mtalign.Rouge("rougeW-1.2"), 1),
                            (mtalign.Rouge("rougeW-1.2", stem=True), 2)):
        with pytest.raises(mtalign.InputError, match=r"^hyps\[300\] and refs\[300\]\[0\] "
                           r"have 170000 × 170001 words"):
            metric.batch_score(hyps, refs, threads=threads)
    with pytest.raises(mtalign.InputError, match=r"^hyps\[0\] and refs\[0\]\[1\] have 170000"):
        mtalign.Rouge("rougeSU*").sentence_score(HUGE, ["a", HUGE])
    # 170,000 × 10 words is 1.7 million word pairs, well within the limit.
    long_short = mtalign.Rouge("rougeW-1.2").sentence_score(HUGE, " ".join(HUGE.split()[:10]))
    assert long_short["rougeW-1.2"].precision > 0


def test_rouge_limit_is_the_product_of_the_lengths_and_never_changes_a_score() -> None:
    hyp = " ".join(f"w{k % 5}" for k in range(12))
    ref = " ".join(f"w{k % 4}" for k in range(11))
    names = ["rougeW-1.2", "rougeS*"]
    with pytest.raises(mtalign.InputError, match=r"^hyps\[0\] and refs\[0\]\[0\] have 12 × 11 "
                       r"words, over ROUGE's limit of max_words² = 100 word pairs for "
                       r"max_words=10 \(the time of ROUGE-W and ROUGE-S grows with"):
        mtalign.Rouge(names, max_words=10).sentence_score(hyp, ref)
    x, y = ref.split(), hyp.split()
    wlcs = _wlcs_paper(x, y, 1.2)
    p_w, r_w = (wlcs / len(y) ** 1.2) ** (1 / 1.2), (wlcs / len(x) ** 1.2) ** (1 / 1.2)
    hit = sum((_skip_bigrams(y) & _skip_bigrams(x)).values())
    p_s, r_s = hit / (12 * 11 / 2), hit / (11 * 10 / 2)
    for limit in (12, None):  # 132 word pairs <= 144
        got = mtalign.Rouge(names, max_words=limit).sentence_score(hyp, ref)
        assert got["rougeW-1.2"] == pytest.approx((p_w, r_w, _f(p_w, r_w)), abs=1e-12)
        assert got["rougeS*"] == pytest.approx((p_s, r_s, _f(p_s, r_s)), abs=1e-12)
    # The other variants check nothing, whatever the limit; a long text against a short one
    # is within max_words² = 144 (132 × 1).
    plain = mtalign.Rouge(["rouge2", "rougeL", "rougeLsum"], max_words=1)
    assert plain.sentence_score(hyp, ref) == mtalign.Rouge(["rouge2", "rougeL", "rougeLsum"],
                                                           max_words=None).sentence_score(hyp,
                                                                                          ref)
    long = " ".join(f"w{k}" for k in range(132))
    assert float(mtalign.Rouge("rougeW-1.2", max_words=12).sentence_score(long, "w5")) > 0
    assert mtalign.Rouge(names, max_words=None).signature() == mtalign.Rouge(names).signature()
    r7 = mtalign.Rouge(names, max_words=7)
    assert pickle.loads(pickle.dumps(r7)) == r7 != mtalign.Rouge(names)
    for bad in (0, -3, 2.5, "10", True):
        with pytest.raises(mtalign.ConfigError, match="max_words must be"):
            mtalign.Rouge(names, max_words=bad)


def test_rouge_on_the_command_line_is_the_same_option(tmp_path, capsys) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a short line\n" + HUGE + "\n", encoding="utf-8")
    ref.write_text("a short line\nw1 w2 " + HUGE + "\n", encoding="utf-8")
    t = time.perf_counter()
    assert main(["score", "-m", "rougeW-1.2", "-q", "-r", str(ref), "-i", str(hyp)]) == 2
    assert time.perf_counter() - t < 5  # reading the file included
    err = capsys.readouterr().err
    assert err == (f"mtalign: error: {hyp} line 2 and {ref} line 2 have 170000 × 170002 "
                   f"words, over ROUGE's limit of max_words² = 2500000000 word pairs for "
                   f"max_words=50000 (the time of ROUGE-W grows with the product of the "
                   f"lengths); split the texts (into sentences, or sections scored apart) or "
                   f"raise the limit: max_words=N, or max_words=None for none (mtalign score "
                   f"--max-words N, 0 for none)\n")
    words = " ".join(f"w{k}" for k in range(30))
    hyp.write_text("a b\n" + words + "\n", encoding="utf-8")
    ref.write_text("a b\n" + words + "\n", encoding="utf-8")
    args = ["score", "-m", "rougeSU4", "-q", "-f", "tsv", "-r", str(ref), "-i", str(hyp)]
    assert main([*args, "--max-words", "29"]) == 2
    assert capsys.readouterr().err.startswith(f"mtalign: error: {hyp} line 2 and {ref} line 2 "
                                              f"have 30 × 30 words")
    for limit in ("30", "0"):
        assert main([*args, "--max-words", limit]) == 0
        assert capsys.readouterr().out.splitlines()[-1].split("\t")[-1] == "1.0"
