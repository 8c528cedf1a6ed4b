"""`mtalign score` on long files: lines/s and peak memory, against sacrebleu's command line
and against mtalign reading the files whole, measured in the same run.

The files are the `distinct` corpus (benches/corpus.py: 46,701 real pairs, no hypothesis
repeated) cycled to ``--lines`` lines; within one 20,000-line chunk, texts repeat only where
the corpus does. Every command runs as its own process; peak memory is its VmHWM (read from
/proc at exit by a wrapper for mtalign, by ``/usr/bin/time``-free polling of /proc for the
peers).

    python benches/bench_cli_stream.py                   # 1M and 10M lines (about 2.5 GB of
                                                         # files in --tmp; 10M takes long)
    python benches/bench_cli_stream.py --lines 20000     # a quick check that it works

Peers (sacrebleu, and mtalign with the files read whole) run only up to ``--peer-max-lines``
lines (default 1M): they hold the whole files in memory. A script, not a test: it prints a
table and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info  # noqa: E402
from corpus import DEFAULT_DATA_DIR, distinct_pairs  # noqa: E402

WRAP = ("import sys\nfrom mtalign.cli import main\nrc = main(sys.argv[1:])\n"
        "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0]\n"
        "print('VmHWM', hwm.split()[1], file=sys.stderr)\nsys.exit(rc)\n")


def write_files(folder: Path, n: int, data_dir: Path) -> tuple[Path, Path, str]:
    corpus = distinct_pairs(data_dir, 10**9)
    hyp, ref = folder / f"hyp.{n}", folder / f"ref.{n}"
    base = len(corpus.hyps)
    with open(hyp, "w", encoding="utf-8") as fh, open(ref, "w", encoding="utf-8") as fr:
        for start in range(0, n, base):
            k = min(base, n - start)
            fh.write("\n".join(corpus.hyps[:k]) + "\n")
            fr.write("\n".join(corpus.refs[:k]) + "\n")
    return hyp, ref, f"{base:,} distinct pairs cycled to {n:,} lines"


def run(cmd: list[str], mtalign: bool) -> tuple[float, float]:
    """(seconds, peak MiB) of one process; its output goes to /dev/null."""
    if mtalign:
        cmd = [sys.executable, "-c", WRAP, *cmd]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    status = f"/proc/{proc.pid}/status"
    while proc.poll() is None:  # the peers: poll their VmHWM (mtalign reports its own)
        try:
            with open(status) as f:
                for line in f:
                    if line.startswith("VmHWM"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.05)
    err = proc.stderr.read() if proc.stderr else ""
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err}")
    for line in err.splitlines():
        if line.startswith("VmHWM"):
            peak = int(line.split()[1])
    return seconds, peak / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--metrics", nargs="+", default=["bleu", "chrf"])
    ap.add_argument("--peer-max-lines", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--tmp", type=Path, default=None, help="where the files are written")
    args = ap.parse_args()

    info = machine_info(["mtalign", "sacrebleu"])
    print(f"# mtalign score on long files: {info['cpu']}, {info['nproc']} usable cores, "
          f"{info['python']}; versions {info['versions']}")
    print(f"# metrics: {' '.join(args.metrics)}; corpus scores (JSON) and --sentence-level TSV")
    sacrebleu = shutil.which("sacrebleu")
    folder = Path(tempfile.mkdtemp(dir=args.tmp, prefix="mtalign-bench-"))
    threads = [] if args.threads is None else ["--threads", str(args.threads)]
    rows = []
    try:
        for n in args.lines:
            hyp, ref, what = write_files(folder, n, args.data_dir)
            print(f"# {n:,} lines: {what}; {hyp.stat().st_size / 2**20:.0f} MiB per file")
            base = ["score", "-i", str(hyp), "-r", str(ref), "-m", *args.metrics, "--quiet",
                    *threads]
            runs = [("mtalign score (streamed)", base, True),
                    ("mtalign score --sentence-level -f tsv", [*base, "--sentence-level",
                                                                "-f", "tsv"], True)]
            if n <= args.peer_max_lines:
                runs.append(("mtalign, files read whole", [*base, "--chunk-lines",
                                                           str(n + 1)], True))
                if sacrebleu and set(args.metrics) <= {"bleu", "chrf", "ter"}:
                    runs.append(("sacrebleu (CLI)", [sacrebleu, str(ref), "-i", str(hyp),
                                                     "-m", *args.metrics, "-b"], False))
            for label, cmd, own in runs:
                sec, mib = run(cmd, own)
                rows.append((n, label, sec, mib))
                print(f"  {label:<40} {sec:8.2f} s {n / sec:12,.0f} lines/s {mib:8.0f} MiB",
                      flush=True)
            hyp.unlink()
            ref.unlink()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print("\n| lines | command | s | lines/s | peak MiB | lines/s vs sacrebleu |")
    print("|---|---|---|---|---|---|")
    for n, label, sec, mib in rows:
        peer = next((s for m, lab, s, _ in rows if m == n and lab.startswith("sacrebleu")),
                    None)
        ratio = f"{peer / sec:.1f}×" if peer else "—"
        print(f"| {n:,} | {label} | {sec:.2f} | {n / sec:,.0f} | {mib:.0f} | {ratio} |")
    streamed = {n: mib for n, label, _, mib in rows if label == "mtalign score (streamed)"}
    if len(streamed) > 1:
        lo, hi = min(streamed), max(streamed)
        print(f"\npeak memory, streamed: {streamed[lo]:.0f} MiB at {lo:,} lines, "
              f"{streamed[hi]:.0f} MiB at {hi:,} lines (target: ≤ 1024 MiB at 10M lines): "
              f"{'MET' if hi >= 10_000_000 and streamed[hi] <= 1024 else 'see table'}")


if __name__ == "__main__":
    main()
