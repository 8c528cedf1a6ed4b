#!/usr/bin/env bash
# Fuzzes the tokenizers and every kernel for a fixed time: the core crate's proptests (each
# compares a fast path with its oracle, with large and repetitive inputs) run in a loop with
# fresh seeds and many cases until the time is up. Any failure stops the loop, prints the
# minimal failing input (proptest shrinks it) and exits 1.
# Usage: bash scripts/fuzz.sh [seconds=300] [cases per property=2000]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
cases=${2:-2000}
round=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --release -q -p mtalign-core --no-run
end=$((SECONDS + seconds))  # the build above is not fuzzing time
while ((SECONDS < end)); do
    round=$((round + 1))
    echo "== round $round (${cases} cases per property, $((end - SECONDS)) s left)"
    # `long_*` are the fixed-size long-input unit tests: nothing random to repeat.
    if ! PROPTEST_CASES=$cases cargo test --release -q -p mtalign-core -- --skip long_ \
        >"$log" 2>&1; then
        cat "$log"
        echo "fuzz: failure in round $round"
        exit 1
    fi
    grep "test result" "$log"
done
echo "fuzz: $round rounds, 0 failures"
