#!/usr/bin/env python3
"""N events as `miga events export` writes them (JSONL, in time order), a heavy user's: ~500 a
day (about 100 gates) ending now, five apps, two UTC offsets. Used by bench/stats.sh and bench/import.sh."""
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
    ts = now - day * 86_400_000 - (per_day - 1 - i % per_day) * 60_000  # oldest first, as an export is
    offset = 60 if (i // 7) % 2 else -300
    local = datetime.datetime.fromtimestamp(ts / 1000, datetime.timezone(datetime.timedelta(minutes=offset)))
    stamp = local.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (ts % 1000) + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]
    t = types[i % len(types)]
    wait = "31000" if t in ("exit_selected", "open_selected", "abandoned") else "null"
    out.write('{"ts":"%s","type":"%s","app":"%s","session":"s%d","content_id":null,"wait_ms":%s,"detail":null}\n'
              % (stamp, t, apps[i % len(apps)], i // 3, wait))
