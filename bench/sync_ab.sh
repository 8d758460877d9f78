#!/bin/sh
# A/B of two miga builds on the paths sync_folder touches, in one run so the machine's drift
# falls on both alike: `bench/sync_ab.sh OLD_MIGA [NEW_MIGA]` (NEW defaults to this tree's
# release build). Each build gets its own home, made the same way: sync_folder on, a recent
# Open (so a gate passes in grace), and another machine's 100,000 events waiting in the folder.
#   1. a grace pass of `miga gate` (hyperfine, both commands in one run: the ratio);
#   2. exec to the first frame and the gate's peak memory on a real pty (bench/first_frame.py),
#      the two builds alternating in rounds;
#   3. the instructions the grace pass runs (callgrind: noise cannot move them; the process
#      itself, not the sync push it may start).
. "$(dirname "$0")/common.sh"
old=$1
new=${2:-$miga}
runs=${RUNS:-100}
rounds=${ROUNDS:-4}

home_for() { # NAME BINARY: a home with sync on and another machine's journal waiting
    h="$work/$1"
    mkdir -p "$h/.config/miga" "$h/Sync/miga/bbbbbbbbbbbbbbbb"
    printf 'animations = false\nsync_folder = "~/Sync/miga"\n' > "$h/.config/miga/config.toml"
    env -i HOME="$h" PATH=/usr/bin:/bin "$2" gate --app grace -- /bin/true 2>/dev/null # the database and the id
    now=$(date +%s%3N)
    sqlite3 -cmd ".timeout 5000" "$h/.local/share/miga/miga.sqlite3" \
        "INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES ($now, 0, 'bench', 'open_selected', 'grace')"
    python3 - "$h/Sync/miga/bbbbbbbbbbbbbbbb/events-$(date -u +%Y-%m).jsonl" "$now" <<'JOURNAL'
import sys, datetime
path, now = sys.argv[1], int(sys.argv[2])
def iso(ms):
    moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+00:00" % (ms % 1000)
with open(path, "w") as out:
    out.write('{"miga_journal":1,"device":"bbbbbbbbbbbbbbbb","host":"other"}\n')
    for i in range(100_000):
        ts = now - 86_400_000 + i * 800
        out.write('{"ts":"%s","type":"exit_selected","app":"discord","session":"o%d","content_id":null,"wait_ms":15000,"detail":null}\n' % (iso(ts), i))
JOURNAL
    echo "$h"
}
a=$(home_for old "$old")
b=$(home_for new "$new")

echo "== grace pass with sync_folder: old against new (hyperfine, $runs runs each)"
hyperfine -N --warmup 20 --runs "$runs" --export-json "$work/grace.json" \
    -n old "env HOME=$a $old gate --app grace -- /bin/true" \
    -n new "env HOME=$b $new gate --app grace -- /bin/true" | grep -E "±|faster|old|new" || true

first_frame_ab " with sync_folder" "$old" "$a" "$new" "$b"

echo "== grace pass with sync_folder once the other machine's events are all in: old against new"
env -i HOME="$a" PATH=/usr/bin:/bin "$old" sync status >/dev/null
env -i HOME="$b" PATH=/usr/bin:/bin "$new" sync status >/dev/null
hyperfine -N --warmup 20 --runs "$runs" --export-json "$work/grace-folded.json" \
    -n old "env HOME=$a $old gate --app grace -- /bin/true" \
    -n new "env HOME=$b $new gate --app grace -- /bin/true" | grep -E "±|faster|old|new" || true

echo "== instructions of one grace pass with sync_folder, up to its exec of the app (callgrind)"
command -v valgrind >/dev/null || { echo "(valgrind not installed: skipped)"; exit 0; }
for name in old new; do
    binary=$old home=$a
    [ "$name" = new ] && binary=$new home=$b
    env HOME="$home" valgrind --tool=callgrind --dump-before=execve --callgrind-out-file="$work/cg-$name" \
        "$binary" gate --app grace -- /bin/true >/dev/null 2>&1
    echo "$name: $(sed -n 's/^summary: //p' "$work/cg-$name.1") instructions"
done
