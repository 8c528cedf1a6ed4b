"""The Python API: shapes, reference sets, errors, warnings, pickling, threads, fork."""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import warnings
from pathlib import Path

import mtalign
import numpy as np
import pytest
from mtalign import ConfigError, InputError, MtalignError, MtalignWarning, Rouge, Score

DATA = Path(__file__).parent / "data"
ALL = ["rouge1", "rouge2", "rouge4", "rougeL", "rougeW-1.2", "rougeS0", "rougeS4", "rougeS*",
       "rougeSU4", "rougeSU*"]


def real_pairs(n: int = 200) -> tuple[list[str], list[list[str]]]:
    """Real WMT21 de-en sentences shipped in the package's demo sample."""
    from mtalign.demo import load_sample

    systems, refs = load_sample()
    hyps = [h for name in sorted(systems) for h in systems[name]]
    all_refs = [r for _ in systems for r in refs]
    return hyps[:n], all_refs[:n]


# -- shapes and consistency -------------------------------------------------------------

def test_batch_shapes_and_columns() -> None:
    hyps, refs = real_pairs(50)
    out = Rouge(ALL).batch_score(hyps, refs)
    assert out.shape == (50, 3 * len(ALL))
    assert out.columns == tuple(f"{v}_{x}" for v in ALL for x in "PRF")
    for v in ALL:
        arr = out[v]  # the variant's P, R, F columns
        assert arr.shape == (50, 3) and arr.dtype == np.float64
        assert arr.tolist() == out.table[:, [out.columns.index(f"{v}_{x}") for x in "PRF"]
                                         ].tolist()
        assert arr.flags["C_CONTIGUOUS"]
        assert np.all((arr >= 0) & (arr <= 1))


def test_sentence_batch_corpus_agree() -> None:
    hyps, refs = real_pairs(30)
    r = Rouge(ALL, multi_ref="average")
    batch = r.batch_score(hyps, refs)
    for i in (0, 7, 29):
        one = r.sentence_score(hyps[i], refs[i])
        for v in ALL:
            assert tuple(one[v]) == tuple(batch[v][i])
            assert isinstance(one[v], Score)
    res = r.corpus_score(hyps, refs)
    for v in ALL:
        assert res[v] == Score(*batch[v].mean(axis=0))
    assert res.n_sentences == 30
    assert res.signature.startswith("nrefs:2|")
    d = res.to_dict()
    assert d["scores"]["rougeL"]["fmeasure"] == res["rougeL"].fmeasure


def test_plain_list_of_strings_is_one_reference_each() -> None:
    r = Rouge("rouge1", tokenize="whitespace")
    a = r.batch_score(["a b", "c d"], ["a x", "c y"])["rouge1"]
    b = r.batch_score(["a b", "c d"], [["a x"], ["c y"]])["rouge1"]
    assert np.array_equal(a, b)
    assert a[:, 2].tolist() == [0.5, 0.5]


def test_ragged_reference_sets_and_tuples() -> None:
    r = Rouge("rougeL", tokenize="whitespace")
    out = r.batch_score(("a b c", "x y"), [("a b c",), ["q", "x y", "z"]])["rougeL"]
    assert out[:, 2].tolist() == [1.0, 1.0]
    assert r.corpus_score(["a"], [["a", "b"]]).signature.startswith("nrefs:2|")
    assert r.corpus_score(["a", "b"], [["a", "b"], "b"]).signature.startswith("nrefs:var|")


def test_iterables_are_accepted() -> None:
    r = Rouge("rouge1")
    hyps = np.array(["a b", "c"])
    out = r.batch_score((h for h in hyps.tolist()), iter(["a", "c"]))["rouge1"]
    assert out.shape == (2, 3)


def test_pretokenized_input_is_verbatim() -> None:
    r = Rouge("rouge1")
    s = r.sentence_score(["The", "cat"], [["the", "cat"]])["rouge1"]
    assert s.fmeasure == 0.5  # no lowercasing of tokens
    out = r.batch_score([["a", "b"], []], [[["a"], ["b", "b"]], [["x"]]])["rouge1"]
    assert out[0].tolist() == [0.5, 1.0, 2 / 3]
    assert out[1].tolist() == [0.0, 0.0, 0.0]


def test_empty_inputs_score_zero_never_nan() -> None:
    r = Rouge(ALL)
    out = r.batch_score(["", "a", "", "a"], ["a", "", "", "a"])
    for v in ALL:
        arr = out[v]
        assert not np.isnan(arr).any(), v
        assert arr[:3].tolist() == [[0.0, 0.0, 0.0]] * 3, v
    assert out["rouge1"][3].tolist() == [1.0, 1.0, 1.0]
    assert r.batch_score([], [])["rougeL"].shape == (0, 3)
    assert r.corpus_score([], [])["rougeL"] == Score(0.0, 0.0, 0.0)


def test_beta_weights_recall() -> None:
    # hyp "a b", ref "a b c d": P = 1, R = 0.5
    for beta in (0.5, 1.0, 2.0, 3.0):
        s = Rouge("rouge1", beta=beta).sentence_score("a b", "a b c d")["rouge1"]
        want = (1 + beta**2) * 1.0 * 0.5 / (0.5 + beta**2 * 1.0)
        assert s.fmeasure == pytest.approx(want, abs=1e-15)


def test_jackknife_with_one_reference_is_plain() -> None:
    a = Rouge("rougeL", jackknife=True).sentence_score("a b c", "a c")
    b = Rouge("rougeL").sentence_score("a b c", "a c")
    # The same numbers; the results differ in their signatures (jk:yes / jk:no), and a
    # result's == compares the whole result.
    assert a.scores == b.scores and a != b


def test_same_reference_object_scored_once_but_correctly() -> None:
    ref = "the cat sat on the mat"
    hyps = ["the cat", "a mat", "the cat sat on the mat"]
    out = Rouge("rougeL").batch_score(hyps, [ref, ref, ref])["rougeL"]
    for i, h in enumerate(hyps):
        assert tuple(out[i]) == tuple(Rouge("rougeL").sentence_score(h, ref)["rougeL"])


# -- tokenizers -----------------------------------------------------------------------------

def test_tokenizers() -> None:
    assert mtalign.tokenize("Hello, World! It's 3.5") == ["hello", "world", "it", "s", "3", "5"]
    assert mtalign.tokenize("北京大学 ok") == ["北", "京", "大", "学", "ok"]
    assert mtalign.tokenize("नमस्ते दुनिया") == ["नमस्ते", "दुनिया"]
    assert mtalign.tokenize("Ab, c", tokenize="whitespace", lowercase=False) == ["Ab,", "c"]
    assert mtalign.tokenize("ab c", tokenize="char") == ["a", "b", "c"]
    with pytest.raises(ConfigError, match="unknown tokenizer 'nope'"):
        mtalign.tokenize("a", tokenize="nope")


def test_cjk_text_is_scored_not_dropped() -> None:
    s = Rouge("rouge1").sentence_score("我爱北京", "我爱上海")["rouge1"]
    assert s.fmeasure == 0.5
    s = Rouge("rouge1", tokenize="char").sentence_score("我爱北京", "我爱上海")["rouge1"]
    assert s.fmeasure == 0.5


def test_vanishing_text_warns_once_with_count() -> None:
    r = Rouge("rouge1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = r.corpus_score(["...", "a", "!!"], ["a", "??", "a"])
    msgs = [w for w in caught if issubclass(w.category, MtalignWarning)]
    assert len(msgs) == 1
    assert "2 hypotheses and 1 references" in str(msgs[0].message)
    assert "hyps[0]" in str(msgs[0].message)
    assert (res.n_empty_hyps, res.n_empty_refs) == (2, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.corpus_score(["", "a"], ["a", " "])  # empty text is not "vanished"


# -- errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variants": ["rougeQ"]}, "unknown variant 'rougeQ'"),
        ({"variants": ["rouge0"]}, "unknown variant 'rouge0'"),
        ({"variants": ["rougeW-0.5"]}, "weight must be a finite number >= 1"),
        ({"variants": []}, "no ROUGE variant"),
        ({"variants": ["rougeL", "rougeL"]}, "'rougeL' given twice"),
        ({"variants": ["rougeL"], "beta": 0}, "beta must be > 0"),
        ({"variants": ["rougeL"], "beta": -1.0}, "beta must be > 0"),
        ({"variants": ["rougeL"], "beta": float("nan")}, "beta must be > 0"),
        ({"variants": ["rougeL"], "beta": "1"}, "beta must be a number"),
        ({"variants": ["rougeL"], "multi_ref": "mean"}, "unknown multi_ref 'mean'"),
        ({"variants": ["rougeL"], "tokenize": "13b"}, "unknown tokenizer '13b'"),
        ({"variants": ["rougeL"], "compat": "rouge156"}, "unknown compat 'rouge156'"),
        ({"variants": ["rougeL"], "stem": True, "tokenize": "char"}, "stem=True needs word tokens"),
        ({"variants": ["rougeL"], "lowercase": "yes"}, "lowercase must be True or False"),
    ],
)
def test_config_errors(kwargs: dict, message: str) -> None:
    variants = kwargs.pop("variants")
    with pytest.raises(ConfigError, match=message.replace("*", r"\*")) as info:
        Rouge(variants, **kwargs)
    assert isinstance(info.value, MtalignError) and isinstance(info.value, ValueError)


# An int where a text goes is most often a token id: the error says where ids go.
IDS_HINT = r"token ids go in as NumPy integer arrays or mtalign\.TokenIds\)"


@pytest.mark.parametrize(
    ("hyps", "refs", "message"),
    [
        (["a"] * 5, ["a"] * 4, "hyps has 5 items but refs has 4"),
        (["a", "b", "c", "d"], ["a", "b", "c", []], r"refs\[3\] is empty"),
        (["a", "b", 3], ["a", "b", "c"], r"hyps\[2\] is not a str \(got int; " + IDS_HINT),
        (["a", "b"], ["a", ["b", None]], r"refs\[1\]\[1\] is not a str \(got NoneType\)"),
        (["a", "b"], ["a", 7], r"refs\[1\] must be a str or a list of str \(got int; " + IDS_HINT),
        ("abc", ["a"], "hyps must be a list of sentences"),
        ([["a"], "b"], [[["a"]], [["b"]]], r"hyps\[1\] must be a list of str tokens"),
        ([["a"]], ["a"], r"refs\[0\] must be a list of references"),
        ([["a"]], [[["a", 1]]], r"refs\[0\]\[0\]\[1\] is not a str \(got int; " + IDS_HINT),
    ],
)
def test_input_errors(hyps: list, refs: list, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Rouge("rouge1").batch_score(hyps, refs)


def test_threads_argument_errors() -> None:
    r = Rouge("rouge1")
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ConfigError, match="threads"):
            r.batch_score(["a"], ["a"], threads=bad)


def test_sentence_score_bad_hyp() -> None:
    with pytest.raises(InputError, match="hyp must be a str"):
        Rouge("rouge1").sentence_score(3, "a")  # type: ignore[arg-type]


def test_env_thread_count_is_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTALIGN_NUM_THREADS", "zero")
    with pytest.raises(ConfigError, match="MTALIGN_NUM_THREADS"):
        Rouge("rouge1").batch_score(["a"], ["a"])
    monkeypatch.setenv("MTALIGN_NUM_THREADS", "1")
    assert mtalign.default_threads() == 1


# -- immutability, pickling, threads, fork --------------------------------------------------

def test_immutable_and_picklable() -> None:
    r = Rouge(["rougeL", "rougeSU4"], tokenize="whitespace", beta=2.0, multi_ref="best_f",
              jackknife=True, lowercase=False)
    with pytest.raises(AttributeError):
        r.beta = 3  # type: ignore[attr-defined]
    r2 = pickle.loads(pickle.dumps(r))
    assert r2 == r and r2.config() == r.config() and repr(r2) == repr(r)
    assert r2.signature() == r.signature()
    hyps, refs = real_pairs(20)
    a, b = r.batch_score(hyps, refs), r2.batch_score(hyps, refs)
    assert a.columns == b.columns and np.array_equal(a, b)


def test_signature_records_every_option() -> None:
    r = Rouge("rougeL", tokenize="char", lowercase=False, beta=1.2, multi_ref="best",
              jackknife=True)
    assert r.signature() == (f"tok:char|lc:no|stem:no|multi_ref:best|jk:yes|beta:1.2|"
                             f"compat:paper|version:{mtalign.__version__}")


def test_results_do_not_depend_on_thread_count() -> None:
    hyps, refs = real_pairs(1200)
    for mode in ("max", "average", "best", "best_f"):
        r = Rouge(ALL, multi_ref=mode, jackknife=mode == "max")
        base = r.batch_score(hyps, refs, threads=1)
        for threads in (2, 3, 8):
            other = r.batch_score(hyps, refs, threads=threads)
            for v in ALL:
                assert np.array_equal(base[v], other[v]), (mode, threads, v)


def _score_in_child(queue: mp.Queue) -> None:
    out = Rouge("rougeL").batch_score(["a b c"] * 2000, ["a c"] * 2000, threads=2)
    queue.put(float(out["rougeL"][:, 2].sum()))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_after_threaded_call_does_not_hang() -> None:
    Rouge("rougeL").batch_score(["a b"] * 5000, ["a"] * 5000, threads=2)
    ctx = mp.get_context("fork")
    queue: mp.Queue = ctx.Queue()
    child = ctx.Process(target=_score_in_child, args=(queue,))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0, "forked child hung or failed"
    assert queue.get(timeout=5) == pytest.approx(2000 * 0.8)


def test_gil_is_released_during_batch() -> None:
    import threading
    import time

    hyps, refs = real_pairs(1200)
    hyps, refs = hyps * 20, refs * 20
    ticks = 0
    done = threading.Event()

    def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.0005)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        start = time.perf_counter()
        Rouge(["rougeS*", "rougeW-1.2"]).batch_score(hyps, refs, threads=1)
        elapsed = time.perf_counter() - start
    finally:
        done.set()
        t.join()
    # With the GIL held for the whole call the ticker could not run at all.
    assert elapsed < 0.05 or ticks > 5


def test_a_large_batch_reads_its_references_as_a_small_one_does() -> None:
    # Above 4,096 hypotheses the hypotheses are numbered on the pool while the references
    # are read: shared reference objects, equal texts in distinct objects, a reference equal
    # to a hypothesis and a vanishing reference must come out as in small batches.
    n = 6000
    shared = "the shared reference text"
    hyps = [f"hyp {i} words" for i in range(n)]
    refs: list = []
    for i in range(n):
        if i % 3 == 0:
            refs.append(shared)
        elif i % 3 == 1:
            refs.append(["".join(["the cat ", str(i % 7)]), hyps[i]])
        else:
            refs.append([f"ref {i}", "..." if i > 3000 else f"ref {i} b"])
    metric = mtalign.Rouge(["rougeL", "rouge1"])

    def run(batch_hyps: list, batch_refs: list, threads: int | None) -> tuple:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            stats = metric.statistics(batch_hyps, batch_refs, threads=threads)
        return stats, [str(w.message) for w in caught]

    big, said = run(hyps, refs, None)
    one_thread, said_1 = run(hyps, refs, 1)
    assert np.array_equal(big, one_thread) and said == said_1
    small = np.concatenate([run(hyps[k:k + 1000], refs[k:k + 1000], None)[0]
                            for k in range(0, n, 1000)])
    assert np.array_equal(big, small)
    # "..." is one object and one text: one vanished reference, first at refs[3002][1].
    assert said == ["0 hypotheses and 1 references are non-empty but produced no tokens "
                    "with tokenize='unicode' (first: refs[3002][1]); they score 0"]
    pairs = [2, 4, 3001, 3002, 5999]
    each, _ = run([hyps[i] for i in pairs], [refs[i] for i in pairs], None)
    assert np.array_equal(each, big[pairs])
