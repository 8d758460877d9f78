#!/bin/sh
# Takes the README's picture of the gate window: the built miga and miga-gate-window under
# Xvfb, in a throwaway home, in front of `true`. Writes docs/gate-window.png (and
# docs/gate-window-dark.png with GTK's dark theme). Needs xvfb, xdotool and imagemagick.
# Usage: scripts/screenshot-window.sh [MIGA_BINARY]   (default .build/debug/miga)
set -eu
cd "$(dirname "$0")/.."
miga=$(realpath "${1:-.build/debug/miga}")
work=$(mktemp -d)
display=$(( $$ % 400 + 300 ))
Xvfb ":$display" -noreset -screen 0 900x640x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
export DISPLAY=":$display" HOME="$work" XDG_RUNTIME_DIR="$work"
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
mkdir -p "$work/.config/miga"
printf 'timer_seconds = 30\n' > "$work/.config/miga/config.toml"
shoot() { # NAME [ENV...]
    name=$1; shift
    env "$@" "$miga" gate --app discord --detach -- true </dev/null >/dev/null 2>&1 &
    gate=$!
    window=$(xdotool search --sync --name '^miga$' | head -n 1)
    sleep 3 # a few seconds into the countdown, so the bar and the breathing cue show
    import -window "$window" "docs/$name.png"
    kill "$gate"; wait "$gate" 2>/dev/null || true
    echo "wrote docs/$name.png"
}
shoot gate-window
shoot gate-window-dark GTK_THEME=Adwaita:dark
