"""Every docstring example of every mtalign module runs and prints what it says.

The modules are discovered (not listed by hand), so a new module is checked as soon as it
exists, and every module must carry at least one example.
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "mtalign"
# Entry points that run a command on import, and the native module (documented in its stub).
SKIP = {"mtalign.__main__", "mtalign.cli.__main__", "mtalign._mtalign"}


def _modules() -> list[str]:
    """Module names from the source tree (without importing, so collection needs no build)."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = ("mtalign",) + path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.add(".".join(parts))
    return sorted(names - SKIP)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
