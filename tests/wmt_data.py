"""Loads the WMT21 extracts in ``tests/data/*.json.xz`` (see ``tests/data/README.md``)."""

from __future__ import annotations

import functools
import json
import lzma
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


@functools.cache
def load(name: str) -> dict[str, dict[str, list[str]]]:
    """``{"refs": {letter: lines}, "hyps": {system: lines}}`` of one set."""
    with lzma.open(DATA / f"{name}.json.xz", "rt", encoding="utf-8") as f:
        return json.load(f)


SETS = ("wmt21_ende_news", "wmt21_deen_news", "wmt21_enzh_news_extract",
        "wmt21_enja_news_extract")


def all_lines(name: str) -> list[str]:
    d = load(name)
    return [line for lines in [*d["refs"].values(), *d["hyps"].values()] for line in lines]
