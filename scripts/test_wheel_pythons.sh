#!/usr/bin/env bash
# Installs the abi3 wheel on every CPython from 3.10 to 3.13 found on this machine, each into a
# fresh virtual environment with no Rust toolchain on PATH, and checks that it scores the
# shipped sample exactly as the reference run did (scripts/wheel_scores.py). With SDIST, also
# builds and installs the sdist on the newest CPython found (a second interpreter besides
# the one scripts/build_wheels.sh builds it with).
#
# A version that is not found is reported (MISSING) and fails the run: nothing is skipped
# silently. MTALIGN_PYTHONS="3.10 3.12" narrows the list on purpose.
#
# Usage: bash scripts/test_wheel_pythons.sh WHEEL REFERENCE_JSON [SDIST]
# Interpreters are looked up as python3.X on PATH, then under $PYENV_ROOT/versions
# (default /root/.pyenv), then /usr/bin and /usr/local/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
[[ $# -ge 2 ]] || { echo "usage: $0 WHEEL REFERENCE_JSON [SDIST]" >&2; exit 2; }
WHEEL=$(realpath "$1")
REF=$(realpath "$2")
SDIST=${3:+$(realpath "$3")}
VERSIONS=${MTALIGN_PYTHONS:-3.10 3.11 3.12 3.13}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-pythons.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The interpreter of CPython X.Y, or nothing (pyenv's shims are skipped: they may point to a
# version other than the one named).
find_python() {
    local v=$1 c
    for c in $(type -ap "python$v") "${PYENV_ROOT:-/root/.pyenv}"/versions/"$v".*/bin/"python$v" \
             /usr/bin/"python$v" /usr/local/bin/"python$v"; do
        [[ -x $c && $c != */shims/* ]] || continue
        if "$c" -c "import sys; assert sys.implementation.name == 'cpython' and \
                    '%d.%d' % sys.version_info[:2] == '$v'" 2>/dev/null; then
            echo "$c"
            return
        fi
    done
}

# norust_path: the PATH without any Rust toolchain on it.
source "$(dirname "${BASH_SOURCE[0]}")/norust_path.sh"

declare -a SUMMARY=()
failed=0
newest=""
for v in $VERSIONS; do
    py=$(find_python "$v")
    if [[ -z $py ]]; then
        printf '\n!! CPython %s: MISSING (not on PATH, not under %s/versions)\n' \
            "$v" "${PYENV_ROOT:-/root/.pyenv}" >&2
        SUMMARY+=("$v  MISSING")
        failed=1
        continue
    fi
    newest=$py
    printf '\n== CPython %s (%s): the wheel in a fresh venv, no Rust on PATH\n' "$v" "$py"
    env_dir=$WORK/venv-$v
    "$py" -m venv "$env_dir"
    if (
        PATH=$env_dir/bin:$(norust_path)
        export PATH
        "$env_dir/bin/python" -m pip install --quiet --disable-pip-version-check \
            --only-binary :all: "$WHEEL"
        cd "$WORK"
        "$env_dir/bin/mtalign" --help >/dev/null
        "$env_dir/bin/python" "$ROOT/scripts/wheel_scores.py" "$WORK/scores-$v.json" \
            --compare "$REF" | tail -2
    ); then
        SUMMARY+=("$v  ok     $("$py" -c 'import platform; print(platform.python_version())')")
    else
        SUMMARY+=("$v  FAILED")
        failed=1
    fi
done

if [[ -n $SDIST ]]; then
    if [[ -z $newest ]]; then
        SUMMARY+=("sdist  FAILED: no interpreter")
        failed=1
    else
        v=$("$newest" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
        printf '\n== the sdist on CPython %s (a source build with the Rust toolchain)\n' "$v"
        "$newest" -m venv "$WORK/sdist-$v"
        if CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target} CARGO_PROFILE_RELEASE_LTO=false \
            CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
            "$WORK/sdist-$v/bin/python" -m pip install --quiet --disable-pip-version-check \
                --no-binary mtalign "$SDIST" &&
           (cd "$WORK" && "$WORK/sdist-$v/bin/python" "$ROOT/scripts/wheel_scores.py" \
                "$WORK/sdist-$v.json" --compare "$REF" | tail -2); then
            SUMMARY+=("sdist on $v  ok")
        else
            SUMMARY+=("sdist on $v  FAILED")
            failed=1
        fi
    fi
fi

printf '\n== CPython versions (the abi3 wheel %s)\n' "$(basename "$WHEEL")"
printf '  %s\n' "${SUMMARY[@]}"
exit $failed
