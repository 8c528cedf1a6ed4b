#!/usr/bin/env bash
# Checks mtalign-core as a crate of its own (what `cargo publish` would upload):
#   1. rustdoc with warnings as errors (every public item documented: the crate warns on
#      missing_docs, an error here and in clippy -D warnings; no broken intra-doc link);
#   2. the decoder example (k candidates scored against references, then an MBR choice per
#      group), which checks its numbers against sacrebleu 2.6.0's;
#   3. `cargo package`: the file list (README, data and licence in, nothing from outside the
#      crate) and a build of the packaged crate on its own (it must not reach into the
#      Python package's files).
# Usage: bash scripts/check_crate.sh    (scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf -- '-- %s\n' "$*"; }
fail() { printf 'check_crate: FAILED: %s\n' "$*" >&2; exit 1; }

step "cargo doc -p mtalign-core (RUSTDOCFLAGS=-D warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet -p mtalign-core --no-deps

step "cargo run --example decoder -p mtalign-core"
cargo run --quiet --example decoder -p mtalign-core

step "cargo package -p mtalign-core --list"
listing=$(cargo package -p mtalign-core --allow-dirty --list 2>/dev/null)
for f in README.md Cargo.toml src/lib.rs examples/decoder.rs data/wordnet-2.0-exceptions.tsv \
         data/WORDNET-2.0-LICENSE; do
    grep -qx "$f" <<< "$listing" || fail "the package lacks $f"
done
printf '%s\n' "$listing" | wc -l | sed 's/^/files in the package: /'

step "cargo package -p mtalign-core (builds the packaged crate alone)"
# The packaged crate is compiled from the .crate file's sources (target/package/).
cargo package --quiet -p mtalign-core --allow-dirty
ls -l "${CARGO_TARGET_DIR:-target}"/package/mtalign-core-*.crate
