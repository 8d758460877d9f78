#!/usr/bin/python3
"""The GNOME Shell extension's cost while nothing gated changes focus: CPU time of the
gnome-shell process and of `miga watch --shell` (and the watcher's wakeups) over quiet
stretches, with a gated app's window in front, with another window in front, and with the
extension off, alternating. Runs the real headless GNOME Shell of Tests/Desktop (as root).

Usage: /usr/bin/python3 bench/gnome.py [SECONDS]   (default 20 a stretch; miga: $MIGA_BIN,
else .build/debug/miga, with miga-gate-window beside it)
"""
import os, subprocess, sys, tempfile, time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "Tests/Desktop"))
from gnome_shell import GnomeShell, wait_for  # noqa: E402
from test_gnome import build_extension, descendants  # noqa: E402
from test_gnome_miga import BUILD, MIGA_BIN, write_app  # noqa: E402

SECONDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def process(shell, wanted):
    for pid in descendants(shell.process.pid):
        try:
            with open(f"/proc/{pid}/cmdline") as handle:
                if wanted(handle.read().split("\0")):
                    return pid
        except OSError:
            continue
    return None


def usage(pid):
    """(CPU seconds, voluntary context switches) of pid, or zeros."""
    if not pid:
        return 0.0, 0
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    with open(f"/proc/{pid}/status") as handle:
        switches = next(int(line.split()[1]) for line in handle if line.startswith("voluntary_ctxt_switches"))
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), switches


def measure(shell, label):
    shell_pid = process(shell, lambda argv: argv[0].endswith("gnome-shell"))
    watch_pid = process(shell, lambda argv: argv[1:3] == ["watch", "--shell"])
    before = usage(shell_pid), usage(watch_pid)
    time.sleep(SECONDS)
    after = usage(shell_pid), usage(watch_pid)
    watch = (f"miga watch {after[1][0] - before[1][0]:.3f} s CPU, {after[1][1] - before[1][1]} wakeups"
             if watch_pid else "no watcher")
    print(f"{label}: gnome-shell {after[0][0] - before[0][0]:.3f} s CPU in {SECONDS} s; {watch}", flush=True)


def main():
    apps = tempfile.mkdtemp(prefix="miga-bench-gnome-")
    gated = write_app(apps, "migatestapp", "app.miga.TestApp", "Migatest")
    write_app(apps, "plain", "app.miga.Plain", "Plain")
    shell = GnomeShell(extension=os.path.join(build_extension(), "43/miga@miga.app"), env={
        "MIGA_BIN": MIGA_BIN, "PATH": f"{BUILD}:{apps}/bin:/usr/bin:/bin", "XDG_DATA_DIRS": f"{apps}/share:/usr/share"})
    shell.prepare()
    shell.prepare = lambda: None
    os.makedirs(os.path.join(shell.config, "miga"))
    with open(os.path.join(shell.config, "miga/config.toml"), "w") as handle:
        handle.write("timer_seconds = 15\ngrace_minutes = 5\nreentry_minutes = 10\n")
    subprocess.run([MIGA_BIN, "config", "apps", "add", "migatestapp", "--command", gated], env=shell.environment(),
                   check=True, capture_output=True)
    shell.start()
    try:
        shell.launch("migatestapp.desktop")  # through its shim: the gate, then Open
        wait_for(lambda: (shell.focus() or {}).get("title", "").startswith("miga"), timeout=30)
        time.sleep(17)
        shell.type_keys(["o"])
        shell.wait_focus("app.miga.TestApp")
        time.sleep(3)
        measure(shell, "gated window in front")
        shell.launch("plain.desktop")
        shell.wait_focus("app.miga.Plain")
        time.sleep(3)
        for round in range(3):
            measure(shell, f"other window in front, round {round + 1}")
            shell.eval("Main.extensionManager.disableExtension('miga@miga.app')")
            time.sleep(3)
            measure(shell, f"extension off, round {round + 1}")
            shell.eval("Main.extensionManager.enableExtension('miga@miga.app')")
            time.sleep(3)
    finally:
        shell.stop()


main()
