#!/usr/bin/env bash
# What tests/test_report.py's rendering test needs beyond the Python test dependencies: a
# headless browser, Debian's chromium (it lays out `mtalign report`'s page and takes a
# screenshot of it). Idempotent: does nothing when chromium is there.
# Usage: bash scripts/setup_chromium.sh
set -euo pipefail

have() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }

if have; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq chromium >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null; }
fi
if ! have; then
    echo "setup_chromium.sh: chromium is needed by the rendering test of mtalign report;" \
         "install it (Debian: apt-get install chromium)" >&2
    exit 1
fi
