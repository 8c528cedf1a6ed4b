"""Two builds of mtalign's native module, timed in one process, calls alternated.

On a shared machine the speed drifts by ±20% within minutes, so two separate benchmark runs
cannot tell a 5% change from noise. This loads the ``_mtalign`` extension of two builds side by
side (each under its own package name: the init symbol follows the last name component),
constructs the same native ROUGE core from each, and alternates their batch calls on the
distinct corpus (ABAB..., then BABA...), so both see the same drift. It prints the median time
of each and the median of the pairwise ratios A/B (> 1: B is faster).

Make the builds by copying ``python/mtalign/_mtalign.abi3.so`` after each ``pip install -e .``:

    python benches/ab_builds.py /tmp/A/_mtalign.abi3.so /tmp/B/_mtalign.abi3.so \\
        --variants rougeL --threads 2 --calls 30
"""

from __future__ import annotations

import argparse
import gc
import importlib.machinery
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus as corpora  # noqa: E402


def load(tag: str, path: str) -> ModuleType:
    """The extension module at ``path``, imported as ``ab<tag>._mtalign``."""
    name = f"ab{tag}._mtalign"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def rouge_core(module: ModuleType, variants: list[str]) -> Any:
    """ROUGE's native object of a build: ``NativeMetric("rouge", ...)``, or the ``RougeCore``
    of a build from before the one native class."""
    if hasattr(module, "NativeMetric"):
        return module.NativeMetric("rouge", variants=variants, tokenize="unicode")
    return module.RougeCore(variants, "unicode", True, 1.0, "max", False, "paper", None)


# Other native metrics, each with its options in the order of the old per-metric classes'
# constructors (which NativeMetric's option tables kept): (NativeMetric name, old class,
# options).
OTHER_METRICS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "chrf": ("chrf", "ChrfCore", {"char_order": 6, "word_order": 0, "beta": 2.0,
                                  "lowercase": False, "whitespace": False,
                                  "eps_smoothing": False}),
    "chrf++": ("chrf", "ChrfCore", {"char_order": 6, "word_order": 2, "beta": 2.0,
                                    "lowercase": False, "whitespace": False,
                                    "eps_smoothing": False}),
    "wer": ("error_rate", "ErrorRateCore", {"kind": "wer", "tokenize": "13a",
                                            "lowercase": False}),
    "nist": ("nist", "NistCore", {"max_order": 5, "corpus_weights": False,
                                  "tokenize": "13a", "lowercase": False}),
    "gtm": ("gtm", "GtmCore", {"exponent": 1.0, "tokenize": "13a", "lowercase": False,
                               "max_words": 20_000}),
    "ribes": ("ribes", "RibesCore", {"alpha": 0.25, "beta": 0.10, "tokenize": "13a",
                                     "lowercase": False}),
    "dcs": ("dcs", "DcsCore", {"tokenize": "unicode", "lowercase": True}),
}


def other_core(module: ModuleType, name: str) -> Any:
    """Metric ``name`` of :data:`OTHER_METRICS` from a build, by either binding."""
    native, old_class, options = OTHER_METRICS[name]
    if hasattr(module, "NativeMetric"):
        return module.NativeMetric(native, **options)
    return getattr(module, old_class)(*options.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="path of build A's _mtalign extension (.so)")
    ap.add_argument("b", help="path of build B's _mtalign extension (.so)")
    ap.add_argument("--data-dir", type=Path, default=corpora.DEFAULT_DATA_DIR,
                    help="the shared data folder (default: %(default)s)")
    ap.add_argument("--variants", default="rougeL",
                    help="ROUGE variants, comma-separated, or bleu (sentence BLEU, add1, 13a), "
                         f"or one of: {', '.join(OTHER_METRICS)}")
    ap.add_argument("--corpus", choices=("distinct", "strict"), default="distinct",
                    help="distinct (the headline) or strict (no text twice anywhere)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--calls", type=int, default=30, help="calls of each build")
    ap.add_argument("--repeat-text", type=int, default=1,
                    help="the corpus this many times over (repeated text, labelled as such)")
    ap.add_argument("--unseen", type=int, default=0, metavar="SLICES",
                    help="instead of --calls: the corpus in this many slices, each scored once "
                         "by each build, so no call meets text its build scored before")
    args = ap.parse_args()
    if args.unseen < 0 or args.unseen == 1:
        ap.error("--unseen takes 2 slices or more (0: off)")

    corpus = (corpora.distinct_texts_pairs(args.data_dir) if args.corpus == "strict"
              else corpora.distinct_pairs(args.data_dir))
    hyps = list(corpus.hyps) * args.repeat_text
    refs = list(corpus.refs) * args.repeat_text
    variants = args.variants.split(",")

    def core(module: ModuleType) -> object:
        if variants == ["bleu"]:
            if hasattr(module, "NativeMetric"):
                return module.NativeMetric("bleu", smooth="add1", effective_order=True)
            return module.BleuCore(4, "add1", None, "closest", True, "13a", False)
        if len(variants) == 1 and variants[0] in OTHER_METRICS:
            return other_core(module, variants[0])
        return rouge_core(module, variants)

    cores = {tag: core(load(tag, path)) for tag, path in (("a", args.a), ("b", args.b))}
    # The batches of each round: the whole corpus every time, or (--unseen) the next slice,
    # which neither build has scored: its words are not yet in a thread's warm vocabulary
    # (kept from call to call), nor its texts in the caches.
    if args.unseen:
        size = len(hyps) // args.unseen
        rounds = [(hyps[k * size:(k + 1) * size], refs[k * size:(k + 1) * size])
                  for k in range(args.unseen)]
    else:
        rounds = [(hyps, refs)] * args.calls
    times: dict[str, list[float]] = {"a": [], "b": []}
    gc.disable()
    for k, (batch_hyps, batch_refs) in enumerate(rounds):
        for tag in ("ab" if k % 2 == 0 else "ba"):
            start = time.perf_counter()
            cores[tag].score_texts(batch_hyps, batch_refs, args.threads)
            times[tag].append(time.perf_counter() - start)
    a, b = (statistics.median(times[t]) * 1e3 for t in "ab")
    ratio = statistics.median(x / y for x, y in zip(times["a"], times["b"], strict=True))
    label = " (repeated text)" if args.repeat_text > 1 else ""
    if args.unseen:
        label += f" in {args.unseen} unseen slices of {len(rounds[0][0]):,}"
    print(f"{','.join(variants)}, {args.corpus}, {len(hyps):,} pairs{label}, "
          f"threads={args.threads}: "
          f"A {a:.2f} ms, B {b:.2f} ms; median pairwise A/B {ratio:.3f}")


if __name__ == "__main__":
    main()
