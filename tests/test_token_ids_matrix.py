"""Symmetric matrices of token ids (``pairwise(ids)``, ``pairwise_blocks`` with ``None``
pseudo-references, MBR) go to the native matrix, which scores each unordered pair once where
the metric is symmetric (BLEU, ROUGE, WER, PER) and mirrors the other triangle. Their cells
must equal, bit for bit, (1) the text path's matrix of the same ids written as text
(space-joined, a whitespace tokenizer: the independent side) and (2) the flat batch of all
n² pairs of ids (what ``pairwise`` of ids computed before, still its path with
pseudo-references), for groups inline and on the pool, threads 1 and 2, ids straddling 2^15
(BLEU's packed keys) and above 2^31, and metrics without a mirror (TER, GTM, RIBES, NIST,
METEOR)."""

from __future__ import annotations

import mtalign
import numpy as np
import pytest
from mtalign import ConfigError, InputError, TokenIds

WS = "whitespace"
SYMMETRIC = {
    "bleu": mtalign.Bleu(tokenize=WS),
    "bleu-eff-floor": mtalign.Bleu(tokenize=WS, effective_order=True, smooth="floor"),
    "rouge": mtalign.Rouge(["rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4",
                            "rougeLsum"], tokenize=WS),
    "wer": mtalign.Wer(tokenize=WS),
    "per": mtalign.Per(tokenize=WS),
}
ASYMMETRIC = {
    "ter": mtalign.Ter(),
    "gtm": mtalign.Gtm(tokenize=WS),
    "ribes": mtalign.Ribes(tokenize=WS),
    "nist": mtalign.Nist(tokenize=WS),
    "meteor-exact": mtalign.Meteor(stages=["exact"]),
}
METRICS = {**SYMMETRIC, **ASYMMETRIC}
#: 1 and 2 (edge cases), small, and 70 (4,900 cells: past the inline bound, on the pool).
SIZES = [1, 2, 5, 17, 70]


def texts(seqs: list[np.ndarray]) -> list[str]:
    return [" ".join(str(int(x)) for x in s) for s in seqs]


def group(seed: int, n: int, dtype: type = np.int32, base: int = 0) -> list[np.ndarray]:
    """n samples over a small alphabet (so that they share n-grams), some empty, some equal."""
    rng = np.random.default_rng(seed)
    seqs = [(rng.integers(0, 7, size=int(rng.integers(0, 24))) + base).astype(dtype)
            for _ in range(n)]
    if n > 3:
        seqs[3] = seqs[1].copy()  # a repeated sample
    return seqs


def variants(metric: mtalign.Metric) -> tuple[str, ...]:
    return metric.scalar_names()[:3] if isinstance(metric, mtalign.Rouge) else (None,)  # type: ignore[return-value]


@pytest.mark.parametrize("name", list(METRICS))
@pytest.mark.parametrize("n", SIZES)
def test_symmetric_matrices_of_ids_are_the_text_and_flat_matrices(name: str, n: int) -> None:
    metric = METRICS[name]
    for seed, dtype, base in [(n, np.int32, 0), (n + 100, np.uint16, 2**15 - 3),
                              (n + 200, np.int64, 2**40)]:
        seqs = group(seed, n, dtype, base)
        for variant in variants(metric):
            for threads in (1, 2):
                got = metric.pairwise(TokenIds(seqs), variant=variant, threads=threads)
                assert got.shape == (n, n)
                text = metric.pairwise(texts(seqs), variant=variant, threads=threads)
                np.testing.assert_array_equal(got, text)
                # Every n² pair of ids in one flat batch (pseudo-references given).
                flat = metric.pairwise(seqs, TokenIds(seqs), variant=variant, threads=threads)
                np.testing.assert_array_equal(got, flat)


@pytest.mark.parametrize("name", ["bleu", "rouge", "wer", "ter", "nist"])
def test_blocks_and_mbr_of_id_groups(name: str) -> None:
    """GRPO-style groups of samples: pairwise_blocks (groups against themselves, mixed with a
    block against pseudo-references) equals pairwise of each block and the text path; MBR
    picks what it picks on the text."""
    metric = METRICS[name]
    groups = [group(s, k) for s, k in [(1, 4), (2, 1), (3, 9), (4, 70)]]
    pseudo = group(9, 3)
    blocks = [(TokenIds(g), None) for g in groups] + [(groups[0], pseudo)]
    text_blocks = [(texts(g), None) for g in groups] + [(texts(groups[0]), texts(pseudo))]
    for threads in (1, 2):
        got = metric.pairwise_blocks(blocks, threads=threads)
        want = metric.pairwise_blocks(text_blocks, threads=threads)
        assert len(got) == len(want) == 5
        for g, w, (h, r) in zip(got, want, blocks, strict=True):
            np.testing.assert_array_equal(g, w)
            np.testing.assert_array_equal(g, metric.pairwise(h, r, threads=threads))
    for g in groups:
        assert mtalign.mbr(metric, TokenIds(g)).best == mtalign.mbr(metric, texts(g)).best
        np.testing.assert_array_equal(metric.expected_scores(TokenIds(g)),
                                      metric.expected_scores(texts(g)))


def test_a_line_separator_splits_summary_lines_in_matrices() -> None:
    rouge = mtalign.Rouge(["rougeLsum", "rougeL"], tokenize=WS)
    seqs = group(7, 12)
    seqs = [np.where(np.arange(len(s)) % 5 == 4, 99, s).astype(np.int32) for s in seqs]
    as_text = [" ".join("\n" if int(x) == 99 else str(int(x)) for x in s) for s in seqs]
    ids = TokenIds(seqs).with_line_sep(99)
    for variant in ("rougeLsum", "rougeL"):
        np.testing.assert_array_equal(rouge.pairwise(ids, variant=variant),
                                      rouge.pairwise(as_text, variant=variant))
    [got] = rouge.pairwise_blocks([(ids, None)])
    np.testing.assert_array_equal(got, rouge.pairwise(as_text))
    np.testing.assert_array_equal(rouge.expected_scores(ids), rouge.expected_scores(as_text))
    np.testing.assert_array_equal(rouge.expected_scores(ids, ids), rouge.expected_scores(
        as_text, as_text))
    assert mtalign.mbr(rouge, ids).best == mtalign.mbr(rouge, as_text).best


def test_bad_input_to_id_matrices_is_named() -> None:
    bleu = mtalign.Bleu()
    with pytest.raises(InputError, match=r"hyps\[1\] has dtype float64"):
        bleu.pairwise([np.array([1, 2]), np.array([1.5])])
    with pytest.raises(InputError, match=r"hyps is a 2-D array: say where each row ends"):
        bleu.pairwise(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(InputError, match=r"blocks\[1\]\[0\]"):
        bleu.pairwise_blocks([(TokenIds([np.array([1])]), None), (7, None)])
    with pytest.raises(InputError, match=r"blocks\[1\]: hyps\[0\] has dtype float64"):
        bleu.pairwise_blocks([(TokenIds([np.array([1])]), None), ([np.array([1.5])], None)])
    # A list of ints where ids go reads as a list of tokens, which are strings.
    with pytest.raises(InputError, match=r"blocks\[1\]: hyps\[0\]\[0\] is not a str"):
        bleu.pairwise_blocks([(TokenIds([np.array([1])]), None), ([[1, 2]], None)])
    # A padded 2-D array read row by row would score its pads: refused with the way out.
    padded = np.array([[4, 5, 0], [6, 0, 0]], dtype=np.int32)
    group_ = TokenIds([np.array([4, 5]), np.array([6])])
    for call in (lambda: bleu.pairwise_blocks([(group_, None), (padded, None)]),
                 lambda: bleu.pairwise_blocks([(group_, None), (group_, padded)])):
        with pytest.raises(InputError, match=r"blocks\[1\]: (hyps|pseudo_refs) is a 2-D "
                                             r"array: say where each row ends"):
            call()
    with pytest.raises(InputError, match=r"pseudo_refs is a 2-D array: .*from_padded"):
        bleu.pairwise(group_, padded)
    with pytest.raises(InputError, match=r"hyps is a 2-D array: .*from_padded"):
        mtalign.mbr(bleu, padded)
    with pytest.raises(InputError, match="different line separators"):
        mtalign.Rouge("rougeLsum").pairwise_blocks(
            [(TokenIds([np.array([1])]).with_line_sep(5), None),
             (TokenIds([np.array([1])]).with_line_sep(6), None)])
    with pytest.raises(ConfigError, match="token ids"):
        mtalign.Chrf().pairwise(TokenIds([np.array([1, 2])]))
