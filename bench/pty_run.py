#!/usr/bin/env python3
"""Run one command on a pseudo-terminal, press `e` once the gateway's choices line is up, and
wait for it to end: how bench/instructions.sh drives a gate under callgrind to its first frame.
`pty_run.py HOME ARGV...`; exits non-zero if no frame was seen within a minute."""
import os, pty, select, sys, time

home, argv = sys.argv[1], sys.argv[2:]
env = {"HOME": home, "PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"}
pid, fd = pty.fork()
if pid == 0:
    os.execve(argv[0], argv, env)
seen, pressed, deadline = b"", False, time.monotonic() + 60
while time.monotonic() < deadline:
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
    if not pressed and b"[e] Exit" in seen:
        os.write(fd, b"e")
        pressed = True
_, status = os.waitpid(pid, 0)
os.close(fd)
if not pressed:
    sys.exit(f"pty_run: no frame seen; output: {seen[-400:]!r}")
