#!/usr/bin/env bash
# The whole test suite: installs mtalign (release build) with its test dependencies and perl
# for the ROUGE-1.5.5 oracle (scripts/setup_rouge155.sh), headless chromium for the report's
# rendering test (scripts/setup_chromium.sh) and WordNet for METEOR's synonym stage
# (scripts/setup_wordnet.sh), then runs the Rust checks (fmt, clippy -D warnings,
# cargo test, the core crate's docs, example and package: scripts/check_crate.sh) and the
# Python ones (ruff, mypy, stubtest, pytest), and builds the manylinux2014 wheels (x86_64;
# aarch64, run under qemu-user) and the sdist, installs the x86_64 wheel on every CPython
# 3.10-3.13 found and the sdist on two (scripts/build_wheels.sh, before pytest;
# MTALIGN_SKIP_WHEELS=1 leaves it out of a quick local run, never in CI), and builds the
# documentation site strictly (scripts/build_docs.sh).
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== [%ds] %s\n' "$SECONDS" "$*"; }

step "install mtalign, its test dependencies and the documentation tools"
python3 -m pip install --quiet --disable-pip-version-check -e ".[test,docs]"

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

step "cargo test (core crate: unit, property and doc tests, the README's example)"
cargo test --quiet -p mtalign-core

step "the core as a crate: rustdoc -D warnings, the decoder example, cargo package"
bash scripts/check_crate.sh

step "ruff"
python3 -m ruff check python tests benches

step "mypy and stubtest"
python3 -m mypy python/mtalign
python3 -m mypy.stubtest mtalign._mtalign

step "wheels: manylinux2014 x86_64 and aarch64 wheels and the sdist, audited, installed and compared"
if [[ ${MTALIGN_SKIP_WHEELS:-0} == 1 && ${CI:-} != true ]]; then
    echo "skipped (MTALIGN_SKIP_WHEELS=1)"
else
    wheel_dir=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-dist.XXXXXX")
    PYTHON=python3 bash scripts/build_wheels.sh "$wheel_dir"
    rm -rf "$wheel_dir"
fi

step "documentation site: mkdocs build --strict (scripts/build_docs.sh)"
site_dir=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-site.XXXXXX")
bash scripts/build_docs.sh "$site_dir"
rm -rf "$site_dir"

step "pytest"
python3 -m pytest -q tests
