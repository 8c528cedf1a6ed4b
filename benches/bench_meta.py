"""Meta-evaluation timings: PERM-BOTH per metric pair and paired system tests.

    python benches/bench_meta.py [--data ../shared/data] [--sacrebleu]

Prints (1) PERM-BOTH, k=1000, acc_eq grouped by item on WMT21 en-de MQM (8 systems x 527
segments, two sentence-BLEU variants); (2) mtalign.paired_test, 20 systems x 1002 segments,
BLEU bootstrap (1000) and approximate randomization (10000), both RNG modes; with
--sacrebleu, sacrebleu 2.6.0's PairedTest on the same input (slow: tens of seconds).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import mtalign
import numpy as np
from mtalign import meta

ROOT = Path(__file__).resolve().parents[1]


def best_of(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--sacrebleu", action="store_true")
    args = ap.parse_args()
    base = args.data / "wmt21_ende_news"
    ref = (base / "ref.A.de").read_text(encoding="utf-8").split("\n")[:-1]
    hyps = {p.stem: p.read_text(encoding="utf-8").split("\n")[:-1]
            for p in sorted((base / "hyp").glob("*.de"))}
    with open(base / "mqm_seg.tsv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["file"] in hyps]
    systems = sorted({r["file"] for r in rows})
    lines = sorted({int(r["line"]) for r in rows})
    col = {ln: i for i, ln in enumerate(lines)}
    human = np.full((len(systems), len(lines)), np.nan)
    for r in rows:
        human[systems.index(r["file"]), col[int(r["line"])]] = float(r["mqm"])
    refs = [ref[i - 1] for i in lines]
    a = np.array([mtalign.Bleu().batch_score([hyps[s][i - 1] for i in lines], refs)
                  for s in systems])
    b = np.array([mtalign.Bleu(smooth="exp", effective_order=True)
                  .batch_score([hyps[s][i - 1] for i in lines], refs) for s in systems])
    t = best_of(lambda: meta.perm_test(a, b, human, method="acc_eq", group_by="item", k=1000))
    print(f"PERM-BOTH k=1000 acc_eq by item, {human.shape[0]}x{human.shape[1]}: "
          f"{t * 1000:.0f} ms per metric pair")
    t = best_of(lambda: meta.pairs_test(a, b, human, k=1000))
    print(f"pairs test k=1000 acc_eq (calibrated) by item: {t * 1000:.0f} ms per pair")
    baseline = "Online-W"
    others = {k: v for k, v in hyps.items() if k != baseline}
    bleu = mtalign.Bleu(smooth="exp")
    t_stats = best_of(lambda: [bleu.statistics(h, ref) for h in [hyps[baseline],
                                                                  *others.values()]], 1)
    print(f"BLEU statistics of {len(hyps)} systems x {len(ref)} segments: {t_stats:.2f} s")
    for rng in ("mtalign", "sacrebleu"):
        tb = best_of(lambda rng=rng: mtalign.paired_test(bleu, hyps[baseline], others, ref,
                                                         kind="bs", rng=rng), 2)
        ta = best_of(lambda rng=rng: mtalign.paired_test(bleu, hyps[baseline], others, ref,
                                                         kind="ar", rng=rng), 2)
        print(f"paired_test rng={rng}: bs {tb:.2f} s, ar {ta:.2f} s "
              f"(each including its statistics)")
    if args.sacrebleu:
        from sacrebleu.metrics import BLEU
        from sacrebleu.significance import PairedTest
        named = [(baseline, hyps[baseline]), *others.items()]
        for kind in ("bs", "ar"):
            t = time.perf_counter()
            PairedTest(named, {"BLEU": BLEU(references=[ref])}, None, test_type=kind)()
            print(f"sacrebleu PairedTest {kind}: {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
