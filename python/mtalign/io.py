"""Reading and writing MT files: plain segment files, system outputs, Moses n-best lists.

Every error is an :class:`~mtalign.InputError` that names the file and the line. Every
reader takes gzip, xz and bzip2 files as they are (told by their first bytes).

* segment files: UTF-8, one segment per line (a leading BOM, ``\\r\\n`` endings and a final
  newline are not content);
* system outputs (:func:`read_systems`): several segment files aligned line by line; line i of
  every system is a candidate for source sentence i;
* Moses n-best lists (:func:`read_nbest`, :func:`write_nbest`): lines
  ``id ||| hypothesis ||| features ||| score`` (further ``|||`` fields such as word
  alignments are kept), ids 0, 1, 2, … in blocks, every sentence with at least one entry.

>>> import io
>>> nb = read_nbest(io.StringIO("0 ||| a b ||| lm: -1 ||| -1.5\\n1 ||| c ||| lm: -2 ||| -2\\n"))
>>> [[e.hypothesis for e in lst] for lst in nb]
[['a b'], ['c']]
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import stat
import zlib
from collections.abc import Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import IO, Any, NamedTuple, Union

from mtalign._mtalign import InputError

PathLike = Union[str, "os.PathLike[str]"]  # noqa: UP007 (a runtime alias)
Source = Union[PathLike, IO[str], IO[bytes]]  # noqa: UP007


class NBestEntry(NamedTuple):
    """One line of a Moses n-best list (without its sentence id)."""

    hypothesis: str
    features: str = ""
    score: float = 0.0
    extra: tuple[str, ...] = ()

    def feature_values(self) -> dict[str, list[float]]:
        """The features as ``name -> values`` (Moses writes ``name: v1 v2 name2: v3``).

        A value that is not a number is an :class:`~mtalign.InputError` naming the feature.

        >>> NBestEntry("x", "d: 0 -7.5 lm: -41.3 w: -9").feature_values()
        {'d': [0.0, -7.5], 'lm': [-41.3], 'w': [-9.0]}
        """
        out: dict[str, list[float]] = {}
        current = ""
        for tok in self.features.split():
            if tok.endswith(("=", ":")):
                current = tok[:-1]
                out.setdefault(current, [])
                continue
            try:
                value = float(tok)
            except ValueError:
                raise InputError(f"feature {current!r} has a value that is not a number: "
                                 f"{tok!r}") from None
            out.setdefault(current, []).append(value)
        return out


def _name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", "<stream>"))


def _compression(head: bytes) -> str | None:
    """The compression a file's first bytes announce: gzip, xz, bzip2 or None (plain)."""
    if head.startswith(b"\x1f\x8b"):
        return "gzip"
    if head.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    # bzip2: "BZh", the block size 1-9, then a block's or the end of stream's magic number.
    if len(head) >= 10 and head[:3] == b"BZh" and 0x31 <= head[3] <= 0x39 and \
            head[4:10] in (b"1AY&SY", b"\x17rE8P\x90"):
        return "bzip2"
    return None


#: What a corrupt or truncated compressed file raises while it is decompressed.
_DECOMPRESS_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)


def _decompress(name: str, data: bytes) -> bytes:
    kind = _compression(data[:10])
    if kind is None:
        return data
    try:
        if kind == "gzip":
            return gzip.decompress(data)
        if kind == "xz":
            return lzma.decompress(data)
        return bz2.decompress(data)
    except _DECOMPRESS_ERRORS as e:
        raise InputError(f"{name}: not a readable {kind} file ({e})") from None


def _open_decompressed(raw: Any) -> tuple[Any, str | None]:
    """A binary stream that decompresses ``raw`` if its first bytes announce gzip, xz or
    bzip2 (``raw`` must be able to ``peek``; else it is read as it is)."""
    peek = getattr(raw, "peek", None)
    kind = _compression(peek(10)[:10]) if peek is not None else None
    if kind == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb"), kind
    if kind == "xz":
        return lzma.LZMAFile(raw), kind
    if kind == "bzip2":
        return bz2.BZ2File(raw), kind
    return raw, None


def read_bytes(source: Source) -> bytes:
    """The bytes of a file (path or open binary stream), decompressed when they are gzip,
    xz or bzip2 (told by their first bytes, whatever the file's name); a file that cannot be
    read is an :class:`~mtalign.InputError` naming it.

    >>> import gzip, io
    >>> read_bytes(io.BytesIO(gzip.compress(b"a\\nb\\n")))
    b'a\\nb\\n'
    """
    data = _read_data(source)
    return data.encode("utf-8") if isinstance(data, str) else data


def _read_data(source: Source) -> bytes | str:
    """What a path or an open stream holds (bytes decompressed; a text stream's text)."""
    name = _name(source)
    if isinstance(source, (str, os.PathLike)):
        try:
            data: Any = Path(source).read_bytes()
        except OSError as e:
            raise InputError(f"cannot read {name}: {e.strerror}") from None
    else:
        data = source.read()
    return _decompress(name, data) if isinstance(data, bytes) else data


def _read_text(source: Source) -> tuple[str, str]:
    """(name, decoded text) of a path or an open text/binary stream."""
    name = _name(source)
    data = _read_data(source)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            raise InputError(f"{name}: line {line} is not valid UTF-8 "
                             f"(byte offset {e.start})") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    return name, text


def read_text(source: Source) -> str:
    """The text of a UTF-8 file (path or open stream; gzip, xz and bzip2 files are
    decompressed), without a leading BOM. Errors name the file (and the line of a byte
    sequence that is not UTF-8).

    >>> import io
    >>> read_text(io.BytesIO(b"\\xef\\xbb\\xbfa\\tb\\n"))
    'a\\tb\\n'
    """
    return _read_text(source)[1]


def _split_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(source: Source) -> list[str]:
    """The segments of a UTF-8 file (path or open stream), one per line.

    >>> import io
    >>> read_lines(io.BytesIO(b"\\xef\\xbb\\xbfone\\r\\ntwo\\n"))
    ['one', 'two']
    """
    return _split_lines(_read_text(source)[1])


class LineStream:
    """The segments of one UTF-8 file read in chunks, so memory does not grow with the file.

    ``source`` is a path, ``"-"`` (standard input) or an open binary stream. Lines are what
    :func:`read_lines` gives (BOM, ``\\r\\n`` and the final newline are not content); a byte
    sequence that is not UTF-8 is an :class:`~mtalign.InputError` naming the file and line.
    A gzip, xz or bzip2 file (or standard input) is decompressed as it is read.

    >>> import io
    >>> s = LineStream(io.BytesIO(b"\\xef\\xbb\\xbfa\\r\\nb\\nc"))
    >>> s.chunk(2), s.chunk(2), s.chunk(2), s.lines
    (['a', 'b'], ['c'], [], 3)
    """

    def __init__(self, source: Any) -> None:
        import sys

        self.name = "<stdin>" if source == "-" else _name(source)
        self._own = isinstance(source, (str, os.PathLike)) and source != "-"
        if source == "-":
            self._raw: Any = sys.stdin.buffer
        elif self._own:
            try:
                self._raw = open(source, "rb")  # noqa: SIM115 (closed by close())
            except OSError as e:
                raise InputError(f"cannot read {self.name}: {e.strerror}") from None
        else:
            self._raw = source
        self.lines = 0  # lines read so far
        self.bytes = 0  # bytes of the file read so far (of the compressed file, if it is)
        self._offset = 0  # bytes of text read so far (decompressed)
        try:
            st = os.fstat(self._raw.fileno())
            self.size = st.st_size if stat.S_ISREG(st.st_mode) else None
        except (AttributeError, OSError, ValueError):
            self.size = None
        try:
            self._file, self._kind = _open_decompressed(self._raw)
        except OSError as e:
            self.close()
            raise InputError(f"cannot read {self.name}: {e.strerror or e}") from None

    def _read(self, n: int | None) -> list[bytes]:
        try:
            return list(islice(self._file, n))
        except _DECOMPRESS_ERRORS as e:
            if self._kind is None:
                raise InputError(f"cannot read {self.name}: {e}") from None
            after = f" after line {self.lines}" if self.lines else ""
            raise InputError(f"{self.name}: not a readable {self._kind} file{after} "
                             f"({e})") from None

    def chunk(self, n: int) -> list[str]:
        """Up to ``n`` more lines (fewer only at the end of the file)."""
        raws = self._read(n)
        if not raws:
            return []
        data = b"".join(raws)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = self.lines + data[: e.start].count(b"\n") + 1
            raise InputError(f"{self.name}: line {line} is not valid UTF-8 "
                             f"(byte offset {self._offset + e.start})") from None
        if self.lines == 0 and text.startswith("\ufeff"):
            text = text[1:]
        self.lines += len(raws)
        self._offset += len(data)
        self.bytes = self._offset if self._kind is None else self._position()
        return _split_lines(text)

    def _position(self) -> int:
        try:
            return int(self._raw.tell())
        except (AttributeError, OSError, ValueError):
            return self.bytes

    def count_rest(self) -> int:
        """Reads to the end, counting lines (for an error message about misaligned files)."""
        while True:
            raws = self._read(10_000)
            if not raws:
                return self.lines
            self.lines += len(raws)

    def close(self) -> None:
        if self._own:
            self._raw.close()


def _read_aligned(sources: Sequence[Source], what: str) -> tuple[list[str], list[list[str]]]:
    if isinstance(sources, (str, os.PathLike)) or not sources:
        raise InputError(f"give a list of one or more {what} files")
    names, files = [], []
    for s in sources:
        name, text = _read_text(s)
        names.append(name)
        files.append(_split_lines(text))
    for name, lines in zip(names[1:], files[1:], strict=True):
        if len(lines) != len(files[0]):
            raise InputError(f"{name} has {len(lines)} lines but {names[0]} has "
                             f"{len(files[0])}; {what} files must be aligned line by line")
    return names, files


#: Where a system's name may be cut from its file's name: a common prefix must end, and a
#: common suffix begin, with one of these. Not ``-``: it joins the parts of WMT system names
#: (``Online-W``, ``Online-B`` keep their ``Online-``).
NAME_SEPARATORS = "._/ "


def _strip_common(texts: list[str]) -> list[str]:
    """``texts`` without their common prefix (cut just after a separator) and common suffix
    (cut just before one)."""
    prefix = os.path.commonprefix(texts)
    cut = max(prefix.rfind(c) for c in NAME_SEPARATORS) + 1
    suffix = os.path.commonprefix([t[cut:][::-1] for t in texts])[::-1]
    starts = [i for i, c in enumerate(suffix) if c in NAME_SEPARATORS]
    back = len(suffix) - starts[0] if starts else 0
    return [t[cut:len(t) - back] for t in texts]


def system_names(paths: Sequence[str], names: Sequence[str] | None = None) -> list[str]:
    """The name of each system, from its file's path: the file names with the group's common
    prefix and common suffix removed, cut only at a separator (``.``, ``_``, ``/``, space),
    so ``ende.hyp.Online-W.de`` and ``ende.hyp.UEdin.de`` give ``Online-W`` and ``UEdin``;
    one file gives its name without the extension. Files of the same name in different
    folders are named by their folders. ``names`` (``--names`` on the command line) sets the
    names instead; its length must be the number of files.

    Every command that names systems uses this function, so one command's output names the
    systems as the next command's input does.

    >>> system_names(["out/ende.hyp.Online-W.de", "out/ende.hyp.UEdin.de"])
    ['Online-W', 'UEdin']
    >>> system_names(["sysA.de", "sysB.de"]), system_names(["a/hyp.de", "b/hyp.de"])
    (['sysA', 'sysB'], ['a', 'b'])
    >>> system_names(["newstest2021.hyp.de"]), system_names(["x.de", "y.de"], ["X", "Y"])
    (['newstest2021.hyp'], ['X', 'Y'])
    """
    paths = [os.fspath(p) for p in paths]
    if names is not None:
        out = [str(n) for n in names]
        if len(out) != len(paths):
            raise InputError(f"--names gives {len(out)} names for {len(paths)} system files")
    elif len({os.path.normpath(p) for p in paths}) < len(paths):
        twice = next(p for i, p in enumerate(paths) if os.path.normpath(p) in
                     {os.path.normpath(q) for q in paths[:i]})
        raise InputError(f"{twice} is given twice: give --names to name each system")
    elif len(paths) == 1:
        out = ["stdin" if paths[0] == "-" else Path(paths[0]).stem or Path(paths[0]).name]
    else:
        out = _strip_common(["stdin" if p == "-" else Path(p).name for p in paths])
        if "" in out or len(set(out)) != len(out):  # same file names: the folders tell
            out = _strip_common([os.path.normpath(os.path.abspath(p)) for p in paths])
    empty = [p for p, n in zip(paths, out, strict=True) if not n.strip()]
    if empty:
        raise InputError(f"no system name for {empty[0]}: give --names")
    seen: dict[str, str] = {}
    for p, n in zip(paths, out, strict=True):
        if n in seen:
            raise InputError(f"{seen[n]} and {p} are both named {n!r}: give --names")
        seen[n] = p
    return out


def read_systems(sources: Sequence[Source]) -> list[list[str]]:
    """Candidate lists from system outputs: ``result[i]`` = line i of every system, in order.

    >>> import io
    >>> read_systems([io.StringIO("a\\nb\\n"), io.StringIO("c\\nd\\n")])
    [['a', 'c'], ['b', 'd']]
    """
    _, files = _read_aligned(sources, "system output")
    return [list(row) for row in zip(*files, strict=True)]


def read_references(sources: Sequence[Source], n_sentences: int | None = None,
                    against: str = "the candidates") -> list[list[str]]:
    """Reference sets: ``result[i]`` = line i of every reference file.

    With ``n_sentences``, every file must have that many lines (``against`` names where the
    number comes from, for the error message).

    >>> import io
    >>> read_references([io.StringIO("r1\\n"), io.StringIO("r2\\n")], n_sentences=1)
    [['r1', 'r2']]
    """
    names, files = _read_aligned(sources, "reference")
    if n_sentences is not None and len(files[0]) != n_sentences:
        raise InputError(f"{names[0]} has {len(files[0])} lines but {against} has "
                         f"{n_sentences} sentences; files must be aligned line by line")
    return [list(row) for row in zip(*files, strict=True)]


def read_nbest(source: Source, n_sentences: int | None = None) -> list[list[NBestEntry]]:
    """Reads a Moses n-best list: ``result[id]`` is the list of entries for sentence ``id``.

    Checks, each reported with file and line: at least four ``|||`` fields; an integer id;
    a numeric score; ids that start at 0 and never go back or skip a sentence (a skipped id is
    a sentence with no candidates); with ``n_sentences``, exactly that many sentences.

    >>> import io
    >>> nb = read_nbest(io.StringIO("0 ||| a ||| f: 1 ||| 0.5\\n0 ||| b ||| f: 2 ||| 0.25\\n"))
    >>> nb[0][1]
    NBestEntry(hypothesis='b', features='f: 2', score=0.25, extra=())
    """
    name, text = _read_text(source)
    out: list[list[NBestEntry]] = []
    for lineno, line in enumerate(_split_lines(text), start=1):
        where = f"{name}: line {lineno}"
        if not line.strip():
            raise InputError(f"{where} is empty (expected 'id ||| hypothesis ||| features "
                             "||| score')")
        fields = [f.strip() for f in line.split("|||")]
        if len(fields) < 4:
            raise InputError(f"{where} has {len(fields)} '|||'-separated fields, expected at "
                             "least 4: id ||| hypothesis ||| features ||| score")
        raw_id = fields[0]
        if not raw_id.isdigit():
            raise InputError(f"{where}: the id {raw_id!r} is not a non-negative integer")
        sid = int(raw_id)
        try:
            score = float(fields[3])
        except ValueError:
            raise InputError(f"{where}: the score {fields[3]!r} is not a number") from None
        current = len(out) - 1
        if sid < current:
            raise InputError(f"{where}: id {sid} comes after id {current}; the entries of "
                             "each sentence must be together and ids in increasing order")
        if sid > current + 1:
            missing = f"{current + 1}" if sid == current + 2 else f"{current + 1}-{sid - 1}"
            raise InputError(f"{where}: id {sid} follows id {current}, so sentence(s) "
                             f"{missing} have no candidates (missing ids)")
        if sid == current + 1:
            out.append([])
        out[sid].append(NBestEntry(fields[1], fields[2], score, tuple(fields[4:])))
    if n_sentences is not None and len(out) != n_sentences:
        if len(out) < n_sentences:
            gap = f"{len(out)}" if len(out) == n_sentences - 1 else \
                f"{len(out)}-{n_sentences - 1}"
            raise InputError(f"{name} has candidates for {len(out)} sentences but "
                             f"{n_sentences} are expected: sentence(s) {gap} have none")
        raise InputError(f"{name} has candidates for {len(out)} sentences but only "
                         f"{n_sentences} are expected")
    return out


def nbest_hypotheses(nbest: Iterable[Iterable[Any]]) -> list[list[str]]:
    """The hypothesis strings of n-best lists (entries or plain strings).

    >>> nbest_hypotheses([[NBestEntry("a"), "b"]])
    [['a', 'b']]
    """
    return [[e if isinstance(e, str) else e.hypothesis for e in lst] for lst in nbest]


def _format_entry(sid: int, entry: NBestEntry | str) -> str:
    if isinstance(entry, str):
        entry = NBestEntry(entry)
    for field in (entry.hypothesis, entry.features, *entry.extra):
        if "\n" in field or "|||" in field:
            raise InputError(f"sentence {sid}: an n-best field contains a newline or '|||': "
                             f"{field!r}")
    score = repr(float(entry.score))
    if score.endswith(".0"):  # Moses writes whole scores without a decimal part
        score = score[:-2]
    parts = [str(sid), entry.hypothesis, entry.features, score, *entry.extra]
    return " ||| ".join(parts)


def write_nbest(dest: PathLike | IO[str], nbest: Sequence[Sequence[NBestEntry | str]]) -> None:
    """Writes n-best lists in Moses format (``id ||| hypothesis ||| features ||| score``).

    Plain strings are written with empty features and score 0. Scores are written in the
    shortest form that reads back to the same float.

    >>> import io
    >>> out = io.StringIO()
    >>> write_nbest(out, [[NBestEntry("a b", "lm: -1", -1.5)], ["c"]])
    >>> print(out.getvalue(), end="")
    0 ||| a b ||| lm: -1 ||| -1.5
    1 ||| c |||  ||| 0
    """
    lines: list[str] = []
    for sid, lst in enumerate(nbest):
        if len(lst) == 0:
            raise InputError(f"sentence {sid} has no candidates; Moses n-best files cannot "
                             "represent an empty list")
        lines.extend(_format_entry(sid, e) for e in lst)
    text = "".join(line + "\n" for line in lines)
    if isinstance(dest, (str, os.PathLike)):
        Path(dest).write_text(text, encoding="utf-8")
    else:
        dest.write(text)


__all__ = ["LineStream", "NBestEntry", "nbest_hypotheses", "read_bytes", "read_lines",
           "read_nbest", "read_references", "read_systems", "read_text", "system_names",
           "write_nbest"]
