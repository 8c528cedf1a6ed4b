"""sacrebleu 2.6.0's ``BLEU`` and ``BLEUScore``, computed by :class:`mtalign.Bleu`.

>>> from mtalign.compat.sacrebleu.metrics import BLEU
>>> bleu = BLEU()
>>> print(bleu.corpus_score(["The dog bit the man."], [["The dog bit the man."]]))
BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)
>>> bleu.get_signature().format()
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+mtalign-0.1.0'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtalign._mtalign import sacrebleu_bleu_lines
from mtalign.compat.sacrebleu.metrics.base import Metric, Score, Signature, sacrelogger
from mtalign.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

    from mtalign.metrics.bleu import Bleu

# NumPy and mtalign.metrics are imported where they are used, not here: `mtalign sacrebleu
# -sl` (a native call from the files' bytes) then starts without importing them.

MAX_NGRAM_ORDER = 4

# sacrebleu's tokenizer name -> mtalign's (``none`` is sacrebleu's "split on whitespace").
_TOKENIZERS = {"none": "split", "zh": "zh", "13a": "13a", "intl": "intl", "char": "char",
               "ja-mecab": "ja-mecab", "ko-mecab": "ko-mecab", "spm": "spm",
               "flores101": "flores101", "flores200": "flores200"}
# The tokenizers that run in Python (optional packages): lines are tokenized before mtalign
# splits them on whitespace, as sacrebleu splits its tokenizers' output.
_EXTERNAL = {"ja-mecab", "ko-mecab", "spm", "flores101", "flores200"}


class BLEUSignature(Signature):
    """BLEU's signature: ``case``, ``eff``, ``tok``, ``smooth`` (with its value)."""

    def __init__(self, args: dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default = BLEU.SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = args["smooth_value"]
            smooth += f"[{default if value is None else value:.2f}]"
        self.info.update({"case": "lc" if args["lowercase"] else "mixed",
                          "eff": "yes" if args["effective_order"] else "no",
                          "tok": args["tokenizer_signature"], "smooth": smooth})


class BLEUScore(Score):
    """A BLEU score with its statistics: ``counts``, ``totals``, ``precisions``, ``bp``,
    ``sys_len``, ``ref_len``, ``ratio`` (sacrebleu's fields).

    >>> BLEUScore(50.0, [2, 1], [2, 1], [100.0, 100.0], 0.5, 2, 3).ratio
    0.6666666666666666
    """

    def __init__(self, score: float, counts: list[Any], totals: list[Any],
                 precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        self._verbose = (f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
                         f"hyp_len = {sys_len:d} ref_len = {ref_len:d})")


def _smoothed_counts(correct: list[Any], total: list[Any], smooth_method: str,
                     smooth_value: Any) -> tuple[list[Any], list[Any]]:
    """sacrebleu reports add-k's counts and totals with k added (orders 2.. up to the first
    order without n-grams)."""
    correct, total = list(correct), list(total)
    if smooth_method == "add-k" and any(correct) and total and total[0] != 0:
        for n in range(1, len(total)):
            correct[n] += smooth_value
            total[n] += smooth_value
            if total[n] == 0:
                break
    return correct, total


# sacrebleu's SentencePiece models, by the file name its cache folder keeps them under.
_SPM_FILES = {"spm": "sacrebleu_tokenizer_spm.model",
              "flores101": "sacrebleu_tokenizer_spm.model",
              "flores200": "flores200sacrebleuspm"}


def spm_model_path(tokenize: str) -> str | None:
    """The local copy of sacrebleu's SentencePiece model for ``tokenize`` (in
    ``$SACREBLEU/models``, default ``~/.sacrebleu/models``, where sacrebleu saves it); None
    for the other tokenizers. mtalign never downloads: a missing model is an error naming
    the path and how to fetch it.

    >>> spm_model_path("13a") is None
    True
    """
    if tokenize not in _SPM_FILES:
        return None
    folder = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    path = os.path.join(folder, "models", _SPM_FILES[tokenize])
    if not os.path.isfile(path):
        raise ConfigError(
            f"tokenize={tokenize!r}: sacrebleu's SentencePiece model is not in {path} "
            f"(mtalign never downloads; fetch it once with sacrebleu, e.g. "
            f"'sacrebleu REF -i HYP -tok {tokenize}', or set $SACREBLEU)")
    return path


class BLEU(Metric):
    """sacrebleu's ``BLEU`` (same arguments), computed by :class:`mtalign.Bleu`.

    Args:
        lowercase: lowercase first.
        force: do not warn about tokenized-looking input.
        tokenize: ``13a`` (default; ``zh``/``ja-mecab``/``ko-mecab`` by ``trg_lang``),
            ``none``, ``intl``, ``char``, ``zh``, ``ja-mecab``, ``ko-mecab``, ``spm``,
            ``flores101``, ``flores200`` (the last three need a local model, see
            :mod:`mtalign.metrics.external_tokenizers`).
        smooth_method: ``exp`` (default), ``floor``, ``add-k`` or ``none``.
        smooth_value: the value of ``floor`` (0.1) or ``add-k`` (1).
        max_ngram_order: the longest n-gram (4).
        effective_order: stop at the last order the hypothesis has n-grams of.
        trg_lang: target language (picks the tokenizer when ``tokenize`` is None).
        references: reference streams to cache for many systems.

    >>> BLEU(tokenize="none", effective_order=True).sentence_score("a b c", ["a b c"]).bp
    1.0
    """

    SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1,
                                                "exp": None}
    TOKENIZERS = _TOKENIZERS.keys()
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(self, lowercase: bool = False, force: bool = False,
                 tokenize: str | None = None, smooth_method: str = "exp",
                 smooth_value: float | None = None, max_ngram_order: int = MAX_NGRAM_ORDER,
                 effective_order: bool = False, trg_lang: str = "",
                 references: Sequence[Sequence[str]] | None = None) -> None:
        super().__init__()
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        assert smooth_method in self.SMOOTH_DEFAULTS, f"Unknown smooth_method {smooth_method!r}"
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            for lang, best in (("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab")):
                if trg_lang == lang and tokenize != best:
                    name = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}[lang]
                    sacrelogger.warning(f"Consider using the '{best}' or 'spm' tokenizer for "
                                        f"{name}.")
        if tokenize not in _TOKENIZERS:
            raise KeyError(tokenize)
        self.tokenize = tokenize
        spm_model = spm_model_path(tokenize)
        self._spm_model = spm_model
        self._metric: Bleu | None = None
        from mtalign.compat.sacrebleu.tokenizers import tokenizer_for
        self.tokenizer = tokenizer_for(tokenize, spm_model)
        self.tokenizer_signature = self.tokenizer.signature()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _mtalign(self) -> Bleu:
        if self._metric is None:  # made on first use (it imports mtalign.metrics)
            from mtalign.metrics.bleu import Bleu
            self._metric = Bleu(
                max_order=self.max_ngram_order, smooth=self.smooth_method,
                tokenize=_TOKENIZERS[self.tokenize], lowercase=self.lowercase,
                effective_order=self.effective_order, smooth_value=self.smooth_value,
                ref_length="closest", trg_lang=self.trg_lang, spm_model=self._spm_model)
        return self._metric

    def _to_sacrebleu(self, rows: np.ndarray) -> np.ndarray:
        import numpy as np
        # mtalign's rows end with nltk's denominators max(1, total): not sacrebleu's.
        return rows[:, :2 + 2 * self.max_ngram_order].astype(np.int64)

    def _to_mtalign(self, rows: np.ndarray) -> np.ndarray:
        import numpy as np
        total = rows[:, 2 + self.max_ngram_order:2 + 2 * self.max_ngram_order]
        return np.concatenate([rows, np.maximum(total, 1)], axis=1).astype(np.float64)

    def _score_of(self, result: Any) -> BLEUScore:
        order = self.max_ngram_order
        precisions = list(result.precisions) + [0.0] * (order - len(result.precisions))
        counts, totals = _smoothed_counts(result.counts, result.totals, self.smooth_method,
                                          self._smooth_value())
        return BLEUScore(float(result.score), counts, totals, precisions, float(result.bp),
                         int(result.sys_len), int(result.ref_len))

    def _name(self) -> str:
        return "BLEU"

    def _sentence_lines_of_bytes(self, hyps: bytes, refs: Sequence[bytes], width: int,
                                 score_only: bool, signature: str) -> bytes:
        """``sentence_score(...).format(width, score_only, signature)`` of each segment, one
        line each (``-sl``), for the hypotheses and reference streams given as the UTF-8
        bytes of files (one segment a line, split and right-stripped as sacrebleu reads
        them): tokenized, counted, scored and printed in one native call.

        >>> out = BLEU(tokenize="none", effective_order=True)._sentence_lines_of_bytes(
        ...     b"a b c\\nd\\n", [b"a b c\\ne\\n"], 2, False, "")
        >>> print(out.decode(), end="")
        BLEU = 100.00 100.0/100.0/100.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 3 ref_len = 3)
        BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 1 ref_len = 1)
        """
        tokenize = _TOKENIZERS[self.tokenize]
        lowercase = self.lowercase
        if tokenize in _EXTERNAL:  # tokenized (and lowercased) here, as sacrebleu does
            hyps, refs = self._pretokenized(hyps), [self._pretokenized(r) for r in refs]
            tokenize, lowercase = "split", False
        head = f"BLEU|{signature} = " if signature else "BLEU = "
        return sacrebleu_bleu_lines(hyps, list(refs), self.max_ngram_order, self.smooth_method,
                                    self.smooth_value, self.effective_order, tokenize,
                                    lowercase, head, width, score_only)

    def _pretokenized(self, data: bytes) -> bytes:
        """A file's lines through sacrebleu's preprocessing (lowercase, external tokenizer),
        one a line."""
        lines = data.decode("utf-8").split("\n")
        if lines[-1] == "":
            lines.pop()
        return "".join(f"{self._preprocess_segment(line)}\n" for line in lines).encode()

    def _smooth_value(self) -> Any:
        default = self.SMOOTH_DEFAULTS[self.smooth_method]
        return default if self.smooth_value is None else self.smooth_value

    @staticmethod
    def compute_bleu(correct: list[int], total: list[int], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: float | None = None,
                     effective_order: bool = False,
                     max_ngram_order: int = MAX_NGRAM_ORDER) -> BLEUScore:
        """BLEU from its sufficient statistics (sacrebleu's static method), computed by
        :meth:`mtalign.Bleu.corpus_from_statistics`.

        >>> round(BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score, 6)
        83.759224
        """
        assert smooth_method in BLEU.SMOOTH_DEFAULTS, f"Unknown smooth_method {smooth_method!r}"
        import numpy as np

        from mtalign.metrics.bleu import Bleu
        metric = Bleu(max_order=max_ngram_order, smooth=smooth_method,
                      tokenize="split", lowercase=False,
                      effective_order=effective_order, smooth_value=smooth_value,
                      ref_length="closest")
        row = [sys_len, ref_len, *correct[:max_ngram_order], *total[:max_ngram_order],
               *[max(1, t) for t in total[:max_ngram_order]]]
        result = metric.corpus_from_statistics(np.array([row], dtype=np.float64))
        value = BLEU.SMOOTH_DEFAULTS[smooth_method] if smooth_value is None else smooth_value
        counts, totals = _smoothed_counts(correct, total, smooth_method, value)
        precisions = list(result.precisions) + [0.0] * (max_ngram_order
                                                        - len(result.precisions))
        return BLEUScore(float(result.score), counts, totals, precisions, float(result.bp),
                         sys_len, ref_len)

    def _compute_score_from_stats(self, stats: Any) -> BLEUScore:
        """BLEU of one summed statistics row."""
        order = self.max_ngram_order
        return self.compute_bleu(list(stats[2:2 + order]), list(stats[2 + order:]),
                                 int(stats[0]), int(stats[1]), self.smooth_method,
                                 self.smooth_value, self.effective_order, order)

    def _scores_of_sums(self, sums: np.ndarray) -> list[Any]:
        """BLEU of many summed rows at once (``mtalign.meta.paired``'s replay of sacrebleu's
        arithmetic: float32 for the bootstrap's float32 rows, as sacrebleu computes)."""
        import numpy as np

        from mtalign.meta.paired import _sacrebleu_bleu
        if len(sums) == 0:
            return []
        f32 = np.asarray(sums).dtype == np.float32
        rows = self._to_mtalign(np.asarray(sums, dtype=np.float64))
        return [float(x) for x in _sacrebleu_bleu(self._mtalign().config())(rows, f32)]

    def _preprocess_segment(self, sent: str) -> str:
        if self.lowercase:
            sent = sent.lower()
        return self.tokenizer(sent.rstrip())

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """Sentence BLEU (turn ``effective_order`` on, as sacrebleu recommends)."""
        if not self.effective_order:
            sacrelogger.warning(
                "It is recommended to enable `effective_order` for sentence-level BLEU.")
        return super().sentence_score(hypothesis, references)  # type: ignore[no-any-return]


__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER"]
