#!/usr/bin/env bash
# Builds and checks what `pip install mtalign` gets: the abi3 wheels for manylinux2014 x86_64
# and aarch64 (glibc >= 2.17) and the sdist (optionally a musllinux_1_2 attempt, see
# MTALIGN_WHEEL_MUSL). Each wheel is checked with `auditwheel show` (the policy it reports must
# be the one in the file name). The x86_64 wheel is installed into a fresh virtual environment
# (no system site packages) with no cargo or rustc on PATH, where `mtalign demo` and a smoke
# test run and the reference numbers are written (scripts/wheel_scores.py); then it is
# installed on every CPython 3.10-3.13 found (scripts/test_wheel_pythons.sh, a missing one
# fails) and the aarch64 wheel runs under qemu-user (scripts/test_wheel_emulated.sh), both
# compared with those numbers. The sdist is installed into fresh environments on two CPythons
# (a source build: it needs Rust; built without LTO to save time, since it checks what the
# sdist contains, not speed).
#
# Usage: bash scripts/build_wheels.sh [OUT_DIR]      (default: dist/)
# Environment:
#   PYTHON                 the interpreter for the build tools and the test environments
#                          (default: python3; any CPython >= 3.10, the wheel is abi3)
#   MTALIGN_WHEEL_MUSL=1   also try the musllinux_1_2 x86_64 wheel (maturin + zig). Off by
#                          default: zig links it against `libc.so` instead of musl's
#                          `libc.musl-x86_64.so.1`, so auditwheel calls it linux_x86_64 and the
#                          script drops it; build musl wheels in the musllinux_1_2 container
#                          (docs/release.md)
#   MTALIGN_WHEEL_SDIST=0  skip the sdist installs (the sdist is still built)
#   MTALIGN_WHEEL_AARCH64=0  skip the aarch64 wheel (a quick local run; never in CI)
#   MTALIGN_WHEEL_FAST=1   build without LTO, 16 codegen units (checks the packaging in less
#                          time; a release is built without it)
# Needs: the Rust toolchain (rustup for the musl target), network access to PyPI (maturin,
# ziglang, auditwheel and numpy are installed into a throwaway tools environment) and, for the
# aarch64 wheel, root on Debian 12 with access to Debian's archive (Debian's rustc-web and its
# arm64 standard library: scripts/setup_aarch64_rust.sh; qemu-user-static and arm64 CPython:
# scripts/test_wheel_emulated.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:-dist}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PY=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-wheels.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

step() { printf '\n== [%ds] %s\n' "$SECONDS" "$*"; }
fail() { printf 'build_wheels: FAILED: %s\n' "$*" >&2; exit 1; }

if [[ ${MTALIGN_WHEEL_FAST:-0} == 1 ]]; then
    export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
fi

step "build tools (maturin, ziglang, auditwheel) in a throwaway environment"
if ! "$PY" -c "import ensurepip, venv" 2>/dev/null; then
    # Debian's python3 keeps venv's pip bootstrap in a package of its own.
    echo "$PY has no ensurepip: installing Debian's python3-venv"
    apt-get update -qq && apt-get install -y -qq "python3-venv" ||
        fail "$PY cannot create virtual environments (install python3-venv)"
fi
"$PY" -m venv "$WORK/tools"
TOOLS=$WORK/tools/bin
# maturin finds zig as `python3 -m ziglang` of the python3 on PATH: the tools environment's.
export PATH="$TOOLS:$PATH"
"$TOOLS/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.5,<2.0" ziglang auditwheel
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
rm -f "$OUT"/mtalign-"$VERSION"-*.whl "$OUT"/mtalign-"$VERSION".tar.gz

# The platform tag auditwheel finds the wheel consistent with (extra arguments go to it).
policy_of() {
    local report
    report=$("$TOOLS/auditwheel" show "$@")
    printf '%s\n' "$report" >&2
    printf '%s\n' "$report" | tr '\n' ' ' | grep -o 'platform tag:[[:space:]]*"[^"]*"' |
        head -1 | sed 's/.*"\(.*\)"/\1/'
}

# auditwheel's policy must be a platform tag of the file name.
check_policy() {
    local whl=$1 policy
    policy=$(policy_of "$whl")
    [[ -n $policy ]] || fail "auditwheel reports no platform tag for $(basename "$whl")"
    case "$(basename "$whl" .whl)" in
        *"$policy"*) echo "policy $policy is in the file name: ok" ;;
        *) fail "auditwheel says $policy but the file is $(basename "$whl")" ;;
    esac
}

step "manylinux2014 x86_64 wheel (maturin + zig)"
# The host target (no --target): the release build of `pip install -e .` is reused.
"$TOOLS/maturin" build --release --zig --compatibility manylinux2014 --out "$OUT" --quiet
GNU_WHEEL=$(ls "$OUT"/mtalign-"$VERSION"-cp310-abi3-*manylinux2014_x86_64*.whl)
check_policy "$GNU_WHEEL"

step "manylinux2014 aarch64 wheel (cross-compiled: maturin + zig, Debian's rustc-web)"
AARCH64_WHEEL=""
if [[ ${MTALIGN_WHEEL_AARCH64:-1} == 0 && ${CI:-} != true ]]; then
    echo "skipped (MTALIGN_WHEEL_AARCH64=0)"
else
    # rustup's aarch64 standard library is not on an allowed registry; Debian's is.
    aarch64_rustc=$(bash scripts/setup_aarch64_rust.sh "$WORK/aarch64-rust") ||
        fail "no Rust compiler for aarch64 (scripts/setup_aarch64_rust.sh)"
    RUSTC=$aarch64_rustc "$TOOLS/maturin" build --release --zig --compatibility manylinux2014 \
        --target aarch64-unknown-linux-gnu --out "$OUT" --quiet
    AARCH64_WHEEL=$(ls "$OUT"/mtalign-"$VERSION"-cp310-abi3-*manylinux2014_aarch64*.whl)
    check_policy "$AARCH64_WHEEL"
fi

step "musllinux_1_2 x86_64 wheel"
if [[ ${MTALIGN_WHEEL_MUSL:-0} != 1 ]]; then
    echo "skipped: maturin + zig link the musl wheel against libc.so, not musl's" \
         "libc.musl-x86_64.so.1, so auditwheel does not find it musllinux_1_2 compliant" \
         "(MTALIGN_WHEEL_MUSL=1 tries anyway; docs/release.md: build it in the musllinux" \
         "container)"
elif ! rustup target list --installed 2>/dev/null | grep -qx x86_64-unknown-linux-musl &&
     ! timeout 300 rustup target add x86_64-unknown-linux-musl; then
    echo "skipped: rustup could not install the x86_64-unknown-linux-musl target" \
         "(no network to the Rust distribution server?)"
else
    "$TOOLS/maturin" build --release --zig --compatibility musllinux_1_2 \
        --target x86_64-unknown-linux-musl --out "$OUT" --quiet
    MUSL_WHEEL=$(ls "$OUT"/mtalign-"$VERSION"-cp310-abi3-*musllinux_1_2_x86_64*.whl)
    # An empty library path: on a glibc host, auditwheel would read glibc's libc.so (a linker
    # script) for the musl wheel's libc.so.
    mkdir -p "$WORK/no-libs"
    policy=$(policy_of --ldpaths "$WORK/no-libs" "$MUSL_WHEEL")
    case "$(basename "$MUSL_WHEEL" .whl)" in
        *"$policy"*) echo "policy $policy is in the file name: ok (not installable here: glibc)" ;;
        *) echo "dropped: auditwheel says $policy for $(basename "$MUSL_WHEEL")"
           rm -f "$MUSL_WHEEL" ;;
    esac
fi

step "sdist"
"$TOOLS/maturin" sdist --out "$OUT"
SDIST=$OUT/mtalign-$VERSION.tar.gz
[[ -f $SDIST ]] || fail "no $SDIST"

# norust_path: the PATH without any Rust toolchain on it.
source "$(dirname "${BASH_SOURCE[0]}")/norust_path.sh"

smoke() {  # smoke VENV: runs the installed package from outside the source tree
    local venv=$1
    (cd "$WORK" && "$venv/bin/mtalign" demo --threads 1 | tail -4)
    (cd "$WORK" && "$venv/bin/python" - <<'EOF'
import mtalign
from mtalign import Bleu, Chrf, Rouge, Ter

assert "/site-packages/mtalign/" in mtalign.__file__, mtalign.__file__
hyps, refs = ["the cat sat on the mat", "a b c"], ["the cat is on the mat", "a b d"]
print("BLEU", float(Bleu().corpus_score(hyps, refs)))
print("chrF", float(Chrf().corpus_score(hyps, refs)))
print("TER", float(Ter().corpus_score(hyps, refs)))
print("ROUGE-L", Rouge("rougeL").sentence_score(hyps[0], refs[0])["rougeL"].fmeasure)
assert abs(Rouge("rougeL").sentence_score("a b c", "a c")["rougeL"].fmeasure - 0.8) < 1e-12
try:
    Bleu().corpus_score(["a", "b"], ["a"])
except mtalign.InputError as e:
    print("InputError:", e)
else:
    raise SystemExit("bad input was not refused")
print("smoke test: ok", mtalign.__version__)
EOF
)
}

step "install the manylinux wheel into a fresh venv with no Rust toolchain on PATH"
"$PY" -m venv "$WORK/wheel-env"
(
    PATH=$WORK/wheel-env/bin:$(norust_path)
    export PATH
    if command -v cargo >/dev/null || command -v rustc >/dev/null; then
        fail "cargo/rustc still on PATH"
    fi
    "$WORK/wheel-env/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary :all: "$GNU_WHEEL"
    smoke "$WORK/wheel-env"
    # The reference numbers every other install is compared with.
    (cd "$WORK" && "$WORK/wheel-env/bin/python" "$ROOT/scripts/wheel_scores.py" "$WORK/x86_64.json")
)

step "the manylinux wheel on every CPython 3.10-3.13 found (and the sdist on the newest)"
if [[ ${MTALIGN_WHEEL_SDIST:-1} == 0 ]]; then
    bash scripts/test_wheel_pythons.sh "$GNU_WHEEL" "$WORK/x86_64.json"
else
    bash scripts/test_wheel_pythons.sh "$GNU_WHEEL" "$WORK/x86_64.json" "$SDIST"
fi

step "the aarch64 wheel under qemu-user, compared with x86_64"
if [[ -z $AARCH64_WHEEL ]]; then
    echo "skipped (no aarch64 wheel built)"
else
    bash scripts/test_wheel_emulated.sh "$AARCH64_WHEEL" "$WORK/x86_64.json"
fi

step "install the sdist into a fresh venv with $PY (source build with the Rust toolchain)"
if [[ ${MTALIGN_WHEEL_SDIST:-1} == 0 ]]; then
    echo "skipped (MTALIGN_WHEEL_SDIST=0)"
else
    "$PY" -m venv "$WORK/sdist-env"
    # Dependencies of the build from the registry, the project itself from the sdist only.
    CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target} CARGO_PROFILE_RELEASE_LTO=false \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        "$WORK/sdist-env/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-binary mtalign "$SDIST"
    smoke "$WORK/sdist-env"
fi

step "built"
ls -l "$OUT"/mtalign-"$VERSION"*
