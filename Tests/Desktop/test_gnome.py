"""The GNOME Shell extension miga@miga.app in a real, headless GNOME Shell (gnome_shell.py).

ExtensionTests drive the extension against fake_miga.py, a stand-in watcher whose every line
the test writes, so each of the extension's own jobs is seen alone: it loads, it says which
window has focus, it does what the watcher answers, it raises miga's gate window, it watches
idleness only when asked, it starts a dying watcher again (not too often), it costs nothing
while focus stays put, and its indicator shows what `miga status --json` says.
RealMigaTests (test_gnome_miga.py) run the built miga behind it.
The 45+ variant cannot load in GNOME Shell 43: VariantTests only parse its modules (gjs -m)
and check what the build script made of them.
Skipped with one line where gnome-shell is missing, unless MIGA_REQUIRE_GNOME_SHELL=1.
"""
import errno, json, os, shutil, subprocess, sys, tempfile, time, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gnome_shell import GnomeShell, HERE as DESKTOP, PYTHON, REPO, missing_reason, wait_for  # noqa: E402

SKIP = missing_reason()
REQUIRED = os.environ.get("MIGA_REQUIRE_GNOME_SHELL") == "1"
SCREENSHOTS = os.environ.get("MIGA_GNOME_SCREENSHOTS")  # a folder to keep screenshots in


def skip_unless_shell(test_class):
    if SKIP and not REQUIRED:
        return unittest.skip(f"no GNOME Shell here: {SKIP}")(test_class)
    return test_class


def build_extension():
    """Both variants, as `make` builds them, into a temporary folder."""
    out = tempfile.mkdtemp(prefix="miga-gnome-ext-")
    subprocess.run([os.path.join(REPO, "scripts/build-gnome-extension.sh"), out], check=True)
    return out


def app_entry(name, app_id, title):
    return (f"[Desktop Entry]\nType=Application\nName={name}\n"
            f"Exec={PYTHON} {DESKTOP}/test_app.py {app_id} {title}\nStartupWMClass={app_id}\n")


class FakeWatcher:
    """The folder fake_miga.py works in: what the extension sent, and a FIFO to answer it."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="miga-fake-watch-")
        os.mkfifo(os.path.join(self.dir, "send"))
        self.set_status({"date": "2026-01-01", "exits": 0, "opens": 0, "streak": 0, "focus_minutes": 0,
                         "grace": [], "schedule": None, "snooze": None, "timeboxes": [], "pending": []})

    def set_status(self, status):
        with open(os.path.join(self.dir, "status.json"), "w") as handle:
            json.dump(status, handle)

    def send(self, message):
        """Writes one line to the running fake watcher (waits for one to be reading)."""
        line = (message if isinstance(message, str) else json.dumps(message)) + "\n"
        path = os.path.join(self.dir, "send")

        def opened():
            try:
                return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno == errno.ENXIO:  # no reader yet
                    return None
                raise
        fd = wait_for(opened, timeout=15, message="the fake watcher to read its FIFO")
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def lines(self, name="received.jsonl"):
        try:
            with open(os.path.join(self.dir, name)) as handle:
                return [line.rstrip("\n") for line in handle if line.strip()]
        except FileNotFoundError:
            return []

    def received(self):
        return [json.loads(line) for line in self.lines()]

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class ShellCase(unittest.TestCase):
    """A shell of the class's own with the built 43 extension and fake_miga.py as miga."""

    @classmethod
    def setUpClass(cls):
        cls.built = build_extension()
        cls.fake = FakeWatcher()
        cls.shell = GnomeShell(env={"MIGA_BIN": os.path.join(DESKTOP, "fake_miga.py"), "MIGA_FAKE_DIR": cls.fake.dir},
                               extension=os.path.join(cls.built, "43/miga@miga.app"))
        cls.shell.prepare()
        cls.shell.write_desktop_entry("migatest.desktop", app_entry("Migatest", "app.miga.TestApp", "Migatest"))
        cls.shell.write_desktop_entry("migaother.desktop", app_entry("Other", "app.miga.Other", "Other"))
        # miga's desktop app, as the package installs it (here a test window of that id)
        cls.shell.write_desktop_entry("app.miga.Miga.desktop", app_entry("miga", "app.miga.Miga", "miga"))
        cls.shell.prepare = lambda: None
        cls.shell.start()

    @classmethod
    def tearDownClass(cls):
        cls.shell.stop()
        cls.fake.cleanup()
        shutil.rmtree(cls.built, ignore_errors=True)

    def focus_lines(self):
        return [m for m in self.fake.received() if m.get("type") == "focus"]

    def window(self, wm_class):
        return next((w for w in self.shell.windows() if w["wm_class"] == wm_class), None)

    def bring(self, desktop_id, wm_class):
        self.shell.launch(desktop_id)
        return self.shell.wait_focus(wm_class)

    def indicator_shown(self):
        return self.shell.eval_json("Main.panel.statusArea.miga.container.visible")

    def menu_text(self):
        return self.shell.eval_json(
            "Main.panel.statusArea.miga.menu._getMenuItems().filter(i => i.visible)"
            ".map(i => i.label ? i.label.text : '').join('|')").replace("|", "\n")

    def shot(self, name):
        folder = SCREENSHOTS or self.shell.root
        os.makedirs(folder, exist_ok=True)
        self.shell.screenshot(os.path.join(folder, f"{name}.png"))


@skip_unless_shell
class ExtensionTests(ShellCase):
    def test_loads_with_no_error_and_puts_miga_in_the_top_bar(self):
        state = self.shell.extension_state()
        self.assertTrue(state and state["enabled"], f"extension state: {state}; log:\n{self.shell.log_tail()}")
        self.assertEqual(state["error"], "")
        self.assertEqual(self.shell.eval_json("Main.panel.statusArea.miga ? Main.panel.statusArea.miga.accessible_name : null"),
                         "miga")
        hello = wait_for(lambda: self.fake.lines("starts.txt"), message="miga watch --shell to be started")
        self.assertTrue(hello)

    def test_tells_the_watcher_which_window_has_focus(self):
        focused = self.bring("migatest.desktop", "app.miga.TestApp")
        line = wait_for(lambda: next((m for m in self.focus_lines() if m.get("window") == str(focused["id"])), None),
                        message="a focus line for the test app")
        self.assertEqual(line["desktop_id"], "migatest.desktop")
        self.assertEqual(line["app_id"], "app.miga.TestApp")
        self.assertIn("app.miga.TestApp", line["wm_class"])
        self.assertIsInstance(line["pid"], int)
        self.assertGreater(line["pid"], 0)

    def test_does_what_the_watcher_answers(self):
        target = self.bring("migatest.desktop", "app.miga.TestApp")
        self.bring("migaother.desktop", "app.miga.Other")
        self.fake.send({"type": "minimise", "window": str(target["id"])})
        wait_for(lambda: self.window("app.miga.TestApp")["minimized"], message="the app minimised")
        self.fake.send({"type": "raise", "window": str(target["id"])})
        focused = self.shell.wait_focus("app.miga.TestApp")
        self.assertFalse(self.window("app.miga.TestApp")["minimized"])
        self.assertEqual(focused["id"], target["id"])
        # Close asks the window to close (the app closes it); nothing is signalled.
        other = self.window("app.miga.Other")
        self.fake.send({"type": "close", "window": str(other["id"])})
        wait_for(lambda: self.window("app.miga.Other") is None, message="the other app's window closed")
        # Lines the extension does not know, or naming no window, change nothing.
        self.fake.send("not json")
        self.fake.send({"type": "minimise", "window": "999999"})
        self.fake.send({"type": "minimise", "window": target["id"]})  # a number, not the protocol's string
        self.fake.send({"type": "teleport", "window": str(target["id"])})
        time.sleep(1)
        self.assertFalse(self.window("app.miga.TestApp")["minimized"])
        self.assertEqual(self.shell.extension_state()["error"], "")

    def test_brings_miga_gate_window_above_the_app(self):
        self.bring("migatest.desktop", "app.miga.TestApp")
        # A window started with no activation token, as the watcher's gate child may be.
        # (Mutter 43 also focuses such a new Wayland window by itself here; the extension's
        # activation is for where the compositor would not, e.g. an X11 client's old time.)
        env = dict(self.shell.environment(), WAYLAND_DISPLAY=self.shell.display,
                   DBUS_SESSION_BUS_ADDRESS=self.shell.bus_env()["DBUS_SESSION_BUS_ADDRESS"])
        env.pop("XDG_ACTIVATION_TOKEN", None)
        gate = subprocess.Popen([PYTHON, os.path.join(DESKTOP, "test_app.py"), "app.miga.Gate", "miga"], env=env)
        try:
            focused = self.shell.wait_focus("app.miga.Gate")
            self.assertEqual(focused["title"], "miga")
            self.assertFalse(self.window("app.miga.TestApp")["minimized"])
            self.shot("gate-window-over-app")
        finally:
            gate.terminate()
            gate.wait()

    def test_watches_idleness_only_when_asked(self):
        self.bring("migatest.desktop", "app.miga.TestApp")
        time.sleep(3)
        self.assertEqual([m for m in self.fake.received() if m.get("type") == "idle"], [],
                         "idle lines were sent though the watcher never asked")
        self.fake.send({"type": "watch_idle", "on": True, "idle_seconds": 1})
        wait_for(lambda: {"type": "idle", "idle": True} in self.fake.received(), timeout=10, message="idle: true")
        self.shell.type_keys(["Shift_L"])
        wait_for(lambda: {"type": "idle", "idle": False} in self.fake.received(), timeout=10, message="idle: false")
        self.fake.send({"type": "watch_idle", "on": False})
        before = len(self.fake.received())
        time.sleep(3)
        self.assertEqual([m for m in self.fake.received()[before:] if m.get("type") == "idle"], [])

    def test_costs_nothing_while_focus_stays(self):
        self.bring("migatest.desktop", "app.miga.TestApp")
        time.sleep(1)
        before = len(self.fake.lines())
        cpu = shell_cpu_seconds(self.shell)
        time.sleep(10)
        used = shell_cpu_seconds(self.shell) - cpu
        self.assertEqual(self.fake.lines()[before:], [], "lines were sent while nothing changed focus")
        print(f"\ngnome-shell CPU over 10 s with focus still (extension on): {used:.3f} s", file=sys.stderr)

    def test_arms_no_timer_while_idle(self):
        """The extension sleeps until the shell tells it something: no GLib timeout, idle
        source, setTimeout or setInterval of its own runs while a gated window stays in front
        (every such call whose stack is in miga@miga.app is counted, and each of its callbacks
        run; the extension is enabled again after the counting starts, so nothing it armed
        before can hide)."""
        uuid = "'miga@miga.app'"
        self.shell.eval(COUNT_EXTENSION_TIMERS)
        ended, starts = len(self.fake.lines("ended.txt")), len(self.fake.lines("starts.txt"))
        self.shell.eval(f"Main.extensionManager.disableExtension({uuid})")
        wait_for(lambda: len(self.fake.lines("ended.txt")) > ended, timeout=20, message="the watcher to see its end of file")
        # the watcher has left: its SIGTERM timer (one-shot, armed when it was told to go) is gone
        self.assertIn("timeout_add_seconds", self.shell.eval_json("global._migaTimers.armed"),
                      "the counting saw none of the extension's own calls")
        self.shell.eval(f"Main.extensionManager.enableExtension({uuid})")
        wait_for(lambda: self.shell.extension_state()["enabled"], message="enabled again")
        wait_for(lambda: len(self.fake.lines("starts.txt")) > starts, timeout=20, message="a watcher started again")
        self.bring("migatest.desktop", "app.miga.TestApp")
        self.fake.send({"type": "watch_idle", "on": True, "idle_seconds": 300})
        time.sleep(1)
        self.shell.eval("global._migaTimers.armed = []; global._migaTimers.fired = 0; true")
        wakeups = shell_wakeups(self.shell)
        time.sleep(4)
        wakeups = shell_wakeups(self.shell) - wakeups
        self.assertEqual(self.shell.eval_json("global._migaTimers"), {"armed": [], "fired": 0},
                         "the extension armed or ran a timer while nothing happened (it polls?)")
        print(f"\ngnome-shell wake-ups over 4 s idle (extension on, gated window in front): {wakeups}", file=sys.stderr)

    def test_the_indicator_shows_today_from_miga_status(self):
        self.fake.set_status({"date": "2026-01-01", "exits": 3, "opens": 1, "streak": 2, "focus_minutes": 47.5,
                              "grace": [], "schedule": None,
                              "snooze": {"until": "2026-01-01T10:15:00+01:00", "apps": []},
                              "timeboxes": [{"app": "discord", "minutes": 30, "until": "2026-01-01T11:00:00+01:00"}],
                              "pending": []})
        self.shell.eval("Main.panel.statusArea.miga.menu.open(); true")
        try:
            labels = wait_for(lambda: (lambda t: "3 exits" in t and t)(self.menu_text()), message="the menu's counts")
            self.assertIn("3 exits · 1 open today · 47 min", labels)
            self.assertIn("Snoozed until 10:15", labels)
            self.assertIn("discord: 30 min until 11:00", labels)
            self.assertIn("Snooze…", labels)
            self.assertIn("Open miga", labels)
            self.shot("indicator-menu")
            # Snooze… 15 min runs `miga snooze 15m` (its countdown is miga's gate window).
            self.shell.eval("(() => { const sub = Main.panel.statusArea.miga.menu._getMenuItems()"
                            ".find(i => i.menu && i.label && i.label.text === 'Snooze…');"
                            " sub.menu._getMenuItems()[0].activate(imports.gi.Clutter.get_current_event()); return true; })()")
            wait_for(lambda: "snooze 15m" in self.fake.lines("commands.txt"), message="miga snooze 15m")
        finally:
            self.shell.eval("Main.panel.statusArea.miga.menu.close(); true")

    def test_open_miga_opens_miga_app(self):
        self.shell.eval("Main.panel.statusArea.miga.menu.open(); true")
        self.shell.eval("(() => { const item = Main.panel.statusArea.miga.menu._getMenuItems()"
                        ".find(i => i.label && i.label.text === 'Open miga');"
                        " item.activate(imports.gi.Clutter.get_current_event()); return true; })()")
        self.shell.wait_focus("app.miga.Miga")
        self.assertFalse(self.shell.eval_json("Main.panel.statusArea.miga.menu.isOpen"))
        self.shell.eval("(() => { global.display.focus_window.delete(global.get_current_time()); return true; })()")

    def test_stays_on_the_lock_screen_with_the_indicator_hidden(self):
        # (A real lock needs GDM here; the shell's own session mode change is what a lock is.)
        wait_for(lambda: self.fake.lines("starts.txt"), message="a watcher running")
        starts, ended = len(self.fake.lines("starts.txt")), len(self.fake.lines("ended.txt"))
        self.assertTrue(self.indicator_shown())
        self.shell.eval("Main.sessionMode.pushMode('unlock-dialog'); true")
        try:
            wait_for(lambda: self.indicator_shown() is False, message="the indicator hidden while locked")
            self.assertTrue(self.shell.extension_state()["enabled"])
        finally:
            self.shell.eval("Main.sessionMode.popMode('unlock-dialog'); true")
        wait_for(self.indicator_shown, message="the indicator back after unlocking")
        # the same watcher throughout: a new one would meet every window as if for the first time
        self.assertEqual(len(self.fake.lines("starts.txt")), starts)
        self.assertEqual(len(self.fake.lines("ended.txt")), ended)

    def test_disabling_ends_the_watcher_and_the_indicator(self):
        uuid = "'miga@miga.app'"
        ended = len(self.fake.lines("ended.txt"))
        self.shell.eval(f"Main.extensionManager.disableExtension({uuid})")
        wait_for(lambda: len(self.fake.lines("ended.txt")) > ended, timeout=20, message="the watcher to see its end of file")
        self.assertEqual(self.shell.eval_json("Main.panel.statusArea.miga ? 'there' : 'gone'"), "gone")
        self.shell.eval(f"Main.extensionManager.enableExtension({uuid})")
        wait_for(lambda: self.shell.extension_state()["enabled"], message="enabled again")

@skip_unless_shell
class RestartTests(ShellCase):
    """In a shell of its own: its watcher stays dead for the rest of the minute."""

    def test_starts_a_dying_watcher_again_at_most_three_times_a_minute(self):
        wait_for(lambda: self.fake.lines("starts.txt"), message="a watcher running")
        starts = len(self.fake.lines("starts.txt"))
        for attempt in range(4):
            focus_lines = len(self.focus_lines())
            self.fake.send("EXIT")
            if attempt < 3:
                wait_for(lambda: len(self.fake.lines("starts.txt")) == starts + attempt + 1, timeout=10,
                         message=f"restart {attempt + 1}")
                # a watcher started again is told the window in front at once
                wait_for(lambda: len(self.focus_lines()) > focus_lines, message="a focus line after the restart")
        time.sleep(3)
        self.assertEqual(len(self.fake.lines("starts.txt")), starts + 3, "a fourth restart within the minute")


# Installed once per shell: wraps GLib's timeout and idle functions and setTimeout/setInterval
# so that each call from the extension's own files (its stack names miga@miga.app) is counted
# in global._migaTimers.armed, and each run of such a callback in global._migaTimers.fired.
COUNT_EXTENSION_TIMERS = """(() => {
    if (global._migaTimers) return true;
    const counts = global._migaTimers = {armed: [], fired: 0};
    const ours = () => String(new Error().stack).includes('miga@miga.app');
    const wrap = (owner, name) => {
        const original = owner[name];
        if (typeof original !== 'function') return;
        owner[name] = function (...args) {
            if (ours()) {
                counts.armed.push(name);
                const at = args.findIndex(arg => typeof arg === 'function');
                if (at >= 0) {
                    const callback = args[at];
                    args[at] = function (...inner) { counts.fired++; return callback.apply(this, inner); };
                }
            }
            return original.apply(owner, args);
        };
    };
    const GLib = imports.gi.GLib;
    for (const name of ['timeout_add', 'timeout_add_seconds', 'idle_add']) wrap(GLib, name);
    for (const name of ['setTimeout', 'setInterval']) wrap(globalThis, name);
    return true;
})()"""


def shell_wakeups(shell):
    """Voluntary context switches of gnome-shell's threads: how often it slept and woke."""
    for pid in descendants(shell.process.pid):
        try:
            with open(f"/proc/{pid}/comm") as handle:
                if handle.read().strip() != "gnome-shell":
                    continue
            total = 0
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/status") as handle:
                    for line in handle:
                        if line.startswith("voluntary_ctxt_switches:"):
                            total += int(line.split()[1])
            return total
        except OSError:
            continue
    raise AssertionError("no gnome-shell process found")


def shell_cpu_seconds(shell):
    """User + system CPU time of the gnome-shell process under the harness's unshare."""
    ticks = os.sysconf("SC_CLK_TCK")
    for pid in descendants(shell.process.pid):
        try:
            with open(f"/proc/{pid}/comm") as handle:
                if handle.read().strip() != "gnome-shell":
                    continue
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks
        except OSError:
            continue
    raise AssertionError("no gnome-shell process found")


def descendants(pid):
    found, queue = [], [pid]
    while queue:
        parent = queue.pop()
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as handle:
                children = [int(c) for c in handle.read().split()]
        except OSError:
            children = []
        found.extend(children)
        queue.extend(children)
    return found


class VariantTests(unittest.TestCase):
    """The 45+ variant: GNOME Shell 43 cannot load ES module extensions, so its modules are
    parsed (gjs -m stops at the shell's own resources, which exist only inside a shell) and
    their shape checked; the 43 variant is the source, loaded by ExtensionTests."""

    @classmethod
    def setUpClass(cls):
        cls.built = build_extension()
        cls.es = os.path.join(cls.built, "45/miga@miga.app")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.built, ignore_errors=True)

    def test_the_45_metadata_names_newer_shells(self):
        with open(os.path.join(self.es, "metadata.json")) as handle:
            metadata = json.load(handle)
        self.assertEqual(metadata["uuid"], "miga@miga.app")
        self.assertEqual(metadata["shell-version"], ["45", "46", "47", "48"])
        with open(os.path.join(self.built, "43/miga@miga.app/metadata.json")) as handle:
            self.assertEqual(json.load(handle)["shell-version"], ["43", "44"])

    def test_every_45_module_is_an_es_module_that_parses(self):
        if shutil.which("gjs") is None:
            self.skipTest("gjs is missing (it comes with gnome-shell)")
        modules = sorted(f for f in os.listdir(self.es) if f.endswith(".js"))
        self.assertEqual(modules, ["extension.js", "indicator.js", "watcher.js"])
        for module in modules:
            path = os.path.join(self.es, module)
            with open(path) as handle:
                text = handle.read()
            self.assertNotIn("imports.", text.replace("import ", ""), f"{module} keeps a classic import")
            self.assertNotIn("ExtensionUtils", text, module)
            for target in [line.split("'./", 1)[1].split("'", 1)[0] for line in text.splitlines() if "from './" in line]:
                self.assertTrue(os.path.exists(os.path.join(self.es, target)), f"{module} imports missing {target}")
            result = subprocess.run(["gjs", "-m", path], capture_output=True, text=True, timeout=30,
                                    env=dict(os.environ, DISPLAY="", WAYLAND_DISPLAY=""))
            self.assertNotIn("Failed to parse", result.stderr, f"{module}: {result.stderr}")
            self.assertNotIn("SyntaxError", result.stderr, f"{module}: {result.stderr}")
        with open(os.path.join(self.es, "extension.js")) as handle:
            self.assertIn("export default class MigaExtension extends Extension", handle.read())


if __name__ == "__main__":
    unittest.main()
