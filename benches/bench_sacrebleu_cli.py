"""`mtalign sacrebleu` against the `sacrebleu` 2.6.0 command: the README's speed table.

Two jobs, each run by both commands as their own processes on the same files in the same run
(wall time, start-up included), and their stdout compared (the signature's version field
written back as 2.6.0: the bytes must be equal, or the script says so):

* ``bleu chrf ter --paired-bs -f text`` on 4 systems x ``--segments`` segments (400) x 2 references;
* ``-sl`` (sentence-level BLEU) on ``--sl-lines`` segments (100,000), twice: the real pairs
  cycled, and the same with every pair distinct.

The data is WMT21 en-de news (``tests/data/wmt21_ende_news.json.xz``: 20 systems, references
A and C): the paired job takes the first four systems and the first segments; the ``-sl`` job
pairs every system's output with reference A, segment by segment, and cycles those pairs to
``--sl-lines`` (20,040 pairs, 14,855 of them distinct: systems agree on some segments).
Nothing in mtalign keeps anything between segments that are not in the same chunk of 256,
so the repetition should not help it; the distinct job checks that: the distinct pairs
cycled, the k-th time round with the hypothesis's words rotated by k (the label counts the
distinct pairs: short hypotheses repeat).

    python benches/bench_sacrebleu_cli.py                          # the README's table
    python benches/bench_sacrebleu_cli.py --segments 100 --sl-lines 2000   # a quick check

A script, not a test: it prints a table and exits 0 whatever the figures are (1 if the
outputs differ).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import wmt_data  # noqa: E402

MTALIGN = [sys.executable, "-m", "mtalign", "sacrebleu"]


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def _rotated(hyp: str, k: int) -> str:
    words = hyp.split(" ")
    k %= max(len(words), 1)
    return " ".join(words[k:] + words[:k])


def write_files(folder: Path, segments: int, sl_lines: int
                ) -> tuple[list[str], list[str], list[str], int]:
    """The jobs' sacrebleu arguments (references first, then ``-i`` and the options), and
    the number of distinct pairs of the distinct ``-sl`` job."""
    ende = wmt_data.load("wmt21_ende_news")
    refs = [_write(folder / f"ref.{k}", ende["refs"][k][:segments]) for k in ("A", "C")]
    names = sorted(ende["hyps"])[:4]
    hyps = [_write(folder / f"hyp.{n}", ende["hyps"][n][:segments]) for n in names]
    paired = [*refs, "-i", *hyps, "-m", "bleu", "chrf", "ter", "--paired-bs", "-f", "text"]
    pairs = [(hyp[i], ende["refs"]["A"][i]) for hyp in ende["hyps"].values()
             for i in range(len(hyp)) if ende["refs"]["A"][i].strip()]
    cycled = [pairs[i % len(pairs)] for i in range(sl_lines)]
    sl_ref = _write(folder / "sl.ref", [r for _, r in cycled])
    sl_hyp = _write(folder / "sl.hyp", [h for h, _ in cycled])
    unique = list(dict.fromkeys(pairs))
    distinct = [(_rotated(h, i // len(unique)), r)
                for i, (h, r) in ((i, unique[i % len(unique)]) for i in range(sl_lines))]
    sl_ref_distinct = _write(folder / "distinct.ref", [r for _, r in distinct])
    dl_hyp = _write(folder / "distinct.hyp", [h for h, _ in distinct])
    return (paired, [sl_ref, "-i", sl_hyp, "-m", "bleu", "-sl"],
            [sl_ref_distinct, "-i", dl_hyp, "-m", "bleu", "-sl"], len(set(distinct)))


# As installed packages run: Python caches compiled modules (an editable checkout run under
# PYTHONDONTWRITEBYTECODE would compile mtalign's sources on every start, ~20 ms, which pip
# does once at install for a wheel, and did for sacrebleu).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], repeat: int = 1) -> tuple[float, str]:
    """The median wall time of ``repeat`` runs of ``cmd`` (after one untimed run that leaves
    the compiled modules cached when ``repeat`` > 1), and its stdout."""
    times, out = [], ""
    for k in range(repeat + (repeat > 1)):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV)
        if k or repeat == 1:
            times.append(time.perf_counter() - start)
        out = proc.stdout
    return statistics.median(times), out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--segments", type=int, default=400,
                   help="segments of the paired-bootstrap job (default 400)")
    p.add_argument("--sl-lines", type=int, default=100_000,
                   help="segments of the -sl job (default 100,000)")
    args = p.parse_args(argv)
    sacrebleu = shutil.which("sacrebleu")
    if sacrebleu is None:
        print("bench_sacrebleu_cli: the sacrebleu command is needed (pip install "
              "sacrebleu==2.6.0)", file=sys.stderr)
        return 2
    from mtalign.compat.sacrebleu import __version__ as shim_version

    rows, same = [], True
    with tempfile.TemporaryDirectory() as tmp:
        paired, sentence, distinct, n_distinct = write_files(Path(tmp), args.segments,
                                                             args.sl_lines)
        jobs = [(f"`bleu chrf ter --paired-bs`, 4 systems x {args.segments} segments x 2 refs",
                 paired),
                (f"`-sl` BLEU, {args.sl_lines:,} segments (WMT21 pairs cycled)", sentence),
                (f"`-sl` BLEU, {args.sl_lines:,} segments ({n_distinct:,} distinct pairs)",
                 distinct)]
        for label, job in jobs:
            theirs, out_theirs = timed([sacrebleu, *job])
            ours, out_ours = timed([*MTALIGN, *job], repeat=3)
            if out_ours.replace(shim_version, "2.6.0") != out_theirs:
                same = False
                print(f"stdout differs: {label}", file=sys.stderr)
            rows.append((label, theirs, ours))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {sys.version.split()[0]}, wall time with start-up (sacrebleu: one run; "
          f"mtalign: median of 3 after a warm-up), load {load:.1f} at the end")
    print("| job | sacrebleu | mtalign sacrebleu | speed-up |")
    print("|---|---:|---:|---:|")
    for label, theirs, ours in rows:
        print(f"| {label} | {theirs:.1f} s | {ours:.2f} s | {theirs / ours:.0f}x |")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
