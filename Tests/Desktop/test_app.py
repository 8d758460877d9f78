#!/usr/bin/python3
"""A tiny GTK 4 window app for the GNOME Shell tests: application id from argv[1] (default
app.miga.TestApp), so its Wayland app_id ties it to a desktop entry's StartupWMClass; its
title is argv[2] (default "Test app"). It records nothing and does nothing else."""
import sys
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gio, Gtk  # noqa: E402

APP_ID = sys.argv[1] if len(sys.argv) > 1 else "app.miga.TestApp"
TITLE = sys.argv[2] if len(sys.argv) > 2 else "Test app"


def activate(app):
    window = app.get_active_window()
    if window is None:
        window = Gtk.ApplicationWindow(application=app, title=TITLE)
        window.set_default_size(480, 320)
        window.set_child(Gtk.Label(label=TITLE))
    window.present()


app = Gtk.Application(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
sys.exit(app.run([sys.argv[0]]))
