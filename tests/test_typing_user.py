"""A user's code that constructs metrics with keyword options type-checks with mypy.

``Metric`` is a ``dataclass_transform`` base, so any annotation in a metric's class body is
read by mypy as a constructor field; a private slot annotated there once made every
``mtalign.Bleu(smooth=...)`` call a mypy error in users' code. This runs mypy on such code.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

USER_CODE = textwrap.dedent("""
    import mtalign

    metrics = [
        mtalign.Bleu(smooth="exp", tokenize="13a", effective_order=True),
        mtalign.Bleu.bleus(4),
        mtalign.Chrf(word_order=2),
        mtalign.Ter(),
        mtalign.Rouge(["rougeL"], lowercase=True),
        mtalign.Wer(),
    ]
    bleu = mtalign.Bleu(smooth="add1", max_order=2)
    score: float = float(bleu.corpus_score(["a b c"], [["a b c"]]))
""")


def test_users_metric_construction_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    path = tmp_path / "user.py"
    path.write_text(USER_CODE, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", str(path)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
