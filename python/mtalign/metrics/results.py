"""One result family for every metric: what ``sentence_score``, ``corpus_score`` and
``corpus_from_statistics`` return, and :class:`Scores`, what ``batch_score`` returns.

:class:`Result` holds what every result shares: the counts (``n_sentences``,
``n_empty_hyps``, ``n_empty_refs``), the ``signature``, ``to_dict()``, ``float(result)`` (the
headline number), ``str(result)``, ``per_sentence`` (the :class:`Scores` of its sentences:
the metric's ``batch_score`` of them) and ``column_scores`` (the corpus figure of each of
those columns, by name). Subclasses add fields only where they differ:

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

from collections.abc import ItemsView, Iterator, KeysView, Sequence, ValuesView
from typing import Any, NamedTuple

import numpy as np

from mtalign._travel import Travels, plain
from mtalign.metrics.inputs import nrefs
from mtalign.token_ids import IdRefs, ids_signature

#: The column of a metric with one number per sentence.
SCORE = "score"
#: The column suffixes of precision, recall and F (ROUGE: ``rougeL_P``, ``rougeL_R``,
#: ``rougeL_F``), as the ``mtalign score`` TSV names them.
PRF_SUFFIXES = ("_P", "_R", "_F")


class Scores(np.ndarray):
    """Sentence scores with named columns: what ``batch_score`` returns for every metric,
    and a result's ``per_sentence``.

    A float64 array of shape (n, k), one row per hypothesis and one column per name in
    ``columns`` (k names); a metric with one number per sentence (``columns == ("score",)``)
    gives its (n,) vector, so ``bleu.batch_score(hyps, refs) / 100`` is one reward per
    hypothesis. ``scores["name"]`` is that column, a C-contiguous (n,) float64 array (of a
    row, ``scores[i]["name"]`` is its float), and ``scores["rougeL"]`` the (n, 3) block of
    a ROUGE variant's P, R and F columns; :attr:`table` is the (n, k) array whatever k.
    Columns: ``"score"`` (BLEU, chrF, TER, WER, PER, NIST, RIBES, GTM, METEOR, SIA);
    ``cs0 cs1 cs2 dcs`` (DCS); ``<variant>_P <variant>_R <variant>_F`` per ROUGE variant.

    >>> s = Scores(np.array([[0.5, 1.0], [0.25, 0.0]]), ("cs0", "dcs"))
    >>> s["dcs"].tolist(), s.table.shape, s[1]["cs0"]
    ([1.0, 0.0], (2, 2), 0.25)
    >>> Scores([20.0, 30.0], ("score",))
    Scores([20., 30.], columns=('score',))
    >>> Scores([[0.5, 1.0, 0.6]], ("rougeL_P", "rougeL_R", "rougeL_F"))["rougeL"][:, 2]
    array([0.6])
    """

    columns: tuple[str, ...]

    def __new__(cls, values: Any, columns: tuple[str, ...]) -> Scores:
        if columns.__class__ is not tuple:
            columns = tuple(columns)
        arr = values
        if arr.__class__ is not np.ndarray or arr.dtype != np.float64:
            arr = np.asarray(values, dtype=np.float64)
        k = len(columns)
        if k == 1:
            if arr.ndim != 1:
                arr = arr.reshape(-1)
        elif arr.ndim != 2 or arr.shape[1] != k:
            arr = arr.reshape(arr.size // k, k)
        if not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)
        obj = arr.view(cls)
        obj.columns = columns
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        self.columns = getattr(obj, "columns", ())

    def __array_wrap__(self, arr: Any, context: Any = None, return_scalar: bool = False) -> Any:
        # Elementwise results keep the columns (``scores / 100``); reductions (``mean``,
        # ``sum``) are plain NumPy numbers and arrays: their entries are not sentences.
        # (No call to ndarray.__array_wrap__: NumPy 1.x's takes no return_scalar.)
        if arr.shape == self.shape:
            out = arr.view(Scores)
            out.columns = self.columns
            return out
        plain_arr = arr.view(np.ndarray)
        return plain_arr[()] if return_scalar or plain_arr.ndim == 0 else plain_arr

    def __reduce__(self) -> tuple[Any, ...]:
        return (Scores, (self.view(np.ndarray), self.columns))

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return self.__reduce__()

    def __repr__(self) -> str:
        body = repr(self.view(np.ndarray))
        if not body.startswith("array("):
            return body
        inner = body[len("array("):-1].replace("\n      ", "\n       ")
        return f"Scores({inner}, columns={self.columns!r})"

    @property
    def table(self) -> np.ndarray:
        """The (n, k) float64 array, one column per name in ``columns`` (a view)."""
        arr = self.view(np.ndarray)
        return arr.reshape(arr.size // len(self.columns), len(self.columns))

    def __getitem__(self, key: Any) -> Any:
        if key.__class__ is not str:
            out = np.ndarray.__getitem__(self, key)
            if key.__class__ is tuple and isinstance(out, Scores) and not (
                    out.ndim == 2 and out.shape[1] == len(self.columns)):
                return out.view(np.ndarray)  # columns picked by position: no names left
            return out
        columns = self.columns
        if key in columns:
            where: Any = columns.index(key)
        else:  # a ROUGE variant: its P, R and F columns
            where = [columns.index(key + x) for x in PRF_SUFFIXES if key + x in columns]
            if len(where) != len(PRF_SUFFIXES):
                raise KeyError(f"no column {key!r} (columns: {', '.join(columns)})")
        arr = self.view(np.ndarray)
        k = len(columns)
        if arr.ndim == 2 and arr.shape[1] == k:
            return np.ascontiguousarray(arr[:, where])
        if arr.ndim == 1 and k == 1:
            return np.ascontiguousarray(arr)
        if arr.ndim == 1 and arr.shape[0] == k:  # one row
            return float(arr[where]) if isinstance(where, int) else arr[where]
        raise KeyError(f"an array of shape {arr.shape} has no columns {columns}")


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


def column_means(table: np.ndarray) -> list[float]:
    """The mean of each column of an (n, k) table (the corpus figures of a metric whose
    corpus is the mean sentence: ROUGE, DCS): one row is itself, no rows give zeros.

    >>> column_means(np.array([[0.5, 1.0], [0.0, 1.0]])), column_means(np.zeros((0, 2)))
    ([0.25, 1.0], [0.0, 0.0])
    """
    if table.shape[0] == 1:  # the mean of one row is the row
        return table[0].tolist()  # type: ignore[no-any-return]
    if table.shape[0] == 0:
        return [0.0] * table.shape[1]
    return table.mean(axis=0).tolist()  # type: ignore[no-any-return]


def rouge_columns(variants: tuple[str, ...]) -> tuple[str, ...]:
    """The :class:`Scores` columns of ROUGE variants: P, R and F of each.

    >>> rouge_columns(("rougeL",))
    ('rougeL_P', 'rougeL_R', 'rougeL_F')
    """
    return tuple(v + suffix for v in variants for suffix in PRF_SUFFIXES)


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
        per_sentence: the :class:`Scores` of the sentences (empty for a corpus combined
            from parts: :mod:`mtalign.metrics.partial`).
        column_scores: the corpus figure of each column of ``per_sentence``, by name.
    """

    __slots__ = ("n_sentences", "n_empty_hyps", "n_empty_refs", "_signature", "confidence",
                 "_per_sentence")
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
        self.per_sentence  # noqa: B018

    @property
    def score(self) -> float:
        """The headline number (``float(result)``)."""
        raise NotImplementedError

    @property
    def per_sentence(self) -> Scores:
        """The :class:`Scores` of the sentences (the metric's ``batch_score`` of them)."""
        raise NotImplementedError

    @property
    def column_scores(self) -> dict[str, float]:
        """The corpus figure of each column of :attr:`per_sentence`, by name.

        >>> from mtalign import Rouge
        >>> Rouge("rouge1").corpus_score(["a b", "c"], ["a c", "c"]).column_scores
        {'rouge1_P': 0.75, 'rouge1_R': 0.75, 'rouge1_F': 0.75}
        """
        return {SCORE: self.score}

    def _without_sentences(self, n_sentences: int) -> None:
        """Makes this result, built from one combined statistics row, the result of a
        corpus of ``n_sentences`` whose sentence scores are not kept (its figures are
        computed first, from that row)."""
        self._materialize()
        self._per_sentence = self.per_sentence[:0]
        self.n_sentences = n_sentences

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

    __slots__ = ("name", "_score", "details")
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
    def per_sentence(self) -> Scores:
        """(n,) float64 :class:`Scores` of the sentence scores (column ``"score"``)."""
        each = self._per_sentence
        if each.__class__ is not Scores:
            if each is None:
                each = Scores([self._score], (SCORE,))
            elif isinstance(each, np.ndarray):
                each = Scores(each, (SCORE,))
            else:
                metric, rows = each
                each = metric._sentences(rows)
            self._per_sentence = each
        return each  # type: ignore[no-any-return]

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
                figures = bleu_figures(core.corpus_figures(np.array([row], dtype=np.float64)))
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


def bleu_figures(flat: Sequence[float]) -> tuple[Any, ...]:
    """BLEU's native corpus figures (``NativeMetric.corpus_figures``: score, bp,
    precision_1..n, sys_len, ref_len, counts_1..n, totals_1..n) as ``BleuResult`` takes
    them: (score, bp, precisions, sys_len, ref_len, counts, totals).

    >>> bleu_figures([50.0, 1.0, 75.0, 50.0, 4.0, 4.0, 3.0, 1.0, 4.0, 3.0])
    (50.0, 1.0, [75.0, 50.0], 4.0, 4.0, [3.0, 1.0], [4.0, 3.0])
    """
    n = (len(flat) - 4) // 3
    flat = list(flat)
    return (flat[0], flat[1], flat[2:2 + n], flat[2 + n], flat[3 + n], flat[4 + n:4 + 2 * n],
            flat[4 + 2 * n:])


def sentence_bleu_result(score: float, core: Any, row: list[float],
                         signature: Any) -> BleuResult:
    """What ``BleuResult(bleu_figures(core.corpus_figures([row])), None, 0, 0, signature, 1)``
    makes of one sentence's statistics row and its BLEU (see :func:`sentence_result`); the
    figures other than the score are made from the row when first read.

    >>> from mtalign import Bleu
    >>> core = Bleu(tokenize="whitespace")._core
    >>> row = core.score_texts(["a b c d"], ["a b c e"])[0][0].tolist()
    >>> score = core.corpus_figures(np.array([row]))[0]
    >>> r = sentence_bleu_result(score, core, row, "tok:whitespace")
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
        per_sentence: (n, 3 · variants) :class:`Scores`, columns ``<variant>_P``,
            ``<variant>_R``, ``<variant>_F`` per variant.
    """

    __slots__ = ("variants", "_scores")
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
        self._per_sentence = rows
        self._scores: dict[str, Score] | None = None

    @property
    def per_sentence(self) -> Scores:
        """(n, 3 · variants) float64 :class:`Scores`: precision, recall and F of each
        variant per sentence (columns ``<variant>_P``, ``<variant>_R``, ``<variant>_F``)."""
        rows = self._per_sentence
        if rows.__class__ is not Scores:
            rows = Scores(rows, rouge_columns(self.variants))
            self._per_sentence = rows
        return rows  # type: ignore[no-any-return]

    @property
    def scores(self) -> dict[str, Score]:
        """Variant name -> :class:`Score` of the means over sentences."""
        if self._scores is None:
            rows = self._per_sentence
            if not isinstance(rows, np.ndarray):  # one sentence's flat list
                self._scores = {v: _new_tuple(Score, rows[3 * k:3 * k + 3])
                                for k, v in enumerate(self.variants)}
                return self._scores
            flat = column_means(self.per_sentence.table)
            self._scores = {v: _new_tuple(Score, flat[3 * k:3 * k + 3])
                            for k, v in enumerate(self.variants)}
        return self._scores

    @property
    def column_scores(self) -> dict[str, float]:
        """The mean precision, recall and F of each variant, by column name."""
        return {c: x for v, s in self.scores.items()
                for c, x in zip(rouge_columns((v,)), s, strict=True)}

    def __getitem__(self, variant: str) -> Score:
        if self._scores is None and self.n_sentences == 1:  # one sentence: no dict needed
            try:
                k = self.variants.index(variant)
            except ValueError:
                raise KeyError(variant) from None
            rows = self._per_sentence
            if isinstance(rows, np.ndarray):
                rows = rows.reshape(-1).tolist()
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
    r._per_sentence = row
    r._scores = None
    return r  # type: ignore[no-any-return]


class DcsResult(Result):
    """DCS of one sentence or a corpus: the mean of cs0, cs1, cs2 and dcs over sentences.

    ``result["cs0"]`` and ``result.cs0`` are floats; ``float(result)`` is ``dcs``.

    Attributes:
        scores: :class:`DcsScore` of means.
        per_sentence: (n, 4) :class:`Scores`, columns cs0, cs1, cs2, dcs.
    """

    __slots__ = ("_scores",)

    def __init__(self, per_sentence: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                 signature: Any) -> None:
        Result.__init__(self, int(per_sentence.shape[0]), n_empty_hyps, n_empty_refs,
                        signature)
        self._per_sentence = Scores(per_sentence, DCS_FIELDS)
        self._scores: DcsScore | None = None

    @property
    def per_sentence(self) -> Scores:
        """(n, 4) float64 :class:`Scores`, columns cs0, cs1, cs2, dcs."""
        return self._per_sentence  # type: ignore[no-any-return]

    @property
    def scores(self) -> DcsScore:
        """:class:`DcsScore` of the means over sentences."""
        if self._scores is None:
            self._scores = _new_tuple(DcsScore, column_means(self.per_sentence.table))
        return self._scores

    @property
    def column_scores(self) -> dict[str, float]:
        """The mean cs0, cs1, cs2 and dcs, by column name."""
        return self.scores._asdict()

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
           "Result", "RougeResult", "Score", "Scores", "SiaResult"]
