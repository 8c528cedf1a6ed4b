#!/usr/bin/env python3
"""Throughput benchmark: mtalign's Rouge.batch_score against other ROUGE packages.

Runs on three English corpora of real MT (hypothesis, reference) pairs (``corpus.py``):

* ``distinct`` (the headline): every distinct system output of every English-target set of
  ``shared/data``, each once as a hypothesis, against a reference of its segment (up to
  ``--pairs``; the data holds fewer than 100,000: the header says how many);
* ``strict``: no text occurs twice anywhere (texts of a segment paired with each other);
* ``repeated``: the former corpus, WMT21 de-en and TED zh-en outputs against each reference
  cycled to ``--pairs``: texts repeat, and mtalign tokenizes each distinct text once per call,
  so this table measures that deduplication (labelled so).

On each corpus it times, in the same run:

* mtalign ``Rouge(...).batch_score`` for each variant on its own ``Rouge`` object and for
  several variants on one object, with ``threads=None`` (all cores) and ``threads=1``;
* rouge-score 0.1.2 (pure Python; ``RougeScorer.score`` in a loop: it has no batch API);
* rouge-score-rs (Rust; ``RougeScorer.score_batch``, parallel with Rayon);
* rouge-rust (Rust, imported as ``fast_rouge``; ``score_batch_flat``, parallel with Rayon);
* rouge-metric (pure Python ``PyRouge``; the only peer with ROUGE-W, -S and -SU).

Each peer runs in a child process of its own, so that Rayon's global thread pool can be sized
with ``RAYON_NUM_THREADS`` (it is read once per process) and peers cannot disturb each other.
The slow pure-Python peers run on an evenly spaced subset of ``--peer-pairs`` pairs; their
pairs/s is then the rate measured on that subset (marked ``*`` in the table).

Usage (from the repository root)::

    pip install -e ".[bench]"
    python benches/bench_rouge.py                      # everything, ~5 minutes on 2 cores
    python benches/bench_rouge.py --peers rouge-score-rs,rouge-rust --variants rougeL
    python benches/bench_rouge.py --json bench.json    # also write the figures as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
from _common import machine_info, score_column, timed  # noqa: E402

DEFAULT_DATA_DIR = corpora.DEFAULT_DATA_DIR
HEADLINE = "distinct"  # the corpus of the headline rows and the targets

# Variant groups: one variant per group, then several variants on one object.
SINGLE_VARIANTS = ("rougeL", "rougeW-1.2", "rougeS4", "rougeSU4", "rouge1", "rouge2")
GROUPS: dict[str, tuple[str, ...]] = {v: (v,) for v in SINGLE_VARIANTS}
GROUPS["rouge1+rouge2+rougeL"] = ("rouge1", "rouge2", "rougeL")
GROUPS["all6"] = SINGLE_VARIANTS  # all six variants on one object

PEERS = ("rouge-score", "rouge-score-rs", "rouge-rust", "rouge-metric")
PEER_MODULES = {
    "rouge-score": "rouge_score",
    "rouge-score-rs": "rouge_score_rs",
    "rouge-rust": "fast_rouge",
    "rouge-metric": "rouge_metric",
}
SLOW_PEERS = ("rouge-score", "rouge-metric")  # pure Python: run on --peer-pairs pairs
RAYON_PEERS = ("rouge-score-rs", "rouge-rust")  # Rayon: run with all cores and with 1 thread
DIST_NAMES = ("mtalign", "numpy", *PEERS, "nltk")

RESULT_MARK = "@@BENCH-RESULT@@ "
SANITY_TOOLS = ("mtalign", "rouge-score", "rouge-metric")

TOKENIZATION_NOTES = (
    ("mtalign", 'tokenize="unicode", lowercase=True (letters/digits/marks of any script)'),
    ("rouge-score, rouge-score-rs (default), rouge-rust", "lowercase, runs of ASCII [a-z0-9]"),
    ("rouge-score-rs UnicodeTokenizer", "UAX #29 words after NFKC + case folding"),
    (
        "rouge-metric",
        "lowercase + regex [^\\W_]+ given as tokenizer (close to mtalign's unicode; "
        "its own default is str.split without lowercasing)",
    ),
)


# --------------------------------------------------------------------------------------------
# Corpus


def build_corpus(name: str, data_dir: Path, n_pairs: int) -> corpora.Corpus:
    return corpora.build(name, data_dir, n_pairs)


subset_indices = corpora.subset_indices


# --------------------------------------------------------------------------------------------
# Timing


def measure(
    group: str,
    tool: str,
    mode: str,
    threads: str,
    n: int,
    make_run: Callable[[int], Callable[[], Any]],
    mean_f: Callable[[Any], float | None],
    repeat: int,
    subset: bool = False,
) -> dict[str, Any]:
    """Time ``make_run(n)()``; ``make_run(k)`` must build a run over the first k pairs."""
    row = {
        "group": group,
        "tool": tool,
        "mode": mode,
        "threads": threads,
        "pairs": n,
        "subset": subset,
        "seconds": None,
        "pairs_per_s": None,
        "mean_f": None,
        "error": None,
    }
    try:
        make_run(min(n, 500))()  # warm-up: imports, caches, thread pool start
        seconds = timed(make_run(n), repeat)
        result = seconds.result
        row["seconds"] = seconds
        row["pairs_per_s"] = n / seconds if seconds > 0 else float("inf")
    except Exception as exc:  # noqa: BLE001 - report and go on with the other measurements
        row["error"] = f"{type(exc).__name__}: {exc}"
        return row
    try:
        row["mean_f"] = mean_f(result)
    except Exception:  # noqa: BLE001 - the mean is a sanity figure only
        row["mean_f"] = None
    return row


def primary_variant(group: str) -> str:
    variants = GROUPS[group]
    return "rougeL" if "rougeL" in variants else variants[0]


# --------------------------------------------------------------------------------------------
# mtalign (in this process)


def mtalign_rows(
    mtalign: Any,
    corpus: corpora.Corpus,
    groups: list[str],
    repeat: int,
    ncpu: int,
) -> list[dict[str, Any]]:
    hyps, refs = corpus.hyps, corpus.refs
    rows: list[dict[str, Any]] = []
    for group in groups:
        variants = list(GROUPS[group])
        key = primary_variant(group)
        mode = "Rouge.batch_score" + ("" if len(variants) == 1 else f" ({len(variants)} on 1 obj)")

        def mean_f(out: Any, key: str = key) -> float | None:
            return float(score_column(out, key).mean())

        try:
            rouge = mtalign.Rouge(variants, tokenize="unicode", lowercase=True)
        except Exception as exc:  # noqa: BLE001
            for threads in (f"all ({ncpu})", "1"):
                rows.append(
                    {
                        "corpus": corpus.name,
                        "group": group,
                        "tool": "mtalign",
                        "mode": mode,
                        "threads": threads,
                        "pairs": len(hyps),
                        "subset": False,
                        "seconds": None,
                        "pairs_per_s": None,
                        "mean_f": None,
                        "error": f"{type(exc).__name__}: {exc}",
                    }
                )
            continue
        for threads, label in ((None, f"all ({ncpu})"), (1, "1")):

            def make_run(k: int, rouge: Any = rouge, threads: int | None = threads) -> Callable:
                h, r = (hyps, refs) if k == len(hyps) else (hyps[:k], refs[:k])
                return lambda: rouge.batch_score(h, r, threads=threads)

            row = measure(group, "mtalign", mode, label, len(hyps), make_run, mean_f, repeat)
            rows.append({"corpus": corpus.name, **row})
    return rows


def mtalign_mean_fs(mtalign: Any, hyps: list[str], refs: list[str]) -> dict[str, float | None]:
    """Mean F of each single variant over the given pairs (for the sanity check)."""
    means: dict[str, float | None] = {}
    for variant in SINGLE_VARIANTS:
        try:
            rouge = mtalign.Rouge([variant], tokenize="unicode", lowercase=True)
            means[variant] = float(score_column(rouge.batch_score(hyps, refs), variant).mean())
        except Exception:  # noqa: BLE001
            means[variant] = None
    return means


# --------------------------------------------------------------------------------------------
# Peers (each in a child process: see worker_main)


def peer_jobs(peer: str, groups: list[str]) -> list[tuple[str, str, Callable, Callable]]:
    """(group, mode, make_fn, mean_f) for each measurement; make_fn(hyps, refs) -> run()."""
    jobs: list[tuple[str, str, Callable, Callable]] = []
    std_groups = [g for g in groups if set(GROUPS[g]) <= {"rouge1", "rouge2", "rougeL"}]

    if peer == "rouge-score":
        from rouge_score import rouge_scorer

        for group in std_groups:
            scorer = rouge_scorer.RougeScorer(list(GROUPS[group]), use_stemmer=False)
            key = primary_variant(group)

            def make(h: list[str], r: list[str], scorer: Any = scorer) -> Callable:
                return lambda: list(map(scorer.score, r, h))  # score(target, prediction)

            def mean_f(res: Any, key: str = key) -> float:
                return statistics.fmean(s[key].fmeasure for s in res)

            jobs.append((group, "RougeScorer.score loop", make, mean_f))

    elif peer == "rouge-score-rs":
        from rouge_score_rs import RougeScorer
        from rouge_score_rs.tokenizers import UnicodeTokenizer

        configs = [(g, None, "RougeScorer.score_batch") for g in std_groups]
        if "rougeL" in groups:
            configs.append(("rougeL", UnicodeTokenizer(), "score_batch, UnicodeTokenizer"))
        for group, tokenizer, mode in configs:
            scorer = RougeScorer(list(GROUPS[group]), use_stemmer=False, tokenizer=tokenizer)
            key = primary_variant(group)

            def make(h: list[str], r: list[str], scorer: Any = scorer) -> Callable:
                return lambda: scorer.score_batch(r, h)

            def mean_f(res: Any, key: str = key) -> float:
                return statistics.fmean(s[key].fmeasure for s in res)

            jobs.append((group, mode, make, mean_f))

    elif peer == "rouge-rust":
        import fast_rouge

        for group in std_groups:
            # score_batch_flat always computes rouge1, rouge2 and rougeL; fetching the
            # group's columns (as Python lists) is part of the timed run.
            cols = [f"{v}_{m}" for v in GROUPS[group] for m in ("precision", "recall", "fmeasure")]
            key = primary_variant(group)

            def make(h: list[str], r: list[str], cols: list[str] = cols) -> Callable:
                def run() -> dict[str, list[float]]:
                    flat = fast_rouge.score_batch_flat(r, h)
                    return {c: getattr(flat, c) for c in cols}

                return run

            def mean_f(res: Any, key: str = key) -> float:
                return statistics.fmean(res[f"{key}_fmeasure"])

            jobs.append((group, "score_batch_flat (always 1+2+L)", make, mean_f))

    elif peer == "rouge-metric":
        from rouge_metric import PyRouge

        word = re.compile(r"[^\W_]+")

        def tokenize(sentence: str) -> list[str]:
            return word.findall(sentence.lower())

        names = {
            "rouge1": "rouge-1",
            "rouge2": "rouge-2",
            "rougeL": "rouge-l",
            "rougeW-1.2": "rouge-w-1.2",
            "rougeS4": "rouge-s4",
            "rougeSU4": "rouge-su4",
        }
        for group in groups:
            variants = GROUPS[group]
            options = {
                "rouge_n": tuple(int(v[-1]) for v in variants if v in ("rouge1", "rouge2")),
                "rouge_l": "rougeL" in variants,
                "rouge_w": "rougeW-1.2" in variants,
                "rouge_w_weight": 1.2,
                "rouge_s": "rougeS4" in variants,
                "rouge_su": "rougeSU4" in variants,
                "skip_gap": 4,  # max. 4 words between the two words of a skip-bigram
                "mode": "individual",  # one score per pair, like batch_score
            }
            py_rouge = PyRouge(**options)
            key = names[primary_variant(group)]

            def make(h: list[str], r: list[str], py_rouge: Any = py_rouge) -> Callable:
                multi_refs = [[x] for x in r]
                return lambda: py_rouge.evaluate(h, multi_refs, tokenizer=tokenize)

            def mean_f(res: Any, key: str = key) -> float:
                return statistics.fmean(s[key]["f"] for s in res)

            jobs.append((group, "PyRouge.evaluate(mode=individual)", make, mean_f))
    else:
        raise ValueError(f"unknown peer {peer}")
    return jobs


def worker_main(args: argparse.Namespace) -> None:
    """Child process: time one peer on the corpus, print the rows as JSON."""
    peer = args.worker
    threads = os.environ.get("RAYON_NUM_THREADS")
    ncpu = os.cpu_count() or 1
    label = "1" if peer in SLOW_PEERS else (f"all ({ncpu})" if threads is None else threads)
    corpus = build_corpus(args.corpus, args.data_dir, args.pairs)
    hyps, refs = corpus.hyps, corpus.refs
    subset = peer in SLOW_PEERS and 0 < args.peer_pairs < len(hyps)
    if subset:
        idx = subset_indices(len(hyps), args.peer_pairs)
        hyps = [hyps[i] for i in idx]
        refs = [refs[i] for i in idx]
    rows = []
    for group, mode, make_fn, mean_f in peer_jobs(peer, args.variants):

        def make_run(k: int, make_fn: Callable = make_fn) -> Callable:
            return make_fn(hyps[:k], refs[:k]) if k < len(hyps) else make_fn(hyps, refs)

        row = measure(
            group, peer, mode, label, len(hyps), make_run, mean_f, args.repeat, subset=subset
        )
        rows.append({"corpus": corpus.name, **row})
    print(RESULT_MARK + json.dumps(rows), flush=True)


def run_peer(
    peer: str, threads: int | None, corpus: str, args: argparse.Namespace
) -> list[dict[str, Any]]:
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        peer,
        "--corpus",
        corpus,
        "--data-dir",
        str(args.data_dir),
        "--pairs",
        str(args.pairs),
        "--peer-pairs",
        str(args.peer_pairs),
        "--repeat",
        str(args.repeat),
        "--variants",
        ",".join(args.variants),
    ]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK) :])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
    return [
        {
            "corpus": corpus,
            "group": "*",
            "tool": peer,
            "mode": "-",
            "threads": str(threads or "all"),
            "pairs": 0,
            "subset": False,
            "seconds": None,
            "pairs_per_s": None,
            "mean_f": None,
            "error": f"worker exited {proc.returncode}: {tail[0]}",
        }
    ]


# --------------------------------------------------------------------------------------------
# Report


def is_importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def fmt_ratio(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.1f}x" if x < 100 else f"{x:,.0f}x"


def print_table(headers: list[str], rows: list[list[str]], right: set[int]) -> None:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)
    ]

    def line(cells: list[str]) -> str:
        out = [cells[i].rjust(w) if i in right else cells[i].ljust(w) for i, w in enumerate(widths)]
        return "  ".join(out).rstrip()

    print(line(headers))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def best(
    rows: list[dict[str, Any]],
    group: str,
    tool: str,
    threads: str | None = None,
    corpus: str = HEADLINE,
) -> dict[str, Any] | None:
    """The fastest successful row of ``tool`` for ``group`` on ``corpus`` (optionally: only
    these threads)."""
    found = [
        r
        for r in rows
        if r["corpus"] == corpus
        and r["group"] == group
        and r["tool"] == tool
        and r["pairs_per_s"] is not None
        and (threads is None or r["threads"] == threads)
    ]
    return max(found, key=lambda r: r["pairs_per_s"], default=None)


def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
    if a is None or b is None:
        return None
    return a["pairs_per_s"] / b["pairs_per_s"]


def throughput_table(rows: list[dict[str, Any]], name: str, args: argparse.Namespace) -> None:
    table = []
    for group in args.variants:
        for r in (r for r in rows if r["corpus"] == name and r["group"] == group):
            pairs = f"{r['pairs']:,}" + ("*" if r["subset"] else "")
            if r["error"]:
                cells = ["-", "error: " + r["error"][:70], "-"]
            else:
                mean_f = "-" if r["mean_f"] is None else f"{r['mean_f']:.4f}"
                cells = [f"{r['seconds']:.3f}", fmt_rate(r["pairs_per_s"]), mean_f]
            table.append([group, r["tool"], r["mode"], r["threads"], pairs, *cells])
    for r in rows:
        if r["corpus"] == name and r["group"] == "*":
            table.append(
                ["*", r["tool"], "-", r["threads"], "-", "-", "error: " + r["error"][:70], "-"]
            )
    print_table(
        ["variant", "tool", "mode", "threads", "pairs", "median s", "pairs/s", "mean F"],
        table,
        right={4, 5, 6, 7},
    )


def ratio_table(rows: list[dict[str, Any]], name: str, args: argparse.Namespace) -> list[dict]:
    ratio_rows = []
    ratios = []
    for group in args.variants:
        m_best = best(rows, group, "mtalign", corpus=name)
        m_one = best(rows, group, "mtalign", threads="1", corpus=name)
        for peer in PEERS:
            p_best = best(rows, group, peer, corpus=name)
            if p_best is None:
                continue
            p_one = best(rows, group, peer, threads="1", corpus=name)
            r_best, r_one = ratio(m_best, p_best), ratio(m_one, p_one)
            ratios.append(
                {
                    "corpus": name,
                    "group": group,
                    "peer": peer,
                    "peer_mode": p_best["mode"],
                    "best_vs_best": r_best,
                    "one_vs_one": r_one,
                }
            )
            ratio_rows.append(
                [
                    group,
                    peer,
                    f"{p_best['mode']} [{p_best['threads']}]",
                    fmt_ratio(r_best),
                    fmt_ratio(r_one),
                ]
            )
    if ratio_rows:
        print_table(
            ["variant", "peer", "peer's fastest mode [threads]", "best/best", "1 thr/1 thr"],
            ratio_rows,
            right={3, 4},
        )
    else:
        print("(no ratios: mtalign or every peer missing)")
    return ratios


def report(
    rows: list[dict[str, Any]],
    args: argparse.Namespace,
    info: dict[str, Any],
    corpus_info: dict[str, corpora.Corpus],
    skipped: dict[str, str],
    sanity: dict[str, Any],
) -> dict[str, Any]:
    ncpu = info["nproc"]
    ratios: list[dict[str, Any]] = []
    for k, name in enumerate(args.corpora):
        corpus = corpus_info[name]
        role = (
            "HEADLINE"
            if name == HEADLINE
            else ("second table" if name == "strict" else "repeated text, not a headline figure")
        )
        print(
            f"\n== Table {k + 1} ({role}): {corpus.label}, {len(corpus):,} pairs "
            f"(median of {args.repeat} runs; pairs/s = pairs / median seconds)"
        )
        throughput_table(rows, name, args)
        print(
            f"\n   Ratios mtalign / peer on the {name} corpus (pairs/s; 'best' = fastest mode of "
            f"each, '1 thr' = one thread each; pure-Python peers always run on 1 thread)"
        )
        ratios += ratio_table(rows, name, args)
    if any(r["subset"] for r in rows):
        print(
            f"\n* run on an evenly spaced subset of {args.peer_pairs:,} pairs of its corpus "
            "(--peer-pairs); pairs/s is the rate on that subset."
        )
    if args.slow_peers == "headline" and len(args.corpora) > 1:
        print(
            f"The pure-Python peers ({', '.join(SLOW_PEERS)}) run on the {HEADLINE} corpus only "
            "(--slow-peers all: on every corpus)."
        )
    print(
        "mean F: mean F-measure over the pairs that row ran (rougeL for the multi-variant rows)."
    )
    print("Tokenization:")
    for tool, note in TOKENIZATION_NOTES:
        print(f"  {tool}: {note}")
    for name, why in skipped.items():
        print(f"  {name}: {why}, skipped")

    # What the repeated texts are worth to mtalign
    if "repeated" in args.corpora and HEADLINE in args.corpora:
        print(
            "\n== Deduplication: mtalign's pairs/s on the repeated-text corpus / on the "
            f"{HEADLINE} corpus (fastest mode; > 1 = repeated text inflates the figure)"
        )
        dedup_rows = []
        for group in args.variants:
            rep_row = best(rows, group, "mtalign", corpus="repeated")
            dis_row = best(rows, group, "mtalign", corpus=HEADLINE)
            if rep_row and dis_row:
                dedup_rows.append(
                    [
                        group,
                        fmt_rate(rep_row["pairs_per_s"]),
                        fmt_rate(dis_row["pairs_per_s"]),
                        fmt_ratio(ratio(rep_row, dis_row)),
                    ]
                )
        if dedup_rows:
            print_table(
                ["variant", "repeated pairs/s", f"{HEADLINE} pairs/s", "repeated/distinct"],
                dedup_rows,
                right={1, 2, 3},
            )

    # Targets
    print(
        f"\n== Targets (issue 12 acceptance; on the {HEADLINE} corpus, "
        f"{len(corpus_info[HEADLINE]) if HEADLINE in corpus_info else 0:,} pairs)"
    )
    targets = []

    def target(name: str, value: float | None, goal: float, unit: str, note: str = "") -> None:
        status = "n/a" if value is None else ("MET" if value >= goal else "NOT MET")
        shown = "-" if value is None else (fmt_ratio(value) if unit == "x" else fmt_rate(value))
        goal_s = f">= {fmt_ratio(goal)}" if unit == "x" else f">= {fmt_rate(goal)} pairs/s"
        targets.append({"target": name, "value": value, "goal": goal, "status": status})
        print(f"  {name:<60} {shown:>12}  ({goal_s})  {status}{note}")

    m_l = best(rows, "rougeL", "mtalign")
    rust_peers = [p for p in (best(rows, "rougeL", t) for t in RAYON_PEERS) if p is not None]
    faster = max(rust_peers, key=lambda r: r["pairs_per_s"], default=None)
    which = "" if faster is None else f"  [faster peer: {faster['tool']}, {faster['mode']}]"
    target(
        "ROUGE-L vs the faster of rouge-score-rs and rouge-rust",
        ratio(m_l, faster),
        4.0,
        "x",
        which,
    )
    for group in ("rougeW-1.2", "rougeS4", "rougeSU4"):
        target(
            f"{group} vs rouge-metric",
            ratio(best(rows, group, "mtalign"), best(rows, group, "rouge-metric")),
            200.0,
            "x",
        )
    core_note = "" if ncpu == 2 else f"  [this machine has {ncpu} cores, the target is for 2]"
    m_l_all = best(rows, "rougeL", "mtalign", threads=f"all ({ncpu})")
    target(
        f"(earlier target) ROUGE-L pairs/s, threads=None on {ncpu} cores",
        None if m_l_all is None else m_l_all["pairs_per_s"],
        1e6,
        "pairs/s",
        core_note,
    )

    # Sanity check
    print(f"\n== Sanity check: mean F on the same {sanity['pairs']:,} pairs (no assertion)")
    sanity_rows = []
    for variant, means in sanity["mean_f"].items():
        if any(v is not None for v in means.values()):
            sanity_rows.append(
                [variant]
                + ["-" if means.get(t) is None else f"{means[t]:.4f}" for t in SANITY_TOOLS]
            )
    if sanity_rows:
        print_table(["variant", *SANITY_TOOLS], sanity_rows, right={1, 2, 3})
    else:
        print("  (nothing to compare)")
    print(
        "  rougeL: mtalign and rouge-score tokenize differently (rouge-score keeps only ASCII\n"
        "  [a-z0-9] runs), so their means are close, not equal. rouge-metric follows ROUGE-1.5.5\n"
        "  (ROUGE-W recall weights the reference length twice; SU counts the unigrams of all\n"
        "  tokens but the last) where mtalign's compat='paper' follows Lin & Och (2004): W and\n"
        "  SU4 differ by design."
    )
    return {"ratios": ratios, "targets": targets}


# --------------------------------------------------------------------------------------------
# Main


def parse_list(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    if value.strip().lower() == "all":
        return list(allowed)
    if value.strip().lower() == "none":
        return []
    items = [v.strip() for v in value.split(",") if v.strip()]
    bad = [v for v in items if v not in allowed]
    if bad:
        raise argparse.ArgumentTypeError(
            f"unknown {what}: {', '.join(bad)} (choose from: {', '.join(allowed)}, all, none)"
        )
    return items


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="folder holding the English-target sets (default: %(default)s)",
    )
    ap.add_argument(
        "--corpora",
        default="all",
        type=lambda v: parse_list(v, corpora.CORPORA, "corpus"),
        help="comma-separated corpora, in table order (from: distinct (headline), strict, "
        "repeated; default: all)",
    )
    ap.add_argument(
        "--pairs",
        type=int,
        default=corpora.DEFAULT_PAIRS,
        help="pairs per corpus: at most this many for distinct and strict (the data may hold "
        "fewer), exactly this many for repeated (default: %(default)s)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs per measurement; the median is reported (default: %(default)s)",
    )
    ap.add_argument(
        "--peers",
        default="all",
        type=lambda v: parse_list(v, PEERS, "peer"),
        help=f"comma-separated peers to run, or all/none (from: {', '.join(PEERS)})",
    )
    ap.add_argument(
        "--peer-pairs",
        type=int,
        default=10_000,
        help="pairs for the slow pure-Python peers (rouge-score, rouge-metric), an "
        "evenly spaced subset of the corpus; 0 = all (default: %(default)s)",
    )
    ap.add_argument(
        "--slow-peers",
        choices=("headline", "all"),
        default="headline",
        help="corpora the pure-Python peers run on: the headline (distinct) corpus only, or "
        "all (default: %(default)s)",
    )
    ap.add_argument(
        "--variants",
        default="all",
        type=lambda v: parse_list(v, tuple(GROUPS), "variant"),
        help=f"comma-separated variant groups, or all (from: {', '.join(GROUPS)})",
    )
    ap.add_argument("--json", metavar="OUT", type=Path, help="also write the figures to OUT")
    ap.add_argument("--worker", choices=PEERS, help=argparse.SUPPRESS)
    ap.add_argument("--corpus", choices=corpora.CORPORA, default=HEADLINE, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.pairs < 1 or args.repeat < 1:
        ap.error("--pairs and --repeat must be positive")
    if not args.corpora:
        ap.error("--corpora: choose at least one corpus")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        worker_main(args)
        return 0

    info = machine_info(DIST_NAMES)
    ncpu = info["nproc"]
    print("== mtalign ROUGE throughput benchmark")
    print(f"machine: {ncpu} usable cores (os.cpu_count()={info['cpu_count']}), {info['cpu']}")
    print(f"         {info['platform']}, {info['python']}")
    if info["RAYON_NUM_THREADS"]:
        print(
            f"         note: RAYON_NUM_THREADS={info['RAYON_NUM_THREADS']} is set; it is "
            "removed for the peers' all-core runs"
        )
    if info["MTALIGN_NUM_THREADS"]:
        print(
            f"         note: MTALIGN_NUM_THREADS={info['MTALIGN_NUM_THREADS']} is set; "
            "mtalign's threads=None follows it"
        )
    print(
        "packages: " + ", ".join(f"{d} {v or 'not installed'}" for d, v in info["versions"].items())
    )
    print(f"data:    {args.data_dir}")

    corpus_info: dict[str, corpora.Corpus] = {}
    for name in args.corpora:
        corpus = build_corpus(name, args.data_dir, args.pairs)
        corpus_info[name] = corpus
        for line in corpus.describe():
            print(f"corpus:  {line}" if not line.startswith(" ") else f"       {line}")
    sanity_name = HEADLINE if HEADLINE in corpus_info else args.corpora[0]
    sanity_corpus = corpus_info[sanity_name].subset(args.peer_pairs)
    print(
        f"timing:  median of {args.repeat} runs after one warm-up run on 500 pairs; "
        "garbage collector off while timing; peers in child processes"
    )
    sys.stdout.flush()

    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    sanity: dict[str, Any] = {
        "corpus": sanity_name,
        "pairs": len(sanity_corpus),
        "mean_f": {v: dict.fromkeys(SANITY_TOOLS) for v in SINGLE_VARIANTS if v in args.variants},
    }

    try:
        import mtalign
    except ImportError as exc:
        mtalign = None
        skipped["mtalign"] = f"not installed ({exc})"
    if mtalign is not None:
        if info["versions"]["mtalign"] is None:
            info["versions"]["mtalign"] = getattr(mtalign, "__version__", "?")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for name, corpus in corpus_info.items():
                print(f"running: mtalign {info['versions']['mtalign']} on {name} ...", flush=True)
                rows += mtalign_rows(mtalign, corpus, args.variants, args.repeat, ncpu)
            means = mtalign_mean_fs(mtalign, sanity_corpus.hyps, sanity_corpus.refs)
            for variant, value in means.items():
                if variant in sanity["mean_f"]:
                    sanity["mean_f"][variant]["mtalign"] = value
        for message in sorted({str(w.message) for w in caught})[:3]:
            print(f"         mtalign warned: {message}")

    for name in args.corpora:
        for peer in PEERS:
            if peer not in args.peers:
                continue
            if peer in SLOW_PEERS and args.slow_peers == "headline" and name != sanity_name:
                continue
            if not is_importable(PEER_MODULES[peer]):
                skipped[peer] = "not installed"
                continue
            for threads in (None, 1) if peer in RAYON_PEERS else (None,):
                label = (
                    "1 thread"
                    if threads == 1
                    else ("all cores" if peer in RAYON_PEERS else "pure Python")
                )
                print(f"running: {peer} ({label}) on {name} ...", flush=True)
                rows += run_peer(peer, threads, name, args)

    # The slow peers ran on exactly the sanity pairs (the --peer-pairs subset).
    for r in rows:
        if (
            r["tool"] in SLOW_PEERS
            and r["corpus"] == sanity_name
            and r["group"] in sanity["mean_f"]
        ):
            sanity["mean_f"][r["group"]][r["tool"]] = r["mean_f"]

    summary = report(rows, args, info, corpus_info, skipped, sanity)
    if args.json:
        payload = {
            "machine": info,
            "corpora": {
                name: {"label": c.label, "sources": c.sources, **c.stats()}
                for name, c in corpus_info.items()
            },
            "args": {
                "pairs": args.pairs,
                "corpora": args.corpora,
                "peer_pairs": args.peer_pairs,
                "slow_peers": args.slow_peers,
                "repeat": args.repeat,
                "peers": args.peers,
                "variants": args.variants,
                "data_dir": str(args.data_dir),
            },
            "rows": rows,
            "skipped": skipped,
            "sanity": sanity,
            **summary,
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
