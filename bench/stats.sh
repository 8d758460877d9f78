#!/bin/sh
# `miga stats` and `miga events import` at 10k, 100k and 1M events (the targets at 1M:
# stats and stats --json <= 1 s median and <= 3x the plain sqlite3 query
# `SELECT type, count(*) FROM events GROUP BY type`; import <= 20 s).
# Events are a heavy user's: ~500 a day (about 100 gates) ending today, several apps; DENSE=1
# makes them a dense history (EVENTS_PER_DAY, default 5,000 a day, with focus events and
# intentions; see bench/make_events.py) and writes bench/results/stats-dense-latest.txt.
. "$(dirname "$0")/common.sh"
out=bench/results/stats${DENSE:+-dense}-latest.txt
: > "$out"
for n in ${SIZES:-10000 100000 1000000}; do
  home="$work/home-$n"
  mkdir -p "$home"
  python3 bench/make_events.py "$n" > "$work/events-$n.jsonl"
  start=$(date +%s.%N)
  env -i HOME="$home" "$miga" events import "$work/events-$n.jsonl" >/dev/null
  import_s=$(echo "$(date +%s.%N) - $start" | bc)
  db="$home/.local/share/miga/miga.sqlite3"
  HOME="$home" hyperfine -N --warmup 3 --runs ${RUNS:-20} --export-json "$work/stats-$n.json" \
    -n sqlite3 "sqlite3 $db 'SELECT type, count(*) FROM events GROUP BY type'" \
    -n stats "$miga stats" -n stats-json "$miga stats --json" -n stats-week "$miga stats --week" >/dev/null
  python3 - "$work/stats-$n.json" "$n" "$import_s" <<'PY' | tee -a "$out"
import json, sys
results = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
n, imported = int(sys.argv[2]), float(sys.argv[3])
base = results["sqlite3"]
print(f"{n:>8} events: import {imported:.2f} s; sqlite3 query {base:.1f} ms; "
      f"stats {results['stats']:.1f} ms ({results['stats'] / base:.2f}x); stats --json {results['stats-json']:.1f} ms ({results['stats-json'] / base:.2f}x); "
      f"stats --week {results['stats-week']:.1f} ms ({results['stats-week'] / base:.2f}x)")
PY
done
