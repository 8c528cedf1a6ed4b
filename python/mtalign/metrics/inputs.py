"""Input handling shared by every metric: sequences, thread counts, warnings, signatures.

>>> nrefs(["a", "b"]), nrefs(["a", ["b", "c"]])
('1', 'var')
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign.errors import MtalignWarning


def as_list(obj: Any, name: str) -> list | tuple:
    """A list or tuple of sentences (other iterables are materialised)."""
    if isinstance(obj, (list, tuple)):
        return obj
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
        raise InputError(f"{name} must be a list of sentences (got {type(obj).__name__})")
    return list(obj)


def check_threads(threads: int | None) -> int | None:
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"threads must be a positive int or None (got {threads!r})")
    return threads


def check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False (got {value!r})")


def nrefs(refs: Sequence[Any]) -> str:
    """The number of references per segment for a signature ("var" when it varies)."""
    counts = {1 if isinstance(r, str) else len(r) for r in refs}
    return str(counts.pop()) if len(counts) == 1 else "var"


def run_batch(core: Any, hyps: Any, refs: Any, threads: int | None,
              tokenize: str) -> tuple[np.ndarray, int, int, list | tuple]:
    """Calls the native scorer on text or pre-tokenized input; warns about vanished text.

    Returns the score array, the numbers of hypotheses and references that produced no
    tokens, and `refs` as a list.
    """
    hyps = as_list(hyps, "hyps")
    refs = as_list(refs, "refs")
    threads = check_threads(threads)
    pretokenized = bool(hyps) and isinstance(hyps[0], (list, tuple))
    if pretokenized:
        arr, hv, rv = core.score_tokens(hyps, refs, threads)
    else:
        arr, hv, rv = core.score_texts(hyps, refs, threads)
    if hv or rv:
        where = f"hyps[{hv[0]}]" if hv else f"refs[{rv[0][0]}][{rv[0][1]}]"
        warnings.warn(
            f"{len(hv)} hypotheses and {len(rv)} references are non-empty but produced no "
            f"tokens with tokenize={tokenize!r} (first: {where}); they score 0",
            MtalignWarning,
            stacklevel=4,
        )
    return arr, len(hv), len(rv), refs


def single_refs(hyp: Any, refs: Any) -> Any:
    """Validates one hypothesis and normalises its references for a batch of one."""
    if isinstance(hyp, str):
        return refs if isinstance(refs, str) else as_list(refs, "refs")
    if isinstance(hyp, (list, tuple)):
        return as_list(refs, "refs")
    raise InputError(f"hyp must be a str or a list of str tokens (got {type(hyp).__name__})")
