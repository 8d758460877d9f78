#!/bin/sh
# The extension in real browsers: Chromium (selenium + chromedriver) and Firefox ESR
# (Marionette), each against a local web server, in temporary homes (Tests/Browser/).
# Uses the built miga ($MIGA_BIN, default .build/debug/miga) and copies the extension per
# browser family into .build/browser; compiles nothing.
# A browser that is absent is skipped with the reason, unless MIGA_REQUIRE_BROWSERS=1 (CI),
# which makes its absence a failure. Ends with `browser tests: N passed, N failed, N skipped`.
# Usage: scripts/browser-tests.sh [chromium|firefox]...
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
: "${MIGA_BIN:=$repo/.build/debug/miga}"
export MIGA_BIN
export PYTHONWARNINGS="${PYTHONWARNINGS:-ignore::DeprecationWarning,ignore::ResourceWarning}"
export PYTHONDONTWRITEBYTECODE=1

passed=0 failed=0 skipped=0
finish() {
    echo "browser tests: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
    exit $?
}

if ! command -v python3 >/dev/null 2>&1; then
    echo "browser tests: python3 is missing" >&2
    failed=1; finish
fi
if [ ! -x "$MIGA_BIN" ] || ! "$MIGA_BIN" --help 2>/dev/null | grep -q "native-host"; then
    echo "browser tests: $MIGA_BIN is missing or has no native-host command (build miga first)" >&2
    failed=1; finish
fi

# The extension as each family loads it (copies; the same step as `make extension`).
scripts/build-extension.sh .build/browser || { failed=1; finish; }

browsers=${*:-chromium firefox}
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/miga-browser-tests.XXXXXX") || exit 1
trap 'rm -rf "$log_dir"' EXIT INT TERM
for browser in $browsers; do
    case $browser in
        chromium|firefox) ;;
        *) echo "browser tests: unknown browser '$browser' (chromium or firefox)" >&2; failed=$((failed + 1)); continue ;;
    esac
    echo "== $browser"
    out="$log_dir/$browser.out"
    python3 "$repo/Tests/Browser/run_tests.py" "test_$browser.py" >"$out"
    status=$?
    line=$(grep '^RESULT ' "$out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "browser tests: the $browser run ended (status $status) without a result" >&2
        failed=$((failed + 1))
        continue
    fi
    for field in $line; do
        case $field in
            passed=*) passed=$((passed + ${field#passed=})) ;;
            failed=*) failed=$((failed + ${field#failed=})) ;;
            skipped=*) skipped=$((skipped + ${field#skipped=})) ;;
        esac
    done
    if [ "$status" -ne 0 ] && [ "${line#*failed=0}" != "$line" ]; then
        failed=$((failed + 1)) # a non-zero exit with no failure counted still fails
    fi
done
finish
