#!/bin/bash
# `swift build ARGS…`, less one warning, and failing on any warning in miga's own sources.
#
# SwiftPM reads GTK 4's pkg-config flags for the gate window, keeps the -I/-L/-l ones and says
# "warning: prohibited flag(s): -pthread, …, -mfpmath=sse, -msse, -msse2" about the rest
# (GLib's and graphene's compiler options, which a Swift module importing GTK's headers does
# not need: the window builds, links and runs without them). That line is dropped.
#
# A compiler warning for a file under Sources/ or Tests/ (not a dependency's under .build/)
# fails the build after it finishes, so a new one cannot slip into CI (`make test` builds
# through here). An incremental build only prints the warnings of the files it compiles.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"${SWIFT:-swift}" build "$@" 2> >(sed -u '/^warning: prohibited flag(s): /d' | tee -a "$log" >&2) | tee -a "$log"
status=${PIPESTATUS[0]}
wait $! 2>/dev/null
root=$(pwd)
if grep -E "^$root/(Sources|Tests|Plugins)/[^:]*:[0-9]+:[0-9]+: warning:" "$log" | sort -u | grep . >&2; then
    echo "swift-build: the warnings above are in miga's own sources; fix them (CI fails on any)" >&2
    [ "$status" -eq 0 ] && status=1
fi
exit "$status"
