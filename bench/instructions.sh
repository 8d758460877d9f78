#!/bin/sh
# Instructions (callgrind) that no noise can move, on the release build, for the four paths a
# person pays for on every launch:
#   1. a gate from exec to its first frame (up to its first poll(2): the frame is written and
#      it waits for a key), on a pty;
#   2. a pass-through (MIGA_GATED naming the app) up to its exec of the app;
#   3. a grace pass (a recent Open) up to its exec of the app;
#   4. `open-url` of a link that is not gated, up to its exec of the browser.
# The benchmarked app has `reentry_minutes` and `minutes_per_day` set and a day of history
# (the habits read it), as a person's would. `bench/instructions.sh [MIGA]` (default: this
# tree's release build); the targets are docs/PERFORMANCE.md's ("Instructions").
. "$(dirname "$0")/common.sh"
binary=${1:-$miga}
command -v valgrind >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -qq valgrind >/dev/null; }

stand_in_browser

home="$work/home"
mkdir -p "$home/.config/miga"
printf 'animations = false\nsites = []\n' > "$home/.config/miga/config.toml"
# miga takes over links first, before the apps exist (their stand-in command is the browser's)
env -i HOME="$home" PATH=/usr/bin:/bin XDG_DATA_DIRS="$work/sys" XDG_CONFIG_DIRS="$work/etc" "$binary" install >/dev/null
cat > "$home/.config/miga/config.toml" <<'TOML'
animations = false
sites = []
reentry_minutes = 10

[apps.bench]
command = "/bin/true"
minutes_per_day = 60

[apps.grace]
command = "/bin/true"
TOML
env -i HOME="$home" PATH=/usr/bin:/bin "$binary" gate --app grace -- /bin/true >/dev/null 2>&1 # the database
now=$(date +%s%3N)
# Today: the benchmarked app's gates, Opens and an hour of focused minutes; a recent Open of `grace`.
sqlite3 "$home/.local/share/miga/miga.sqlite3" "
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 299)
  INSERT INTO events (ts, utc_offset_min, session, type, app, wait_ms, detail)
  SELECT $now - 3600000 + i * 10000, 0, 'b' || (i / 5),
         CASE i % 5 WHEN 0 THEN 'session_start' WHEN 1 THEN 'open_selected' WHEN 2 THEN 'focus'
                    WHEN 3 THEN 'focus' ELSE 'gateway_completed' END,
         'bench', CASE WHEN i % 5 = 1 THEN 31000 END,
         CASE WHEN i % 5 IN (2, 3) THEN '{\"seconds\":10}' END
  FROM n;
  INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES ($now, 0, 'bench', 'open_selected', 'grace');"

summary() { # FILE: the instruction count of callgrind's first dump (or of the whole run)
    sed -n 's/^summary: //p' "$1.1" 2>/dev/null || sed -n 's/^summary: //p' "$1"
}
# The gate draws its item at random; the count depends on its length (it is wrapped before
# the frame). Two fixed items are measured, the longest and the shortest the gate may show,
# each by marking every other item shown (the draw then has one to give).
ids=$(env -i HOME="$home" "$binary" content list 2>/dev/null | grep -v '(off)' | cut -f1)
for id in $ids; do
    printf '%s\t%s\n' "$(env -i HOME="$home" "$binary" content show "$id" | wc -c)" "$id"
done | sort -n > "$work/lengths"
shortest=$(head -1 "$work/lengths" | cut -f2) longest=$(tail -1 "$work/lengths" | cut -f2)
cp "$home/.local/share/miga/miga.sqlite3" "$work/db-copy"
frame() { # ID: the gate to its first poll, on a pty, with ID the one item left to draw
    cp "$work/db-copy" "$home/.local/share/miga/miga.sqlite3"
    for other in $ids; do
        [ "$other" = "$1" ] || echo "INSERT INTO rotation_shown VALUES ('$other');"
    done | sqlite3 "$home/.local/share/miga/miga.sqlite3"
    rm -f "$home/.local/share/miga/miga.sqlite3-wal" "$home/.local/share/miga/miga.sqlite3-shm" "$work/cg-frame-$1"*
    python3 bench/first_frame.py --once "$home" /usr/bin/valgrind --tool=callgrind --demangle=no --dump-before=poll \
        --callgrind-out-file="$work/cg-frame-$1" "$binary" gate --app bench -- /bin/true >/dev/null
    summary "$work/cg-frame-$1"
}
count() { # NAME GATED ARGS...: a run up to its first execve (GATED: MIGA_GATED's value, or "")
    name=$1 gated=$2
    shift 2
    rm -f "$work/cg-$name"*
    env HOME="$home" MIGA_GATED="$gated" valgrind --tool=callgrind --demangle=no --dump-before=execve \
        --callgrind-out-file="$work/cg-$name" "$binary" "$@" >/dev/null 2>&1 || true
    summary "$work/cg-$name"
}
f1=$(frame "$longest") f2=$(frame "$shortest")
pass=$(count pass x gate --app x -- /bin/true)
grace=$(count grace "" gate --app grace -- /bin/true)
url=$(count url "" open-url https://www.debian.org/)
python3 - "$f1" "$f2" "$pass" "$grace" "$url" <<'PY' | tee bench/results/instructions-latest.txt
import sys
f1, f2, passing, grace, url = (int(x) for x in sys.argv[1:])
rows = [("first frame (exec to its first poll), the longest item", f1, 5_000_000),
        ("first frame, the shortest item", f2, 5_000_000),
        ("pass-through (MIGA_GATED) up to the app's exec", passing, None),
        ("grace pass up to the app's exec", grace, None),
        ("open-url, a link that is not gated, up to the browser's exec", url, None)]
for name, value, limit in rows:
    target = f" (target <= {limit / 1e6:.1f}M) {'ok' if value <= limit else 'MISSED'}" if limit else ""
    print(f"{name}: {value:,}{target}")
PY
