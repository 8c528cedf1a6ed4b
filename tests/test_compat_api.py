"""Rouge's compat / stem options: defaults, errors, signature, pickling, lines, CLI."""

from __future__ import annotations

import json
import pickle
import warnings

import numpy as np
import pytest


def test_profile_defaults(mtalign):
    r = mtalign.Rouge("rougeL", compat="rouge155")
    assert r.config()["tokenize"] == "rouge155" and r.config()["multi_ref"] == "average"
    r = mtalign.Rouge("rougeL", compat="rouge_score")
    assert r.config()["tokenize"] == "rouge_score" and r.config()["multi_ref"] == "best_f"
    r = mtalign.Rouge("rougeL")
    assert r.config()["tokenize"] == "unicode" and r.config()["multi_ref"] == "max"
    # Explicit values equal to the defaults make equal objects.
    assert mtalign.Rouge("rougeL", compat="rouge155") == mtalign.Rouge(
        "rougeL", compat="rouge155", tokenize="rouge155", multi_ref="average")


def test_signature_records_every_option(mtalign):
    r = mtalign.Rouge("rougeL", compat="rouge_score", stem=True, jackknife=True)
    sig = r.signature(nrefs=2)
    assert sig.startswith("nrefs:2|tok:rouge_score|lc:yes|stem:nltk_porter|multi_ref:best_f|jk:yes")
    assert "compat:rouge_score" in sig
    assert "stem:rouge155" in mtalign.Rouge("rouge1", compat="rouge155", stem=True).signature()
    assert "stem:nltk_porter" in mtalign.Rouge("rouge1", stem=True).signature()


def test_pickle_and_equality(mtalign):
    r = mtalign.Rouge(["rougeLsum", "rougeW-1.2"], compat="rouge155", stem=True)
    r2 = pickle.loads(pickle.dumps(r))
    assert r2 == r and hash(r2) == hash(r)
    assert r != mtalign.Rouge(["rougeLsum", "rougeW-1.2"], compat="rouge155")
    s = r2.sentence_score("the cats went home", "a cat goes home")
    assert s == r.sentence_score("the cats went home", "a cat goes home")


@pytest.mark.parametrize("kwargs, message", [
    ({"compat": "rouge156"}, "unknown compat"),
    ({"tokenize": "rouge155", "lowercase": False}, "always lowercases"),
    ({"tokenize": "char", "stem": True}, "stem=True needs word tokens"),
    ({"stem": "yes"}, "stem must be True or False"),
])
def test_config_errors(mtalign, kwargs, message):
    with pytest.raises(mtalign.ConfigError, match=message):
        mtalign.Rouge("rougeL", **kwargs)


def test_rougelsum_needs_line_separating_tokenizer(mtalign):
    with pytest.raises(mtalign.ConfigError, match="codepoint"):
        mtalign.Rouge("rougeLsum", tokenize="codepoint")


def test_stemming_in_every_profile(mtalign):
    hyp, ref = "the cats were running", "a cat is running"
    plain = mtalign.Rouge("rouge1", compat="rouge_score").sentence_score(hyp, ref)["rouge1"]
    stem = mtalign.Rouge("rouge1", compat="rouge_score", stem=True).sentence_score(hyp, ref)
    assert stem["rouge1"].recall > plain.recall  # cats -> cat
    # ROUGE-1.5.5: "were" -> "be" by the exception list, "is" (3 letters) is not stemmed.
    r155 = mtalign.Rouge("rouge1", compat="rouge155", stem=True)
    assert r155.sentence_score("they were here", "they be here")["rouge1"].fmeasure == 1.0
    # Pre-tokenized input is stemmed too.
    tok = r155.sentence_score(["they", "were", "here"], [["they", "be", "here"]])
    assert tok["rouge1"].fmeasure == 1.0


def test_rougelsum_lines_and_pretokenized(mtalign):
    r = mtalign.Rouge(["rougeL", "rougeLsum"], tokenize="whitespace")
    # Lin (2004)'s union LCS example (candidate lines swapped, so that the plain LCS of the
    # whole texts is shorter than the union LCS).
    out = r.sentence_score("w1 w3 w8 w9 w5\nw1 w2 w6 w7 w8", "w1 w2 w3 w4 w5")
    assert out["rougeLsum"].recall == pytest.approx(4 / 5)
    assert out["rougeL"].recall == pytest.approx(3 / 5)
    # One line, or token lists: rougeLsum is rougeL.
    one = r.sentence_score("a b c d", "a c b d")
    assert one["rougeLsum"] == one["rougeL"]
    toks = r.sentence_score(["a", "b", "c", "d"], [["a", "c", "b", "d"]])
    assert toks["rougeLsum"] == toks["rougeL"]


def test_lines_mode_warns_for_vanished_texts_and_ignores_thread_count(mtalign):
    r = mtalign.Rouge(["rouge1", "rougeLsum"], compat="rouge_score", stem=True)
    hyps = [f"line {i}\nsecond line of text {i % 7}" for i in range(3000)] + ["!!\n..."]
    refs = [f"line {i % 11}\ntext of the second line" for i in range(3000)] + ["x"]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        one = r.batch_score(hyps, refs, threads=1)
    assert any("1 hypotheses" in str(x.message) for x in w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        two = r.batch_score(hyps, refs, threads=2)
    for k in r.scalar_names():
        assert np.array_equal(one[k], two[k])


def test_cli_compat_and_stem(mtalign, tmp_path):
    from mtalign.cli import main

    (tmp_path / "h").write_text("The cats went home.\n", encoding="utf-8")
    (tmp_path / "r").write_text("A cat goes home\n", encoding="utf-8")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["score", "-i", str(tmp_path / "h"), "-r", str(tmp_path / "r"),
                     "-m", "rouge1", "rougeSU4", "--compat", "rouge155", "--stem"])
    assert code == 0
    out = json.loads(buf.getvalue())
    assert "compat:rouge155" in out["signature"] and "stem:rouge155" in out["signature"]
    want = mtalign.Rouge(["rouge1"], compat="rouge155", stem=True).sentence_score(
        "The cats went home.", "A cat goes home")["rouge1"]
    assert out["scores"]["rouge1"]["fmeasure"] == want.fmeasure
