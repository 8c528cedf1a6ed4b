"""Shared fixtures for the ROUGE tests.

``tests/`` is put on ``sys.path`` so the test modules can ``from twins import rouge`` (the
slow pure-Python reference implementations, one module per metric in ``tests/twins/``).
``mtalign`` is imported only through the ``mtalign`` fixture, so the twin-only tests run
without the compiled package; tests that need the package fail (not skip) when it cannot be
imported.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent

if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

# rouge-score's and sacrebleu's own test suites alias their package: each runs in a subprocess
# of its own (tests/test_rouge_score_suite.py, tests/test_sacrebleu_suite.py), never here.
collect_ignore = ["rouge_score_suite", "sacrebleu_suite"]


@pytest.fixture(scope="session")
def mtalign():
    import mtalign as module  # deliberately lazy, see the module docstring

    return module
