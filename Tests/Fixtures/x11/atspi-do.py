#!/usr/bin/python3
"""Acts on a part of a window as a screen reader's user would, over AT-SPI (the session bus in
DBUS_SESSION_BUS_ADDRESS): in the first application named APP (as AT-SPI names it, e.g.
`miga-app`) with a frame named TITLE, the first part on screen whose `ROLE: NAME` line (as
atspi-names.py --showing prints it) is PART; does its first action (a button's click, a
check box's toggle), or with --text VALUE puts VALUE in it (an entry). Exits 0 once done, 1
when no such part shows within 10 s, 2 when it takes no text, 3 when it has no action (it
prints its middle, `X Y` in the window, for a click, and the window's height, for a part
scrolled out of it).

Usage: atspi-do.py APP TITLE PART [--text VALUE]
"""
import sys, time, warnings

import gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi

# get_action_iface is deprecated in newer libatspi, and the only way in Debian 12's.
warnings.simplefilter("ignore", DeprecationWarning)


def showing(node, depth=0):
    if node is None or depth > 40:
        return
    if not node.get_state_set().contains(Atspi.StateType.VISIBLE):
        return
    yield node
    for index in range(node.get_child_count()):
        yield from showing(node.get_child_at_index(index), depth + 1)


def find(app_name, title, part):
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        if app is None or app.get_name() != app_name:
            continue
        for frame_index in range(app.get_child_count()):
            frame = app.get_child_at_index(frame_index)
            if frame is None or frame.get_name() != title:
                continue
            fallback = None
            for node in showing(frame):
                if f"{node.get_role_name()}: {node.get_name()}" != part:
                    continue
                # A menu button is a button in a button: the one that acts (or takes text).
                if node.get_editable_text_iface() if wants_text else node.get_action_iface() and node.get_action_iface().get_n_actions():
                    return node
                # GTK 4.8 gives a check box no action: it is clicked where it is.
                fallback = fallback or (None if wants_text else node)
            if fallback is not None:
                return fallback
    return None


app_name, title, part = sys.argv[1:4]
text = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--text" else None
wants_text = text is not None
deadline = time.monotonic() + 10
node = None
while node is None and time.monotonic() < deadline:
    node = find(app_name, title, part)
    if node is None:
        time.sleep(0.2)
if node is None:
    sys.exit(f"no {part!r} on screen in {app_name}'s {title!r}")
if text is not None:
    editable = node.get_editable_text_iface()
    if editable is None or not editable.set_text_contents(text):
        print(f"{part!r} takes no text", file=sys.stderr)
        sys.exit(2)
    sys.exit(0)
action = node.get_action_iface()
if action is None or action.get_n_actions() == 0:
    # No action (a libadwaita page tab): where to click it, in the window, for xdotool.
    box = node.get_extents(Atspi.CoordType.WINDOW)
    window = node
    while window.get_parent() is not None and window.get_role() != Atspi.Role.FRAME:
        window = window.get_parent()
    height = window.get_extents(Atspi.CoordType.WINDOW).height
    print(f"{box.x + box.width // 2} {box.y + box.height // 2} {height}")
    sys.exit(3)
action.do_action(0)
