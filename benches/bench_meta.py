"""Meta-evaluation timings: PERM-BOTH per metric pair and paired system tests.

    python benches/bench_meta.py [--data ../shared/data] [--sacrebleu] [--small]

Prints (1) PERM-BOTH, k=1000, acc_eq grouped by item on WMT21 en-de MQM (8 systems x 527
segments, two sentence-BLEU variants); (2) mtalign.paired_test, 20 systems x 1002 segments,
BLEU bootstrap (1000) and approximate randomization (10000), both RNG modes; (3) issue 16's
target, BS + AR of the 20 systems in <= 0.5 s including the statistics: one statistics pass
(``Bleu.statistics`` of all systems in one call), then ``paired_test`` on the statistics
arrays for ``bs`` and for ``ar`` (wall and process CPU time, MET / NOT MET); with
--sacrebleu, sacrebleu 2.6.0's PairedTest on the same input (slow: tens of seconds) and the
ratio. ``--small``: 200 segments, one repeat (a smoke run; figures not comparable).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from functools import partial
from pathlib import Path

import mtalign
import numpy as np
from mtalign import meta

ROOT = Path(__file__).resolve().parents[1]

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import timed  # noqa: E402

best_timed = partial(timed, best=True)  # the best of the runs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--sacrebleu", action="store_true")
    ap.add_argument("--small", action="store_true", help="smoke run: 200 segments")
    args = ap.parse_args()
    cut = 200 if args.small else None
    repeat = 1 if args.small else 3
    base = args.data / "wmt21_ende_news"
    ref = (base / "ref.A.de").read_text(encoding="utf-8").split("\n")[:-1]
    hyps = {p.stem: p.read_text(encoding="utf-8").split("\n")[:-1]
            for p in sorted((base / "hyp").glob("*.de"))}
    if cut is not None:
        ref, hyps = ref[:cut], {k: v[:cut] for k, v in hyps.items()}
    with open(base / "mqm_seg.tsv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t")
                if r["file"] in hyps and int(r["line"]) <= len(ref)]
    systems = sorted({r["file"] for r in rows})
    lines = sorted({int(r["line"]) for r in rows})
    col = {ln: i for i, ln in enumerate(lines)}
    human = np.full((len(systems), len(lines)), np.nan)
    for r in rows:
        human[systems.index(r["file"]), col[int(r["line"])]] = float(r["mqm"])
    refs = [ref[i - 1] for i in lines]
    a = np.array([mtalign.Bleu.bleus(4).batch_score([hyps[s][i - 1] for i in lines], refs)
                  for s in systems])
    b = np.array([mtalign.Bleu(smooth="exp", effective_order=True)
                  .batch_score([hyps[s][i - 1] for i in lines], refs) for s in systems])
    t = best_timed(lambda: meta.perm_test(a, b, human, method="acc_eq", group_by="item",
                                          k=1000), 3)
    print(f"PERM-BOTH k=1000 acc_eq by item, {human.shape[0]}x{human.shape[1]}: "
          f"{t * 1000:.0f} ms per metric pair")
    t = best_timed(lambda: meta.pairs_test(a, b, human, k=1000), 3)
    print(f"pairs test k=1000 acc_eq (calibrated) by item: {t * 1000:.0f} ms per pair")
    baseline = "Online-W"
    others = {k: v for k, v in hyps.items() if k != baseline}
    bleu = mtalign.Bleu(smooth="exp")
    t_stats = best_timed(lambda: [bleu.statistics(h, ref) for h in [hyps[baseline],
                                                                   *others.values()]], 1)
    print(f"BLEU statistics of {len(hyps)} systems x {len(ref)} segments: {t_stats:.2f} s")
    for rng in ("mtalign", "sacrebleu"):
        tb = best_timed(lambda rng=rng: mtalign.paired_test(bleu, hyps[baseline], others, ref,
                                                          kind="bs", rng=rng), 2)
        ta = best_timed(lambda rng=rng: mtalign.paired_test(bleu, hyps[baseline], others, ref,
                                                          kind="ar", rng=rng), 2)
        print(f"paired_test rng={rng}: bs {tb:.2f} s, ar {ta:.2f} s "
              f"(each including its statistics)")

    names = [baseline, *others]

    def bs_and_ar(rng: str) -> None:
        flat = [h for k in names for h in hyps[k]]
        stats = bleu.statistics(flat, ref * len(names))
        n = len(ref)
        per = {k: stats[i * n:(i + 1) * n] for i, k in enumerate(names)}
        rest = {k: per[k] for k in names[1:]}
        mtalign.paired_test(bleu, per[baseline], rest, kind="bs", rng=rng)
        mtalign.paired_test(bleu, per[baseline], rest, kind="ar", rng=rng)

    print(f"\ntarget: BS (1000) + AR (10000), {len(names)} systems x {len(ref)} segments, "
          f"statistics included, <= 0.5 s")
    ours: dict[str, float] = {}
    for rng in ("mtalign", "sacrebleu"):
        cpu = time.process_time()
        wall = best_timed(lambda rng=rng: bs_and_ar(rng), repeat)
        cpu = (time.process_time() - cpu) / repeat
        ours[rng] = wall
        met = "MET" if wall <= 0.5 else "NOT MET"
        print(f"  rng={rng:<9}  wall {wall:.3f} s (best of {repeat})  process CPU "
              f"{cpu:.3f} s  {met if cut is None else '(small run)'}")
    if args.sacrebleu:
        from sacrebleu.metrics import BLEU
        from sacrebleu.significance import PairedTest
        named = [(baseline, hyps[baseline]), *others.items()]
        total = 0.0
        for kind in ("bs", "ar"):
            t = time.perf_counter()
            PairedTest(named, {"BLEU": BLEU(references=[ref])}, None, test_type=kind)()
            took = time.perf_counter() - t
            total += took
            print(f"sacrebleu PairedTest {kind}: {took:.1f} s")
        for rng, wall in ours.items():
            print(f"  BS + AR ratio, rng={rng}: {total / wall:.0f}x faster than sacrebleu")


if __name__ == "__main__":
    main()
