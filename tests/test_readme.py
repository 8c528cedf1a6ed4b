"""The README and docs/ as a newcomer uses them: every Python block marked runnable runs (and
the side-by-side blocks assert mtalign's number equals the peer package's: sacrebleu,
rouge-score, nltk, jiwer), every relative link points to a file that exists (and an anchor to
a heading in it), every ``mtalign.X`` the text calls resolves after ``import mtalign`` alone,
and the first screen's commands are the ones CI runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
MARKDOWN = [README, *DOCS]
MARKER = "<!-- runnable -->"
# A block that runs after SAMPLE_PRELUDE: `hyps`, `refs` etc. from the shipped sample, as the
# page says in words.
SAMPLE_MARKER = "<!-- runnable: sample -->"
# A block that is not run, and why (a file or package the test suite does not have).
NOT_RUN = re.compile(r"^<!-- not run: (.+) -->$")
SAMPLE_PRELUDE = (
    "import mtalign\n"
    "systems, refs = mtalign.demo.load_sample()\n"
    "hyps = systems['Online-W']\n"
    "hyp, ref = hyps[0], refs[0][0]\n"
    "idx = list(range(0, len(hyps), 3))\n"
)
FENCE = re.compile(r"^(```+|~~~+)")


def _runnable_blocks(path: Path, marker: str = MARKER) -> list[tuple[int, str]]:
    """(line number, code) of each ```python block right after a ``marker`` line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks = []
    for i, line in enumerate(lines):
        if line.strip() != marker:
            continue
        assert lines[i + 1].strip() == "```python", f"{path.name}:{i + 1}: marker not before code"
        end = lines.index("```", i + 2)
        blocks.append((i + 3, "\n".join(lines[i + 2:end]) + "\n"))
    return blocks


BLOCKS = [(path, line, code) for path in MARKDOWN for line, code in _runnable_blocks(path)]
SAMPLE_BLOCKS = [(path, line, code) for path in MARKDOWN
                 for line, code in _runnable_blocks(path, SAMPLE_MARKER)]


def test_readme_has_runnable_blocks() -> None:
    assert len([b for b in BLOCKS if b[0] == README]) >= 6


@pytest.mark.parametrize("path,line,code", BLOCKS,
                         ids=[f"{p.name}:{n}" for p, n, _ in BLOCKS])
def test_runnable_block(path: Path, line: int, code: str, capsys: pytest.CaptureFixture
                        ) -> None:
    run = compile(code, f"{path.name}:{line}", "exec")
    exec(run, {"__name__": "__readme__"})
    assert capsys.readouterr().out  # each block shows something


@pytest.mark.parametrize("path,line,code", SAMPLE_BLOCKS,
                         ids=[f"{p.name}:{n}" for p, n, _ in SAMPLE_BLOCKS])
def test_runnable_block_on_the_sample(path: Path, line: int, code: str) -> None:
    """Blocks that use `hyps`, `refs`, `hyp`, `ref` run with them taken from the sample."""
    exec(compile(SAMPLE_PRELUDE + code, f"{path.name}:{line}", "exec"), {"__name__": "__doc__"})


@pytest.mark.parametrize("path", MARKDOWN, ids=[p.name for p in MARKDOWN])
def test_every_python_block_runs_or_says_why_not(path: Path) -> None:
    """The documentation site shows these pages: each ```python block on them is run by the
    tests (one of the two markers) or carries ``<!-- not run: why -->``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    unmarked = []
    for i, line in enumerate(lines):
        if line.strip() != "```python":
            continue
        before = lines[i - 1].strip() if i else ""
        if before not in (MARKER, SAMPLE_MARKER) and not NOT_RUN.match(before):
            unmarked.append(i + 1)
    assert not unmarked, f"{path.name}: python blocks neither run nor excused at {unmarked}"


def test_quick_example_is_ten_lines() -> None:
    line, code = _runnable_blocks(README)[0]
    text = README.read_text(encoding="utf-8")
    assert text.index(code) < text.index("\n## ")  # on the first screen
    assert len([c for c in code.split("\n") if c.strip()]) <= 10


def test_first_commands_are_what_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    first_screen = text[:text.index("\n## ")]
    assert "pip install . && mtalign demo" in first_screen
    assert "bash scripts/test.sh" in first_screen
    assert "pip install mtalign" in first_screen  # the route once published
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in [c.strip() for c in ci.split("\n")]
    assert (ROOT / "scripts" / "test.sh").is_file()
    assert 'mtalign = "mtalign.cli:main"' in (ROOT / "pyproject.toml").read_text()


# -- links ----------------------------------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text outside fenced code blocks."""
    out, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return "\n".join(out)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(path.read_text(encoding="utf-8")).split("\n"):
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


@pytest.mark.parametrize("path", MARKDOWN, ids=[p.name for p in MARKDOWN])
def test_relative_links_resolve(path: Path) -> None:
    broken = []
    for target in LINK.findall(_prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{path.relative_to(ROOT)}: {broken}"


def test_the_long_reference_moved_with_its_tables() -> None:
    speed = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    for row in ("| ROUGE-L | 1.37M |", "| sentence TER | 38.6k |", "| WER | 920k |",
                "| chrF reference aggregation, N = 1024 | 22 ms |"):
        assert row in speed
    readme = README.read_text(encoding="utf-8")
    for doc in ("reference", "cli", "ranking", "speed", "install", "names"):
        assert f"(docs/{doc}.md)" in readme


# -- mtalign.X names ------------------------------------------------------------------------

NAME = re.compile(r"(?<![\w./])mtalign(?:\.[A-Za-z_]\w*)+")
IMPORTED = re.compile(r"(?:from|import)\s+$")


def _called_names() -> dict[str, str]:
    """``mtalign.X.Y`` as the README and docs write them (not in ``import``/``from`` lines,
    where a submodule is imported by name), with where each first appears."""
    names: dict[str, str] = {}
    for path in MARKDOWN:
        text = path.read_text(encoding="utf-8")
        for m in NAME.finditer(text):
            if IMPORTED.search(text[max(0, m.start() - 8):m.start()]):
                continue
            line = text.count("\n", 0, m.start()) + 1
            names.setdefault(m.group(0), f"{path.relative_to(ROOT)}:{line}")
    return names


def test_every_called_name_resolves_after_import_mtalign() -> None:
    names = _called_names()
    assert "mtalign.demo.load_sample" in names and "mtalign.meta.correlate" in names
    # A fresh interpreter, so nothing imported by other tests hides a missing attribute.
    # Attributes first; then a name that is not one passes only if it names a module (as
    # prose names a module: ``import`` it to use it), looked up after every attribute walk
    # so that the lookup's imports cannot hide a missing attribute.
    script = (
        "import importlib.util, json, sys\nimport mtalign\nmissing = []\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    obj = mtalign\n"
        "    try:\n"
        "        for part in name.split('.')[1:]:\n"
        "            obj = getattr(obj, part)\n"
        "    except AttributeError:\n"
        "        missing.append(name)\n"
        "def is_module(name):\n"
        "    try:\n"
        "        return importlib.util.find_spec(name) is not None\n"
        "    except ImportError:\n"
        "        return False\n"
        "print(json.dumps([n for n in missing if not is_module(n)]))\n")
    out = subprocess.run([sys.executable, "-c", script, json.dumps(sorted(names))],
                         capture_output=True, text=True, check=True).stdout
    bad = set(json.loads(out))
    assert not bad, [f"{n} ({names[n]})" for n in sorted(bad)]


def test_demo_is_an_attribute_and_dask_is_not_imported() -> None:
    script = ("import sys, mtalign\n"
              "assert 'mtalign.demo' not in sys.modules and 'dask' not in sys.modules\n"
              "systems, refs = mtalign.demo.load_sample()\n"
              "assert 'demo' in dir(mtalign) and 'dask' not in sys.modules\n"
              "assert mtalign.dask.corpus_score and 'dask' in sys.modules\n"
              "print(len(systems))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "4"
