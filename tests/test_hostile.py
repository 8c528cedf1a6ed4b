"""The catalogue of issue 13, one row per case: hostile or unusual input, and what it gives.

Each row is (name, thunk, expected): the expected value is an exception class (the call must
raise it), or a predicate on the call's result. Long-document memory bounds are in
``test_long_inputs.py``, Ctrl-C in ``test_interrupt.py``.
"""

from __future__ import annotations

import copy
import math
import pickle
import subprocess
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import mtalign
import pytest
from mtalign import ConfigError, InputError, MtalignError, MtalignWarning

R = mtalign.Rouge


def f_of(result: Any, variant: str = "rougeL") -> float:
    return float(result[variant].fmeasure)


def _raise_input_error(msg: str) -> None:
    raise InputError(msg)


def _table() -> mtalign.TranslationTable:
    return mtalign.TranslationTable.train(["a b", "a"], ["x y", "x"], iterations=2)


CASES: list[tuple[str, Callable[[], Any], Any]] = [
    # -- unordered containers ----------------------------------------------------------
    ("set as hyps", lambda: R("rougeL").batch_score({"a b"}, ["a b"]), InputError),
    ("dict as hyps", lambda: R("rougeL").batch_score({"a b": 1}, ["a b"]), InputError),
    ("dict keys as refs", lambda: R("rougeL").batch_score(["a"], {"a": 1}.keys()), InputError),
    ("frozenset as a reference set",
     lambda: R("rougeL").batch_score(["a"], [frozenset({"a", "b"})]), InputError),
    ("set as corpus refs", lambda: mtalign.Bleu().corpus_score(["a b"], {"a b"}), InputError),
    ("generator is fine", lambda: R("rougeL").batch_score((h for h in ["a"]), ["a"]),
     lambda out: out["rougeL"][0, 2] == 1.0),
    # -- reference streams (sacrebleu convention) --------------------------------------
    ("2 streams of 3 segments",
     lambda: R("rougeL").batch_score(["a b", "c d", "e f"], [["a b", "c d", "e f"],
                                                             ["a", "c", "e"]]), InputError),
    ("refs_from_streams",
     lambda: mtalign.refs_from_streams([["a b", "c d", "e f"], ["a", "c", "e"]]),
     lambda out: out == [["a b", "a"], ["c d", "c"], ["e f", "e"]]),
    ("refs_from_streams, streams as arguments",
     lambda: mtalign.refs_from_streams(["a", "b"], ["c", "d"]),
     lambda out: out == [["a", "c"], ["b", "d"]]),
    ("refs_from_streams, ragged", lambda: mtalign.refs_from_streams(["a", "b"], ["c"]),
     InputError),
    # -- text that is not Unicode ------------------------------------------------------
    ("lone surrogate in hyps", lambda: R("rougeL").batch_score(["ok", "a\ud800"], ["a", "a"]),
     InputError),
    ("lone surrogate in refs", lambda: R("rougeL").batch_score(["a"], ["\udfff"]), InputError),
    ("lone surrogate in a reference set",
     lambda: mtalign.Bleu().corpus_score(["a"], [["a", "b\ud800"]]), InputError),
    ("lone surrogate, one pair", lambda: R("rougeL").sentence_score("\ud800", ["a"]),
     InputError),
    ("lone surrogate in tokens", lambda: R("rougeL").batch_score([["a", "\ud800"]], [[["a"]]]),
     InputError),
    # -- numbers that overflow ---------------------------------------------------------
    ("beta=1e200 gives F = R, not NaN",
     lambda: R("rougeL", beta=1e200).sentence_score("a b c d", ["a b x"]),
     lambda out: out["rougeL"].fmeasure == out["rougeL"].recall),
    ("beta=1e-200 gives F = P",
     lambda: R("rougeL", beta=1e-200).sentence_score("a b c d", ["a b x"]),
     lambda out: out["rougeL"].fmeasure == out["rougeL"].precision),
    ("beta=1e154 (β² overflows)",
     lambda: R("rougeSU*", beta=1e154).sentence_score("a b c", ["a b c d"]),
     lambda out: not math.isnan(f_of(out, "rougeSU*"))),
    ("rougeW-200", lambda: R("rougeW-200"), ConfigError),
    ("rougeW-30 on 2000 identical tokens",
     lambda: R("rougeW-30").sentence_score("a " * 2000, ["a " * 2000]),
     lambda out: f_of(out, "rougeW-30") == 1.0),
    ("rougeW-6 under rouge155", lambda: R("rougeW-6", compat="rouge155"), ConfigError),
    ("rougeS18446744073709551615", lambda: R("rougeS18446744073709551615"), ConfigError),
    ("rougeS4294967295 is no limit",
     lambda: R(["rougeS4294967295", "rougeS*"]).sentence_score("a b c d", ["d c a b"]),
     lambda out: out["rougeS4294967295"] == out["rougeS*"]),
    ("nan beta", lambda: R("rougeL", beta=float("nan")), ConfigError),
    # -- threads -----------------------------------------------------------------------
    ("threads=0", lambda: R("rougeL").batch_score(["a"] * 40, ["a"] * 40, threads=0),
     ConfigError),
    ("threads=-1", lambda: R("rougeL").batch_score(["a"] * 40, ["a"] * 40, threads=-1),
     ConfigError),
    # -- DCS beyond its length limit (2^24 symbols a pair) -------------------------------
    ("DCS char on 40k identical characters is scored",
     lambda: mtalign.Dcs().batch_score(["ok", "a" * 40_000], ["ok", "a" * 40_000]),
     lambda out: list(out[1]) == [1.0, 1.0, 0.0, 1.0]),
    ("DCS char on two 9M-character texts",
     lambda: mtalign.Dcs().batch_score(["ok", "a" * 9_000_000], ["ok", "b" * 9_000_000]),
     InputError),
    # -- exceptions across processes ---------------------------------------------------
    ("InputError pickles with its message",
     lambda: pickle.loads(pickle.dumps(InputError("refs[3] is empty"))),
     lambda e: type(e) is InputError and str(e) == "refs[3] is empty"),
    ("exception classes live under mtalign",
     lambda: [c.__module__ for c in (MtalignError, ConfigError, InputError)],
     lambda mods: mods == ["mtalign.errors"] * 3),
    # -- pickling and copying of public classes ----------------------------------------
    ("TranslationTable pickles", lambda: pickle.loads(pickle.dumps(_table())),
     lambda t: t.entries() == _table().entries()),
    ("TranslationTable deep-copies", lambda: copy.deepcopy(_table()),
     lambda t: t.entries() == _table().entries()),
]


@pytest.mark.parametrize("name,thunk,expected", CASES, ids=[c[0] for c in CASES])
def test_catalogue(name: str, thunk: Callable[[], Any], expected: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MtalignWarning)
        if isinstance(expected, type) and issubclass(expected, BaseException):
            with pytest.raises(expected):
                thunk()
        else:
            assert expected(thunk()), name


def test_messages_name_the_item() -> None:
    with pytest.raises(InputError, match=r"hyps\[1\].*surrogate.*character 1"):
        R("rougeL").batch_score(["ok", "a\ud800"], ["a", "a"])
    with pytest.raises(InputError, match=r"refs\[0\]\[1\]"):
        mtalign.Bleu().corpus_score(["a"], [["a", "b\ud800"]])
    with pytest.raises(InputError, match=r"hyps is a set"):
        R("rougeL").batch_score({"a"}, ["a"])
    with pytest.raises(InputError, match=r"refs_from_streams"):
        R("rougeL").batch_score(["a", "b", "c"], [["a", "b", "c"], ["a", "b", "c"]])
    with pytest.raises(InputError, match=r"hyps\[1\].*18000000 symbols.*limit"):
        mtalign.Dcs().batch_score(["ok", "a" * 9_000_000], ["ok", "b" * 9_000_000])
    with pytest.raises(InputError, match=r"18000000 symbols.*limit"):
        mtalign.kernels.dcs([0] * 9_000_000, [1] * 9_000_000)


def test_ambiguous_streams_warn() -> None:
    hyps = ["the cat sat", "a dog ran"]
    streams = [["the cat sat", "a dog ran"], ["the cat sits", "a dog runs"]]
    with pytest.warns(MtalignWarning, match="refs_from_streams"):
        R("rougeL").batch_score(hyps, streams)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MtalignWarning)
        R("rougeL").batch_score(hyps, mtalign.refs_from_streams(streams))


def test_exceptions_cross_process_pools() -> None:
    with ProcessPoolExecutor(1) as ex:
        fut = ex.submit(_raise_input_error, "hyps[7] is not a str")
        with pytest.raises(InputError, match=r"hyps\[7\] is not a str"):
            fut.result()


def test_too_many_threads_are_capped_with_a_warning() -> None:
    hyps = ["a b c"] * 500  # beyond the inline bound: the pool is used
    with pytest.warns(RuntimeWarning, match="threads"):
        out = R("rougeL").batch_score(hyps, hyps, threads=10_000)
    assert (out["rougeL"][:, 2] == 1.0).all()


def test_huge_env_thread_count_is_capped() -> None:
    code = ("import warnings, mtalign; warnings.simplefilter('error');\n"
            "h = ['a b'] * 500\n"
            "try:\n  mtalign.Rouge('rougeL').batch_score(h, h)\n"
            "except RuntimeWarning as w:\n  print('warned', w)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env={**_env(), "MTALIGN_NUM_THREADS": "100000"})
    assert out.returncode == 0, out.stderr
    assert "warned" in out.stdout
    bad = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, env={**_env(), "MTALIGN_NUM_THREADS": "lots"})
    assert "ConfigError" in bad.stderr


def test_many_thread_counts_leave_few_threads() -> None:
    code = ("import mtalign, threading, os\n"
            "h = ['a b'] * 500\n"
            "for n in range(1, 33):\n  mtalign.Rouge('rougeL').batch_score(h, h, threads=n)\n"
            "print(len(os.listdir('/proc/self/task')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=_env())
    assert out.returncode == 0, out.stderr
    # 4 pools kept at most (≤ 4 × 32 threads), not one pool per distinct count (528).
    assert int(out.stdout.split()[-1]) <= 4 * 32 + 8


@pytest.mark.parametrize("make", [
    lambda: mtalign.Rouge(["rougeL", "rougeSU4"]), lambda: mtalign.Bleu(), lambda: mtalign.Nist(),
    lambda: mtalign.Dcs(), lambda: mtalign.Ribes(), lambda: mtalign.Wer(), lambda: mtalign.Per(),
    lambda: mtalign.Sia(), lambda: mtalign.WordSimilarity.from_translation_table(_table()),
    _table,
], ids=["Rouge", "Bleu", "Nist", "Dcs", "Ribes", "Wer", "Per", "Sia", "WordSimilarity",
        "TranslationTable"])
def test_public_classes_pickle_and_copy(make: Callable[[], Any]) -> None:
    obj = make()
    for other in (pickle.loads(pickle.dumps(obj)), copy.deepcopy(obj), copy.copy(obj)):
        assert type(other) is type(obj)
        assert repr(other) == repr(obj)


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "MTALIGN_NUM_THREADS"}
