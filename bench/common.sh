# Sourced by the bench scripts: hyperfine (from Debian when missing), the release build they
# measure (the same flags as `make build`), and a work folder removed on exit.
set -eu
cd "$(dirname "$0")/.."
for tool in hyperfine:hyperfine /usr/bin/time:time; do # GNU time gives a gate's own peak memory (first_frame.py)
    command -v "${tool%%:*}" >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -qq "${tool#*:}" >/dev/null; }
done
# MIGA=path measures a binary built before (an older build, or one with symbols for
# callgrind_annotate) without building this tree.
if [ -z "${MIGA:-}" ]; then
    make -s release >/dev/null # the flags `make build` uses
fi
miga=${MIGA:-$PWD/.build/release/miga}
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"' EXIT
mkdir -p bench/results

# first_frame_ab TITLE OLD HOME_A NEW HOME_B: exec to the first frame and the gate's peak
# memory of two builds on a real pty, alternating in $rounds rounds of $runs/4 (both scripts'
# A/B: the machine's drift falls on both alike).
first_frame_ab() {
    echo "== first frame and peak memory$1, $rounds alternating rounds of $((runs / 4))"
    for round in $(seq "$rounds"); do
        python3 bench/first_frame.py "$2" "$3" $((runs / 4)) > "$work/frame-old-$round.json"
        python3 bench/first_frame.py "$4" "$5" $((runs / 4)) > "$work/frame-new-$round.json"
    done
    python3 - "$work" "$rounds" <<'FRAMES'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
for name in ("old", "new"):
    frames = [json.load(open(f"{work}/frame-{name}-{r}.json")) for r in range(1, rounds + 1)]
    medians = [f["first_frame_ms"]["median"] for f in frames]
    peaks = [f["peak_rss_mib"]["max"] for f in frames]
    print(f"{name}: first frame median of rounds {statistics.median(medians):.2f} ms ({min(medians):.2f}-{max(medians):.2f}), "
          f"peak RSS max {max(peaks):.2f} MiB")
FRAMES
}

# A browser stand-in (`/bin/true --new-window URL`) as the system's https handler, in folders
# of the work folder's that XDG_DATA_DIRS and XDG_CONFIG_DIRS then name: what `miga install`
# takes over and `open-url` hands links to.
stand_in_browser() {
    mkdir -p "$work/sys/applications" "$work/etc"
    printf '[Desktop Entry]\nType=Application\nName=Browser\nExec=/bin/true --new-window %%u\nMimeType=x-scheme-handler/https;\n' \
        > "$work/sys/applications/bench-browser.desktop"
    printf '[Default Applications]\nx-scheme-handler/https=bench-browser.desktop\n' > "$work/etc/mimeapps.list"
    export XDG_DATA_DIRS="$work/sys" XDG_CONFIG_DIRS="$work/etc"
}
