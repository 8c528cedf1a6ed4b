"""sacrebleu 2.6.0's one-call functions (``corpus_bleu``, ``sentence_bleu``,
``raw_corpus_bleu``, ``corpus_chrf``, ``sentence_chrf``, ``corpus_ter``, ``sentence_ter``),
with sacrebleu's defaults, computed by mtalign.

>>> print(sentence_bleu("The cat sat on the mat.", ["The cat is on the mat."]))
BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
>>> round(corpus_chrf(["a b c"], [["a b c"]]).score, 2)
100.0
"""

from __future__ import annotations

from collections.abc import Sequence

from mtalign.compat.sacrebleu.metrics import (
    BLEU,
    CHRF,
    TER,
    BLEUScore,
    CHRFScore,
    TERScore,
)


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                smooth_method: str = "exp", smooth_value: float | None = None,
                force: bool = False, lowercase: bool = False,
                tokenize: str = BLEU.TOKENIZER_DEFAULT,
                use_effective_order: bool = False) -> BLEUScore:
    """Corpus BLEU of hypotheses against reference streams.

    >>> print(corpus_bleu(["a b c d"], [["a b c d"]]))
    BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)
    """
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)  # type: ignore[no-any-return]


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """Corpus BLEU without tokenization, floor smoothing, effective order.

    >>> raw_corpus_bleu(["this is a fest"], [["this is a test"]]).score
    39.76353643835254
    """
    return corpus_bleu(hypotheses, references, smooth_method="floor",
                       smooth_value=smooth_value, force=True, tokenize="none",
                       use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False,
                  tokenize: str = BLEU.TOKENIZER_DEFAULT,
                  use_effective_order: bool = True) -> BLEUScore:
    """Sentence BLEU of one hypothesis against its references (effective order on).

    >>> sentence_bleu("a b", ["a b"]).format(score_only=True)
    '100.00'
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                beta: int = CHRF.BETA, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> CHRFScore:
    """Corpus chrF (``word_order=2``: chrF++).

    >>> corpus_chrf(["abc"], [["abc"]]).score
    100.0
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)  # type: ignore[no-any-return]


def sentence_chrf(hypothesis: str, references: Sequence[str],
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """Sentence chrF of one hypothesis against its references.

    >>> sentence_chrf("abc", ["abc"]).score
    100.0
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)  # type: ignore[no-any-return]


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERScore:
    """Corpus TER.

    >>> corpus_ter(["a b"], [["a c"]]).score
    50.0
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)  # type: ignore[no-any-return]


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERScore:
    """Sentence TER of one hypothesis against its references.

    >>> sentence_ter("a b", ["a b"]).score
    0.0
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)  # type: ignore[no-any-return]


__all__ = ["corpus_bleu", "corpus_chrf", "corpus_ter", "raw_corpus_bleu", "sentence_bleu",
           "sentence_chrf", "sentence_ter"]
