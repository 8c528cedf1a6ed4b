"""Long documents: time and peak memory of every metric on one pair, against length.

Each (metric, length) runs in a fresh child process that builds one pair of Zipf-distributed
synthetic documents (5000-word vocabulary), scores it once on ``--threads`` threads and
reports the wall time and the growth of its peak resident memory (``ru_maxrss`` after the
call minus before: the memory beyond the input). ``--text unrelated`` (the default) draws
the two documents independently; ``--text mt`` draws the reference and makes the hypothesis
from it as a translation differs: 10% of the words replaced, 5% dropped, 5% inserted, and a
phrase of 2-6 words moved by up to 20 words every 40 words (TER's shifts, SIA's and RIBES's
reordering). TER, SIA and RIBES depend on how alike the texts are: run both.
A metric stops growing after its first length over ``--timeout``. DCS at character level
uses ``5 ×`` the word count in characters (the issue's 500k-character target at 100k words).
Besides the synthetic texts, four DCS character rows use real text from ``--data-dir``
(WMT21 news in ``shared/data``), each ``5 ×`` the word count in characters:
``dcs-char-en-de`` English (de-en references and outputs, en-de source) against German
(en-de references); ``dcs-char-mt`` three German system outputs of WMT21 en-de against its
three references (long documents that translate the same text); ``dcs-char-same`` the German
text against itself; ``dcs-char-periodic`` one German sentence repeated against the same with
every 101st character replaced (highly repetitive: billions of equal-symbol pairs).

After the table, metrics measured together with a reference variant in the same run get a
ratio per length (``RATIOS``: ROUGE-1.5.5's ROUGE-W against the paper's, whose kernel it
shares; DCS at character level against word level; SIA against the paper's ROUGE-W, a
vectorised quadratic kernel with no peer of its own): the ratio, not the absolute time, is
what a loaded machine still shows.

Usage: python benches/bench_long.py [--sizes 10000 30000 100000]
       [--metrics rougeS* dcs-char ...] [--threads 2] [--timeout 60] [--text unrelated|mt]
       [--data-dir ../shared/data]
Issue 13's ROUGE-W / DCS targets (one pair, 2 threads, <= 10 s, <= 200 MB; DCS char at
500k characters is the 100k column)::

    python benches/bench_long.py --sizes 1000 3000 10000 30000 100000 --timeout 70 \
        --metrics rougeW-1.2 rougeW-1.2-1.5.5 dcs-word dcs-char
    python benches/bench_long.py --sizes 200 1000 10000 30000 100000 --timeout 70 \
        --metrics dcs-word dcs-char dcs-char-en-de dcs-char-mt dcs-char-same dcs-char-periodic

Issue 13's SIA target (one pair, 2 threads, <= 10 s, <= 200 MB at 100k words), on both kinds
of text, with the paper's ROUGE-W (a vectorised quadratic kernel) as the same-run yardstick
and ``sia-1thread`` (the same pair on one thread: SIA searches the cells of a long row in
parallel, so ``sia / sia-1thread`` is what the second core gives)::

    python benches/bench_long.py --sizes 1000 10000 30000 100000 --timeout 900 \
        --metrics sia sia-1thread rougeW-1.2 --text mt
    python benches/bench_long.py --sizes 1000 10000 30000 100000 --timeout 900 \
        --metrics sia sia-1thread rougeW-1.2 --text unrelated

Don't run the full sizes while the machine is busy: the numbers are per run, not averaged.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

METRICS = {
    "rougeS*": "mtalign.Rouge(['rougeS*'])",
    "rougeSU*": "mtalign.Rouge(['rougeSU*'])",
    "rougeSU4": "mtalign.Rouge(['rougeSU4'])",
    "rougeSU*-1.5.5": "mtalign.Rouge(['rougeSU*'], compat='rouge155')",
    "rougeL": "mtalign.Rouge(['rougeL'])",
    "rougeLsum": "mtalign.Rouge(['rougeLsum'])",
    "rouge2": "mtalign.Rouge(['rouge2'])",
    "rougeW-1.2": "mtalign.Rouge(['rougeW-1.2'])",
    "rougeW-1.2-1.5.5": "mtalign.Rouge(['rougeW-1.2'], compat='rouge155')",
    "bleu": "mtalign.Bleu()",
    "nist": "mtalign.Nist()",
    "wer": "mtalign.Wer()",
    "per": "mtalign.Per()",
    "ribes": "mtalign.Ribes()",
    "sia": "mtalign.Sia()",
    "sia-1thread": "mtalign.Sia()",
    "dcs-word": "mtalign.Dcs(level='word')",
    "dcs-char": "mtalign.Dcs()",
    "dcs-char-en-de": "mtalign.Dcs()",
    "dcs-char-mt": "mtalign.Dcs()",
    "dcs-char-same": "mtalign.Dcs()",
    "dcs-char-periodic": "mtalign.Dcs()",
    "chrf": "mtalign.Chrf()",
    "chrf++": "mtalign.Chrf(word_order=2)",
    "ter": "mtalign.Ter()",
}

#: Rows on real text (``--data-dir``): metric -> text kind of the child.
REAL_TEXT = {"dcs-char-en-de": "en-de", "dcs-char-mt": "de-mt", "dcs-char-same": "same",
             "dcs-char-periodic": "periodic"}
#: Rows run on one thread whatever ``--threads`` says.
ONE_THREAD = {"sia-1thread"}
#: Files of each language under ``--data-dir``, read in this order until a text is long enough.
ENGLISH = ["wmt21_ende_news/src.en", "wmt21_deen_news/ref.*.en", "wmt21_deen_news/hyp/*.en"]
GERMAN = ["wmt21_ende_news/ref.*.de", "wmt21_deen_news/src.de", "wmt21_ende_news/hyp/*.de"]

CHILD = textwrap.dedent("""
    import glob, json, os, random, resource, sys, time
    import mtalign
    make, words, chars, threads, text, data = json.loads(sys.argv[1])

    def gather(patterns, n):
        # Non-empty lines of the files, in order, joined by spaces until n characters.
        out, total = [], 0
        for pattern in patterns:
            for path in sorted(glob.glob(os.path.join(data["dir"], pattern))):
                for line in open(path, encoding="utf-8"):
                    if line.strip():
                        out.append(line.strip())
                        total += len(out[-1]) + 1
                        if total >= n:
                            return " ".join(out)[:n]
        sys.exit(f"only {total} characters under {data['dir']} for {patterns}")

    rng = random.Random(13)
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (k + 1) for k in range(len(vocab))]
    ref_words = rng.choices(vocab, weights, k=words)
    if text == "mt":
        out = []
        for w in ref_words:
            u = rng.random()
            if u < 0.05:
                continue
            out.append(rng.choices(vocab, weights)[0] if u < 0.15 else w)
            if rng.random() < 0.05:
                out.append(rng.choices(vocab, weights)[0])
        for at in range(0, len(out) - 30, 40):
            k = rng.randint(2, 6)
            phrase = out[at:at + k]
            del out[at:at + k]
            to = min(len(out), at + rng.randint(1, 20))
            out[to:to] = phrase
        hyp_words = out
    else:
        hyp_words = rng.choices(vocab, weights, k=words)
    hyp, ref = " ".join(hyp_words), " ".join(ref_words)
    if chars:
        hyp, ref = hyp[:chars], ref[:chars]
    if text == "en-de":
        hyp, ref = gather(data["en"], chars), gather(data["de"], chars)
    elif text == "de-mt":
        hyp, ref = gather(["wmt21_ende_news/hyp/*.de"], chars), gather(data["de"], chars)
    elif text == "same":
        hyp = ref = gather(data["de"], chars)
    elif text == "periodic":
        ref = ("Die Kommission hat heute beschlossen, den Vorschlag anzunehmen. " * chars)[:chars]
        hyp = "".join("#" if i % 101 == 100 else c for i, c in enumerate(ref))
    metric = eval(make, {"mtalign": mtalign})
    metric.batch_score(["warm up"], ["warm up"], threads=threads)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    try:
        metric.batch_score([hyp], [ref], threads=threads)
        error = None
    except mtalign.MtalignError as e:
        error = f"{type(e).__name__}: {str(e)[:60]}"
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "peak_mb": (after - before) / 1024, "error": error}))
""")


#: (metric, reference measured in the same run): the ratio of their times is printed.
RATIOS = [("rougeW-1.2-1.5.5", "rougeW-1.2"), ("dcs-char", "dcs-word"),
          ("dcs-char-en-de", "dcs-word"), ("dcs-char-mt", "dcs-word"),
          ("dcs-char-same", "dcs-word"), ("dcs-char-periodic", "dcs-word"),
          ("sia", "rougeW-1.2"), ("sia", "sia-1thread")]


def run(make: str, words: int, chars: int, threads: int, timeout: float,
        text: str = "unrelated", data_dir: str = "") -> dict:
    env = {**os.environ, "MTALIGN_NUM_THREADS": str(threads)}
    data = {"dir": data_dir, "en": ENGLISH, "de": GERMAN}
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([make, words, chars,
                                                                        threads, text, data])],
                             capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    if out.returncode != 0:
        return {"crash": out.returncode, "stderr": out.stderr[-300:]}
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", "--lengths", dest="lengths", type=int, nargs="+",
                    default=[1000, 3000, 10_000, 30_000, 100_000],
                    help="words per text (run small ones, e.g. --sizes 1000 3000, to check)")
    ap.add_argument("--metrics", nargs="+", default=list(METRICS), choices=list(METRICS))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--text", choices=["unrelated", "mt"], default="unrelated",
                    help="two independent documents, or a reference and an MT-like copy")
    ap.add_argument("--data-dir", default=str(Path(__file__).resolve().parents[1].parent
                                              / "shared" / "data"),
                    help="WMT21 news sets for the dcs-char-{en-de,mt,same} rows")
    args = ap.parse_args()
    print(f"one pair ({args.text} texts), {args.threads} threads; time (s) / peak memory "
          f"beyond the input (MB); DCS char: 5 chars per word")
    head = f"{'metric':18}" + "".join(f"{n:>20,}" for n in args.lengths)
    print(head)
    seconds: dict[tuple[str, int], float] = {}
    for name in args.metrics:
        cells = []
        stopped = False
        for n in args.lengths:
            if stopped:
                cells.append("-")
                continue
            chars = 5 * n if name.startswith("dcs-char") else 0
            threads = 1 if name in ONE_THREAD else args.threads
            r = run(METRICS[name], n, chars, threads, args.timeout,
                    REAL_TEXT.get(name, args.text), args.data_dir)
            if r.get("timeout"):
                cells.append(f">{args.timeout:.0f}s")
                stopped = True
            elif "crash" in r:
                cells.append(f"exit {r['crash']}")
                print(r["stderr"], file=sys.stderr)
                stopped = True
            elif r["error"]:
                cells.append("refused")
                stopped = True
            else:
                cells.append(f"{r['seconds']:.2f}s/{r['peak_mb']:.0f}MB")
                seconds[name, n] = r["seconds"]
                stopped = r["seconds"] > args.timeout / 3
        print(f"{name:18}" + "".join(f"{c:>20}" for c in cells), flush=True)
    for name, base in RATIOS:
        if name in args.metrics and base in args.metrics:
            cells = [f"{seconds[name, n] / seconds[base, n]:.2f}x"
                     if (name, n) in seconds and (base, n) in seconds and seconds[base, n] > 0
                     else "-" for n in args.lengths]
            print(f"{name + ' / ' + base:34}"[:34] + "".join(f"{c:>12}" for c in cells))


if __name__ == "__main__":
    main()
