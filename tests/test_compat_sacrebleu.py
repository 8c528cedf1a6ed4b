"""mtalign.compat.sacrebleu against sacrebleu 2.6.0 itself, on WMT21 en-de segments
(tests/data, see its README): every field and every printed form of BLEU, chrF and TER
scores, signatures (version field aside), bootstrap intervals and paired tests."""

from __future__ import annotations

import os

import mtalign.compat.sacrebleu as shim
import numpy as np
import pytest
import wmt_data

sacrebleu = pytest.importorskip("sacrebleu")
real_significance = pytest.importorskip("sacrebleu.significance")

N = 150


def _version(text: str) -> str:
    """The signature with our version field written as sacrebleu's."""
    assert shim.__version__.startswith("2.6.0+mtalign-")
    return text.replace(shim.__version__, "2.6.0")


@pytest.fixture(scope="module")
def data():
    d = wmt_data.load("wmt21_ende_news")
    refs = [d["refs"][k][:N] for k in ("A", "C")]
    hyps = {k: d["hyps"][k][:N] for k in ("Facebook-AI", "Online-W", "UEdin")}
    # short and empty segments, where effective order and smoothing matter
    hyps["short"] = [" ".join(h.split()[:3]) if i % 3 else "" for i, h in
                     enumerate(hyps["UEdin"])]
    return refs, hyps


def _same_score(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__
    assert ours.name == theirs.name
    assert ours.score == pytest.approx(theirs.score, rel=1e-12, abs=1e-12)
    for field in ("counts", "totals", "sys_len", "ref_len", "num_edits"):
        if hasattr(theirs, field):
            assert getattr(ours, field) == getattr(theirs, field), field
    for field in ("precisions", "bp", "ratio", "ref_length"):
        if hasattr(theirs, field):
            assert np.allclose(getattr(ours, field), getattr(theirs, field), rtol=1e-12)
    for width in (0, 1, 2, 4):
        assert ours.format(width) == theirs.format(width)
        assert ours.format(width, score_only=True) == theirs.format(width, score_only=True)


BLEU_OPTIONS = [{}, {"tokenize": "none"}, {"tokenize": "intl"}, {"tokenize": "char"},
                {"tokenize": "zh"}, {"lowercase": True}, {"smooth_method": "none"},
                {"smooth_method": "floor"}, {"smooth_method": "floor", "smooth_value": 0.5},
                {"smooth_method": "add-k"}, {"smooth_method": "add-k", "smooth_value": 2},
                {"effective_order": True}, {"max_ngram_order": 2},
                {"max_ngram_order": 6, "effective_order": True}]


@pytest.mark.parametrize("options", BLEU_OPTIONS)
def test_bleu_corpus_and_sentence(data, options):
    refs, hyps = data
    ours, theirs = shim.BLEU(**options), sacrebleu.BLEU(**options)
    for h in hyps.values():
        _same_score(ours.corpus_score(h, refs), theirs.corpus_score(h, refs))
    assert _version(str(ours.get_signature())) == _version(str(theirs.get_signature()))
    assert _version(ours.get_signature().format(True)) == \
        _version(theirs.get_signature().format(True))
    for i in range(0, N, 7):
        r = [refs[0][i], refs[1][i]]
        _same_score(ours.sentence_score(hyps["short"][i], r),
                    theirs.sentence_score(hyps["short"][i], r))
        _same_score(ours.sentence_score(hyps["UEdin"][i], r[:1]),
                    theirs.sentence_score(hyps["UEdin"][i], r[:1]))


CHRF_OPTIONS = [{}, {"word_order": 2}, {"char_order": 4, "beta": 1}, {"lowercase": True},
                {"whitespace": True}, {"eps_smoothing": True}]
TER_OPTIONS = [{}, {"normalized": True}, {"no_punct": True}, {"case_sensitive": True},
               {"normalized": True, "asian_support": True}]


@pytest.mark.parametrize("cls, options", [("CHRF", o) for o in CHRF_OPTIONS]
                         + [("TER", o) for o in TER_OPTIONS])
def test_chrf_ter_corpus_and_sentence(data, cls, options):
    refs, hyps = data
    ours, theirs = getattr(shim, cls)(**options), getattr(sacrebleu, cls)(**options)
    for h in hyps.values():
        _same_score(ours.corpus_score(h, refs), theirs.corpus_score(h, refs))
    assert _version(str(ours.get_signature())) == _version(str(theirs.get_signature()))
    for i in range(0, N, 11):
        r = [refs[0][i], refs[1][i]]
        _same_score(ours.sentence_score(hyps["short"][i], r),
                    theirs.sentence_score(hyps["short"][i], r))


def test_compat_functions(data):
    refs, hyps = data
    h = hyps["Online-W"]
    for name in ("corpus_bleu", "corpus_chrf", "corpus_ter", "raw_corpus_bleu"):
        _same_score(getattr(shim, name)(h, refs), getattr(sacrebleu, name)(h, refs))
    for name in ("sentence_bleu", "sentence_chrf", "sentence_ter"):
        _same_score(getattr(shim, name)(h[3], [refs[0][3]]),
                    getattr(sacrebleu, name)(h[3], [refs[0][3]]))


def test_cached_references_and_variable_counts(data):
    refs, hyps = data
    # None placeholders: a variable number of references per segment ("nrefs:var")
    ragged = [refs[0], [r if i % 2 else None for i, r in enumerate(refs[1])]]
    for cls in ("BLEU", "CHRF", "TER"):
        ours = getattr(shim, cls)(references=ragged)
        theirs = getattr(sacrebleu, cls)(references=ragged)
        _same_score(ours.corpus_score(hyps["UEdin"], None),
                    theirs.corpus_score(hyps["UEdin"], None))
        assert _version(str(ours.get_signature())) == _version(str(theirs.get_signature()))


@pytest.mark.parametrize("cls", ["BLEU", "CHRF", "TER"])
def test_bootstrap_confidence(data, cls):
    refs, hyps = data
    ours = getattr(shim, cls)().corpus_score(hyps["Facebook-AI"], refs, n_bootstrap=200)
    theirs = getattr(sacrebleu, cls)().corpus_score(hyps["Facebook-AI"], refs, n_bootstrap=200)
    assert (ours._mean, ours._ci) == (theirs._mean, theirs._ci)
    assert ours.format(2, is_json=True, signature="a:b") == \
        theirs.format(2, is_json=True, signature="a:b")


@pytest.mark.parametrize("test_type, n", [("bs", 300), ("ar", 300)])
def test_paired_tests_every_metric(data, test_type, n, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    refs, hyps = data
    systems = [(k, v) for k, v in hyps.items()]
    out = {}
    for mod, sig in ((shim, shim.significance), (sacrebleu, real_significance)):
        metrics = {"BLEU": mod.BLEU(references=refs), "chrF2": mod.CHRF(references=refs),
                   "TER": mod.TER(references=refs)}
        out[mod] = sig.PairedTest(systems, metrics, None, test_type, n,
                                  n_ar_confidence=100 if test_type == "ar" else -1)()
    (our_sigs, ours), (their_sigs, theirs) = out[shim], out[sacrebleu]
    assert ours.keys() == theirs.keys()
    for metric in ("BLEU", "chrF2", "TER"):
        assert _version(str(our_sigs[metric])) == _version(str(their_sigs[metric]))
        for a, b in zip(ours[metric], theirs[metric], strict=True):
            assert repr(a) == repr(b)  # every field, to the last digit
    assert os.environ["SACREBLEU_SEED"] == "7"


@pytest.mark.parametrize("name", ["flores101", "flores200"])
def test_spm_models_from_sacrebleus_cache(data, tmp_path, monkeypatch, name):
    """sacrebleu's spm/flores tokenizers read the model sacrebleu keeps in $SACREBLEU/models
    (a small model trained here stands in for it); without it, one error naming the path."""
    import shutil

    import sentencepiece as spm
    from sacrebleu.tokenizers import tokenizer_spm

    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    from mtalign import ConfigError

    with pytest.raises(ConfigError, match=str(tmp_path / "models")):
        shim.BLEU(tokenize=name)
    spm.SentencePieceTrainer.train(input=str(wmt_data.DATA / "tanaka_5k.en"),
                                   model_prefix=str(tmp_path / "toy"), vocab_size=300,
                                   character_coverage=1.0, num_threads=1, minloglevel=2)
    (tmp_path / "models").mkdir()
    url = tokenizer_spm.SPM_MODELS[name]["url"]
    shutil.copy(tmp_path / "toy.model", tmp_path / "models" / url.rsplit("/", 1)[1])
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    refs, hyps = data
    ours, theirs = shim.BLEU(tokenize=name), sacrebleu.BLEU(tokenize=name)
    _same_score(ours.corpus_score(hyps["UEdin"], refs), theirs.corpus_score(hyps["UEdin"], refs))
    assert _version(str(ours.get_signature())) == _version(str(theirs.get_signature()))
