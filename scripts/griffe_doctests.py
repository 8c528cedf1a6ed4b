"""A Griffe extension for the documentation site (mkdocs.yml): fences the docstrings' doctest
examples (``>>>`` lines and their output) as ``pycon`` code blocks, so that Markdown shows
them verbatim (unfenced, ``[[0.0, 1.0]]`` would read as a link). The examples themselves run
in tests/test_docs.py."""

from __future__ import annotations

from typing import Any

from griffe import Extension, Object


def fence_doctests(text: str) -> str:
    """``text`` with each run of doctest lines (a ``>>>`` line, its ``...`` continuations and
    its output up to a blank line) inside a ```` ```pycon ```` fence.
    (tests/test_docs_site.py checks it.)
    """
    out: list[str] = []
    in_example = fenced = False
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not in_example and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(Extension):
    """Fences the doctest examples of every loaded object's docstring."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
