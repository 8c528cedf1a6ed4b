#!/usr/bin/env python3
"""Throughput benchmark: BLEU (sentence and corpus) and WER, mtalign against sacrebleu, nltk
and jiwer, in the same run.

Corpus (``--data-dir``, default ``../shared/data``): every system output of
``wmt21_ende_news`` (20 systems x 3 references x 1002 lines) and ``wmt21_deen_news``
(19 x 2 x 1000) paired with each of its references: 98,120 real (hypothesis, reference)
pairs, cycled to ``--pairs`` (default 100,000).

* Sentence BLEU (``add1``, BLEUS4): mtalign ``Bleu(smooth="add1").batch_score(hyps, refs)``
  (13a tokenization included) with all cores and with ``threads=1``; sacrebleu's fastest
  sentence loop, one ``BLEU(smooth_method="add-k")`` object reused for
  ``sentence_score(h, [r])`` (its add-k is the same arithmetic as add1; its 13a tokenizer
  has an LRU cache, cleared before each timed run, which the repeated references hit);
  nltk's ``sentence_bleu`` with ``SmoothingFunction().method2`` on tokens split beforehand
  (not timed). The peers score an
  evenly spaced subset of ``--peer-pairs`` pairs; ratios compare pairs per second.
* Corpus BLEU: the 20 en-de systems against their 3 references, one ``corpus_score`` per
  system: mtalign ``Bleu(smooth="exp")`` vs ``sacrebleu.corpus_bleu`` (and vs sacrebleu with
  the references cached in a ``BLEU(references=...)`` object).
* WER: mtalign ``Wer(tokenize="whitespace").corpus_score`` vs ``jiwer.wer(refs, hyps)``
  (rapidfuzz's C++ Levenshtein) on all pairs.

Figures are medians of ``--repeat`` runs (default 3). Usage::

    python benches/bench_bleu.py            # about a minute on 2 cores

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"
SETS = {"wmt21_ende_news": "de", "wmt21_deen_news": "en"}

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_info, read_lines  # noqa: E402


def load(data_dir: Path) -> tuple[list[str], list[str], list[list[str]], list[list[list[str]]]]:
    """All (hyp, ref) pairs, and the en-de systems with their per-segment reference lists."""
    hyps, refs = [], []
    ende_systems: list[list[str]] = []
    ende_refs: list[list[list[str]]] = []
    for name, lang in SETS.items():
        folder = data_dir / name
        if not folder.is_dir():
            sys.exit(f"bench_bleu: {folder} not found (use --data-dir)")
        ref_files = [read_lines(p) for p in sorted(folder.glob(f"ref.*.{lang}"))]
        for path in sorted((folder / "hyp").glob(f"*.{lang}")):
            system = read_lines(path)
            for ref in ref_files:
                hyps += system
                refs += ref
            if name == "wmt21_ende_news":
                ende_systems.append(system)
                ende_refs.append([list(seg) for seg in zip(*ref_files, strict=True)])
    return hyps, refs, ende_systems, ende_refs


def timed(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--peer-pairs", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    import logging

    import jiwer
    import mtalign
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from sacrebleu.metrics import BLEU

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its per-call advice
    all_hyps, all_refs, ende_systems, ende_refs = load(args.data_dir)
    n = args.pairs
    hyps = [all_hyps[i % len(all_hyps)] for i in range(n)]
    refs = [all_refs[i % len(all_refs)] for i in range(n)]
    step = max(1, n // args.peer_pairs)
    sub = list(range(0, n, step))[: args.peer_pairs]
    sub_h = [hyps[i] for i in sub]
    sub_r = [refs[i] for i in sub]
    info = machine_info(["mtalign", "sacrebleu", "nltk", "jiwer"])
    print(f"mtalign {mtalign.__version__}; {info['nproc']} cores ({info['cpu']}); "
          f"{info['python']}; versions {info['versions']}")
    print(f"{n:,} real pairs ({len(all_hyps):,} distinct pairs cycled); peers on "
          f"{len(sub):,} evenly spaced pairs; medians of {args.repeat}\n")

    results: dict[str, Any] = {"machine": info, "pairs": n, "peer_pairs": len(sub)}

    # -- sentence BLEU ---------------------------------------------------------------------
    ours = mtalign.Bleu(smooth="add1")
    check = ours.batch_score(sub_h[:200], sub_r[:200])
    peer = BLEU(smooth_method="add-k")
    fn2 = SmoothingFunction().method2
    tok = [(h.split(), [r.split()]) for h, r in zip(sub_h, sub_r, strict=True)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok_tok = ours.batch_score([h for h, _ in tok[:200]], [r for _, r in tok[:200]])
        assert all(abs(ok_tok[i] / 100 - sentence_bleu(tok[i][1], tok[i][0],
                                                       smoothing_function=fn2)) < 1e-12
                   for i in range(200))
    assert len(check) == 200

    rows = []
    t_all = timed(lambda: ours.batch_score(hyps, refs), args.repeat)
    t_one = timed(lambda: ours.batch_score(hyps, refs, threads=1), args.repeat)

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    def sacre_loop() -> None:
        # A cold tokenizer cache each run, as for a first pass over new outputs (references
        # repeated within the run still hit it).
        Tokenizer13a.__call__.cache_clear()
        TokenizerRegexp.__call__.cache_clear()
        for h, r in zip(sub_h, sub_r, strict=True):
            peer.sentence_score(h, [r])

    def nltk_loop() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for h, r in tok:
                sentence_bleu(r, h, smoothing_function=fn2)

    t_sacre = timed(sacre_loop, args.repeat)
    t_nltk = timed(nltk_loop, max(1, args.repeat - 1))
    rate = {"mtalign (all cores)": n / t_all, "mtalign (threads=1)": n / t_one,
            "sacrebleu loop (BLEU reused)": len(sub) / t_sacre,
            "nltk sentence_bleu": len(sub) / t_nltk}
    print("Sentence BLEU (add1 / BLEUS4)")
    print(f"{'tool':<30} {'pairs/s':>12} {'mtalign all cores is':>22}")
    for name, r in rate.items():
        rows.append((name, r))
        ratio = rate["mtalign (all cores)"] / r
        print(f"{name:<30} {r:>12,.0f} {ratio:>20.1f}x")
    results["sentence_bleu"] = rate

    # -- corpus BLEU -----------------------------------------------------------------------
    exp = mtalign.Bleu(smooth="exp")
    streams = [[list(s) for s in zip(*r, strict=True)] for r in ende_refs]
    for sys_h, sys_r, st in zip(ende_systems, ende_refs, streams, strict=True):
        assert exp.corpus_score(sys_h, sys_r).score == sacrebleu.corpus_bleu(sys_h, st).score
    t_ours = timed(lambda: [exp.corpus_score(h, r) for h, r in
                            zip(ende_systems, ende_refs, strict=True)], args.repeat)
    t_ours1 = timed(lambda: [exp.corpus_score(h, r, threads=1) for h, r in
                             zip(ende_systems, ende_refs, strict=True)], args.repeat)
    t_peer = timed(lambda: [sacrebleu.corpus_bleu(h, st) for h, st in
                            zip(ende_systems, streams, strict=True)], args.repeat)
    cached = BLEU(references=streams[0])
    t_cached = timed(lambda: [cached.corpus_score(h, None) for h in ende_systems], args.repeat)
    k = len(ende_systems)
    print(f"\nCorpus BLEU: {k} en-de systems x 1002 segments x 3 references "
          "(seconds for all systems)")
    corpus = {"mtalign (all cores)": t_ours, "mtalign (threads=1)": t_ours1,
              "sacrebleu corpus_bleu": t_peer, "sacrebleu BLEU(references=...) cached": t_cached}
    print(f"{'tool':<40} {'seconds':>9} {'mtalign all cores is':>22}")
    for name, t in corpus.items():
        print(f"{name:<40} {t:>9.3f} {t / t_ours:>20.1f}x")
    results["corpus_bleu_seconds"] = corpus

    # -- WER -------------------------------------------------------------------------------
    wer = mtalign.Wer(tokenize="whitespace")
    keep = [i for i, r in enumerate(refs) if r.strip()]
    wh = [" ".join(hyps[i].split()) for i in keep]
    wr = [" ".join(refs[i].split()) for i in keep]
    assert abs(wer.corpus_score(wh, wr).score - jiwer.wer(wr, wh)) < 1e-12
    t_w = timed(lambda: wer.corpus_score(wh, wr), args.repeat)
    t_w1 = timed(lambda: wer.corpus_score(wh, wr, threads=1), args.repeat)
    t_j = timed(lambda: jiwer.wer(wr, wh), args.repeat)
    print(f"\nCorpus WER on {len(wh):,} pairs (whitespace tokens)")
    werr = {"mtalign (all cores)": len(wh) / t_w, "mtalign (threads=1)": len(wh) / t_w1,
            "jiwer.wer": len(wh) / t_j}
    print(f"{'tool':<30} {'pairs/s':>12} {'mtalign all cores is':>22}")
    for name, r in werr.items():
        print(f"{name:<30} {r:>12,.0f} {werr['mtalign (all cores)'] / r:>20.1f}x")
    results["wer"] = werr
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
