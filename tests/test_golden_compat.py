"""``compat="rouge155"`` and ``compat="rouge_score"`` against the golden numbers, from raw text.

Unlike ``test_golden_rouge155.py`` (which gives mtalign ROUGE-1.5.5's tokens), every case goes
in as TEXT, through the native ``rouge155`` / ``rouge_score`` tokenizers and stemmers, and every
golden field is compared (R, P, F within 1e-9):

* ROUGE-1.5.5 (``tests/data/rouge155_dev.jsonl``, 308 cases): all 11 metrics (ROUGE-1, 2, L,
  W-1.2, W-2, S4, SU4, S*, SU*, S0, SU0), with and without stemming (``-m``), ``-f A``
  (``multi_ref="average"``), ``-f B`` (``"best"``), each reference alone, and the jackknife
  fields (``jackknife=True``);
* rouge-score 0.1.2: rouge1, rouge2, rougeL, rougeLsum with and without stemming, ``score_multi``
  (``multi_ref="best_f"``) and each reference alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# One golden candidate is all punctuation: it scores 0 (as in ROUGE-1.5.5) with a warning.
pytestmark = pytest.mark.filterwarnings("ignore:.*produced no tokens")

DATA = Path(__file__).resolve().parent / "data" / "rouge155_dev.jsonl"
TOL = 1e-9

with DATA.open(encoding="utf-8") as _fh:
    CASES = [json.loads(line) for line in _fh if line.strip()]
MULTI = [c for c in CASES if c["n_refs"] > 1]

GOLD = {
    "ROUGE-1": "rouge1",
    "ROUGE-2": "rouge2",
    "ROUGE-L": "rougeL",
    "ROUGE-W-1.2": "rougeW-1.2",
    "ROUGE-W-2": "rougeW-2",
    "ROUGE-S4": "rougeS4",
    "ROUGE-SU4": "rougeSU4",
    "ROUGE-S*": "rougeS*",
    "ROUGE-SU*": "rougeSU*",
    "ROUGE-S0": "rougeS0",
    "ROUGE-SU0": "rougeSU0",
}
RS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def compare(out: dict, cases: list[dict], gold_of, names: dict[str, str]) -> list[str]:
    """Row i of ``out`` (variant -> (n, 3) P, R, F) against ``gold_of(cases[i])``."""
    bad = []
    for i, case in enumerate(cases):
        block = gold_of(case)
        for gold_name, var in names.items():
            want = (block[gold_name]["P"], block[gold_name]["R"], block[gold_name]["F"])
            got = tuple(float(x) for x in out[var][i])
            if any(abs(g - w) > TOL for g, w in zip(got, want, strict=True)):
                bad.append(f"{case['id']} {var}: got {got} want {want}")
    return bad


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
@pytest.mark.parametrize("mode, jackknife, field", [
    ("average", False, "fA"),
    ("best", False, "fB"),
    ("average", True, "jk_fA"),
    ("best", True, "jk_fB"),
])
def test_rouge155_every_metric(mtalign, stem, mode, jackknife, field):
    r = mtalign.Rouge(list(GOLD.values()), compat="rouge155", stem=stem, multi_ref=mode,
                      jackknife=jackknife)
    suffix = "stem" if stem else "nostem"
    key = f"{field.removeprefix('jk_')}_{suffix}"
    if field.startswith("jk"):
        cases = MULTI
        gold_of = lambda c: c["rouge155_jackknife"][key]  # noqa: E731
    else:
        # -f A and -f B are the same thing with one reference; the file has fA for those.
        cases = CASES if field == "fA" else MULTI
        gold_of = lambda c: c["rouge155"][key]  # noqa: E731
    out = r.batch_score([c["candidate"] for c in cases], [c["references"] for c in cases])
    bad = compare(out, cases, gold_of, GOLD)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:5]}"


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_rouge155_single_reference_fields(mtalign, stem):
    """Every reference of the multi-reference cases scored alone, and the one-reference cases
    under -f B (which must equal -f A there)."""
    r = mtalign.Rouge(list(GOLD.values()), compat="rouge155", stem=stem, multi_ref="best")
    suffix = "stem" if stem else "nostem"
    hyps, refs, gold = [], [], []
    for c in CASES:
        if c["n_refs"] == 1:
            hyps.append(c["candidate"])
            refs.append(c["references"][0])
            gold.append(c["rouge155"][f"fA_{suffix}"])
        else:
            for j, block in enumerate(c["rouge155_per_reference"][suffix]):
                hyps.append(c["candidate"])
                refs.append(c["references"][j])
                gold.append(block)
    out = r.batch_score(hyps, refs)
    rows = [{"id": f"row{i}", "gold": g} for i, g in enumerate(gold)]
    bad = compare(out, rows, lambda row: row["gold"], GOLD)
    assert len(rows) == sum(c["n_refs"] for c in CASES)
    assert not bad, f"{len(bad)} mismatches, first: {bad[:5]}"


@pytest.mark.parametrize("stem", [False, True], ids=["nostem", "stem"])
def test_rouge_score_golden(mtalign, stem):
    r = mtalign.Rouge(list(RS), compat="rouge_score", stem=stem)
    suffix = "stem" if stem else "nostem"
    out = r.batch_score([c["candidate"] for c in CASES], [c["references"] for c in CASES])
    bad = compare(out, CASES, lambda c: c["rouge_score"][suffix], {v: v for v in RS})
    assert not bad, f"{len(bad)} mismatches, first: {bad[:5]}"
    key = f"{suffix}_per_reference"
    per = [(c, j, b) for c in MULTI for j, b in enumerate(c["rouge_score"][key])]
    out = r.batch_score([c["candidate"] for c, _, _ in per],
                        [c["references"][j] for c, j, _ in per])
    rows = [{"id": f"{c['id']}#{j}", "gold": b} for c, j, b in per]
    bad = compare(out, rows, lambda row: row["gold"], {v: v for v in RS})
    assert not bad, f"{len(bad)} mismatches, first: {bad[:5]}"


def test_golden_has_stemming_and_quirk_cases():
    """The comparisons above have teeth: stemming changes some golden values, ROUGE-1.5.5's
    W and SU differ from the paper's, and -f B differs from -f A on some cases."""
    def differs(a, b, metric):
        return any(abs(a[metric][k] - b[metric][k]) > 1e-6 for k in "PRF")

    r155 = [c["rouge155"] for c in CASES]
    assert sum(differs(b["fA_nostem"], b["fA_stem"], "ROUGE-1") for b in r155) > 20
    multi = [b for b in r155 if "fB_nostem" in b]
    assert sum(differs(b["fA_nostem"], b["fB_nostem"], "ROUGE-L") for b in multi) > 5
    rs = [c["rouge_score"] for c in CASES]
    assert sum(differs(b["nostem"], b["stem"], "rouge1") for b in rs) > 20
