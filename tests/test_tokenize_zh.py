"""sacrebleu's ``zh`` tokenizer and ``char`` tokenizer: token-for-token equality with
sacrebleu on every line of the WMT21 extracts (German, English, Chinese, Japanese), and BLEU
with ``tokenize="zh"`` equal to sacrebleu's on WMT21 en-zh."""

from __future__ import annotations

import pytest
import wmt_data

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar  # noqa: E402
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh  # noqa: E402

PEERS = {"zh": TokenizerZh(), "char": TokenizerChar()}
EDGE = ["", "  ", ".5 a", "中文。English, 1,000.5", "“引号”—破折号…", "\u2000x\u2001y\u2a6d\u2a6e",
        "ＡＢＣ１２３", "㐀䶵䶶", "𠀀 CJK Ext. B", "a\u3000b", "5-6 年", "(括号)", "x\x1cy"]


def sacre_tokens(name: str, text: str, lowercase: bool) -> list[str]:
    # What sacrebleu's BLEU does: lower(), rstrip(), tokenize, split on whitespace.
    if lowercase:
        text = text.lower()
    return PEERS[name](text.rstrip()).split()  # type: ignore[no-any-return]


@pytest.mark.parametrize("dataset", wmt_data.SETS)
def test_zh_matches_sacrebleu_on_real_text(mtalign, dataset):
    lines = list(dict.fromkeys(wmt_data.all_lines(dataset))) + EDGE
    for lowercase in (False, True):
        bad = [line for line in lines
               if mtalign.tokenize(line, tokenize="zh", lowercase=lowercase)
               != sacre_tokens("zh", line, lowercase)]
        assert not bad, f"{len(bad)} lines differ, first: {bad[0]!r}"


@pytest.mark.parametrize("dataset", wmt_data.SETS)
def test_char_matches_sacrebleu_on_real_text(mtalign, dataset):
    # mtalign's char tokenizer drops Unicode White_Space; sacrebleu's split() also drops
    # U+001C..U+001F, which none of these lines contain.
    lines = list(dict.fromkeys(wmt_data.all_lines(dataset)))
    assert not any(c in line for line in lines for c in "\x1c\x1d\x1e\x1f")
    for lowercase in (False, True):
        bad = [line for line in lines
               if mtalign.tokenize(line, tokenize="char", lowercase=lowercase)
               != sacre_tokens("char", line, lowercase)]
        assert not bad, f"{len(bad)} lines differ, first: {bad[0]!r}"


def test_bleu_zh_equals_sacrebleu_on_en_zh(mtalign):
    data = wmt_data.load("wmt21_enzh_news_extract")
    streams = list(data["refs"].values())
    refs = [list(seg) for seg in zip(*streams, strict=True)]
    peer, ours = BLEU(tokenize="zh"), mtalign.Bleu(smooth="exp", tokenize="zh")
    for system, hyps in data["hyps"].items():
        want, got = peer.corpus_score(hyps, streams), ours.corpus_score(hyps, refs)
        assert got.score == want.score and got.counts == want.counts, system
