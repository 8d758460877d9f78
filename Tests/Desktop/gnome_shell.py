"""A real GNOME Shell, headless, started by the test itself, and the helpers to drive it.

What works on Debian 12 (GNOME Shell 43.9, mutter 43.8), as root in a container without
logind or a system bus — found by trying, each step for the reason given:
- `unshare --mount --propagation private --pid --fork --kill-child --mount-proc`: a private
  mount namespace (the tmpfs mounts below stay ours) and a private PID namespace, so every
  process the shell, the buses and the tests start dies with it at teardown (the system bus
  activates upowerd and friends, which would otherwise outlive the test), and /proc matches
  the PIDs the shell reports for windows.
- `mount -t tmpfs tmpfs /run/systemd`: without it mutter sees systemd's folders and asks
  logind for a session and seat, which do not exist here.
- `mount -t tmpfs tmpfs /run/dbus` + `dbus-daemon --system --fork`: the stock system bus, in
  its own /run/dbus. A hand-written system bus config with its own socket hung every call;
  the shell's quick settings make synchronous system-bus calls at start (UPower) and give up
  only after a 25 s timeout, which ends the start-up with a JS error.
- `dbus-daemon --session --fork --address=unix:path=TMP/session_bus`: a session bus at a
  known path, so the test (outside the namespaces) reaches `org.gnome.Shell` with gdbus.
- `gsettings set org.gnome.shell enabled-extensions ['miga@miga.app']` (dconf, started by
  the session bus) before the shell starts; the screen lock and blanking off.
- `gnome-shell --wayland --headless --no-x11 --virtual-monitor 1280x800 --unsafe-mode
  --wayland-display NAME`: `--no-x11` so no Xwayland takes an X display other tests use,
  `--unsafe-mode` so `org.gnome.Shell.Eval` and the screenshot interface answer the test.
  Ready in about 10 s on two cores (`Main.layoutManager._startingUp` false).
- Keys: a Clutter virtual keyboard made once, a second before the first key (the keys sent
  right after it is created never arrive).
HOME and every XDG folder are temporary; apps the shell launches inherit them, and so does
`miga watch --shell` started by the extension.
"""
import ast, json, os, shutil, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXTENSION_UUID = "miga@miga.app"
PYTHON = "/usr/bin/python3"  # Debian's, which has python3-gi (a pyenv python may not)

INNER = r"""
set -e
T=$1; shift
mount -t tmpfs tmpfs /run/systemd
mount -t tmpfs tmpfs /run/dbus
dbus-daemon --system --fork
dbus-daemon --session --fork --address="unix:path=$T/session_bus"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$T/session_bus"
gsettings set org.gnome.shell enabled-extensions "['miga@miga.app']"
gsettings set org.gnome.shell disable-user-extensions false
gsettings set org.gnome.desktop.screensaver lock-enabled false
gsettings set org.gnome.desktop.session idle-delay 0
exec gnome-shell --wayland --headless --no-x11 --virtual-monitor 1280x800 --unsafe-mode "$@"
"""


def missing_reason():
    """Why the shell cannot run here, or None."""
    for tool in ("gnome-shell", "unshare", "dbus-daemon", "gdbus", "gsettings"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (install gnome-shell: scripts/deps.sh test)"
    if os.geteuid() != 0:
        return "the headless GNOME Shell needs root for its private mount namespace"
    return None


def wait_for(predicate, timeout=10.0, interval=0.1, message=None):
    """Calls predicate until it returns something truthy; raises AssertionError on timeout."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = predicate()
            if last:
                return last
        except Exception as error:  # noqa: BLE001 - a shell in flux raises all sorts
            last = error
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {message or predicate}; last: {last!r}")
        time.sleep(interval)


class GnomeShell:
    """One headless GNOME Shell in a temporary home. `env` is added to the shell's (and so
    to its apps' and the extension's) environment; `extension` is a folder copied in as
    miga@miga.app."""

    def __init__(self, env=None, extension=None, display="miga-gnome-91"):
        self.root = tempfile.mkdtemp(prefix="miga-gnome-")
        self.home = os.path.join(self.root, "home")
        self.data = os.path.join(self.home, ".local/share")
        self.config = os.path.join(self.home, ".config")
        self.runtime = os.path.join(self.root, "run")
        self.display = display
        self.env_extra = dict(env or {})
        self.extension = extension
        self.process = None
        self.log_path = os.path.join(self.root, "shell.log")

    # -- start and stop --------------------------------------------------------------------

    def environment(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DBUS_", "XDG_", "WAYLAND", "DISPLAY"))}
        env.update(HOME=self.home, XDG_DATA_HOME=self.data, XDG_CONFIG_HOME=self.config,
                   XDG_CACHE_HOME=os.path.join(self.home, ".cache"),
                   XDG_STATE_HOME=os.path.join(self.home, ".local/state"),
                   XDG_RUNTIME_DIR=self.runtime, XDG_SESSION_TYPE="wayland",
                   XDG_CURRENT_DESKTOP="GNOME", GSETTINGS_BACKEND="dconf", NO_AT_BRIDGE="1")
        env.update(self.env_extra)
        return env

    def prepare(self):
        for folder in (self.data, self.config, os.path.join(self.home, ".cache")):
            os.makedirs(folder, exist_ok=True)
        os.makedirs(self.runtime, mode=0o700, exist_ok=True)
        os.makedirs(os.path.join(self.data, "applications"), exist_ok=True)
        if self.extension:
            target = os.path.join(self.data, "gnome-shell/extensions", EXTENSION_UUID)
            shutil.copytree(self.extension, target)

    def start(self, timeout=60):
        self.prepare()
        script = os.path.join(self.root, "inner.sh")
        with open(script, "w") as handle:
            handle.write(INNER)
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "--pid", "--fork", "--kill-child",
             "--mount-proc", "sh", script, self.root, "--wayland-display", self.display],
            env=self.environment(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + timeout
        while not self.started():
            if not self.alive() or time.monotonic() > deadline:
                log = self.log_tail()
                self.stop()
                raise AssertionError(f"GNOME Shell did not start; its log:\n{log}")
            time.sleep(0.5)
        self.eval("Main.overview.hide(); true")
        wait_for(lambda: self.eval("Main.overview.visible") == "false", message="the overview to hide")
        # The virtual keyboard is made now: keys sent right after it is created are lost
        # (mutter adds the device to the seat a moment later).
        self.type_keys([])
        time.sleep(1)

    def started(self):
        """Whether the shell answers and its start-up animation has ended."""
        try:
            return self.eval("Main.layoutManager._startingUp") == "false"
        except (RuntimeError, subprocess.TimeoutExpired):
            return False

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        """Ends the shell and everything in its namespaces (unshare --kill-child)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if os.environ.get("MIGA_GNOME_KEEP") != "1":
            shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, lines=60):
        try:
            with open(self.log_path, errors="replace") as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return "(no log)"

    # -- talking to the shell --------------------------------------------------------------

    def bus_env(self):
        env = dict(os.environ)
        env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={self.root}/session_bus"
        return env

    def gdbus(self, path, method, *args, timeout=20):
        result = subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.gnome.Shell", "--object-path", path,
             "--method", method, *args], env=self.bus_env(), capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(f"gdbus {method}: {result.stderr.strip()}")
        return result.stdout.strip()

    def eval(self, script):
        """Runs JS in the shell; returns its result as the shell's JSON text (Eval stringifies
        what the script returns), or raises."""
        out = self.gdbus("/org/gnome/Shell", "org.gnome.Shell.Eval", script)
        # gdbus prints (true, 'RESULT'); RESULT is JSON (or an error's text when false)
        ok = out.startswith("(true,")
        text = out[out.index(",") + 1:].strip().rstrip(")").strip()
        value = eval_literal(text)
        if not ok:
            raise RuntimeError(f"Eval failed: {value}")
        return value

    def eval_json(self, script):
        value = self.eval(script)
        return None if value in ("", "undefined") else json.loads(value)

    def launch(self, desktop_id):
        """Launches or brings back an app as a dash click does (with a current timestamp)."""
        script = (f"(() => {{ const app = imports.gi.Shell.AppSystem.get_default().lookup_app({json.dumps(desktop_id)});"
                  " if (!app) return 'missing';"
                  " app.activate_full(-1, global.display.get_current_time_roundtrip()); return 'ok'; })()")
        # a desktop entry written while the shell runs is seen after the app system's refresh
        wait_for(lambda: self.eval(script) == '"ok"', timeout=15, interval=0.5,
                 message=f"the shell to know {desktop_id}")

    def focus(self):
        """The focused window as {wm_class, title, minimized} or None."""
        return self.eval_json(
            "(() => { const w = global.display.focus_window; if (!w) return null;"
            " return {wm_class: w.get_wm_class(), title: w.get_title(), id: w.get_stable_sequence()}; })()")

    def windows(self):
        """Every normal window: {wm_class, title, minimized, id}."""
        return self.eval_json(
            "global.get_window_actors().map(a => a.meta_window)"
            ".filter(w => w.get_window_type() === imports.gi.Meta.WindowType.NORMAL)"
            ".map(w => ({wm_class: w.get_wm_class(), title: w.get_title(), minimized: w.minimized,"
            " id: w.get_stable_sequence()}))")

    def wait_focus(self, wm_class, timeout=20):
        return wait_for(lambda: (self.focus() or {}).get("wm_class") == wm_class and self.focus(),
                        timeout=timeout, message=f"{wm_class} focused (focus: {self.safe_focus()})")

    def safe_focus(self):
        try:
            return self.focus()
        except Exception as error:  # noqa: BLE001
            return error

    def type_keys(self, keyvals):
        """Presses and releases each keyval (ints or Clutter names such as 'Return', 'e')
        on a Clutter virtual keyboard, as a person at the keyboard would."""
        names = json.dumps([k if isinstance(k, int) else f"KEY_{k}" for k in keyvals])
        self.eval(
            "(() => { const C = imports.gi.Clutter; const G = imports.gi.GLib;"
            " if (!global._migaTestKeyboard) global._migaTestKeyboard = C.get_default_backend()"
            ".get_default_seat().create_virtual_device(C.InputDeviceType.KEYBOARD_DEVICE);"
            " const kb = global._migaTestKeyboard;"
            f" for (const k of {names}) {{ const v = typeof k === 'number' ? k : C[k];"
            " const t = G.get_monotonic_time();"
            " kb.notify_keyval(t, v, C.KeyState.PRESSED); kb.notify_keyval(t + 1000, v, C.KeyState.RELEASED); }"
            " return true; })()")

    def screenshot(self, path):
        """Saves the whole screen as PNG at path (the shell's screenshot interface)."""
        self.gdbus("/org/gnome/Shell/Screenshot", "org.gnome.Shell.Screenshot.Screenshot",
                   "false", "false", path)
        return path

    def extension_state(self):
        """{state, error} of miga@miga.app as the shell's extension manager sees it."""
        return self.eval_json(
            f"(() => {{ const e = Main.extensionManager.lookup('{EXTENSION_UUID}'); if (!e) return null;"
            " return {state: e.state, error: String(e.error || ''),"
            " enabled: e.state === imports.misc.extensionUtils.ExtensionState.ENABLED}; })()")

    def write_desktop_entry(self, desktop_id, text):
        path = os.path.join(self.data, "applications", desktop_id)
        with open(path, "w") as handle:
            handle.write(text)
        return path


def eval_literal(text):
    """The string inside gdbus's quoted output ('…' or "…", with backslash escapes)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text
