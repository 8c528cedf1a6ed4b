#!/usr/bin/env python3
"""Throughput benchmark: BLEU (sentence and corpus) and WER, mtalign against sacrebleu, nltk
and jiwer, in the same run.

Sentence BLEU runs on three corpora (``corpus.py``; ``--data-dir``, default
``../shared/data``):

* ``distinct`` (the headline): every distinct system output of every English-target set, each
  once as a hypothesis, against a reference of its segment (up to ``--pairs``; the data holds
  fewer than 100,000, the header says how many);
* ``strict``: no text occurs twice anywhere (texts of a segment paired with each other);
* ``repeated`` (this script's former corpus): every system output of ``wmt21_ende_news``
  (20 systems x 3 references x 1002 lines) and ``wmt21_deen_news`` (19 x 2 x 1000) against
  each of its references, 98,120 real pairs cycled to ``--pairs``. Texts repeat and mtalign
  tokenizes each distinct text once per call (sacrebleu's tokenizer cache also hits them), so
  this table measures deduplication: labelled so.

* Sentence BLEU (``add1``, BLEUS4): mtalign ``Bleu(smooth="add1").batch_score(hyps, refs)``
  (13a tokenization included) with all cores and with ``threads=1``; sacrebleu's fastest
  sentence loop, one ``BLEU(smooth_method="add-k")`` object reused for
  ``sentence_score(h, [r])`` (its add-k is the same arithmetic as add1; its 13a tokenizer
  has an LRU cache, cleared before each timed run); nltk's ``sentence_bleu`` with
  ``SmoothingFunction().method2`` on tokens split beforehand (not timed). The peers score an
  evenly spaced subset of ``--peer-pairs`` pairs of the same corpus; ratios compare pairs
  per second.
* Corpus BLEU: the 20 en-de systems against their 3 references, one ``corpus_score`` per
  system: mtalign ``Bleu(smooth="exp")`` vs ``sacrebleu.corpus_bleu`` (and vs sacrebleu with
  the references cached in a ``BLEU(references=...)`` object).
* WER: mtalign ``Wer(tokenize="whitespace").corpus_score`` vs ``jiwer.wer(refs, hyps)``
  (rapidfuzz's C++ Levenshtein) on the distinct corpus.

Figures are medians of ``--repeat`` runs (default 3). Usage::

    python benches/bench_bleu.py            # about two minutes on 2 cores

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"
SETS = {"wmt21_ende_news": "de", "wmt21_deen_news": "en"}

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
from _common import (  # noqa: E402
    headline,
    machine_info,
    read_lines,
    score_column,
    timed,  # noqa: E402
)

HEADLINE = "distinct"
TARGET_BLEUS4 = 150.0  # issue 12: sentence BLEUS4 >= 150x sacrebleu (distinct pairs)


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


def repeated_corpus(all_hyps: list[str], all_refs: list[str], n: int) -> corpora.Corpus:
    """This script's former corpus: WMT21 en-de and de-en pairs cycled to ``n``."""
    hyps = [all_hyps[i % len(all_hyps)] for i in range(n)]
    refs = [all_refs[i % len(all_refs)] for i in range(n)]
    return corpora.Corpus(
        name="repeated",
        label=corpora.REPEATED_LABEL,
        hyps=hyps,
        refs=refs,
        requested=n,
        available=len(all_hyps),
        sources={"wmt21_ende_news + wmt21_deen_news": n},
        notes=[f"{len(all_hyps):,} real pairs (every system output of WMT21 en-de and de-en "
               f"against each reference) cycled {n / len(all_hyps):.2f} times"],
    )


def sentence_bleu_table(corpus: corpora.Corpus, args: argparse.Namespace, mtalign: Any,
                        repeat: int) -> dict[str, float]:
    """Sentence BLEU (add1) pairs/s of mtalign and the peers on one corpus."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from sacrebleu.metrics import BLEU
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    hyps, refs = corpus.hyps, corpus.refs
    n = len(hyps)
    sub = corpus.subset(args.peer_pairs)
    sub_h, sub_r = sub.hyps, sub.refs
    ours = mtalign.Bleu(smooth="add1")
    peer = BLEU(smooth_method="add-k")
    fn2 = SmoothingFunction().method2
    tok = [(h.split(), [r.split()]) for h, r in zip(sub_h, sub_r, strict=True)]
    k = min(200, len(tok))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok_tok = score_column(ours.batch_score([h for h, _ in tok[:k]],
                                               [r for _, r in tok[:k]]))
        assert all(abs(float(ok_tok[i]) / 100 - sentence_bleu(tok[i][1], tok[i][0],
                                                              smoothing_function=fn2)) < 1e-12
                   for i in range(k))

    t_all = timed(lambda: ours.batch_score(hyps, refs), repeat)
    t_one = timed(lambda: ours.batch_score(hyps, refs, threads=1), repeat)

    def sacre_loop() -> None:
        # A cold tokenizer cache each run, as for a first pass over new outputs (texts
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

    t_sacre = timed(sacre_loop, repeat)
    t_nltk = timed(nltk_loop, max(1, repeat - 1))
    rate = {"mtalign (all cores)": n / t_all, "mtalign (threads=1)": n / t_one,
            "sacrebleu loop (BLEU reused)": len(sub_h) / t_sacre,
            "nltk sentence_bleu": len(sub_h) / t_nltk}
    print(f"{'tool':<30} {'pairs':>8} {'pairs/s':>12} {'mtalign all cores is':>22}")
    for name, r in rate.items():
        pairs = n if name.startswith("mtalign") else len(sub_h)
        print(f"{name:<30} {pairs:>8,} {r:>12,.0f} {rate['mtalign (all cores)'] / r:>20.1f}x")
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=100_000,
                    help="pairs per corpus: at most this many for distinct and strict, exactly "
                    "this many for repeated (default: %(default)s)")
    ap.add_argument("--corpora", default="distinct,strict,repeated",
                    help="comma-separated from distinct (headline), strict, repeated")
    ap.add_argument("--peer-pairs", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    names = [c.strip() for c in args.corpora.split(",") if c.strip()]
    bad = [c for c in names if c not in corpora.CORPORA]
    if bad or not names:
        ap.error(f"--corpora: unknown {', '.join(bad)} (from: {', '.join(corpora.CORPORA)})")

    import logging

    import jiwer
    import mtalign
    import sacrebleu
    from sacrebleu.metrics import BLEU

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)  # its per-call advice
    all_hyps, all_refs, ende_systems, ende_refs = load(args.data_dir)
    info = machine_info(["mtalign", "sacrebleu", "nltk", "jiwer"])
    print(f"mtalign {mtalign.__version__}; {info['nproc']} cores ({info['cpu']}); "
          f"{info['python']}; versions {info['versions']}")
    built: dict[str, corpora.Corpus] = {}
    for name in names:
        built[name] = (repeated_corpus(all_hyps, all_refs, args.pairs) if name == "repeated"
                       else corpora.build(name, args.data_dir, args.pairs))
        for line in built[name].describe():
            print(line)
    print(f"peers on {args.peer_pairs:,} evenly spaced pairs of each corpus; medians of "
          f"{args.repeat}\n")

    results: dict[str, Any] = {
        "machine": info,
        "corpora": {n: {"label": c.label, **c.stats()} for n, c in built.items()},
        "peer_pairs": args.peer_pairs,
        "sentence_bleu": {},
    }

    # -- sentence BLEU ---------------------------------------------------------------------
    for k, (name, corpus) in enumerate(built.items()):
        role = ("HEADLINE" if name == HEADLINE else
                "second table" if name == "strict" else "repeated text, not a headline figure")
        print(f"Sentence BLEU (add1 / BLEUS4), table {k + 1} ({role}): {corpus.label}, "
              f"{len(corpus):,} pairs")
        results["sentence_bleu"][name] = sentence_bleu_table(corpus, args, mtalign, args.repeat)
        print()

    head = results["sentence_bleu"].get(HEADLINE)
    targets = []
    if head is not None:
        value = head["mtalign (all cores)"] / head["sacrebleu loop (BLEU reused)"]
        status = "MET" if value >= TARGET_BLEUS4 else "NOT MET"
        targets.append({"target": "sentence BLEUS4 vs sacrebleu", "value": value,
                        "goal": TARGET_BLEUS4, "status": status})
        print(f"Target (issue 12): sentence BLEUS4 on the {HEADLINE} corpus >= "
              f"{TARGET_BLEUS4:.0f}x sacrebleu's loop: {value:.1f}x  {status}\n")
    results["targets"] = targets

    # -- corpus BLEU -----------------------------------------------------------------------
    exp = mtalign.Bleu(smooth="exp")
    streams = [[list(s) for s in zip(*r, strict=True)] for r in ende_refs]
    for sys_h, sys_r, st in zip(ende_systems, ende_refs, streams, strict=True):
        assert headline(exp.corpus_score(sys_h, sys_r)) == sacrebleu.corpus_bleu(sys_h, st).score
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
    corpus_secs = {"mtalign (all cores)": t_ours, "mtalign (threads=1)": t_ours1,
              "sacrebleu corpus_bleu": t_peer, "sacrebleu BLEU(references=...) cached": t_cached}
    print(f"{'tool':<40} {'seconds':>9} {'mtalign all cores is':>22}")
    for name, t in corpus_secs.items():
        print(f"{name:<40} {t:>9.3f} {t / t_ours:>20.1f}x")
    results["corpus_bleu_seconds"] = corpus_secs

    # -- WER -------------------------------------------------------------------------------
    wer = mtalign.Wer(tokenize="whitespace")
    wer_corpus = built.get(HEADLINE) or next(iter(built.values()))
    hyps, refs = wer_corpus.hyps, wer_corpus.refs
    keep = [i for i, r in enumerate(refs) if r.strip()]
    wh = [" ".join(hyps[i].split()) for i in keep]
    wr = [" ".join(refs[i].split()) for i in keep]
    assert abs(headline(wer.corpus_score(wh, wr)) - jiwer.wer(wr, wh)) < 1e-12
    t_w = timed(lambda: wer.corpus_score(wh, wr), args.repeat)
    t_w1 = timed(lambda: wer.corpus_score(wh, wr, threads=1), args.repeat)
    t_j = timed(lambda: jiwer.wer(wr, wh), args.repeat)
    print(f"\nCorpus WER on {len(wh):,} pairs of the {wer_corpus.name} corpus "
          "(whitespace tokens)")
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
