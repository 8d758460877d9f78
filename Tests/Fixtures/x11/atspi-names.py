#!/usr/bin/python3
"""What a screen reader is told about miga's gate window: over AT-SPI (the session bus in
DBUS_SESSION_BUS_ADDRESS), the first application with a frame named TITLE; prints
`frame: NAME` and `button: NAME` for each visible button in it, then exits 0. Exits 1 when no
such frame shows within 10 s.

With --showing, prints instead every named part of the frame that is on screen now (visible,
and all it sits in visible: GTK 4.8 leaves a hidden widget out of the tree, and marks only the
frame `showing`), as `ROLE: NAME` (`label: For how long?`, `push button: Exit`,
`text: What are you here to do?`), in the order a screen reader walks them; with --extents
each line ends with ` @X,Y,WIDTHxHEIGHT`, its place in the window.

Usage: atspi-names.py TITLE [--showing [--extents]]
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


def showing(node, depth=0):
    """The parts on screen: a hidden part hides everything in it."""
    if node is None or depth > 40:
        return
    states = node.get_state_set()
    if not states.contains(Atspi.StateType.VISIBLE):
        return
    yield node
    for index in range(node.get_child_count()):
        yield from showing(node.get_child_at_index(index), depth + 1)


def place(node):
    """Where the part is in the window, or None if it cannot say (no Component interface)."""
    try:
        return node.get_extents(Atspi.CoordType.WINDOW)
    except Exception:
        return None


def where(box):
    return " @?" if box is None else f" @{box.x},{box.y},{box.width}x{box.height}"


arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
options = set(sys.argv[1:]) - set(arguments)
title = arguments[0]
deadline = time.monotonic() + 10
frame = None
while frame is None and time.monotonic() < deadline:
    frame = find(title)
    if frame is None:
        time.sleep(0.2)
if frame is None:
    sys.exit(f"no frame named {title!r} on the accessibility bus")
print(f"frame: {frame.get_name()}")
if "--showing" in options:
    for node in showing(frame):
        box = place(node)
        # Unnamed boxes, and parts drawn at no size (an unneeded scrollbar), are not what anyone sees.
        if node is frame or not node.get_name() or (box is not None and (box.width <= 0 or box.height <= 0)):
            continue
        print(f"{node.get_role_name()}: {node.get_name()}" + (where(box) if "--extents" in options else ""))
else:
    for node in walk(frame):
        if node.get_role() == Atspi.Role.PUSH_BUTTON and node.get_state_set().contains(Atspi.StateType.VISIBLE):
            print(f"button: {node.get_name()}")
