"""Input shapes that would be silently wrong: unordered containers and reference streams.

Scores pair ``hyps[i]`` with ``refs[i]``, so both must have an order: a ``set`` or ``dict``
would pair items in hash order (different in every process), and is refused. sacrebleu takes
references the other way round, as *streams* (``[[ref1 of seg1, ref1 of seg2, ...], [ref2 of
seg1, ...]]``); :func:`refs_from_streams` turns streams into mtalign's per-segment reference
lists, and a stream-shaped ``refs`` is reported instead of being read as reference sets.

>>> refs_from_streams([["a cat", "a dog"], ["the cat", "the dog"]])
[['a cat', 'the cat'], ['a dog', 'the dog']]
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Any

from mtalign.errors import InputError, MtalignWarning

_UNORDERED: tuple[type, ...] = (Set, Mapping, type({}.keys()), type({}.values()), type({}.items()))


def check_ordered(obj: Any, name: str) -> None:
    """Raises :class:`InputError` when ``obj`` is an unordered container (set, dict, view)."""
    if isinstance(obj, _UNORDERED):
        raise InputError(
            f"{name} is a {type(obj).__name__}, which has no fixed order (pairs would depend on "
            f"the hash seed): pass a list"
        )


def check_nonempty_list(obj: Any, name: str, items: str, item: str, owner: str) -> None:
    """Raises :class:`InputError` unless ``obj`` (called ``name``) is a non-empty sequence
    (not a str): a list of ``items``, at least one ``item`` for every ``owner``.

    >>> check_nonempty_list([], "nbest[2]", "hypotheses", "hypothesis", "sentence")
    Traceback (most recent call last):
    ...
    mtalign.errors.InputError: nbest[2] is empty: every sentence needs at least one hypothesis
    """
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Sequence):
        raise InputError(f"{name} must be a list of {items} (got {type(obj).__name__})")
    if len(obj) == 0:
        raise InputError(f"{name} is empty: every {owner} needs at least one {item}")


def refs_from_streams(*streams: Any) -> list[list[Any]]:
    """Per-segment reference lists from sacrebleu-style reference streams.

    Accepts the streams as separate arguments (``refs_from_streams(ref_a, ref_b)``) or as one
    list of streams (``refs_from_streams([ref_a, ref_b])``); every stream holds one reference
    per segment. Returns ``refs`` with ``refs[i] = [ref_a[i], ref_b[i], ...]``.

    >>> refs_from_streams(["a", "b"], ["c", "d"])
    [['a', 'c'], ['b', 'd']]
    """
    if len(streams) == 1 and not isinstance(streams[0], str) and all(
        isinstance(s, (list, tuple)) for s in streams[0]
    ):
        streams = tuple(streams[0])
    if not streams:
        raise InputError("refs_from_streams needs at least one stream")
    for k, s in enumerate(streams):
        check_ordered(s, f"stream {k}")
        if isinstance(s, str) or not isinstance(s, Iterable):
            raise InputError(f"stream {k} must be a list of str (got {type(s).__name__})")
    lists = [list(s) for s in streams]
    n = len(lists[0])
    for k, s in enumerate(lists):
        if len(s) != n:
            raise InputError(
                f"stream {k} has {len(s)} references but stream 0 has {n}: every stream needs "
                f"one reference per segment"
            )
    return [[s[i] for s in lists] for i in range(n)]


def _overlap(a: str, b: Any) -> int:
    return len(set(a.split()) & set(b.split())) if isinstance(b, str) else 0


def check_stream_shape(hyps: Sequence[Any], refs: Sequence[Any]) -> None:
    """Reports ``refs`` that look like sacrebleu reference streams.

    When the numbers differ (k streams of n segments, k != n) that is an :class:`InputError`
    saying how to pass them. When there are as many streams as hypotheses the shape is
    ambiguous; if the words of ``hyps[i]`` overlap ``refs[k][i]`` more than ``refs[i][k]``
    (on up to 200 segments), an :class:`MtalignWarning` says so.
    """
    n = len(hyps)
    if n < 2 or not hyps or not isinstance(hyps[0], str):
        return
    if not all(isinstance(r, (list, tuple)) for r in refs):
        return
    if len(refs) != n:
        if refs and all(len(r) == n for r in refs):
            raise InputError(
                f"refs holds {len(refs)} lists of {n} references, one per hypothesis: "
                f"sacrebleu-style reference streams. mtalign takes refs[i] = the references of "
                f"hyps[i]; pass mtalign.refs_from_streams(refs)"
            )
        return
    if not all(len(r) == n for r in refs):
        return
    m = min(n, 200)
    as_sets = sum(_overlap(hyps[i], refs[i][k]) for i in range(m) for k in range(n))
    as_streams = sum(_overlap(hyps[i], refs[k][i]) for i in range(m) for k in range(n))
    if as_streams > as_sets:
        warnings.warn(
            f"refs is {n} lists of {n} references for {n} hypotheses, and hyps[i] matches "
            f"refs[k][i] better than refs[i][k]: these look like sacrebleu-style reference "
            f"streams. mtalign takes refs[i] = the references of hyps[i]; if these are streams, "
            f"pass mtalign.refs_from_streams(refs)",
            MtalignWarning,
            stacklevel=4,
        )


__all__ = ["check_ordered", "check_stream_shape", "refs_from_streams"]
