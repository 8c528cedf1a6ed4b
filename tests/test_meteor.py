"""METEOR against its oracle, nltk 3.10.4's ``meteor_score``, on real WMT21 German→English
output (tests/data): exact + stem stages, and with WordNet synonyms (the same WordNet
directory given to mtalign and to nltk's ``WordNetCorpusReader``); the stemmer word for word
against nltk's ``PorterStemmer``; WordNet synonyms against nltk's ``synsets``; errors; and the
generic paths (registry, pairwise, ORANGE, rerank)."""

from __future__ import annotations

import gzip
import os
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from wmt_data import load

DATA = Path(__file__).resolve().parent / "data"
WORDNET = os.environ.get("MTALIGN_WORDNET", "/usr/share/wordnet")

# nltk's reader also wants a ``lexnames`` file, which Debian's wordnet-base does not ship;
# its content (the lexicographer file names) plays no part in METEOR.
LEXNAMES = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact "
            "noun.attribute noun.body noun.cognition noun.communication noun.event "
            "noun.feeling noun.food noun.group noun.location noun.motive noun.object "
            "noun.person noun.phenomenon noun.plant noun.possession noun.process "
            "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time "
            "verb.body verb.change verb.cognition verb.communication verb.competition "
            "verb.consumption verb.contact verb.creation verb.emotion verb.motion "
            "verb.perception verb.possession verb.social verb.stative verb.weather "
            "adj.ppl").split()
FILES = [f"{k}.{p}" for k in ("data", "index") for p in ("noun", "verb", "adj", "adv")] + [
    f"{p}.exc" for p in ("noun", "verb", "adj", "adv")]


@pytest.fixture(scope="session")
def wordnet_dir() -> str:
    if not all(Path(WORDNET, f).is_file() for f in FILES):
        pytest.fail(f"no WordNet database in {WORDNET}: run scripts/setup_wordnet.sh "
                    "(Debian's wordnet-base) or set MTALIGN_WORDNET")
    return WORDNET


@pytest.fixture(scope="session")
def nltk_wordnet(wordnet_dir: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """nltk's reader over a copy of the same files (nltk refuses paths outside its data
    roots, and symlinks that leave them)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    root = tmp_path_factory.mktemp("wordnet")
    for f in FILES:
        shutil.copyfile(Path(wordnet_dir, f), root / f)
    kinds = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
    (root / "lexnames").write_text("".join(f"{i:02d}\t{n}\t{kinds[n.split('.')[0]]}\n"
                                           for i, n in enumerate(LEXNAMES)))
    nltk.data.path.append(str(root))

    class LocalWordNet(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # the mapping to other WordNet versions (OMW only) needs nltk_data

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LocalWordNet(str(root), None)


class NoSynonyms:
    """A WordNet with no synsets: nltk's synonym stage then matches nothing."""

    def synsets(self, word: str) -> list[Any]:
        return []


def _deen(systems: int, lines: int) -> tuple[list[list[str]], list[list[str]]]:
    d = load("wmt21_deen_news")
    refs = [list(r) for r in zip(*d["refs"].values(), strict=True)][:lines]
    return [d["hyps"][s][:lines] for s in sorted(d["hyps"])[:systems]], refs


def _nltk(hyps: list[str], refs: list[list[str]], wordnet: Any, **kw: Any) -> np.ndarray:
    from nltk.translate.meteor_score import meteor_score

    return np.array([meteor_score([r.split() for r in rs], h.split(), wordnet=wordnet, **kw)
                     for h, rs in zip(hyps, refs, strict=True)])


def test_exact_and_stem_equal_nltk_on_wmt21(mtalign: Any) -> None:
    systems, refs = _deen(3, 1000)
    m = mtalign.Meteor(stages=("exact", "stem"))
    n = 0
    for hyps in systems:
        ours = m.batch_score(hyps, refs)
        want = _nltk(hyps, refs, NoSynonyms())
        assert np.max(np.abs(ours - want)) <= 1e-12
        n += len(hyps)
    assert n == 3000
    # Without a WordNet the default stages are the same two.
    assert np.array_equal(mtalign.Meteor().batch_score(systems[0], refs),
                          m.batch_score(systems[0], refs))


def test_other_weights_equal_nltk(mtalign: Any) -> None:
    (hyps,), refs = _deen(1, 300)
    m = mtalign.Meteor(alpha=0.75, beta=1.5, gamma=0.3)
    want = _nltk(hyps, refs, NoSynonyms(), alpha=0.75, beta=1.5, gamma=0.3)
    assert np.max(np.abs(m.batch_score(hyps, refs) - want)) <= 1e-12


def test_synonyms_equal_nltk_on_wmt21(mtalign: Any, wordnet_dir: str,
                                      nltk_wordnet: Any) -> None:
    systems, refs = _deen(2, 300)
    m = mtalign.Meteor(wordnet=wordnet_dir)
    assert "syn:off" not in m.signature()
    differs = 0
    for hyps in systems:
        ours = m.batch_score(hyps, refs)
        want = _nltk(hyps, refs, nltk_wordnet)
        assert np.max(np.abs(ours - want)) <= 1e-12
        differs += int(np.sum(ours != mtalign.Meteor().batch_score(hyps, refs)))
    assert differs > 20  # the synonym stage does change scores on this data


def test_wordnet_synonyms_equal_nltk_synsets(mtalign: Any, wordnet_dir: str,
                                             nltk_wordnet: Any) -> None:
    from nltk.stem.porter import PorterStemmer

    systems, refs = _deen(19, 200)
    words = {w.lower() for lines in systems + refs for line in lines for w in line.split()}
    stemmer = PorterStemmer()
    words |= {stemmer.stem(w) for w in words}
    m = mtalign.Meteor(wordnet=wordnet_dir)
    with_synonyms = 0
    for w in sorted(words):
        want = sorted({lemma.name() for s in nltk_wordnet.synsets(w) for lemma in s.lemmas()
                       if "_" not in lemma.name()})
        assert m.synonyms(w) == want, w
        with_synonyms += bool(want)
    assert len(words) > 2000 and with_synonyms > 1000


def test_stemmer_equals_nltk_word_for_word(mtalign: Any) -> None:
    from nltk.stem.porter import PorterStemmer

    with gzip.open(DATA / "english_words.txt.gz", "rt", encoding="utf-8") as f:
        words = f.read().split()
    systems, refs = _deen(19, 1000)
    words += sorted({w.lower() for lines in systems + refs for line in lines
                     for w in line.split()})
    stemmer = PorterStemmer()
    stem = mtalign._mtalign.meteor_stem
    bad = [w for w in words if stem(w) != stemmer.stem(w)]
    assert len(words) > 30000 and bad == []
    assert any(len(w) <= 3 for w in words)  # short words too (nltk stems 3-letter words)


def test_pretokenized_and_text_agree(mtalign: Any) -> None:
    (hyps,), refs = _deen(1, 50)
    m = mtalign.Meteor()
    toks = m.batch_score([h.split() for h in hyps], [[r.split() for r in rs] for rs in refs])
    assert np.array_equal(toks, m.batch_score(hyps, refs))


def test_statistics_corpus_and_preset(mtalign: Any) -> None:
    m = mtalign.Meteor()
    stats = m.statistics(["a b c d", "x"], [["a b d c", "a"], ["y"]])
    # a b | d c: 4 matches, 2 chunks (a b), (c), (d)? c↔3, d↔2: chunks (a b) (c) (d) = 3.
    assert stats[:, 1:].tolist() == [[4, 3, 4, 4], [0, 0, 1, 1]]
    res = m.corpus_score(["a b c d", "x"], [["a b d c", "a"], ["y"]])
    assert res.score == pytest.approx(stats[:, 0].mean(), abs=0)
    p = mtalign.Meteor.preset("banerjee-lavie-2005", wordnet=None)
    assert (p.alpha, p.beta, p.gamma) == (0.9, 3.0, 0.5)
    with pytest.raises(mtalign.ConfigError, match="preset"):
        mtalign.Meteor.preset("meteor-1.5")


def test_corpus_from_parts_and_resamples_is_the_mean_score(mtalign: Any) -> None:
    # aggregation = "mean": the corpus score of parts (mtalign score's chunks, Dask
    # partitions) and of bootstrap resamples is column 0 of the mean row, i.e. the mean of
    # the sentence scores; the oracle is nltk's sentence scores, averaged here.
    from mtalign.metrics.partial import combine, corpus_result, partial

    (hyps,), refs = _deen(1, 200)
    m = mtalign.Meteor()
    assert m.aggregation == "mean"
    want = float(np.mean(_nltk(hyps, refs, NoSynonyms())))
    parts = [partial(m, hyps[i:i + 37], refs[i:i + 37]) for i in range(0, len(hyps), 37)]
    got = corpus_result(m, combine(parts))
    assert got.n_sentences == len(hyps)
    assert abs(float(got) - want) <= 1e-12
    assert abs(float(m.corpus_score(hyps, refs)) - want) <= 1e-12
    stats = m.statistics(hyps, refs)
    idx = np.array([[0, 0, 5, 7], [1, 2, 3, 4]])
    resampled = m.scores_from_statistics(stats[idx].mean(axis=1))
    np.testing.assert_allclose(resampled, stats[idx, 0].mean(axis=1), rtol=0, atol=1e-15)


@pytest.mark.parametrize("kw, match", [
    ({"alpha": 1.5}, "alpha"), ({"alpha": -0.1}, "alpha"), ({"beta": -1.0}, "beta"),
    ({"beta": float("inf")}, "beta"), ({"gamma": 1.01}, "gamma"),
    ({"gamma": float("nan")}, "gamma"),
    ({"stages": ()}, "stage"), ({"stages": ("stem", "exact")}, "order"),
    ({"stages": ("exact", "paraphrase")}, "paraphrase"), ({"stages": "exact"}, "stages"),
    ({"tokenize": "char"}, "word tokenizer"), ({"wordnet": 3}, "wordnet"),
])
def test_bad_options_are_named(mtalign: Any, kw: dict[str, Any], match: str) -> None:
    with pytest.raises(mtalign.ConfigError, match=match):
        mtalign.Meteor(**kw)


def test_bad_wordnet_paths_are_named(mtalign: Any, tmp_path: Path, wordnet_dir: str) -> None:
    with pytest.raises(mtalign.ConfigError, match="not a directory"):
        mtalign.Meteor(wordnet=str(tmp_path / "missing"))
    with pytest.raises(mtalign.ConfigError, match="data.noun"):
        mtalign.Meteor(wordnet=str(tmp_path))  # empty directory
    for f in FILES:
        shutil.copyfile(Path(wordnet_dir, f), tmp_path / f)
    (tmp_path / "index.adv").write_text("fast r x 0 1 0 00000500\n")
    with pytest.raises(mtalign.ConfigError, match=r"index\.adv.*line 1"):
        mtalign.Meteor(wordnet=str(tmp_path))
    # Checked even when the synonym stage is off.
    with pytest.raises(mtalign.ConfigError, match="not a directory"):
        mtalign.Meteor(stages=("exact",), wordnet=str(tmp_path / "missing"))


def test_registry_cli_pairwise_orange_rerank(mtalign: Any, wordnet_dir: str) -> None:
    from mtalign import registry

    m, _ = registry.make_metric("meteor")
    assert isinstance(m, mtalign.Meteor)
    (hyps,), refs = _deen(1, 12)
    g = mtalign.Meteor(wordnet=wordnet_dir)
    first = [r[0] for r in refs]
    mat = g.pairwise(hyps, first)
    flat = g.scalar_scores([h for h in hyps for _ in first], [r for _ in hyps for r in first])
    assert np.array_equal(mat.reshape(-1), flat)
    cands = [[h, r[0]] for h, r in zip(hyps, refs, strict=True)]
    res = mtalign.orange(g, cands, refs, n_bootstrap=0)
    assert 0.0 <= res.orange <= 1.0
    picked = mtalign.rerank(g, cands, [r[1] for r in refs])
    want = [int(np.argmax(g.scalar_scores(c, [r[1]] * len(c)))) for c, r in zip(cands, refs,
                                                                                 strict=True)]
    assert list(picked.best) == want


def test_results_do_not_depend_on_thread_count(mtalign: Any, wordnet_dir: str) -> None:
    systems, refs = _deen(2, 1000)
    hyps = systems[0] + systems[1]
    m = mtalign.Meteor(wordnet=wordnet_dir)
    one = m.statistics(hyps, refs + refs, threads=1)
    assert np.array_equal(one, m.statistics(hyps, refs + refs, threads=2))
    assert np.array_equal(one, m.statistics(hyps, refs + refs, threads=3))


def test_score_command_with_wordnet(mtalign: Any, wordnet_dir: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from mtalign.cli import main

    (hyps,), refs = _deen(1, 40)
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    for k in range(2):
        (tmp_path / f"ref{k}").write_text("\n".join(r[k] for r in refs) + "\n",
                                          encoding="utf-8")
    code = main(["score", "-r", str(tmp_path / "ref0"), str(tmp_path / "ref1"), "-i",
                 str(tmp_path / "hyp"), "-m", "meteor", "gtm2", "--wordnet", wordnet_dir])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    want = mtalign.Meteor(wordnet=wordnet_dir).corpus_score(hyps, refs).score
    assert out["scores"]["meteor"]["score"] == want
    assert out["scores"]["gtm2"]["score"] == mtalign.Gtm(2).corpus_score(hyps, refs).score
