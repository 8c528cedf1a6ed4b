"""sacrebleu 2.6.0's API and command line, computed by mtalign.

Switch with one line, ``import mtalign.compat.sacrebleu as sacrebleu``: ``BLEU``, ``CHRF``,
``TER`` (and ``metrics``), ``corpus_bleu``/``sentence_bleu``/``raw_corpus_bleu``,
``corpus_chrf``/``sentence_chrf``, ``corpus_ter``/``sentence_ter``, ``significance``
(``PairedTest``, ``Result``), ``tokenizers`` and ``utils`` give sacrebleu's numbers. The one
visible difference: the signature's version field names both, ``2.6.0+mtalign-X``.
sacrebleu's test-set downloads are not here (mtalign never downloads). sacrebleu's own test
suite runs through this package (``tests/sacrebleu_suite``); ``mtalign sacrebleu ARGS`` (or
``python -m mtalign.compat.sacrebleu ARGS``) is its command line.

>>> import mtalign.compat.sacrebleu as sacrebleu
>>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
...         ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
>>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
>>> print(sacrebleu.corpus_bleu(hyps, refs))
BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)
>>> bleu = sacrebleu.BLEU(); _ = bleu.corpus_score(hyps, refs); print(bleu.get_signature())
nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+mtalign-0.1.0
"""

import importlib
from typing import TYPE_CHECKING, Any

from mtalign.compat.sacrebleu.metrics.base import VERSION as __version__

if TYPE_CHECKING:
    from mtalign.compat.sacrebleu import metrics, significance, tokenizers, utils
    from mtalign.compat.sacrebleu.compat import (
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        raw_corpus_bleu,
        sentence_bleu,
        sentence_chrf,
        sentence_ter,
    )
    from mtalign.compat.sacrebleu.metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
    from mtalign.compat.sacrebleu.utils import SACREBLEU_DIR, smart_open

# sacrebleu's names, each imported on first access (PEP 562): the command line (``mtalign
# sacrebleu``) imports only what its options need.
_SUBMODULES = {"metrics", "significance", "tokenizers", "utils"}
_HOMES = {**dict.fromkeys(["corpus_bleu", "corpus_chrf", "corpus_ter", "raw_corpus_bleu",
                           "sentence_bleu", "sentence_chrf", "sentence_ter"], "compat"),
          **dict.fromkeys(["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore"],
                          "metrics"),
          "SACREBLEU_DIR": "utils", "smart_open": "utils"}


def __getattr__(name: str) -> Any:
    """sacrebleu's names, imported on first access."""
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _HOMES:
        return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _SUBMODULES | set(_HOMES))


__all__ = ["BLEU", "CHRF", "SACREBLEU_DIR", "TER", "BLEUScore", "CHRFScore", "TERScore",
           "__version__", "corpus_bleu", "corpus_chrf", "corpus_ter", "metrics",
           "raw_corpus_bleu", "sentence_bleu", "sentence_chrf", "sentence_ter",
           "significance", "smart_open", "tokenizers", "utils"]
