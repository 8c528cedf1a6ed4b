"""How a text batch's Python objects are read: one pass over the items when every item is a
str (or, in ``refs``, a list or tuple of str), else an item-by-item reading that names the
first bad item. Both readings must give the same rows, and a bad batch must name the same
item whichever reading met it first: the reference items' kinds first (``refs[i]`` neither a
str nor a non-empty list), then the texts in order (hypotheses, then references)."""

from __future__ import annotations

from typing import Any

import mtalign
import pytest
from mtalign import InputError

R = mtalign.Rouge


class Text(str):
    """A str subclass: read by the item-by-item reading."""


class Refs(list):
    """A list subclass as a reference item: read by the item-by-item reading."""


INT = "got int; token ids go in as NumPy integer arrays or mtalign.TokenIds"

BAD: list[tuple[list[Any], list[Any], str]] = [
    (["a", 1], ["a", "b"], f"hyps[1] is not a str ({INT})"),
    (["a", None], ["a", 3], f"refs[1] must be a str or a list of str ({INT})"),
    (["a\ud800", "b"], ["a", []], "refs[1] is empty"),
    (["a", 1], ["\udfff", "b"], f"hyps[1] is not a str ({INT})"),
    (["a", "b"], ["a", ["b", 2]], f"refs[1][1] is not a str ({INT})"),
    (["a", "b"], ["a", ("b", "c\ud800")],
     "refs[1][1] is not valid Unicode text: a lone surrogate at character 1"),
    (["a", "b"], ["a", {"b": 1}], "refs[1] must be a str or a list of str (got dict)"),
    ([b"a", "b"], ["a", "b"], "hyps[0] is not a str (got bytes)"),
    (["a"] * 300 + [1], ["a"] * 301, f"hyps[300] is not a str ({INT})"),
    (["a"] * 301, ["a"] * 300 + [["x", None]], "refs[300][1] is not a str (got NoneType)"),
]


@pytest.mark.parametrize("hyps,refs,message", BAD)
def test_the_first_bad_item_is_named(hyps: list[Any], refs: list[Any], message: str) -> None:
    core = R("rougeL")._core
    with pytest.raises(InputError) as batch:
        core.score_texts(hyps, refs, None)
    assert str(batch.value).startswith(message)
    with pytest.raises(InputError) as matrix:
        core.score_matrix(hyps, refs, None)
    assert str(matrix.value) == str(batch.value)


def corpus(n: int) -> tuple[list[str], list[Any]]:
    """n distinct pairs, some non-ASCII, every fifth with two references (a list or tuple)."""
    words = ["the", "cat", "Übersetzung", "sat", "on", "a", "mat", "東京", "ran", "!"]
    hyps = [" ".join(words[(i * k) % 10] for k in range(1, 2 + i % 9)) + f" {i}"
            for i in range(n)]
    refs: list[Any] = []
    for i in range(n):
        ref = " ".join(words[(i + k) % 10] for k in range(1 + i % 7)) + f" {i}"
        if i % 10 == 0:
            refs.append([ref, hyps[i]])
        elif i % 10 == 5:
            refs.append((ref, "x y"))
        else:
            refs.append(ref)
    return hyps, refs


@pytest.mark.parametrize("threads", [1, 2])
def test_both_readings_give_the_same_rows(threads: int) -> None:
    hyps, refs = corpus(3000)
    core = R(["rougeL", "rouge2"])._core
    plain = core.score_texts(hyps, refs, threads)
    # One str subclass anywhere sends the whole batch to the item-by-item reading.
    for k, (h, r) in enumerate([(hyps[:7] + [Text(hyps[7])] + hyps[8:], refs),
                                (hyps, refs[:9] + [Text(refs[9])] + refs[10:]),
                                (hyps, refs[:10] + [Refs(refs[10])] + refs[11:]),
                                (tuple(hyps), tuple(refs))]):
        checked = core.score_texts(h, r, threads)
        assert checked[0].tolist() == plain[0].tolist(), k
        assert checked[1:] == plain[1:], k
