"""mtalign.dask on a real distributed.LocalCluster with two worker processes: per-segment
scores and corpus scores against the single-process ones (bit for bit for count statistics,
1e-12 for averaged metrics), a Bag, and bad input reaching the client with message and index.
The user's construction of issue 30 (a pandas object column of reference lists through
``dd.from_pandas``, which Dask's dataframe.convert-string turns into repr strings) is refused,
and the ways that keep the lists give sacrebleu's corpus BLEU.

Data: the WMT21 de-en and en-de MQM samples shipped with mtalign (package data, see
mtalign/data/README.md).
"""

from __future__ import annotations

import pickle

import dask
import dask.bag as db
import dask.dataframe as dd
import mtalign
import mtalign.dask as mdask
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import sacrebleu
from distributed import Client, LocalCluster
from mtalign import Bleu, Chrf, Dcs, Meteor, Nist, Per, Ribes, Rouge, Sia, Ter, Wer
from mtalign.dask import _reads_as_list
from mtalign.demo import load_mqm_sample, load_sample

LISTS = pd.ArrowDtype(pa.list_(pa.string()))


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def sample() -> tuple[list[str], list[list[str]], list[str]]:
    systems, refs = load_sample()
    hyps = systems["Facebook-AI"]
    # Two references on every third row, one elsewhere (a string): a mixed refs column.
    mixed = [list(r) if i % 3 == 0 else r[0] for i, r in enumerate(refs)]
    return hyps, mixed, systems["happypoet"]


def _frame(hyps: list[str], refs: list, npartitions: int = 7) -> dd.DataFrame:
    as_lists = [[r] if isinstance(r, str) else r for r in refs]
    index = np.arange(1000, 1000 + len(hyps))
    df = pd.DataFrame({"hyp": hyps, "ref": pd.Series(as_lists, dtype=LISTS, index=index)},
                      index=index)
    return dd.from_pandas(df, npartitions=npartitions)


EXACT = [Bleu(), Bleu(smooth="floor", max_order=2, tokenize="intl"), Chrf(),
         Chrf(word_order=2), Ter(), Wer(), Per(), Nist()]
AVERAGED = [Rouge(["rougeL", "rouge2", "rougeSU4"]), Dcs(), Ribes(), Sia(), Meteor()]


@pytest.mark.parametrize("metric", EXACT, ids=repr)
def test_count_statistics_equal_single_process_bit_for_bit(client, sample, metric) -> None:
    hyps, refs, _ = sample
    got = mdask.corpus_score(metric, _frame(hyps, refs))
    want = metric.corpus_score(hyps, [[r] if isinstance(r, str) else r for r in refs])
    assert type(got) is type(want)
    assert float(got) == float(want)
    assert got.n_sentences == want.n_sentences == len(hyps)
    assert got.signature == want.signature
    assert {k: v for k, v in got.to_dict().items() if k != "per_sentence"} == \
        {k: v for k, v in want.to_dict().items() if k != "per_sentence"}


@pytest.mark.parametrize("metric", AVERAGED, ids=repr)
def test_averaged_metrics_equal_single_process(client, sample, metric) -> None:
    hyps, refs, _ = sample
    got = mdask.corpus_score(metric, _frame(hyps, refs))
    want = metric.corpus_score(hyps, refs)
    assert type(got) is type(want)
    assert got.n_sentences == want.n_sentences
    assert got.signature == want.signature
    assert abs(float(got) - float(want)) <= 1e-12
    if isinstance(metric, Rouge):
        for v in metric.scalar_names():
            assert np.allclose(got[v], want[v], rtol=0, atol=1e-12)


@pytest.mark.parametrize("metric", [Bleu(), Chrf(), Rouge(["rougeL", "rouge1"]), Ter()],
                         ids=repr)
def test_per_segment_scores_equal_batch_score(client, sample, metric) -> None:
    hyps, refs, _ = sample
    ddf = _frame(hyps, refs)
    got = mdask.score(metric, ddf).compute()
    assert got.index.tolist() == list(range(1000, 1000 + len(hyps)))
    np.testing.assert_array_equal(got.to_numpy(), metric.scalar_scores(hyps, refs))
    if isinstance(metric, Rouge):
        s = mdask.score(metric, ddf, variant="rouge1", name="r1").compute()
        assert s.name == "r1"
        np.testing.assert_array_equal(s.to_numpy(),
                                      metric.scalar_scores(hyps, refs, variant="rouge1"))


def test_several_reference_columns_and_a_bag(client, sample) -> None:
    hyps, _, other = sample
    _, refs = load_sample()
    df = pd.DataFrame({"h": hyps, "a": [r[0] for r in refs], "b": [r[1] for r in refs]})
    ddf = dd.from_pandas(df, npartitions=3)
    want = Bleu().corpus_score(hyps, refs)
    assert float(mdask.corpus_score(Bleu(), ddf, "h", ["a", "b"])) == float(want)
    bag = db.from_sequence([{"hyp": h, "ref": list(r)} for h, r in zip(hyps, refs,
                                                                      strict=True)],
                           npartitions=4)
    assert float(mdask.corpus_score(Bleu(), bag)) == float(want)
    assert mdask.score(Chrf(), bag).compute() == Chrf().batch_score(hyps, refs).tolist()
    tuples = db.from_sequence(list(zip(other, [r[0] for r in refs], strict=True)),
                              npartitions=2)
    assert float(mdask.corpus_score(Chrf(), tuples, 0, 1)) == \
        float(Chrf().corpus_score(other, [r[0] for r in refs]))


def test_bad_input_on_a_worker_raises_at_the_client(client, sample) -> None:
    hyps, refs, _ = sample
    bad_refs = [[r] if isinstance(r, str) else r for r in refs]
    bad_refs[137] = []  # an empty reference set
    ddf = _frame(hyps, bad_refs, npartitions=5)
    with pytest.raises(mtalign.InputError, match=r"refs\[\d+\] \(partition 2, index 1137\)"):
        mdask.corpus_score(Bleu(), ddf)
    with pytest.raises(mtalign.InputError, match=r"index 1137\).*empty"):
        mdask.score(Chrf(), ddf).compute()
    bad_hyps: list[str | None] = list(hyps)
    bad_hyps[160] = None  # a missing value (Dask makes it <NA>)
    df = pd.DataFrame({"hyp": bad_hyps, "ref": [r[0] for r in load_sample()[1]]})
    with pytest.raises(mtalign.InputError,
                       match=r"hyps\[10\] \(partition 1, index 160\) is not a str"):
        mdask.corpus_score(Wer(), dd.from_pandas(df, npartitions=2))


def test_one_metric_object_per_graph_and_threads(client, sample) -> None:
    hyps, refs, _ = sample
    ddf = _frame(hyps, refs, npartitions=6)
    series = mdask.score(Bleu(), ddf, threads=2)
    graph = dict(series.__dask_graph__())
    holding = [k for k, v in graph.items() if isinstance(getattr(v, "value", None), Bleu)]
    assert len(holding) == 1  # one key holds the metric; the 6 tasks depend on it
    embedding = [k for k, v in graph.items() if k not in holding
                 and b"mtalign.metrics.bleu" in pickle.dumps(v)]
    assert embedding == []
    assert len(pickle.dumps(Bleu())) < 400  # pickled as its configuration
    np.testing.assert_array_equal(series.compute().to_numpy(), Bleu().batch_score(hyps, refs))


def test_wrong_data_type_is_refused() -> None:
    with pytest.raises(TypeError, match="Dask DataFrame or Bag"):
        mdask.corpus_score(Bleu(), [("a", "b")])


@pytest.fixture(scope="module")
def mqm() -> tuple[list[str], list[list[str]], float]:
    """One system of the en-de MQM sample, its two references per segment, and sacrebleu's
    corpus BLEU of it (the independent number every way of passing the lists must give)."""
    systems, refs, _ = load_mqm_sample()
    hyps = systems["Online-W"]
    want = sacrebleu.corpus_bleu(hyps, [list(c) for c in zip(*refs, strict=True)]).score
    return hyps, refs, want


CELLS = {"list": list, "tuple": tuple, "ndarray": np.array}


@pytest.mark.parametrize("cell", list(CELLS))
def test_a_column_of_lists_turned_into_strings_is_refused(client, mqm, cell) -> None:
    hyps, refs, _ = mqm
    df = pd.DataFrame({"hyp": hyps, "ref": [CELLS[cell](r) for r in refs]})
    ddf = dd.from_pandas(df, npartitions=3)  # the user's construction, Dask's defaults
    assert isinstance(ddf.ref.dtype, pd.StringDtype)  # Dask did turn the lists into text
    # Whichever partition fails first is reported; each names its first row.
    where = r"refs\[0\] \(partition (0, index 0|1, index 50|2, index 100)\) is the text [\"'][\[(]'"
    ways = (r"one reference\. Dask's default dataframe\.convert-string .* several columns "
            r"\(refs=\['refA', 'refC'\]\) or as an Arrow list<string> column .*"
            r"dask\.config\.set\(\{'dataframe\.convert-string': False\}\)")
    with pytest.raises(mtalign.InputError, match=where + ".*" + ways):
        mdask.corpus_score(Bleu(smooth="exp"), ddf)
    with pytest.raises(mtalign.InputError, match=where):
        mdask.score(Chrf(), ddf).compute()
    with pytest.raises(mtalign.InputError, match=where):  # NIST collects the columns first
        mdask.corpus_score(Nist(), ddf)


def test_a_list_written_out_is_refused_in_any_row_and_column(client, mqm) -> None:
    hyps, refs, _ = mqm
    df = pd.DataFrame({"hyp": hyps, "a": [r[0] for r in refs], "c": [r[1] for r in refs]})
    df.loc[80, "c"] = '["Ref A", "Ref C"]'  # a JSON list, e.g. read from a CSV file
    with pytest.raises(mtalign.InputError,
                       match=r"refs\[30\]\[1\] \(partition 1, index 80\) is the text"):
        mdask.corpus_score(Bleu(), dd.from_pandas(df, npartitions=3), "hyp", ["a", "c"])
    tokens = pd.DataFrame({"hyp": [h.split() for h in hyps], "ref": [r[0] for r in refs]})
    with pytest.raises(mtalign.InputError, match=r"hyps\[0\] \(partition [01], index (0|75)\) "
                       r"is the text .*one hypothesis\. .*pre-tokenized"):
        mdask.corpus_score(Bleu(), dd.from_pandas(tokens, npartitions=2))
    bag = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=2).to_bag(
        format="dict")  # a Bag of records whose lists Dask already wrote out
    with pytest.raises(mtalign.InputError, match=r"refs\[0\] \(partition [01], index 0\)"):
        mdask.corpus_score(Bleu(), bag)


@pytest.mark.parametrize("cell", list(CELLS))
def test_object_columns_of_lists_kept_as_objects_give_sacrebleu(client, mqm, cell) -> None:
    hyps, refs, want = mqm
    df = pd.DataFrame({"hyp": hyps, "ref": [CELLS[cell](r) for r in refs]})
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(df, npartitions=3)
    assert ddf.ref.dtype == object
    metric = Bleu(smooth="exp")
    got = mdask.corpus_score(metric, ddf)
    assert float(got) == pytest.approx(want, abs=1e-9)
    assert float(got) == float(metric.corpus_score(hyps, refs))
    np.testing.assert_array_equal(mdask.score(Chrf(), ddf).compute().to_numpy(),
                                  Chrf().scalar_scores(hyps, refs))


def test_arrow_list_and_several_columns_give_sacrebleu(client, mqm) -> None:
    hyps, refs, want = mqm
    metric = Bleu(smooth="exp")
    arrow = pd.DataFrame({"hyp": hyps, "ref": pd.Series(refs, dtype=LISTS)})
    got = mdask.corpus_score(metric, dd.from_pandas(arrow, npartitions=3))
    assert float(got) == pytest.approx(want, abs=1e-9)
    assert float(got) == float(metric.corpus_score(hyps, refs))
    columns = pd.DataFrame({"hyp": hyps, "refA": [r[0] for r in refs],
                            "refC": [r[1] for r in refs]})
    got = mdask.corpus_score(metric, dd.from_pandas(columns, npartitions=3),
                             refs=["refA", "refC"])
    assert float(got) == float(metric.corpus_score(hyps, refs))


@pytest.mark.parametrize("text", [
    "['a b', 'c']", "('a b', 'c')", "('a',)", "['a b' 'c']", '["Ref A", "Ref C"]', "[]", "()",
    "  ['x']  ", "['It\\'s', \"l'\\u00e9t\u00e9\"]",
    str(np.array(["a long reference sentence " * 3, "another one " * 4])),  # wraps lines
    # Token ids written out: NumPy arrays (wrapped, summarised) and lists of ints.
    "[1, 2]", str(np.array([17, 4, 99])), str(np.arange(40) * 1000), str(np.arange(5000)),
    "[-3 4]", "(1, 2)",
])
def test_lists_written_out_are_recognised(text) -> None:
    assert _reads_as_list(text)


@pytest.mark.parametrize("text", [
    "[Applause]", "[laughter] and then", "(sic)", "('a')", "['a', 1]", "[",
    "a ['b'] c", "[a, b]", "", "(5)", "[1a]", "see [1] and [2]", "1 2 3",
])
def test_texts_that_are_not_lists_of_strings_pass(text) -> None:
    assert not _reads_as_list(text)


def _ids_batch(seed: int, n: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """n hypotheses and n references of random ids (int32, a small alphabet so that there
    are matches, some empty)."""
    rng = np.random.default_rng(seed)
    seq = lambda: rng.integers(0, 12, size=int(rng.integers(0, 25))).astype(np.int32)  # noqa: E731
    return [seq() for _ in range(n)], [seq() for _ in range(n)]


IDS_METRICS = [Bleu(), Rouge(["rougeL", "rouge2"]), Wer(), Ter()]


@pytest.mark.parametrize("metric", IDS_METRICS, ids=repr)
def test_token_ids_sign_tok_ids_as_one_call_does(client, metric) -> None:
    """Dask over token ids (an Arrow list<int32> column, and object columns of arrays in
    two reference columns) gives the one-call result of the same ids: its numbers and its
    signature (tok:ids); per-segment scores equal scalar_scores of the ids."""
    hyps, refs = _ids_batch(3, 60)
    ids = pd.ArrowDtype(pa.list_(pa.int32()))
    arrow = pd.DataFrame({"hyp": pd.Series([h.tolist() for h in hyps], dtype=ids),
                          "ref": pd.Series([r.tolist() for r in refs], dtype=ids)})
    want = metric.corpus_score(mtalign.TokenIds(hyps), mtalign.TokenIds(refs))
    assert "tok:ids" in want.signature
    got = mdask.corpus_score(metric, dd.from_pandas(arrow, npartitions=4))
    assert got.signature == want.signature
    assert float(got) == pytest.approx(float(want), rel=1e-12, abs=1e-12)
    if metric.aggregation == "sum":
        assert float(got) == float(want)
    segments = mdask.score(metric, dd.from_pandas(arrow, npartitions=4)).compute()
    np.testing.assert_array_equal(segments.to_numpy(),
                                  metric.scalar_scores(mtalign.TokenIds(hyps), refs))
    with dask.config.set({"dataframe.convert-string": False}):
        objects = dd.from_pandas(pd.DataFrame({"hyp": hyps, "refA": refs, "refB": hyps}),
                                 npartitions=3)
    two = metric.corpus_score(hyps, [[r, h] for r, h in zip(refs, hyps, strict=True)])
    got = mdask.corpus_score(metric, objects, refs=["refA", "refB"])
    assert got.signature == two.signature and "nrefs:2|" in got.signature
    assert float(got) == pytest.approx(float(two), rel=1e-12, abs=1e-12)
    # Text still signs its tokenizer.
    text = pd.DataFrame({"hyp": [" ".join(map(str, h)) for h in hyps],
                         "ref": [" ".join(map(str, r)) for r in refs]})
    got = mdask.corpus_score(metric, dd.from_pandas(text, npartitions=2))
    assert got.signature == metric.corpus_score(text.hyp.tolist(), text.ref.tolist()).signature
    assert "tok:ids" not in got.signature and "tok:" in got.signature


def test_bad_token_ids_are_named_at_the_client(client) -> None:
    hyps, refs = _ids_batch(4, 12)
    as_text = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=2)
    # Dask's convert-string wrote each array out as "[1 2 3]": refused, not scored as text.
    with pytest.raises(mtalign.InputError, match=r"hyps\[\d+\] \(partition \d, index \d+\) "
                                                 r"is the text '\["):
        mdask.corpus_score(Bleu(), as_text)
    floats = list(refs)
    floats[7] = floats[7].astype(np.float64)
    with dask.config.set({"dataframe.convert-string": False}):
        bad = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": floats}), npartitions=2)
    with pytest.raises(mtalign.InputError,
                       match=r"refs\[1\] \(partition 1, index 7\) has dtype float64"):
        mdask.corpus_score(Bleu(), bad)
    with pytest.raises(mtalign.InputError, match=r"index 7\) has dtype float64"):
        mdask.score(Bleu(), bad).compute()
