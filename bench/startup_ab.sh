#!/bin/sh
# A/B of two miga builds on every start-up path, in one run so the machine's drift falls on
# both alike: `bench/startup_ab.sh OLD_MIGA [NEW_MIGA]` (NEW defaults to this tree's release
# build). Each build gets its own home, made the same way (a recent Open, so a gate passes in
# grace; miga installed as the link handler in front of a stand-in browser).
#   1. pass-through (MIGA_GATED), a grace pass and `open-url` of a link that is not gated
#      (hyperfine, both builds in one run: the ratio);
#   2. exec to the first frame and the gate's peak memory on a real pty (bench/first_frame.py),
#      the two builds alternating in rounds;
#   3. the instructions each path runs up to its exec of the app (callgrind: noise cannot move
#      them).
. "$(dirname "$0")/common.sh"
old=$1
new=${2:-$miga}
runs=${RUNS:-100}
rounds=${ROUNDS:-4}

stand_in_browser

home_for() { # NAME BINARY: a home with a recent Open of `grace`, miga the link handler
    h="$work/$1"
    mkdir -p "$h/.config/miga"
    printf 'animations = false\n' > "$h/.config/miga/config.toml"
    env -i HOME="$h" PATH=/usr/bin:/bin "$2" gate --app grace -- /bin/true 2>/dev/null # the database
    now=$(date +%s%3N)
    sqlite3 -cmd ".timeout 5000" "$h/.local/share/miga/miga.sqlite3" \
        "INSERT INTO events (ts, utc_offset_min, session, type, app) VALUES ($now, 0, 'bench', 'open_selected', 'grace')"
    env -i HOME="$h" PATH=/usr/bin:/bin XDG_DATA_DIRS="$work/sys" XDG_CONFIG_DIRS="$work/etc" "$2" install >/dev/null
    echo "$h"
}
a=$(home_for old "$old")
b=$(home_for new "$new")

compare() { # TITLE ARGS...: one hyperfine run of the same command line for both builds
    title=$1
    shift
    echo "== $title: old against new (hyperfine, $runs runs each)"
    hyperfine -N --warmup 20 --runs "$runs" \
        -n old "env HOME=$a MIGA_GATED=x $old $*" \
        -n new "env HOME=$b MIGA_GATED=x $new $*" | grep -E "±|faster|old|new" || true
}
compare "pass-through (MIGA_GATED)" gate --app x -- /bin/true
echo "== grace pass: old against new (hyperfine, $runs runs each)"
hyperfine -N --warmup 20 --runs "$runs" \
    -n old "env HOME=$a $old gate --app grace -- /bin/true" \
    -n new "env HOME=$b $new gate --app grace -- /bin/true" | grep -E "±|faster|old|new" || true
compare "open-url, a link that is not gated" open-url https://www.debian.org/

first_frame_ab "" "$old" "$a" "$new" "$b"

echo "== instructions up to the exec of the app (callgrind)"
command -v valgrind >/dev/null || { echo "(valgrind not installed: skipped)"; exit 0; }
count() { # NAME HOME BINARY ARGS...: instructions of one run up to its first execve
    name=$1 home=$2 binary=$3
    shift 3
    rm -f "$work/cg-$name"*
    env HOME="$home" MIGA_GATED=x valgrind --tool=callgrind --dump-before=execve --callgrind-out-file="$work/cg-$name" \
        "$binary" "$@" >/dev/null 2>&1 || true
    sed -n 's/^summary: //p' "$work/cg-$name.1" 2>/dev/null || sed -n 's/^summary: //p' "$work/cg-$name"
}
for path in "pass-through:gate --app x -- /bin/true" "grace pass:gate --app grace -- /bin/true" \
            "open-url:open-url https://www.debian.org/"; do
    title=${path%%:*} args=${path#*:}
    # shellcheck disable=SC2086 # the arguments are words
    echo "$title: old $(count old "$a" "$old" $args) new $(count new "$b" "$new" $args) instructions"
done
