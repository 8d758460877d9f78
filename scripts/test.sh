#!/bin/sh
# Builds miga and runs every test (unit tests, and the built binary in temporary homes driven
# through tmux), in parallel, then checks `make install`/`make uninstall`.
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests
status=0
scripts/run-suite.sh || status=$?
[ "$status" -eq 0 ] && scripts/check-make-install.sh || status=1
exit "$status"
