#!/usr/bin/env python3
"""N events as `miga events export` writes them (JSONL, in time order), a heavy user's: ~500 a
day (about 100 gates) ending now, five apps, two UTC offsets. Used by bench/stats.sh and bench/import.sh.

DENSE=1 writes a dense history instead: EVENTS_PER_DAY (default 5,000) a day, eight apps, a
`focus` event with {"seconds":N} after each Open, Opens with an intention and declared minutes,
Exits with their wait, and a few timebox and grace events (1M events: 200 days)."""
import os, sys, time, datetime
n = int(sys.argv[1])
dense = os.environ.get("DENSE") == "1"
per_day = int(os.environ.get("EVENTS_PER_DAY", "5000" if dense else "500"))
now = int(time.time() * 1000)
if dense:
    types = ["session_start", "content_read", "gateway_completed", "open_selected", "focus",
             "focus", "focus", "session_start", "gateway_completed", "exit_selected",
             "session_start", "grace_pass", "focus", "session_start", "abandoned",
             "session_start", "gateway_completed", "open_selected", "focus", "timebox_ended"]
    apps = ["discord", "reddit.com", "signal", "firefox", "youtube.com", "slack", "news.ycombinator.com", "steam"]
else:
    types = ["session_start", "content_read", "gateway_completed", "exit_selected",
             "session_start", "gateway_completed", "open_selected", "grace_pass",
             "session_start", "abandoned"]
    apps = ["discord", "reddit.com", "signal", "firefox", "youtube.com"]
step = 86_400_000 // per_day  # events spread over the whole day (60 s apart at 500 a day: the old layout)
if not dense:
    step = 60_000
intentions = ["reply to Sam", "check the release thread", "ten minutes, then work", "look up the recipe"]
out = sys.stdout
for i in range(n):
    day = (n - 1 - i) // per_day
    ts = now - day * 86_400_000 - (per_day - 1 - i % per_day) * step  # oldest first, as an export is
    offset = 60 if (i // 7) % 2 else -300
    local = datetime.datetime.fromtimestamp(ts / 1000, datetime.timezone(datetime.timedelta(minutes=offset)))
    stamp = local.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (ts % 1000) + local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:]
    t = types[i % len(types)]
    wait = "31000" if t in ("exit_selected", "open_selected", "abandoned") else "null"
    detail = "null"
    if dense:
        if t == "focus":
            detail = '{"seconds":%d}' % (5 + i % 56)
        elif t == "open_selected":
            detail = '{"intention":"%s","minutes":%d}' % (intentions[i % len(intentions)], 5 + i % 4 * 5)
        elif t == "timebox_ended":
            detail = '{"budget":true,"minutes":30}'
    out.write('{"ts":"%s","type":"%s","app":"%s","session":"s%d","content_id":null,"wait_ms":%s,"detail":%s}\n'
              % (stamp, t, apps[i % len(apps)], i // 3, wait, detail))
