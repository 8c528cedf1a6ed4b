"""Runs sacrebleu 2.6.0's own tests (``test/test_*.py`` here, unmodified) against a target
chosen by ``MTALIGN_SACREBLEU_SUITE``:

* ``mtalign``: ``sacrebleu`` and every ``sacrebleu.*`` module resolve to
  ``mtalign.compat.sacrebleu`` (a meta-path finder placed first on ``sys.meta_path``);
* ``sacrebleu``: the real package (the control run: what sacrebleu itself passes here).

Only ``tests/test_sacrebleu_suite.py`` runs this folder, in subprocesses started in this folder
(``test_significance.py`` reads ``./test/wmt17_en_de_systems.pkl.bz2``) with ``-c`` pointing
at this folder's pytest.ini, so the alias never reaches another test; ``tests/conftest.py``
keeps the main session out of this folder.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

TARGET = os.environ.get("MTALIGN_SACREBLEU_SUITE", "")


class _Existing(importlib.abc.Loader):
    """Loads an alias as the module it stands for (already imported)."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: Any) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass


class _ShimFinder(importlib.abc.MetaPathFinder):
    """``sacrebleu[.x]`` -> ``mtalign.compat.sacrebleu[.x]``."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "sacrebleu" and not name.startswith("sacrebleu."):
            return None
        module = importlib.import_module("mtalign.compat." + name)
        return importlib.util.spec_from_loader(name, _Existing(module))


if TARGET == "mtalign":
    for _name in [n for n in sys.modules if n == "sacrebleu" or n.startswith("sacrebleu.")]:
        del sys.modules[_name]
    sys.meta_path.insert(0, _ShimFinder())
elif TARGET != "sacrebleu":
    raise RuntimeError(f"MTALIGN_SACREBLEU_SUITE={TARGET!r}: use mtalign or sacrebleu")
