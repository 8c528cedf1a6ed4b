"""Throughput of the compatibility profiles with stemming, against rouge-score and rouge-score-rs.

Corpus (``--corpus``): ``distinct`` (default; ``corpus.py``): the first ``--pairs`` (default
20,000) pairs of the distinct-hypothesis corpus, every distinct system output of the
English-target sets once as a hypothesis against a reference of its segment; or ``repeated``
(the former corpus, labelled "repeated text (measures deduplication)"): the WMT21 de-en system
outputs (19 systems) against reference A, cycled to ``--pairs`` pairs; identical outputs of
different systems repeat, and mtalign tokenizes and stems each distinct text once per call.
Variants rouge1, rouge2, rougeL (what every tool computes). Each measurement is the median
of ``--repeat`` timed runs after one warm-up; rouge-score (pure Python) runs on an evenly
spaced subset of ``--peer-pairs`` pairs and its pairs/s is extrapolated (rows marked ``*``).

Rows: mtalign ``Rouge(..., compat="rouge155")`` and ``compat="rouge_score"``, stemmed and not,
with all cores and with 1 thread; rouge-score ``RougeScorer(use_stemmer=...)`` in a loop;
rouge-score-rs ``score_batch`` (Rayon, all cores). Printed ratios: mtalign against each peer
(same stemming, same run), and the cost of stemming (unstemmed / stemmed throughput).

    python benches/bench_compat.py [--pairs 20000] [--repeat 3] [--data-dir ../shared/data]
    python benches/bench_compat.py --corpus repeated     # the former corpus

A script, not a test: it prints a table and exits 0.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import corpus as corpora
from _common import machine_info, read_lines, score_column, timed

TYPES = ["rouge1", "rouge2", "rougeL"]
ROOT = Path(__file__).resolve().parents[1]


def repeated_corpus(data_dir: Path, n: int) -> tuple[list[str], list[str]]:
    """The former corpus: WMT21 de-en outputs of 19 systems against reference A, cycled."""
    base = data_dir / "wmt21_deen_news"
    ref = read_lines(base / "ref.A.en")
    hyps: list[str] = []
    refs: list[str] = []
    for path in sorted((base / "hyp").glob("*.en")):
        hyps += read_lines(path)
        refs += ref
    k = (n + len(hyps) - 1) // len(hyps)
    return (hyps * k)[:n], (refs * k)[:n]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", type=int, default=20_000)
    p.add_argument("--corpus", choices=("distinct", "repeated"), default="distinct",
                   help="distinct hypotheses (default) or the former repeated-text corpus")
    p.add_argument("--peer-pairs", type=int, default=3_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    p.add_argument("--json", type=Path, help="also write the rows here")
    args = p.parse_args()

    import mtalign

    if args.corpus == "distinct":
        chosen = corpora.distinct_pairs(args.data_dir, args.pairs)
    else:
        rh, rr = repeated_corpus(args.data_dir, args.pairs)
        chosen = corpora.Corpus("repeated", corpora.REPEATED_LABEL, rh, rr,
                                notes=["WMT21 de-en, 19 systems vs ref A (19,000 real pairs), "
                                       "cycled"])
    hyps, refs = chosen.hyps, chosen.refs
    step = max(1, len(hyps) // args.peer_pairs)
    sub_h, sub_r = hyps[::step][: args.peer_pairs], refs[::step][: args.peer_pairs]
    rows: list[dict[str, Any]] = []

    def record(tool: str, mode: str, stem: bool, n: int, fn: Callable[[], Any],
               mean_f: Callable[[Any], float], extrapolated: bool = False) -> None:
        fn()  # warm-up (and first-call costs such as loading the exception list)
        t = timed(fn, args.repeat)
        out = t.result
        rows.append({"tool": tool, "mode": mode, "stem": stem, "pairs": n, "seconds": t,
                     "pairs_per_s": n / t, "mean_rougeL_F": mean_f(out),
                     "extrapolated": extrapolated})

    def mt_mean(out: Any) -> float:
        return float(score_column(out, "rougeL").mean())

    for compat in ("rouge155", "rouge_score"):
        for stem in (False, True):
            r = mtalign.Rouge(TYPES, compat=compat, stem=stem)
            for threads in (None, 1):
                label = f'compat="{compat}", threads={"all" if threads is None else 1}'
                record("mtalign", label, stem, len(hyps),
                       lambda r=r, t=threads: r.batch_score(hyps, refs, threads=t), mt_mean)

    try:
        from rouge_score import rouge_scorer

        for stem in (False, True):
            sc = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
            record("rouge-score", "RougeScorer.score loop", stem, len(sub_h),
                   lambda sc=sc: list(map(sc.score, sub_r, sub_h)),
                   lambda out: statistics.fmean(s["rougeL"].fmeasure for s in out), True)
    except ImportError:
        print("rouge-score not installed: skipped")
    try:
        from rouge_score_rs import RougeScorer

        for stem in (False, True):
            sc = RougeScorer(TYPES, use_stemmer=stem)
            record("rouge-score-rs", "score_batch (Rayon, all cores)", stem, len(hyps),
                   lambda sc=sc: sc.score_batch(refs, hyps),
                   lambda out: statistics.fmean(s["rougeL"].fmeasure for s in out))
    except ImportError:
        print("rouge-score-rs not installed: skipped")

    info = machine_info(["mtalign", "rouge-score", "rouge-score-rs", "nltk"])
    for line in chosen.describe():
        print(f"# {line}")
    print(f"# {TYPES}, median of {args.repeat}; {info['nproc']} cores, {info['cpu']}")
    print(f"# versions: {info['versions']}\n")
    head = f"{'tool':<15} {'mode':<38} {'stem':<5} {'pairs/s':>12} {'mean rougeL F':>14}"
    print(head)
    print("-" * len(head))
    for row in rows:
        star = "*" if row["extrapolated"] else " "
        print(f"{row['tool']:<15} {row['mode']:<38} {'yes' if row['stem'] else 'no':<5} "
              f"{row['pairs_per_s']:>11,.0f}{star} {row['mean_rougeL_F']:>14.6f}")

    def find(tool: str, stem: bool, mode_part: str = "") -> dict[str, Any] | None:
        return next((r for r in rows if r["tool"] == tool and r["stem"] == stem
                     and mode_part in r["mode"]), None)

    print("\nratios (pairs/s of mtalign / pairs/s of the peer, same stemming):")
    for compat in ("rouge155", "rouge_score"):
        for stem in (False, True):
            ours = find("mtalign", stem, f'"{compat}", threads=all')
            ours1 = find("mtalign", stem, f'"{compat}", threads=1')
            for peer in ("rouge-score", "rouge-score-rs"):
                theirs = find(peer, stem)
                if ours and theirs:
                    print(f"  compat={compat:<11} stem={'yes' if stem else 'no ':<3}  vs {peer:<15}"
                          f" all cores {ours['pairs_per_s'] / theirs['pairs_per_s']:8.1f}x"
                          f"   1 thread {ours1['pairs_per_s'] / theirs['pairs_per_s']:8.1f}x"
                          if ours1 else "")
    print("\ncost of stemming (unstemmed pairs/s / stemmed pairs/s; the bar is <= 2):")
    for compat in ("rouge155", "rouge_score"):
        for threads in ("all", "1"):
            a = find("mtalign", False, f'"{compat}", threads={threads}')
            b = find("mtalign", True, f'"{compat}", threads={threads}')
            if a and b:
                print(f"  mtalign compat={compat:<11} threads={threads:<3}  "
                      f"{a['pairs_per_s'] / b['pairs_per_s']:.2f}x")
    for peer in ("rouge-score", "rouge-score-rs"):
        a, b = find(peer, False), find(peer, True)
        if a and b:
            print(f"  {peer:<37}  {a['pairs_per_s'] / b['pairs_per_s']:.2f}x")
    rs = find("rouge-score", True)
    ms = find("mtalign", True, '"rouge_score", threads=all')
    if rs and ms:
        sub = mtalign.Rouge(TYPES, compat="rouge_score", stem=True).batch_score(sub_h, sub_r)
        same = abs(float(score_column(sub, "rougeL").mean()) - rs["mean_rougeL_F"]) <= 1e-12
        print(f"\nmean rougeL F on rouge-score's subset equal to rouge-score's: {same}")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
