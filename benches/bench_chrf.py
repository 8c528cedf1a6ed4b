#!/usr/bin/env python3
"""Throughput benchmark: chrF, chrF++ and TER, mtalign against sacrebleu (and fastchrf when
installed), in the same run.

Pairs: every system output of WMT21 en-de (``--data-dir``, default ``../shared/data``:
20 systems x 1002 lines) against reference A, cycled to ``--pairs``; the peers score an evenly
spaced subset of ``--peer-pairs`` of the same pairs; ratios compare pairs per second.

* sentence chrF / chrF++: ``Chrf(...).batch_score(hyps, refs)`` (all cores and
  ``threads=1``) vs one reused ``sacrebleu.metrics.CHRF`` object's ``sentence_score`` loop,
  and vs ``fastchrf.pairwise_chrf`` (one 1x1 matrix per pair; chrF only). ``--corpus
  distinct`` (the default): ``benches/corpus.py``'s distinct corpus (every distinct English
  system output once, as for METEOR; its header is printed); ``--corpus ende``: the WMT21
  en-de pairs above, cycled (texts repeat, so mtalign's per-call deduplication helps).
* sentence TER: ``Ter().batch_score`` vs a reused ``sacrebleu.metrics.TER``'s loop.
* chrF ``pairwise`` of the first ``--pairwise-n`` outputs of one system against themselves
  (MBR's utility matrix) vs ``fastchrf.pairwise_chrf`` on the same n x n.
* corpus TER of all 20 systems (every line, reference A; one ``corpus_score`` per system)
  vs sacrebleu's ``corpus_score`` on ``--ter-peer-systems`` of them, extrapolated to 20 by
  the line count (sacrebleu needs about two minutes for all 20).

Then issue 15's targets, each MET / NOT MET: sentence chrF >= 100k pairs/s and >= 35x
sacrebleu, sentence TER >= 10k pairs/s and >= 50x, corpus TER of the 20 systems <= 2 s,
chrF pairwise N = 1024 <= 1 s (checked only when ``--pairwise-n`` is 1024).

Figures are medians of ``--repeat`` runs. It is a script, not a test: it prints a table and
exits 0 whatever the figures are. ``--small`` is a smoke run (a few seconds)::

    python benches/bench_chrf.py --small
    python benches/bench_chrf.py            # the real figures, on a quiet machine
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
from _common import machine_info, read_lines, timed  # noqa: E402


def load_pairs(data_dir: Path) -> tuple[list[str], list[str], dict[str, list[str]]]:
    base = data_dir / "wmt21_ende_news"
    ref = read_lines(base / "ref.A.de")
    systems = {p.name.rsplit(".", 1)[0]: read_lines(p) for p in sorted((base / "hyp").iterdir())}
    hyps = [h for lines in systems.values() for h in lines]
    refs = [r for _ in systems for r in ref]
    return hyps, refs, systems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--peer-pairs", type=int, default=2_000)
    ap.add_argument("--pairwise-n", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ter-peer-systems", type=int, default=2,
                    help="systems sacrebleu's corpus TER is timed on (extrapolated to all)")
    ap.add_argument("--small", action="store_true",
                    help="smoke run: 2,000 pairs, 200 peer pairs, pairwise 64, corpus TER on "
                         "200 lines a system, 1 repeat")
    ap.add_argument("--corpus", choices=("distinct", "ende"), default="distinct",
                    help="pairs of the sentence chrF rows (see the module doc)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args()
    corpus_lines = None
    if args.small:
        args.pairs, args.peer_pairs, args.pairwise_n, args.repeat = 2_000, 200, 64, 1
        args.ter_peer_systems, corpus_lines = 1, 200

    import mtalign
    from sacrebleu.metrics import CHRF, TER

    try:
        import fastchrf
    except ImportError:
        fastchrf = None

    hyps0, refs0, systems = load_pairs(args.data_dir)
    reps = -(-args.pairs // len(hyps0))
    hyps, refs = (hyps0 * reps)[: args.pairs], (refs0 * reps)[: args.pairs]
    step = max(1, len(hyps) // args.peer_pairs)
    peer_h, peer_r = hyps[::step][: args.peer_pairs], refs[::step][: args.peer_pairs]
    peer_pairs = list(zip(peer_h, peer_r, strict=True))
    ter_pairs = peer_pairs[: len(peer_pairs) // 4 or 1]
    chrf_h, chrf_r, chrf_peer = hyps, refs, peer_pairs
    corpus_header = [f"sentence chrF pairs: WMT21 en-de, {len(hyps0):,} pairs cycled to "
                     f"{len(hyps):,} (texts repeat)"]
    if args.corpus == "distinct":
        dc = corpora.distinct_pairs(args.data_dir, args.pairs)
        chrf_h, chrf_r = dc.hyps, dc.refs
        sub = dc.subset(args.peer_pairs)
        chrf_peer = list(zip(sub.hyps, sub.refs, strict=True))
        corpus_header = dc.describe()
    rows: list[tuple[str, str, int, float]] = []

    def add(task: str, tool: str, n: int, seconds: float) -> None:
        rows.append((task, tool, n, n / seconds if seconds > 0 else float("inf")))

    for task, word_order in (("sentence chrF", 0), ("sentence chrF++", 2)):
        ours = mtalign.Chrf(word_order=word_order)
        peer = CHRF(word_order=word_order)
        # Checked equal to sacrebleu on the peers' pairs before timing.
        got = ours.batch_score([h for h, _ in chrf_peer], [r for _, r in chrf_peer])
        want = [peer.sentence_score(h, [r]).score for h, r in chrf_peer]
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 1e-12, task
        add(task, "mtalign", len(chrf_h),
            timed(lambda o=ours: o.batch_score(chrf_h, chrf_r), args.repeat))
        add(task, "mtalign threads=1", len(chrf_h),
            timed(lambda o=ours: o.batch_score(chrf_h, chrf_r, threads=1), args.repeat))
        add(task, "sacrebleu", len(chrf_peer), timed(
            lambda p=peer: [p.sentence_score(h, [r]) for h, r in chrf_peer],
            args.repeat))
        if fastchrf is not None and word_order == 0:
            add(task, "fastchrf", len(chrf_peer), timed(
                lambda: [fastchrf.pairwise_chrf([[h]], [[r]]) for h, r in chrf_peer],
                args.repeat))

    ter_n = min(len(hyps), max(args.peer_pairs * 10, 1))
    add("sentence TER", "mtalign", ter_n,
        timed(lambda: mtalign.Ter().batch_score(hyps[:ter_n], refs[:ter_n]), args.repeat))
    ter_peer = TER()
    add("sentence TER", "sacrebleu", len(ter_pairs), timed(
        lambda: [ter_peer.sentence_score(h, [r]) for h, r in ter_pairs], args.repeat))

    n = args.pairwise_n
    texts = next(iter(systems.values()))[:n]
    add(f"chrF pairwise {n}x{n}", "mtalign", n * n,
        timed(lambda: mtalign.Chrf().pairwise(texts, texts), args.repeat))
    if fastchrf is not None:
        add(f"chrF pairwise {n}x{n}", "fastchrf", n * n,
            timed(lambda: fastchrf.pairwise_chrf([texts], [texts]), args.repeat))

    all_systems = {k: v[:corpus_lines] for k, v in systems.items()}
    ref_a = refs0[: len(next(iter(all_systems.values())))]
    ter = mtalign.Ter()
    corpus_task = f"corpus TER {len(all_systems)} systems"
    t_ours = timed(lambda: [ter.corpus_score(h, ref_a) for h in all_systems.values()],
                   args.repeat)
    lines = sum(len(h) for h in all_systems.values())
    add(corpus_task, "mtalign", lines, t_ours)
    peer_systems = list(all_systems.values())[: max(1, args.ter_peer_systems)]
    t_peer = timed(lambda: [ter_peer.corpus_score(h, [ref_a]) for h in peer_systems], 1)
    add(corpus_task, "sacrebleu", sum(len(h) for h in peer_systems), t_peer)
    corpus_seconds = {"mtalign": t_ours,
                      "sacrebleu (extrapolated)": t_peer * lines / sum(map(len, peer_systems))}

    print(f"machine: {json.dumps(machine_info(['mtalign', 'sacrebleu', 'fastchrf']))}")
    for line in corpus_header:
        print(line)
    print(f"{'task':<24} {'tool':<20} {'pairs':>9} {'pairs/s':>12} {'vs sacrebleu':>13}")
    base = {task: pps for task, tool, _, pps in rows if tool == "sacrebleu"}
    for task, tool, count, pps in rows:
        ratio = f"{pps / base[task]:.1f}x" if task in base else ""
        print(f"{task:<24} {tool:<20} {count:>9} {pps:>12,.0f} {ratio:>13}")
    for tool, secs in corpus_seconds.items():
        print(f"{corpus_task}: {tool} {secs:.2f} s for {lines} lines")

    def rate(task: str, tool: str = "mtalign") -> float:
        return next(p for t, o, _, p in rows if t == task and o == tool)

    print("\ntargets (issue 15; real figures only from a full run on a quiet machine):")
    checks = [
        ("sentence chrF >= 100k pairs/s", rate("sentence chrF"), 100_000),
        ("sentence chrF >= 35x sacrebleu", rate("sentence chrF") / base["sentence chrF"], 35),
        ("sentence TER >= 10k pairs/s", rate("sentence TER"), 10_000),
        ("sentence TER >= 50x sacrebleu", rate("sentence TER") / base["sentence TER"], 50),
    ]
    for label, value, target in checks:
        print(f"  {label:<34} {value:>12,.1f}  {'MET' if value >= target else 'NOT MET'}")
    if corpus_lines is None:
        met = "MET" if t_ours <= 2.0 else "NOT MET"
        print(f"  {'corpus TER 20 systems <= 2 s':<34} {t_ours:>12.2f}  {met}")
    if n == 1024:
        secs = n * n / rate(f"chrF pairwise {n}x{n}")
        met = "MET" if secs <= 1.0 else "NOT MET"
        print(f"  {'chrF pairwise N=1024 <= 1 s':<34} {secs:>12.2f}  {met}")
    if args.json:
        print(json.dumps([dict(task=t, tool=o, pairs=c, pairs_per_s=p) for t, o, c, p in rows]))


if __name__ == "__main__":
    main()
