#!/usr/bin/env python3
"""Throughput benchmark: METEOR against nltk's ``meteor_score``, and GTM, in the same run.

Corpus: ``corpus.distinct_pairs`` (every distinct system output of the English-target WMT
sets once, against a reference of its segment; ``--data-dir``, default ``../shared/data``),
the first ``--pairs`` pairs, whitespace tokens.

* METEOR exact + stem: mtalign ``Meteor(stages=("exact", "stem")).batch_score`` (all cores
  and ``threads=1``) vs nltk's ``meteor_score`` with a WordNet that has no synsets (its
  synonym stage then matches nothing), on an evenly spaced subset of ``--peer-pairs``
  pairs, tokens split beforehand (not timed).
* METEOR with synonyms (when ``--wordnet`` DIR, default ``/usr/share/wordnet``, exists):
  mtalign ``Meteor(wordnet=DIR)`` vs nltk with ``WordNetCorpusReader`` over a copy of the
  same files (its reader's load is not timed; mtalign's WordNet is loaded before timing
  too, once per process).
* GTM-1/2/3: mtalign ``Gtm(e).batch_score`` (no peer: gtm 1.4 is Java and not available).

Before timing, mtalign's scores are checked against nltk's on the subset (to 1e-12).
Ratios compare pairs per second; the METEOR target (issue 18) is >= 100x nltk on 2 cores.
Figures are medians of ``--repeat`` runs. Usage::

    python benches/bench_meteor.py                          # the real figures
    python benches/bench_meteor.py --pairs 2000 --peer-pairs 200 --repeat 1   # a quick check

It is a script, not a test: it prints tables and exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402
from _common import (
    machine_info,  # noqa: E402
    timed,  # noqa: E402
)

TARGET = 100.0
WN_FILES = [f"{k}.{p}" for k in ("data", "index") for p in ("noun", "verb", "adj", "adv")] + [
    f"{p}.exc" for p in ("noun", "verb", "adj", "adv")]


class NoSynonyms:
    def synsets(self, word: str) -> list[Any]:
        return []


def nltk_wordnet(src: str, tmp: Path) -> Any:
    """nltk's reader over a copy of ``src`` (with the ``lexnames`` file nltk insists on)."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    for f in WN_FILES:
        shutil.copyfile(Path(src, f), tmp / f)
    (tmp / "lexnames").write_text("".join(f"{i:02d}\tx.{i}\t0\n" for i in range(45)))
    nltk.data.path.append(str(tmp))

    class LocalWordNet(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LocalWordNet(str(tmp), None)


def row(name: str, n: int, t: float, peer: float | None, target: float | None) -> None:
    rate = n / t
    if peer is None:
        print(f"| {name} | {rate:,.0f} | — | — | — |")
        return
    ratio = rate / peer
    verdict = "" if target is None else ("MET" if ratio >= target else "NOT MET")
    print(f"| {name} | {rate:,.0f} | {peer:,.0f} | {ratio:.1f}× | {verdict} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=corpora.DEFAULT_DATA_DIR)
    ap.add_argument("--pairs", type=int, default=50_000)
    ap.add_argument("--peer-pairs", type=int, default=2_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--wordnet", default="/usr/share/wordnet")
    args = ap.parse_args()

    import mtalign
    from nltk.translate.meteor_score import meteor_score

    print(machine_info(["mtalign", "nltk"]))
    corpus = corpora.distinct_pairs(args.data_dir, args.pairs)
    hyps, refs = corpus.hyps, corpus.refs
    sub = corpus.subset(args.peer_pairs)
    tok = [(h.split(), [r.split()]) for h, r in zip(sub.hyps, sub.refs, strict=True)]
    n, k = len(hyps), len(tok)
    print(f"\ncorpus: {corpus.label}; {n:,} pairs ({k:,} for nltk)\n")
    have_wn = all(Path(args.wordnet, f).is_file() for f in WN_FILES)
    configs: list[tuple[str, Any, Any]] = [
        ("METEOR exact+stem", mtalign.Meteor(stages=("exact", "stem")), NoSynonyms())]
    with tempfile.TemporaryDirectory() as tmp:
        if have_wn:
            configs.append(("METEOR +synonyms", mtalign.Meteor(wordnet=args.wordnet),
                            nltk_wordnet(args.wordnet, Path(tmp))))
        else:
            print(f"(no WordNet in {args.wordnet}: the synonym rows are left out)\n")
        print("| pairs/s | mtalign | nltk | ratio | target ≥100× |")
        print("|---|---|---|---|---|")
        for name, ours, wn in configs:
            mine = ours.batch_score(sub.hyps, sub.refs)
            want = [meteor_score(r, h, wordnet=wn) for h, r in tok]
            worst = max(abs(a - b) for a, b in zip(mine, want, strict=True))
            assert worst <= 1e-12, f"{name}: differs from nltk by {worst}"
            t_peer = timed(lambda wn=wn: [meteor_score(r, h, wordnet=wn) for h, r in tok],
                           max(1, args.repeat // 2))
            peer = k / t_peer
            row(name + " (all cores)", n, timed(lambda o=ours: o.batch_score(hyps, refs),
                                                 args.repeat), peer, TARGET)
            row(name + " (threads=1)", n,
                timed(lambda o=ours: o.batch_score(hyps, refs, threads=1), args.repeat),
                peer, None)
    print()
    print("| GTM pairs/s | all cores | threads=1 |")
    print("|---|---|---|")
    for e in (1.0, 2.0, 3.0):
        g = mtalign.Gtm(e, tokenize="whitespace")
        t_all = timed(lambda g=g: g.batch_score(hyps, refs), args.repeat)
        t_one = timed(lambda g=g: g.batch_score(hyps, refs, threads=1), args.repeat)
        print(f"| GTM-{e:g} | {n / t_all:,.0f} | {n / t_one:,.0f} |")


if __name__ == "__main__":
    main()
