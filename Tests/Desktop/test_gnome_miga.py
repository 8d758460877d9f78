"""The built miga behind the GNOME Shell extension, in a real headless GNOME Shell: a desktop
launch of a gated app meets the gate window, focused, and Open hands focus to the app; an app
that was already running when it first comes to the front meets the coming-back gate over
it, and Exit minimises it; focused time is recorded; the indicator shows today from miga;
Snooze… runs miga's own countdown in its window.

The tests run in order (their names are numbered): each is a step of one person's day in one
shell. MIGA_FOCUS_TICK_SECONDS shortens the focus minute so the test need not wait a minute.
Skipped with one line where gnome-shell or the built miga is missing (MIGA_REQUIRE_GNOME_SHELL=1
makes that a failure).
"""
import json, os, shutil, stat, subprocess, sys, tempfile, time, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gnome_shell import GnomeShell, PYTHON, REPO, wait_for  # noqa: E402
from test_gnome import SCREENSHOTS, build_extension, skip_unless_shell  # noqa: E402

MIGA_BIN = os.environ.get("MIGA_BIN", os.path.join(REPO, ".build/debug/miga"))
BUILD = os.path.dirname(MIGA_BIN)
GATE_CLASSES = ("app.miga.Gate",)  # the gate window's application id
TIMER = 15  # the shortest countdown config allows
TICK = 5


def built_miga_missing():
    if not os.access(MIGA_BIN, os.X_OK):
        return f"{MIGA_BIN} is not built"
    if not os.access(os.path.join(BUILD, "miga-gate-window"), os.X_OK):
        return f"no miga-gate-window beside {MIGA_BIN}"
    help_text = subprocess.run([MIGA_BIN, "watch", "--help"], capture_output=True, text=True).stdout
    return None if "--shell" in help_text else f"{MIGA_BIN} has no `watch --shell`"


def write_app(root, name, app_id, title):
    """An app of the test's own: a program NAME on PATH and its menu entry in XDG_DATA_DIRS."""
    program = os.path.join(root, "bin", name)
    os.makedirs(os.path.dirname(program), exist_ok=True)
    with open(program, "w") as handle:
        handle.write(f"#!/bin/sh\nexec {PYTHON} {HERE}/test_app.py {app_id} {title}\n")
    os.chmod(program, os.stat(program).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    entries = os.path.join(root, "share/applications")
    os.makedirs(entries, exist_ok=True)
    with open(os.path.join(entries, f"{name}.desktop"), "w") as handle:
        handle.write(f"[Desktop Entry]\nType=Application\nName={title}\nExec={program}\nStartupWMClass={app_id}\n")
    return program


def install_gate_entry(root):
    """The gate window's desktop entry and icon, as `make install` puts them, in ROOT/share."""
    with open(os.path.join(REPO, "data/app.miga.Gate.desktop.in")) as handle:
        entry = handle.read().replace("@WINDOW@", os.path.join(BUILD, "miga-gate-window"))
    os.makedirs(os.path.join(root, "share/applications"), exist_ok=True)
    with open(os.path.join(root, "share/applications/app.miga.Gate.desktop"), "w") as handle:
        handle.write(entry)
    icons = os.path.join(root, "share/icons/hicolor/scalable/apps")
    os.makedirs(icons, exist_ok=True)
    shutil.copy(os.path.join(REPO, "data/icons/app.miga.Gate.svg"), icons)


def write_terminal(root):
    """A terminal emulator of the test's own, first on PATH under the names GIO tries first:
    it writes the command it is given to run, runs it with no one to press Enter, and keeps
    what it printed (in ROOT/terminal.txt)."""
    script = ("#!/bin/sh\n"
              "while [ $# -gt 0 ] && [ \"$1\" != -- ] && [ \"$1\" != -e ] && [ \"$1\" != -x ]; do shift; done\n"
              "shift\n"
              f"{{ printf 'command:'; printf ' %s' \"$@\"; echo; \"$@\" </dev/null; }} >{root}/terminal.txt 2>&1\n")
    for name in ("gnome-terminal", "x-terminal-emulator"):
        path = os.path.join(root, "bin", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(script)
        os.chmod(path, 0o755)


@skip_unless_shell
class RealMigaTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = built_miga_missing()
        if missing:
            raise unittest.SkipTest(f"no built miga: {missing} (scripts/swift-build.sh)")
        cls.built = build_extension()
        cls.apps = tempfile.mkdtemp(prefix="miga-gnome-apps-")
        launched = write_app(cls.apps, "migatestapp", "app.miga.TestApp", "Migatest")
        running = write_app(cls.apps, "migaother", "app.miga.Other", "Other")
        write_terminal(cls.apps)
        install_gate_entry(cls.apps)
        cls.shell = GnomeShell(extension=os.path.join(cls.built, "43/miga@miga.app"), env={
            "MIGA_BIN": MIGA_BIN, "MIGA_FOCUS_TICK_SECONDS": str(TICK),
            "PATH": f"{BUILD}:{cls.apps}/bin:/usr/bin:/bin",
            "XDG_DATA_DIRS": f"{cls.apps}/share:/usr/local/share:/usr/share"})
        cls.shell.prepare()
        cls.shell.prepare = lambda: None
        config = os.path.join(cls.shell.config, "miga/config.toml")
        os.makedirs(os.path.dirname(config), exist_ok=True)
        with open(config, "w") as handle:
            handle.write(f"timer_seconds = {TIMER}\ngrace_minutes = 5\nreentry_minutes = 10\n")
        cls.miga("config", "apps", "add", "migatestapp", "--command", launched)
        cls.miga("config", "apps", "add", "migaother", "--command", running)
        cls.shell.start()

    @classmethod
    def tearDownClass(cls):
        cls.shell.stop()
        shutil.rmtree(cls.built, ignore_errors=True)
        shutil.rmtree(cls.apps, ignore_errors=True)

    @classmethod
    def miga(cls, *args):
        result = subprocess.run([MIGA_BIN, *args], env=cls.shell.environment(), capture_output=True, text=True,
                                timeout=60, stdin=subprocess.DEVNULL)
        if result.returncode != 0:
            raise AssertionError(f"miga {' '.join(args)}: {result.returncode} {result.stderr}")
        return result.stdout

    def events(self):
        return [json.loads(line) for line in self.miga("events", "export").splitlines() if line.strip()]

    def window(self, wm_class):
        return next((w for w in self.shell.windows() if w["wm_class"] == wm_class), None)

    def wait_gate(self):
        return wait_for(lambda: (lambda f: f and f["wm_class"] in GATE_CLASSES and f["title"] == "miga" and f)(
            self.shell.focus()), timeout=30, message=f"miga's gate window focused (focus: {self.shell.safe_focus()})")

    def answer_gate(self, key):
        """After the countdown, the key (o: Open, e: Exit) in the focused gate window."""
        time.sleep(TIMER + 2)
        self.shell.type_keys([key])
        wait_for(lambda: not any(w["wm_class"] in GATE_CLASSES for w in self.shell.windows()), timeout=15,
                 message="the gate window to close")

    def shot(self, name):
        folder = SCREENSHOTS or self.shell.root
        os.makedirs(folder, exist_ok=True)
        self.shell.screenshot(os.path.join(folder, f"{name}.png"))

    def test_1_a_desktop_launch_meets_the_gate_and_open_focuses_the_app(self):
        state = self.shell.extension_state()
        self.assertTrue(state["enabled"], state)
        self.shell.launch("migatestapp.desktop")
        gate = self.wait_gate()
        # named "miga" where the shell names apps (the top bar, Alt-Tab), never "GTK Application"
        self.assertEqual(self.shell.eval_json(
            "imports.gi.Shell.WindowTracker.get_default().get_window_app(global.display.focus_window).get_name()"), "miga")
        self.shot("launch-gate")
        self.answer_gate("o")
        focused = self.shell.wait_focus("app.miga.TestApp")
        self.assertEqual(focused["title"], "Migatest")
        self.assertNotEqual(focused["id"], gate["id"])

    def test_2_coming_back_to_an_app_already_running_meets_the_gate_over_it(self):
        # Started around miga (as an app autostarted at login): its window is seen first now.
        env = dict(self.shell.environment(), WAYLAND_DISPLAY=self.shell.display,
                   DBUS_SESSION_BUS_ADDRESS=self.shell.bus_env()["DBUS_SESSION_BUS_ADDRESS"])
        app = subprocess.Popen([os.path.join(self.apps, "bin/migaother")], env=env)
        try:
            self.wait_gate()
            wait_for(lambda: self.window("app.miga.Other"), message="the app's window")
            self.shot("coming-back-gate-over-app")
            self.answer_gate("e")
            wait_for(lambda: self.window("app.miga.Other")["minimized"], message="the app minimised after Exit")
            self.assertIsNone(app.poll(), "the app was ended; Exit only minimises")
            starts = [e for e in self.events() if e.get("app") == "migaother" and e.get("type") == "session_start"]
            self.assertTrue(starts, "no session_start for the coming back")
            detail = starts[-1].get("detail")
            detail = json.loads(detail) if isinstance(detail, str) else detail
            self.assertEqual((detail or {}).get("reentry"), True, starts[-1])
        finally:
            app.terminate()
            app.wait()

    def test_3_focused_time_is_recorded(self):
        self.shell.launch("migatestapp.desktop")  # running and in grace: brought to the front
        self.shell.wait_focus("app.miga.TestApp")
        time.sleep(2 * TICK + 2)
        focus = wait_for(lambda: [e for e in self.events() if e.get("type") == "focus" and e.get("app") == "migatestapp"],
                         timeout=15, message="focus events for the app")
        details = [json.loads(e["detail"]) if isinstance(e.get("detail"), str) else e.get("detail") or {} for e in focus]
        self.assertGreaterEqual(sum(int(d.get("seconds", 0)) for d in details), TICK)

    def test_4_the_indicator_shows_today_and_snooze_runs_miga_countdown(self):
        self.shell.eval("Main.panel.statusArea.miga.menu.open(); true")
        try:
            text = wait_for(lambda: (lambda t: "today" in t and t)(self.shell.eval_json(
                "Main.panel.statusArea.miga.menu._getMenuItems().filter(i => i.visible)"
                ".map(i => i.label ? i.label.text : '').join('|')")), message="the indicator's counts")
            self.assertIn("1 exit · 1 open today", text)
            self.shot("indicator-with-miga")
            self.shell.eval("(() => { const sub = Main.panel.statusArea.miga.menu._getMenuItems()"
                            ".find(i => i.menu && i.label && i.label.text === 'Snooze…');"
                            " sub.menu._getMenuItems()[0].activate(imports.gi.Clutter.get_current_event()); return true; })()")
        finally:
            self.shell.eval("Main.panel.statusArea.miga.menu.close(); true")
        self.wait_gate()
        self.answer_gate("o")
        # Open runs `miga snooze --begin` as the app it lets through: the snooze starts a moment later.
        wait_for(lambda: json.loads(self.miga("status", "--json"))["snooze"], timeout=15, message="the snooze running")

    def test_5_open_miga_without_miga_app_shows_the_week_in_a_terminal(self):
        self.shell.eval("Main.panel.statusArea.miga.menu.open(); true")
        self.shell.eval("(() => { const item = Main.panel.statusArea.miga.menu._getMenuItems()"
                        ".find(i => i.label && i.label.text === 'Open miga');"
                        " item.activate(imports.gi.Clutter.get_current_event()); return true; })()")
        path = os.path.join(self.apps, "terminal.txt")
        # (the command line names "Press Enter" too: its output's is the second)
        text = wait_for(lambda: os.path.exists(path) and open(path).read().count("Press Enter") >= 2 and open(path).read(),
                        timeout=20, message="miga stats --week in a terminal")
        self.assertIn("stats --week", text.splitlines()[0])
        self.assertIn("this week", text)
        self.assertIn("Press Enter to close.", text)

    def test_6_turning_the_extension_off_keeps_the_seconds_in_front(self):
        self.shell.launch("migatestapp.desktop")
        self.shell.wait_focus("app.miga.TestApp")
        time.sleep(1)
        before = len([e for e in self.events() if e.get("type") == "focus"])
        time.sleep(TICK - 2)  # less than a tick: only the watcher holds these seconds
        self.shell.eval("Main.extensionManager.disableExtension('miga@miga.app')")
        try:
            focus = wait_for(lambda: [e for e in self.events() if e.get("type") == "focus"][before:], timeout=15,
                             message="the held seconds written as the watcher leaves")
            self.assertEqual(focus[-1].get("app"), "migatestapp")
        finally:
            self.shell.eval("Main.extensionManager.enableExtension('miga@miga.app')")


if __name__ == "__main__":
    unittest.main()
