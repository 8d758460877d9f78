#!/usr/bin/env python3
"""After the suite: no process of a test's still runs. Every test home is a folder
`miga-cli-…`, `miga-command-…` or `miga-x11-…` in the temporary folder, and whatever a test
starts runs with HOME inside it (a session bus GTK launched, the accessibility bus, a helper
miga left). Lists any such process, ends it, and exits 1; prints nothing and exits 0 when
there is none. Only the homes made since `--before FILE` wrote down those there were count, so
a second suite running beside this one is left alone.
Usage: scripts/check-leftovers.py --before FILE (before the suite), --since FILE (after it)"""
import os, re, signal, sys, tempfile

folder = tempfile.gettempdir().rstrip("/")
homes = re.compile(r"^miga-(cli|command|x11)-[^/]+$")
if len(sys.argv) != 3 or sys.argv[1] not in ("--before", "--since"):
    sys.exit(__doc__.strip().splitlines()[-1])
if sys.argv[1] == "--before":
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(name for name in os.listdir(folder) if homes.match(name)))
    sys.exit(0)
with open(sys.argv[2]) as f:
    earlier = set(f.read().split("\n"))
pattern = re.compile(rb"^HOME=" + re.escape(os.fsencode(folder)) + rb"/(miga-(?:cli|command|x11)-[^/]+)/home$")
found = []
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) == os.getpid():
        continue
    try:
        with open(f"/proc/{name}/environ", "rb") as f:
            environ = f.read().split(b"\0")
        with open(f"/proc/{name}/cmdline", "rb") as f:
            command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        continue  # gone, or another user's
    matches = [pattern.match(entry) for entry in environ]
    if command and any(m and m.group(1).decode(errors="replace") not in earlier for m in matches):
        found.append((int(name), command))
for pid, command in found:
    print(f"check-leftovers: a test's process still runs: {pid} {command[:160]}", file=sys.stderr)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
sys.exit(1 if found else 0)
