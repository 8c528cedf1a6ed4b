"""Regenerates docs/orange_replication.md: the ORANGE tables of Lin & Och (2004) on WMT21 data.

    python scripts/replicate_orange.py            # writes docs/orange_replication.md (+ PNG)

ORANGE with 95% bootstrap intervals for every metric in METRICS on

* wmt21_ende_news: 1002 sentences, the 20 WMT21 en→de systems as the candidate list,
  3 independent references (A, C, D);
* ted21_zhen_mqm: 529 sentences, 13 zh→en systems, 2 references (A, B; English target);

and the oracle reranking of the Moses 100-best lists in moses_nbest_fren against the 1-best.
The data folder is ../shared/data next to the repository (change with --data-dir).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import mtalign
import numpy as np
from mtalign import registry
from mtalign.io import read_lines, read_nbest, read_references, read_systems

ROOT = Path(__file__).resolve().parent.parent
# shared/data next to the repository (or next to the folder holding a git worktree)
DATA_DIR = next((d / "shared" / "data" for d in (ROOT.parent, ROOT.parent.parent)
                 if (d / "shared" / "data").is_dir()), ROOT.parent / "shared" / "data")

# The metrics, as the paper's tables name them: (label, mtalign metric name, options).
# Options override registry.MetricOptions (each family's defaults: ROUGE and SIA unicode
# tokens lowercased, the baselines sacrebleu's 13a; here the baselines are lowercased too, so
# every metric sees the same case).
LOWER = {"lowercase_baselines": True}
METRICS: list[tuple[str, str, dict[str, Any]]] = [
    *[(f"BLEUS{n}", f"bleus{n}", LOWER) for n in range(1, 10)],
    ("NIST", "nist", LOWER),
    ("WER", "wer", LOWER),
    ("PER", "per", LOWER),
    ("ROUGE-L", "rougeL", {}),
    *[(f"ROUGE-W-{w / 10:.1f}", f"rougeW-{w / 10:.1f}", {}) for w in range(11, 21)],
    *[(f"ROUGE-S{d}", f"rougeS{d}", {}) for d in range(10)],
    ("ROUGE-S*", "rougeS*", {}),
    ("ROUGE-SU4", "rougeSU4", {}),
    ("DCS (char)", "dcs", {"level": "char"}),
    ("DCS (word)", "dcs", {"level": "word"}),
    ("SIA", "sia", {}),
]

DATASETS = [
    ("wmt21_ende_news", "WMT21 newstest2021 en→de", "de", ["A", "C", "D"]),
    ("ted21_zhen_mqm", "WMT21 TED zh→en (MQM test suite)", "en", ["A", "B"]),
]

# Oracle reranking: choose by each selector, measure the chosen outputs with each measure.
RERANK_SELECTORS = ["bleus4", "rougeL", "rougeW-1.2", "rougeS4", "rougeSU4", "sia"]
RERANK_MEASURES = ["bleus4", "rougeL", "rougeS4", "rougeSU4"]  # mean sentence scores
RERANK_OPTIONS = registry.MetricOptions(lowercase_baselines=True)


def load_dataset(data: Path, folder: str, lang: str,
                 ref_ids: list[str]) -> tuple[list[str], list[list[str]], list[list[str]]]:
    if not (data / folder).is_dir():
        sys.exit(f"{data / folder} not found (give the shared data folder with --data-dir)")
    sys_files = sorted((data / folder / "hyp").glob(f"*.{lang}"))
    cands = read_systems(sys_files)
    refs = read_references([data / folder / f"ref.{r}.{lang}" for r in ref_ids],
                           n_sentences=len(cands))
    return [p.stem for p in sys_files], cands, refs


def paired_worse(best: np.ndarray, other: np.ndarray, n_bootstrap: int, seed: int) -> bool:
    """Whether `other`'s per-sentence ratios are significantly above `best`'s (paired, 95%)."""
    rng = np.random.default_rng(seed)
    diff = other - best
    n = diff.size
    means = np.array([diff[rng.integers(0, n, size=n)].mean() for _ in range(n_bootstrap)])
    return bool(np.percentile(means, 2.5) > 0)


def orange_table(cands: list[list[str]], refs: list[list[str]], n_bootstrap: int,
                 seed: int) -> tuple[list[dict[str, Any]], dict[str, mtalign.OrangeResult]]:
    rows = []
    results = {}
    for label, name, opts in METRICS:
        metric, variant = registry.make_metric(name, registry.MetricOptions(**opts))
        t0 = time.perf_counter()
        res = mtalign.orange(metric, cands, refs, variant=variant, n_bootstrap=n_bootstrap,
                             seed=seed)
        seconds = time.perf_counter() - t0
        res.label = label
        results[label] = res
        rows.append({"label": label, "res": res, "seconds": seconds})
        print(f"  {label:<12} ORANGE {res.orange:.4f}  {seconds:6.2f}s", file=sys.stderr)
    best = min(rows, key=lambda r: r["res"].orange)
    ratios_best = best["res"].ranks / (best["res"].list_sizes + 1)
    for r in rows:
        ratios = r["res"].ranks / (r["res"].list_sizes + 1)
        r["best"] = r is best
        r["worse"] = (not r["best"]) and paired_worse(ratios_best, ratios, n_bootstrap, seed)
    return rows, results


def format_orange_rows(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| Method | ORANGE | 95% CI | Avg Rank | 95%-CI-L | 95%-CI-U | vs best | time (s) |",
           "|---|---:|---:|---:|---:|---:|:---:|---:|"]
    for r in rows:
        res = r["res"]
        mark = "**best**" if r["best"] else ("worse" if r["worse"] else "≈")
        label = f"**{r['label']}**" if r["best"] else r["label"]
        out.append(f"| {label} | {res.orange:.4f} | {res.ci[0]:.4f}–{res.ci[1]:.4f} | "
                   f"{res.avg_rank:.2f} | {res.rank_ci[0]:.2f} | "
                   f"{res.rank_ci[1]:.2f} | {mark} | {r['seconds']:.2f} |")
    return out


def rerank_section(data: Path) -> tuple[list[str], float]:
    folder = data / "moses_nbest_fren"
    refs = read_lines(folder / "ref.en")
    nbest = read_nbest(folder / "nbest.txt", n_sentences=len(refs))
    n_hyps = sum(len(x) for x in nbest)
    measures = {m: registry.make_metric(m, RERANK_OPTIONS) for m in RERANK_MEASURES}
    corpus_bleu = mtalign.Bleu(lowercase=True)  # sacrebleu's BLEU

    def measure(outputs: list[str]) -> list[float]:
        return [corpus_bleu.corpus_score(outputs, refs).score] + [
            float(np.mean(metric.scalar_scores(outputs, refs, variant=v)))
            for metric, v in measures.values()]

    lines = ["| selection | corpus BLEU | " + " | ".join(f"mean {m}" for m in RERANK_MEASURES)
             + " | chose the 1-best | time (s) |",
             "|---|---:|" + "---:|" * len(RERANK_MEASURES) + "---:|---:|"]
    first = [lst[0].hypothesis for lst in nbest]
    lines.append("| 1-best (decoder) | " + " | ".join(f"{x:.4f}" for x in measure(first))
                 + f" | {len(nbest)} | – |")
    total = 0.0
    for sel in RERANK_SELECTORS:
        metric, variant = registry.make_metric(sel, RERANK_OPTIONS)
        t0 = time.perf_counter()
        res = mtalign.rerank(metric, nbest, refs, variant=variant)
        seconds = time.perf_counter() - t0
        total += seconds
        lines.append(f"| oracle by {sel} | " + " | ".join(f"{x:.4f}"
                                                          for x in measure(res.hypotheses))
                     + f" | {int((res.best == 0).sum())} | {seconds:.3f} |")
    head = [f"Moses 100-best lists, fr→en Europarl, {len(nbest)} sentences, {n_hyps} "
            "hypotheses, one reference each, everything lowercased. Each row picks one "
            "hypothesis per sentence (ties: the earliest); the columns measure the picks: "
            "corpus BLEU (sacrebleu's, 13a), mean sentence BLEUS4 (0-100) and mean ROUGE "
            "F against the reference. 'oracle by bleus4' is the oracle-BLEU selection.", ""]
    return head + lines, total


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", type=Path, default=DATA_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "orange_replication.md")
    p.add_argument("--plot", type=Path, default=ROOT / "docs" / "orange_curve_wmt21_ende.png",
                   help="ORANGE vs number of systems on wmt21_ende_news ('' = none)")
    p.add_argument("--bootstrap", type=int, default=1000)
    p.add_argument("--seed", type=int, default=12345)
    args = p.parse_args(argv)

    t_start = time.perf_counter()
    md = ["# ORANGE on WMT21 data (Lin & Och 2004, Tables 2 and 4–6)", "",
          "Generated by `python scripts/replicate_orange.py` (do not edit by hand); "
          f"mtalign {mtalign.__version__}, {args.bootstrap} bootstrap resamples, seed "
          f"{args.seed}.", "",
          "ORANGE = mean over sentences of rank / (N + 1), where rank is the position of the "
          "average reference score among the N candidates (1 + better + ½ ties), each "
          "reference scored against the other references and each candidate averaged over "
          "the same leave-one-out reference sets, on 0-1 (as `mtalign orange` prints it; the "
          "paper gives percentages). Lower is better; 1/(N+1) would mean the references "
          "always come first, 0.5 is a metric that cannot tell them apart. "
          "'95% CI' is the bootstrap interval of ORANGE, '95%-CI-L/U' that of the average rank "
          "(the paper's columns). 'vs best': *worse* = significantly worse than the best row "
          "(paired bootstrap over sentences, 95%), ≈ = not significantly different.", "",
          "Metric options: BLEUS<n> = sentence BLEU up to n-grams with add-one smoothing for "
          "n ≥ 2 (Lin & Och), NIST (5-grams, information weights from the sentence's "
          "references), WER and PER (lower is better, ranked accordingly) on sacrebleu's 13a "
          "tokens, lowercased; ROUGE F-measure with β = 1, `tokenize=\"unicode\"`, "
          "lowercased, no stemming, several references combined by `multi_ref=\"max\"` "
          "(the paper's eqs. 7–9); DCS as its authors compute it (case kept), at character "
          "level and at word level; SIA with exact word matching, α = 0.35, `decay=\"figure\"`, "
          "unicode tokens, lowercased.", ""]
    results_ende: dict[str, mtalign.OrangeResult] = {}
    for folder, title, lang, ref_ids in DATASETS:
        names, cands, refs = load_dataset(args.data_dir, folder, lang, ref_ids)
        print(f"{folder}: {len(cands)} sentences, {len(names)} systems", file=sys.stderr)
        t0 = time.perf_counter()
        rows, results = orange_table(cands, refs, args.bootstrap, args.seed)
        seconds = time.perf_counter() - t0
        if folder == "wmt21_ende_news":
            results_ende = results
        md += [f"## {title} (`{folder}`)", "",
               f"{len(cands)} sentences; the list of each sentence = the outputs of the "
               f"{len(names)} systems ({', '.join(names)}); references "
               f"{', '.join(ref_ids)}. Table computed in {seconds:.1f} s.", ""]
        md += format_orange_rows(rows)
        md.append("")
    md += ["## Oracle reranking of Moses 100-best lists (`moses_nbest_fren`)", ""]
    rr_lines, rr_seconds = rerank_section(args.data_dir)
    md += rr_lines
    md += ["", "ORANGE itself cannot be computed on this set: it has one reference per "
           "sentence, and ORANGE needs at least two (each reference is scored against the "
           "others).", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.plot and str(args.plot) and results_ende:
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        labels = ["BLEUS4", "PER", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-S*",
                  "ROUGE-SU4", "DCS (char)", "SIA"]
        curves = [results_ende[k].curve() for k in labels if k in results_ende]
        try:
            from mtalign.ranking.orange import plot_curves

            plot_curves(curves, path=str(args.plot),
                        title="ORANGE vs number of systems in the list (WMT21 en→de)")
            md += [f"![ORANGE vs list length]({args.plot.name})", "",
                   "The curve takes the first N systems in alphabetical order as the list (a "
                   "system list has no natural order, unlike an n-best list).", ""]
        except ImportError as e:
            print(f"no plot: {e}", file=sys.stderr)
    md.append(f"Total time: {time.perf_counter() - t_start:.1f} s "
              f"(reranking {rr_seconds:.2f} s).")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(md) + "\n"
    if args.out.exists():
        old = args.out.read_text(encoding="utf-8")
        marker = "\n## Comparison with the paper"
        if marker in old:  # keep the hand-written discussion below the generated part
            text += old[old.index(marker):]
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
