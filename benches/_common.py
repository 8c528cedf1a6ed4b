"""Helpers shared by the benchmark scripts: reading aligned text files, machine facts, timing."""

from __future__ import annotations

import gc
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from mtalign.io import read_lines

__all__ = ["read_lines"]  # one reader for every script: mtalign.io's


def installed_version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def machine_info(dists: Iterable[str]) -> dict[str, Any]:
    """Usable cores, CPU model, Python, thread settings and the versions of `dists`."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    return {
        "nproc": usable,
        "cpu_count": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "RAYON_NUM_THREADS": os.environ.get("RAYON_NUM_THREADS"),
        "MTALIGN_NUM_THREADS": os.environ.get("MTALIGN_NUM_THREADS"),
        "versions": {d: installed_version(d) for d in dists},
    }


def score_column(out: Any, name: str | None = None) -> Any:
    """One float column of a ``batch_score`` result, whatever its shape: a
    :class:`mtalign.Scores` (column ``name``, a ROUGE variant's F, else the last), a plain
    (n,) array, a structured array with named columns (``name``, else ``score``, else the
    first one), or a dict of arrays (``name``'s; an (n, 3) precision/recall/F array gives
    F)."""
    import numpy as np

    columns = getattr(out, "columns", None)
    if columns and isinstance(out, np.ndarray):  # mtalign.Scores: by column name
        block = np.asarray(out[name] if name is not None else out.table)
        return block[:, -1] if block.ndim == 2 else block  # ROUGE: F of the variant
    if isinstance(out, dict):
        arr = np.asarray(out[name] if name is not None else next(iter(out.values())))
        return arr[:, -1] if arr.ndim == 2 else arr
    arr = np.asarray(out)
    names = arr.dtype.names
    if names:
        if name in names:
            field = np.asarray(arr[name])
            # ROUGE: a (n, 3) precision/recall/F block per variant; F is the score.
            return field[:, -1] if field.ndim == 2 else field
        mine = [n for n in names if name and n.startswith(name)]
        f_like = [n for n in mine if n[len(name or ""):].lstrip("_.:-").lower().startswith("f")]
        key = next((k for k in (*f_like, *mine[-1:], "score") if k in names), names[0])
        field = np.asarray(arr[key])
        return field[:, -1] if field.ndim == 2 else field
    return arr[:, -1] if arr.ndim == 2 else arr


def headline(result: Any) -> float:
    """The headline number of a score result: ``.score`` when it has one, else ``float()``."""
    score = getattr(result, "score", None)
    return float(score if score is not None else result)


class Timing(float):
    """The seconds of a timed call (a float: the median of its runs, or their minimum), with
    every run's seconds in ``times`` and what the last run returned in ``result``."""

    times: list[float]
    result: Any


def timed(fn: Callable[[], Any], repeat: int, *, best: bool = False,
          warm_up: bool = False) -> Timing:
    """Wall seconds of ``fn()`` over ``repeat`` runs: their median, or with ``best`` their
    minimum. A garbage collection before each run and none during it (outside the timing);
    with ``warm_up``, one untimed call first (thread pool, caches)."""
    if warm_up:
        fn()
    times, result = [], None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    out = Timing(min(times) if best else statistics.median(times))
    out.times, out.result = times, result
    return out


def print_targets(issue: str, verdicts: Sequence[str], when_none: str) -> None:
    """The ``## Targets (issue)`` section of a report: one verdict a line, or ``when_none``."""
    print(f"\n## Targets ({issue})")
    print("\n".join(verdicts) if verdicts else when_none)


def edit_words(words: list[str], rng: random.Random, vocab: Sequence[str], keep: int) -> None:
    """Zero to three random edits of ``words``, in place: delete one (while more than
    ``keep`` words remain), swap two, or replace one by a word of ``vocab`` (synthetic
    near-duplicate outputs)."""
    for _ in range(rng.randint(0, 3)):
        k = rng.randrange(len(words))
        op = rng.random()
        if op < 0.3 and len(words) > keep:
            del words[k]
        elif op < 0.6:
            j = rng.randrange(len(words))
            words[k], words[j] = words[j], words[k]
        else:
            words[k] = rng.choice(vocab)

