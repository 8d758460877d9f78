#!/usr/bin/python3
"""What a screen reader is told about miga's gate window: over AT-SPI (the session bus in
DBUS_SESSION_BUS_ADDRESS), the first application with a frame named TITLE; prints
`frame: NAME` and `button: NAME` for each visible button in it, then exits 0. Exits 1 when no
such frame shows within 10 s. Usage: atspi-names.py TITLE
"""
import sys, time

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi


def walk(node, depth=0):
    if node is None or depth > 40:
        return
    yield node
    for index in range(node.get_child_count()):
        yield from walk(node.get_child_at_index(index), depth + 1)


def find(title):
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        for node in walk(app):
            if node.get_role() == Atspi.Role.FRAME and node.get_name() == title:
                return node
    return None


title = sys.argv[1]
deadline = time.monotonic() + 10
frame = None
while frame is None and time.monotonic() < deadline:
    frame = find(title)
    if frame is None:
        time.sleep(0.2)
if frame is None:
    sys.exit(f"no frame named {title!r} on the accessibility bus")
print(f"frame: {frame.get_name()}")
for node in walk(frame):
    if node.get_role() == Atspi.Role.PUSH_BUTTON and node.get_state_set().contains(Atspi.StateType.VISIBLE):
        print(f"button: {node.get_name()}")
