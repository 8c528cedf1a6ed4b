"""sacrebleu 2.6.0's own test suite through ``mtalign.compat.sacrebleu``.

``tests/sacrebleu_suite/test/`` holds the offline test files of sacrebleu's sdist, unmodified
(Apache-2.0, see the README there), and the WMT17 pickle they read. The suite runs twice in
subprocesses: with ``sacrebleu`` resolved to mtalign's shim, and against sacrebleu itself (the
control). The shim must pass every test sacrebleu passes (130 today).
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent / "sacrebleu_suite"
PYTHON = Path(__file__).resolve().parents[1] / "python"


def run_suite(target: str, tmp_path: Path) -> dict[str, str]:
    """Test id -> "" when it passed, else its failure text."""
    report = tmp_path / f"{target}.xml"
    env = dict(os.environ, MTALIGN_SACREBLEU_SUITE=target)
    env.pop("SACREBLEU_SEED", None)
    if target == "mtalign":  # the shim of this checkout, whatever the caller's path
        env["PYTHONPATH"] = os.pathsep.join([str(PYTHON), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c",
         str(SUITE / "pytest.ini"), "--rootdir", str(SUITE), f"--junitxml={report}"],
        cwd=SUITE, env=env, capture_output=True, text=True, timeout=1200)
    assert report.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}.{case.get('name')}"
        bad = [child for child in case if child.tag in ("failure", "error", "skipped")]
        out[name] = "".join((c.get("message") or "") + (c.text or "") for c in bad) \
            if bad else ""
    return out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sacrebleu_suite")
    return {target: run_suite(target, tmp) for target in ("mtalign", "sacrebleu")}


def test_the_shim_is_what_the_suite_imports():
    code = ("import sacrebleu, sacrebleu.metrics, sacrebleu.significance, "
            "sacrebleu.tokenizers.tokenizer_ter as t; "
            "print(sacrebleu.__name__, sacrebleu.metrics.BLEU.__module__, t.__name__)")
    env = dict(os.environ, MTALIGN_SACREBLEU_SUITE="mtalign",
               PYTHONPATH=os.pathsep.join([str(SUITE), str(PYTHON)]))
    out = subprocess.run([sys.executable, "-c", "import conftest; " + code], cwd=SUITE,
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["mtalign.compat.sacrebleu",
                                  "mtalign.compat.sacrebleu.metrics.bleu",
                                  "mtalign.compat.sacrebleu.tokenizers.tokenizer_ter"], out.stderr


def test_shim_passes_what_sacrebleu_passes(results):
    ours, theirs = results["mtalign"], results["sacrebleu"]
    assert ours.keys() == theirs.keys()
    passed_by_sacrebleu = sorted(k for k, v in theirs.items() if not v)
    assert len(passed_by_sacrebleu) >= 130
    failed = {k: ours[k][-500:] for k in passed_by_sacrebleu if ours[k]}
    assert not failed
    # every vendored module contributes passing tests (none fails at import)
    modules = {k.split(".")[1] for k in passed_by_sacrebleu}
    assert modules == {"test_bleu", "test_chrf", "test_sentence_bleu", "test_significance",
                       "test_ter", "test_tokenizer_ter"}
