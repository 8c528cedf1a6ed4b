"""The result of a corpus score with per-sentence scores (NIST, WER, PER, RIBES).

>>> r = CorpusResult("WER", 0.25, np.array([0.5, 0.0]), {"errors": 1}, 0, 0, "tok:13a")
>>> float(r), r.n_sentences, str(r)
(0.25, 2, 'WER = 0.2500 (errors = 1)')
"""

from __future__ import annotations

from typing import Any

import numpy as np


class CorpusResult:
    """A corpus-level score with the per-sentence scores and figures behind it.

    Attributes:
        name: the metric (``"NIST"``, ``"WER"``, ``"PER"``, ``"RIBES"``).
        score: the corpus score.
        per_sentence: (n,) array of sentence scores.
        details: metric-specific figures (e.g. ``errors`` and ``ref_len`` for WER).
        n_sentences, n_empty_hyps, n_empty_refs, signature: as for ROUGE.
    """

    __slots__ = ("name", "score", "per_sentence", "details", "n_sentences", "n_empty_hyps",
                 "n_empty_refs", "signature")
    name: str
    score: float
    per_sentence: np.ndarray
    details: dict[str, Any]
    n_sentences: int
    n_empty_hyps: int
    n_empty_refs: int
    signature: str

    def __init__(self, name: str, score: float, per_sentence: np.ndarray,
                 details: dict[str, Any], n_empty_hyps: int, n_empty_refs: int,
                 signature: str) -> None:
        self.name = name
        self.score = float(score)
        self.per_sentence = per_sentence
        self.details = details
        self.n_sentences = int(per_sentence.shape[0])
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self.signature = signature

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: score, details, counts and signature."""
        return {"score": self.score, **self.details, "n_sentences": self.n_sentences,
                "n_empty_hyps": self.n_empty_hyps, "n_empty_refs": self.n_empty_refs,
                "signature": self.signature}

    def __float__(self) -> float:
        return self.score

    def __repr__(self) -> str:
        return f"CorpusResult({self.name}={self.score:.4f}, n={self.n_sentences})"

    def __str__(self) -> str:
        extra = " ".join(f"{k} = {v:g}" if isinstance(v, (int, float)) else f"{k} = {v}"
                         for k, v in self.details.items())
        return f"{self.name} = {self.score:.4f} ({extra})"
