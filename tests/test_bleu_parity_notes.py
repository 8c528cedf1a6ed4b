"""The BLEU parity notes of issue 14, each checked against the peer it talks about.

* ``Bleu(smooth="floor", smooth_value=0)`` (and ``"add-k"`` with 0) are accepted, as sacrebleu
  accepts them, and score as sacrebleu does.
* nltk's ``corpus_bleu`` applies smoothing methods 5-7 with the LAST sentence's hypothesis (a
  loop variable left over), so its result depends on sentence order; mtalign computes them
  from summed statistics (order-independent). The README quotes the numbers checked here.
* nltk's unsmoothed ``corpus_bleu`` (no smoothing function) differs from ``smooth="none"``: a
  hypothesis shorter than n adds 1 to the order-n denominator (nltk's ``max(1, count)``), and
  an order without matches gives ``sys.float_info.min`` instead of 0. The first is exactly
  reproduced from ``Bleu.statistics()`` by using the denominators columns as totals.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

DATA = Path(__file__).resolve().parent / "data"
HYPS = (DATA / "wmt21_deen_hyp.Facebook-AI.en").read_text("utf-8").splitlines()
REFS = (DATA / "wmt21_deen_ref.A.en").read_text("utf-8").splitlines()
SHORT = ["the cat", "a dog barked", "yes", "", "Hello", "x y z w"]
SHORT_REFS = ["the cat sat", "a dog barked loudly", "yes indeed", "a b", "Hello there", "x y z w"]
TOK = Tokenizer13a()


def _tok(text: str) -> list[str]:
    return TOK(text.rstrip()).split()


def _nltk(hyps, refs, method=None):
    fn = getattr(SmoothingFunction(), f"method{method}") if method else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return 100 * corpus_bleu([[_tok(r)] for r in refs], [_tok(h) for h in hyps],
                                 smoothing_function=fn)


@pytest.mark.parametrize("smooth", ["floor", "add-k"])
@pytest.mark.parametrize("effective", [False, True])
def test_zero_smooth_value_like_sacrebleu(mtalign, smooth, effective):
    ours = mtalign.Bleu(smooth=smooth, smooth_value=0, effective_order=effective)
    peer = BLEU(smooth_method=smooth, smooth_value=0, effective_order=effective)
    hyps, refs = HYPS[:150] + SHORT, REFS[:150] + SHORT_REFS
    got = ours.batch_score(hyps, refs)
    want = [peer.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert got.tolist() == want
    assert ours.corpus_score(hyps, refs).score == peer.corpus_score(hyps, [refs]).score
    assert "[0.00]" in ours.signature()
    # 0 differs from the default value somewhere (the option is not ignored).
    default = mtalign.Bleu(smooth=smooth, effective_order=effective).batch_score(hyps, refs)
    assert (default != got).any()
    with pytest.raises(mtalign.ConfigError):
        mtalign.Bleu(smooth="method1", smooth_value=0)


@pytest.mark.parametrize("method, forward, backward, ours", [
    (5, 40.3587, 43.3155, 42.6901), (6, 1695.6844, 1828.1707, 33.8632),
    (7, 40.3587, 43.3155, 42.6901)])
def test_nltk_corpus_methods_5_to_7_use_the_last_sentence(mtalign, method, forward, backward,
                                                          ours):
    assert _nltk(HYPS, REFS, method) == pytest.approx(forward, abs=1e-4)
    assert _nltk(HYPS[::-1], REFS[::-1], method) == pytest.approx(backward, abs=1e-4)
    b = mtalign.Bleu(smooth=f"method{method}")
    score = b.corpus_score(HYPS, REFS).score
    assert score == pytest.approx(ours, abs=1e-4)
    assert b.corpus_score(HYPS[::-1], REFS[::-1]).score == pytest.approx(score, abs=1e-12)


def test_nltk_unsmoothed_default_vs_none(mtalign):
    b = mtalign.Bleu(smooth="none")
    nltk_score = _nltk(HYPS, REFS)
    assert nltk_score == pytest.approx(33.86191, abs=1e-5)
    assert b.corpus_score(HYPS, REFS).score == pytest.approx(33.86442, abs=1e-5)
    # nltk's number from mtalign's statistics: totals := nltk's denominators max(1, total).
    stats = b.statistics(HYPS, REFS)
    k = (stats.shape[1] - 2) // 3
    nltk_like = stats.copy()
    nltk_like[:, 2 + k:2 + 2 * k] = stats[:, 2 + 2 * k:2 + 3 * k]
    assert b.corpus_from_statistics(nltk_like).score == pytest.approx(nltk_score, rel=1e-12)
    assert (stats[:, 2 + k:2 + 2 * k] != nltk_like[:, 2 + k:2 + 2 * k]).any()
    # An order without any match: nltk gives a tiny positive number, smooth="none" 0.
    assert 0 < _nltk(SHORT[:3], SHORT_REFS[:3]) < 1e-70
    assert b.corpus_score(SHORT[:3], SHORT_REFS[:3]).score == 0.0
    assert np.isfinite(nltk_score)
