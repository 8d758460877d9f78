#!/usr/bin/python3
"""A stand-in for miga in the GNOME Shell tests of the extension alone (the real watcher is
tested too, once built): `watch --shell` says hello, appends every line the extension sends
to $MIGA_FAKE_DIR/received.jsonl and passes on to the extension every line written to the
FIFO $MIGA_FAKE_DIR/send (a line EXIT ends it); `status --json` prints $MIGA_FAKE_DIR/status.json; anything else
is appended to $MIGA_FAKE_DIR/commands.txt."""
import os, sys, threading

DIR = os.environ["MIGA_FAKE_DIR"]


def forward_commands():
    while True:
        with open(os.path.join(DIR, "send")) as fifo:  # blocks until a writer opens it
            for line in fifo:
                if line.strip() == "EXIT":  # the test ends this watcher, as a crash would
                    os._exit(3)
                sys.stdout.write(line if line.endswith("\n") else line + "\n")
                sys.stdout.flush()


def watch():
    with open(os.path.join(DIR, "starts.txt"), "a") as starts:
        starts.write(f"{os.getpid()}\n")
    sys.stdout.write('{"type":"hello","version":1}\n')
    sys.stdout.flush()
    threading.Thread(target=forward_commands, daemon=True).start()
    with open(os.path.join(DIR, "received.jsonl"), "a") as log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
    # end of file: the extension is gone or was disabled
    with open(os.path.join(DIR, "ended.txt"), "a") as ended:
        ended.write(f"{os.getpid()}\n")


def main(args):
    if args[:2] == ["watch", "--shell"]:
        return watch()
    if args[:2] == ["status", "--json"]:
        with open(os.path.join(DIR, "status.json")) as status:
            sys.stdout.write(status.read())
        return 0
    with open(os.path.join(DIR, "commands.txt"), "a") as log:
        log.write(" ".join(args) + "\n")
    return 0


sys.exit(main(sys.argv[1:]) or 0)
