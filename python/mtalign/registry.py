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

import argparse
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtalign._mtalign import ConfigError
from mtalign.metrics.bleu import Bleu
from mtalign.metrics.chrf import Chrf
from mtalign.metrics.dcs import Dcs
from mtalign.metrics.error_rate import Per, Wer
from mtalign.metrics.external_tokenizers import EXTERNAL_TOKENIZERS
from mtalign.metrics.gtm import Gtm
from mtalign.metrics.meteor import Meteor
from mtalign.metrics.nist import Nist
from mtalign.metrics.options import TOKENIZERS
from mtalign.metrics.results import DCS_FIELDS, Score
from mtalign.metrics.ribes import Ribes
from mtalign.metrics.rouge import Rouge
from mtalign.metrics.sia import Sia, WordSimilarity
from mtalign.metrics.ter import Ter

# The declarations the shared command-line options come from (defaults, choices).
_COMPAT, _MULTI_REF, _BETA = (Rouge.declared(n) for n in ("compat", "multi_ref", "beta"))
_LEVEL = Dcs.declared("level")
_SIA_ALPHA, _SIA_DECAY = Sia.declared("alpha"), Sia.declared("decay")
_MAX_WORDS = Sia.declared("max_words")


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
    max_words: int = _MAX_WORDS.default
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


def add_metric_options(p: argparse.ArgumentParser) -> None:
    """The options of :class:`MetricOptions` on a command's parser (same for every command)."""
    from mtalign.cli.common import existing_dir, existing_file, fraction, positive_float

    p.add_argument("--tokenize", default=None, choices=TOKENIZERS + EXTERNAL_TOKENIZERS,
                   metavar="NAME",
                   help="word tokenizer: " + ", ".join(TOKENIZERS + EXTERNAL_TOKENIZERS) +
                        " (default: unicode for ROUGE (or the --compat "
                        "profile's), word-level DCS and SIA; sacrebleu's 13a for BLEU, NIST, "
                        "WER, PER, RIBES, GTM; whitespace for METEOR; chrF and TER tokenize "
                        "as sacrebleu does and ignore it)")
    p.add_argument("--no-lowercase", action="store_true",
                   help="keep case for ROUGE and SIA (DCS always compares case as given; "
                        "the baselines keep it unless --lowercase-baselines)")
    p.add_argument("--lowercase-baselines", action="store_true",
                   help="lowercase for BLEU, chrF, NIST, WER, PER, RIBES, GTM (case is kept "
                        "by default, as in sacrebleu; TER always ignores case, as sacrebleu's)")
    p.add_argument("--compat", default=_COMPAT.default, choices=_COMPAT.choices,
                   help="ROUGE numbers as the paper defines them, as ROUGE-1.5.5 computes them "
                        "or as rouge-score 0.1.2 does (default: %(default)s)")
    p.add_argument("--stem", action="store_true",
                   help="ROUGE with stemming: ROUGE-1.5.5's -m under --compat rouge155, nltk's "
                        "Porter otherwise (as rouge-score)")
    p.add_argument("--multi-ref", default=None, choices=_MULTI_REF.choices,
                   help="how several references combine for ROUGE (default: the --compat "
                        "profile's: max, average or best_f)")
    p.add_argument("--jackknife", action="store_true",
                   help="ROUGE: mean over leave-one-out reference sets (needs >= 2 references)")
    p.add_argument("--beta", type=positive_float, default=_BETA.default, metavar="B",
                   help="ROUGE F-measure beta (default: %(default)g)")
    p.add_argument("--level", default=_LEVEL.default, choices=_LEVEL.choices,
                   help="DCS level: char (code points; for CJK) or word (default: %(default)s)")
    p.add_argument("--ignore-spaces", action="store_true",
                   help="DCS at character level: drop whitespace before matching")
    p.add_argument("--sia-alpha", type=fraction(True, False), default=None, metavar="A",
                   help=f"SIA decay factor in (0, 1] (default: {_SIA_ALPHA.default})")
    p.add_argument("--sia-decay", default=_SIA_DECAY.default, choices=_SIA_DECAY.choices,
                   help="SIA round weights: figure = a, a^2, a^4, ...; geometric = a, a^2, "
                        "a^3, ... (default: %(default)s)")
    p.add_argument("--max-words", type=_words, default=_MAX_WORDS.default, metavar="N",
                   help="SIA's and GTM's size limit: a pair with a text of more than N words "
                        "(or too many matching words) is refused up front, since their time "
                        "grows faster than the length; 0 = no limit (default: %(default)s)")
    p.add_argument("--trg-lang", default="", metavar="LANG",
                   help="BLEU: the target language picks sacrebleu's tokenizer when --tokenize "
                        "is not given (zh, ja: ja-mecab, ko: ko-mecab; else 13a)")
    p.add_argument("--spm-model", default=None, metavar="FILE", type=existing_file,
                   help="BLEU with --tokenize spm/flores101/flores200: the local SentencePiece "
                        "model file (never downloaded)")
    p.add_argument("--similarity", default=None, metavar="TABLE", type=existing_file,
                   help="SIA stochastic matching with a similarity table saved by "
                        "mtalign train-similarity (default: exact matching)")
    p.add_argument("--wordnet", default=None, metavar="DIR", type=existing_dir,
                   help="METEOR's synonym stage: a WordNet database directory, e.g. "
                        "/usr/share/wordnet from Debian's wordnet-base (default: no synonyms)")


@dataclass
class Report:
    """What ``mtalign score`` prints for one family: corpus values per name, sentence arrays
    (column names, (n, k) array) per name, one signature, and the empty-text counts."""

    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    sentences: dict[str, tuple[tuple[str, ...], np.ndarray]] = field(default_factory=dict)
    signature: str = ""
    n_empty_hyps: int = 0
    n_empty_refs: int = 0


@dataclass(frozen=True)
class Family:
    """A metric family: which names it owns and how to build one object scoring them.

    ``build(names, options)`` returns one metric object that scores all ``names`` (with
    ``per_name``, every name gets an object of its own: ``bleus2`` and ``bleus4`` differ in
    configuration); ``variant(name)`` is the scalar to rank by (``scalar_scores(variant=...)``,
    ``None`` = the object's default); ``report(metric, names, hyps, refs, threads)`` scores a
    corpus for ``mtalign score``; ``examples`` are names it owns (tests run every one through
    every command).
    """

    name: str
    matches: Callable[[str], bool]
    build: Callable[[Sequence[str], MetricOptions], Any]
    names_help: str
    report: Callable[[Any, Sequence[str], list[str], list[list[str]], int | None], Report]
    variant: Callable[[str], str | None] = lambda name: name  # noqa: E731 (the name itself)
    per_name: bool = False
    examples: tuple[str, ...] = ()


# -- builders -------------------------------------------------------------------------------

def _rouge(names: Sequence[str], o: MetricOptions) -> Rouge:
    return Rouge(list(names), tokenize=o.tokenize, lowercase=o.lowercase, beta=o.beta,
                 multi_ref=o.multi_ref, jackknife=o.jackknife, compat=o.compat, stem=o.stem)


def _dcs(names: Sequence[str], o: MetricOptions) -> Dcs:
    # DCS compares case as given (the authors' definition) and keeps the best reference.
    return Dcs(o.level, tokenize=o.tokenize or "unicode", ignore_spaces=o.ignore_spaces,
               multi_ref="max")


def _words(text: str) -> int:
    """--max-words: a count of words, 0 for no limit."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of words, 0 for no limit "
                                         f"(got {text!r})")
    return value


def _sia(names: Sequence[str], o: MetricOptions) -> Sia:
    sim = None if o.similarity is None else WordSimilarity.load(o.similarity)
    return Sia(alpha=o.sia_alpha, decay=o.sia_decay, similarity=sim,
               tokenize=o.tokenize or "unicode", lowercase=o.lowercase,
               max_words=o.max_words or None)


_BLEU = re.compile(r"^bleu(s?)(\d*)$")
_ERROR_RATES: dict[str, type[Wer] | type[Per]] = {"wer": Wer, "per": Per}


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


def _error_rate(names: Sequence[str], o: MetricOptions) -> Wer | Per:
    return _ERROR_RATES[names[0]](tokenize=o.tokenize or "13a", lowercase=o.lowercase_baselines)


_GTM = re.compile(r"^gtm(\d+(?:\.\d+)?)?$")


def _gtm(names: Sequence[str], o: MetricOptions) -> Gtm:
    m = _GTM.match(names[0])
    assert m is not None
    # gtm<e>: GTM with exponent e (gtm = gtm1); Lin & Och's GTM10/20/30 are gtm1/gtm2/gtm3.
    return Gtm(float(m.group(1) or 1), tokenize=o.tokenize or "13a",
               lowercase=o.lowercase_baselines, max_words=o.max_words or None)


def _ribes(names: Sequence[str], o: MetricOptions) -> Ribes:
    return Ribes(tokenize=o.tokenize or "13a", lowercase=o.lowercase_baselines)


# -- reports --------------------------------------------------------------------------------

def _report_rouge(metric: Rouge, names: Sequence[str], hyps: list[str], refs: list[list[str]],
                  threads: int | None) -> Report:
    res = metric.corpus_score(hyps, refs, threads=threads)
    rep = Report(signature=res.signature, n_empty_hyps=res.n_empty_hyps,
                 n_empty_refs=res.n_empty_refs)
    for name in names:
        rep.scores[name] = res[name]._asdict()
        rep.sentences[name] = (Score._fields, res.per_sentence[name])
    return rep


def _report_dcs(metric: Dcs, names: Sequence[str], hyps: list[str], refs: list[list[str]],
                threads: int | None) -> Report:
    res = metric.corpus_score(hyps, refs, threads=threads)
    rep = Report(signature=res.signature, n_empty_hyps=res.n_empty_hyps,
                 n_empty_refs=res.n_empty_refs)
    for name in names:
        k = DCS_FIELDS.index(name)
        rep.scores[name] = {"score": res.scores[k]}
        rep.sentences[name] = (("score",), res.per_sentence[:, k : k + 1])
    return rep


def _report_scalar(metric: Any, names: Sequence[str], hyps: list[str], refs: list[list[str]],
                   threads: int | None) -> Report:
    """One corpus score per object, with the sentence scores its result carries."""
    res = metric.corpus_score(hyps, refs, threads=threads)
    (name,) = names
    return Report(scores={name: {"score": res.score}},
                  sentences={name: (("score",), np.asarray(res.per_sentence).reshape(-1, 1))},
                  signature=res.signature, n_empty_hyps=res.n_empty_hyps,
                  n_empty_refs=res.n_empty_refs)


def _default_variant(name: str) -> str | None:
    return None


FAMILIES: tuple[Family, ...] = (
    Family("rouge", lambda n: n.startswith("rouge"), _rouge,
           "rouge1..rouge9, rougeL, rougeLsum, rougeW-<w>, rougeS<d>, rougeS*, rougeSU<d>, "
           "rougeSU*", _report_rouge, examples=("rougeL", "rougeSU4")),
    Family("dcs", lambda n: n in DCS_FIELDS, _dcs, "dcs, cs0, cs1, cs2", _report_dcs,
           examples=("dcs", "cs0")),
    Family("sia", lambda n: n == "sia", _sia, "sia", _report_scalar, _default_variant,
           examples=("sia",)),
    Family("bleu", _is_bleu, _bleu,
           "bleu, bleu<N> (sacrebleu's BLEU-N: corpus_bleu; sentence_bleu per sentence), "
           "bleus<N> (Lin & Och's BLEUS-N, add-one), N = 1..12",
           _report_scalar, _default_variant, per_name=True,
           examples=("bleu", "bleu2", "bleus4")),
    Family("chrf", lambda n: n in ("chrf", "chrf++"),
           lambda ns, o: Chrf(word_order=2 if ns[0] == "chrf++" else 0,
                              lowercase=o.lowercase_baselines),
           "chrf, chrf++ (sacrebleu's)", _report_scalar, _default_variant, per_name=True,
           examples=("chrf", "chrf++")),
    Family("nist", lambda n: n == "nist", _nist, "nist", _report_scalar, _default_variant,
           examples=("nist",)),
    Family("error_rate", lambda n: n in _ERROR_RATES, _error_rate, "wer, per", _report_scalar,
           _default_variant, per_name=True, examples=("wer", "per")),
    Family("ter", lambda n: n == "ter", lambda ns, o: Ter(), "ter (sacrebleu's)",
           _report_scalar, _default_variant, examples=("ter",)),
    Family("ribes", lambda n: n == "ribes", _ribes, "ribes", _report_scalar, _default_variant,
           examples=("ribes",)),
    Family("gtm", lambda n: _GTM.match(n) is not None, _gtm,
           "gtm, gtm<e> (GTM with run exponent e, e.g. gtm1, gtm2, gtm3)", _report_scalar,
           _default_variant, per_name=True, examples=("gtm1", "gtm2", "gtm3")),
    Family("meteor", lambda n: n == "meteor",
           lambda ns, o: Meteor(wordnet=o.wordnet, tokenize=o.tokenize or "whitespace"),
           "meteor (nltk's; synonyms with --wordnet DIR)", _report_scalar, _default_variant,
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
    """The family owning a metric name; :class:`~mtalign.ConfigError` if none does."""
    for fam in FAMILIES:
        if fam.matches(name):
            return fam
    raise ConfigError(f"unknown metric {name!r} (known: {names_help()})")


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
