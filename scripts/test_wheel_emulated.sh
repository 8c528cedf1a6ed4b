#!/usr/bin/env bash
# Runs the manylinux aarch64 wheel on this x86_64 machine under qemu-user: Debian 12's arm64
# CPython 3.11 and the libraries it needs are unpacked from Debian's arm64 packages into a
# sysroot (`dpkg -x`: nothing is installed on the system), qemu-aarch64-static from Debian's
# qemu-user-static package runs it, and the arm64 interpreter itself installs the wheel with
# pip (pip's own wheel, pure Python) next to NumPy's manylinux2014 aarch64 wheel from PyPI. The
# shipped sample is then scored with 12 metrics (scripts/wheel_scores.py) and every number is
# compared with the x86_64 reference: equal, or within 1e-12 (reported as such); anything else
# fails.
#
# Usage: bash scripts/test_wheel_emulated.sh WHEEL [REFERENCE_JSON]
#   REFERENCE_JSON: the x86_64 numbers (scripts/build_wheels.sh passes those of the x86_64
#   wheel); without it they are computed here by `python3` importing mtalign (an installed
#   or `pip install -e .` build).
# Environment: MTALIGN_EMU_DIR  keep the sysroot there (reused by the next run) instead of
#   a temporary directory.
# Needs: root, apt-get and dpkg (Debian 12 bookworm; adds the arm64 architecture to dpkg and
# runs apt-get update when its package lists are missing), network access to Debian's archive
# and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
[[ $# -ge 1 ]] || { echo "usage: $0 WHEEL [REFERENCE_JSON]" >&2; exit 2; }
WHEEL=$(realpath "$1")
case "$(basename "$WHEEL")" in
    *aarch64*.whl) ;;
    *) echo "test_wheel_emulated: $WHEEL is not an aarch64 wheel" >&2; exit 2 ;;
esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mtalign-emu.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
EMU=${MTALIGN_EMU_DIR:-$TMP/emu}
mkdir -p "$EMU"
EMU=$(cd "$EMU" && pwd)
PY=${PYTHON:-python3}

step() { printf '\n== [%ds] %s\n' "$SECONDS" "$*"; }

step "the x86_64 reference numbers"
if [[ $# -ge 2 ]]; then
    REF=$(realpath "$2")
    echo "from $REF"
else
    REF=$TMP/x86_64.json
    (cd "$TMP" && "$PY" "$ROOT/scripts/wheel_scores.py" "$REF")
fi

step "arm64 sysroot from Debian's packages, and qemu-user-static"
# Debian 12's python3.11 and the libraries of its standard library's extension modules.
ARM_PACKAGES="libc6 libgcc-s1 libstdc++6 zlib1g libexpat1 libffi8 libbz2-1.0 liblzma5 libssl3
    libcrypt1 libuuid1 libsqlite3-0 libncursesw6 libtinfo6 libreadline8 libdb5.3 libnsl2
    libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2 libkrb5support0 libkeyutils1
    python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3.11"
SYSROOT=$EMU/sysroot
QEMU=$EMU/qemu/usr/bin/qemu-aarch64-static
if [[ ! -x $SYSROOT/usr/bin/python3.11 || ! -x $QEMU ]]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        echo "adding the arm64 architecture to dpkg (for Debian's arm64 packages)"
        dpkg --add-architecture arm64
    fi
    if ! apt-cache show python3.11-minimal:arm64 >/dev/null 2>&1; then
        apt-get update -qq
    fi
    mkdir -p "$EMU/debs" "$SYSROOT" "$EMU/qemu"
    (
        cd "$EMU/debs"
        # shellcheck disable=SC2046
        apt-get download -qq qemu-user-static $(printf '%s:arm64 ' $ARM_PACKAGES) 2>&1 |
            grep -v unsandboxed || true
        for deb in *_arm64.deb; do dpkg -x "$deb" "$SYSROOT"; done
        dpkg -x qemu-user-static_*.deb "$EMU/qemu"
    )
fi
arm() { "$QEMU" -L "$SYSROOT" "$@"; }
ARM_PY=$SYSROOT/usr/bin/python3.11
arm "$ARM_PY" -c 'import platform, sys; print("arm64 interpreter:", platform.machine(), sys.version.split()[0])'

step "pip (pure Python) and NumPy's aarch64 wheel from PyPI"
mkdir -p "$EMU/wheels"
"$PY" -m pip download --quiet --disable-pip-version-check --only-binary :all: \
    --platform manylinux2014_aarch64 --python-version 3.11 --implementation cp \
    -d "$EMU/wheels" pip numpy
PIP_WHEEL=$(ls "$EMU"/wheels/pip-*.whl | tail -1)
ls "$EMU/wheels"

step "the arm64 interpreter installs $(basename "$WHEEL")"
SITE=$TMP/site
# pip run by the arm64 interpreter checks the wheel's tags against its own (cp311, aarch64,
# glibc 2.36): a wheel it may not install is refused here.
arm "$ARM_PY" "$PIP_WHEEL/pip" install --quiet --disable-pip-version-check --no-index \
    --root-user-action ignore --find-links "$EMU/wheels" --target "$SITE" "$WHEEL"
ls "$SITE"

step "score the sample under emulation and compare with x86_64"
(cd "$TMP" && "$QEMU" -L "$SYSROOT" -E PYTHONPATH="$SITE" "$ARM_PY" \
    "$ROOT/scripts/wheel_scores.py" "$TMP/aarch64.json" --compare "$REF")
