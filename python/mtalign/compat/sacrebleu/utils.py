"""sacrebleu 2.6.0's ``utils`` that its API and command line use: ``smart_open`` (also
``.gz``), ``my_log``, ``sum_of_lists``, ``args_to_dict``, ``SACREBLEU_DIR`` and the result
printers of its command line (``print_single_results``, ``print_results_table``: the same
text, JSON and LaTeX tables sacrebleu prints to a pipe, i.e. without terminal colours).

>>> sum_of_lists([[1, 2], [3, 4]])
[4, 6]
>>> my_log(0.0)
-9999999999
>>> print(grid_table({"System": ["a", "bb"], "BLEU": ["1.0", "2.0\\n(p = 0.1)"]}))
╒══════════╤═══════════╕
│   System │   BLEU    │
╞══════════╪═══════════╡
│        a │    1.0    │
├──────────┼───────────┤
│       bb │    2.0    │
│          │ (p = 0.1) │
╘══════════╧═══════════╛
"""

from __future__ import annotations

import math
import os
import unicodedata
from argparse import Namespace
from typing import IO, Any

USERHOME = os.path.expanduser("~")
SACREBLEU_DIR = os.environ.get("SACREBLEU", os.path.join(USERHOME, ".sacrebleu"))


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """Opens a text file, gzip-compressed when its name ends in ``.gz``."""
    if file.endswith(".gz"):
        import gzip
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")  # type: ignore
    return open(file, mode=mode, encoding=encoding, newline="\n")


def my_log(num: float) -> float:
    """log(num), with log(0) floored to -9999999999."""
    return -9999999999 if num == 0.0 else math.log(num)


def sum_of_lists(lists: Any) -> Any:
    """Element-wise sum of lists of numbers (the first list itself if it is the only one)."""
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    total = [type(lists[0][0])(0.0)] * size
    for one in lists:
        for i in range(size):
            total[i] += one[i]
    return total


def args_to_dict(args: Namespace, prefix: str, strip_prefix: bool = False) -> dict[str, Any]:
    """The arguments named ``prefix_*`` (without the prefix with ``strip_prefix``).

    >>> args_to_dict(Namespace(bleu_tokenize="13a", chrf_beta=2), "bleu", True)
    {'tokenize': '13a'}
    """
    prefix += "_"
    return {(k.replace(prefix, "") if strip_prefix else k): v
            for k, v in args.__dict__.items() if k.startswith(prefix)}


# --- result tables ----------------------------------------------------------------------

def _width(text: str) -> int:
    """Terminal columns of one line (East Asian wide characters count 2, combining 0)."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _pad(text: str, width: int, align: str) -> str:
    extra = width - _width(text)
    if align == "right":
        return " " * extra + text
    left = extra // 2
    return " " * left + text + " " * (extra - left)


def _columns(table: dict[str, list[str]]) -> tuple[list[str], list[list[str]], list[int]]:
    headers = list(table)
    cols = [[str(v) for v in table[h]] for h in headers]
    widths = [max([_width(h) + 2] + [_width(line) for cell in col for line in cell.split("\n")])
              for h, col in zip(headers, cols, strict=True)]
    return headers, cols, widths


def grid_table(table: dict[str, list[str]]) -> str:
    """A ``{column: cells}`` table drawn with box characters (tabulate's ``fancy_grid``: the
    first column right-aligned, the others centred, cells may span lines)."""
    headers, cols, widths = _columns(table)
    aligns = ["right"] + ["center"] * (len(headers) - 1)

    def rule(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def row(cells: list[str]) -> list[str]:
        split = [c.split("\n") for c in cells]
        height = max(len(s) for s in split)
        out = []
        for i in range(height):
            parts = [_pad(s[i] if i < len(s) else "", w, a)
                     for s, w, a in zip(split, widths, aligns, strict=True)]
            out.append("│" + "│".join(f" {p} " for p in parts) + "│")
        return out

    lines = [rule("╒", "═", "╤", "╕"), *row(headers), rule("╞", "═", "╪", "╡")]
    n = len(cols[0])
    for i in range(n):
        lines += row([col[i] for col in cols])
        lines.append(rule("├", "─", "┼", "┤") if i < n - 1 else rule("╘", "═", "╧", "╛"))
    return "\n".join(lines)


_LATEX_ESCAPES = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "^": r"\^{}",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "\\": r"\textbackslash{}", "<": r"\ensuremath{<}", ">": r"\ensuremath{>}"}


def latex_table(table: dict[str, list[str]]) -> str:
    """A ``{column: cells}`` table as a LaTeX booktabs ``tabular`` (tabulate's
    ``latex_booktabs``, special characters escaped).

    >>> print(latex_table({"System": ["a_b"], "BLEU": ["1.0"]}))
    \\begin{tabular}{rc}
    \\toprule
       System &  BLEU  \\\\
    \\midrule
          a\\_b &  1.0   \\\\
    \\bottomrule
    \\end{tabular}
    """
    headers, cols, widths = _columns(table)
    aligns = ["right"] + ["center"] * (len(headers) - 1)

    def row(cells: list[str]) -> str:
        padded = [" " + _pad(c, w, a) + " " for c, w, a in zip(cells, widths, aligns,
                                                               strict=True)]
        escaped = ["".join(_LATEX_ESCAPES.get(ch, ch) for ch in cell) for cell in padded]
        return ("&".join(escaped) + "\\\\").rstrip()

    spec = "".join("r" if a == "right" else "c" for a in aligns)
    lines = ["\\begin{tabular}{" + spec + "}", "\\toprule", row(headers), "\\midrule"]
    lines += [row([col[i] for col in cols]) for i in range(len(cols[0]))]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines)


def _plain(value: Any) -> Any:
    """NumPy scalars as Python numbers (for JSON)."""
    return value.item() if hasattr(value, "item") else value


def _format_score_lines(scores: dict[str, list[Any]], width: int,
                        multiline: bool) -> dict[str, list[str]]:
    """Paired-test results as cells: ``score (mean ± ci)``, then ``(p = P)*`` (``*``: p <=
    0.05) on the next line (``multiline``) or after a space."""
    out: dict[str, list[str]] = {"System": scores["System"]}
    is_bootstrap = False
    for metric, values in scores.items():
        if metric == "System":
            continue
        cells = []
        for result in values:
            if isinstance(result, str):
                cells.append(result)
                continue
            cell = f"{result.score:.{width}f}"
            if result.mean is not None:
                is_bootstrap = True
                cell += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
            if result.p_value is not None:
                p = f"(p = {result.p_value:.4f})"
                cell += ("\n" if multiline else " ") + (p if result.p_value > 0.05 else p + "*")
            cells.append(cell)
        out[metric + (" (μ ± 95% CI)" if is_bootstrap else "")] = cells
    return out


_LEGEND = """\
 - Null hypothesis: the system and the baseline translations are essentially
   generated by the same underlying process. For a given system and the baseline,
   the p-value is roughly the probability of the absolute score difference (delta)
   or higher occurring due to chance, under the assumption that the null hypothesis is correct.

 - Assuming a significance threshold of 0.05, the null hypothesis can be rejected
   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed
   to chance, hence the system is significantly "different" than the baseline.
   Otherwise, the p-values are highlighted in red.

 - NOTE: Significance does not tell whether a system is "better" than the baseline but rather
   emphasizes the "difference" of the systems in terms of the replicability of the delta.
"""


def print_results_table(results: dict[str, list[Any]], signatures: dict[str, str],
                        args: Namespace) -> None:
    """The multi-system table (``text``: box characters, ``latex``: booktabs, ``json``: a
    list of objects), the paired test's legend and the signatures, as sacrebleu prints
    them."""
    if args.format == "json":
        rows = []
        keys = list(results)
        for i, name in enumerate(results["System"]):
            value: dict[str, Any] = {"system": name}
            for key in keys[1:]:
                cell = results[key][i]
                value[key] = cell if isinstance(cell, str) else \
                    {k: _plain(v) for k, v in cell.__dict__.items()}
            rows.append(value)
        import json
        print(json.dumps(rows, indent=4))
        return
    cells = _format_score_lines(dict(results), args.width, multiline=args.format == "text")
    baseline = next((c for c in cells["System"] if c.startswith("Baseline:")), "")
    print(grid_table(cells) if args.format == "text" else latex_table(cells))
    print()
    if args.paired_bs or args.paired_ar:
        kind = "bootstrap resampling" if args.paired_bs else "approximate randomization"
        n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        unit = "resampling trials" if args.paired_bs else "trials"
        msg = f"Paired {kind} test with {n} {unit}"
        print("-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg))
        print(f" - Each system is pairwise compared to {baseline}.")
        if args.paired_bs:
            print("   Actual system score / bootstrap estimated true mean / 95% CI are "
                  "provided for each metric.")
        else:
            print("   Actual system score is provided for each metric.")
        print()
        print(_LEGEND)
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    for name, sig in signatures.items():
        print(f" - {name:<10} {sig}")


def print_single_results(results: list[str], args: Namespace) -> None:
    """One system's scores: JSON (a list for several metrics) or text lines aligned on
    ``=``."""
    if args.format == "json":
        print("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0])
        return
    if len(results) == 1:
        print(results[0])
        return
    lens = []
    for line in results:
        try:
            lens.append(line.index("=") - 1)
        except ValueError:
            print(line)
    if lens:
        w = max(lens)
        for n, line in zip(lens, results, strict=False):
            print(f"{line[:n]:>{w}}{line[n:]}")



__all__ = ["SACREBLEU_DIR", "args_to_dict", "grid_table", "latex_table", "my_log",
           "print_results_table", "print_single_results", "smart_open", "sum_of_lists"]
