"""The documentation site's one piece of code: the Griffe extension that fences docstring
examples (scripts/griffe_doctests.py). The site itself is built strictly by
scripts/build_docs.sh (scripts/test.sh runs it); its pages' examples run in test_readme.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("griffe", reason="the docs extra: pip install '.[docs]'")

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("griffe_doctests",
                                               ROOT / "scripts" / "griffe_doctests.py")
assert _spec is not None and _spec.loader is not None
griffe_doctests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(griffe_doctests)
fence = griffe_doctests.fence_doctests


def test_an_example_and_its_output_are_fenced() -> None:
    text = "Sum:\n\n>>> 1 + 1\n2\n\nDone."
    assert fence(text) == "Sum:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nDone."


def test_indented_examples_keep_their_indent_and_end_at_the_text_end() -> None:
    text = "Args:\n    x: a list\n\n    >>> f([[0.0, 1.0]])\n    [[0.0, 1.0]]"
    assert fence(text) == ("Args:\n    x: a list\n\n    ```pycon\n    >>> f([[0.0, 1.0]])\n"
                           "    [[0.0, 1.0]]\n    ```")


def test_examples_already_in_a_fence_are_left_alone() -> None:
    text = "```python\n>>> 1\n1\n```"
    assert fence(text) == text


def test_text_without_examples_is_unchanged() -> None:
    assert fence("no example [here](x)") == "no example [here](x)"
