"""sacrebleu's tokenizers on optional packages (ja-mecab, ko-mecab, spm / flores101 /
flores200) and ``Bleu(trg_lang=)``, against sacrebleu 2.6.0: BLEU statistics, scores and
signatures equal on the WMT21 en→ja extract (every line of four systems and the reference),
on Korean sentences, and with a SentencePiece model trained here from shipped text and loaded
by sacrebleu's own ``TokenizerSPM`` (its official models are a download, which mtalign
never does)."""

from __future__ import annotations

import shutil
import sys

import numpy as np
import pytest
import wmt_data
from mtalign.metrics import external_tokenizers
from sacrebleu.metrics import BLEU

KOREAN = [
    "오늘은 날씨가 좋습니다.", "저는 학교에 갑니다.", "이 책은 정말 재미있어요!",
    "서울은 한국의 수도입니다.", "내일 회의는 오후 세 시에 시작합니다.",
    "그는 2021년에 Samsung 에서 일했다.", "고양이가 의자 위에서 잠을 잔다.", "",
    "기계 번역의 품질을 평가하는 것은 어렵다.", "우리는 \"BLEU\" 점수를 계산했습니다.",
]
KOREAN_REF = [
    "오늘 날씨가 좋네요.", "나는 학교에 간다.", "이 책은 아주 재미있다!",
    "한국의 수도는 서울이다.", "내일 회의는 오후 3시에 시작한다.", "그는 2021년 삼성에서 일했다.",
    "의자 위에서 고양이가 잔다.",
    "빈 문장", "기계 번역 품질 평가는 어렵다.", "우리는 BLEU 점수를 계산했다.",
]


def assert_same(ours, peer, hyps, refs_streams):
    refs = [list(r) for r in zip(*refs_streams, strict=True)]
    want = np.array(peer._extract_corpus_statistics(hyps, refs_streams), dtype=np.float64)
    got = ours.statistics(hyps, refs)
    order = ours.max_order
    # Rows: hyp_len, ref_len, matches and totals per order (then mtalign's nltk denominators).
    assert np.array_equal(got[:, :2 + 2 * order], want)
    res, sb = ours.corpus_score(hyps, refs), peer.corpus_score(hyps, refs_streams)
    assert res.score == sb.score
    assert ours.signature(len(refs_streams)).split("|")[3] == f"tok:{peer.tokenizer_signature}"


@pytest.mark.parametrize("lowercase", [False, True])
def test_ja_mecab_equals_sacrebleu_on_wmt21_enja(mtalign, lowercase):
    data = wmt_data.load("wmt21_enja_news_extract")
    peer = BLEU(trg_lang="ja", lowercase=lowercase)
    ours = mtalign.Bleu(trg_lang="ja", smooth="exp", lowercase=lowercase)
    assert ours.tokenize == "ja-mecab"
    for hyps in data["hyps"].values():
        assert_same(ours, peer, hyps, [data["refs"]["A"]])
    hyps, refs = data["hyps"]["Illini"][:60], data["refs"]["A"][:60]
    sent = BLEU(trg_lang="ja", effective_order=True)
    want = [sent.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    got = mtalign.Bleu(tokenize="ja-mecab", smooth="exp", effective_order=True)
    assert got.batch_score(hyps, refs).tolist() == want
    assert float(got.sentence_score(hyps[5], refs[5])) == want[5]


def test_ko_mecab_equals_sacrebleu(mtalign):
    ours = mtalign.Bleu(trg_lang="ko", smooth="exp")
    assert ours.tokenize == "ko-mecab"
    assert_same(ours, BLEU(trg_lang="ko"), KOREAN, [KOREAN_REF])
    tok = external_tokenizers.external_tokenizer("ko-mecab", None)
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    peer = TokenizerKoMecab()
    assert [tok(s) for s in KOREAN] == [peer(s) for s in KOREAN]
    assert tok.signature == peer.signature()


def test_trg_lang_picks_sacrebleu_tokenizer(mtalign):
    for lang in ["zh", "ja", "ko", "de", "en", ""]:
        peer = BLEU(trg_lang=lang)
        ours = mtalign.Bleu(trg_lang=lang)
        assert ours.signature().split("|")[2] == f"tok:{peer.tokenizer_signature}"
    # An explicit tokenizer wins, as in sacrebleu.
    assert mtalign.Bleu(trg_lang="zh", tokenize="13a").tokenize == "13a"
    b = mtalign.Bleu(trg_lang="ja")
    assert b == pickle_roundtrip(b) and b.pairwise(["今日は"], ["今日は"]).shape == (1, 1)


def pickle_roundtrip(x):
    import pickle

    return pickle.loads(pickle.dumps(x))


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory):
    """A small unigram SentencePiece model trained here on shipped English text."""
    import sentencepiece as spm
    d = tmp_path_factory.mktemp("spm")
    spm.SentencePieceTrainer.train(input=str(wmt_data.DATA / "tanaka_5k.en"),
                                   model_prefix=str(d / "toy"), vocab_size=300,
                                   character_coverage=1.0, num_threads=1, minloglevel=2)
    return d / "toy.model"


@pytest.mark.parametrize("name", ["spm", "flores101", "flores200"])
def test_spm_equals_sacrebleu_with_the_same_model(mtalign, spm_model, tmp_path, monkeypatch,
                                                  name):
    from sacrebleu.tokenizers import tokenizer_spm

    # sacrebleu loads a model it finds in its cache folder instead of downloading it.
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    (tmp_path / "models").mkdir()
    url = tokenizer_spm.SPM_MODELS[name]["url"]
    shutil.copy(spm_model, tmp_path / "models" / url.rsplit("/", 1)[1])
    peer = BLEU(tokenize=name)
    ours = mtalign.Bleu(tokenize=name, spm_model=spm_model, smooth="exp")
    data = wmt_data.load("wmt21_deen_news")
    streams = [r[:300] for r in data["refs"].values()]
    for system in list(data["hyps"])[:2]:
        assert_same(ours, peer, data["hyps"][system][:300], streams)
    assert ours.signature().split("|")[2] == f"tok:{peer.tokenizer_signature}"


def test_missing_packages_and_models_are_named(mtalign, monkeypatch, tmp_path):
    with pytest.raises(mtalign.ConfigError, match="spm_model="):
        mtalign.Bleu(tokenize="flores200")
    with pytest.raises(mtalign.ConfigError, match="not a file"):
        mtalign.Bleu(tokenize="spm", spm_model=tmp_path / "missing.model")
    (tmp_path / "bad.model").write_text("not a model")
    with pytest.raises(mtalign.ConfigError, match="not a SentencePiece model"):
        mtalign.Bleu(tokenize="spm", spm_model=tmp_path / "bad.model")
    with pytest.raises(mtalign.ConfigError, match="only used with"):
        mtalign.Bleu(spm_model=tmp_path / "bad.model")
    with pytest.raises(mtalign.ConfigError, match="unknown tokenize"):
        mtalign.Bleu(tokenize="ja-juman")
    external_tokenizers.external_tokenizer.cache_clear()
    try:
        monkeypatch.setitem(sys.modules, "MeCab", None)
        monkeypatch.setitem(sys.modules, "mecab_ko", None)
        with pytest.raises(mtalign.ConfigError, match=r"mtalign\[ja\]"):
            mtalign.Bleu(trg_lang="ja")
        with pytest.raises(mtalign.ConfigError, match=r"mtalign\[ko\]"):
            mtalign.Bleu(tokenize="ko-mecab")
    finally:
        monkeypatch.undo()
        external_tokenizers.external_tokenizer.cache_clear()


def test_command_line_trg_lang(mtalign, tmp_path, capsys):
    import json

    from mtalign.cli import main

    data = wmt_data.load("wmt21_enja_news_extract")
    hyps, refs = data["hyps"]["Illini"][:100], data["refs"]["A"][:100]
    (tmp_path / "h.ja").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.ja").write_text("\n".join(refs) + "\n", encoding="utf-8")
    assert main(["score", "-r", str(tmp_path / "r.ja"), "-i", str(tmp_path / "h.ja"),
                 "-m", "bleu", "--trg-lang", "ja"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = BLEU(trg_lang="ja").corpus_score(hyps, [refs])
    assert out["scores"]["bleu"]["score"] == want.score
    assert f"tok:{BLEU(trg_lang='ja').tokenizer_signature}|" in out["signature"]
