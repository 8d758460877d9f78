#!/bin/sh
# Runs the whole suite RUNS times in a row (default 10), as `make test` runs it (swift test
# --parallel), the last LOADED of them (default 5) while `stress-ng --cpu 2` keeps both cores
# busy, and says how many passed. A suite that passes only on a quiet machine fails here.
# Not part of CI (it takes half an hour); run it after changing a test that waits on anything.
#   scripts/repeat-tests.sh [RUNS [LOADED]]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10}
loaded=${2:-5}
command -v stress-ng >/dev/null || { echo "repeat-tests: stress-ng is missing; install it: sudo apt-get install stress-ng" >&2; exit 1; }
logs=.build/repeat-tests
rm -rf "$logs" && mkdir -p "$logs"
swift build --build-tests >"$logs/build.log" 2>&1 || { cat "$logs/build.log" >&2; exit 1; }

hog=""
stop_hog() { [ -z "$hog" ] || { kill "$hog" 2>/dev/null || true; wait "$hog" 2>/dev/null || true; hog=""; }; }
trap stop_hog EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
run=1
while [ "$run" -le "$runs" ]; do
    load="quiet"
    if [ "$run" -gt $((runs - loaded)) ]; then
        load="2 CPU hogs"
        [ -n "$hog" ] || { stress-ng --cpu 2 --timeout 24h --quiet & hog=$!; }
    fi
    started=$(date +%s)
    if scripts/run-suite.sh >"$logs/run-$run.log" 2>&1; then
        passed=$((passed + 1)); verdict=ok
    else
        failed=$((failed + 1)); verdict="FAILED (log: $logs/run-$run.log)"
    fi
    summary=$(grep '^tests: ' "$logs/run-$run.log" | tail -1)
    echo "run $run/$runs ($load, $(($(date +%s) - started)) s): ${summary:-no summary} $verdict"
    grep '^FAILED ' "$logs/run-$run.log" | sed 's/^/    /' || true
    run=$((run + 1))
done
stop_hog
echo "repeat-tests: $passed of $runs runs passed"
[ "$failed" -eq 0 ]
