"""The rest of the rouge-score drop-in against rouge-score 0.1.2 itself: ``scoring``
(``BootstrapAggregator``), ``tokenize``, ``tokenizers``, ``io``, ``RougeScorer(tokenizer=...)``
with ``rougeLsum``, scoring-time errors and the module-level LCS helpers. Real WMT21 de-en text
(``tests/data/wmt21_deen_*.en``) and random sequences; every comparison is exact.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from mtalign.compat.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers
from nltk.stem import porter
from rouge_score import io as rs_io
from rouge_score import rouge_scorer as rs_scorer
from rouge_score import scoring as rs_scoring
from rouge_score import tokenize as rs_tokenize
from rouge_score import tokenizers as rs_tokenizers

DATA = Path(__file__).resolve().parent / "data"
HYPS = (DATA / "wmt21_deen_hyp.Facebook-AI.en").read_text("utf-8").splitlines()
REFS = (DATA / "wmt21_deen_ref.A.en").read_text("utf-8").splitlines()
REFS_B = (DATA / "wmt21_deen_ref.B.en").read_text("utf-8").splitlines()
ODD = ["", "/", "Café owners' 100-mile trip", "İstanbul ÇAĞ", "x²  ½", "\n\n", "a\nb\n",
       "Running RUNS ran, the runner's", "日本語 text", "ﬁnal ŒUVRE"]
TEXTS = HYPS + REFS + ODD


def test_types_and_modules():
    assert issubclass(tokenizers.DefaultTokenizer, tokenizers.Tokenizer)
    assert issubclass(rouge_scorer.RougeScorer, scoring.BaseScorer)
    with pytest.raises(TypeError):
        tokenizers.Tokenizer()  # abstract, as rouge-score's


@pytest.mark.parametrize("stemmer", [None, "nltk", "custom"])
def test_tokenize_equals_rouge_score(stemmer):
    class Custom:  # stems to something outside [a-z0-9]+ sometimes
        def stem(self, w):
            return w[:-1] + "_" if w.endswith("s") else w[:5]

    st = {None: None, "nltk": porter.PorterStemmer(), "custom": Custom()}[stemmer]
    for text in TEXTS:
        assert tokenize.tokenize(text, st) == rs_tokenize.tokenize(text, st), text


@pytest.mark.parametrize("stem", [False, True])
def test_default_tokenizer_equals_rouge_score(stem):
    ours, theirs = tokenizers.DefaultTokenizer(stem), rs_tokenizers.DefaultTokenizer(stem)
    for text in TEXTS:
        assert ours.tokenize(text) == theirs.tokenize(text)


def _aggregate(module, scores, seed, **kw):
    np.random.seed(seed)
    agg = module.BootstrapAggregator(**kw)
    for s in scores:
        agg.add_scores(s)
    return agg.aggregate()


@pytest.mark.parametrize("kw", [{}, {"confidence_interval": 0.9, "n_samples": 200},
                                {"confidence_interval": 0.0, "n_samples": 50}])
def test_bootstrap_equals_rouge_score_under_the_same_seed(kw):
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    ours = rouge_scorer.RougeScorer(types, use_stemmer=True)
    theirs = rs_scorer.RougeScorer(types, use_stemmer=True)
    pairs = list(zip(REFS, HYPS, strict=True))[:120]
    a = [ours.score(r, h) for r, h in pairs]
    b = [theirs.score(r, h) for r, h in pairs]
    assert a == b
    for seed in (0, 123):
        got, want = _aggregate(scoring, a, seed, **kw), _aggregate(rs_scoring, b, seed, **kw)
        assert list(got) == list(want) == types
        for t in types:
            assert tuple(map(tuple, got[t])) == tuple(map(tuple, want[t]))
            assert type(got[t].mid).__name__ == "Score"
        # seed= gives the same numbers without touching the global generator.
        np.random.seed(7)
        state = np.random.get_state()[1].copy()
        private = scoring.BootstrapAggregator(seed=seed, **kw)
        for s in a:
            private.add_scores(s)
        assert private.aggregate() == got
        assert (np.random.get_state()[1] == state).all()
    # The intervals are not degenerate: low < mid < high on real data.
    assert got["rouge1"].low.fmeasure < got["rouge1"].mid.fmeasure < got["rouge1"].high.fmeasure \
        or kw.get("confidence_interval") == 0.0


def test_bootstrap_argument_checks():
    for bad in ({"confidence_interval": 1.5}, {"confidence_interval": -0.1}, {"n_samples": 0}):
        with pytest.raises(ValueError):
            scoring.BootstrapAggregator(**bad)
    assert scoring.fmeasure(0.0, 0.0) == rs_scoring.fmeasure(0.0, 0.0) == 0.0
    assert scoring.fmeasure(0.3, 0.7) == rs_scoring.fmeasure(0.3, 0.7)


class Whitespace:
    """A custom tokenizer: case-sensitive whitespace split (not rouge-score's default)."""

    def tokenize(self, text):
        return text.split()


def test_custom_tokenizer_with_rougelsum_equals_rouge_score():
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    ours = rouge_scorer.RougeScorer(types, tokenizer=Whitespace(), use_stemmer=True)
    theirs = rs_scorer.RougeScorer(types, tokenizer=Whitespace(), use_stemmer=True)
    lines = [(f"{HYPS[i]}\n{HYPS[i + 1]}\n\n{HYPS[i + 2]}", f"{REFS[i]}\n{REFS[i + 1]}",
              f"{REFS_B[i]}\n{REFS_B[i + 2]}") for i in range(0, 150, 3)]
    differs = 0
    for hyp, ref_a, ref_b in lines + [("", "a b", "c"), ("a b", "", ""), ("/", "/ x", "x")]:
        assert ours.score(ref_a, hyp) == theirs.score(ref_a, hyp)
        assert ours.score_multi([ref_a, ref_b], hyp) == theirs.score_multi([ref_a, ref_b], hyp)
        got = ours.score(ref_a, hyp)
        differs += got["rougeLsum"] != got["rougeL"]
    assert differs > 20  # the union LCS is exercised


def test_default_tokenizer_object_runs_natively_and_wins_over_use_stemmer():
    a = rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True,
                                 tokenizer=tokenizers.DefaultTokenizer(use_stemmer=False))
    b = rs_scorer.RougeScorer(["rouge1", "rougeLsum"], use_stemmer=True,
                              tokenizer=rs_tokenizers.DefaultTokenizer(use_stemmer=False))
    for r, h in list(zip(REFS, HYPS, strict=True))[:50]:
        assert a.score(r, h) == b.score(r, h)
    assert a._tokenizer is None  # the native text path


@pytest.mark.parametrize("name", ["rougex", "rouge0", "rougen", "rouge10"])
def test_unknown_type_fails_when_scoring_as_rouge_score(name):
    for module in (rouge_scorer, rs_scorer):
        scorer = module.RougeScorer([name])  # constructing is fine
        with pytest.raises(ValueError):
            scorer.score("a b", "a")


def test_lcs_helpers_equal_rouge_score():
    rng = random.Random(5)
    for _ in range(300):
        ref = [rng.randint(0, 5) for _ in range(rng.randint(0, 12))]
        cans = [[rng.randint(0, 5) for _ in range(rng.randint(0, 12))]
                for _ in range(rng.randint(0, 4))]
        for can in cans:
            t = rouge_scorer._lcs_table(ref, can)
            assert t == rs_scorer._lcs_table(ref, can)
            assert rouge_scorer._backtrack_norec(t, ref, can) == \
                rs_scorer._backtrack_norec(t, ref, can)
        assert rouge_scorer._union_lcs(ref, cans) == rs_scorer._union_lcs(ref, cans)
        refs = [ref, [rng.randint(0, 5) for _ in range(rng.randint(0, 6))]]
        assert rouge_scorer._summary_level_lcs(refs, cans) == \
            rs_scorer._summary_level_lcs(refs, cans)


@pytest.mark.parametrize("aggregate", [False, True])
@pytest.mark.parametrize("delimiter", ["\n", ":::"])
def test_io_writes_the_same_csv(tmp_path, aggregate, delimiter):
    for k in range(2):
        hyp = delimiter.join(HYPS[k * 40:(k + 1) * 40]) + delimiter
        ref = delimiter.join(REFS[k * 40:(k + 1) * 40]) + delimiter
        (tmp_path / f"pred{k}.txt").write_text(hyp, "utf-8")
        (tmp_path / f"tgt{k}.txt").write_text(ref, "utf-8")
    outs = []
    for mod, sc, agg in ((io, rouge_scorer, scoring), (rs_io, rs_scorer, rs_scoring)):
        out = tmp_path / f"{mod.__name__}.csv"
        np.random.seed(3)
        mod.compute_scores_and_write_to_csv(
            str(tmp_path / "tgt*.txt"), str(tmp_path / "pred*.txt"), str(out),
            sc.RougeScorer(["rouge1", "rougeL"], use_stemmer=True),
            agg.BootstrapAggregator() if aggregate else None, delimiter=delimiter)
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    assert len(outs[0].splitlines()) == (7 if aggregate else 81)
    with pytest.raises(ValueError):
        io.compute_scores_and_write_to_csv(str(tmp_path / "none*"), str(tmp_path / "none*"),
                                           str(tmp_path / "x.csv"),
                                           rouge_scorer.RougeScorer(["rouge1"]), None)
    (tmp_path / "tgt1.txt").write_text("one more" + delimiter + "two" + delimiter, "utf-8")
    with pytest.raises(ValueError, match="equal number of lines"):
        io.compute_scores_and_write_to_csv(str(tmp_path / "tgt*.txt"),
                                           str(tmp_path / "pred*.txt"),
                                           str(tmp_path / "x.csv"),
                                           rouge_scorer.RougeScorer(["rouge1"]), None,
                                           delimiter=delimiter)
