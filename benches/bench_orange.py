#!/usr/bin/env python3
"""Timing benchmark: ORANGE, the replication table, oracle reranking and MBR matrices.

1. ORANGE of one ROUGE variant on ``wmt21_ende_news``: 1002 sentences × 20 system outputs as
   the candidate list, 3 references: 60,120 candidate-vs-leave-one-out-set scorings plus 3,006
   reference scorings in one batch call, then ranks and a 1000-resample bootstrap. Target:
   < 1 s with ``threads=None`` on 2 cores. The pure-Python twin (``tests/twins/orange.py``,
   one ``Rouge.sentence_score`` call per pair) runs on an evenly spaced subset of
   ``--twin-sentences`` sentences; its time is extrapolated to the 1002 sentences.
2. The whole replication table (``scripts/replicate_orange.py``'s 26 metrics on
   ``wmt21_ende_news`` and ``ted21_zhen_mqm``), timed once (``--skip-table`` to skip).
3. Oracle reranking of the Moses 100-best lists (``moses_nbest_fren``: 100 sentences × 100
   hypotheses, one reference): hypotheses/s; and ``metric.pairwise`` on each 100-best list
   against itself (100 × 100 × 100 = 1,000,000 pairs, the MBR matrix): pairs/s.

Usage (from the repository root)::

    python benches/bench_orange.py              # ~1-2 min on 2 cores (most of it: the table)
    python benches/bench_orange.py --skip-table --repeat 5

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = next((d / "shared" / "data" for d in (REPO_ROOT.parent, REPO_ROOT.parent.parent)
                         if (d / "shared" / "data").is_dir()), REPO_ROOT.parent / "shared" / "data")
TARGET_SECONDS = 1.0

sys.path.insert(0, str(REPO_ROOT / "tests"))
sys.path.insert(0, str(REPO_ROOT / "scripts"))
import mtalign  # noqa: E402
from _common import machine_info, timed  # noqa: E402
from mtalign.io import read_lines, read_nbest, read_references, read_systems  # noqa: E402
from twins import orange as orange_twin  # noqa: E402  (the twins live with the tests)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs, median reported")
    ap.add_argument("--twin-sentences", type=int, default=20)
    ap.add_argument("--skip-table", action="store_true")
    args = ap.parse_args(argv)

    info = machine_info(["numpy"])
    print(f"machine: {info['nproc']} usable cores, {info['cpu']}, {info['python']}, "
          f"mtalign {mtalign.__version__}")

    folder = args.data_dir / "wmt21_ende_news"
    cands = read_systems(sorted((folder / "hyp").glob("*.de")))
    refs = read_references([folder / f"ref.{r}.de" for r in "ACD"], n_sentences=len(cands))
    n = len(cands)
    print(f"\n1. ORANGE on wmt21_ende_news: {n} sentences × {len(cands[0])} candidates, "
          f"{len(refs[0])} references, 1000 bootstrap resamples; median of {args.repeat}")
    print(f"{'variant':<11} {'threads':>7} {'seconds':>8} {'ORANGE':>8}  target < 1 s")
    rows = []
    for variant in ("rougeL", "rougeS4", "rougeW-1.2", "rougeSU4"):
        metric = mtalign.Rouge(variant)
        for threads in (None, 1):
            secs = timed(
                lambda m=metric, t=threads: mtalign.orange(m, cands, refs, threads=t),
                args.repeat, warm_up=True)
            res = secs.result
            ok = "met" if secs < TARGET_SECONDS else "MISSED"
            tag = "all" if threads is None else str(threads)
            print(f"{variant:<11} {tag:>7} {secs:8.3f} {100 * res.orange:7.2f}%  "
                  f"{ok if threads is None else ''}")
            rows.append((variant, threads, secs))
    # Where the time goes for rougeL: scoring alone, and ranking + bootstrap alone.
    metric = mtalign.Rouge("rougeL")
    res = mtalign.orange(metric, cands, refs, n_bootstrap=0)
    boot = timed(lambda: mtalign.orange_from_scores(
        res.candidate_scores, res.reference_scores), args.repeat, warm_up=True)
    score_only = timed(lambda: mtalign.orange(metric, cands, refs, n_bootstrap=0),
                       args.repeat, warm_up=True)
    print(f"rougeL breakdown: scoring + ranking {score_only:.3f} s; ranking + 1000-resample "
          f"bootstrap from scores {boot:.3f} s")
    step = max(1, n // args.twin_sentences)
    idx = list(range(0, n, step))[: args.twin_sentences]

    def twin_score(h: str, rs: list[str]) -> float:
        return metric.sentence_score(h, rs)["rougeL"].fmeasure

    t0 = time.perf_counter()
    twin = orange_twin.orange(twin_score, [cands[i] for i in idx], [refs[i] for i in idx])
    twin_secs = (time.perf_counter() - t0) * n / len(idx)
    sub = mtalign.orange(metric, [cands[i] for i in idx], [refs[i] for i in idx],
                         n_bootstrap=0)
    assert sub.ranks.tolist() == twin["ranks"], "twin disagrees"
    fast = next(s for v, t, s in rows if v == "rougeL" and t is None)
    print(f"pure-Python twin (sentence_score per pair), {len(idx)} sentences extrapolated to "
          f"{n}: {twin_secs:.1f} s → mtalign.orange is {twin_secs / fast:.0f}× faster "
          "(ranks identical on the subset)")

    if not args.skip_table:
        import replicate_orange

        print("\n2. The replication table (all metrics of scripts/replicate_orange.py, "
              "1000 resamples)")
        total = 0.0
        for name, _, lang, ref_ids in replicate_orange.DATASETS:
            _, c, r = replicate_orange.load_dataset(args.data_dir, name, lang, ref_ids)
            t0 = time.perf_counter()
            table, _ = replicate_orange.orange_table(c, r, 1000, 12345)
            secs = time.perf_counter() - t0
            total += secs
            slow = max(table, key=lambda x: x["seconds"])
            print(f"{name}: {len(table)} metrics in {secs:.1f} s (slowest: {slow['label']} "
                  f"{slow['seconds']:.1f} s)")
        print(f"both tables: {total:.1f} s")

    mfolder = args.data_dir / "moses_nbest_fren"
    mrefs = read_lines(mfolder / "ref.en")
    nbest = read_nbest(mfolder / "nbest.txt", n_sentences=len(mrefs))
    n_hyps = sum(len(x) for x in nbest)
    print(f"\n3. Reranking moses_nbest_fren: {len(nbest)} sentences, {n_hyps} hypotheses; "
          f"median of {args.repeat}")
    print(f"{'variant':<11} {'task':<22} {'threads':>7} {'seconds':>8} {'items/s':>12}")
    hyps = [[e.hypothesis for e in lst] for lst in nbest]
    for variant in ("rougeL", "rougeS4", "rougeW-1.2"):
        metric = mtalign.Rouge(variant)
        for threads in (None, 1):
            secs = timed(lambda m=metric, t=threads: mtalign.rerank(
                m, nbest, mrefs, threads=t), args.repeat, warm_up=True)
            tag = "all" if threads is None else str(threads)
            print(f"{variant:<11} {'oracle rerank':<22} {tag:>7} {secs:8.4f} "
                  f"{n_hyps / secs:12,.0f}")
        pairs = sum(len(h) ** 2 for h in hyps)
        secs = timed(lambda m=metric: [m.pairwise(h, h) for h in hyps], args.repeat, warm_up=True)
        print(f"{variant:<11} {'pairwise (MBR), pairs':<22} {'all':>7} {secs:8.4f} "
              f"{pairs / secs:12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
