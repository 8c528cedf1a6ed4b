"""One meaning per BLEU name (issue 30, item 2), checked against sacrebleu 2.6.0 and nltk.

* ``mtalign.Bleu()`` is sacrebleu's BLEU: ``corpus_score`` == ``sacrebleu.corpus_bleu`` and
  every sentence-level call (``sentence_score``, ``batch_score``, ``scalar_scores``,
  ``pairwise``, Dask's ``score``) == ``sacrebleu.sentence_bleu`` (exp smoothing, effective
  order), on short segments (1-3 words, where no effective order scores 0) and long ones,
  with one and several references, on the shipped sample.
* ``bleu`` on the command line is the same; ``mtalign score --sentence-level -m bleu`` prints
  what ``sacrebleu -sl`` prints (the sacrebleu command line is run on the same files).
* Lin & Och's BLEUS-n is ``Bleu.bleus(n)`` / ``bleus<N>``: nltk's method2.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sacrebleu = pytest.importorskip("sacrebleu")
from nltk.translate.bleu_score import SmoothingFunction  # noqa: E402
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu  # noqa: E402
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

# Short segments: with one to three words the 4-gram (and shorter) orders are empty, so
# BLEU without the effective order is 0 and sacrebleu's sentence_bleu is not.
SHORT = [("Hello", ["Hello there"]), ("The cat", ["The cat sat"]), ("yes indeed", ["yes"]),
         ("a dog barked", ["a dog barked loudly", "the dog barked"]), ("Thanks !", ["Thanks!"]),
         ("x y z", ["x y z"]), ("", ["empty hypothesis"]), ("one", ["two"]),
         ("Not bad at all", ["Not bad at all"])]
TOK13A = Tokenizer13a()


def streams(refs: list[list[str]]) -> list[list[str]]:
    """mtalign's per-segment references as sacrebleu's reference streams."""
    return [list(column) for column in zip(*refs, strict=True)]


@pytest.fixture(scope="module")
def sample(mtalign):
    from mtalign.demo import load_sample

    return load_sample()


def test_corpus_score_is_corpus_bleu_on_the_shipped_sample(mtalign, sample):
    systems, refs = sample
    bleu = mtalign.Bleu()
    for name, hyps in systems.items():
        for refs_used in (refs, [r[:1] for r in refs]):  # two references, then one
            want = sacrebleu.corpus_bleu(hyps, streams(refs_used))
            got = bleu.corpus_score(hyps, refs_used)
            assert got.score == want.score, name  # bit for bit
            assert str(got) == str(want), name  # the printed line
            assert (got.counts, got.totals, got.bp) == (want.counts, want.totals, want.bp)
            # every key sacrebleu's signature has (but its version) has the same value
            theirs = dict(kv.split(":") for kv in BLEU(references=streams(refs_used))
                          .get_signature().format().split("|"))
            ours = dict(kv.split(":") for kv in got.signature.split("|"))
            del theirs["version"]
            assert {k: ours[k] for k in theirs} == theirs


def test_sentence_level_calls_are_sentence_bleu_on_the_shipped_sample(mtalign, sample):
    systems, refs = sample
    bleu = mtalign.Bleu()
    hyps = systems["Online-W"][:150] + systems["happypoet"][150:]
    refs_used = refs[:150] + [r[:1] for r in refs[150:]]  # several references, then one
    want = [sacrebleu.sentence_bleu(h, r) for h, r in zip(hyps, refs_used, strict=True)]
    scores = [w.score for w in want]
    assert bleu.batch_score(hyps, refs_used).tolist() == scores
    assert bleu.scalar_scores(hyps, refs_used).tolist() == scores
    assert bleu.corpus_score(hyps, refs_used).per_sentence.tolist() == scores
    for h, r, w in zip(hyps, refs_used, want, strict=True):
        got = bleu.sentence_score(h, r)
        assert got.score == w.score and str(got) == str(w), h


def test_short_segments_score_as_sentence_bleu_not_zero(mtalign):
    bleu = mtalign.Bleu()
    hyps, refs = [h for h, _ in SHORT], [r for _, r in SHORT]
    want = [sacrebleu.sentence_bleu(h, r).score for h, r in SHORT]
    assert sum(w > 0 for w in want) >= 6  # the case the old default printed 0.0 for
    assert bleu.batch_score(hyps, refs).tolist() == want
    assert [float(bleu.sentence_score(h, r)) for h, r in SHORT] == want
    # pre-tokenized input (a batch of one inside) means the same
    tokens = [float(bleu.sentence_score(TOK13A(h).split(), [TOK13A(x).split() for x in r]))
              for h, r in SHORT]
    assert tokens == want
    # the corpus of the short segments stays corpus_bleu (no effective order)
    assert bleu.corpus_score(hyps, refs).score == sacrebleu.corpus_bleu(
        hyps, _padded_streams(refs)).score


def _padded_streams(refs: list[list[str]]) -> list[list[str]]:
    """Reference streams of a ragged reference list (sacrebleu's None: no reference)."""
    k = max(len(r) for r in refs)
    return [[r[j] if j < len(r) else None for r in refs] for j in range(k)]


def test_sentence_signature_says_effective_order(mtalign):
    one = mtalign.Bleu().sentence_score("The cat", ["The cat sat"])
    peer = BLEU(effective_order=True)  # what sentence_bleu scores with
    peer.sentence_score("The cat", ["The cat sat"])
    theirs = peer.get_signature().format()
    assert theirs.startswith("nrefs:1|case:mixed|eff:yes|")
    assert one.signature.startswith("nrefs:1|case:mixed|eff:yes|")
    corpus = mtalign.Bleu().corpus_score(["The cat"], ["The cat sat"])
    assert corpus.signature.startswith("nrefs:1|case:mixed|eff:no|") and corpus.score == 0.0


def test_pairwise_and_mbr_rank_by_sentence_bleu(mtalign, sample):
    systems, _ = sample
    pool = [systems[name][7] for name in sorted(systems)] + ["Yes", "No thanks"]
    matrix = mtalign.Bleu().pairwise(pool)
    want = [[sacrebleu.sentence_bleu(h, [r]).score for r in pool] for h in pool]
    np.testing.assert_allclose(matrix, want, rtol=0, atol=1e-12)
    blocks = mtalign.Bleu().pairwise_blocks([(pool, None)])
    np.testing.assert_allclose(blocks[0], want, rtol=0, atol=1e-12)


def test_resampled_corpora_are_corpus_bleu(mtalign, sample):
    systems, refs = sample
    hyps = systems["HuaweiTSC"][:40]
    bleu = mtalign.Bleu()
    stats = bleu.statistics(hyps, refs[:40])
    one_each = bleu.scores_from_statistics(stats)
    assert one_each.tolist() == [sacrebleu.corpus_bleu([h], streams([r])).score
                                 for h, r in zip(hyps, refs[:40], strict=True)]
    rng = np.random.default_rng(5)
    idx = rng.integers(0, 40, 40)
    want = sacrebleu.corpus_bleu([hyps[i] for i in idx], streams([refs[i] for i in idx]))
    assert float(bleu.corpus_from_statistics(stats[idx])) == want.score
    # sacrebleu's --confidence: the bootstrap of corpus scores (its float32 statistics
    # leave the mean within 1e-6)
    got = bleu.corpus_score(hyps, refs[:40], n_bootstrap=50)
    want = BLEU().corpus_score(hyps, streams(refs[:40]), n_bootstrap=50)
    assert str(got) == str(want)
    assert got.confidence.mean == pytest.approx(want._mean, abs=1e-6)
    assert got.confidence.ci == pytest.approx(want._ci, abs=1e-6)


@pytest.mark.parametrize("effective", [True, False])
def test_explicit_effective_order_means_both_levels(mtalign, effective):
    bleu = mtalign.Bleu(effective_order=effective)
    peer = BLEU(effective_order=effective)
    for h, r in SHORT:
        assert float(bleu.sentence_score(h, r)) == peer.sentence_score(h, r).score
    hyps, refs = [h for h, _ in SHORT], [r for _, r in SHORT]
    assert bleu.corpus_score(hyps, refs).score == peer.corpus_score(
        hyps, _padded_streams(refs)).score


def test_default_is_sacrebleus_configuration(mtalign):
    b = mtalign.Bleu()
    assert (b.max_order, b.smooth, b.tokenize, b.lowercase, b.effective_order) == (
        4, "exp", "13a", False, None)
    assert b.at_sentence_level() == mtalign.Bleu(effective_order=True)
    assert mtalign.Bleu(smooth="add1").at_sentence_level() == mtalign.Bleu(
        smooth="add1", effective_order=False)  # nltk's smoothings: nltk's default
    with pytest.raises(mtalign.ConfigError, match="effective_order"):
        mtalign.Bleu(effective_order="yes")


def _nltk_tokens(text: str) -> list[str]:
    return TOK13A(text.rstrip()).split()


def test_bleus_is_lin_and_och_add_one_as_nltk_method2(mtalign, sample):
    systems, refs = sample
    assert mtalign.Bleu.bleus(4) == mtalign.Bleu(max_order=4, smooth="add1")
    assert mtalign.Bleu.bleus(2, lowercase=True) == mtalign.Bleu(2, smooth="add1",
                                                                 lowercase=True)
    hyps = systems["Facebook-AI"][:120] + [h for h, _ in SHORT if h]
    refs_used = refs[:120] + [r for h, r in SHORT if h]
    method2 = SmoothingFunction().method2
    for n in (2, 4):
        got = mtalign.Bleu.bleus(n).batch_score(hyps, refs_used)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = [100 * nltk_sentence_bleu([_nltk_tokens(x) for x in r], _nltk_tokens(h),
                                             (1 / n,) * n, smoothing_function=method2)
                    for h, r in zip(hyps, refs_used, strict=True)]
            corpus = 100 * nltk_corpus_bleu(
                [[_nltk_tokens(x) for x in r] for r in refs_used],
                [_nltk_tokens(h) for h in hyps], (1 / n,) * n, smoothing_function=method2)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-10)
        assert mtalign.Bleu.bleus(n).corpus_score(hyps, refs_used).score == pytest.approx(
            corpus, abs=1e-10)
    # BLEUS differs from BLEU on short segments (add-one; no effective order)
    assert float(mtalign.Bleu.bleus().sentence_score("Hello", "Hello there")) != \
        sacrebleu.sentence_bleu("Hello", ["Hello there"]).score


def test_registry_names(mtalign):
    from mtalign import registry

    assert registry.make_metric("bleu")[0] == mtalign.Bleu()
    assert registry.make_metric("bleu2")[0] == mtalign.Bleu(2)
    assert registry.make_metric("bleus4")[0] == mtalign.Bleu.bleus(4)
    assert registry.make_metric("bleus")[0] == mtalign.Bleu.bleus(4)
    # segment-level correlate and ORANGE rank by scalar_scores: sentence_bleu
    hyps, refs = [h for h, _ in SHORT], [r for _, r in SHORT]
    assert registry.make_metric("bleu")[0].scalar_scores(hyps, refs).tolist() == [
        sacrebleu.sentence_bleu(h, r).score for h, r in SHORT]


@pytest.fixture()
def small_files(tmp_path, sample):
    systems, refs = sample
    hyps = [h for h, _ in SHORT if h] + systems["Online-W"][:20]
    ref_a = [r[0] for h, r in SHORT if h] + [r[0] for r in refs[:20]]
    ref_b = [r[-1] for h, r in SHORT if h] + [r[1] for r in refs[:20]]
    paths = {}
    for name, lines in (("hyp", hyps), ("refA", ref_a), ("refB", ref_b)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths, hyps, [ref_a, ref_b]


def _mtalign_cli(*args: object) -> str:
    out = subprocess.run([sys.executable, "-m", "mtalign", *map(str, args)],
                         capture_output=True, text=True, check=True)
    return out.stdout


def _sacrebleu_cli(*args: object) -> list[float]:
    out = subprocess.run([sys.executable, "-m", "sacrebleu", *map(str, args)],
                         capture_output=True, text=True, check=True)
    return [float(line) for line in out.stdout.split()]


@pytest.mark.parametrize("n_refs", [1, 2])
def test_cli_sentence_level_bleu_prints_sacrebleu_sl(mtalign, small_files, n_refs):
    paths, hyps, ref_streams = small_files
    ref_paths = [paths["refA"], paths["refB"]][:n_refs]
    theirs = _sacrebleu_cli(*ref_paths, "-i", paths["hyp"], "-sl", "-b", "-w", "10")
    out = json.loads(_mtalign_cli("score", "-r", *ref_paths, "-i", paths["hyp"], "-m", "bleu",
                                  "bleus4", "--sentence-level", "-f", "json", "-q"))
    ours = [row["bleu"]["score"] for row in out["sentences"]]
    assert len(ours) == len(theirs) == len(hyps)
    assert [round(x, 10) for x in ours] == theirs
    assert ours == [sacrebleu.sentence_bleu(h, list(r)).score
                    for h, *r in zip(hyps, *ref_streams[:n_refs], strict=True)]
    assert sum(x > 0 for x in ours[:8]) >= 6  # short segments are not 0.0
    # corpus rows: sacrebleu's corpus BLEU, and BLEUS4 by its own name
    corpus = _sacrebleu_cli(*ref_paths, "-i", paths["hyp"], "-b", "-w", "10")
    assert round(out["scores"]["bleu"]["score"], 10) == corpus[0]
    refs = [list(r) for r in zip(*ref_streams[:n_refs], strict=True)]
    assert out["scores"]["bleus4"]["score"] == mtalign.Bleu.bleus(4).corpus_score(
        hyps, refs).score
    assert [row["bleus4"]["score"] for row in out["sentences"]] == \
        mtalign.Bleu.bleus(4).batch_score(hyps, refs).tolist()
    assert "eff:yes" in out["signatures"]["bleu sentences"]
    assert "eff:no" in out["signatures"]["bleu"]
    assert "bleus4 sentences" not in out["signatures"]  # BLEUS is one definition


def test_dask_score_and_corpus_score_mean_the_same(mtalign, sample):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import mtalign.dask as mdask

    systems, refs = sample
    hyps = systems["HuaweiTSC"][:30] + [h for h, _ in SHORT]
    refs_used = [r[:1] for r in refs[:30]] + [r[:1] for _, r in SHORT]
    df = pd.DataFrame({"hyp": hyps, "ref": [r[0] for r in refs_used]})
    ddf = dd.from_pandas(df, npartitions=3)
    got = mdask.score(mtalign.Bleu(), ddf).compute(scheduler="sync").tolist()
    assert got == [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs_used,
                                                                         strict=True)]
    total = mdask.corpus_score(mtalign.Bleu(), ddf, scheduler="sync")
    assert float(total) == sacrebleu.corpus_bleu(hyps, streams(refs_used)).score


def test_orange_and_rerank_rank_by_sentence_bleu(mtalign, sample):
    systems, refs = sample
    cands = [[systems[name][i] for name in sorted(systems)] + ["Yes ."] for i in range(40)]
    got = mtalign.orange(mtalign.Bleu(), cands, refs[:40], n_bootstrap=0)
    want = mtalign.orange(lambda h, r: sacrebleu.sentence_bleu(h, r).score, cands, refs[:40],
                          n_bootstrap=0)
    assert got.orange == want.orange
    assert "eff:yes" in got.signature
    from mtalign.ranking.rerank import rerank_one

    best, scores = rerank_one(mtalign.Bleu(), cands[3], refs[3])
    assert scores.tolist() == [sacrebleu.sentence_bleu(h, refs[3]).score for h in cands[3]]
    assert best == int(np.argmax(scores))


def test_segment_level_correlate_correlates_sentence_bleu(mtalign, capsys):
    """``mtalign correlate -m bleu`` at segment level: Pearson of sacrebleu's sentence_bleu
    against the MQM score of every judged (system, segment), as scipy computes it."""
    stats = pytest.importorskip("scipy.stats")
    from mtalign.cli import main
    from mtalign.demo import load_mqm_sample

    data = Path(mtalign.__file__).resolve().parent / "data"
    hyp_files = sorted(str(p) for p in data.glob("ende_mqm_sample.hyp.*.de"))
    systems, refs, mqm = load_mqm_sample()
    code = main(["correlate", "--human", str(data / "ende_mqm_sample.mqm.tsv"), "-r",
                 str(data / "ende_mqm_sample.ref.A.de"), str(data / "ende_mqm_sample.ref.C.de"),
                 "-i", *hyp_files, "-m", "bleu", "--n-bootstrap", "20", "-f", "json"])
    (out,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]  # JSON Lines
    assert code == 0 and out["metric"] == "bleu" and out["level"] == "segment"
    metric, human = [], []
    for name in systems:
        for h, r, m in zip(systems[name], refs, mqm[name], strict=True):
            if not np.isnan(m):
                metric.append(sacrebleu.sentence_bleu(h, r).score)
                human.append(m)
    want = stats.pearsonr(metric, human).statistic
    assert out["value"] == pytest.approx(want, abs=1e-12)
