#!/bin/bash
# `swift build ARGS…`, less one warning: SwiftPM reads GTK 4's pkg-config flags for the gate
# window, keeps the -I/-L/-l ones and says "warning: prohibited flag(s): -pthread, …,
# -mfpmath=sse, -msse, -msse2" about the rest (GLib's and graphene's compiler options, which a
# Swift module importing GTK's headers does not need: the window builds, links and runs
# without them). Every other line, and swift build's exit status, pass through unchanged.
"${SWIFT:-swift}" build "$@" 2> >(sed -u '/^warning: prohibited flag(s): /d' >&2)
status=$?
wait $! 2>/dev/null
exit "$status"
