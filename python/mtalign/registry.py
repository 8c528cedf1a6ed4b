"""Metric names (as on the command line) → metric objects: one table for every command.

A metric family is one :class:`Family` row in :data:`FAMILIES`; ``mtalign score``,
``mtalign orange`` and ``mtalign rerank`` all read their metric names and options from here.

>>> metric, variant = make_metric("rougeS4")
>>> type(metric).__name__, variant
('Rouge', 'rougeS4')
>>> family_of("cs0").name
'dcs'
>>> make_metric("bleus2")[0] == Bleu.bleus(2)
True
>>> make_metric("bleu")[0] == Bleu()
True
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mtalign._mtalign import ConfigError
from mtalign.metrics.bleu import Bleu
from mtalign.metrics.chrf import Chrf
from mtalign.metrics.dcs import Dcs
from mtalign.metrics.error_rate import Cer, Per, Wer
from mtalign.metrics.gtm import Gtm
from mtalign.metrics.meteor import Meteor
from mtalign.metrics.nist import Nist
from mtalign.metrics.ribes import Ribes
from mtalign.metrics.rouge import Rouge
from mtalign.metrics.sia import Sia, WordSimilarity
from mtalign.metrics.ter import Ter

# The declarations the shared command-line options come from (defaults, choices).
_COMPAT, _MULTI_REF, _BETA = (Rouge.declared(n) for n in ("compat", "multi_ref", "beta"))
_LEVEL = Dcs.declared("level")
_DCS_NAMES = Dcs().scalar_names()  # dcs, cs0, cs1, cs2: the same for every configuration
_SIA_ALPHA, _SIA_DECAY = Sia.declared("alpha"), Sia.declared("decay")


@dataclass(frozen=True)
class MetricOptions:
    """The command-line options metrics are built from (one field per shared option).

    ``tokenize=None`` means each family's own default: the ``compat`` profile's for ROUGE,
    ``unicode`` for DCS and SIA, sacrebleu's ``13a`` for the baselines (BLEU, NIST, WER, PER,
    RIBES, GTM), ``whitespace`` for METEOR (chrF and TER tokenize as sacrebleu). ``lowercase``
    applies to ROUGE and SIA; the baselines (and chrF) keep case unless
    ``lowercase_baselines`` (as sacrebleu); TER ignores case (sacrebleu's default); DCS
    always compares case as given.
    """

    tokenize: str | None = None
    lowercase: bool = True
    beta: float = _BETA.default
    multi_ref: str | None = None
    jackknife: bool = False
    compat: str = _COMPAT.default
    stem: bool = False
    level: str = _LEVEL.default
    ignore_spaces: bool = False
    lowercase_baselines: bool = False
    sia_alpha: float = _SIA_ALPHA.default
    sia_decay: str = _SIA_DECAY.default
    max_words: int | None = None
    similarity: str | None = None
    trg_lang: str = ""
    spm_model: str | None = None
    wordnet: str | None = None

    @classmethod
    def from_args(cls, args: Any) -> MetricOptions:
        """Reads the fields from an argparse namespace (missing ones keep their default)."""
        base = cls()
        values = {f: getattr(args, f, getattr(base, f)) for f in cls.__dataclass_fields__}
        values["lowercase"] = not getattr(args, "no_lowercase", not base.lowercase)
        if values["sia_alpha"] is None:
            values["sia_alpha"] = base.sia_alpha
        return cls(**values)


@dataclass(frozen=True)
class Family:
    """A metric family: which names it owns and how to build one object scoring them.

    ``build(names, options)`` returns one metric object that scores all ``names`` (with
    ``per_name``, every name gets an object of its own: ``bleus2`` and ``bleus4`` differ in
    configuration); ``variant(name)`` is the scalar to rank by (``scalar_scores(variant=...)``,
    ``None`` = the object's default); ``examples`` are names it owns (tests run every one
    through every command).
    """

    name: str
    matches: Callable[[str], bool]
    build: Callable[[Sequence[str], MetricOptions], Any]
    names_help: str
    variant: Callable[[str], str | None] = lambda name: name  # noqa: E731 (the name itself)
    per_name: bool = False
    examples: tuple[str, ...] = ()


# -- builders -------------------------------------------------------------------------------

def _rouge(names: Sequence[str], o: MetricOptions) -> Rouge:
    return Rouge(list(names), tokenize=o.tokenize, lowercase=o.lowercase, beta=o.beta,
                 multi_ref=o.multi_ref, jackknife=o.jackknife, compat=o.compat, stem=o.stem,
                 **_max_words(o))


def _max_words(o: MetricOptions) -> dict[str, int | None]:
    """``max_words=`` from --max-words (0: None, no limit); without it, the metric's default.

    >>> _max_words(MetricOptions()), _max_words(MetricOptions(max_words=0))
    ({}, {'max_words': None})
    """
    return {} if o.max_words is None else {"max_words": o.max_words or None}


def _dcs(names: Sequence[str], o: MetricOptions) -> Dcs:
    # DCS compares case as given (the authors' definition) and keeps the best reference.
    return Dcs(o.level, tokenize=o.tokenize or "unicode", ignore_spaces=o.ignore_spaces,
               multi_ref="max")


def _sia(names: Sequence[str], o: MetricOptions) -> Sia:
    sim = None if o.similarity is None else WordSimilarity.load(o.similarity)
    return Sia(alpha=o.sia_alpha, decay=o.sia_decay, similarity=sim,
               tokenize=o.tokenize or "unicode", lowercase=o.lowercase, **_max_words(o))


_BLEU = re.compile(r"^bleu(s?)(\d*)$")
_ERROR_RATES: dict[str, type[Wer] | type[Per] | type[Cer]] = {"wer": Wer, "per": Per,
                                                               "cer": Cer}
_WORD_RATES: dict[str, type[Wer] | type[Per]] = {"wer": Wer, "per": Per}


def _is_bleu(name: str) -> bool:
    return _BLEU.match(name) is not None  # an order outside 1..12 is Bleu's error to explain


def _bleu(names: Sequence[str], o: MetricOptions) -> Bleu:
    m = _BLEU.match(names[0])
    assert m is not None
    # bleu<N>: Python's Bleu(N), sacrebleu's BLEU (corpus_bleu, and sentence_bleu at
    # sentence level); bleus<N>: Bleu.bleus(N), Lin & Och's BLEUS (add-one).
    options: dict[str, Any] = {"tokenize": o.tokenize, "lowercase": o.lowercase_baselines,
                               "trg_lang": o.trg_lang, "spm_model": o.spm_model}
    order = int(m.group(2) or 4)
    return Bleu.bleus(order, **options) if m.group(1) else Bleu(order, **options)


def _nist(names: Sequence[str], o: MetricOptions) -> Nist:
    return Nist(tokenize=o.tokenize or "13a", lowercase=o.lowercase_baselines)


def _error_rate(names: Sequence[str], o: MetricOptions) -> Wer | Per | Cer:
    if names[0] not in _WORD_RATES:  # cer: characters, no tokenizer
        return Cer(lowercase=o.lowercase_baselines)
    return _WORD_RATES[names[0]](tokenize=o.tokenize or "13a", lowercase=o.lowercase_baselines)


_GTM = re.compile(r"^gtm(\d+(?:\.\d+)?)?$")


def _gtm(names: Sequence[str], o: MetricOptions) -> Gtm:
    m = _GTM.match(names[0])
    assert m is not None
    # gtm<e>: GTM with exponent e (gtm = gtm1); Lin & Och's GTM10/20/30 are gtm1/gtm2/gtm3.
    return Gtm(float(m.group(1) or 1), tokenize=o.tokenize or "13a",
               lowercase=o.lowercase_baselines, **_max_words(o))


def _ribes(names: Sequence[str], o: MetricOptions) -> Ribes:
    return Ribes(tokenize=o.tokenize or "13a", lowercase=o.lowercase_baselines)


def _default_variant(name: str) -> str | None:
    return None


FAMILIES: tuple[Family, ...] = (
    Family("rouge", lambda n: n.startswith("rouge"), _rouge,
           "rouge1..rouge9, rougeL, rougeLsum, rougeW-<w>, rougeS<d>, rougeS*, rougeSU<d>, "
           "rougeSU*", examples=("rougeL", "rougeSU4")),
    Family("dcs", lambda n: n in _DCS_NAMES, _dcs, "dcs, cs0, cs1, cs2", examples=("dcs", "cs0")),
    Family("sia", lambda n: n == "sia", _sia, "sia", _default_variant,
           examples=("sia",)),
    Family("bleu", _is_bleu, _bleu,
           "bleu, bleu<N> (sacrebleu's BLEU-N: corpus_bleu; sentence_bleu per sentence), "
           "bleus<N> (Lin & Och's BLEUS-N, add-one), N = 1..12",
           _default_variant, per_name=True,
           examples=("bleu", "bleu2", "bleus4")),
    Family("chrf", lambda n: n in ("chrf", "chrf++"),
           lambda ns, o: Chrf(word_order=2 if ns[0] == "chrf++" else 0,
                              lowercase=o.lowercase_baselines),
           "chrf, chrf++ (sacrebleu's)", _default_variant, per_name=True,
           examples=("chrf", "chrf++")),
    Family("nist", lambda n: n == "nist", _nist, "nist", _default_variant,
           examples=("nist",)),
    Family("error_rate", lambda n: n in _ERROR_RATES, _error_rate, "wer, per, cer",
           _default_variant, per_name=True, examples=("wer", "per", "cer")),
    Family("ter", lambda n: n == "ter", lambda ns, o: Ter(), "ter (sacrebleu's)",
           _default_variant, examples=("ter",)),
    Family("ribes", lambda n: n == "ribes", _ribes, "ribes", _default_variant,
           examples=("ribes",)),
    Family("gtm", lambda n: _GTM.match(n) is not None, _gtm,
           "gtm, gtm<e> (GTM with run exponent e, e.g. gtm1, gtm2, gtm3)",
           _default_variant, per_name=True, examples=("gtm1", "gtm2", "gtm3")),
    Family("meteor", lambda n: n == "meteor",
           lambda ns, o: Meteor(wordnet=o.wordnet, tokenize=o.tokenize or "whitespace"),
           "meteor (nltk's; synonyms with --wordnet DIR)", _default_variant,
           examples=("meteor",)),
)


def example_names() -> list[str]:
    """One or more names of every family, in the table's order.

    >>> example_names()[:3]
    ['rougeL', 'rougeSU4', 'dcs']
    """
    return [name for fam in FAMILIES for name in fam.examples]


def names_help() -> str:
    """Every family's names, for ``--help`` texts and error messages."""
    return "; ".join(f"{f.name}: {f.names_help}" for f in FAMILIES)


def family_of(name: str) -> Family:
    """The family owning a metric name; :class:`~mtalign.ConfigError` if none does, with the
    closest known name first (a typo is the usual cause).

    >>> family_of("blue")
    Traceback (most recent call last):
    ...
    mtalign.errors.ConfigError: unknown metric 'blue' (did you mean 'bleu'?; known: ...)
    """
    for fam in FAMILIES:
        if fam.matches(name):
            return fam
    known = sorted({*example_names(), "bleu", "chrf", "ter", "wer", "per", "nist", "meteor",
                    "rouge1", "rouge2", "rougeLsum", "sia", "gtm", "ribes"})
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if not close:  # case slips (ROUGEL, BLEU) are the other usual cause
        close = [k for k in known if k.lower() == name.lower()][:1]
    hint = f"did you mean {close[0]!r}?; " if close else ""
    raise ConfigError(f"unknown metric {name!r} ({hint}known: {names_help()})")


def make_metric(name: str, options: MetricOptions | None = None) -> tuple[Any, str | None]:
    """One metric object for one name, and the variant to rank by (None: its default)."""
    fam = family_of(name)
    return fam.build([name], options or MetricOptions()), fam.variant(name)


def group_metrics(names: Sequence[str],
                  options: MetricOptions | None = None) -> list[tuple[Family, Any, list[str]]]:
    """Names grouped by family, one object per family scoring all of its names, in order
    (one object per name for families whose names differ in configuration).

    >>> [(f.name, ns) for f, _, ns in group_metrics(["rougeL", "dcs", "rouge1", "bleus4"])]
    [('rouge', ['rougeL', 'rouge1']), ('dcs', ['dcs']), ('bleu', ['bleus4'])]
    """
    groups: dict[str, tuple[Family, list[str]]] = {}
    for n in names:
        fam = family_of(n)
        key = f"{fam.name}:{n}" if fam.per_name else fam.name
        entry = groups.setdefault(key, (fam, []))
        if n not in entry[1]:
            entry[1].append(n)
    opts = options or MetricOptions()
    return [(fam, fam.build(ns, opts), ns) for fam, ns in groups.values()]
