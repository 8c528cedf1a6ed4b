"""mtalign.io: Moses n-best and aligned text files; every bad input names its file and line."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data"
NBEST = DATA / "moses_nbest_fren.3.txt"


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return str(p)


def test_read_real_moses_nbest(mtalign: Any) -> None:
    from mtalign.io import read_nbest

    nb = read_nbest(NBEST, n_sentences=3)
    assert [len(lst) for lst in nb] == [100, 100, 100]
    first = nb[0][0]
    assert first.hypothesis == "this should also be there is looking further ."
    assert first.score == -14.6262
    assert first.feature_values()["lm"] == [-41.3435, -40.3647]
    assert first.feature_values()["w"] == [-9.0]
    # Moses writes the list best first: scores never increase within a sentence.
    for lst in nb:
        assert all(x.score >= y.score for x, y in zip(lst, lst[1:], strict=False))


def test_nbest_round_trip(mtalign: Any, tmp_path: Path) -> None:
    from mtalign.io import NBestEntry, read_nbest, write_nbest

    nb = read_nbest(NBEST)
    out = tmp_path / "copy.txt"
    write_nbest(out, nb)
    assert read_nbest(out) == nb
    # Every original line comes back (whitespace around '|||' normalised to one space).
    original = [" ||| ".join(f.strip() for f in line.split("|||"))
                for line in NBEST.read_text(encoding="utf-8").splitlines()]
    assert out.read_text(encoding="utf-8").splitlines() == original
    extra = [[NBestEntry("a b", "lm: -1", -2.5, ("0-0 1-1",))]]
    buf = io.StringIO()
    write_nbest(buf, extra)
    assert buf.getvalue() == "0 ||| a b ||| lm: -1 ||| -2.5 ||| 0-0 1-1\n"
    assert read_nbest(io.StringIO(buf.getvalue())) == extra
    with pytest.raises(mtalign.InputError, match="sentence 1 has no candidates"):
        write_nbest(io.StringIO(), [["a"], []])
    with pytest.raises(mtalign.InputError, match="newline or '|||'"):
        write_nbest(io.StringIO(), [["a ||| b"]])


@pytest.mark.parametrize(("content", "message"), [
    ("0 ||| a ||| f ||| 1\n1 ||| b ||| f ||| 1\n0 ||| c ||| f ||| 1\n",
     r"line 3: id 0 comes after id 1"),
    ("0 ||| a ||| f ||| 1\n2 ||| b ||| f ||| 1\n",
     r"line 2: id 2 follows id 0, so sentence\(s\) 1 have no candidates \(missing ids\)"),
    ("3 ||| a ||| f ||| 1\n", r"line 1: id 3 follows id -1, so sentence\(s\) 0-2 have no"),
    ("0 ||| a ||| f ||| 1\nx ||| b ||| f ||| 1\n", r"line 2: the id 'x' is not a non-negative"),
    ("0 ||| a ||| f ||| high\n", r"line 1: the score 'high' is not a number"),
    ("0 ||| a ||| 1\n", r"line 1 has 3 '\|\|\|'-separated fields, expected at least 4"),
    ("0 ||| a ||| f ||| 1\n\n1 ||| b ||| f ||| 1\n", r"line 2 is empty"),
])
def test_nbest_errors_name_file_and_line(mtalign: Any, tmp_path: Path, content: str,
                                         message: str) -> None:
    from mtalign.io import read_nbest

    path = write(tmp_path, "n.txt", content)
    with pytest.raises(mtalign.InputError, match=f"^{path}: {message}"):
        read_nbest(path)


def test_nbest_sentence_count_and_encoding(mtalign: Any, tmp_path: Path) -> None:
    from mtalign.io import read_nbest

    path = write(tmp_path, "n.txt", "0 ||| a ||| f ||| 1\n1 ||| b ||| f ||| 1\n")
    with pytest.raises(mtalign.InputError,
                       match=r"candidates for 2 sentences but 4 are expected: sentence\(s\) 2-3"):
        read_nbest(path, n_sentences=4)
    with pytest.raises(mtalign.InputError, match="2 sentences but only 1 are expected"):
        read_nbest(path, n_sentences=1)
    bad = write(tmp_path, "latin1.txt", b"0 ||| a ||| f ||| 1\n0 ||| caf\xe9 ||| f ||| 1\n")
    with pytest.raises(mtalign.InputError, match=f"^{bad}: line 2 is not valid UTF-8"):
        read_nbest(bad)
    with pytest.raises(mtalign.InputError, match="cannot read /nonexistent/n.txt"):
        read_nbest("/nonexistent/n.txt")


def test_systems_and_references(mtalign: Any, tmp_path: Path) -> None:
    from mtalign.io import read_lines, read_references, read_systems

    a = write(tmp_path, "a.txt", "a1\r\na2\n")
    b = write(tmp_path, "b.txt", "\ufeffb1\nb2")
    short = write(tmp_path, "short.txt", "only\n")
    assert read_lines(b) == ["b1", "b2"]
    assert read_systems([a, b]) == [["a1", "b1"], ["a2", "b2"]]
    assert read_references([a, b], n_sentences=2) == [["a1", "b1"], ["a2", "b2"]]
    with pytest.raises(mtalign.InputError,
                       match=f"{short} has 1 lines but {a} has 2; system output files must "
                             "be aligned"):
        read_systems([a, short])
    with pytest.raises(mtalign.InputError, match=f"{short} has 1 lines but sys.txt has 2"):
        read_references([short], n_sentences=2, against="sys.txt")
    with pytest.raises(mtalign.InputError, match="give a list of one or more"):
        read_systems([])
    bad = write(tmp_path, "bad.txt", b"ok\nok\n\xff\n")
    with pytest.raises(mtalign.InputError, match=f"{bad}: line 3 is not valid UTF-8"):
        read_systems([bad])
