"""The metric options every scoring command shares (``score``, ``demo``, ``orange``,
``rerank``, ``correlate``, ``compare``): one declaration, read back as a
:class:`~mtalign.registry.MetricOptions` by :meth:`~mtalign.registry.MetricOptions.from_args`.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_metric_options(p)
>>> MetricOptions.from_args(p.parse_args(["--stem", "--beta", "2"])).beta
2.0
"""

from __future__ import annotations

import argparse

from mtalign.cli.common import existing_dir, existing_file, fraction, positive_float
from mtalign.metrics.dcs import Dcs
from mtalign.metrics.external_tokenizers import EXTERNAL_TOKENIZERS
from mtalign.metrics.gtm import Gtm
from mtalign.metrics.options import TOKENIZERS
from mtalign.metrics.rouge import Rouge
from mtalign.metrics.sia import Sia
from mtalign.registry import MetricOptions

# The declarations the options' defaults and choices come from.
_COMPAT, _MULTI_REF, _BETA = (Rouge.declared(n) for n in ("compat", "multi_ref", "beta"))
_LEVEL = Dcs.declared("level")
_SIA_ALPHA, _SIA_DECAY = Sia.declared("alpha"), Sia.declared("decay")
# --max-words sets one option of three metrics; each has its own default, from its speed.
_MAX_WORDS_DEFAULTS = {"SIA": Sia.declared("max_words").default,
                       "GTM": Gtm.declared("max_words").default,
                       "ROUGE-W/S/SU": Rouge.declared("max_words").default}


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


def add_metric_options(p: argparse.ArgumentParser) -> None:
    """The options of :class:`MetricOptions` on a command's parser (same for every command)."""
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
    defaults = ", ".join(f"{k} {v:,}" for k, v in _MAX_WORDS_DEFAULTS.items())
    p.add_argument("--max-words", type=_words, default=None, metavar="N",
                   help="the size limit of a pair (max_words) of the metrics whose time grows "
                        "faster than the length, refused up front past it: SIA and GTM refuse "
                        "a text of more than N words (or too many matching words), ROUGE-W, "
                        "ROUGE-S and ROUGE-SU a hypothesis and a reference whose lengths "
                        "multiply to more than N²; 0 = no limit (default: each metric's "
                        f"own: {defaults})")
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


__all__ = ["MetricOptions", "add_metric_options"]
