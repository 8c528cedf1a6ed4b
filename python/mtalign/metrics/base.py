"""The one base of every metric: declared options, and scoring written once over statistics.

A metric class declares its options (:func:`~mtalign.metrics.options.option`) and
:class:`Metric` generates ``__init__``, ``repr``, ``==``, ``hash``, pickling, ``config()``
and ``signature()`` from them. A native metric adds three small hooks — build the native
object, the per-sentence values of statistics rows, the result of statistics rows — and
inherits ``statistics``, ``corpus_from_statistics``, ``batch_score``, ``sentence_score``,
``corpus_score``, ``scalar_scores`` and ``pairwise``, all written once here:

* ``statistics(hyps, refs)``: one row of numbers per hypothesis, shape (n, width); rows of
  any subset (or a bootstrap resample) go to ``corpus_from_statistics``;
* ``corpus_from_statistics(stats)``: the corpus result of those rows (its mean or sum, as the
  metric defines);
* ``corpus_score(hyps, refs)`` = ``corpus_from_statistics(statistics(hyps, refs))`` with the
  counts of vanished texts and the number of references in the signature;
* ``sentence_score(hyp, refs)``: the same result type, for a corpus of one sentence;
* ``batch_score(hyps, refs)``: a :class:`~mtalign.Scores`, one row per hypothesis and one
  named column per number (``score_columns()``): (n,) for one-number metrics (column
  ``score``), (n, 4) for DCS, (n, 3 · variants) for ROUGE;
* ``scalar_scores(hyps, refs, variant)``: one float per hypothesis, what ORANGE, reranking
  and ``pairwise`` rank by;
* ``bootstrap(hyps, refs)``: corpus scores of seeded resamples of the statistics rows;
* ``corpus_score(hyps, refs, n_bootstrap=1000)``: the corpus result with a 95% bootstrap
  interval (``result.confidence``), drawn as sacrebleu's ``--confidence`` draws;
* ``scores_from_statistics(rows)``: row by row, the headline number of each row taken as a
  corpus of its own (a summed or averaged resample is one row), shape (n,).

>>> from mtalign import Wer
>>> w = Wer(tokenize="whitespace")
>>> w
Wer(tokenize='whitespace', lowercase=False)
>>> s = w.statistics(["a b c", "a"], ["a x c", "b"])
>>> s.tolist()
[[1.0, 3.0], [1.0, 1.0]]
>>> float(w.corpus_from_statistics(s))
0.5
>>> float(w.sentence_score("a b c", "a x c"))
0.3333333333333333
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import numpy as np

from mtalign._mtalign import OPTIONS, ConfigError, InputError, NativeMetric
from mtalign._mtalign import __version__ as _native_version
from mtalign.metrics.inputs import (
    as_list,
    check_texts,
    run_batch,
    run_one,
    warn_vanished,
)
from mtalign.metrics.options import CORE, REQUIRED, Option, check_threads, option
from mtalign.metrics.results import SCORE, Confidence, Result, Scores
from mtalign.token_ids import (
    IdRefs,
    TokenIds,
    concat_grids,
    concat_ids,
    hyp_ids,
    is_id_batch,
    is_token_ids,
    one_pair_arrays,
    pair_grid,
)

if TYPE_CHECKING or sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover - Python 3.10: the decorator only informs type checkers

    def dataclass_transform(**kwargs: Any) -> Callable[[Any], Any]:
        return lambda cls: cls


def pick_scalar(metric: Any, variant: str | None) -> str:
    """The scalar ``variant`` names on ``metric`` (anything with ``scalar_names()``): the
    first name when ``None``, :class:`~mtalign.ConfigError` when it has no such scalar.

    >>> from mtalign import Dcs
    >>> pick_scalar(Dcs(), None), pick_scalar(Dcs(), "cs1")
    ('dcs', 'cs1')
    """
    names = tuple(metric.scalar_names())
    if variant is None:
        return names[0]
    if variant not in names:
        raise ConfigError(f"unknown variant {variant!r} for {type(metric).__name__} "
                          f"(choose from: {', '.join(names)})")
    return variant


def _make_init(cls: type, options: Sequence[Option]) -> Callable[..., None]:
    """``__init__`` with the declared options as parameters (a real signature for ``help``)."""
    params, body, defaults = [], [], {}
    star = False
    for o in options:
        if o.kw_only and not star:
            params.append("*")
            star = True
        if o.default is REQUIRED:
            params.append(o.name)
        else:
            defaults[f"_d_{o.name}"] = o.default
            params.append(f"{o.name}=_d_{o.name}")
        body.append(f"{o.name!r}: {o.name}")
    src = (f"def __init__(self, {', '.join(params)}):\n"
           f"    self._setup({{{', '.join(body)}}})\n")
    namespace: dict[str, Any] = {}
    exec(src, defaults, namespace)  # noqa: S102 (the text is built from option names)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = "Options: " + "; ".join(f"{o.name}: {o.doc}" for o in options if o.doc)
    return init  # type: ignore[no-any-return]


R = TypeVar("R", bound=Result)


@dataclass_transform(frozen_default=True, field_specifiers=(option, Option))
class Metric(Generic[R]):
    """The base of every metric: immutable, equal when configured alike, pickled as config.

    Subclasses declare options as class attributes made by
    :func:`~mtalign.metrics.options.option`; everything about configuration is generated.
    A metric that is not native (any Python class that can score a batch) overrides
    :meth:`scalar_names` and :meth:`scalar_scores`, and then works with ORANGE, reranking and
    :meth:`pairwise`.

    Class attributes:
        higher_is_better: whether a higher score means a better translation (False for error
            rates such as WER); ORANGE and reranking read it.
        signature_fields: the signature's parts in order: option names, or literal
            ``key:value`` strings; the version is always last.
        native: the name of the core metric (a key of ``_mtalign.OPTIONS``) whose option
            table the ``default=CORE`` options come from and whose ``NativeMetric`` the
            default :meth:`_build` makes; ``None`` for a metric that is not native.
    """

    __slots__ = ("_config", "_core", "_one")
    _config: dict[str, Any]
    _core: Any
    _one: Any

    higher_is_better: ClassVar[bool] = True
    # A subclass whose ``_run`` rewrites only non-text input (chrF joins token lists) sets
    # this, so text matrices still take the native call.
    _run_keeps_text: ClassVar[bool] = False
    #: How the corpus result aggregates statistics rows: ``"sum"`` (it is a function of the
    #: summed rows: BLEU, chrF, TER, WER, PER), ``"mean"`` (of the mean row: ROUGE, DCS, RIBES,
    #: SIA) or ``None`` (anything else, e.g. NIST's corpus-wide weights). Resampling is a
    #: matrix product for ``"sum"`` / ``"mean"``, one :meth:`corpus_from_statistics` per
    #: resample otherwise; parts of a corpus (:mod:`mtalign.metrics.partial`, Dask) combine
    #: exactly only for ``"sum"`` / ``"mean"``.
    aggregation: ClassVar[str | None] = None
    _options: ClassVar[tuple[Option, ...]] = ()
    signature_fields: ClassVar[tuple[str, ...] | None] = None
    native: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared: dict[str, Option] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, Option):
                    declared[name] = value
                    if value.default is CORE:
                        if cls.native is None:
                            raise TypeError(f"{cls.__name__}.{name}: default=CORE needs the "
                                            "class's native metric (native = ...)")
                        value.from_table(cls.native)
        cls._options = tuple(declared.values())
        if "__init__" not in vars(cls):
            setattr(cls, "__init__", _make_init(cls, cls._options))  # noqa: B010

    # -- configuration (generated from the declarations) -------------------------------------

    @classmethod
    def declared(cls, name: str) -> Option:
        """The declaration of option ``name`` (its default, doc and choices, e.g. for
        ``--help``).

        >>> from mtalign import Rouge
        >>> Rouge.declared("compat").choices, Rouge.declared("beta").default
        (('paper', 'rouge155', 'rouge_score'), 1.0)
        """
        for o in cls._options:
            if o.name == name:
                return o
        raise KeyError(f"{cls.__name__} has no option {name!r}")

    def _setup(self, values: dict[str, Any]) -> None:
        for o in self._options:
            values[o.name] = o.check(values[o.name])
        self._complete(values)
        object.__setattr__(self, "_config", values)
        core = self._build(values)
        object.__setattr__(self, "_core", core)
        # The one-pair call, looked up once (sentence_score is called in loops).
        object.__setattr__(self, "_one", self._one_call(core))

    def _one_call(self, core: Any) -> Any:
        """The call ``(hyp: str, refs: str | list) -> (row, vanished hypothesis, vanished
        references)`` that :meth:`sentence_score` uses for text: the native ``score_one`` of
        ``core`` (None: a batch of one). Its ``row`` is what :meth:`_result_one` reads."""
        return getattr(core, "score_one", None)

    def _complete(self, config: dict[str, Any]) -> None:
        """Fills in defaults that depend on other options, and refuses combinations that
        cannot work together (before the native object is built)."""

    def _build(self, config: dict[str, Any]) -> Any:
        """The native object of this configuration (it checks the values it receives): the
        ``NativeMetric`` of :attr:`native` with every option its table has (None for a metric
        that is not native). A metric whose Python options differ from its table's overrides
        this and calls :meth:`_native`."""
        if self.native is None:
            return None
        return self._native(config)

    def _native(self, config: dict[str, Any], **overrides: Any) -> NativeMetric:
        """The ``NativeMetric`` of :attr:`native` with the options of ``config`` that its
        table has, then ``overrides`` (values computed in Python, options the table names
        differently).

        >>> from mtalign import Ribes
        >>> Ribes()._native({"alpha": 0.5, "trg_lang": "de"}, beta=0.2).name
        'ribes'
        """
        table = OPTIONS[str(self.native)]
        values = {k: (list(v) if isinstance(v, tuple) else v) for k, v in config.items()
                  if k in table}
        values.update(overrides)
        return NativeMetric(str(self.native), **values)

    def config(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this scorer.

        >>> from mtalign import Ribes
        >>> Ribes(0.5).config()
        {'alpha': 0.5, 'beta': 0.1, 'tokenize': '13a', 'lowercase': False}
        """
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._config.items()}

    def __repr__(self) -> str:
        parts = []
        for k, v in self.config().items():
            required = next(o for o in self._options if o.name == k).default is REQUIRED
            parts.append(repr(v) if required else f"{k}={v!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable; create a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.config()))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._config == other._config  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), tuple(self._config.values())))

    def signature(self, nrefs: str | int | None = None) -> str:
        """sacrebleu-style signature of every option and the version (``nrefs`` first when
        given).

        >>> from mtalign import Nist
        >>> Nist().signature(2)
        'nrefs:2|case:mixed|tok:13a|order:5|version:0.1.0'
        """
        parts = [] if nrefs is None else [f"nrefs:{nrefs}"]
        by_name = {o.name: o for o in self._options}
        config = self._config
        fields = self.signature_fields
        if fields is None:
            fields = tuple(o.name for o in self._options)
        for name in fields:
            o = by_name.get(name)
            if o is None:
                parts.append(name)  # a literal key:value
            elif o.sig is not None:
                shown = o.show(config[name], self)
                if shown is not None:
                    parts.append(f"{o.sig}:{shown}")
        parts.append(f"version:{_native_version}")
        return "|".join(parts)

    # -- ranking: one float per hypothesis ----------------------------------------------------

    def scalar_names(self) -> tuple[str, ...]:
        """The names of the single numbers this scorer can rank by; the first is the default.

        >>> from mtalign import Rouge
        >>> Rouge(["rougeL", "rouge2"]).scalar_names()
        ('rougeL', 'rouge2')
        """
        return (type(self).__name__.lower(),)

    def scalar_scores(self, hyps: Sequence[Any], refs: Sequence[Any],
                      variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """One float per hypothesis (shape (n,)): the sentence score named ``variant``.

        This is the common interface of every metric for ranking (ORANGE, reranking,
        pairwise matrices); ``variant=None`` means ``scalar_names()[0]``.

        >>> from mtalign import Rouge
        >>> Rouge("rouge1").scalar_scores(["a b", "c"], ["a c", "c"]).tolist()
        [0.5, 1.0]
        """
        k = self.scalar_names().index(self._pick_scalar(variant))
        arr, _, _, _ = self._run(hyps, refs, threads)
        return self._sentence_values(arr, k)

    def pairwise(self, hyps: Sequence[Any], pseudo_refs: Sequence[Any] | None = None,
                 variant: str | None = None, threads: int | None = None) -> np.ndarray:
        """The (n, m) matrix of ``hyps[i]`` scored against ``pseudo_refs[j]``.

        For minimum-Bayes-risk decoding: ``pseudo_refs`` is usually the n-best list itself;
        ``pseudo_refs=None`` means exactly that (the hypotheses against themselves), and then
        each unordered pair is scored once where the metric is symmetric (ROUGE-N/L/S/SU,
        BLEU, chrF, WER, PER): the other triangle is derived from the same counts, with the
        same bits as scoring it. ``pseudo_refs[j]`` is one text (or one token list when
        ``hyps`` are token lists) or a list of texts used together as a reference set. Text
        input goes to one native call: each distinct text is encoded once, the work runs in
        parallel with the GIL released, and no n·m pair list is built. Token ids (a
        :class:`~mtalign.TokenIds` or a list of 1-D arrays) against themselves go to the same
        native matrix (each unordered pair once where the metric is symmetric); against
        pseudo-references, to one native batch of the n·m pairs over one buffer of the
        sequences (no id copied per pair). Either way the numbers equal those of the ids
        written as text (space-joined, a whitespace tokenizer), bit for bit.

        >>> from mtalign import Rouge
        >>> Rouge("rouge1").pairwise(["a b", "a"], ["a b", "b", "c"]).tolist()
        [[1.0, 0.6666666666666666, 0.0], [0.6666666666666666, 0.0, 0.0]]
        >>> Rouge("rouge1").pairwise(["a b", "a"]).tolist()
        [[1.0, 0.6666666666666666], [0.6666666666666666, 1.0]]
        """
        if is_token_ids(hyps):
            if pseudo_refs is None and self._native_id_matrix():
                [matrix] = self._symmetric_matrices_of_ids([hyp_ids(hyps)], variant, threads)
                return matrix
            # Token ids: every pair in one native batch over one buffer (no copy per pair).
            grid_h: Any
            grid_r: Any
            grid_h, grid_r, n, m = pair_grid(hyps, pseudo_refs)
            scores = self.scalar_scores(grid_h, grid_r, variant, threads)
            return np.asarray(scores, dtype=np.float64).reshape(n, m)
        hyps = as_list(hyps, "hyps")
        refs = None if pseudo_refs is None else as_list(pseudo_refs, "pseudo_refs")
        check_texts(hyps, "hyps")
        if refs is not None:
            check_texts(refs, "pseudo_refs")
        if not self._native_matrix(hyps, refs):
            return pairwise_scores(self.scalar_scores, hyps, hyps if refs is None else refs,
                                   variant, threads)
        # Text: one native call, each distinct text encoded once, no n·m Python objects.
        k = self.scalar_names().index(self._pick_scalar(variant))
        arr, hv, rv = self._core.score_matrix(hyps, refs, check_threads(threads), k)
        if hv or rv:
            warn_vanished(hv, rv, self._tokenizer_name(), 3)
        return self._matrix_values(arr, k)

    def pairwise_blocks(self, blocks: Sequence[tuple[Sequence[Any], Sequence[Any] | None]],
                        variant: str | None = None,
                        threads: int | None = None) -> list[np.ndarray]:
        """:meth:`pairwise` of many sources in one call: ``blocks[b] = (hyps, pseudo_refs)``.

        ``pseudo_refs`` None means the hypotheses themselves (symmetric, as in
        :meth:`pairwise`). Every distinct text of every block is encoded once and all the
        rows of all the blocks run as one parallel batch, so many short MBR problems (one
        per source sentence) cost one call. Returns one (n_b, m_b) matrix per block, each
        equal to ``pairwise`` of that block alone.

        >>> from mtalign import Wer
        >>> [m.tolist() for m in Wer().pairwise_blocks([(["a b"], None), (["c"], ["c", "d"])])]
        [[[0.0]], [[0.0, 1.0]]]
        """
        pairs = as_list(blocks, "blocks")
        lists: list[tuple[Any, Any]] = []
        for b, block in enumerate(pairs):
            if not isinstance(block, (tuple, list)) or len(block) != 2:
                raise InputError(f"blocks[{b}] must be a pair (hyps, pseudo_refs or None)")
            h, r = block
            # Ids stay as they are: a TokenIds as a list of its arrays would lose its line
            # separator, and a 2-D array as a list of its rows would score the pads.
            h = h if is_id_batch(h) else as_list(h, f"blocks[{b}][0]")
            r = r if r is None or is_id_batch(r) else as_list(r, f"blocks[{b}][1]")
            lists.append((h, r))
        if not lists:
            return []
        if all(is_token_ids(h) for h, _ in lists):
            return self._pairwise_blocks_of_ids(lists, variant, threads)
        for b, (h, r) in enumerate(lists):
            if not is_token_ids(h):
                _in_block(b, check_texts, h, "hyps")
            if r is not None and not is_token_ids(r):
                _in_block(b, check_texts, r, "pseudo_refs")
        native = all(self._native_matrix(h, r) for h, r in lists)
        if not native:
            return [_in_block(b, self.pairwise, h, r, variant, threads)
                    for b, (h, r) in enumerate(lists)]
        k = self.scalar_names().index(self._pick_scalar(variant))
        arrays, hv, rv = self._core.score_matrices(lists, check_threads(threads), k)
        if hv or rv:
            warn_vanished([i for _, i in hv], [(j, k2) for _, j, k2 in rv],
                          self._tokenizer_name(), 3)
        return [self._matrix_values(a, k) for a in arrays]

    def _pairwise_blocks_of_ids(self, blocks: list[tuple[Any, Any]], variant: str | None,
                                threads: int | None) -> list[np.ndarray]:
        """:meth:`pairwise_blocks` of token ids: the blocks of samples against themselves in
        one native matrix call (each unordered pair once where the metric is symmetric), the
        others' pairs in one native batch."""
        out: list[Any] = [None] * len(blocks)
        own = [b for b, (_, r) in enumerate(blocks) if r is None]
        if own and self._native_id_matrix():
            groups = [_in_block(b, hyp_ids, blocks[b][0]) for b in own]
            for b, matrix in zip(own, self._symmetric_matrices_of_ids(groups, variant, threads),
                                 strict=True):
                out[b] = matrix
        rest = [b for b in range(len(blocks)) if out[b] is None]
        if rest:
            grids = [_in_block(b, pair_grid, *blocks[b]) for b in rest]
            for b, matrix in zip(rest, self._pairwise_grids_of_ids(grids, variant, threads),
                                 strict=True):
                out[b] = matrix
        return out

    def _native_id_matrix(self) -> bool:
        """Whether symmetric matrices of token ids go to the native matrix call (the metric
        takes ids, and no Python step of its own computes its scalars); a metric that does
        not take ids is refused here with a :class:`~mtalign.ConfigError`."""
        self._check_token_ids()
        return (getattr(self._core, "score_ids_matrices", None) is not None
                and type(self).scalar_scores is Metric.scalar_scores)

    def _symmetric_matrices_of_ids(self, groups: list[TokenIds], variant: str | None,
                                   threads: int | None) -> list[np.ndarray]:
        """The (n_b, n_b) matrix of each group of token ids against itself, in one native
        call (the groups' buffers joined once)."""
        k = self.scalar_names().index(self._pick_scalar(variant))
        ids, ends = concat_ids(groups)
        arrays = self._core.score_ids_matrices(ids._native(), ends, check_threads(threads), k,
                                               ids.line_sep)
        return [self._matrix_values(a, k) for a in arrays]

    def _pairwise_grids_of_ids(self, grids: list[Any], variant: str | None,
                               threads: int | None) -> list[np.ndarray]:
        """The matrices of blocks of token ids (their :func:`~mtalign.token_ids.pair_grid`)
        as one native batch of all their pairs."""
        hyps: Any
        refs: Any
        hyps, refs = concat_grids(grids)
        scores = np.asarray(self.scalar_scores(hyps, refs, variant, threads), dtype=np.float64)
        out, start = [], 0
        for _, _, n, m in grids:
            out.append(scores[start:start + n * m].reshape(n, m))
            start += n * m
        return out

    def expected_scores(self, hyps: Sequence[Any], samples: Sequence[Any] | None = None,
                        weights: Sequence[float] | np.ndarray | None = None,
                        variant: str | None = None, threads: int | None = None,
                        aggregate: bool = False) -> np.ndarray:
        """Expected utility of each hypothesis over the samples (MBR's objective), shape (n,).

        ``E[i] = Σ_j w_j · score(hyps[i], samples[j])`` with ``w`` the softmax of the
        log-probability ``weights`` (uniform when None); ``samples=None`` uses the
        hypotheses themselves (the symmetric matrix of :meth:`pairwise`). For ROUGE the score
        is the F-measure of the chosen variant; for error rates it is the expected error
        (lower is better, see ``higher_is_better``).

        ``aggregate=True`` (chrF and BLEU; Vamvas & Sennrich 2024, "reference aggregation")
        scores each hypothesis once against the weighted average of the samples' n-gram
        count vectors (and lengths) instead of against each sample: linear instead of
        quadratic in the number of samples. This is *not* the exact expectation: a
        matched count is min(hyp count, mean sample count), which is ≥ the mean of the
        per-sample minima, and the F-score of averaged statistics is not the average
        F-score; the ranking of hypotheses is usually, not always, the same.

        >>> from mtalign import Rouge
        >>> Rouge("rouge1").expected_scores(["a b", "a"]).tolist()
        [0.8333333333333333, 0.8333333333333333]
        >>> Rouge("rouge1").expected_scores(["a b", "a"], ["a b", "a"], weights=[0.0, -50.0]
        ...                                 ).round(6).tolist()
        [1.0, 0.666667]
        """
        # Ids stay as they are (see pairwise_blocks: line separators, pads).
        hyps = hyps if is_id_batch(hyps) else as_list(hyps, "hyps")
        pool = hyps if samples is None else (
            samples if is_id_batch(samples) else as_list(samples, "samples"))
        w = softmax_weights(weights, len(pool))
        if aggregate:
            return self._aggregate_scores(hyps, pool, w, variant, threads)
        matrix = self.pairwise(hyps, None if samples is None else pool, variant, threads)
        return expectation(matrix, w)

    def _aggregate_scores(self, hyps: Sequence[Any], samples: Sequence[Any],
                          w: np.ndarray | None,
                          variant: str | None, threads: int | None) -> np.ndarray:
        """Reference aggregation (:meth:`expected_scores` with ``aggregate=True``)."""
        if not getattr(self._core, "aggregates", False):
            raise ConfigError(f"{type(self).__name__} has no reference aggregation (aggregate="
                              "True works with metrics whose statistics are n-gram counts: "
                              "Chrf, Bleu)")
        if any(not isinstance(h, str) for h in hyps) or \
                any(not isinstance(s, str) for s in samples):
            raise InputError("reference aggregation takes text (str) hypotheses and samples")
        k = self.scalar_names().index(self._pick_scalar(variant))
        rows = self._core.score_aggregate(hyps, samples, None if w is None else w.tolist(),
                                          check_threads(threads))
        return np.asarray(self._sentence_values(rows, k), dtype=np.float64)

    def _combine_single(self, rows: np.ndarray, k: int) -> np.ndarray | None:
        """Scalar k of each hypothesis against a reference *set*, from its statistics rows
        against each reference of the set alone (``rows`` shaped (n, S, *row)), bit-identical
        to scoring the set (the native ``set_scores``: WER/PER take the best reference, ROUGE
        with ``multi_ref="max"`` the maximum P and R); None where the statistics do not allow
        it. ORANGE uses it to score each candidate against each reference once and build the
        leave-one-out sets from those scores."""
        native = getattr(self._core, "set_scores", None)
        if native is None:
            return None
        flat = np.ascontiguousarray(rows, dtype=np.float64).reshape(rows.shape[0], -1)
        return native(flat, k)  # type: ignore[no-any-return]

    def _native_matrix(self, hyps: Sequence[Any], refs: Sequence[Any] | None) -> bool:
        """Whether the native matrix call applies: text input, and nothing Python-side
        rewrites the input or the scores (e.g. TER's tercom normalisation)."""
        matrix = getattr(self._core, "score_matrix", None)
        own_scalars = (type(self).scalar_scores is not Metric.scalar_scores
                       or self._rewrites_input())
        return not (matrix is None or own_scalars or not hyps
                    or (refs is not None and len(refs) == 0) or not isinstance(hyps[0], str))

    def _matrix_values(self, arr: np.ndarray, k: int) -> np.ndarray:
        """Scalar k of each cell: the native numbers as they are (2-D), or rows converted."""
        if arr.ndim == 2:
            return arr
        n, m = arr.shape[0], arr.shape[1]
        rows = np.ascontiguousarray(arr.reshape((n * m,) + arr.shape[2:]))
        return np.asarray(self._sentence_values(rows, k), dtype=np.float64).reshape(n, m)

    def _pick_scalar(self, variant: str | None) -> str:
        return pick_scalar(self, variant)

    def _rewrites_input(self) -> bool:
        """Whether a Python step rewrites text input before the native call (then
        :meth:`pairwise` goes through :meth:`scalar_scores`)."""
        return type(self)._run is not Metric._run and not self._run_keeps_text

    # -- scoring, written once over statistics rows ------------------------------------------

    def _tokenizer_name(self) -> str:
        """How the tokenizer is named in warnings about texts that produced no tokens."""
        return str(self._config.get("tokenize", ""))

    def _run(self, hyps: Any, refs: Any, threads: int | None, core: Any = None
             ) -> tuple[np.ndarray, int, int, list | tuple]:
        """The native batch: (rows, vanished hyps, vanished refs, refs as a list)."""
        if is_token_ids(hyps):
            self._check_token_ids(core)
        return run_batch(self._core if core is None else core, hyps, refs, threads,
                         self._tokenizer_name())

    def _check_token_ids(self, core: Any = None) -> None:
        """Refuses token ids (:class:`~mtalign.TokenIds`) with a :class:`~mtalign.ConfigError`
        where this configuration reads more of a word than its identity (characters, stems,
        strings) or its native object takes no ids."""
        if getattr(self._core if core is None else core, "score_ids", None) is None:
            raise ConfigError(f"{type(self).__name__} does not take token ids (give it text)")

    def _sentence_values(self, rows: np.ndarray, k: int) -> np.ndarray:
        """Column ``k`` (of :meth:`scalar_names`) of each row's sentence score, shape (n,)."""
        raise NotImplementedError(f"{type(self).__name__} scores through scalar_scores only")

    def _corpus_values(self, rows: np.ndarray) -> np.ndarray:
        """The headline score of each row taken as a corpus (default: as a sentence; BLEU's
        effective order can differ between the two levels)."""
        return self._sentence_values(rows, 0)

    def _result(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                signature: Any) -> R:
        """The result of statistics rows (a corpus, or one sentence)."""
        raise NotImplementedError(f"{type(self).__name__} has no statistics")

    def score_columns(self) -> tuple[str, ...]:
        """The names of the columns of :meth:`batch_score` (and of a result's
        ``per_sentence``): ``("score",)`` for a metric with one number per sentence.

        >>> from mtalign import Dcs, Wer
        >>> Wer().score_columns(), Dcs().score_columns()
        (('score',), ('cs0', 'cs1', 'cs2', 'dcs'))
        """
        return (SCORE,)

    def scalar_column(self, variant: str | None = None) -> str:
        """The column of :meth:`batch_score` (and of a result's ``per_sentence`` and
        ``column_scores``) that ``scalar_scores(variant=variant)`` reads: ``"score"`` for a
        metric with one number per sentence, else the scalar's own column.

        >>> from mtalign import Dcs, Rouge, Wer
        >>> Wer().scalar_column(), Dcs().scalar_column("cs1"), Rouge("rougeL").scalar_column()
        ('score', 'cs1', 'rougeL_F')
        """
        name = self._pick_scalar(variant)
        return SCORE if self.score_columns() == (SCORE,) else name

    def _sentences(self, rows: np.ndarray) -> Scores:
        """The :class:`~mtalign.Scores` of native rows (default: the sentence scores)."""
        return Scores(self._sentence_values(rows, 0), self.score_columns())

    def _stats(self, rows: np.ndarray) -> np.ndarray:
        """The native rows as a 2-D statistics array (rows of 1-D output become columns)."""
        n = rows.shape[0]
        return rows.reshape(n, rows.size // n if n else int(np.prod(rows.shape[1:])))

    def statistics(self, hyps: Sequence[Any], refs: Sequence[Any],
                   threads: int | None = None) -> np.ndarray:
        """Per-sentence statistics, shape (n, width): rows of any subset or resample go to
        :meth:`corpus_from_statistics` (bootstrap resampling is a sum over resampled rows).

        >>> from mtalign import Sia
        >>> Sia(alpha=1.0).statistics(["a b", "c"], ["a b", "d"]).tolist()
        [[1.0], [0.0]]
        """
        arr, _, _, _ = self._run(hyps, refs, threads)
        return self._stats(arr)

    def corpus_from_statistics(self, stats: np.ndarray) -> R:
        """The corpus result of rows of :meth:`statistics`.

        >>> from mtalign import Ribes
        >>> r = Ribes(tokenize="whitespace")
        >>> s = r.statistics(["a b c", "c b a"], ["a b c", "a b c"])
        >>> float(r.corpus_from_statistics(s[[0, 0]]))
        1.0
        """
        stats = np.ascontiguousarray(stats, dtype=np.float64)
        if stats.ndim != 2:
            raise ConfigError("stats must be a 2-D array of statistics rows")
        return self._result(stats, 0, 0, (self, None, 1, None))

    def scores_from_statistics(self, stats: np.ndarray) -> np.ndarray:
        """Row by row: ``float(corpus_from_statistics(stats[i:i+1]))`` for each row i, shape
        (n,), in one vectorized call where the metric has one. A row of summed statistics
        (or of mean statistics, for ``aggregation == "mean"``) is a resampled corpus.

        >>> from mtalign import Bleu
        >>> b = Bleu(smooth="none", tokenize="whitespace")
        >>> s = b.statistics(["a b c d", "a b c x"], ["a b c d", "a b c d"])
        >>> b.scores_from_statistics(np.stack([s[0], s.sum(0)])).round(4).tolist()
        [100.0, 72.3127]
        """
        stats = np.ascontiguousarray(stats, dtype=np.float64)
        if stats.ndim != 2:
            raise ConfigError("stats must be a 2-D array of statistics rows")
        if self.aggregation is not None:
            return np.asarray(self._corpus_values(stats), dtype=np.float64)
        return np.array([float(self.corpus_from_statistics(stats[i:i + 1]))
                         for i in range(stats.shape[0])], dtype=np.float64)

    def _resampled(self, stats: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """The headline corpus score of each resample ``stats[idx[k]]`` (idx: (k, n))."""
        k, n = idx.shape
        if self.aggregation is None or n == 0:
            return np.array([float(self.corpus_from_statistics(stats[row])) for row in idx])
        counts = np.bincount((np.arange(k)[:, None] * n + idx).ravel(),
                             minlength=k * n).reshape(k, n).astype(np.float64)
        rows = counts @ stats
        if self.aggregation == "mean":
            rows /= n
        return self.scores_from_statistics(rows)

    def batch_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                    threads: int | None = None) -> Scores:
        """Scores ``hyps[i]`` against ``refs[i]``, in parallel with the GIL released: a
        :class:`~mtalign.Scores`, one row per hypothesis, columns :meth:`score_columns`
        (one-number metrics: the (n,) vector of sentence scores).

        ``refs[i]`` is a str (one reference) or a list of str (several). With pre-tokenized
        hypotheses (lists of tokens), ``refs[i]`` is a list of token lists. ``threads=None``
        uses every core (or ``MTALIGN_NUM_THREADS``); results are identical for any count.

        >>> from mtalign import Ribes
        >>> Ribes(tokenize="whitespace").batch_score(["a b c", ""], ["a b c", "a"]).tolist()
        [1.0, 0.0]
        """
        arr, _, _, _ = self._run(hyps, refs, threads)
        return self._sentences(arr)

    def sentence_score(self, hyp: Any, refs: Any) -> R:
        """Scores one hypothesis against one reference (str) or several (list of str): the
        result of a corpus of one sentence (``float(result)`` is its score). Token ids: a 1-D
        integer array against one array or a list of them (see :class:`~mtalign.TokenIds`).

        >>> from mtalign import Wer
        >>> float(Wer(tokenize="whitespace").sentence_score("a b c d", "a x c"))
        0.6666666666666666
        """
        one = self._one
        if one is not None and hyp.__class__ is str and (refs.__class__ is str
                                                        or refs.__class__ is list):
            # The usual call (text against text or a list of texts) without run_one's layer;
            # run_one takes it again when a text vanished, for its warning.
            row, hv, rv = one(hyp, refs)
            if not hv and not rv:
                # The signature is made when first read, from (metric, references).
                return self._sentence_result(row, (self, refs))
        if hyp.__class__ is np.ndarray:
            # Token ids: the one-pair call of ids (nothing vanishes from ids).
            self._check_token_ids()
            hyp, arrays, refs = one_pair_arrays(hyp, refs)
            return self._sentence_result(self._core.score_one_ids(hyp, arrays),
                                         (self, IdRefs(refs)))
        row, nh, nr, refs = run_one(self._core, hyp, refs, self)
        if isinstance(row, np.ndarray):  # a batch of one (token input, or no one-pair call)
            return self._result_one(row, nh, nr, (self, refs))
        result = self._sentence_result(row, (self, refs))
        result.n_empty_hyps, result.n_empty_refs = nh, nr
        return result

    def at_sentence_level(self) -> Metric[R]:
        """The metric as sentence-level calls (``sentence_score``, ``batch_score``,
        ``scalar_scores``) compute it: ``sentence_score(h, r)`` equals
        ``at_sentence_level().corpus_score([h], [r])``. The metric itself, except for a
        :class:`~mtalign.Bleu` whose effective order differs between levels (sacrebleu's
        ``sentence_bleu`` against ``corpus_bleu``).

        >>> from mtalign import Wer
        >>> Wer().at_sentence_level() == Wer()
        True
        """
        return self

    def _sentence_result(self, row: Any, signature: Any) -> R:
        """The result of what the native one-pair call returns (``row``: the flat row, or the
        figures the metric's ``one_result`` makes of it) for one sentence, nothing vanished.
        A metric whose one-pair call returns its result's figures builds it here directly."""
        return self._result(np.array([row], dtype=np.float64), 0, 0, signature)

    def _result_one(self, rows: np.ndarray, n_empty_hyps: int, n_empty_refs: int,
                    signature: Any) -> R:
        """The result of a batch of one's (1, ...) rows."""
        return self._result(rows, n_empty_hyps, n_empty_refs, signature)

    def corpus_score(self, hyps: Sequence[Any], refs: Sequence[Any],
                     threads: int | None = None, *, n_bootstrap: int = 1,
                     seed: int | None = 12345) -> R:
        """The corpus result, with the counts of vanished texts and the signature.

        With ``n_bootstrap`` > 1, ``result.confidence`` is sacrebleu's ``--confidence``: the
        mean and 95% interval of the corpus scores of ``n_bootstrap`` resamples of the
        sentences, drawn as sacrebleu draws them (``default_rng(seed).choice(n, (n_bootstrap,
        n))``; ``seed=None``: fresh entropy); the signature then has ``bs`` and ``seed``.

        >>> from mtalign import Wer
        >>> print(Wer(tokenize="whitespace").corpus_score(["a b", "c"], ["a x", "c"]))
        WER = 0.3333 (errors = 1 ref_len = 3)
        >>> r = Wer(tokenize="whitespace").corpus_score(["a b", "c", "d e"], ["a x", "c", "d e"],
        ...                                            n_bootstrap=100)
        >>> print(r)
        WER = 0.2000 (μ = 0.2028 ± 0.2500) (errors = 1 ref_len = 5)
        >>> r.signature
        'nrefs:1|bs:100|seed:12345|case:mixed|tok:whitespace|multi_ref:min|version:0.1.0'
        """
        _check_bootstrap(n_bootstrap, seed)
        arr, nh, nr, refs = self._run(hyps, refs, threads)
        return self._corpus_result(arr, nh, nr, refs, n_bootstrap, seed)

    def _corpus_result(self, arr: np.ndarray, nh: int, nr: int, refs: Any, n_bootstrap: int,
                       seed: int | None) -> R:
        """The corpus result of native rows, with the bootstrap confidence when asked. The
        signature is made when first read, from (metric, references, n_bootstrap, seed)."""
        result = self._result(arr, nh, nr, (self, refs, n_bootstrap, seed))
        if n_bootstrap == 1:
            return result
        stats = self._stats(arr)
        n = stats.shape[0]
        if n == 0:
            raise InputError("a bootstrap needs at least one sentence")
        idx = np.random.default_rng(seed).choice(n, size=(n_bootstrap, n), replace=True)
        result.confidence = confidence(self._resampled(stats, idx), n_bootstrap, seed)
        return result

    def bootstrap(self, hyps: Sequence[Any], refs: Sequence[Any], n_samples: int = 1000,
                  seed: int = 12345, threads: int | None = None) -> np.ndarray:
        """The corpus score (``float`` of the result) of ``n_samples`` resamples of the
        sentences with replacement: one statistics pass, then one aggregation per resample.

        Seeded (NumPy's ``default_rng(seed)``), so the same call gives the same numbers.

        >>> from mtalign import Wer
        >>> w = Wer(tokenize="whitespace")
        >>> w.bootstrap(["a b", "a x"], ["a b", "a b"], n_samples=3, seed=1).tolist()
        [0.25, 0.5, 0.0]
        """
        if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
            raise ConfigError(f"n_samples must be a positive int (got {n_samples!r})")
        stats = self.statistics(hyps, refs, threads)
        n = stats.shape[0]
        if n == 0:
            raise InputError("bootstrap needs at least one sentence")
        rng = np.random.default_rng(seed)
        out = np.empty(n_samples, dtype=np.float64)
        for k in range(n_samples):
            out[k] = float(self.corpus_from_statistics(stats[rng.integers(0, n, n)]))
        return out


def _check_bootstrap(n_bootstrap: Any, seed: Any) -> None:
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 1:
        raise ConfigError(f"n_bootstrap must be a positive int (got {n_bootstrap!r})")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError(f"seed must be an int or None (got {seed!r})")


def confidence(scores: np.ndarray, n_bootstrap: int, seed: int | None) -> Confidence:
    """sacrebleu's ``estimate_ci`` of resampled scores: the mean (``statistics.mean``, as
    sacrebleu), half the width of the 95% interval and its bounds (the n // 40-th score
    from each end).

    >>> confidence(np.arange(80.0), 80, 1)
    Confidence(mean=39.5, ci=37.5, low=2.0, high=77.0, n_bootstrap=80, seed=1)
    """
    ordered = sorted(float(x) for x in scores)
    n = len(ordered)
    lo = n // 40
    low, high = ordered[lo], ordered[n - lo - 1]
    return Confidence(statistics.mean(ordered), 0.5 * (high - low), low, high, n_bootstrap,
                      seed)


def _rebuild(cls: type[Metric[Any]], config: dict[str, Any]) -> Metric[Any]:
    return cls(**config)


def _in_block(b: int, f: Any, *args: Any) -> Any:
    """``f(*args)`` for block ``b`` of :meth:`Metric.pairwise_blocks`: an InputError names
    the block."""
    try:
        return f(*args)
    except InputError as e:
        raise type(e)(f"blocks[{b}]: {e}") from None


def pairwise_scores(scalar_scores: Any, hyps: Sequence[Any], pseudo_refs: Sequence[Any],
                    variant: str | None = None, threads: int | None = None) -> np.ndarray:
    """:meth:`Metric.pairwise` for any object with a ``scalar_scores`` method.

    >>> from mtalign import Wer
    >>> pairwise_scores(Wer().scalar_scores, ["a b"], ["a b", "a"]).tolist()
    [[0.0, 1.0]]
    """
    hyps = list(hyps)
    refs = list(pseudo_refs)
    n, m = len(hyps), len(refs)
    if n == 0 or m == 0:
        return np.zeros((n, m), dtype=np.float64)
    if isinstance(hyps[0], (list, tuple)):
        # Token lists: a pseudo-reference is one token list, i.e. a reference set of one.
        refs = [[r] for r in refs]
    flat_hyps = [h for h in hyps for _ in range(m)]
    flat_refs = refs * n
    scores = np.asarray(scalar_scores(flat_hyps, flat_refs, variant=variant, threads=threads),
                        dtype=np.float64)
    return scores.reshape(n, m)


def softmax_weights(weights: Any, m: int) -> np.ndarray | None:
    """Log-probability weights → normalized probabilities (None stays None: uniform).

    >>> softmax_weights([0.0, 0.0], 2).tolist()
    [0.5, 0.5]
    """
    if weights is None:
        return None
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (m,):
        raise InputError(f"weights must have one log-probability per sample ({m}), "
                         f"got shape {w.shape}")
    if not np.all(np.isfinite(w) | (w == -np.inf)) or not np.any(np.isfinite(w)):
        raise InputError("weights must be finite log-probabilities (-inf allowed, not all)")
    e = np.exp(w - np.max(w))
    return e / e.sum()


def expectation(matrix: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Row-wise mean (``w`` None) or ``w``-weighted sum of a matrix, in a fixed order.

    >>> expectation(np.array([[1.0, 0.0], [0.5, 0.5]]), None).tolist()
    [0.5, 0.5]
    """
    if w is None:
        return matrix.mean(axis=1)
    return (matrix * w[None, :]).sum(axis=1)


__all__ = ["Metric", "confidence", "expectation", "pairwise_scores", "pick_scalar",
           "softmax_weights"]
