#!/usr/bin/env bash
# What the METEOR synonym-stage tests (tests/test_meteor.py) need: a WordNet database
# directory, Debian's wordnet-base (/usr/share/wordnet; the tests read MTALIGN_WORDNET if set).
# Idempotent: does nothing when it is there. Nothing is downloaded outside the package
# manager. Usage: bash scripts/setup_wordnet.sh
set -euo pipefail

dir="${MTALIGN_WORDNET:-/usr/share/wordnet}"
have() { [ -f "$dir/data.noun" ] && [ -f "$dir/index.noun" ] && [ -f "$dir/verb.exc" ]; }

if have; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq wordnet-base >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null && apt-get install -y -qq wordnet-base >/dev/null; }
fi
if ! have; then
    echo "setup_wordnet.sh: the METEOR tests need a WordNet database in $dir;" \
         "install it (Debian: apt-get install wordnet-base) or set MTALIGN_WORDNET" >&2
    exit 1
fi
