#!/usr/bin/env python3
"""Token ids in: TensorBLEU's shape (512 sequences of 1,024 ids), sentence BLEU and ROUGE-L.

Every row scores the same 512 pairs. A hypothesis is 1,024 ids drawn uniformly from a
32,000-id vocabulary; its reference is the hypothesis with 30% of its ids replaced (so
n-grams of every order match, as a decent sample against its reference does). Rows:

* mtalign, ids: ``Bleu(smooth="exp", effective_order=True).batch_score(hyps, refs)`` (that
  is sacrebleu's ``sentence_bleu``) with ``hyps``/``refs`` :class:`mtalign.TokenIds` over a
  padded int64 array, threads 1 and 2; ``Rouge("rougeL")`` likewise;
* mtalign, str tokens: the same ids as lists of Python ``str`` tokens (pre-tokenized input;
  the lists are built before timing);
* mtalign, text: the ids joined by spaces, ``tokenize="whitespace"``;
* sacrebleu 2.6.0 ``sentence_bleu(hyp, [ref])`` in a loop over the space-joined ids; nltk
  ``sentence_bleu([ref], hyp)`` over the split ids (its default: no smoothing); torchmetrics
  ``BLEUScore`` (CPU, one call per sentence) and rouge-score where installed (rouge-score's
  pure-Python LCS on 1,024 tokens takes seconds per pair: it is timed on 8 pairs and
  scaled to 512, and says so);
* TensorBLEU (arXiv 2510.05485): its A100 figure for this shape as issue 32
  quotes it from the paper, **quoted, not measured here** (nor checked against the paper's
  table).

Each mtalign row is the best of ``--repeat`` calls (the machine is shared: the minimum is the
least disturbed); peers run once. Each row gives wall-clock and CPU milliseconds (CPU: every
thread of the process, ``time.process_time``): on a loaded machine the CPU time is the
steadier figure, and at threads=2 it shows the work, not how fast two cores finish it. Every
path's numbers are checked equal to the ids' before anything is timed. Then: one-pair
``sentence_score`` on two 50-id arrays (µs per call) and the Python memory peak
(tracemalloc) of the ids call.

Usage (from the repository root)::

    python benches/bench_token_ids.py              # about half a minute on 2 cores
    python benches/bench_token_ids.py --repeat 3 --peers none
    python benches/bench_token_ids.py --vocab 128000 --peers none   # ids past 2^15
    python benches/bench_token_ids.py --scaling 1,2,4,8,16   # TokenIds rows only
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mtalign  # noqa: E402
from _common import machine_info  # noqa: E402
from mtalign import TokenIds  # noqa: E402

#: TensorBLEU's per-sentence BLEU, batch 512 × 1,024 tokens, on an A100 (arXiv 2510.05485),
#: as issue 32 quotes it. Quoted, never measured here.
TENSORBLEU_A100_MS = 41.0
PEERS = ("sacrebleu", "nltk", "torchmetrics", "rouge-score")
NAN = float("nan")
ROUGE_SCORE_PAIRS = 8


def make_batch(n: int, length: int, vocab: int, changed: float, seed: int
               ) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    hyps = rng.integers(0, vocab, size=(n, length), dtype=np.int64)
    refs = hyps.copy()
    mask = rng.random((n, length)) < changed
    refs[mask] = rng.integers(0, vocab, size=int(mask.sum()))
    return hyps, refs


def best_ms(f: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """The best wall-clock and the best CPU milliseconds (every thread of the process) of
    ``repeat`` calls. On a shared machine the CPU time is the steadier figure."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return 1e3 * min(wall), 1e3 * min(cpu)


def once_ms(f: Callable[[], Any]) -> tuple[float, float]:
    return best_ms(f, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=512)
    ap.add_argument("--length", type=int, default=1024)
    ap.add_argument("--vocab", type=int, default=32_000,
                    help="ids are drawn from 0..VOCAB (128000: a Llama 3 sized vocabulary)")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--peers", default=",".join(PEERS),
                    help="comma-separated peers to time, or 'none'")
    ap.add_argument("--tensorbleu", type=Path, default=None,
                    help="TensorBLEU's own code (RxLM's rxlm/metrics/tensorbleu.py, Apache-2.0, "
                         "a benchmark-only peer, not shipped): time its tensor_sentence_bleu "
                         "on the GPU torch sees (else on the CPU)")
    ap.add_argument("--scaling", default="",
                    help="comma-separated thread counts: print only the TokenIds scaling "
                         "table (e.g. 1,2,4,8,16 on a machine with that many cores)")
    args = ap.parse_args()
    peers = set() if args.peers == "none" else set(args.peers.split(","))
    if args.tensorbleu:
        check_tensorbleu(args.tensorbleu)

    info = machine_info(["mtalign", "numpy", "sacrebleu", "nltk", "torchmetrics",
                         "rouge-score"])
    print(f"# {args.pairs} × {args.length} ids from {args.vocab:,}; {info['nproc']} usable cores "
          f"({info['cpu']}); "
          f"{info['python']}; versions {info['versions']}")
    h, r = make_batch(args.pairs, args.length, args.vocab, 0.3, 12345)
    full = np.full(args.pairs, args.length)
    hyps = TokenIds.from_padded(h, lengths=full)
    refs = TokenIds.from_padded(r, lengths=full)
    if args.scaling:
        print_scaling(hyps, refs, [int(t) for t in args.scaling.split(",")], args.repeat)
        return
    tok_h = [[str(x) for x in row] for row in h.tolist()]
    tok_r = [[[str(x) for x in row]] for row in r.tolist()]
    text_h = [" ".join(t) for t in tok_h]
    text_r = [" ".join(t[0]) for t in tok_r]

    bleu = mtalign.Bleu(smooth="exp", effective_order=True, tokenize="whitespace")
    rouge = mtalign.Rouge("rougeL", tokenize="whitespace")
    ids_bleu = bleu.batch_score(hyps, refs)
    ids_rouge = rouge.batch_score(hyps, refs)["rougeL"]
    for name, got in [("str tokens", bleu.batch_score(tok_h, tok_r)),
                      ("text", bleu.batch_score(text_h, text_r))]:
        assert np.array_equal(got, ids_bleu), f"BLEU of {name} differs from ids"
    for name, got in [("str tokens", rouge.batch_score(tok_h, tok_r)["rougeL"]),
                      ("text", rouge.batch_score(text_h, text_r)["rougeL"])]:
        assert np.array_equal(got, ids_rouge), f"ROUGE-L of {name} differs from ids"

    rows: list[tuple[str, str, float, float, str]] = []  # metric, what, wall ms, CPU ms, note

    def mine(metric_name: str, what: str, f: Callable[[], Any]) -> None:
        f()  # warm the pool and the buffers
        rows.append((metric_name, what, *best_ms(f, args.repeat), f"best of {args.repeat}"))

    for metric_name, metric in [("sentence BLEU", bleu), ("ROUGE-L", rouge)]:
        for threads in (1, 2):
            mine(metric_name, f"mtalign TokenIds, threads={threads}",
                 lambda m=metric, t=threads: m.batch_score(hyps, refs, threads=t))
        for threads in (1, 2):
            mine(metric_name, f"mtalign str tokens, threads={threads}",
                 lambda m=metric, t=threads: m.batch_score(tok_h, tok_r, threads=t))
        for threads in (1, 2):
            mine(metric_name, f"mtalign text, threads={threads}",
                 lambda m=metric, t=threads: m.batch_score(text_h, text_r, threads=t))

    if "sacrebleu" in peers:
        import sacrebleu

        got = [sacrebleu.sentence_bleu(a, [b]).score for a, b in zip(text_h, text_r, strict=True)]
        same = "same scores" if np.array_equal(got, ids_bleu) else "scores DIFFER"
        ms = once_ms(lambda: [sacrebleu.sentence_bleu(a, [b])
                              for a, b in zip(text_h, text_r, strict=True)])
        rows.append(("sentence BLEU", f"sacrebleu {sacrebleu.__version__} sentence_bleu loop, "
                     "text", *ms, f"1 run; {same}"))
    if "nltk" in peers:
        try:
            from nltk.translate.bleu_score import sentence_bleu
        except ImportError:
            rows.append(("sentence BLEU", "nltk sentence_bleu", NAN, NAN, "not installed"))
        else:
            ms = once_ms(lambda: [sentence_bleu([b[0]], a)
                                  for a, b in zip(tok_h, tok_r, strict=True)])
            rows.append(("sentence BLEU", "nltk sentence_bleu loop, tokens", *ms, "1 run"))
    if "torchmetrics" in peers:
        try:
            from torchmetrics.functional.text import bleu_score
        except ImportError:
            rows.append(("sentence BLEU", "torchmetrics bleu_score", NAN, NAN,
                         "not installed"))
        else:
            ms = once_ms(lambda: [bleu_score([a], [[b]])
                                  for a, b in zip(text_h, text_r, strict=True)])
            rows.append(("sentence BLEU", "torchmetrics bleu_score loop, CPU", *ms, "1 run"))
    rows.append(("sentence BLEU", "TensorBLEU, A100 GPU", TENSORBLEU_A100_MS, NAN,
                 "QUOTED from arXiv 2510.05485, not measured"))
    if args.tensorbleu:
        rows += tensorbleu_rows(args.tensorbleu, h, r, args.repeat)
    if "rouge-score" in peers:
        try:
            from rouge_score import rouge_scorer
        except ImportError:
            rows.append(("ROUGE-L", "rouge-score", NAN, NAN, "not installed"))
        else:
            scorer = rouge_scorer.RougeScorer(["rougeL"])
            k = ROUGE_SCORE_PAIRS
            wall, cpu = once_ms(lambda: [scorer.score(b, a) for a, b
                                         in zip(text_h[:k], text_r[:k], strict=True)])
            scale = args.pairs / k
            rows.append(("ROUGE-L", "rouge-score loop, text", wall * scale, cpu * scale,
                         f"1 run on {k} pairs, × {scale:g}"))

    print_table(rows)
    print()
    print_extras(bleu, hyps, refs, args.repeat)


def check_tensorbleu(path: Path) -> None:
    """Refuses ``--tensorbleu`` up front (before anything is timed) without torch or file."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise SystemExit("--tensorbleu needs torch, which is not installed") from None
    if not path.is_file():
        raise SystemExit(f"--tensorbleu: no such file: {path}")


def tensorbleu_rows(path: Path, h: np.ndarray, r: np.ndarray, repeat: int
                    ) -> list[tuple[str, str, float, float, str]]:
    """TensorBLEU's ``tensor_sentence_bleu`` from the file ``path``, timed on the GPU that
    torch sees (synchronised; best of ``repeat`` after 3 warm calls), or on the CPU without one. Its
    smoothing ``"none"`` is checked against mtalign's ``Bleu(smooth="none")`` on the same
    ids (it adds 1e-12 to each precision, so equal to about 1e-9, not bit for bit)."""
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("tensorbleu", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--tensorbleu: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    want = mtalign.Bleu(smooth="none").batch_score(
        TokenIds.from_padded(h, lengths=np.full(len(h), h.shape[1])),
        TokenIds.from_padded(r, lengths=np.full(len(r), r.shape[1]))) / 100
    rows = []
    # On the CPU its torch.unique over rows is slow: timed only where no GPU is seen.
    devices = ["cuda"] if torch.cuda.is_available() else ["cpu"]
    for device in devices:
        cand = torch.from_numpy(h).to(device)
        refs = torch.from_numpy(r)[:, None, :].to(device)

        def call(method: str = "exp", c: Any = cand, x: Any = refs, on: str = device) -> Any:
            out = module.tensor_sentence_bleu(c, x, pad_token_id=-1, smoothing_method=method)
            if on == "cuda":
                torch.cuda.synchronize()
            return out

        got = call("none").double().cpu().numpy()
        diff = float(np.max(np.abs(got - want)))
        for _ in range(3):
            call()
        wall, cpu = best_ms(call, repeat)
        name = (torch.cuda.get_device_name() if device == "cuda"
                else f"CPU, torch {torch.get_num_threads()} threads")
        rows.append(("sentence BLEU", f"TensorBLEU (RxLM tensorbleu.py), {name}", wall, cpu,
                     f"MEASURED, best of {repeat}; smooth none vs mtalign: max |diff| "
                     f"{diff:.1e}"))
        print(f"{rows[-1][1]}: {wall:.1f} ms wall, {cpu:.1f} ms CPU ({rows[-1][4]})",
              flush=True)
    return rows


def print_table(rows: list[tuple[str, str, float, float, str]]) -> None:
    """One table; each row's wall time against mtalign TokenIds at threads=2 of its
    metric."""
    base = {m: ms for m, what, ms, _, _ in rows if what == "mtalign TokenIds, threads=2"}

    def shown(x: float) -> str:
        return "n/a" if x != x else f"{x:,.1f}"

    print("| metric | path | wall ms | CPU ms | wall × TokenIds threads=2 | note |")
    print("|---|---|---:|---:|---:|---|")
    for metric, what, wall, cpu, note in rows:
        ratio = "" if wall != wall else f"{wall / base[metric]:,.1f}×"
        print(f"| {metric} | {what} | {shown(wall)} | {shown(cpu)} | {ratio} | {note} |")
    for metric in base:
        get = {what: (wall, cpu) for m, what, wall, cpu, _ in rows if m == metric}
        one, two = get["mtalign TokenIds, threads=1"], get["mtalign TokenIds, threads=2"]
        tok = get["mtalign str tokens, threads=2"]
        print(f"\n{metric}: TokenIds threads=2 is {one[0] / two[0]:.2f}× threads=1 (wall); "
              f"TokenIds is {tok[0] / two[0]:.1f}× the str-token path at threads=2 (wall), "
              f"{tok[1] / two[1]:.1f}× (CPU)")


def print_scaling(hyps: TokenIds, refs: TokenIds, threads: list[int], repeat: int) -> None:
    """Wall ms of the TokenIds rows at each thread count, and the speed-up over one."""
    metrics = [("sentence BLEU", mtalign.Bleu()), ("ROUGE-L", mtalign.Rouge("rougeL"))]
    print("| threads | " + " | ".join(f"{m} ms | speed-up" for m, _ in metrics) + " |")
    print("|---:|" + "---:|---:|" * len(metrics))
    first: dict[str, float] = {}
    for t in threads:
        cells = []
        for name, metric in metrics:
            metric.batch_score(hyps, refs, threads=t)
            wall, _ = best_ms(lambda m=metric, k=t: m.batch_score(hyps, refs, threads=k), repeat)
            first.setdefault(name, wall)
            cells.append(f"{wall:.1f} | {first[name] / wall:.2f}×")
        print(f"| {t} | " + " | ".join(cells) + " |")


def print_extras(bleu: mtalign.Bleu, hyps: TokenIds, refs: TokenIds, repeat: int) -> None:
    rng = np.random.default_rng(1)
    h = rng.integers(0, 32_000, 50)
    r = h.copy()
    r[rng.random(50) < 0.3] = 7
    calls = 2000
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            bleu.sentence_score(h, [r])
        best = min(best, time.perf_counter() - t)
    print(f"one pair, sentence_score(50-id array, [50-id array]): {1e6 * best / calls:.1f} µs "
          "per call")
    tracemalloc.start()
    bleu.batch_score(hyps, refs, threads=2)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"Python memory peak of the 512 × 1,024 ids BLEU call (tracemalloc): "
          f"{peak / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
