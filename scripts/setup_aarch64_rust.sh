#!/usr/bin/env bash
# Prepares a Rust compiler that can build for aarch64-unknown-linux-gnu, from Debian's archive
# only: rustup's aarch64 standard library comes from static.rust-lang.org, which CI may not
# reach, so this unpacks Debian 12's `rustc-web` (a newer rustc for bookworm, kept updated by
# Debian security) with its standard libraries for amd64 (build scripts, proc macros) and
# arm64 (the target), and its LLVM, into DIR with `dpkg -x` (nothing is installed on the
# system). Prints the path of a `rustc` wrapper to use as RUSTC with rustup's cargo.
#
# Usage: RUSTC=$(bash scripts/setup_aarch64_rust.sh DIR)
# Needs: root, apt-get and dpkg (Debian 12 bookworm; adds the arm64 architecture to dpkg and
# runs apt-get update when the arm64 package lists are missing).
set -euo pipefail
DIR=${1:?usage: $0 DIR}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
log() { printf '%s\n' "$*" >&2; }

if [[ -x $DIR/rustc && -d $DIR/root/usr/lib/rustlib/aarch64-unknown-linux-gnu ]]; then
    echo "$DIR/rustc"
    exit 0
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "adding the arm64 architecture to dpkg (for Debian's arm64 packages)"
    dpkg --add-architecture arm64
fi
if ! apt-cache show libstd-rust-web-dev:arm64 >/dev/null 2>&1; then
    apt-get update -qq >&2
fi
version=$(apt-cache show --no-all-versions rustc-web | sed -n 's/^Version: //p' | head -1)
[[ -n $version ]] || { log "setup_aarch64_rust: Debian has no rustc-web here"; exit 1; }
# libstd-rust-web-<major.minor> holds librustc_driver; libllvm<N> the LLVM it links.
mm=$(sed 's/^\([0-9]*\.[0-9]*\).*/\1/' <<< "$version")
llvm=$(apt-cache depends "libstd-rust-web-$mm:amd64" | sed -n 's/.*Depends: \(libllvm[0-9]*\).*/\1/p' |
       head -1)
log "Debian rustc-web $version (LLVM package $llvm) into $DIR"
mkdir -p "$DIR/debs" "$DIR/root"
(
    cd "$DIR/debs"
    apt-get download -qq "rustc-web=$version" "libstd-rust-web-$mm:amd64=$version" \
        "libstd-rust-web-dev:amd64=$version" "libstd-rust-web-$mm:arm64=$version" \
        "libstd-rust-web-dev:arm64=$version" "$llvm:amd64" 2>&1 | grep -v unsandboxed >&2 || true
    for deb in *.deb; do dpkg -x "$deb" "$DIR/root"; done
)
cat > "$DIR/rustc" <<WRAP
#!/bin/sh
# Debian's rustc-web, unpacked by scripts/setup_aarch64_rust.sh; its sysroot is $DIR/root/usr.
LD_LIBRARY_PATH=$DIR/root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} \\
    exec "$DIR/root/usr/bin/rustc" "\$@"
WRAP
chmod +x "$DIR/rustc"
"$DIR/rustc" --version >&2
[[ -d $DIR/root/usr/lib/rustlib/aarch64-unknown-linux-gnu/lib ]] ||
    { log "setup_aarch64_rust: no aarch64 standard library in the packages"; exit 1; }
echo "$DIR/rustc"
