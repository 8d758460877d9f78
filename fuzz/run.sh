#!/bin/sh
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address, from the parsers' own source
# files) and runs each for a bounded time: `fuzz/run.sh [SECONDS]` (default 60 each).
# Seeds: the files in fuzz/seeds/TARGET/ and the crashers kept in Tests/Fixtures/fuzz/TARGET/
# (every crash ever found, run first, so an old one fails at once). A crash, leak or hang
# fails the run and leaves the input in .build/fuzz/TARGET/; add it to Tests/Fixtures/fuzz/.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out"
flags="-parse-as-library -sanitize=fuzzer,address -O -suppress-warnings"

build() { # NAME SOURCES...
    name=$1; shift
    swiftc $flags "$@" -o "$out/$name-fuzz" >"$out/$name-build.log" 2>&1 || {
        grep -v "Cannot export local symbol" "$out/$name-build.log" >&2; echo "fuzz: building $name failed" >&2; exit 1; }
}
build desktop-entry Sources/MigaCore/DesktopEntries/DesktopEntry.swift Sources/MigaCore/DesktopEntries/ExecLine.swift \
    Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift fuzz/DesktopEntryFuzz.swift
build url -I Sources/CIDN2 Sources/WHATWGURL/*.swift Sources/MigaCore/Config/SitePath.swift fuzz/URLFuzz.swift
[ -d Sources/TOML ] && build toml Sources/TOML/*.swift fuzz/TOMLFuzz.swift
build shim Sources/MigaCore/Install/PathShim.swift Sources/MigaSystem/Text/ShellQuoting.swift \
    Sources/MigaCore/Config/AppCheck.swift Sources/ControlCharacters/TerminalText.swift Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift \
    fuzz/ShimFuzz.swift
build csv Sources/MigaCore/Store/CSVRecordFraming.swift Sources/MigaCore/Store/EventLine.swift Sources/MigaCore/Store/Event.swift \
    Sources/MigaCore/Time/CivilDay.swift Sources/JSON/*.swift \
    Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift Sources/ControlCharacters/TerminalText.swift \
    fuzz/CSVImportFuzz.swift
build journal Sources/MigaCore/Store/JournalLines.swift Sources/MigaCore/Store/EventLine.swift Sources/MigaCore/Store/Event.swift \
    Sources/MigaCore/Time/CivilDay.swift Sources/JSON/*.swift \
    Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift Sources/ControlCharacters/TerminalText.swift \
    fuzz/JournalFuzz.swift
build browser-profile Sources/MigaCore/Doctor/BrowserProfileFiles.swift Sources/JSON/*.swift \
    Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift fuzz/BrowserProfileFuzz.swift
build native-host Sources/MigaCore/Browser/NativeMessageFraming.swift Sources/MigaCore/Browser/BrowserProtocol.swift \
    Sources/JSON/*.swift Sources/MigaCore/Time/StoredNumber.swift Sources/MigaCore/Time/EventBounds.swift \
    Sources/MigaSystem/Text/StringEditing.swift Sources/MigaSystem/Text/ByteSearch.swift Sources/ControlCharacters/TerminalText.swift \
    fuzz/NativeHostFuzz.swift
build state-file Sources/JSON/*.swift Sources/MigaCore/Time/StoredNumber.swift Sources/MigaCore/Time/EventBounds.swift \
    fuzz/StateFileFuzz.swift
build shell-extension Sources/MigaCore/Room/ShellExtensionLines.swift Sources/MigaSystem/Desktop/DesktopSession.swift \
    Sources/JSON/*.swift Sources/MigaCore/Time/StoredNumber.swift Sources/MigaCore/Time/EventBounds.swift \
    fuzz/ShellExtensionFuzz.swift

status=0
for fuzzer in "$out"/*-fuzz; do
    name=$(basename "$fuzzer" -fuzz)
    corpus="$out/$name/corpus"
    mkdir -p "$corpus" "$out/$name"
    seeds=""
    for folder in "fuzz/seeds/$name" "Tests/Fixtures/fuzz/$name"; do [ -d "$folder" ] && seeds="$seeds $folder"; done
    echo "fuzz: $name for $seconds s" >&2
    # shellcheck disable=SC2086 # seeds is a list of folders
    if ! "$fuzzer" "$corpus" $seeds -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$out/$name/" >"$out/$name/log" 2>&1; then
        echo "fuzz: $name FAILED; the input is in $out/$name/ (crash-*, leak-*, timeout-*):" >&2
        tail -30 "$out/$name/log" >&2
        status=1
    else
        grep -E "stat::number_of_executed_runs|cov: " "$out/$name/log" | tail -2 >&2
    fi
done
[ "$status" -eq 0 ] && echo "fuzz: every target ran $seconds s without a crash"
exit "$status"
