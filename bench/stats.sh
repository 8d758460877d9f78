#!/bin/sh
# `miga stats` and `miga events import` at 10k, 100k and 1M events (issue targets at 1M:
# stats and stats --json <= 1 s median and <= 3x the plain sqlite3 query
# `SELECT type, count(*) FROM events GROUP BY type`; import <= 20 s).
# Events are a heavy user's: ~500 a day (about 100 gates) ending today, several apps.
. "$(dirname "$0")/common.sh"
out=bench/results/stats-latest.txt
: > "$out"
for n in ${SIZES:-10000 100000 1000000}; do
  home="$work/home-$n"
  mkdir -p "$home"
  python3 - "$n" > "$work/events-$n.jsonl" <<'PY'
import sys, time, datetime
n = int(sys.argv[1])
per_day = 500
now = int(time.time() * 1000)
types = ["session_start", "content_read", "gateway_completed", "exit_selected",
         "session_start", "gateway_completed", "open_selected", "grace_pass",
         "session_start", "abandoned"]
apps = ["discord", "reddit.com", "signal", "firefox", "youtube.com"]
out = sys.stdout
for i in range(n):
    day = (n - 1 - i) // per_day
    ts = now - day * 86_400_000 - (i % per_day) * 60_000
    offset = 60 if (i // 7) % 2 else -300
    local = datetime.datetime.fromtimestamp(ts / 1000, datetime.timezone(datetime.timedelta(minutes=offset)))
    stamp = local.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (ts % 1000) + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]
    t = types[i % len(types)]
    wait = "31000" if t in ("exit_selected", "open_selected", "abandoned") else "null"
    out.write('{"ts":"%s","type":"%s","app":"%s","session":"s%d","content_id":null,"wait_ms":%s,"detail":null}\n'
              % (stamp, t, apps[i % len(apps)], i // 3, wait))
PY
  start=$(date +%s.%N)
  env -i HOME="$home" "$miga" events import "$work/events-$n.jsonl" >/dev/null
  import_s=$(echo "$(date +%s.%N) - $start" | bc)
  db="$home/.local/share/miga/miga.sqlite3"
  HOME="$home" hyperfine -N --warmup 3 --runs ${RUNS:-20} --export-json "$work/stats-$n.json" \
    -n sqlite3 "sqlite3 $db 'SELECT type, count(*) FROM events GROUP BY type'" \
    -n stats "$miga stats" -n stats-json "$miga stats --json" >/dev/null
  python3 - "$work/stats-$n.json" "$n" "$import_s" <<'PY' | tee -a "$out"
import json, sys
results = {r["command"]: r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]}
n, imported = int(sys.argv[2]), float(sys.argv[3])
base = results["sqlite3"]
print(f"{n:>8} events: import {imported:.2f} s; sqlite3 query {base:.1f} ms; "
      f"stats {results['stats']:.1f} ms ({results['stats'] / base:.2f}x); stats --json {results['stats-json']:.1f} ms ({results['stats-json'] / base:.2f}x)")
PY
done
