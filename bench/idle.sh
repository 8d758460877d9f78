#!/bin/sh
# Wake-ups while idle: miga's long-lived helpers should sleep until something changes (no
# polling). Each is started in its own temporary home, given a moment to settle, then left
# alone for $SECONDS_IDLE seconds (default 60), all at once; a wake-up is one voluntary
# context switch (each sleep that ended), summed over the process's threads from
# /proc/PID/task/*/status.
#   host          `miga native-host` after a hello, nothing more from the browser
#   shell-watch   `miga watch --shell` (the GNOME Shell extension's watcher), a gated window
#                 in front and the person not idle: one write of focused time a minute
#   x11-watch     `miga watch` under Xvfb + openbox with a gated app's xterm in front and no
#                 input: counting, then idle after MIGA_IDLE_SECONDS (15 here, the least
#                 allowed, so the idle phase is inside the minute); the idle person is waited
#                 for with an XSync alarm on IDLETIME (MIGA_LIBXCB_SYNC=/nonexistent in the
#                 environment measures the fallback without libxcb-sync: a look every 2 s)
#   timebox-watch `miga timebox-watch` beside an app opened "for 10 minutes"
# The GNOME Shell extension runs inside gnome-shell, which wakes for reasons of its own:
# Tests/Desktop/test_gnome.py checks that the extension's JS arms no timer while idle.
# Usage: bench/idle.sh [MIGA_BINARY]   (default: the release build, made by `make -s release`)
set -eu
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then miga=$(realpath "$1"); else make -s release >/dev/null; miga="$PWD/.build/release/miga"; fi
work=$(mktemp -d)
pids=""
cleanup() {
    for pid in $pids; do kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; done
    [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT INT TERM
seconds=${SECONDS_IDLE:-60}

# newhome NAME: a home whose config gates the app `chat`
newhome() {
    h="$work/$1"
    mkdir -p "$h/.config/miga"
    printf 'timer_seconds = 15\nsites = ["example.test"]\n[apps.chat]\ncommand = "true"\n' > "$h/.config/miga/config.toml"
    echo "$h"
}

# wakeups PID: voluntary context switches over the process's threads
wakeups() {
    cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}

# The native host, spoken to through a FIFO kept open (a browser that says nothing more).
h=$(newhome host)
mkfifo "$work/host.in"
HOME=$h setsid "$miga" native-host "chrome-extension://ofokomeiepojclgahgdjidagbanoehml/" < "$work/host.in" > "$work/host.out" 2>/dev/null &
host=$!; pids="$pids $host"
exec 3> "$work/host.in"
python3 -c 'import sys, json; b = json.dumps({"type": "hello", "id": 1}).encode(); sys.stdout.buffer.write(len(b).to_bytes(4, "little") + b)' >&3

# The shell watcher, a gated window in front.
h=$(newhome shell)
mkfifo "$work/shell.in"
HOME=$h XDG_CURRENT_DESKTOP=GNOME setsid "$miga" watch --shell < "$work/shell.in" > "$work/shell.out" 2>/dev/null &
shell=$!; pids="$pids $shell"
exec 4> "$work/shell.in"
echo '{"type":"focus","window":"3","app_id":"chat","wm_class":["chat","Chat"]}' >&4

# The X11 watcher over a gated app's xterm, when Xvfb, openbox and xterm are here.
x11=""
if command -v Xvfb >/dev/null && command -v openbox >/dev/null && command -v xterm >/dev/null; then
    h=$(newhome x11)
    display=":$((7000 + $$ % 1000))"
    setsid Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
    pids="$pids $!"
    sleep 1
    DISPLAY=$display setsid openbox >/dev/null 2>&1 &
    pids="$pids $!"
    sleep 1
    DISPLAY=$display setsid xterm -name chat -class Chat -title chat >/dev/null 2>&1 &
    pids="$pids $!"
    sleep 1
    HOME=$h DISPLAY=$display XDG_SESSION_TYPE=x11 MIGA_IDLE_SECONDS=15 setsid "$miga" watch >/dev/null 2>&1 &
    x11=$!; pids="$pids $x11"
fi

# The timebox watch beside an app opened for 10 minutes just now.
h=$(newhome timebox)
now=$(date -u +%Y-%m-%dT%H:%M:%S.000+00:00)
echo "{\"ts\":\"$now\",\"type\":\"open_selected\",\"app\":\"chat\",\"session\":\"box1\",\"content_id\":null,\"wait_ms\":31000,\"detail\":{\"minutes\":10}}" > "$work/box.jsonl"
HOME=$h "$miga" events import "$work/box.jsonl" >/dev/null
setsid sleep 600 &
app=$!; pids="$pids $app"
HOME=$h PATH="$work/nonotify:$PATH" setsid "$miga" timebox-watch box1 "$app" >/dev/null 2>&1 &
box=$!; pids="$pids $box"

sleep 3
start_host=$(wakeups "$host"); start_shell=$(wakeups "$shell"); start_box=$(wakeups "$box")
[ -n "$x11" ] && start_x11=$(wakeups "$x11")
echo "== wake-ups in $seconds s idle ($miga)"
sleep "$seconds"
report() { printf '%-14s %4d wake-ups in %d s\n' "$1" "$(( $(wakeups "$2") - $3 ))" "$seconds"; }
report host "$host" "$start_host"
report shell-watch "$shell" "$start_shell"
if [ -n "$x11" ]; then report x11-watch "$x11" "$start_x11"; else echo "x11-watch      (skipped: Xvfb, openbox or xterm missing)"; fi
report timebox-watch "$box" "$start_box"
for pid in "$host" "$shell" $x11 "$box"; do
    kill -0 "$pid" 2>/dev/null || echo "note: process $pid had ended before the end (a result of 0 means nothing)" >&2
done
