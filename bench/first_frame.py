#!/usr/bin/env python3
"""Exec-to-first-frame latency and peak memory of `miga gate`, on a real pseudo-terminal.

For each run: fork a child on a new pty, take the time in it just before exec, read the terminal
until the gateway's choices line (the frame is written in one write, so seeing it means the
whole first frame arrived), press `e`, and collect the child's peak RSS from wait4's rusage.
No hooks inside miga: what is measured is what a person sees.

The peak memory of a process counts what it had before its exec too (Linux keeps the larger),
and the forked child is this Python (about 10 MiB): so the memory is taken from separate runs
under GNU time (`/usr/bin/time`, a small C program that forks and execs miga), whose time is
not counted. Without it, wait4's figure is given, as it was before 29 November (the harness's
Python counted in it).
"""
import json, os, pty, select, statistics, struct, sys, tempfile, time

def one_run(argv, env, seconds=10):
    # The clock starts in the child, just before execve (perf_counter is CLOCK_MONOTONIC, the
    # same clock in both processes): the child's side of pty.fork (a new session, the
    # terminal opened and made stdin/out/err, in Python) is the harness's, not miga's.
    # Before 24 November the clock started in the parent when fork returned, which counted
    # that too (about 0.5 ms here).
    read_end, write_end = os.pipe()
    pid, fd = pty.fork()
    if pid == 0:
        os.close(read_end)
        os.write(write_end, struct.pack("d", time.perf_counter()))
        os.execve(argv[0], argv, env)
    os.close(write_end)
    start = struct.unpack("d", os.read(read_end, 8))[0]
    os.close(read_end)
    seen = b""
    first_frame = None
    deadline = start + seconds
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if first_frame is None and b"[e] Exit" in seen:
            first_frame = time.perf_counter() - start
            os.write(fd, b"e")
    # Drain until the child exits so it is never blocked on a full pty buffer.
    while True:
        try:
            if not os.read(fd, 65536):
                break
        except OSError:
            break
    _, status, usage = os.wait4(pid, 0)
    os.close(fd)
    if first_frame is None:
        raise SystemExit(f"no frame seen; output: {seen[-400:]!r}")
    return first_frame * 1000, usage.ru_maxrss / 1024  # ms, MiB

def peak_under_time(argv, env):
    """The gate's own peak RSS in MiB, from GNU time's report of its child."""
    with tempfile.NamedTemporaryFile(mode="r") as report:
        one_run(["/usr/bin/time", "-f", "%M", "-o", report.name] + argv, env)
        return int(report.read().split()[-1]) / 1024

def main():
    if sys.argv[1] == "--once":
        # `first_frame.py --once HOME ARGV...`: one run of ARGV (a gate under callgrind, for
        # bench/instructions.sh) to its frame and `e`, given a minute.
        one_run(sys.argv[3:], {"HOME": sys.argv[2], "PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"}, 60)
        return
    binary, home, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    env = {"HOME": home, "PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    argv = [binary, "gate", "--app", "bench", "--", "/bin/true"]
    if binary == "echo":  # the floor: a program that prints the choices line and ends
        argv = ["/bin/echo", "[e] Exit"]
    one_run(argv, env)  # warm-up: creates the database
    results = [one_run(argv, env) for _ in range(runs)]
    frames = sorted(r[0] for r in results)
    memory = [r[1] for r in results]
    if os.access("/usr/bin/time", os.X_OK) and binary != "echo":
        memory = [peak_under_time(argv, env) for _ in range(max(3, runs // 5))]
    print(json.dumps({
        "runs": runs,
        "first_frame_ms": {"median": round(statistics.median(frames), 2), "min": round(frames[0], 2),
                           "p90": round(frames[int(len(frames) * 0.9) - 1], 2)},
        "peak_rss_mib": {"median": round(statistics.median(memory), 2), "max": round(max(memory), 2)},
    }))

main()
