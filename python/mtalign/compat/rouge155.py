"""ROUGE-1.5.5's input options on top of ``Rouge(compat="rouge155")``: stop-word removal
(``-s``) and the length limits ``-l`` (words) and ``-b`` (bytes).

What ROUGE-1.5.5 does with them, for one-sentence texts (one line each, as in its SPL input),
which this module reproduces (``tests/test_rouge155_oracle.py`` runs the script itself):

* ``-l n`` / ``-b n`` apply to the peer (hypothesis) AND to every model (reference) text. The
  text is ASCII-lowercased; ``-l`` keeps its first n whitespace-separated words (split on
  ASCII whitespace, so ``U.S.-based`` is one word; a text starting with whitespace has an empty
  first word), ``-b`` its first n bytes of UTF-8 (a text shorter than the limit is kept whole).
  Only then is it tokenized (``tokenize="rouge155"``).
* ``-s`` drops the tokens found in the SMART stop-word list that ROUGE-1.5.5 ships
  (:data:`SMART_COMMON_WORDS`, 598 lines), before stemming.

Texts with a newline are refused: ROUGE-1.5.5 reads each line as a sentence and applies the
limits across sentences differently for its n-gram and its LCS scores.

>>> from mtalign.compat.rouge155 import Rouge155
>>> r = Rouge155(["rouge1"], remove_stopwords=True)
>>> r.sentence_score("The cat is on the mat", ["A cat sat on a mat"])["rouge1"].recall
1.0
>>> Rouge155(["rouge1"], length_limit=3).sentence_score("a b c d", ["a b x d"])["rouge1"].recall
0.6666666666666666
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from typing import Any, NamedTuple

import numpy as np

from mtalign._mtalign import ConfigError, InputError
from mtalign._mtalign import tokenize as _native_tokenize
from mtalign.metrics.rouge import Rouge, RougeResult

__all__ = ["SMART_COMMON_WORDS", "Interval", "Rouge155", "confidence_intervals", "per_evaluation",
           "rouge155_tokens"]


def _load_stopwords() -> frozenset[str]:
    text = resources.files("mtalign").joinpath("data/smart_common_words.txt").read_text("ascii")
    return frozenset(text.split("\n")) - {""}


SMART_COMMON_WORDS: frozenset[str] = _load_stopwords()
"""ROUGE-1.5.5's ``smart_common_words.txt`` (the SMART system's stop list), one entry a line."""

_ASCII_SPACE = re.compile(rb"[\t\n\x0b\f\r ]+")
_UPPER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def rouge155_tokens(text: str, *, remove_stopwords: bool = False, length_limit: int = 0,
                    byte_limit: int = 0) -> list[str]:
    """The tokens ROUGE-1.5.5 scores for a one-line ``text`` under ``-s``, ``-l``, ``-b``
    (before stemming).

    >>> rouge155_tokens("The U.S.-based firm's CEO said", length_limit=2)
    ['the', 'u', 's', 'based']
    >>> rouge155_tokens("The U.S.-based firm", remove_stopwords=True)
    ['based', 'firm']
    """
    if "\n" in text:
        raise InputError("ROUGE-1.5.5 options need one-line texts (a newline starts a new "
                         "sentence in ROUGE-1.5.5's input)")
    if length_limit and byte_limit:
        raise ConfigError("ROUGE-1.5.5 takes -l or -b, not both")
    if length_limit < 0 or byte_limit < 0:
        raise ConfigError("length limits must be >= 0")
    raw = text.encode("utf-8").translate(_UPPER)
    if length_limit:
        words = _ASCII_SPACE.split(raw)
        if words and words[-1] == b"":  # Perl's split drops trailing empty fields
            words.pop()
        raw = b" ".join(words[:length_limit])
    elif byte_limit and len(raw) >= byte_limit:
        raw = raw[:byte_limit]
    # Bytes outside [A-Za-z0-9-] become spaces in ROUGE-1.5.5, so a cut UTF-8 sequence
    # (replaced here by U+FFFD, also non-ASCII) tokenizes the same.
    tokens = _native_tokenize(raw.decode("utf-8", errors="replace"), tokenize="rouge155")
    if remove_stopwords:
        tokens = [t for t in tokens if t not in SMART_COMMON_WORDS]
    return tokens


class Rouge155:
    """``Rouge(compat="rouge155")`` with ROUGE-1.5.5's ``-s``, ``-l``, ``-b`` options.

    Args:
        variants: ROUGE variant names, as for :class:`mtalign.Rouge`.
        stem: ``-m``.
        multi_ref: ``"average"`` (``-f A``) or ``"best"`` (``-f B``).
        remove_stopwords: ``-s``.
        length_limit: ``-l n`` (0: none).
        byte_limit: ``-b n`` (0: none).
        **options: passed on to :class:`mtalign.Rouge` (e.g. ``jackknife``).
    """

    def __init__(self, variants: Any, *, stem: bool = False, multi_ref: str = "average",
                 remove_stopwords: bool = False, length_limit: int = 0, byte_limit: int = 0,
                 **options: Any) -> None:
        self._opts: dict[str, Any] = {"remove_stopwords": bool(remove_stopwords),
                      "length_limit": int(length_limit), "byte_limit": int(byte_limit)}
        rouge155_tokens("", **self._opts)  # checks the options
        self._rouge = Rouge(variants, compat="rouge155", stem=stem, multi_ref=multi_ref,
                            **options)

    def _refs(self, refs: Any) -> list[list[str]]:
        refs = [refs] if isinstance(refs, str) else list(refs)
        return [rouge155_tokens(r, **self._opts) for r in refs]

    def batch_score(self, hyps: Sequence[str], refs: Sequence[Any],
                    threads: int | None = None) -> np.ndarray:
        """:class:`~mtalign.Scores` with P, R and F of each variant (``out["rougeL"]`` is
        its (n, 3) block), as :meth:`mtalign.Rouge.batch_score`."""
        return self._rouge.batch_score([rouge155_tokens(h, **self._opts) for h in hyps],
                                       [self._refs(r) for r in refs], threads=threads)

    def sentence_score(self, hyp: str, refs: Any) -> RougeResult:
        """The result for one hypothesis and its reference(s) (``result["rouge1"]`` is a
        :class:`~mtalign.Score`), as :meth:`mtalign.Rouge.sentence_score`."""
        return self._rouge.sentence_score(rouge155_tokens(hyp, **self._opts), self._refs(refs))


class Interval(NamedTuple):
    """ROUGE-1.5.5's ``Average_X: mean (95%-conf.int. low - high)``, as printed (5 decimals)."""

    mean: float
    low: float
    high: float


_DRAND48_MULT, _DRAND48_ADD, _DRAND48_MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1


def _perl_rand_indices(n_samples: int, n: int) -> np.ndarray:
    """Row i: ``srand(i)`` then n times ``int(rand(n))``, with Perl's own drand48 (Perl >= 5.20,
    the same on every platform): state = (0x330E + (seed << 16)), then state = state * a + c
    modulo 2^48, and ``rand(n) = n * state / 2^48``. All seeds advance together (uint64
    arithmetic wraps modulo 2^64, of which 2^48 is a divisor)."""
    state = (np.uint64(0x330E) + (np.arange(n_samples, dtype=np.uint64) << np.uint64(16))) \
        & np.uint64(_DRAND48_MASK)
    out = np.empty((n_samples, n), dtype=np.int64)
    mult, add, mask = np.uint64(_DRAND48_MULT), np.uint64(_DRAND48_ADD), np.uint64(_DRAND48_MASK)
    with np.errstate(over="ignore"):
        for j in range(n):
            state = (state * mult + add) & mask
            out[:, j] = np.floor(n * np.ldexp(state.astype(np.float64), -48)).astype(np.int64)
    return out


def _r5(x: float) -> float:
    """``sprintf("%7.5f", x)`` read back as a number."""
    return float(f"{x:.5f}")


def per_evaluation(prf: Any, alpha: float = 0.5) -> list[tuple[float, float, float]]:
    """ROUGE-1.5.5's per-evaluation (R, P, F) from full-precision (P, R, F) rows: R and P
    rounded to 5 decimals, F from the rounded values, rounded (what ``-d`` prints).

    >>> per_evaluation([[1 / 3, 2 / 3, 0.4444]])
    [(0.66667, 0.33333, 0.44444)]
    """
    out = []
    for p, r, _ in np.asarray(prf, dtype=np.float64).tolist():
        r5, p5 = _r5(r), _r5(p)
        den = (1 - alpha) * p5 + alpha * r5
        out.append((r5, p5, _r5(p5 * r5 / den) if den > 0 else 0.0))
    return out


def confidence_intervals(prf: Any, *, confidence: float = 95.0, n_samples: int = 1000,
                         eval_ids: Sequence[str] | None = None, peer_id: str = "1",
                         alpha: float = 0.5) -> dict[str, Interval]:
    """ROUGE-1.5.5's bootstrap confidence intervals (``-c confidence -r n_samples``, the
    default per-sentence averaging) from per-sentence scores.

    Args:
        prf: (n, 3) precision, recall, F of each evaluation (a column block of
            ``Rouge155.batch_score`` / ``Rouge(compat="rouge155").batch_score``).
        eval_ids: the evaluations' IDs in ROUGE-1.5.5's configuration (default ``"1"`` ..
            ``"n"``); the script resamples its ``"<eval ID>.<peer ID>"`` keys in string order,
            so the IDs matter.
        peer_id: the system's ID in the configuration.
        alpha: ``-p`` (0.5: F1).

    What the script does: each evaluation's R and P are rounded to 5 decimals and F is
    computed from the rounded values (and rounded); sample i (0-based) re-seeds Perl's
    generator with ``srand(i)`` and draws n indices with ``int(rand(n))``; the printed average
    is the mean of the sorted sample means, the bounds interpolate between the sorted sample
    means around ``n_samples * (100 - confidence) / 200``. All printed with ``%7.5f``.

    >>> import numpy as np
    >>> ci = confidence_intervals(np.array([[1.0, 0.5, 0.0], [0.5, 0.5, 0.0]]), n_samples=50)
    >>> ci["P"]
    Interval(mean=0.755, low=0.5, high=1.0)
    """
    rows = np.asarray(prf, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[1] != 3:
        raise ConfigError("prf must be an (n, 3) array of precision, recall, F")
    if not 0 <= confidence <= 100 or n_samples < 1:
        raise ConfigError("confidence must be in [0, 100] and n_samples >= 1")
    n = rows.shape[0]
    ids = [str(i + 1) for i in range(n)] if eval_ids is None else [str(i) for i in eval_ids]
    if len(ids) != n:
        raise ConfigError("eval_ids must have one ID per row")
    per_eval = dict(zip((f"{i}.{peer_id}" for i in ids), per_evaluation(rows, alpha),
                        strict=True))
    instances = np.array([per_eval[k] for k in sorted(per_eval)], dtype=np.float64)
    means: list[list[float]] = [[], [], []]
    if n:
        idx = _perl_rand_indices(n_samples, n)
        for m in range(3):
            # cumsum adds left to right, as the script's loop does (np.sum would pair).
            means[m] = (np.cumsum(instances[idx, m], axis=1)[:, -1] / n).tolist()
    else:
        means = [[0.0] * n_samples for _ in range(3)]
    delta = n_samples * ((100 - confidence) / 2.0) / 100.0
    up_a = int(n_samples - delta - 1)
    low_a = int(delta)
    ratio = n_samples - delta - 1 - up_a
    out = {}
    for m, name in enumerate("RPF"):
        ranked = sorted(means[m])
        total = float(np.cumsum(ranked)[-1])

        def at(i: int, ranked: list[float] = ranked) -> float:
            return ranked[i] if 0 <= i < len(ranked) else 0.0

        out[name] = Interval(
            mean=_r5(total / len(ranked)),
            low=_r5(at(low_a) + (at(low_a + 1) - at(low_a)) * ratio),
            high=_r5(at(up_a) + (at(up_a + 1) - at(up_a)) * ratio))
    return out


def _wf(x: float, w: float | None) -> float:
    return float(x) if w is None else float(x) ** w


def _mark_lcs(model: list[str], peer: list[str], mask: list[int], w: float | None) -> None:
    """ROUGE-1.5.5's ``lcs_inner``/``wlcs_inner`` then ``markLCS``: marks the model positions
    of the traced-back (weighted) LCS with one peer sentence."""
    m, n = len(model), len(peer)
    if m == 0:
        return
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)]
    move = [[""] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        ci, cp, ri, rp, mi = c[i], c[i - 1], run[i], run[i - 1], move[i]
        for j in range(1, n + 1):
            if model[i - 1] == peer[j - 1]:
                k = rp[j - 1]
                ci[j] = cp[j - 1] + (1.0 if w is None else _wf(k + 1, w) - _wf(k, w))
                ri[j], mi[j] = k + 1, "d"
            elif cp[j] >= ci[j - 1]:
                ci[j], mi[j] = cp[j], "u"
            else:
                ci[j], mi[j] = ci[j - 1], "l"
    i, j = m, n
    while i and j:
        step = move[i][j]
        if step == "d":
            i, j = i - 1, j - 1
            mask[i] = 1
        elif step == "u":
            i -= 1
        else:
            j -= 1


def summary_lcs(model: list[list[str]], peer: list[list[str]], model_unigrams: dict[str, int],
                peer_unigrams: dict[str, int], weight: float | None = None) -> tuple[float, float]:
    """ROUGE-1.5.5's summary-level (weighted) LCS of one model against the peer: ``(hit,
    base)``. For each model sentence the union of its LCS positions with every peer sentence,
    each hit clipped by the unigram counts of the whole texts (consumed as hits are taken);
    ``base`` sums the sentence lengths (``weight``: ``len ** weight``, and hits are weighted per
    run of consecutive model positions as the script recounts them).

    >>> summary_lcs([["a", "b", "c", "d", "e"]], [["a", "b", "x"], ["a", "c", "e"]],
    ...             {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}, {"a": 2, "b": 1, "c": 1, "e": 1,
    ...             "x": 1})
    (4.0, 5.0)
    """
    mcount, pcount = dict(model_unigrams), dict(peer_unigrams)
    hit = base = 0.0
    for sent in model:
        mask = [0] * len(sent)
        base += _wf(len(sent), weight)
        for p in peer:
            _mark_lcs(sent, p, mask, weight)
        run = 0
        for j, tok in enumerate(sent):
            if mask[j] == 1 and mcount.get(tok, 0) > 0 and pcount.get(tok, 0) > 0:
                if weight is None:
                    hit += 1
                else:
                    run += 1
                    if (j + 1 < len(sent) and mask[j + 1] == 0) or j + 1 == len(sent):
                        hit += _wf(run, weight)
                        run = 0
                mcount[tok] -= 1
                pcount[tok] -= 1
    return hit, base
