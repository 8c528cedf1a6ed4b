"""SIA: golden cases, the paper's worked examples, the twin, bad input, tables, CLI."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from twins import sia as sia_twin

DATA = Path(__file__).resolve().parent / "data"
CASES = [json.loads(line) for line in (DATA / "sia_dev.jsonl").read_text().splitlines()]
TOL = 1e-12


def scorer(mtalign, case, decay="figure"):
    sim = mtalign.WordSimilarity.from_pairs([tuple(x) for x in case["sim"]]) \
        if case["matching"] == "stochastic" else None
    return mtalign.Sia(alpha=case["alpha"], decay=decay, similarity=sim)


def test_golden_file_covers_the_brief():
    assert len(CASES) == 200
    assert {c["alpha"] for c in CASES} == {0.5, 0.8, 1.0}
    assert {len(c["refs"]) for c in CASES} == {1, 2, 3, 4}
    assert {c["matching"] for c in CASES} == {"exact", "stochastic"}
    assert any(c["tie_sensitive"] for c in CASES)


@pytest.mark.parametrize("decay,field", [("figure", "expected"),
                                         ("geometric", "expected_geometric_decay")])
def test_golden_batch(mtalign, decay, field):
    for case in CASES:
        got = scorer(mtalign, case, decay).batch_score([case["mt"]], [case["refs"]])
        assert abs(got[0] - case[field]) <= TOL, (case["id"], got[0], case[field])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_rounds(mtalign, case):
    e = scorer(mtalign, case).explain(case["mt"], case["refs"])
    assert abs(e.score - case["expected"]) <= TOL
    assert abs(e.before_length_penalty - case["before_length_penalty"]) <= TOL
    assert abs(e.length_penalty - case["length_penalty"]) <= TOL
    assert len(e.first_round_raw) == len(case["first_round_raw"])
    for a, b in zip(e.first_round_raw, case["first_round_raw"], strict=True):
        assert abs(a - b) <= TOL
    assert len(e.rounds) == len(case["rounds"])
    for got, want in zip(e.rounds, case["rounds"], strict=True):
        assert got.reference == want["ref"]
        assert abs(got.score - want["score"]) <= TOL
        assert abs(got.weight - want["weight"]) <= TOL
        assert [(i + 1, j + 1) for i, j in got.pairs] == [tuple(p) for p in want["alignment"]]


def test_tie_sensitive_cases_follow_the_documented_tie_break(mtalign):
    tied = [c for c in CASES if c["tie_sensitive"]]
    assert tied
    for case in tied:
        got = float(scorer(mtalign, case).sentence_score(case["mt"], case["refs"]))
        assert got == pytest.approx(case["expected"], abs=TOL)
        assert any(abs(got - a) <= TOL for a in case["achievable"])


def test_twin_matches_golden():
    for case in CASES:
        w = sia_twin.table_weight({(a, b): v for a, b, v in case["sim"]}) \
            if case["matching"] == "stochastic" else sia_twin.exact
        assert abs(sia_twin.sia(case["mt"], case["refs"], case["alpha"], w)
                   - case["expected"]) <= TOL, case["id"]


REF1 = "Life is just like a box of tasty chocolate"
MT1 = "Life is like one nice chocolate in box"
MT2 = "Life is of one nice chocolate in box"


def test_paper_figure_1(mtalign):
    sia = mtalign.Sia(alpha=1.0)
    e1 = sia.explain(MT1, REF1)
    # The paper prints 0.399 for eq. (1), but its own terms sum to 0.3779.
    terms = (1 + 1 + 1 / math.sqrt(1 * 2) + 1 / math.sqrt(2 * 5)) / 8
    assert e1.rounds[0].score == pytest.approx(terms, abs=1e-15)
    assert round(e1.rounds[0].score, 4) == 0.3779
    assert [e1.mt_tokens[i] for i, _ in e1.rounds[0].pairs] == ["life", "is", "like", "box"]
    e2 = sia.explain(MT2, REF1)
    assert round(e2.rounds[0].score, 3) == 0.357
    assert [e2.mt_tokens[i] for i, _ in e2.rounds[0].pairs] == ["life", "is", "of", "chocolate"]


def test_paper_figure_8(mtalign):
    mt = "England with France discussed this crisis in London"
    r1 = "Britain and France consulted about this crisis in London with each other"
    r2 = "England and France discussed the crisis in London"
    e = mtalign.Sia(alpha=1.0).explain(mt, [r1, r2])
    assert [r.reference for r in e.rounds] == [1, 0, 0]
    assert e.rounds[0].score == 0.625
    assert [e.mt_tokens[i] for i, _ in e.rounds[1].pairs] == ["with"]
    assert [e.mt_tokens[i] for i, _ in e.rounds[2].pairs] == ["this"]
    assert e.rounds[1].score == pytest.approx(1 / math.sqrt(20) / 8, abs=1e-15)
    assert e.rounds[2].score == pytest.approx(1 / math.sqrt(30) / 8, abs=1e-15)
    assert e.length_penalty == pytest.approx(0.8, abs=1e-15)
    assert round(e.score, 4) == 0.5406


def test_bad_input(mtalign):
    sia = mtalign.Sia()
    assert float(sia.sentence_score("", ["a b"])) == 0.0
    assert sia.batch_score([[]], [[["a"]]]).tolist() == [0.0]
    with pytest.raises(mtalign.InputError, match="refs"):
        sia.sentence_score("a", [])
    with pytest.raises(mtalign.InputError):
        sia.explain("a", [])
    for alpha in (0.0, -0.5, 1.01, float("nan"), float("inf")):
        with pytest.raises(mtalign.ConfigError, match="alpha"):
            mtalign.Sia(alpha=alpha)
    with pytest.raises(mtalign.ConfigError, match="decay"):
        mtalign.Sia(decay="linear")
    for v in (0.0, -0.1, 1.5, float("nan")):
        with pytest.raises(mtalign.InputError, match="outside"):
            mtalign.WordSimilarity.from_pairs([("a", "b", v)])


def test_bad_similarity_files(mtalign, tmp_path):
    p = tmp_path / "s.sim"
    p.write_text("mtalign-word-similarity 1\na\tb\t0.5\nc\td\tnan\n")
    with pytest.raises(mtalign.InputError, match=r"s\.sim: line 3"):
        mtalign.WordSimilarity.load(p)
    p.write_text("mtalign-word-similarity 1\na\tb\t1.5\n")
    with pytest.raises(mtalign.InputError, match="line 2"):
        mtalign.WordSimilarity.load(p)
    t = tmp_path / "t.tsv"
    t.write_text("school\t学校\t0.9\nbad line\n")
    with pytest.raises(mtalign.InputError, match=r"t\.tsv: line 2"):
        mtalign.TranslationTable.read(t, "tsv")
    with pytest.raises(mtalign.ConfigError, match="format"):
        mtalign.TranslationTable.read(t, "xml")


def test_table_readers_agree(mtalign, tmp_path):
    (tmp_path / "t.tsv").write_text("big\tgroß\t0.6\nlarge\tgroß\t0.4\nbig\tdick\t1.0\n")
    (tmp_path / "fa").write_text(
        f"groß\tbig\t{math.log(0.6)!r}\ngroß\tlarge\t{math.log(0.4)!r}\n"
        f"dick\tbig\t0.0\n<eps>\tthe\t-0.1\n")
    (tmp_path / "lex.f2e").write_text(
        "big groß 0.6000000\nlarge groß 0.4000000\nbig dick 1.0000000\nthe NULL 0.5\n")
    (tmp_path / "src.vcb").write_text("2 groß 5\n3 dick 1\n")
    (tmp_path / "tgt.vcb").write_text("2 big 6\n3 large 2\n4 the 9\n")
    (tmp_path / "t3").write_text("2 2 0.6\n2 3 0.4\n3 2 1\n0 4 0.5\n")
    tables = [
        mtalign.WordSimilarity.read(tmp_path / "t.tsv", "tsv", min_prob=0),
        mtalign.WordSimilarity.read(tmp_path / "fa", "fast_align", min_prob=0),
        mtalign.WordSimilarity.read(tmp_path / "lex.f2e", "moses", min_prob=0),
        mtalign.WordSimilarity.read(tmp_path / "t3", "giza", min_prob=0,
                                    src_vcb=tmp_path / "src.vcb", tgt_vcb=tmp_path / "tgt.vcb"),
    ]
    # eq. 3: big·large = .6·.4 = .24; big's row sums .36 + 1 + .24 = 1.6; large's .16 + .24
    for t in tables:
        assert t.lookup("big", "large") == pytest.approx(0.24 / 1.6, abs=1e-12)
        assert t.lookup("large", "big") == pytest.approx(0.24 / 0.40, abs=1e-12)
        assert t.lookup("the", "big") == 0.0


def test_similarity_save_load_pickle(mtalign, tmp_path):
    s = mtalign.WordSimilarity.from_pairs([("big", "large", 0.1 + 0.2), ("large", "huge", 1.0)])
    s.save(tmp_path / "x.sim")
    back = mtalign.WordSimilarity.load(tmp_path / "x.sim")
    assert back == s
    assert back.lookup("big", "large") == 0.1 + 0.2
    assert pickle.loads(pickle.dumps(s)) == s
    sia = mtalign.Sia(similarity=s)
    again = pickle.loads(pickle.dumps(sia))
    assert again == sia
    assert again.signature() == sia.signature()
    assert "sim:table-" in sia.signature()


def test_stochastic_matching_in_text_batches(mtalign):
    s = mtalign.WordSimilarity.from_pairs([("big", "large", 0.5)])
    hyps = ["a big house", "a large house", "a huge house"]
    refs = [["A large house"]] * 3
    exact = mtalign.Sia(alpha=1.0).batch_score(hyps, refs)
    sto = mtalign.Sia(alpha=1.0, similarity=s).batch_score(hyps, refs)
    assert sto[0] > exact[0]
    assert sto[1] == exact[1] == 1.0 + 0.0 or sto[1] == exact[1]
    assert sto[2] == exact[2]
    # the same numbers from pre-tokenized input and from the twin
    tok = [h.lower().split() for h in hyps]
    ref_tok = [["a", "large", "house"]]
    assert mtalign.Sia(alpha=1.0, similarity=s).batch_score(tok, [ref_tok] * 3).tolist() \
        == sto.tolist()
    w = sia_twin.table_weight({("big", "large"): 0.5})
    assert sto[0] == pytest.approx(sia_twin.sia(tok[0], ref_tok, 1.0, w), abs=1e-15)


def test_metric_interface(mtalign):
    sia = mtalign.Sia()
    assert sia.scalar_names() == ("sia",)
    assert sia.higher_is_better
    hyps, refs = ["a b c", "x"], [["a b c", "c b a"], "y"]
    arr = sia.scalar_scores(hyps, refs)
    assert arr.shape == (2,)
    assert np.array_equal(arr, sia.batch_score(hyps, refs, threads=1))
    assert sia.corpus_score(hyps, refs).score == pytest.approx(arr.mean())
    assert float(sia.sentence_score("a b c", ["a b c", "c b a"])) == arr[0]
    assert mtalign.Sia() == sia and hash(mtalign.Sia()) == hash(sia)
    assert pickle.loads(pickle.dumps(sia)) == sia
    with pytest.raises(AttributeError):
        sia._alpha = 0.3  # type: ignore[misc]
    with pytest.raises(mtalign.ConfigError):
        sia.scalar_scores(hyps, refs, variant="bleu")


def test_ibm1_training(mtalign):
    src = ["das haus", "das buch", "ein buch"]
    tgt = ["the house", "the book", "a book"]
    seen = []
    t = mtalign.TranslationTable.train(src, tgt, iterations=20, min_prob=0,
                                       progress=lambda i, n, ll: seen.append((i, n, ll)))
    assert [s[0] for s in seen] == list(range(1, 21))
    assert all(b[2] >= a[2] - 1e-12 for a, b in zip(seen, seen[1:], strict=False))
    assert t.prob("house", "haus") > 0.7
    assert t.prob("book", "buch") > 0.7
    one = mtalign.TranslationTable.train(src, tgt, iterations=5, threads=1).entries()
    two = mtalign.TranslationTable.train(src, tgt, iterations=5, threads=2).entries()
    assert one == two

    def stop(i, n, ll):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        mtalign.TranslationTable.train(src, tgt, progress=stop)
    with pytest.raises(mtalign.InputError, match="lines"):
        mtalign.TranslationTable.train(src, tgt[:2])


def test_tanaka_ibm1_school(mtalign):
    src = (DATA / "tanaka_5k.ja").read_text(encoding="utf-8").splitlines()
    tgt = (DATA / "tanaka_5k.en").read_text(encoding="utf-8").splitlines()
    t = mtalign.TranslationTable.train(src, tgt, iterations=5)
    assert t.prob("school", "学校") > 0.8
    sim = mtalign.WordSimilarity.from_translation_table(t)
    assert sim.lookup("school", "school") == 1.0
    near = dict(sim.neighbors("school"))
    assert all(0 < v <= 1 for v in near.values())


def test_cli_score_and_train(mtalign, tmp_path, capsys):
    from mtalign.cli import main

    (tmp_path / "hyp").write_text("England with France discussed this crisis in London\n")
    (tmp_path / "r1").write_text(
        "Britain and France consulted about this crisis in London with each other\n")
    (tmp_path / "r2").write_text("England and France discussed the crisis in London\n")
    code = main(["score", "-i", str(tmp_path / "hyp"), "-r", str(tmp_path / "r1"),
                 str(tmp_path / "r2"), "-m", "sia", "--sia-alpha", "1"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert round(out["scores"]["sia"]["score"], 4) == 0.5406
    assert out["signature"].startswith("nrefs:2|alpha:1|decay:figure|sim:exact")

    (tmp_path / "f").write_text("das haus\ndas buch\nein buch\n")
    (tmp_path / "e").write_text("the house\nthe book\na book\n")
    table = tmp_path / "t.sim"
    assert main(["train-similarity", "--src", str(tmp_path / "f"), "--tgt", str(tmp_path / "e"),
                 "-o", str(table), "--iterations", "10", "--min-prob", "0",
                 "--progress"]) == 0
    err = capsys.readouterr().err
    assert "IBM-1 iteration 10/10" in err  # stderr is not a terminal: shown by --progress
    sim = mtalign.WordSimilarity.load(table)
    assert sim.lookup("house", "house") == 1.0 and len(sim) == 4
    assert main(["score", "-i", str(tmp_path / "hyp"), "-r", str(tmp_path / "r2"), "-m", "sia",
                 "--similarity", str(table)]) == 0
    assert "sim:table-" in json.loads(capsys.readouterr().out)["signature"]
    assert main(["score", "-i", str(tmp_path / "hyp"), "-r", str(tmp_path / "r2"), "-m", "sia",
                 "--sia-alpha", "2"]) == 2
    assert "alpha" in capsys.readouterr().err
