"""Metric options, declared once: every choice list and the one place a value is checked.

A metric class declares each option with :func:`option` (name from the attribute, default,
docstring, kind, choices, how the signature shows it); :class:`~mtalign.metrics.base.Metric`
generates ``__init__``, ``repr``, equality, hashing, pickling, ``config()`` and
``signature()`` from the declarations. Values are checked in one place: the native
constructors check what they receive (tokenizer names, ranges, smoothing names …, raising
:class:`~mtalign.ConfigError`); :meth:`Option.check` checks only what they cannot see
(Python types, options that exist only in Python).

A native metric's options are typed once, in its core option table (``_mtalign.OPTIONS``,
one table per native metric: name, kind, default, doc, choices); the class names the table
(``native = "bleu"``) and declares each of its options with ``default=CORE``, which takes the
default, doc, kind and choices from the table (a name the table lacks is refused when the
class is made). Python-only options, and options whose Python default differs (a ``None``
resolved in Python), are declared with their own default.

The choice lists of native options come from the core's one declaration of each
(``_mtalign.CHOICES``); the few Python-only lists are typed below. ``--help``, the docstrings
and the checks read them from here.

>>> "rouge155" in TOKENIZERS and "13a" in TOKENIZERS
True
>>> try:
...     Option(True, "lowercase first", name="lowercase").check(1)
... except ConfigError as e:
...     print(e)
lowercase must be True or False (got 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

from mtalign._mtalign import CHOICES, OPTIONS, ConfigError

# -- choice lists (the one place each is typed in Python) ---------------------------------------

#: Every tokenizer name, accepted by every metric (pre-tokenized input bypasses them):
#: ``unicode`` (runs of letters, digits and marks in any script; each CJK ideograph, kana or
#: hangul character is a token), ``whitespace``, ``char`` (characters, spaces dropped),
#: ``codepoint`` (every code point, spaces included), ``rouge155`` (ROUGE-1.5.5: ASCII-only
#: lowercasing, runs of ASCII letters and digits), ``rouge_score`` (rouge-score: ``lower()``
#: then runs of ``[a-z0-9]``), ``13a`` (sacrebleu's default), ``intl`` and ``zh`` (sacrebleu's).
TOKENIZERS: tuple[str, ...] = CHOICES["tokenizer"]
#: ROUGE: how several references combine.
ROUGE_MULTI_REF: tuple[str, ...] = CHOICES["multi_ref"]
#: ROUGE: the conventions followed.
COMPAT: tuple[str, ...] = CHOICES["compat"]
#: BLEU smoothings (sacrebleu's, then Chen & Cherry's as nltk numbers them).
SMOOTHINGS: tuple[str, ...] = CHOICES["smooth"]
#: BLEU: the reference length of the brevity penalty.
REF_LENGTHS: tuple[str, ...] = CHOICES["ref_length"]
#: DCS: the symbols compared.
LEVELS = ("char", "word")
#: DCS: how several references combine.
DCS_MULTI_REF = ("max",)
#: SIA: the round weights.
DECAYS: tuple[str, ...] = CHOICES["decay"]
#: SIA: translation-table file formats.
TABLE_FORMATS = ("tsv", "fast_align", "moses", "giza")


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: The default of an option that must be given.
REQUIRED: Any = _Required()


class _Core:
    def __repr__(self) -> str:
        return "CORE"


#: The default of an option declared by the metric's core option table (``_mtalign.OPTIONS``).
CORE: Any = _Core()

#: The Python type of each kind of core option (``None``: not checked here).
_KINDS: dict[str, type | None] = {"bool": bool, "int": int, "float": float, "str": str,
                                  "names": None, "path": None, "object": None}


def yes_no(value: Any, metric: Any) -> str:
    """The signature form of a bool: ``yes`` or ``no``."""
    return "yes" if value else "no"


def case(value: Any, metric: Any) -> str:
    """sacrebleu's signature form of ``lowercase``: ``lc`` or ``mixed``."""
    return "lc" if value else "mixed"


def number(value: Any, metric: Any) -> str:
    """A number in the signature: ``format(value, "g")``."""
    return format(value, "g")


def plain(value: Any, metric: Any) -> str:
    """A value as it is."""
    return str(value)


class Option:
    """One declared option of a metric class (create it with :func:`option`).

    Attributes:
        name: the keyword argument (set from the class attribute's name).
        default: its default (:data:`REQUIRED` when it must be given).
        doc: one line for documentation.
        kind: ``bool``, ``int``, ``float`` or ``str`` (checked here, since the native
            constructors raise ``TypeError`` for wrong types), or ``None`` (not checked).
        choices: the allowed values, for documentation, ``--help`` and the check.
        native: the native constructor checks the value (choices, ranges) itself.
        optional: ``None`` is allowed (it means a default computed from other options).
        kw_only: keyword-only in ``__init__``.
        sig: the key in :meth:`~mtalign.metrics.base.Metric.signature` (``None``: not shown).
        show: ``show(value, metric) -> str | None``, the signature value (``None``: omitted).
        convert: ``convert(value) -> value`` after the type check (e.g. a list of names to
            a tuple), raising :class:`~mtalign.ConfigError` for what it cannot take.
    """

    __slots__ = ("name", "default", "doc", "kind", "choices", "native", "optional", "kw_only",
                 "sig", "show", "_own_show", "convert", "table")

    def __init__(self, default: Any = REQUIRED, doc: str = "", *, name: str = "",
                 kind: type | None = None, choices: Sequence[Any] | None = None,
                 native: bool = False, optional: bool = False, kw_only: bool = False,
                 sig: str | None = None,
                 show: Callable[[Any, Any], str | None] | None = None,
                 convert: Callable[[Any], Any] | None = None) -> None:
        self.name = name
        self.default = default
        self.doc = doc
        if kind is None and default not in (REQUIRED, CORE) and default is not None:
            kind = type(default)
        self.kind = kind
        self.choices = tuple(choices) if choices is not None else None
        self.native = native
        self.optional = optional or default is None
        self.kw_only = kw_only
        self.sig = sig
        self.show = show if show is not None else _show_of(kind)
        self._own_show = show is not None
        self.convert = convert
        self.table: str | None = None  # the native metric whose table declared it

    def from_table(self, metric: str) -> None:
        """Takes the default, doc, kind, choices and optionality of a ``default=CORE``
        option from the core table of native metric ``metric`` (``TypeError`` when the table
        has no such option: the class and the core disagree).

        >>> o = Option(CORE, name="beta")
        >>> o.from_table("chrf")
        >>> o.default, o.kind, o.doc
        (2.0, <class 'float'>, "recall's weight (> 0)")
        """
        row = OPTIONS.get(metric, {}).get(self.name)
        if row is None:
            raise TypeError(f"option {self.name!r}: the core table of {metric!r} has no such "
                            f"option (it has: {', '.join(OPTIONS.get(metric, {}))})")
        default = row["default"]
        self.table = metric
        self.default = REQUIRED if row["required"] else default
        self.doc = self.doc or row["doc"]
        if self.kind is None:
            self.kind = _KINDS[row["kind"]]
        if self.choices is None and row["choices"] is not None:
            self.choices = tuple(row["choices"])
        self.native = True
        self.optional = self.optional or row["optional"]
        if not self._own_show:
            self.show = _show_of(self.kind)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return obj._config[self.name]

    def check(self, value: Any) -> Any:
        """The value as stored (ints given for floats become floats), or
        :class:`~mtalign.ConfigError` for a value the native constructor would not explain."""
        if value is None and self.optional:
            return None
        kind = self.kind
        if kind is bool:
            check_bool(self.name, value)
        elif kind is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"{self.name} must be a number (got {value!r})")
            value = float(value)
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{self.name} must be an int (got {value!r})")
        elif kind is not None and not isinstance(value, kind):
            alt = " or None" if self.optional else ""
            raise ConfigError(f"{self.name} must be a {kind.__name__}{alt} "
                              f"(got {type(value).__name__})")
        if self.convert is not None:
            value = self.convert(value)
        if self.choices is not None and not self.native and value not in self.choices:
            raise ConfigError(f"unknown {self.name} {value!r} (choose from: "
                              f"{', '.join(map(str, self.choices))})")
        return value

    def __repr__(self) -> str:
        return f"Option({self.name}={self.default!r})"


def _show_of(kind: type | None) -> Callable[[Any, Any], str | None]:
    """The signature form of a value of ``kind``: yes/no for bools, ``g`` for floats."""
    return {bool: yes_no, float: number}.get(kind, plain)  # type: ignore[arg-type]


T = TypeVar("T")


@overload
def option(*, default: T, doc: str = "", kind: type | None = None,
           choices: Sequence[Any] | None = None, native: bool = False, optional: bool = False,
           kw_only: bool = False, sig: str | None = None,
           show: Callable[[Any, Any], str | None] | None = None,
           convert: Callable[[Any], Any] | None = None) -> T: ...
@overload
def option(*, doc: str = "", kind: type | None = None,
           choices: Sequence[Any] | None = None, native: bool = False, optional: bool = False,
           kw_only: bool = False, sig: str | None = None,
           show: Callable[[Any, Any], str | None] | None = None,
           convert: Callable[[Any], Any] | None = None) -> Any: ...
def option(*, default: Any = REQUIRED, doc: str = "", **kwargs: Any) -> Any:
    """Declares an option in a metric class body (see :class:`Option` for the keywords).

    >>> from mtalign.metrics.base import Metric
    >>> class Toy(Metric):
    ...     width: int = option(default=3, doc="how wide", sig="w")
    >>> Toy(), Toy(5).signature()
    (Toy(width=3), 'w:5|version:...')
    """
    return Option(default, doc, **kwargs)


def check_bool(name: str, value: Any) -> None:
    """Refuses anything but True and False (the native constructors would raise TypeError).

    >>> check_bool("stem", True)
    """
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False (got {value!r})")


def check_threads(threads: Any) -> int | None:
    """A thread count: a positive int, or None for every core.

    >>> check_threads(2), check_threads(None)
    (2, None)
    """
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"threads must be a positive int or None (got {threads!r})")
    return threads


def names(value: Any) -> tuple[str, ...]:
    """A name or a list of distinct names, as a tuple (e.g. ROUGE's variants).

    >>> names("rougeL"), names(["rouge1", "rouge2"])
    (('rougeL',), ('rouge1', 'rouge2'))
    """
    if isinstance(value, str):
        return (value,)
    value = tuple(value)
    for v in value:
        if not isinstance(v, str):
            raise ConfigError(f"variant names must be str (got {type(v).__name__})")
    dup = next((v for i, v in enumerate(value) if v in value[:i]), None)
    if dup is not None:
        raise ConfigError(f"variant '{dup}' given twice")
    return value


def tokenize_option() -> Any:
    """The baselines' ``tokenize`` option (BLEU's kin: NIST, WER, PER, RIBES, GTM): the core
    table's (sacrebleu's ``13a`` by default), keyword-only, ``tok`` in the signature."""
    return option(default=CORE, kw_only=True, sig="tok")


def lowercase_option() -> Any:
    """The baselines' ``lowercase`` option: the core table's (case kept by default, as
    sacrebleu), keyword-only, ``case`` in the signature (``lc`` or ``mixed``)."""
    return option(default=CORE, kw_only=True, sig="case", show=case)

