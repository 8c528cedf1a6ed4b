"""mtalign: fast, faithful MT evaluation with a Rust core.

>>> import mtalign
>>> r = mtalign.Rouge(["rougeL", "rougeW-1.2", "rougeS4", "rougeSU4"])
>>> r.sentence_score("The cat sat on the mat.", ["A cat sat on the mat."])["rougeL"].fmeasure
0.8333333333333334
"""

from mtalign import kernels
from mtalign._baseline import CorpusResult
from mtalign._mtalign import __version__
from mtalign.bleu import Bleu, BleuResult
from mtalign.dcs import Dcs, DcsResult, DcsScore
from mtalign.error_rate import Per, Wer
from mtalign.errors import ConfigError, InputError, MtalignError, MtalignWarning
from mtalign.nist import Nist
from mtalign.ribes import Ribes
from mtalign.rouge import Rouge, RougeResult, Score
from mtalign.tokenizers import default_threads, tokenize

__all__ = [
    "Bleu",
    "BleuResult",
    "CorpusResult",
    "Nist",
    "Per",
    "Ribes",
    "Wer",
    "ConfigError",
    "Dcs",
    "DcsResult",
    "DcsScore",
    "InputError",
    "MtalignError",
    "MtalignWarning",
    "Rouge",
    "RougeResult",
    "Score",
    "__version__",
    "default_threads",
    "kernels",
    "tokenize",
]
