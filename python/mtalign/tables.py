"""Text tables of the command line: 80 columns, a direction mark and a scale per metric.

Every command's text output goes through :func:`table` (columns that do not fit beside the
row labels are stacked into further blocks below) and names its metrics with
:func:`metric_header` (``bleu ↑ 0-100``: ↑ higher is better, ↓ lower is better, then the
scale of the metric's family). Widths are display widths: an East Asian wide character
takes two columns, the arrows one.

>>> print("\\n".join(table([label("system")], [Column("bleu", "↑ 0-100")],
...                        [["Online-W", "52.74"], ["UEdin", "48.09"]])))
system       bleu
          ↑ 0-100
Online-W    52.74
UEdin       48.09
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from mtalign import registry

#: The width every text output fits in.
WIDTH = 80
UP, DOWN = "↑", "↓"

#: The scale of each metric family's numbers (registry family name -> scale). Error rates
#: (WER, PER, TER) exceed the top of their scale when a hypothesis needs more edits than
#: its reference has words.
FAMILY_SCALES = {
    "rouge": "0-1", "dcs": "0-1", "sia": "0-1", "bleu": "0-100", "chrf": "0-100",
    "nist": "≥0", "error_rate": "0-1", "ter": "0-100", "ribes": "0-1", "gtm": "0-1",
    "meteor": "0-1",
}
#: Scales of what the meta-evaluation commands print.
CORRELATION_SCALE = "-1..1"
ORANGE_SCALE = "0-1"
#: Correlation methods on 0-1 rather than -1..1 (pairwise accuracy).
ACCURACY_METHODS = ("acc_eq",)
P_VALUE_SCALE = "0-1"


@functools.cache
def higher_is_better(name: str) -> bool:
    """Whether a higher score of the metric called ``name`` means a better translation.

    >>> higher_is_better("bleu"), higher_is_better("ter"), higher_is_better("wer")
    (True, False, False)
    """
    metric, _ = registry.make_metric(name)
    return bool(getattr(metric, "higher_is_better", True))


def arrow(name: str) -> str:
    """``↑`` (higher is better) or ``↓`` (lower is better) for a metric name.

    >>> arrow("chrf"), arrow("per")
    ('↑', '↓')
    """
    return UP if higher_is_better(name) else DOWN


def scale(name: str) -> str:
    """The scale of a metric's family.

    >>> scale("bleus4"), scale("rougeSU4"), scale("ter")
    ('0-100', '0-1', '0-100')
    """
    return FAMILY_SCALES.get(registry.family_of(name).name, "?")


def metric_note(name: str) -> str:
    """Direction and scale of a metric: ``↑ 0-100``.

    >>> metric_note("wer")
    '↓ 0-1'
    """
    return f"{arrow(name)} {scale(name)}"


def metric_header(name: str) -> str:
    """A metric's name, direction and scale: ``bleu ↑ 0-100``.

    >>> metric_header("ter")
    'ter ↓ 0-100'
    """
    return f"{name} {metric_note(name)}"


def metric_column(name: str, field: str = "") -> Column:
    """The column of one metric (``field``: P, R or F of ROUGE, if any).

    >>> metric_column("rougeL", "F")
    Column(title='rougeL F', note='↑ 0-1', align='>')
    """
    return Column(f"{name} {field}".rstrip(), metric_note(name))


def correlation_note(method: str) -> str:
    """Direction and scale of a correlation method's values.

    >>> correlation_note("pearson"), correlation_note("acc_eq")
    ('↑ -1..1', '↑ 0-1')
    """
    return f"{UP} {'0-1' if method in ACCURACY_METHODS else CORRELATION_SCALE}"


def decimals(name: str) -> int:
    """Decimals that show a metric to four significant digits: 2 on 0-100, 4 otherwise.

    >>> decimals("bleu"), decimals("rougeL")
    (2, 4)
    """
    return 2 if scale(name) == "0-100" else 4


def width_of(text: str) -> int:
    """Columns ``text`` takes on a terminal (East Asian wide and full-width characters: 2).

    >>> width_of("abc"), width_of("日本"), width_of("↑ 0-1")
    (3, 4, 5)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else
               0 if unicodedata.combining(c) else 1 for c in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` display columns.

    >>> pad("日本", 6, ">")
    '  日本'
    """
    fill = " " * max(0, width - width_of(text))
    return fill + text if align == ">" else text + fill


@dataclass(frozen=True)
class Column:
    """One column: its title, a second header line (direction and scale), its alignment."""

    title: str
    note: str = ""
    align: str = ">"


def label(title: str) -> Column:
    """A column of row labels (left-aligned).

    >>> label("system").align
    '<'
    """
    return Column(title, align="<")


Rows = Sequence[Sequence[str]] | Callable[[], Iterable[Sequence[str]]]


def _iter(rows: Rows) -> Iterable[Sequence[str]]:
    return rows() if callable(rows) else rows


def table(keys: Sequence[Column], values: Sequence[Column], rows: Rows,
          width: int = WIDTH) -> list[str]:
    """Lines of a table: the key columns (left-aligned row labels) on every block, the value
    columns packed into as few blocks of at most ``width`` columns as they need.

    ``rows`` holds one list of cells per row (the keys' cells, then the values'), or is a
    function returning them afresh (each block reads them again: rows spooled to a file are
    not held in memory). A row whose labels are too wide prints them on a line of their own.

    >>> lines = table([label("m")], [Column(f"c{i}") for i in range(40)],
    ...               [["x", *("1.5" for _ in range(40))]])
    >>> max(map(len, lines)), sum(line.startswith("m") for line in lines)
    (76, 3)
    """
    nk = len(keys)
    widths = [max(width_of(c.title), width_of(c.note)) for c in (*keys, *values)]
    for row in _iter(rows):
        for j, cell in enumerate(row):
            widths[j] = max(widths[j], width_of(cell))
    key_w, val_w = widths[:nk], widths[nk:]
    # The labels get at most half the width (what the widest value column leaves, if less),
    # so that several value columns fit beside them; longer labels get a line of their own.
    room = min(width // 2, width - 2 - max(val_w, default=0))
    capped = False
    while nk and sum(key_w) + 2 * (nk - 1) > room and max(key_w) > 8:
        key_w[key_w.index(max(key_w))] -= 1
        capped = True
    if capped:  # shrink to the widest label that fits (the others have their own line)
        cap = key_w
        key_w = [max(width_of(c.title), width_of(c.note)) for c in keys]
        for row in _iter(rows):
            if all(width_of(row[i]) <= cap[i] for i in range(nk)):
                key_w = [max(w, width_of(row[i])) for i, w in enumerate(key_w)]
    lead = sum(key_w) + 2 * (nk - 1)
    blocks: list[list[int]] = []
    used = width + 1
    for j, w in enumerate(val_w):
        if used + 2 + w > width and (not blocks or blocks[-1]):
            blocks.append([])
            used = lead
        blocks[-1].append(j)
        used += 2 + w
    out: list[str] = []
    for b, block in enumerate(blocks or [[]]):
        if b:
            out.append("")
        cols = [(keys[i], key_w[i]) for i in range(nk)]
        cols += [(values[j], val_w[j]) for j in block]
        for line in ("title", "note"):
            texts = [getattr(c, line) for c, _ in cols]
            if line == "note" and not any(texts):
                continue
            out.append("  ".join(pad(t, w, c.align) for t, (c, w) in
                                 zip(texts, cols, strict=True)).rstrip())
        for row in _iter(rows):
            labels = [row[i] for i in range(nk)]
            cells = [pad(row[nk + j], val_w[j], values[j].align) for j in block]
            if any(width_of(t) > w for t, w in zip(labels, key_w, strict=True)):
                out.append("  ".join(labels).rstrip())
                labels = [""] * nk
            out.append("  ".join([*(pad(t, w, keys[i].align) for i, (t, w) in
                                    enumerate(zip(labels, key_w, strict=True))), *cells])
                       .rstrip())
    return out


def wrap(text: str, width: int = WIDTH, indent: str = "  ") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` columns (continuations
    indented); a word longer than a line is broken after its ``|`` separators (signatures)
    or, failing those, anywhere.

    >>> wrap("signature (bleu): nrefs:2|case:mixed|eff:no|tok:13a", width=30)
    ['signature (bleu): nrefs:2|', '  case:mixed|eff:no|tok:13a']
    """
    room = max(1, width - width_of(indent))
    pieces: list[tuple[str, bool]] = []  # (text, glued to the next piece)
    for word in text.split(" "):
        parts = [word] if width_of(word) <= room else _split_word(word, room)
        pieces += [(part, k < len(parts) - 1) for k, part in enumerate(parts)]
    lines: list[str] = []
    line, glued = "", False
    for part, glue in pieces:
        joined = line + ("" if glued or not line else " ") + part
        if line.strip() and width_of(joined) > width:
            lines.append(line)
            joined = indent + part
        line, glued = joined, glue
    lines.append(line)
    return lines


def _split_word(word: str, room: int) -> list[str]:
    """A word over ``room`` columns in pieces: after each ``|``, and cut where still too long."""
    out: list[str] = []
    parts = [p + "|" for p in word.split("|")]
    parts[-1] = parts[-1][:-1]
    for part in parts:
        while width_of(part) > room:
            cut = room
            while width_of(part[:cut]) > room:
                cut -= 1
            out.append(part[:cut])
            part = part[cut:]
        out.append(part)
    return [p for p in out if p]


def signature_lines(signatures: dict[str, str], width: int = WIDTH) -> list[str]:
    """``signature (family): ...`` lines, wrapped after ``|`` to fit ``width``.

    >>> signature_lines({"bleu": "nrefs:1|tok:13a"})
    ['signature (bleu): nrefs:1|tok:13a']
    """
    out: list[str] = []
    for family, sig in signatures.items():
        out += wrap(f"signature ({family}): {sig}", width)
    return out
