"""``compat="rouge_score"`` against rouge-score 0.1.2 itself, on real English MT output.

``tests/data/en_pairs.json.gz`` holds WMT21 de-en, zh-en and ja-en references and system
outputs (see tests/data/README.md): 11,906 (system output, reference) pairs, 3,000 outputs with
two references, and 1,000 multi-line texts made by joining 3 consecutive segments with
newlines (some with blank lines), which is where ``rougeLsum`` differs from ``rougeL``.
rouge1, rouge2, rougeL and rougeLsum, with and without stemming, single-reference (``score``)
and multi-reference (``score_multi``) must equal rouge-score's numbers to 1e-12 (they are in fact
computed with the same operations, so they are equal).

The rouge-score side is slow (pure Python, nltk stemming per token occurrence), so its results
are computed once per module; nltk's stem is memoised (a pure function) to save time.
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from rouge_score import rouge_scorer

DATA = Path(__file__).resolve().parent / "data" / "en_pairs.json.gz"
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TOL = 1e-12

with gzip.open(DATA, "rt", encoding="utf-8") as _fh:
    SETS = json.load(_fh)


def _single_pairs() -> tuple[list[str], list[str]]:
    hyps, refs = [], []
    for data in SETS.values():
        for ref in data["refs"].values():
            for hyp in data["hyps"].values():
                hyps += hyp
                refs += ref
    return hyps, refs


def _multi_pairs() -> tuple[list[str], list[list[str]]]:
    data = SETS["wmt21_deen_news"]
    a, b = data["refs"]["A"], data["refs"]["B"]
    hyps, refs = [], []
    for hyp in data["hyps"].values():
        hyps += hyp
        refs += [[x, y] for x, y in zip(a, b, strict=True)]
    return hyps, refs


def _multiline_pairs() -> tuple[list[str], list[list[str]]]:
    """Texts of 3 segments, one a line; every 7th has a blank line, every 5th a final '\\n'."""
    data = SETS["wmt21_deen_news"]
    hyps, refs = [], []

    def join(lines: list[str], k: int) -> str:
        sep = "\n\n" if k % 7 == 0 else "\n"
        return sep.join(lines) + ("\n" if k % 5 == 0 else "")

    for hyp in data["hyps"].values():
        for k, i in enumerate(range(0, 999, 3)):
            hyps.append(join(hyp[i:i + 3], k))
            refs.append([join(data["refs"][r][i:i + 3], k + j) for j, r in enumerate("AB")])
    return hyps, refs


SINGLE = _single_pairs()
MULTI = _multi_pairs()
MULTILINE = _multiline_pairs()


def _scorer(stem: bool) -> rouge_scorer.RougeScorer:
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    stemmer = scorer._tokenizer._stemmer  # noqa: SLF001 (memoise the pure nltk stem)
    if stemmer is not None:
        stemmer.stem = functools.lru_cache(maxsize=None)(stemmer.stem)
    return scorer


def _as_array(scores: list[dict], kind: str) -> np.ndarray:
    return np.array([[tuple(s[kind]) for s in scores]], dtype=float)[0]


@functools.cache
def reference(stem: bool, which: str) -> dict[str, np.ndarray]:
    """rouge-score's (n, 3) P, R, F per type for a pair set."""
    scorer = _scorer(stem)
    if which == "single":
        hyps, refs = SINGLE
        scores = [scorer.score(r, h) for h, r in zip(hyps, refs, strict=True)]
    else:
        hyps, refs2 = MULTI if which == "multi" else MULTILINE
        scores = [scorer.score_multi(r, h) for h, r in zip(hyps, refs2, strict=True)]
    return {t: _as_array(scores, t) for t in TYPES}


def test_sizes():
    assert len(SINGLE[0]) >= 10_000
    assert len(MULTI[0]) == 3000
    assert sum("\n" in h for h in MULTILINE[0]) == len(MULTILINE[0])


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("which", ["single", "multi", "multiline"])
def test_rouge_score_parity(mtalign, stem, which):
    hyps, refs = {"single": SINGLE, "multi": MULTI, "multiline": MULTILINE}[which]
    got = mtalign.Rouge(TYPES, compat="rouge_score", stem=stem).batch_score(hyps, refs)
    want = reference(stem, which)
    for t in TYPES:
        diff = np.abs(got[t] - want[t])
        worst = int(diff.max(axis=1).argmax())
        assert diff.max() <= TOL, (t, worst, hyps[worst], refs[worst], got[t][worst],
                                   want[t][worst])


def test_multiline_rougelsum_differs_from_rougel():
    """The multi-line set exercises the union LCS (else rougeLsum == rougeL)."""
    want = reference(False, "multiline")
    assert (np.abs(want["rougeLsum"] - want["rougeL"]).max(axis=1) > 1e-6).mean() > 0.5


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_shim_is_a_drop_in(stem):
    """mtalign.compat.rouge_score.rouge_scorer gives rouge-score's Score objects."""
    from mtalign.compat.rouge_score import rouge_scorer as shim

    ours = shim.RougeScorer(TYPES, use_stemmer=stem)
    theirs = _scorer(stem)
    hyps, refs = SINGLE
    for h, r in list(zip(hyps, refs, strict=True))[::40]:
        a, b = ours.score(r, h), theirs.score(r, h)
        assert a.keys() == b.keys()
        for t in TYPES:
            assert a[t] == b[t] and type(a[t]).__name__ == "Score"
            assert a[t]._fields == b[t]._fields
    hyps, refs2 = MULTILINE
    for h, rs in list(zip(hyps, refs2, strict=True))[::20]:
        a, b = ours.score_multi(rs, h), theirs.score_multi(rs, h)
        for t in TYPES:
            assert np.allclose(tuple(a[t]), tuple(b[t]), rtol=0, atol=TOL)
