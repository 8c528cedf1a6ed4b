"""sacrebleu's 13a and intl tokenizers: token-for-token equality with sacrebleu on every
reference and system output of the WMT21 extracts (German, English, Chinese, Japanese)."""

from __future__ import annotations

import hypothesis
import hypothesis.strategies as st
import pytest
import wmt_data

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International  # noqa: E402

PEERS = {"13a": Tokenizer13a(), "intl": TokenizerV14International()}


def sacre_tokens(name: str, text: str, lowercase: bool) -> list[str]:
    # What sacrebleu's BLEU does: lower(), rstrip(), tokenize, split on whitespace.
    if lowercase:
        text = text.lower()
    return PEERS[name](text.rstrip()).split()


@pytest.mark.parametrize("tok", ["13a", "intl"])
@pytest.mark.parametrize("dataset", wmt_data.SETS)
def test_real_text_matches_sacrebleu(mtalign, tok, dataset):
    lines = list(dict.fromkeys(wmt_data.all_lines(dataset)))
    assert len(lines) > 2000
    for lowercase in (False, True):
        bad = [line for line in lines
               if mtalign.tokenize(line, tokenize=tok, lowercase=lowercase)
               != sacre_tokens(tok, line, lowercase)]
        assert not bad, f"{len(bad)} lines differ, first: {bad[0]!r}"


EDGE = [
    "", "   ", "a.,b", "x...", "5.,6", "1.-2", "&amp;lt; &quot;x&quot; &AMP;", "foo-\n",
    "a<skipped>b", "Year 2021.", "Year 2021. ", "1,000.5 €x", "„Hallo“, sagte er.",
    "a\x1cb\x1fc\x85d", "tab\there", "(3+4)*2=14", "e-mail: x@y.z!", "ΣΑΣ. Ok", "İstanbul",
    "10-15 km", "-5.5", "~`^_|{}[]", "「東京」は、日本の首都です。", "안녕하세요, 세계!",
    "١٢٣٫٤ and ٥٦", "Ⅻ. Kapitel", "emoji 😀!", "dash—em – en", "'quoted' \"double\"",
]


@pytest.mark.parametrize("tok", ["13a", "intl"])
@pytest.mark.parametrize("text", EDGE)
def test_edge_cases_match_sacrebleu(mtalign, tok, text):
    for lowercase in (False, True):
        assert (mtalign.tokenize(text, tokenize=tok, lowercase=lowercase)
                == sacre_tokens(tok, text, lowercase))


def test_rouge_accepts_13a(mtalign):
    r = mtalign.Rouge("rouge1", tokenize="13a", lowercase=False)
    # 13a keeps "It's" whole and splits "world!" -> "world" "!"
    assert r.sentence_score("It's world!", "It's world")["rouge1"].recall == 1.0


# Pieces of adversarial 13a input for the one-scan tokenizer: runs of periods and commas
# beside digits, dashes after digits, symbols, the replacements' patterns (whole, cut,
# cased), Python whitespace (ASCII and not), non-ASCII letters, digits and punctuation.
PIECES = [
    "a", "B", "7", "0", "12", ".", ",", "-", "--", " ", "\t", "\n", "\x1c", "'", '"', "(",
    "$", "/", "@", "_", "~", "{", "^", "+", ":", "?", "<", ">", "&", "&quot;", "&amp;",
    "&lt;", "&gt;", "&QUOT;", "&amp", "<skipped>", "<SKIPPED>", "-\n", "é", "É", "Σ", "İ",
    "’", "…", "€", "\x85", "\xa0", "\u2000", "\u200b", "\u2028", "\u3000", "中", "٣",
]


@hypothesis.settings(max_examples=1500, deadline=None)
@hypothesis.given(pieces=st.lists(st.sampled_from(PIECES), max_size=24),
                  lowercase=st.booleans())
def test_13a_adversarial_text_matches_sacrebleu(mtalign, pieces, lowercase):
    text = "".join(pieces)
    assert (mtalign.tokenize(text, tokenize="13a", lowercase=lowercase)
            == sacre_tokens("13a", text, lowercase))
