"""Small real-data samples shipped with mtalign, for examples and quick checks.

* :func:`load_sample`: the first 300 segments of the WMT21 newstest2021 German→English test
  set: the German source, two independent English references (A and B) and the outputs of
  four submitted systems.
* :func:`load_mqm_sample`: 150 segments of WMT21 English→German with two references (A, C),
  the eight MQM-rated systems and their MQM scores (Freitag et al. 2021): what
  ``mtalign demo`` judges the metrics with.

See ``data/README.md`` beside this module for origin, license notes and citations.

Example::

    >>> import mtalign
    >>> from mtalign.demo import load_sample
    >>> systems, refs = load_sample()
    >>> sorted(systems)
    ['Facebook-AI', 'HuaweiTSC', 'Online-W', 'happypoet']
    >>> len(refs), len(refs[0])              # 300 segments, 2 references each
    (300, 2)
    >>> r = mtalign.Rouge(["rougeL"])
    >>> out = r.batch_score(systems["Online-W"], refs)
    >>> out["rougeL"].shape                  # columns: precision, recall, fmeasure
    (300, 3)
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from mtalign.io import read_lines

__all__ = ["load_mqm_sample", "load_mqm_source", "load_sample", "sample_files"]

_DATA_DIR = Path(__file__).resolve().parent / "data"
_PREFIX = "deen_sample"
_REF_NAMES = ("A", "B")


def _data_dir() -> Path:
    if not _DATA_DIR.is_dir():
        raise FileNotFoundError(f"mtalign demo data not found in {_DATA_DIR}")
    return _DATA_DIR


def sample_files() -> dict:
    """Return the paths of the demo sample's files.

    Returns a dict with keys:

    * ``"src"``: path of the German source (``deen_sample.src.de``);
    * ``"refs"``: list of the reference paths, ``[ref A, ref B]``;
    * ``"systems"``: dict system name -> path of that system's output, sorted by name.

    All files are UTF-8 with one segment per line, and line *i* is segment *i* in every file.
    """
    data = _data_dir()
    systems = {}
    marker = f"{_PREFIX}.hyp."
    for path in sorted(data.glob(f"{marker}*.en")):
        name = path.name[len(marker) : -len(".en")]
        systems[name] = path
    return {
        "src": data / f"{_PREFIX}.src.de",
        "refs": [data / f"{_PREFIX}.ref.{name}.en" for name in _REF_NAMES],
        "systems": systems,
    }


def load_sample() -> tuple[dict[str, list[str]], list[list[str]]]:
    """Load the demo sample.

    Returns ``(systems, refs)``: ``systems`` maps each system name to its list of hypothesis
    lines, and ``refs`` holds, for each segment, the list of its references ``[ref A, ref B]``.
    ``systems[name][i]`` is scored against ``refs[i]``, so ``refs`` can be passed as is to
    ``Rouge.batch_score``.
    """
    files = sample_files()
    ref_columns = [read_lines(path) for path in files["refs"]]
    systems = {name: read_lines(path) for name, path in files["systems"].items()}
    n = len(ref_columns[0])
    for name, lines in [("refs", col) for col in ref_columns] + list(systems.items()):
        if len(lines) != n:
            raise ValueError(f"demo sample: {name} has {len(lines)} lines, expected {n}")
    refs = [[column[i] for column in ref_columns] for i in range(n)]
    return systems, refs


_MQM_PREFIX = "ende_mqm_sample"


def load_mqm_sample() -> tuple[dict[str, list[str]], list[list[str]], dict[str, np.ndarray]]:
    """Load the WMT21 en→de MQM sample: ``(systems, refs, mqm)``.

    ``systems`` maps each of the 8 MQM-rated systems to its 150 German outputs, ``refs[i]``
    is ``[ref A, ref C]`` of segment i, and ``mqm[name][i]`` the average MQM score of
    ``systems[name][i]`` (0 = no error; Major = -5, Minor = -1: higher is better).

    >>> systems, refs, mqm = load_mqm_sample()
    >>> len(systems), len(refs), len(refs[0]), mqm["Online-W"].shape
    (8, 150, 2, (150,))
    """
    data = _data_dir()
    marker = f"{_MQM_PREFIX}.hyp."
    systems = {p.name[len(marker):-len(".de")]: read_lines(p)
               for p in sorted(data.glob(f"{marker}*.de"))}
    columns = [read_lines(data / f"{_MQM_PREFIX}.ref.{k}.de") for k in ("A", "C")]
    n = len(columns[0])
    refs = [[c[i] for c in columns] for i in range(n)]
    mqm = {name: np.full(n, np.nan) for name in systems}
    with open(data / f"{_MQM_PREFIX}.mqm.tsv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            mqm[row["system"]][int(row["line"]) - 1] = float(row["mqm"])
    for name, lines in [*systems.items(), ("ref.C", columns[1])]:
        if len(lines) != n:
            raise ValueError(f"MQM sample: {name} has {len(lines)} lines, expected {n}")
    return systems, refs, mqm


def load_mqm_source() -> list[str]:
    """The English source of the WMT21 en→de MQM sample, line i = segment i of
    :func:`load_mqm_sample`.

    >>> len(load_mqm_source())
    150
    """
    return read_lines(_data_dir() / f"{_MQM_PREFIX}.src.en")
