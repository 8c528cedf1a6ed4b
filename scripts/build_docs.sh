#!/usr/bin/env bash
# Builds the documentation site (MkDocs + Material + mkdocstrings, mkdocs.yml) from docs/*.md
# and the docstrings, strictly: a broken link, a page missing from the navigation, a docstring
# that cannot be rendered fails the build. The Python examples on the pages run in
# tests/test_readme.py; the docstrings' examples in tests/test_docs.py.
# Usage: bash scripts/build_docs.sh OUT_DIR      (needs the `docs` extra: pip install '.[docs]')
# (Not --quiet: MkDocs counts the warnings that --strict makes errors only when it logs them.)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: $0 OUT_DIR}
PY=${PYTHON:-python3}
if ! "$PY" -c "import mkdocs, material, mkdocstrings_handlers.python" 2>/dev/null; then
    echo "build_docs: MkDocs, Material or mkdocstrings is missing: pip install '.[docs]'" >&2
    exit 1
fi
NO_MKDOCS_2_WARNING=1 "$PY" -m mkdocs build --strict --config-file mkdocs.yml \
    --site-dir "$OUT"
pages=$(find "$OUT" -name index.html -not -path "*/404*" | wc -l)
echo "site: $pages pages in $OUT"
