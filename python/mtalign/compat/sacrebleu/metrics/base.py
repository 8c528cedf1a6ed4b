"""sacrebleu 2.6.0's ``Score``, ``Signature`` and ``Metric`` base classes, on mtalign.

A metric here keeps an mtalign metric built with explicit options (``_mtalign``); the
per-segment statistics come from it (tokenization, n-gram matching, TER's edit distance), in
sacrebleu's layout, and so do the corpus and sentence scores. ``_compute_score_from_stats``
replays sacrebleu's arithmetic on one summed row, as its significance tests call it (on
float32 rows there, so the numbers are sacrebleu's to the last bit).

>>> Score("BLEU", 12.3456).format(width=1)
'BLEU = 12.3'
>>> s = Signature({"num_refs": 2})
>>> s.format(), s.format(short=True)
('nrefs:2|version:2.6.0+mtalign-0.1.0', '#:2|v:2.6.0+mtalign-0.1.0')
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtalign._mtalign import __version__ as _MTALIGN_VERSION

#: sacrebleu's version, then mtalign's: the signature's ``version`` field.
VERSION = f"2.6.0+mtalign-{_MTALIGN_VERSION}"

if TYPE_CHECKING:
    import numpy as np

# NumPy is imported where it is used: `mtalign sacrebleu -sl` with BLEU never needs it.

sacrelogger = logging.getLogger("sacrebleu")


class Score:
    """A metric's score (sacrebleu's ``Score``): ``name``, ``score``, and after a bootstrap
    the mean and half-width of the 95% interval.

    >>> Score("TER", 40.0)
    TER = 40.00
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        """The score as sacrebleu prints it: ``NAME|SIG = SCORE (μ = M ± CI) VERBOSE``, only
        the number with ``score_only``, or a JSON object with ``is_json``.

        >>> Score("chrF2", 51.234).format(score_only=True)
        '51.23'
        """
        d: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"),
                             "signature": signature}
        text = f"{self.score:.{width}f}"
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            text += f" ({confidence})"
            if is_json:
                d.update(confidence_mean=float(mean), confidence_var=float(ci),
                         confidence=confidence)
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {text}"
        if self._verbose:
            full += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return text
        if is_json:
            for field in signature.split("|"):
                key, value = field.split(":")
                d[key] = value
            import json  # here: the -sl lines never need it
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """Stores the mean and half the 95% interval of bootstrap ``scores``.

        >>> s = Score("X", 1.0); s.estimate_ci([Score("X", v) for v in (1.0, 2.0, 3.0)])
        >>> s._mean, s._ci
        (2.0, 1.0)
        """
        raw = sorted(x.score for x in scores)
        n = len(raw)
        low = n // 40
        self._ci = 0.5 * (raw[n - low - 1] - raw[low])
        import statistics  # here: it imports decimal and fractions
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """sacrebleu's reproducibility signature; the ``version`` field names sacrebleu's
    version and mtalign's (``2.6.0+mtalign-X``).

    >>> Signature({"num_refs": -1}).format()
    'nrefs:var|version:2.6.0+mtalign-0.1.0'
    """

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S",
                      "origlang": "o", "bs": "bs", "ar": "ar", "seed": "rs"}
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": VERSION, "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap"), "ar": None, "seed": args.get("seed"),
            "test": args.get("test_set"), "lang": args.get("langpair"),
            "origlang": args.get("origlang"), "subset": args.get("subset")}

    def format(self, short: bool = False) -> str:
        """``key:value`` pairs joined by ``|``, the version last (abbreviated with ``short``).

        >>> Signature({"num_refs": 1}).format(short=True)
        '#:1|v:2.6.0+mtalign-0.1.0'
        """
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Adds or replaces one field."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class Metric:
    """The parts every metric shares: reference caching, argument checks, statistics in
    sacrebleu's layout, corpus and sentence scores, the bootstrap interval and the signature.

    >>> from mtalign.compat.sacrebleu.metrics import TER
    >>> TER().corpus_score(["a b"], [["a c"]]).score
    50.0
    """

    _SIGNATURE_TYPE: type[Signature] = Signature

    def __init__(self) -> None:
        self._ref_cache: list[list[str]] | None = None
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

    # --- what a metric provides ---------------------------------------------------------
    def _mtalign(self) -> Any:
        """The mtalign metric with this metric's options, every one given explicitly."""
        raise NotImplementedError

    def _to_sacrebleu(self, rows: np.ndarray) -> np.ndarray:
        """mtalign's statistics rows in sacrebleu's layout."""
        return rows

    def _to_mtalign(self, rows: np.ndarray) -> np.ndarray:
        """sacrebleu-layout rows as mtalign's (for its corpus computation)."""
        return rows

    def _score_of(self, result: Any) -> Score:
        """sacrebleu's score object from an mtalign result."""
        raise NotImplementedError

    def _score_of_rows(self, rows: np.ndarray) -> Score:
        """The corpus score of mtalign's statistics rows, computed by mtalign."""
        return self._score_of(self._mtalign().corpus_from_statistics(rows))

    def _compute_score_from_stats(self, stats: Any) -> Score:
        """sacrebleu's score of one summed statistics row, with sacrebleu's arithmetic."""
        raise NotImplementedError

    def _sentence_lines(self, rows: np.ndarray, width: int, score_only: bool,
                        signature: str) -> list[str]:
        """``sentence_score(...).format(width, score_only, signature)`` of each of mtalign's
        statistics rows (``-sl``): the scores of all rows in one mtalign call."""
        head = f"{self._name()}|{signature} = " if signature else f"{self._name()} = "
        scores = self._mtalign().scores_from_statistics(rows).tolist()
        if score_only:
            return [f"{x:.{width}f}" for x in scores]
        return [f"{head}{x:.{width}f}" for x in scores]

    def _name(self) -> str:
        """The score's name (``BLEU``, ``chrF2``, ``TER``)."""
        raise NotImplementedError

    def _scores_of_sums(self, sums: np.ndarray) -> list[Any]:
        """The score of each summed row (resamples of the significance tests)."""
        return [self._compute_score_from_stats(row).score for row in sums]

    def _preprocess_segment(self, sent: str) -> str:
        return sent

    # --- shared -------------------------------------------------------------------------
    def _check_sentence_score_args(self, hyp: Any, refs: Any) -> None:
        prefix = self.__class__.__name__
        err = None
        if not isinstance(hyp, str):
            err = "The argument `hyp` should be a string."
        elif isinstance(refs, str) or not isinstance(refs, Sequence):
            err = "The argument `refs` should be a sequence of strings."
        elif not isinstance(refs[0], str) and refs[0] is not None:
            err = "Each element of `refs` should be a string."
        if err:
            raise TypeError(f"{prefix}: {err}")

    def _check_corpus_score_args(self, hyps: Any, refs: Any) -> None:
        prefix = self.__class__.__name__
        err = None
        if not isinstance(hyps, Sequence):
            err = "`hyps` should be a sequence of strings."
        elif not isinstance(hyps[0], str):
            err = "Each element of `hyps` should be a string."
        elif any(line is None for line in hyps):
            err = "Undefined line in hypotheses stream!"
        if refs is not None:
            if not isinstance(refs, Sequence):
                err = "`refs` should be a sequence of sequence of strings."
            elif not isinstance(refs[0], Sequence):
                err = "Each element of `refs` should be a sequence of strings."
            elif not isinstance(refs[0][0], str) and refs[0][0] is not None:
                err = "`refs` should be a sequence of sequence of strings."
        if err:
            raise TypeError(f"{prefix}: {err}")

    def _cache_references(self, references: Sequence[Sequence[str | None]]) -> list[list[str]]:
        """Reference streams -> each segment's references (``None`` placeholders dropped, so
        segments may have different numbers); sets ``num_refs`` (-1: variable)."""
        per_segment = [[r for r in refs if r is not None]
                       for refs in zip(*references, strict=False)]
        counts = {len(refs) for refs in per_segment}
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return per_segment

    def _segment_refs(self, references: Any) -> list[list[str]]:
        if references:
            return self._cache_references(references)
        if self._ref_cache:
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    def _mtalign_rows(self, hypotheses: Sequence[str], references: Any) -> np.ndarray:
        """mtalign's statistics rows of the hypotheses (the cached references if None)."""
        refs = self._segment_refs(references)
        hyps = list(hypotheses)[:len(refs)]
        refs = refs[:len(hyps)]
        if not self._force:
            self._check_tokenized(hyps)
        import numpy as np
        return np.asarray(self._mtalign().statistics(hyps, refs), dtype=np.float64)

    def _check_tokenized(self, hyps: Sequence[str]) -> None:
        if sum(h.endswith(" .") for h in hyps) >= 100:
            sacrelogger.warning("That's 100 lines that end in a tokenized period ('.')")
            sacrelogger.warning("It looks like you forgot to detokenize your test data, "
                                "which may hurt your score.")
            sacrelogger.warning("If you insist your data is detokenized, or don't care, you "
                                "can suppress this message with the `force` parameter.")

    def _extract_corpus_statistics(self, hypotheses: Sequence[str],
                                   references: Any) -> np.ndarray:
        """Each segment's statistics, in sacrebleu's layout (one row per segment)."""
        return self._to_sacrebleu(self._mtalign_rows(hypotheses, references))

    def _aggregate_and_compute(self, stats: Any) -> Score:
        """The corpus score of segment statistics (sacrebleu's layout), computed by mtalign."""
        import numpy as np
        rows = np.asarray(stats, dtype=np.float64).reshape(len(stats), -1)
        total = rows.sum(0, keepdims=True)
        return self._score_of_rows(self._to_mtalign(total))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> Any:
        """One hypothesis against its references (a sequence of strings)."""
        self._check_sentence_score_args(hypothesis, references)
        rows = self._mtalign_rows([hypothesis], [[r] for r in references])
        return self._score_of_rows(rows)

    def corpus_score(self, hypotheses: Sequence[str], references: Any,
                     n_bootstrap: int = 1) -> Any:
        """The corpus score; with ``n_bootstrap`` > 1, also sacrebleu's bootstrap mean and
        95% interval (``SACREBLEU_SEED``, default 12345, seeds the draws)."""
        self._check_corpus_score_args(hypotheses, references)
        rows = self._mtalign_rows(hypotheses, references)
        score = self._score_of_rows(rows)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, boot = _bootstrap_resample(self._to_sacrebleu(rows), self, n_bootstrap)
            score.estimate_ci(boot)
        return score

    def get_signature(self) -> Signature:
        """The signature (known once references have been read)."""
        return self._SIGNATURE_TYPE(self.__dict__)


# -- sacrebleu's bootstrap (significance.py takes it from here: it needs Score and Metric) --

def _seed() -> tuple[str, int | None]:
    seed = os.environ.get("SACREBLEU_SEED", "12345")
    return seed, None if seed.lower() == "none" else int(seed)


def _resampled_scores(stats32: np.ndarray, idxs: np.ndarray, metric: Metric) -> list[Any]:
    """The score of each resample (a row of ``idxs``) of float32 statistics, each resample
    summed as sacrebleu sums it."""
    import numpy as np
    sums = np.stack([stats32[i].sum(0) for i in idxs]) if len(idxs) else \
        np.zeros((0, stats32.shape[1]), dtype=np.float32)
    return metric._scores_of_sums(sums)


def _bootstrap_resample(stats: Any, metric: Metric, n_samples: int = 1000
                        ) -> tuple[str, list[Score]]:
    """sacrebleu's bootstrap of one system: the seed as a string and the resamples'
    scores."""
    import numpy as np
    text, seed = _seed()
    rng = np.random.default_rng(seed)
    idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    scores = _resampled_scores(np.array(stats, dtype="float32"), idxs, metric)
    return text.lower(), [Score("", s) for s in scores]


__all__ = ["VERSION", "Metric", "Score", "Signature", "sacrelogger"]
