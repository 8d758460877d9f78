#!/usr/bin/env python3
"""The gate window's cost: exec of `miga gate` (no terminal, a display) to the window mapped
and painted, and the peak memory of the window and of the gate, under Xvfb with cairo.

The gate records `session_start` the moment the window reports its first frame painted
(DESIGN "The gate window"), so that event's timestamp less the wall-clock time of the exec is
the figure (both from this machine's clock; the SQLite write after it is inside the figure).
Each run is then ended with SIGTERM (recorded as `abandoned`).

Usage: python3 bench/window.py [RUNS]   (default 20; miga: $MIGA_BIN, else .build/release/miga)
Targets: <= 80 ms median, <= 45 MiB peak RSS for the window.
"""
import os, sqlite3, statistics, subprocess, sys, tempfile, time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
miga = os.environ.get("MIGA_BIN") or os.path.join(REPO, ".build/release/miga")
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def peak_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


with tempfile.TemporaryDirectory() as home:
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    display = xvfb.stdout.readline().decode().strip()
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "DISPLAY": ":" + display, "XDG_RUNTIME_DIR": home, "LANG": "C.UTF-8"}
    # A desktop has a session bus, which the window (a GtkApplication) connects to as it
    # starts: run under `dbus-run-session` to count that too.
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        env["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    os.makedirs(home + "/.config/miga")
    with open(home + "/.config/miga/config.toml", "w") as config:
        config.write("timer_seconds = 15\n")
    database = home + "/.local/share/miga/miga.sqlite3"
    times, window_peaks, gate_peaks = [], [], []
    try:
        for run in range(runs + 1):  # the first run creates the database and warms the caches
            start = time.time()
            gate = subprocess.Popen([miga, "gate", "--app", "bench", "--detach", "--", "/bin/true"], env=env,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            shown = None
            deadline = time.time() + 10
            while shown is None and time.time() < deadline:
                if os.path.exists(database):
                    try:
                        with sqlite3.connect(database) as db:
                            row = db.execute("SELECT ts FROM events WHERE type = 'session_start' AND ts >= ? ORDER BY id DESC LIMIT 1",
                                             (int(start * 1000) - 1,)).fetchone()
                        shown = row and row[0]
                    except sqlite3.OperationalError:
                        pass  # being created by the first gate
                time.sleep(0.002)
            window = children(gate.pid)
            if run > 0 and shown:
                times.append(shown - start * 1000)
                if window:
                    window_peaks.append(peak_kib(window[0]) or 0)
                gate_peaks.append(peak_kib(gate.pid) or 0)
            gate.terminate()
            gate.wait()
    finally:
        xvfb.terminate()
        xvfb.wait()

print(f"miga: {miga}; {len(times)} runs")
print(f"exec → window painted: median {statistics.median(times):.1f} ms, "
      f"p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.1f} ms, min {min(times):.1f} ms  (target ≤ 80 ms)")
print(f"peak RSS: window {max(window_peaks) / 1024:.1f} MiB (target ≤ 45 MiB), gate {max(gate_peaks) / 1024:.1f} MiB")
