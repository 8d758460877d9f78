#!/usr/bin/env python3
"""A fake `miga gate` for trying miga-gate-window by hand and measuring it.

The window's protocol (Sources/GateWindowProtocol/WindowMessage.swift): tab-separated lines,
with backslash, tab and newline escaped. This script plays the gate's side well enough to
see and time the window; the real session logic is in `miga gate`.

  scripts/try-window.py demo   [--display :N] [--seconds 15] [--dark] [--article]
  scripts/try-window.py keys   [--display :N]            press keys with xdotool, check replies
  scripts/try-window.py shot   [--display :N] [--dark] [--article] [--celebrate] [--notice] [--ready] OUT.png
  scripts/try-window.py bench  [--display :N] [--runs 20] time exec -> `shown`, peak RSS

--env NAME=VALUE (repeatable) goes to the window's environment, --still sets animations off,
--binary picks another build (.build-window/release/miga-gate-window, say).

Without --display an Xvfb is started on a free display (1024x768x24, -noreset) and stopped
at the end. The window is taken from .build-window (build it with
`swift build --scratch-path .build-window --product miga-gate-window`) or --binary.
"""

import argparse
import os
import queue
import select
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

QUOTE = ("quote", "The best way out is always through.", "Robert Frost", "")
AFFIRMATION = ("affirmation", "You can choose what deserves your attention next.", "", "")
ARTICLE = ("article",
           "Attention is the rarest and purest form of generosity. " * 6 + "\n\n" +
           "When we scroll without choosing, we give it away to whoever asks loudest. " * 8 + "\n\n" +
           "A pause before opening an app is a small moment to decide, not a punishment. " * 9 + "\n\n" +
           "Notice what you were about to do, and whether it is what you want to do now. " * 7,
           "", "Why pause at all")
ITEMS = [QUOTE, AFFIRMATION, ARTICLE]


def escape(field):
    return field.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def line(*fields):
    return ("\t".join(escape(str(f)) for f in fields) + "\n").encode()


def breath(elapsed_ms):
    labels = ["Breathe in", "Hold", "Breathe out", "Hold"]
    second = elapsed_ms // 1000
    return f"{labels[(second // 4) % 4]} " + "●" * (second % 4 + 1) + "○" * (3 - second % 4)


class Xvfb:
    def __init__(self, display):
        self.proc = None
        self.display = display

    def __enter__(self):
        if self.display is None:
            for number in range(70, 120):
                if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
                    self.display = f":{number}"
                    break
            self.proc = subprocess.Popen(["Xvfb", self.display, "-noreset", "-screen", "0", "1024x768x24"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            socket = f"/tmp/.X11-unix/X{self.display[1:]}"
            deadline = time.monotonic() + 5
            while not os.path.exists(socket) and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.1)
        return self

    def __exit__(self, *exc):
        if self.proc:
            self.proc.terminate()
            self.proc.wait()


class Window:
    """The window as a child, with its stdout read by a thread into a queue."""

    def __init__(self, binary, display, env=None):
        environment = dict(os.environ, DISPLAY=display)
        environment.pop("WAYLAND_DISPLAY", None)
        environment.update(env or {})
        self.started = time.monotonic()
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment)
        self.messages = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.messages.put((time.monotonic(), raw.decode().rstrip("\n")))
        self.messages.put((time.monotonic(), None))

    def send(self, *lines):
        try:
            self.proc.stdin.write(b"".join(lines))
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass

    def expect(self, wanted, timeout=3.0):
        deadline = time.monotonic() + timeout
        while True:
            try:
                at, message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if message == wanted:
                return at
            if message is None:
                return None

    def peak_rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            for row in status:
                if row.startswith("VmHWM:"):
                    return int(row.split()[1])
        return None

    def close(self):
        self.send(line("close"))
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        return self.proc.wait(timeout=5)


def start(args, display, item=QUOTE, seconds_left=12, permille=600, breathing=True):
    env = {"GTK_THEME": "Adwaita:dark"} if getattr(args, "dark", False) else {}
    env.update(item.split("=", 1) for item in getattr(args, "env", None) or [])
    window = Window(args.binary, display, env)
    window.send(line("setup", "firefox", "1" if not getattr(args, "still", False) else "0", "1" if breathing else "0"),
                line("item", *item),
                line("tick", seconds_left, permille, breath(5200)))
    return window


def xdotool(display, *argv):
    return subprocess.run(["xdotool", *argv], env=dict(os.environ, DISPLAY=display),
                          capture_output=True, text=True).stdout.strip()


def find_window(display):
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        ids = xdotool(display, "search", "--name", "^miga$").split()
        if ids:
            return ids[-1]
        time.sleep(0.05)
    raise SystemExit("no window titled 'miga'")


def request_close(display, wid):
    """What a window manager's close button does (see Tests/Fixtures/x11/close-window.py)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "x11", "close-window.py")
    subprocess.run([sys.executable, script, str(wid)], env=dict(os.environ, DISPLAY=display), check=True)


def bench(args, display):
    times, rss = [], []
    for _ in range(args.runs):
        window = start(args, display)
        shown = window.expect("shown")
        if shown is None:
            raise SystemExit(f"no `shown` (exit {window.proc.poll()})")
        times.append((shown - window.started) * 1000)
        time.sleep(0.3)
        rss.append(window.peak_rss_kib())
        status = window.close()
        if status != 0:
            raise SystemExit(f"exit status {status} after close")
        time.sleep(0.05)
    times.sort()
    print(f"exec -> shown over {args.runs} runs: median {statistics.median(times):.1f} ms, "
          f"min {times[0]:.1f}, max {times[-1]:.1f}")
    print(f"peak RSS (VmHWM): median {statistics.median(rss) / 1024:.1f} MiB, max {max(rss) / 1024:.1f} MiB")


def keys(args, display):
    window = start(args, display)
    assert window.expect("shown"), "no shown"
    wid = find_window(display)
    xdotool(display, "windowfocus", "--sync", wid)
    failures = 0
    for key, wanted in [("n", "next"), ("space", "next"), ("N", "next"), ("e", "exit"), ("E", "exit"),
                        ("q", "exit"), ("Escape", "exit"), ("o", "open"), ("O", "open"), ("Return", "open"),
                        ("KP_Enter", "open")]:
        xdotool(display, "key", key)
        got = window.expect(wanted, timeout=1.5)
        print(f"{key:9} -> {wanted:6} {'ok' if got else 'MISSING'}")
        failures += got is None
    # Nothing else may have come back (a button pressed by Space/Return as well, say).
    time.sleep(0.3)
    extra = []
    while not window.messages.empty():
        extra.append(window.messages.get()[1])
    if extra:
        print("unexpected:", extra)
        failures += 1
    # Tab to the first button, then Return presses it (the focused button, as in any dialog).
    xdotool(display, "key", "Tab")
    xdotool(display, "key", "Return")
    try:
        got = window.messages.get(timeout=1.5)[1]
    except queue.Empty:
        got = None
    print(f"Tab Return -> {got} (the focused button, Exit)")
    failures += got != "exit"
    # The close button: the window stays and reports it.
    request_close(display, wid)
    got = window.expect("close-button", 1.5)
    print("close button ->", "close-button ok" if got else "MISSING")
    failures += got is None
    time.sleep(0.2)
    print("still running after close button:", window.proc.poll() is None)
    failures += window.proc.poll() is not None
    window.send(line("celebrate", "3rd exit this week. Well chosen."))
    began = time.monotonic()
    status = window.proc.wait(timeout=4)
    print(f"celebrate: exit {status} after {time.monotonic() - began:.2f} s")
    failures += status != 0
    # End of input: the window quits at once.
    window = start(args, display)
    window.expect("shown")
    began = time.monotonic()
    window.proc.stdin.close()
    status = window.proc.wait(timeout=3)
    print(f"stdin EOF: exit {status} after {(time.monotonic() - began) * 1000:.0f} ms")
    failures += status != 0
    sys.exit(1 if failures else 0)


def shot(args, display):
    item = ARTICLE if args.article else QUOTE
    window = start(args, display, item=item, seconds_left=0 if args.ready else 12,
                   permille=1000 if args.ready else 600)
    assert window.expect("shown"), "no shown"
    if args.notice:
        window.send(line("notice", "Open unlocks in 12 s. A breath or two first."))
    if args.celebrate:
        window.send(line("celebrate", "3rd exit this week. Well chosen."))
        time.sleep(0.9)
    else:
        time.sleep(0.4)
    wid = find_window(display)
    geometry = xdotool(display, "getwindowgeometry", wid)
    subprocess.run(["import", "-display", display, "-window", "root", "-crop",
                    "700x720+0+0", args.out], check=True)
    print(geometry.replace("\n", "; "), "->", args.out)
    window.close()


def demo(args, display):
    """A whole session: countdown, Read Next rotation, locked Open, Exit's celebration."""
    window = start(args, display, item=ARTICLE if args.article else QUOTE, seconds_left=args.seconds, permille=0)
    if not window.expect("shown"):
        raise SystemExit("no shown")
    began = time.monotonic()
    index = 0
    while True:
        elapsed = time.monotonic() - began
        left = max(0, args.seconds - int(elapsed))
        window.send(line("tick", left, min(1000, int(elapsed / args.seconds * 1000)), breath(int(elapsed * 1000))))
        try:
            _, message = window.messages.get(timeout=0.1)
        except queue.Empty:
            continue
        print("window:", message)
        if message is None:
            break
        if message == "next":
            index = (index + 1) % len(ITEMS)
            window.send(line("item", *ITEMS[index]))
        elif message == "open":
            if left > 0:
                window.send(line("notice", f"Open unlocks in {left} s. A breath or two first."))
            else:
                window.close()
                break
        elif message in ("exit", "close-button"):
            window.send(line("celebrate", "3rd exit this week. Well chosen."))
            print("exit status", window.proc.wait(timeout=4))
            break


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["demo", "keys", "shot", "bench"])
    parser.add_argument("out", nargs="?", default="window.png")
    parser.add_argument("--display")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build-window", "debug", "miga-gate-window"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--env", action="append", metavar="NAME=VALUE", help="for the window")
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--dark", action="store_true", help="GTK_THEME=Adwaita:dark")
    parser.add_argument("--still", action="store_true", help="setup with animations off")
    parser.add_argument("--article", action="store_true")
    parser.add_argument("--celebrate", action="store_true")
    parser.add_argument("--notice", action="store_true")
    parser.add_argument("--ready", action="store_true", help="countdown finished")
    args = parser.parse_intermixed_args()
    with Xvfb(args.display) as x:
        {"demo": demo, "keys": keys, "shot": shot, "bench": bench}[args.command](args, x.display)


if __name__ == "__main__":
    main()
