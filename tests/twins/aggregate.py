"""Reference aggregation (Vamvas & Sennrich 2024, "Linear-time minimum Bayes risk decoding
with reference aggregation") from its definition, on sacrebleu's own n-gram extraction and
score functions: the samples' n-gram count vectors are averaged (weights summing to 1), and
each hypothesis is scored once against that average, matches being min(hypothesis count,
mean count)."""

from __future__ import annotations

from collections import Counter

import sacrebleu.metrics.bleu as sacrebleu_bleu
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.helpers import (
    extract_all_char_ngrams,
    extract_all_word_ngrams,
    extract_word_ngrams,
)
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a


def _mean(counters: list[Counter], weights: list[float]) -> dict:
    mean: dict = {}
    for c, w in zip(counters, weights, strict=True):
        for g, k in c.items():
            mean[g] = mean.get(g, 0.0) + w * k
    return mean


def _matches(hyp: Counter, mean: dict) -> float:
    return sum(min(float(k), mean[g]) for g, k in hyp.items() if g in mean)


def aggregate_chrf(hyps: list[str], samples: list[str], weights: list[float] | None = None,
                   word_order: int = 0) -> list[float]:
    """chrF (sacrebleu's, default options) of each hypothesis against the mean sample."""
    chrf = CHRF(word_order=word_order)
    w = weights or [1.0 / len(samples)] * len(samples)

    def grams(s: str) -> list[Counter]:
        out = extract_all_char_ngrams(s, chrf.char_order, chrf.whitespace)
        words = chrf._remove_punctuation(s)
        return out + [extract_word_ngrams(words, n) for n in range(1, word_order + 1)]

    per_sample = [grams(s) for s in samples]
    orders = len(per_sample[0])
    means = [_mean([p[k] for p in per_sample], w) for k in range(orders)]
    totals = [sum(wj * sum(p[k].values()) for p, wj in zip(per_sample, w, strict=True))
              for k in range(orders)]
    scores = []
    for h in hyps:
        stats: list[float] = []
        for k, hg in enumerate(grams(h)):
            stats += [sum(hg.values()) if totals[k] > 0 else 0, totals[k], _matches(hg, means[k])]
        scores.append(chrf._compute_f_score(stats))
    return scores


def aggregate_bleu(hyps: list[str], samples: list[str], weights: list[float] | None = None,
                   max_order: int = 4) -> list[float]:
    """Sentence BLEU (13a, add-one smoothing) of each hypothesis against the mean sample;
    the reference length is the mean sample length."""
    tok = Tokenizer13a()
    w = weights or [1.0 / len(samples)] * len(samples)
    sample_grams = [extract_all_word_ngrams(tok(s), 1, max_order) for s in samples]
    mean = _mean([g for g, _ in sample_grams], w)
    ref_len = sum(wj * n for (_, n), wj in zip(sample_grams, w, strict=True))
    scores = []
    for h in hyps:
        hg, hyp_len = extract_all_word_ngrams(tok(h), 1, max_order)
        correct = [0.0] * max_order
        total = [max(0, hyp_len + 1 - n) for n in range(1, max_order + 1)]
        for g, k in hg.items():
            if g in mean:
                correct[len(g) - 1] += min(float(k), mean[g])
        scores.append(_compute_bleu(correct, total, hyp_len, ref_len, max_order))
    return scores


class _Score:
    """Stands in for sacrebleu's BLEUScore, whose repr formats lengths as ints (the mean
    sample length is not one): sacrebleu's compute_bleu is used as it is."""

    def __init__(self, score: float, *_: object) -> None:
        self.score = score


def _compute_bleu(correct: list[float], total: list[int], sys_len: int, ref_len: float,
                  max_order: int) -> float:
    real = sacrebleu_bleu.BLEUScore
    sacrebleu_bleu.BLEUScore = _Score  # type: ignore[misc, assignment]
    try:
        return float(BLEU.compute_bleu(correct, list(total), sys_len, ref_len,  # type: ignore[arg-type]
                                       smooth_method="add-k", smooth_value=1,
                                       max_ngram_order=max_order).score)
    finally:
        sacrebleu_bleu.BLEUScore = real  # type: ignore[misc]
