#!/bin/sh
# The GNOME Shell extension in a real GNOME Shell, run headless by the tests themselves
# (Tests/Desktop/gnome_shell.py says how), against a stand-in watcher and against the built
# miga ($MIGA_BIN, default .build/debug/miga, with miga-gate-window beside it). Builds both
# variants of the extension (scripts/build-gnome-extension.sh); compiles nothing else.
# Where gnome-shell is missing each shell test is skipped with the reason, unless
# MIGA_REQUIRE_GNOME_SHELL=1 (CI), which makes its absence a failure.
# MIGA_GNOME_SCREENSHOTS=DIR keeps the screenshots the tests take; MIGA_GNOME_KEEP=1 keeps
# each shell's temporary home (its log is shell.log there).
# Usage: scripts/gnome-tests.sh [unittest names, e.g. test_gnome.ExtensionTests]
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
: "${MIGA_BIN:=$repo/.build/debug/miga}"
export MIGA_BIN
export PYTHONDONTWRITEBYTECODE=1
# Debian's python3, which has python3-gi for the test apps (a pyenv python on PATH may not).
python=/usr/bin/python3
[ -x "$python" ] || python=python3
cd Tests/Desktop || exit 1
if [ $# -eq 0 ]; then set -- test_gnome test_gnome_miga; fi
out=$(mktemp "${TMPDIR:-/tmp}/miga-gnome-tests.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT INT TERM
"$python" -W ignore -m unittest -v "$@" 2>&1 | tee "$out"
status=$(tail -n 5 "$out" | grep -Eq '^OK' && echo 0 || echo 1)
ran=$(sed -n 's/^Ran \([0-9]*\) tests\{0,1\} .*/\1/p' "$out" | tail -n 1)
skipped=$(grep -c '\.\.\. skipped' "$out")
failures=$(tail -n 1 "$out" | sed -n 's/.*failures=\([0-9]*\).*/\1/p')
errors=$(tail -n 1 "$out" | sed -n 's/.*errors=\([0-9]*\).*/\1/p')
failed=$(( ${failures:-0} + ${errors:-0} ))
# A run that broke before unittest's summary counts as one failure.
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
passed=$(( ${ran:-0} - failed - skipped ))
[ "$passed" -lt 0 ] && passed=0
echo "gnome tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
