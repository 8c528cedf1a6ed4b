"""Corpus results of token ids scored in parts (mtalign.metrics.partial: what mtalign.dask
and streaming reduce) are those of one ``corpus_score`` call over the same ids: the same
numbers and the same signature, which says ``tok:ids`` (ids have no text tokenizer). The
independent side is the one-call result (its ``tok:ids`` is checked against the literal
signature in test_token_ids.py); text parts keep their tokenizer's name."""

from __future__ import annotations

import mtalign
import numpy as np
import pytest
from mtalign import InputError, TokenIds
from mtalign.metrics.partial import combine, corpus_result, from_statistics, partial

METRICS = [mtalign.Bleu(), mtalign.Bleu(tokenize="whitespace", smooth="floor"),
           mtalign.Rouge(["rougeL", "rouge2"]), mtalign.Wer(), mtalign.Per(), mtalign.Ter(),
           mtalign.Ribes()]


def _batch(seed: int, n: int, n_refs: int) -> tuple[list[np.ndarray], list[list[np.ndarray]]]:
    rng = np.random.default_rng(seed)

    def seq() -> np.ndarray:
        return rng.integers(0, 10, size=int(rng.integers(0, 20))).astype(np.int64)

    return [seq() for _ in range(n)], [[seq() for _ in range(n_refs)] for _ in range(n)]


def _texts(seqs: list[np.ndarray]) -> list[str]:
    return [" ".join(str(int(x)) for x in s) for s in seqs]


@pytest.mark.parametrize("metric", METRICS, ids=repr)
@pytest.mark.parametrize("n_refs", [1, 2])
def test_parts_of_ids_give_the_one_call_result(metric: mtalign.Metric, n_refs: int) -> None:
    hyps, refs = _batch(11 + n_refs, 40, n_refs)
    if n_refs == 1:
        one = metric.corpus_score(TokenIds(hyps), TokenIds([r[0] for r in refs]))
        parts = [partial(metric, TokenIds(hyps[a:b]), TokenIds([r[0] for r in refs[a:b]]))
                 for a, b in [(0, 7), (7, 7), (7, 30), (30, 40)]]
    else:
        one = metric.corpus_score(hyps, refs)
        parts = [partial(metric, hyps[a:b], refs[a:b]) for a, b in [(0, 13), (13, 40)]]
    assert one.signature.count("tok:ids") == 1
    got = corpus_result(metric, combine(parts))
    assert got.signature == one.signature
    assert got.n_sentences == one.n_sentences == 40
    if metric.aggregation == "sum":
        assert float(got) == float(one)
    else:
        assert float(got) == pytest.approx(float(one), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("metric", METRICS, ids=repr)
def test_text_parts_keep_their_tokenizer(metric: mtalign.Metric) -> None:
    hyps, refs = _batch(5, 20, 1)
    h, r = _texts(hyps), _texts([x[0] for x in refs])
    got = corpus_result(metric, combine([partial(metric, h[:9], r[:9]),
                                         partial(metric, h[9:], r[9:])]))
    want = metric.corpus_score(h, r).signature
    assert got.signature == want and "tok:ids" not in want


def test_parts_of_ids_and_of_text_do_not_combine() -> None:
    bleu = mtalign.Bleu()
    ids = partial(bleu, [np.array([1, 2, 3])], [np.array([1, 2])])
    text = partial(bleu, ["1 2 3"], ["1 2"])
    assert ids.inputs == frozenset(["ids"]) and text.inputs == frozenset(["text"])
    with pytest.raises(InputError, match="from token ids and from text"):
        corpus_result(bleu, combine([ids, text]))


def test_rows_without_their_references_sign_as_before() -> None:
    """Statistics given without references say nothing of the input: the metric's own
    signature, no nrefs (as corpus_from_statistics)."""
    bleu = mtalign.Bleu()
    stats = bleu.statistics(TokenIds([np.array([1, 2, 3])]), TokenIds([np.array([1, 2])]))
    got = corpus_result(bleu, from_statistics(bleu, stats))
    assert got.signature == bleu.signature()


def test_bad_parts_of_ids_are_input_errors_naming_the_item() -> None:
    bleu = mtalign.Bleu()
    with pytest.raises(InputError, match=r"hyps\[1\] has dtype float64"):
        partial(bleu, [np.array([1, 2]), np.array([1.0])], [np.array([1]), np.array([2])])
    with pytest.raises(InputError, match=r"hyps is a 2-D array: say where each row ends"):
        partial(bleu, np.zeros((2, 3), dtype=np.int32), TokenIds([np.array([1])] * 2))
    with pytest.raises(InputError, match=r"refs must be a TokenIds or a list"):
        partial(bleu, TokenIds([np.array([1])]), np.array([1]))
