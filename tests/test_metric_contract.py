"""The one metric contract, checked on every metric the registry knows: options declared once,
results of one family, scoring written once over statistics rows."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from mtalign import registry

HYPS = ["the cat sat on the mat", "a dog barked", "", "the the the", "green ideas sleep"]
REFS = [["the cat is on the mat", "a cat sat on a mat"], ["the dog barked loudly", "a dog"],
        ["nothing here", "nothing"], ["the cat", "a the"], ["colourless green ideas", "ideas"]]

METRICS = {name: registry.make_metric(name)[0] for name in registry.example_names()}


@pytest.fixture(params=sorted(METRICS), ids=str)
def metric(request: pytest.FixtureRequest, mtalign: Any) -> Any:
    return METRICS[request.param]


def test_is_a_metric_with_generated_configuration(mtalign: Any, metric: Any) -> None:
    assert isinstance(metric, mtalign.Metric)
    again = type(metric)(**metric.config())
    assert again == metric and hash(again) == hash(metric) and repr(again) == repr(metric)
    assert pickle.loads(pickle.dumps(metric)) == metric
    assert metric.signature().endswith(f"version:{mtalign.__version__}")
    assert metric.signature(2).startswith("nrefs:2|")
    with pytest.raises(AttributeError):
        metric.tokenize = "char"


def test_corpus_score_is_the_corpus_of_its_statistics(mtalign: Any, metric: Any) -> None:
    res = metric.corpus_score(HYPS, REFS)
    assert isinstance(res, mtalign.Result) and res.n_sentences == len(HYPS)
    stats = metric.statistics(HYPS, REFS)
    assert stats.ndim == 2 and stats.shape[0] == len(HYPS) and stats.dtype == np.float64
    again = metric.corpus_from_statistics(stats)
    assert type(again) is type(res) and float(again) == float(res)
    assert isinstance(res.to_dict(), dict) and str(res)


def test_sentence_score_is_a_corpus_of_one(mtalign: Any, metric: Any) -> None:
    # A corpus of one at sentence level: Bleu() scores a sentence as sacrebleu's
    # sentence_bleu (effective order), its corpus as corpus_bleu; every other metric is
    # the same at both levels.
    sentence_level = metric.at_sentence_level()
    for h, r in zip(HYPS, REFS, strict=True):
        one = metric.sentence_score(h, r)
        assert type(one) is type(metric.corpus_score([h], [r]))
        assert one.n_sentences == 1 and one.signature.startswith("nrefs:2|")
        # Every figure, the lazily made ones too (signature, per_sentence, details), equals
        # the corpus of that one sentence scored by the batch path.
        assert _view(metric, one) == _view(metric, sentence_level.corpus_score([h], [r]))
        assert one.to_dict() == sentence_level.corpus_score([h], [r]).to_dict()
    batch = metric.batch_score(HYPS, REFS)
    assert isinstance(batch, np.ndarray) and batch.shape[0] == len(HYPS)
    scalars = metric.scalar_scores(HYPS, REFS)
    assert scalars.shape == (len(HYPS),) and scalars.dtype == np.float64


def test_one_result_shape(mtalign: Any, metric: Any) -> None:
    """batch_score, a result's per_sentence and its column_scores: one Scores type, the
    metric's columns, the same rows by every path (batch, corpus, one sentence)."""
    columns = metric.score_columns()
    batch = metric.batch_score(HYPS, REFS)
    assert type(batch) is mtalign.Scores and batch.columns == columns
    assert batch.dtype == np.float64 and batch.flags["C_CONTIGUOUS"]
    assert batch.table.shape == (len(HYPS), len(columns))
    assert batch.shape == ((len(HYPS),) if len(columns) == 1 else (len(HYPS), len(columns)))
    res = metric.corpus_score(HYPS, REFS)
    if type(metric).__name__ != "Nist":  # NIST's corpus rows carry the corpus weights
        assert res.per_sentence.columns == columns
        assert np.array_equal(res.per_sentence, batch)
    assert list(res.column_scores) == list(columns)
    for j, c in enumerate(columns):
        assert np.array_equal(batch[c], batch.table[:, j])
        if len(columns) > 1:  # a row read by name (one column: a row is a float)
            assert batch[1][c] == batch.table[1, j]
    if type(metric).aggregation == "mean":  # the corpus figures are the columns' means
        means = batch.table.mean(axis=0)
        assert list(res.column_scores.values()) == pytest.approx(means.tolist(), rel=1e-15)
    else:
        assert res.column_scores == {"score": float(res)}
    one = metric.sentence_score(HYPS[0], REFS[0])
    assert one.per_sentence.columns == columns
    assert one.per_sentence.table.tolist() == \
        metric.at_sentence_level().batch_score(HYPS[:1], REFS[:1]).table.tolist()
    for variant in metric.scalar_names():  # ranking reads the column scalar_column names
        assert np.array_equal(metric.scalar_scores(HYPS, REFS, variant),
                              batch[metric.scalar_column(variant)])
    travelled = pickle.loads(pickle.dumps(batch))
    assert type(travelled) is mtalign.Scores and travelled.columns == columns
    assert np.array_equal(travelled, batch)
    with pytest.raises(KeyError, match="no column 'nope'"):
        batch["nope"]


# Metrics whose batch_score is one number per sentence (ROUGE and DCS give several).
ONE_NUMBER = sorted(name for name, m in METRICS.items()
                    if type(m).__name__ not in ("Rouge", "Dcs"))


@pytest.mark.parametrize("name", ONE_NUMBER)
def test_one_number_metrics_sentence_score_is_batch_score(mtalign: Any, name: str) -> None:
    metric = METRICS[name]
    batch = metric.batch_score(HYPS, REFS)
    assert batch.dtype == np.float64 and batch.shape == (len(HYPS),)
    for i, (h, r) in enumerate(zip(HYPS, REFS, strict=True)):
        assert float(metric.sentence_score(h, r)) == batch[i]


def test_every_tokenizer_works_with_every_metric(mtalign: Any) -> None:
    from mtalign.metrics.options import TOKENIZERS

    for cls in (mtalign.Bleu, mtalign.Nist, mtalign.Wer, mtalign.Per, mtalign.Ribes,
                mtalign.Sia):
        for tok in TOKENIZERS:
            m = cls(tokenize=tok, lowercase=True)
            assert m.batch_score(["a b"], ["a b"]).shape == (1,)
        with pytest.raises(mtalign.ConfigError, match="always lowercases"):
            cls(tokenize="rouge155", lowercase=False)
    with pytest.raises(mtalign.ConfigError, match="unknown tokenizer"):
        mtalign.Dcs("word", tokenize="nope")


def test_bootstrap_resamples_statistics_rows(mtalign: Any, metric: Any) -> None:
    a = metric.bootstrap(HYPS, REFS, n_samples=20, seed=7)
    assert a.shape == (20,) and np.isfinite(a).all()
    assert np.array_equal(a, metric.bootstrap(HYPS, REFS, n_samples=20, seed=7))
    same = metric.bootstrap(HYPS[:1] * 3, REFS[:1] * 3, n_samples=3)
    assert same.tolist() == [float(metric.corpus_score(HYPS[:1] * 3, REFS[:1] * 3))] * 3


class OnePairCore:
    """A native core with a ``score_one(hyp, refs)`` as the bindings define it (what
    ``result_of_row`` makes of the row, or the row as a flat list of floats; vanished
    hypothesis, vanished references, None when empty), built on score_texts."""

    def __init__(self, core: Any) -> None:
        self._core = core

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def score_one(self, hyp: str, refs: Any) -> tuple[Any, list | None, list | None]:
        arr, hv, rv = self._core.score_texts([hyp], [refs], None)
        row = arr[0].ravel().tolist()
        of_row = getattr(self._core, "result_of_row", None)
        return (row if of_row is None else of_row(row)), hv or None, rv or None


def _view(metric: Any, res: Any) -> Any:
    d = res.to_dict()
    d.pop("per_sentence", None)
    return float(res), d, res.per_sentence.columns, res.per_sentence.tolist()


@pytest.mark.filterwarnings("ignore:.*produced no tokens")
def test_one_pair_native_path_gives_the_batch_of_one(mtalign: Any, metric: Any) -> None:
    fast = type(metric)(**metric.config())
    object.__setattr__(fast, "_core", OnePairCore(metric._core))
    object.__setattr__(fast, "_one", fast._one_call(fast._core))
    for h, r in zip(HYPS + ["!!"], REFS + [["a", "..."]], strict=True):
        for refs in (r, r[0]):
            want, got = metric.sentence_score(h, refs), fast.sentence_score(h, refs)
            assert type(got) is type(want)
            assert _view(metric, got) == _view(metric, want)
            if isinstance(metric, mtalign.Rouge):
                assert all(got[v] == want[v] for v in metric.scalar_names())


def test_result_of_row_refuses_a_row_of_another_width(mtalign: Any) -> None:
    cores = [m._core for m in METRICS.values() if hasattr(m._core, "result_of_row")]
    assert len(cores) >= 8  # every core of the shared batch methods
    for core in cores:
        row = core.score_texts(HYPS[:1], REFS[:1])[0].ravel().tolist()
        core.result_of_row(row)
        with pytest.raises(mtalign.InputError, match="a statistics row has"):
            core.result_of_row(row + [0.0])


@pytest.mark.filterwarnings("ignore:.*produced no tokens")
def test_one_pair_calls_sharing_a_reference_equal_batches_of_one(mtalign: Any) -> None:
    # Candidates of one reference in a loop (n-best reranking), every metric interleaved on
    # this thread: the one-pair call may reuse the reference's tokens from the call before.
    ref = [*REFS[0], "..."]
    hyps = [*HYPS, "the cat sat", "!!", "a mat"]
    metric_major = [(name, h) for name in sorted(METRICS) for h in hyps]
    candidate_major = [(name, h) for h in hyps for name in sorted(METRICS)]
    for name, h in metric_major + candidate_major:
        metric = METRICS[name]
        got = metric.sentence_score(h, ref)
        want = metric.at_sentence_level().corpus_score([h], [ref])
        assert _view(metric, got) == _view(metric, want), (name, h)


def test_native_row_figures_check_their_input(mtalign: Any) -> None:
    """row_scores / set_scores (the core's figures of statistics rows): a wrong width is
    refused by name; a metric without the figure answers None (then Python has none
    either)."""
    core = mtalign.Wer()._core
    assert core.row_scores(np.array([[1.0, 4.0], [2.0, 0.0], [0.0, 0.0]])).tolist() == \
        [0.25, 1.0, 0.0]
    assert core.set_scores(np.array([[1.0, 4.0, 3.0, 4.0]])).tolist() == [0.25]
    with pytest.raises(mtalign.InputError, match="2 columns"):
        core.row_scores(np.zeros((1, 3)))
    with pytest.raises(mtalign.InputError, match="multiple of 2"):
        core.set_scores(np.zeros((1, 3)))
    assert mtalign.Dcs()._core.row_scores(np.zeros((1, 4))) is None
    assert mtalign.Bleu()._core.set_scores(np.zeros((1, 10))) is None
