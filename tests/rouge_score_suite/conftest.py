"""Runs rouge-score 0.1.2's own tests (the ``*_test.py`` files here, unmodified) against a
target chosen by ``MTALIGN_ROUGE_SCORE_SUITE``:

* ``mtalign`` (default): ``rouge_score`` and its modules are aliased to
  ``mtalign.compat.rouge_score``;
* ``rouge_score``: the real package (the control run: what rouge-score itself passes here).

``rouge_score.test_util`` is always the copy here, so the test data is read from
``testdata/``. Only ``tests/test_rouge_score_suite.py`` runs this, in a subprocess (with
``-c`` pointing at this folder's pytest.ini), so the alias never leaks into other tests.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = os.environ.get("MTALIGN_ROUGE_SCORE_SUITE", "mtalign")

_spec = importlib.util.spec_from_file_location("rouge_score.test_util", HERE / "test_util.py")
assert _spec is not None and _spec.loader is not None
_test_util = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_test_util)

if TARGET == "mtalign":
    # A stand-in package object (not mtalign's own, which stays untouched) whose modules are
    # mtalign's.
    _alias = types.ModuleType("rouge_score")
    sys.modules["rouge_score"] = _alias
    for _name in ("io", "rouge_scorer", "scoring", "tokenize", "tokenizers"):
        _module = importlib.import_module(f"mtalign.compat.rouge_score.{_name}")
        sys.modules[f"rouge_score.{_name}"] = _module
        setattr(_alias, _name, _module)
elif TARGET == "rouge_score":
    import rouge_score as _alias
else:
    raise RuntimeError(f"MTALIGN_ROUGE_SCORE_SUITE={TARGET!r}: use mtalign or rouge_score")

sys.modules["rouge_score.test_util"] = _test_util
_alias.test_util = _test_util  # type: ignore[attr-defined]
