"""A large text batch on more than one thread is scored while it is read (references first,
then the hypotheses chunk by chunk in the order that groups pairs sharing a reference); on one
thread it is read whole first. Both must give the same rows, bit for bit, the same vanished
texts in the same order, and refuse bad input naming the same item."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from mtalign import registry

WORDS = ["the", "The", "cat", "sat", "on", "a", "mat", "running", "internationalisation",
         "Übersetzung", "dogs", "x", "ran", "!", "naïve", "q"]


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 18)))


def system_major_batch(seed: int, systems: int = 6, segments: int = 400) -> tuple[list, list]:
    """Every system's outputs for every segment, system after system (as WMT files are
    concatenated), each segment's reference objects shared by all systems. Some hypotheses
    and references vanish (empty or punctuation only), some references equal a hypothesis
    that vanishes, some segments have two references (a list or a tuple), some references
    are equal texts in distinct objects, and systems often agree on a segment."""
    rng = random.Random(seed)
    refs: list[Any] = []
    for g in range(segments):
        kind = g % 11
        if kind == 0:
            refs.append("?! ...")
        elif kind == 1:
            refs.append([_text(rng), "..."])
        elif kind == 2:
            refs.append((_text(rng), _text(rng)))
        elif kind == 3:
            refs.append("".join(["the cat ", "sat"]))  # equal texts, distinct objects
        else:
            refs.append(_text(rng))
    base = [_text(rng) for _ in range(segments)]
    hyps: list[str] = []
    ref_items: list[Any] = []
    for _system in range(systems):
        for g in range(segments):
            roll = rng.random()
            if roll < 0.04:
                hyp = ""
            elif roll < 0.08:
                hyp = "?! ..."  # vanishes, and is also a reference text
            elif roll < 0.35:
                hyp = base[g]  # systems that agree
            else:
                hyp = _text(rng)
            hyps.append(hyp)
            ref_items.append(refs[g])
    return hyps, ref_items


NATIVE = {name: metric for name in registry.example_names()
          for metric in [registry.make_metric(name)[0]]
          if hasattr(getattr(metric, "_core", None), "score_texts")}


@pytest.fixture(params=sorted(NATIVE), ids=str)
def core(request: pytest.FixtureRequest) -> Any:
    return NATIVE[request.param]._core


@pytest.mark.parametrize("seed", [1, 2])
def test_read_while_scored_equals_read_whole(core: Any, seed: int) -> None:
    hyps, refs = system_major_batch(seed)
    whole = core.score_texts(hyps, refs, 1)
    for threads in (2, 3):
        streamed = core.score_texts(hyps, refs, threads)
        assert streamed[0].tobytes() == whole[0].tobytes()
        assert streamed[1] == whole[1]  # vanished hypotheses
        assert streamed[2] == whole[2]  # vanished references, each once, in order


def test_the_batch_has_vanished_texts_on_both_sides(mtalign: Any) -> None:
    hyps, refs = system_major_batch(1)
    _, hyp_vanished, ref_vanished = mtalign.Rouge(["rougeL"])._core.score_texts(hyps, refs, 2)
    assert len(hyp_vanished) > 50 and len(ref_vanished) >= 3
    # Each vanished reference text once: "?! ..." is also a hypothesis, so it comes first.
    assert len(set(ref_vanished)) == len(ref_vanished)
    assert refs[ref_vanished[0][0]] == "?! ..."


def test_a_tuple_batch_is_read_like_a_list(core: Any) -> None:
    hyps, refs = system_major_batch(3)
    listed = core.score_texts(hyps, refs, 2)
    tupled = core.score_texts(tuple(hyps), tuple(refs), 2)
    assert np.array_equal(listed[0], tupled[0], equal_nan=True)
    assert listed[1:] == tupled[1:]


def _refusal(core: Any, hyps: list, refs: list, threads: int) -> str:
    with pytest.raises(Exception) as info:
        core.score_texts(hyps, refs, threads)
    return f"{type(info.value).__name__}: {info.value}"


def test_bad_input_is_named_as_in_order(core: Any) -> None:
    hyps, refs = system_major_batch(4)
    # Two bad hypotheses, the later one in a chunk read first (its segment's group comes
    # first): the first is named, as a batch read in order names it; a reference of the
    # wrong kind is named before any hypothesis.
    cases = []
    h = list(hyps)
    h[2000], h[5] = None, b"bytes"
    cases.append((h, refs))
    h = list(hyps)
    h[1999] = "lone \ud800 surrogate"
    cases.append((h, refs))
    r = list(refs)
    r[7] = 3
    h = list(hyps)
    h[2300] = 1.5
    cases.append((h, r))
    cases.append((hyps, r))
    r = list(refs)
    r[9] = []
    cases.append((hyps, r))
    # A reference's text is read after the hypotheses' (its kind is checked before).
    r = list(refs)
    r[12] = ["fine", 5]
    h = list(hyps)
    h[2100] = None
    cases.append((h, r))
    for h, r in cases:
        assert _refusal(core, h, r, 2) == _refusal(core, h, r, 1)
    assert "hyps[5]" in _refusal(core, *cases[0], 2)
    assert "hyps[1999]" in _refusal(core, *cases[1], 2)
    assert "refs[7]" in _refusal(core, *cases[2], 2)
    assert "refs[9]" in _refusal(core, *cases[4], 2)
    assert "hyps[2100]" in _refusal(core, *cases[5], 2)
