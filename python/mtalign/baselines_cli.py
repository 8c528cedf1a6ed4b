"""The classic baselines in ``mtalign score``: ``bleu<N>``, ``bleus<N>``, ``nist``, ``wer``,
``per``, ``ribes``.

``bleu<N>`` (N = 1..12; ``bleu`` = ``bleu4``) is sacrebleu's BLEU (``exp`` smoothing, which
corpus BLEU practically never needs); ``bleus<N>`` is Lin & Och's smoothed BLEU (``add1``).
Corpus values come from summed statistics; ``--sentence-level`` adds sentence scores.

>>> split_baselines(["rougeL", "bleus4", "wer"])
(['bleus4', 'wer'], ['rougeL'])
"""

from __future__ import annotations

import argparse
import re
from typing import Any

import numpy as np

from mtalign.bleu import Bleu
from mtalign.error_rate import Per, Wer
from mtalign.nist import Nist
from mtalign.ribes import Ribes

BASELINE_HELP = "bleu, bleu<N>, bleus<N> (N = 1..12), nist, wer, per, ribes"
_BLEU = re.compile(r"^bleu(s?)(\d*)$")
_OTHERS = {"nist": Nist, "wer": Wer, "per": Per, "ribes": Ribes}


def split_baselines(metrics: list[str]) -> tuple[list[str], list[str]]:
    """(baseline names, the other names), each in the given order."""
    base = [m for m in metrics if m in _OTHERS or _BLEU.match(m)]
    return base, [m for m in metrics if m not in base]


def make(name: str, tokenize: str | None, lowercase: bool) -> Any:
    """The scorer behind a baseline name."""
    tok = tokenize or "13a"
    m = _BLEU.match(name)
    if m:
        order = int(m.group(2) or 4)
        return Bleu(order, smooth="add1" if m.group(1) else "exp", tokenize=tok,
                    lowercase=lowercase)
    return _OTHERS[name](tokenize=tok, lowercase=lowercase)


def score_baselines(args: argparse.Namespace, hyps: list[str], refs: list[list[str]],
                    names: list[str], scores: dict, sentences: dict, signatures: dict,
                    counts: dict) -> None:
    """Adds each baseline's corpus score, sentence scores and signature to the CLI output."""
    for name in names:
        scorer = make(name, args.tokenize, args.lowercase_baselines)
        res = scorer.corpus_score(hyps, refs, threads=args.threads)
        scores[name] = {"score": res.score}
        per_sentence = scorer.batch_score(hyps, refs, threads=args.threads)
        sentences[name] = (("score",), np.asarray(per_sentence).reshape(-1, 1))
        signatures[name] = res.signature
        counts["n_empty_hyps"] = max(counts["n_empty_hyps"], res.n_empty_hyps)
        counts["n_empty_refs"] = max(counts["n_empty_refs"], res.n_empty_refs)
