"""Ctrl-C during a long batch: KeyboardInterrupt within half a second, in Python and the CLI."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

CHILD = textwrap.dedent("""
    import random, sys, time
    import mtalign
    rng = random.Random(0)
    words = [f"w{i}" for i in range(300)]
    n = int(sys.argv[1])
    hyps = [" ".join(rng.choices(words, k=1500)) for _ in range(n)]
    refs = [" ".join(rng.choices(words, k=1500)) for _ in range(n)]
    metric = mtalign.Rouge(["rougeSU*", "rougeW-1.2"], compat="rouge155")
    print("ready", flush=True)
    try:
        # Several seconds of native work per call, however fast the machine.
        for _ in range(100):
            metric.batch_score(hyps, refs, threads=2)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    # The library is usable afterwards.
    out = mtalign.Rouge("rougeL").batch_score(["a b"] * 40, ["a b"] * 40)
    print("after", out["rougeL"][0, 2], flush=True)
""")


def _interrupt(args: list[str], after: float = 1.0) -> tuple[str, str, int, float]:
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout is not None
    if args[1] == "-c":
        assert p.stdout.readline().strip() == "ready"
    time.sleep(after)
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out, err, p.returncode, time.perf_counter() - sent


# 1,000 pairs are read whole, then scored; 1,100 are scored as they are read (chunk by chunk).
@pytest.mark.parametrize("pairs", [1000, 1100])
def test_ctrl_c_raises_keyboard_interrupt_quickly(pairs: int) -> None:
    out, err, code, latency = _interrupt([sys.executable, "-c", CHILD, str(pairs)])
    assert "KeyboardInterrupt" in out.split(), (out, err)
    assert "after 1.0" in out
    assert "PanicException" not in err and code == 0, err
    assert latency < 2.0  # ~0.1 s idle; generous for a loaded machine


def test_cli_exits_130_with_one_line(tmp_path: Path) -> None:
    import random

    rng = random.Random(0)
    words = [f"w{i}" for i in range(300)]
    for name in ("hyp", "ref"):
        lines = [" ".join(rng.choices(words, k=1500)) for _ in range(3000)]
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    # The CLI's main() after its imports (a Ctrl-C during `import` is Python's business).
    cli = ("import sys; from mtalign.cli import main; print('ready', flush=True); "
           "sys.exit(main(sys.argv[1:]))")
    args = [sys.executable, "-c", cli, "score", "-r", str(tmp_path / "ref"), "-i",
            str(tmp_path / "hyp"), "-m", "rougeSU*", "rougeW-1.2", "--compat", "rouge155",
            "--threads", "2"]
    out, err, code, _ = _interrupt(args, after=1.0)
    assert code == 130, (out, err)
    assert err.strip().splitlines() == ["mtalign: interrupted"]


LONG_PAIR = textwrap.dedent("""
    import json, random, sys
    import mtalign
    make, words, call, n_refs = json.loads(sys.argv[1])
    rng = random.Random(13)
    vocab = [f"w{i}" for i in range(5000)]
    weights = [1 / (k + 1) for k in range(len(vocab))]
    hyp = " ".join(rng.choices(vocab, weights, k=words))
    refs = [" ".join(rng.choices(vocab, weights, k=words)) for _ in range(n_refs)]
    metric = eval(make, {"mtalign": mtalign})
    print("ready", flush=True)
    try:
        if call == "sentence":
            metric.sentence_score(hyp, refs)
        else:
            metric.batch_score([hyp], [refs], threads=2)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
""")

#: One pair that takes many seconds (quadratic kernels), interrupted inside the kernel: (name,
#: metric, words, call, references). TER takes well under a second per 100k-word reference
#: now, so its pair has 40 of them (DCS at character level too). ROUGE-W's 60k-word pair is
#: over its default size limit (max_words=50,000), lifted here: the point is the interrupt.
LONG_PAIRS = [
    ("rougeW", "mtalign.Rouge(['rougeW-1.2'], max_words=None)", 60_000, "batch", 1),
    ("rougeW rouge155", "mtalign.Rouge(['rougeW-1.2'], compat='rouge155', max_words=None)",
     60_000, "sentence", 1),
    ("ter", "mtalign.Ter()", 100_000, "batch", 40),
    ("sia", "mtalign.Sia()", 10_000, "sentence", 1),
    # About 600k characters a text: a second or two per reference.
    ("dcs char", "mtalign.Dcs()", 100_000, "sentence", 40),
]


@pytest.mark.parametrize("name,make,words,call,n_refs", LONG_PAIRS,
                         ids=[c[0] for c in LONG_PAIRS])
def test_ctrl_c_inside_one_long_pair(name: str, make: str, words: int, call: str,
                                     n_refs: int) -> None:
    import json

    args = [sys.executable, "-c", LONG_PAIR, json.dumps([make, words, call, n_refs])]
    out, err, code, latency = _interrupt(args, after=0.5)
    assert "KeyboardInterrupt" in out.split(), (name, out, err)
    assert "finished" not in out and "PanicException" not in err and code == 0, err
    # The kernels look at the flag every few million cells; the caller every 50 ms.
    assert latency < 1.0, f"{name}: {latency:.2f} s"
