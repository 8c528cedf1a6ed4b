"""One result family for every metric: what ``sentence_score``, ``corpus_score`` and
``corpus_from_statistics`` return.

:class:`Result` holds what every result shares: the counts (``n_sentences``,
``n_empty_hyps``, ``n_empty_refs``), the ``signature``, ``to_dict()``, ``float(result)`` (the
headline number) and ``str(result)``. Subclasses add fields only where they differ:

* :class:`CorpusResult`: one number (NIST, WER, PER, RIBES, SIA) with the per-sentence scores;
* :class:`BleuResult`: that, plus BLEU's counts, totals, precisions and brevity penalty;
* :class:`RougeResult`: precision, recall and F per ROUGE variant (``result["rougeL"]``);
* :class:`DcsResult`: DCS's four numbers (``result["cs0"]``, ``result.dcs``).

A sentence's result is the result of a corpus of one sentence. Views (``scores``,
``per_sentence``, the signature) are computed when first read, so scoring one sentence costs
little more than the native call; what they are computed from is data (the metric, its
statistics rows, the references), never a closure.

Every result travels: it pickles (any protocol from 2), ``copy.copy`` / ``copy.deepcopy``
it, and the copy is ``==`` to the original (numbers compared NaN-aware, arrays by shape and
values). Pickling and copying compute the views first, so what travels is plain numbers and
arrays, not the metric. ``to_dict()`` holds only ``dict``, ``list``, ``str``, ``int``,
``float``, ``bool`` and ``None`` (no NumPy scalar or array), so ``json.dumps`` accepts it.
NaN policy: a number that is undefined stays ``float('nan')``, which ``json.dumps`` writes
as ``NaN`` (its default ``allow_nan=True``, as ``mtalign``'s own JSON output) and
``json.loads`` reads back; ``None`` (``null``) means "not computed" (e.g. no bootstrap).

>>> r = CorpusResult("WER", 0.25, np.array([0.5, 0.0]), {"errors": 1}, 0, 0, "tok:13a")
>>> float(r), r.n_sentences, str(r)
(0.25, 2, 'WER = 0.2500 (errors = 1)')
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, ValuesView
from typing import Any, NamedTuple

import numpy as np

from mtalign._travel import Travels, plain
from mtalign.metrics.inputs import nrefs
from mtalign.token_ids import IdRefs, ids_signature


class Score(NamedTuple):
    """Precision, recall and F-measure of one ROUGE variant (rouge-score's field order).

    >>> Score(0.5, 1.0, 2 / 3).fmeasure
    0.6666666666666666
    """

    precision: float
    recall: float
    fmeasure: float

    def to_dict(self) -> dict[str, float]:
        """The three numbers by name, as plain floats."""
        return plain(self._asdict())  # type: ignore[no-any-return]


class DcsScore(NamedTuple):
    """The four DCS scores of one hypothesis (see :class:`mtalign.Dcs`).

    >>> DcsScore(1.0, 1.0, 0.0, 1.0).dcs
    1.0
    """

    cs0: float
    cs1: float
    cs2: float
    dcs: float

    def to_dict(self) -> dict[str, float]:
        """The four numbers by name, as plain floats."""
        return plain(self._asdict())  # type: ignore[no-any-return]


_new_tuple = tuple.__new__  # builds a NamedTuple from a list without checks

#: DCS's statistics columns, in order.
DCS_FIELDS = DcsScore._fields


class Confidence(NamedTuple):
    """A bootstrap confidence interval of a corpus score (``corpus_score(n_bootstrap=)``),
    as sacrebleu's ``--confidence`` reports it: the mean of the resampled scores, ``ci`` =
    half the width of the 95% interval, and the interval's bounds.

    >>> Confidence(20.5, 0.75, 19.8, 21.3, 1000, 12345).ci
    0.75
    """

    mean: float
    ci: float
    low: float
    high: float
    n_bootstrap: int
    seed: int | None

    def to_dict(self) -> dict[str, Any]:
        """The fields by name, as plain numbers."""
        return plain(self._asdict())  # type: ignore[no-any-return]


def _make_signature(lazy: tuple[Any, ...]) -> str:
    """The signature a result stores as data until it is read: ``(metric, references)`` of
    one sentence, or ``(metric, references, n_bootstrap, seed)`` of a corpus (references
    None: no ``nrefs``, as ``corpus_from_statistics``)."""
    if len(lazy) == 2:
        metric, refs = lazy
        sig: str = metric.signature(nrefs([refs]))
        return ids_signature(sig) if isinstance(refs, IdRefs) else sig
    metric, refs, n_bootstrap, seed = lazy
    sig = metric.signature(None if refs is None else nrefs(refs))
    if isinstance(refs, IdRefs):
        sig = ids_signature(sig)
    if n_bootstrap > 1:
        head, _, rest = sig.partition("|")
        sig = f"{head}|bs:{n_bootstrap}|seed:{str(seed).lower()}|{rest}"
    return sig


class Result(Travels):
    """What every metric's result has: counts, a signature, ``float()`` and ``to_dict()``.

    Attributes:
        n_sentences: number of hypotheses scored.
        n_empty_hyps / n_empty_refs: non-empty texts that produced no tokens.
        signature: the ``key:value|...`` string that makes the numbers reproducible.
        confidence: a :class:`Confidence` when ``corpus_score`` ran a bootstrap, else None.
    """

    __slots__ = ("n_sentences", "n_empty_hyps", "n_empty_refs", "_signature", "confidence")
    n_sentences: int
    n_empty_hyps: int
    n_empty_refs: int
    confidence: Confidence | None

    def __init__(self, n_sentences: int, n_empty_hyps: int, n_empty_refs: int,
                 signature: Any) -> None:
        self.n_sentences = n_sentences
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        # A str, or the data it is made of when first read (see _make_signature).
        self._signature = signature
        self.confidence = None

    def _ci_text(self, digits: int = 4) -> str:
        """`` (μ = mean ± ci)`` after the score when a bootstrap ran (sacrebleu's form)."""
        c = self.confidence
        return "" if c is None else f" (μ = {c.mean:.{digits}f} ± {c.ci:.{digits}f})"

    @property
    def signature(self) -> str:
        """The ``key:value|...`` string of the metric's options and version."""
        sig = self._signature
        if not isinstance(sig, str):
            sig = _make_signature(sig)
            self._signature = sig
        return sig

    def _materialize(self) -> None:
        self.signature  # noqa: B018 (made from the metric now: the metric does not travel)

    @property
    def score(self) -> float:
        """The headline number (``float(result)``)."""
        raise NotImplementedError

    def __float__(self) -> float:
        return self.score

    def _fields(self) -> dict[str, Any]:
        """The metric-specific part of :meth:`to_dict`."""
        return {"score": self.score}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the metric's figures, the counts, the bootstrap confidence
        (when there is one) and the signature."""
        out = {**self._fields(), "n_sentences": self.n_sentences,
               "n_empty_hyps": self.n_empty_hyps, "n_empty_refs": self.n_empty_refs}
        if self.confidence is not None:
            out["confidence"] = self.confidence._asdict()
        out["signature"] = self.signature
        return plain(out)  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(score={self.score:.4f}, n={self.n_sentences})"

    def __str__(self) -> str:
        return f"{type(self).__name__} = {self.score:.4f}"


class CorpusResult(Result):
    """One number per corpus (NIST, WER, PER, RIBES, SIA) and the sentence scores behind it.

    Attributes:
        name: the metric (``"NIST"``, ``"WER"``, ``"PER"``, ``"RIBES"``, ``"SIA"``).
        score: the corpus score (``float(result)``).
        per_sentence: (n,) array of sentence scores.
        details: metric-specific figures (e.g. ``errors`` and ``ref_len`` for WER).
    """

    __slots__ = ("name", "_score", "_per_sentence", "details")
    name: str
    details: dict[str, Any]

    def __init__(self, name: str, score: float, per_sentence: Any,
                 details: dict[str, Any], n_empty_hyps: int, n_empty_refs: int,
                 signature: Any, n_sentences: int | None = None) -> None:
        # per_sentence: an (n,) array; or (metric, statistics rows), made into
        # metric._sentence_values(rows, 0) when first read (then n_sentences is given); or
        # None for one sentence (its score).
        if n_sentences is None:
            n_sentences = int(per_sentence.shape[0])
        # (Result.__init__ inlined: this runs once per sentence_score.)
        self.n_sentences = n_sentences
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self._signature = signature
        self.confidence = None
        self.name = name
        self._score = float(score)
        self._per_sentence = per_sentence
        self.details = details

    @property
    def per_sentence(self) -> np.ndarray:
        """(n,) float64 array of sentence scores."""
        each = self._per_sentence
        if not isinstance(each, np.ndarray):
            if each is None:
                each = np.array([self._score])
            else:
                metric, rows = each
                each = np.asarray(metric._sentence_values(rows, 0), dtype=np.float64)
            self._per_sentence = each
        return each  # type: ignore[no-any-return]

    def _materialize(self) -> None:
        Result._materialize(self)
        self.per_sentence  # noqa: B018

    @property
    def score(self) -> float:
        """The corpus score."""
        return self._score

    def _fields(self) -> dict[str, Any]:
        return {"score": self._score, **self.details}

    def __repr__(self) -> str:
        return f"CorpusResult({self.name}={self._score:.4f}, n={self.n_sentences})"

    def __str__(self) -> str:
        extra = " ".join(f"{k} = {v:g}" if isinstance(v, (int, float)) else f"{k} = {v}"
                         for k, v in self.details.items())
        head = f"{self.name} = {self._score:.4f}{self._ci_text()}"
        return f"{head} ({extra})" if extra else head


class BleuResult(CorpusResult):
    """A BLEU score with its sufficient statistics (sacrebleu's ``BLEUScore`` fields).

    Attributes:
        score: BLEU, 0-100.
        counts / totals: clipped n-gram matches and hypothesis n-grams per order (raw: the
            ``add-k`` smoothing's k is not added in).
        precisions: the (smoothed) precision of each order used in the score, in percent.
        bp: brevity penalty. ratio: sys_len / ref_len.
        sys_len / ref_len: hypothesis and (chosen) reference lengths, summed.
        per_sentence: (n,) array, the BLEU of each sentence's own statistics row.
    """

    __slots__ = ("_figures", "_fields_cache")

    def __init__(self, figures: tuple[Any, ...], per_sentence: Any, n_empty_hyps: int,
                 n_empty_refs: int, signature: Any, n_sentences: int | None = None) -> None:
        # figures: the native (score, bp, precisions, sys_len, ref_len, counts, totals);
        # everything but the score is converted when first read. (sentence_bleu_result
        # stores (native core, one statistics row) instead: the figures are made from it.
        # Pickling and copying convert them first and keep only the converted figures.)
        CorpusResult.__init__(self, "BLEU", figures[0], per_sentence, {}, n_empty_hyps,
                              n_empty_refs, signature, n_sentences)
        self._figures = figures
        self._fields_cache: dict[str, Any] | None = None

    def _figure(self, name: str) -> Any:
        cache = self._fields_cache
        if cache is None:
            figures = self._figures
            if len(figures) == 2:  # (core, row) of one sentence
                core, row = figures
                figures = core.corpus(np.array([row], dtype=np.float64))
            _, bp, precisions, sys_len, ref_len, counts, totals = figures
            sys_len = int(sys_len) if float(sys_len).is_integer() else float(sys_len)
            ref_len = int(ref_len) if float(ref_len).is_integer() else float(ref_len)
            cache = {"bp": float(bp), "precisions": [float(p) for p in precisions],
                     "sys_len": sys_len, "ref_len": ref_len,
                     "counts": [int(c) for c in counts], "totals": [int(t) for t in totals],
                     "ratio": sys_len / ref_len if ref_len else 0.0}
            self._fields_cache = cache
        return cache[name]

    def _materialize(self) -> None:
        CorpusResult._materialize(self)
        self._figure("bp")
        self._figures = ()  # the native figures (or core) stay behind; the cache has them

    @property
    def counts(self) -> list[int]:
        """Clipped n-gram matches per order."""
        return self._figure("counts")  # type: ignore[no-any-return]

    @property
    def totals(self) -> list[int]:
        """Hypothesis n-grams per order."""
        return self._figure("totals")  # type: ignore[no-any-return]

    @property
    def precisions(self) -> list[float]:
        """The (smoothed) precision of each order, in percent."""
        return self._figure("precisions")  # type: ignore[no-any-return]

    @property
    def bp(self) -> float:
        """The brevity penalty."""
        return self._figure("bp")  # type: ignore[no-any-return]

    @property
    def ratio(self) -> float:
        """sys_len / ref_len (0 without reference words)."""
        return self._figure("ratio")  # type: ignore[no-any-return]

    @property
    def sys_len(self) -> float:
        """Hypothesis length, summed (an int when whole)."""
        return self._figure("sys_len")  # type: ignore[no-any-return]

    @property
    def ref_len(self) -> float:
        """Chosen reference length, summed (an int when whole)."""
        return self._figure("ref_len")  # type: ignore[no-any-return]

    def _fields(self) -> dict[str, Any]:
        return {"score": self._score, "counts": self.counts, "totals": self.totals,
                "precisions": self.precisions, "bp": self.bp, "ratio": self.ratio,
                "sys_len": self.sys_len, "ref_len": self.ref_len,
                "per_sentence": self.per_sentence}

    def __repr__(self) -> str:
        return f"BleuResult(score={self._score:.4f}, n={self.n_sentences})"

    def __str__(self) -> str:
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (f"BLEU = {self._score:.2f}{self._ci_text(2)} {prec} (BP = {self.bp:.3f} "
                f"ratio = {self.ratio:.3f} hyp_len = {self.sys_len} ref_len = {self.ref_len})")


_new_object = object.__new__

# The sentence_*result builders below write the slots themselves (no constructor): they run
# once per sentence_score call, where a Python call is a tenth of its cost.


def sentence_result(name: str, score: float, details: dict[str, Any], signature: Any,
                    cls: type[CorpusResult] = CorpusResult) -> Any:
    """What ``CorpusResult(name, score, None, details, 0, 0, signature, 1)`` makes (one
    sentence, no text vanished), without the constructor's argument handling: this runs
    once per ``sentence_score`` call. ``cls``: a subclass whose own slots the caller sets.

    >>> r = sentence_result("WER", 0.5, {"errors": 1, "ref_len": 2}, "tok:13a")
    >>> float(r), r.per_sentence.tolist(), r.n_sentences, str(r)
    (0.5, [0.5], 1, 'WER = 0.5000 (errors = 1 ref_len = 2)')
    """
    r = _new_object(cls)
    r.n_sentences = 1
    r.n_empty_hyps = 0
    r.n_empty_refs = 0
    r._signature = signature
    r.confidence = None
    r.name = name
    r._score = score
    r._per_sentence = None
    r.details = details
    return r


def mean_result(name: str, metric: Any, rows: np.ndarray, n_empty_hyps: int,
                n_empty_refs: int, signature: Any) -> CorpusResult:
    """The corpus result of a metric whose statistics row is its sentence score and whose
    corpus score is their mean (RIBES, SIA); one row keeps ``(metric, rows)`` for
    ``per_sentence``, read when first asked for.

    >>> r = mean_result("RIBES", None, np.array([[0.5], [1.0]]), 0, 0, "tok:13a")
    >>> float(r), r.per_sentence.tolist()
    (0.75, [0.5, 1.0])
    """
    if rows.size == 1:  # one sentence: its score (the mean of one value is the value)
        return CorpusResult(name, rows.item(), (metric, rows), {},
                            n_empty_hyps, n_empty_refs, signature, 1)
    each = np.ascontiguousarray(rows.reshape(-1))
    score = float(each.mean()) if each.shape[0] else 0.0
    return CorpusResult(name, score, each, {}, n_empty_hyps, n_empty_refs, signature)


def sentence_bleu_result(score: float, core: Any, row: list[float],
                         signature: Any) -> BleuResult:
    """What ``BleuResult(core.corpus([row]), None, 0, 0, signature, 1)`` makes of one
    sentence's statistics row and its BLEU (see :func:`sentence_result`); the figures other
    than the score are made from the row when first read.

    >>> from mtalign import Bleu
    >>> core = Bleu(tokenize="whitespace")._core
    >>> row = core.score_texts(["a b c d"], ["a b c e"])[0][0].tolist()
    >>> r = sentence_bleu_result(core.corpus(np.array([row]))[0], core, row, "tok:whitespace")
    >>> r.counts, r.totals, r.per_sentence.tolist() == [float(r)]
    ([3, 2, 1, 0], [4, 3, 2, 1], True)
    >>> float(r) == float(Bleu(tokenize="whitespace").corpus_score(["a b c d"], ["a b c e"]))
    True
    """
    r: BleuResult = sentence_result("BLEU", score, {}, signature, BleuResult)
    r._figures = (core, row)
    r._fields_cache = None
    return r


class RougeResult(Result):
    """ROUGE of one sentence or a corpus: per variant, the mean precision, recall and F.

    ``result["rougeL"]`` is a :class:`Score`; ``float(result)`` is the F-measure of the first
    variant.

    Attributes:
        scores: variant name -> :class:`Score` of means over sentences.
        per_sentence: variant name -> (n, 3) array of P, R, F per sentence.
    """

    __slots__ = ("variants", "_rows", "_scores")
    variants: tuple[str, ...]

    def __init__(self, variants: tuple[str, ...], rows: Any, n_empty_hyps: int,
                 n_empty_refs: int, signature: Any) -> None:
        # rows: (n, len(variants), 3) float64, C-contiguous (the native batch as returned),
        # or one sentence's flat list [P, R, F, P, R, F, ...] (the native one-pair call).
        # (Result.__init__ inlined: this runs once per sentence_score.)
        self.n_sentences = rows.shape[0] if isinstance(rows, np.ndarray) else 1
        self.n_empty_hyps = n_empty_hyps
        self.n_empty_refs = n_empty_refs
        self._signature = signature
        self.confidence = None
        self.variants = variants
        self._rows = rows
        self._scores: dict[str, Score] | None = None

    def _array(self) -> np.ndarray:
        rows = self._rows
        if not isinstance(rows, np.ndarray):
            rows = np.array(rows, dtype=np.float64).reshape(1, len(self.variants), 3)
            self._rows = rows
        return rows

    @property
    def per_sentence(self) -> dict[str, np.ndarray]:
        """Variant name -> (n, 3) float64 array of precision, recall, F per sentence."""
        rows = self._array()
        return {v: np.ascontiguousarray(rows[:, k, :]) for k, v in enumerate(self.variants)}

    @property
    def scores(self) -> dict[str, Score]:
        """Variant name -> :class:`Score` of the means over sentences."""
        if self._scores is None:
            rows = self._rows
            if not isinstance(rows, np.ndarray):  # one sentence's flat list
                self._scores = {v: _new_tuple(Score, rows[3 * k:3 * k + 3])
                                for k, v in enumerate(self.variants)}
            elif rows.shape[0] == 1:  # the mean of one row is the row
                self._scores = {v: _new_tuple(Score, x)
                                for v, x in zip(self.variants, rows[0].tolist(), strict=True)}
            else:
                self._scores = {
                    v: Score(*(float(x) for x in arr.mean(axis=0)))
                    if arr.shape[0] else Score(0.0, 0.0, 0.0)
                    for v, arr in self.per_sentence.items()
                }
        return self._scores

    def __getitem__(self, variant: str) -> Score:
        if self._scores is None and self.n_sentences == 1:  # one sentence: no dict needed
            try:
                k = self.variants.index(variant)
            except ValueError:
                raise KeyError(variant) from None
            rows = self._rows
            if isinstance(rows, np.ndarray):
                return _new_tuple(Score, rows[0, k].tolist())  # type: ignore[no-any-return]
            return _new_tuple(Score, rows[3 * k:3 * k + 3])  # type: ignore[no-any-return]
        return self.scores[variant]

    # A read-only mapping variant -> Score (what sentence_score used to return).
    def keys(self) -> KeysView[str]:
        """The variants, in the order configured."""
        return self.scores.keys()

    def values(self) -> ValuesView[Score]:
        """The :class:`Score` of each variant."""
        return self.scores.values()

    def items(self) -> ItemsView[str, Score]:
        """(variant, :class:`Score`) pairs."""
        return self.scores.items()

    def __iter__(self) -> Iterator[str]:
        return iter(self.variants)

    def __len__(self) -> int:
        return len(self.variants)

    def __contains__(self, variant: object) -> bool:
        return variant in self.variants

    def _materialize(self) -> None:
        Result._materialize(self)
        self._array()
        self.scores  # noqa: B018

    def __eq__(self, other: object) -> bool:
        """Equal to a RougeResult with the same state, or to a dict variant -> Score."""
        if isinstance(other, dict):
            return self.scores == other
        return Travels.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    @property
    def score(self) -> float:
        """The F-measure of the first variant."""
        return self[self.variants[0]].fmeasure

    def _fields(self) -> dict[str, Any]:
        return {"scores": {k: s._asdict() for k, s in self.scores.items()}}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={s.fmeasure:.4f}" for k, s in self.scores.items())
        return f"RougeResult({body}, n={self.n_sentences})"

    def __str__(self) -> str:
        width = max([len("variant")] + [len(k) for k in self.scores])
        lines = [f"{'variant':<{width}}  precision  recall  fmeasure"]
        for k, s in self.scores.items():
            lines.append(f"{k:<{width}}  {s.precision:9.4f}  {s.recall:6.4f}  {s.fmeasure:8.4f}")
        lines.append(self.signature)
        return "\n".join(lines)


def sentence_rouge_result(variants: tuple[str, ...], row: list[float],
                          signature: Any) -> RougeResult:
    """What ``RougeResult(variants, row, 0, 0, signature)`` makes of one sentence's flat
    row (see :func:`sentence_result`).

    >>> sentence_rouge_result(("rougeL",), [0.5, 1.0, 2 / 3], "tok")["rougeL"].recall
    1.0
    """
    r = _new_object(RougeResult)
    r.n_sentences = 1
    r.n_empty_hyps = 0
    r.n_empty_refs = 0
    r._signature = signature
    r.confidence = None
    r.variants = variants
    r._rows = row
    r._scores = None
    return r  # type: ignore[no-any-return]


class DcsResult(Result):
    """DCS of one sentence or a corpus: the mean of cs0, cs1, cs2 and dcs over sentences.

    ``result["cs0"]`` and ``result.cs0`` are floats; ``float(result)`` is ``dcs``.

    Attributes:
        scores: :class:`DcsScore` of means.
        per_sentence: (n, 4) array of cs0, cs1, cs2, dcs per sentence.
    """

    __slots__ = ("per_sentence", "_scores")
    per_sentence: np.ndarray

    def __init__(self, per_sentence: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                 signature: Any) -> None:
        Result.__init__(self, int(per_sentence.shape[0]), n_empty_hyps, n_empty_refs,
                        signature)
        self.per_sentence = per_sentence
        self._scores: DcsScore | None = None

    @property
    def scores(self) -> DcsScore:
        """:class:`DcsScore` of the means over sentences."""
        if self._scores is None:
            rows = self.per_sentence
            if rows.shape[0] == 1:
                self._scores = DcsScore._make(rows[0].tolist())
            else:
                means = rows.mean(axis=0) if rows.shape[0] else np.zeros(4)
                self._scores = DcsScore(*(float(x) for x in means))
        return self._scores

    def _materialize(self) -> None:
        Result._materialize(self)
        self.scores  # noqa: B018

    def __getitem__(self, field: str) -> float:
        return float(getattr(self.scores, field))

    @property
    def cs0(self) -> float:
        """Longest chain length / √(|ref|·|hyp|)."""
        return self.scores.cs0

    @property
    def cs1(self) -> float:
        """√ΣL² / √(|ref|·|hyp|) over the blocks of the first matching."""
        return self.scores.cs1

    @property
    def cs2(self) -> float:
        """√(Σ L_a·L_b over chain neighbours) / √(|ref|·|hyp|)."""
        return self.scores.cs2

    @property
    def dcs(self) -> float:
        """√(cs1² + cs2²)."""
        return self.scores.dcs

    @property
    def score(self) -> float:
        """``dcs``."""
        return self.scores.dcs

    def _fields(self) -> dict[str, Any]:
        return {"scores": self.scores._asdict()}

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v:.4f}" for k, v in self.scores._asdict().items())
        return f"DcsResult({body}, n={self.n_sentences})"


#: SIA's result is a :class:`CorpusResult` named "SIA" (the name is kept for old code).
SiaResult = CorpusResult

__all__ = ["BleuResult", "Confidence", "CorpusResult", "DCS_FIELDS", "DcsResult", "DcsScore",
           "Result", "RougeResult", "Score", "SiaResult"]
