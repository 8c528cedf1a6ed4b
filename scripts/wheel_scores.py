"""Scores of an installed mtalign on the shipped WMT21 sample, to compare installs.

    python wheel_scores.py OUT.json                 # write the scores
    python wheel_scores.py OUT.json --compare REF   # write them, then compare with REF

Run by scripts/build_wheels.sh (the x86_64 wheel on CPython 3.11 writes the reference),
scripts/test_wheel_pythons.sh (each CPython) and scripts/test_wheel_emulated.sh (the aarch64
wheel under qemu). Every number must equal the reference's; a number that differs by at most
1e-12 (relative) is reported as such (floating-point contraction, e.g. fused multiply-add on
aarch64) and accepted; anything else fails (exit 1). Run it from outside the source tree, so
that the installed package is the one imported.
"""

from __future__ import annotations

import json
import math
import platform
import sys

TOLERANCE = 1e-12


def scores() -> dict[str, float]:
    """Corpus scores of 12 metrics and sentence-level figures on one system of the sample."""
    import mtalign

    systems, refs = mtalign.demo.load_sample()
    hyps = systems["Online-W"]
    out: dict[str, float] = {}
    corpus = {
        "bleu": mtalign.Bleu(),
        "chrf": mtalign.Chrf(),
        "chrf++": mtalign.Chrf(word_order=2),
        "ter": mtalign.Ter(),
        "wer": mtalign.Wer(),
        "nist": mtalign.Nist(),
        "ribes": mtalign.Ribes(),
        "meteor": mtalign.Meteor(),
        "gtm": mtalign.Gtm(),
    }
    for name, metric in corpus.items():
        out[name] = float(metric.corpus_score(hyps, refs))
    rouge = mtalign.Rouge(["rouge2", "rougeL", "rougeSU4"]).corpus_score(hyps, refs)
    for variant in ("rouge2", "rougeL", "rougeSU4"):
        out[f"{variant}.f"] = float(rouge[variant].fmeasure)
    for name, metric in (
        ("bleu", mtalign.Bleu()),
        ("bleu-add1", mtalign.Bleu(smooth="add1")),
        ("chrf", mtalign.Chrf()),
    ):
        batch = [float(x) for x in metric.batch_score(hyps, refs)]
        out[f"{name}.sentence_sum"] = math.fsum(batch)
        out[f"{name}.sentence[0]"] = batch[0]
    return out


def compare(ours: dict[str, float], reference: dict[str, float]) -> bool:
    """Prints one line per number; True when every number matches (exactly or within 1e-12)."""
    ok = set(ours) == set(reference)
    if not ok:
        print(f"different names: {sorted(set(ours) ^ set(reference))}")
    for name in sorted(set(ours) & set(reference)):
        a, b = ours[name], reference[name]
        if a == b:
            verdict = "equal"
        elif math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=0.0):
            verdict = f"within 1e-12 (differs by {abs(a - b):.3g})"
        else:
            verdict = "DIFFERENT"
            ok = False
        print(f"  {name:<20} {a!r:<24} {verdict}")
    return ok


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 3) or (len(argv) == 3 and argv[1] != "--compare"):
        print(__doc__, file=sys.stderr)
        return 2
    ours = scores()
    with open(argv[0], "w", encoding="utf-8") as f:
        json.dump(ours, f, indent=1, sort_keys=True)
    import mtalign

    python = f"CPython {platform.python_version()}"
    where = f"{platform.machine()} {python} mtalign {mtalign.__version__}"
    print(f"{len(ours)} numbers from {where}")
    if len(argv) == 3:
        with open(argv[2], encoding="utf-8") as f:
            reference = json.load(f)
        if not compare(ours, reference):
            print(f"FAILED: {where} differs from {argv[2]}")
            return 1
        print(f"every number matches {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
