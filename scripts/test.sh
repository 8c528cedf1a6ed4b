#!/usr/bin/env bash
# The whole test suite: installs mtalign (release build) with its test dependencies and perl
# for the ROUGE-1.5.5 oracle (scripts/setup_rouge155.sh), headless chromium for the report's
# rendering test (scripts/setup_chromium.sh) and WordNet for METEOR's synonym stage
# (scripts/setup_wordnet.sh), then runs the Rust checks (fmt, clippy -D warnings,
# cargo test) and the Python ones (ruff, mypy, stubtest, pytest), and builds the
# manylinux2014 wheel and the sdist and installs each into a fresh environment
# (scripts/build_wheels.sh, before pytest; MTALIGN_SKIP_WHEELS=1 leaves it out of a quick
# local run, never in CI).
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "install mtalign and its test dependencies"
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"

step "ROUGE-1.5.5 oracle: perl, XML::DOM, DB_File"
bash scripts/setup_rouge155.sh

step "headless chromium for the rendering test of mtalign report"
bash scripts/setup_chromium.sh

step "WordNet database for METEOR's synonym stage (wordnet-base)"
bash scripts/setup_wordnet.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --quiet -- -D warnings

step "cargo test (core crate)"
cargo test --quiet -p mtalign-core

step "ruff"
python3 -m ruff check python tests benches

step "mypy and stubtest"
python3 -m mypy python/mtalign
python3 -m mypy.stubtest mtalign._mtalign

step "wheels: manylinux2014 wheel and sdist, audited, installed in fresh venvs (no Rust on PATH)"
if [[ ${MTALIGN_SKIP_WHEELS:-0} == 1 && ${CI:-} != true ]]; then
    echo "skipped (MTALIGN_SKIP_WHEELS=1)"
else
    wheel_dir=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-dist.XXXXXX")
    PYTHON=python3 bash scripts/build_wheels.sh "$wheel_dir"
    rm -rf "$wheel_dir"
fi

step "pytest"
python3 -m pytest -q tests
