"""The real-browser test harness: a temporary home for miga, the local web server, Chromium
through selenium + chromedriver and Firefox through Marionette, each with the extension in
`browser/` loaded unpacked, and helpers to wait for conditions and read miga's events.

Nothing here touches the real $HOME: every `TempHome` has its own HOME and XDG folders, and
every browser runs with that environment (the native messaging host it starts inherits it).
Environment: MIGA_BIN (default <repo>/.build/debug/miga), MIGA_BROWSER_EXTENSION (the folder holding
chromium/ and firefox/ as scripts/build-extension.sh writes them, default
<repo>/.build/browser), MIGA_BROWSER_KEEP=1 keeps the temporary folders for a look afterwards.
"""
import datetime, json, os, shutil, signal, socket, sqlite3, struct, subprocess, sys, tempfile, time, unittest, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from server import TestServer, DEFAULT_HOSTS  # noqa: E402

MIGA_BIN = os.environ.get("MIGA_BIN", os.path.join(REPO, ".build/debug/miga"))
# The extension as `make` builds it per family (scripts/build-extension.sh): <this>/chromium, <this>/firefox.
EXTENSIONS = os.environ.get("MIGA_BROWSER_EXTENSION", os.path.join(REPO, ".build/browser"))
CHROMIUM_EXTENSION = os.path.join(EXTENSIONS, "chromium")
FIREFOX_EXTENSION = os.path.join(EXTENSIONS, "firefox")
CHROMIUM_ID = "ofokomeiepojclgahgdjidagbanoehml"
GECKO_ID = "miga@miga.app"
CHROMIUM_BIN = os.environ.get("MIGA_CHROMIUM", "/usr/lib/chromium/chromium")
CHROMEDRIVER = os.environ.get("MIGA_CHROMEDRIVER", "/usr/bin/chromedriver")
FIREFOX_BIN = os.environ.get("MIGA_FIREFOX", shutil.which("firefox-esr") or "/usr/bin/firefox-esr")
KEEP = os.environ.get("MIGA_BROWSER_KEEP") == "1"
GATE_STATES = ("asking", "counting", "ready", "opening", "exited")


# ---------------------------------------------------------------------------------------------
# Waiting

class Timeout(AssertionError):
    pass


def wait_for(predicate, timeout=10.0, interval=0.05, message=None):
    """Calls `predicate` until it returns something truthy and returns that; raises Timeout
    (an AssertionError, so a test fails rather than errors) naming `message` and the last
    exception or value otherwise."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = predicate()
            if value:
                return value
            last = value
        except Exception as error:  # noqa: BLE001 - a page in flux raises all sorts
            last = error
        if time.monotonic() >= deadline:
            raise Timeout(f"timed out after {timeout:.1f} s waiting for {message or predicate}; last: {last!r}")
        time.sleep(interval)


def failed(test):
    """In tearDown: whether this test has failed or errored so far (to print the browser's logs)."""
    result = getattr(getattr(test, "_outcome", None), "result", None)
    return bool(result) and any(t is test for t, _ in list(result.failures) + list(result.errors))


def what_is_missing():
    """Why the browser tests cannot run here, or None when everything is present."""
    problems = []
    if not os.access(MIGA_BIN, os.X_OK):
        problems.append(f"no miga binary at {MIGA_BIN} (set MIGA_BIN or build it)")
    for extension in (CHROMIUM_EXTENSION, FIREFOX_EXTENSION):
        if not os.path.exists(os.path.join(extension, "manifest.json")):
            problems.append(f"no extension at {extension} (scripts/build-extension.sh builds it)")
    return problems


def chromium_missing():
    missing = [p for p in (CHROMIUM_BIN, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("python module selenium")
    return ", ".join(missing) or None


def firefox_missing():
    missing = [] if os.access(FIREFOX_BIN, os.X_OK) else [FIREFOX_BIN]
    try:
        import marionette_driver  # noqa: F401
    except ImportError:
        missing.append("python module marionette_driver")
    return ", ".join(missing) or None


def skip_or_fail(test_case_class_name, reason):
    """For setUpClass: skip when a browser is genuinely absent, unless MIGA_REQUIRE_BROWSERS=1."""
    import unittest
    if os.environ.get("MIGA_REQUIRE_BROWSERS") == "1":
        raise RuntimeError(f"{test_case_class_name}: {reason} (MIGA_REQUIRE_BROWSERS=1, so this fails)")
    raise unittest.SkipTest(reason)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def now_iso(ago=0.0):
    """Now (or `ago` seconds before now) as an event's `ts`: ISO 8601 with the local offset."""
    moment = datetime.datetime.now().astimezone() - datetime.timedelta(seconds=ago)
    return moment.isoformat(timespec="milliseconds")


# ---------------------------------------------------------------------------------------------
# A person's home

class TempHome:
    """A temporary HOME with its XDG folders, a fake default browser (logging what it is asked
    to open) and helpers to configure and run miga inside it."""

    def __init__(self, sites=("reddit.com", "gated.test"), timer_seconds=15, grace_minutes=5,
                 extra_config="", fake_browser=True, prefix="miga-browser-"):
        self.root = tempfile.mkdtemp(prefix=prefix)
        self.home = os.path.join(self.root, "home")
        self.config_home = os.path.join(self.home, ".config")
        self.data_home = os.path.join(self.home, ".local/share")
        self.state_home = os.path.join(self.home, ".local/state")
        self.cache_home = os.path.join(self.home, ".cache")
        self.runtime_dir = os.path.join(self.root, "run")
        for d in (self.config_home, self.data_home, self.state_home, self.cache_home):
            os.makedirs(d, exist_ok=True)
        os.makedirs(self.runtime_dir, mode=0o700, exist_ok=True)
        self.fake_browser_log = os.path.join(self.root, "fake-browser.log")
        self.timer_seconds, self.grace_minutes = timer_seconds, grace_minutes
        self.extra_config = extra_config
        self.sites = list(sites)
        # More environment for miga and the browsers started with this home (set before the
        # browser starts: its native host inherits it), e.g. MIGA_IDLE_SECONDS.
        self.extra_env = {}
        if fake_browser:
            self._write_fake_browser()
        self.write_config()

    @property
    def env(self):
        return {
            "HOME": self.home, "XDG_CONFIG_HOME": self.config_home, "XDG_DATA_HOME": self.data_home,
            "XDG_STATE_HOME": self.state_home, "XDG_CACHE_HOME": self.cache_home,
            "XDG_RUNTIME_DIR": self.runtime_dir,
            "XDG_DATA_DIRS": os.path.join(self.root, "sys-share"),  # no system desktop files
            "XDG_CONFIG_DIRS": os.path.join(self.root, "sys-etc"),
            "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp"),
            **self.extra_env,
        }

    @property
    def config_file(self):
        return os.path.join(self.config_home, "miga/config.toml")

    @property
    def database(self):
        return os.path.join(self.data_home, "miga/miga.sqlite3")

    def chromium_manifest(self):
        return os.path.join(self.config_home, "chromium/NativeMessagingHosts/miga.gateway.json")

    def firefox_manifest(self):
        return os.path.join(self.home, ".mozilla/native-messaging-hosts/miga.gateway.json")

    def _write_fake_browser(self):
        apps = os.path.join(self.data_home, "applications")
        os.makedirs(apps, exist_ok=True)
        # A script rather than `sh -c '…'`: desktop entries quote with double quotes only.
        script = os.path.join(self.root, "fake-browser")
        with open(script, "w") as f:
            f.write(f"#!/bin/sh\nprintf '%s\\n' \"$@\" >> {self.fake_browser_log}\n")
        os.chmod(script, 0o755)
        with open(os.path.join(apps, "fake-browser.desktop"), "w") as f:
            f.write("[Desktop Entry]\nType=Application\nName=Fake Browser\n"
                    f"Exec={script} %U\n"
                    "MimeType=x-scheme-handler/http;x-scheme-handler/https;text/html;\n")
        with open(os.path.join(self.config_home, "mimeapps.list"), "w") as f:
            f.write("[Default Applications]\nx-scheme-handler/https=fake-browser.desktop\n"
                    "x-scheme-handler/http=fake-browser.desktop\ntext/html=fake-browser.desktop\n")

    def write_config(self, sites=None, timer_seconds=None, grace_minutes=None):
        if sites is not None:
            self.sites = list(sites)
        if timer_seconds is not None:
            self.timer_seconds = timer_seconds
        if grace_minutes is not None:
            self.grace_minutes = grace_minutes
        os.makedirs(os.path.dirname(self.config_file), exist_ok=True)
        text = (f"timer_seconds = {self.timer_seconds}\ngrace_minutes = {self.grace_minutes}\n"
                f"sites = {json.dumps(self.sites)}\n{self.extra_config}")
        tmp = self.config_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, self.config_file)

    def miga(self, *args, check=True, timeout=60, input=None):
        result = subprocess.run([MIGA_BIN, *args], env=self.env, cwd=self.home, capture_output=True,
                                text=True, timeout=timeout, input=input, stdin=None if input else subprocess.DEVNULL)
        if check and result.returncode != 0:
            raise AssertionError(f"miga {' '.join(args)} exited {result.returncode}\n"
                                 f"stdout: {result.stdout}\nstderr: {result.stderr}")
        return result

    def install(self):
        result = self.miga("install")
        for manifest in (self.chromium_manifest(), self.firefox_manifest()):
            if not os.path.exists(manifest):
                raise AssertionError(f"miga install wrote no {manifest}\nstdout: {result.stdout}\nstderr: {result.stderr}")
        return result

    def import_open(self, app, ts=None, detail=None, session=None):
        """Records an Open of `app` (now, or at `ts`) from outside the browser, as another
        browser or `miga open-url` would: grace starts for it. `detail` (a dict) is stored as
        its detail, e.g. {"minutes": 5} for an Open that said how long. Returns its session (a
        UUID, as miga's own: the native host names no other in a request)."""
        session = session or str(uuid.uuid4())
        self.import_events({"ts": ts or now_iso(), "type": "open_selected", "app": app, "session": session,
                            "wait_ms": 15000, "detail": detail})
        return session

    def import_events(self, *events):
        """Stores `events` (dicts: ts, type, app, session, and optionally content_id, wait_ms and
        detail, a dict) through `miga events import`."""
        path = os.path.join(self.root, f"import-{time.monotonic_ns()}.jsonl")
        with open(path, "w") as f:
            for event in events:
                f.write(json.dumps({"ts": event.get("ts") or now_iso(), "type": event["type"], "app": event["app"],
                                    "session": event["session"], "content_id": event.get("content_id"),
                                    "wait_ms": event.get("wait_ms"), "detail": event.get("detail")}) + "\n")
        return self.miga("events", "import", path)

    def ask_host(self, *messages, timeout=15):
        """Talks to `miga native-host` as Chromium does (4-byte native-endian length + JSON),
        one conversation: each message gets an id; returns the replies to them, in order (what
        the host sends unasked is left out)."""
        frames = b""
        for number, message in enumerate(messages, 1):
            body = json.dumps({**message, "id": number}).encode()
            frames += struct.pack("=I", len(body)) + body
        result = subprocess.run([MIGA_BIN, "native-host", f"chrome-extension://{CHROMIUM_ID}/"], env=self.env, cwd=self.home,
                                input=frames, capture_output=True, timeout=timeout)
        out, replies = result.stdout, {}
        while len(out) >= 4:
            (length,) = struct.unpack("=I", out[:4])
            reply = json.loads(out[4:4 + length])
            out = out[4 + length:]
            if isinstance(reply.get("id"), int):
                replies[reply["id"]] = reply
        return [replies.get(number) for number in range(1, len(messages) + 1)]

    def events(self, app=None, types=None, since_id=0):
        """Events as dicts, oldest first (an empty list before the database exists)."""
        if not os.path.exists(self.database):
            return []
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=5)
        try:
            db.row_factory = sqlite3.Row
            rows = db.execute("SELECT * FROM events WHERE id > ? ORDER BY id", (since_id,)).fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):
                return []
            raise
        finally:
            db.close()
        out = [dict(r) for r in rows]
        if app is not None:
            out = [e for e in out if e["app"] == app]
        if types is not None:
            out = [e for e in out if e["type"] in types]
        return out

    def last_event_id(self):
        events = self.events()
        return events[-1]["id"] if events else 0

    def fake_browser_urls(self):
        try:
            with open(self.fake_browser_log) as f:
                return [line.strip() for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def processes(self):
        """PIDs of processes running with this HOME (browsers, drivers, miga native-host)."""
        marker = ("HOME=" + self.home).encode() + b"\0"
        found = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            try:
                with open(f"/proc/{name}/environ", "rb") as f:
                    if marker in f.read():
                        found.append(int(name))
            except OSError:
                pass
        return found

    def native_hosts(self):
        hosts = []
        for pid in self.processes():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if any(b"native-host" in a for a in argv[:2]):
                hosts.append(pid)
        return hosts

    def kill_all(self):
        """Ends every process started with this HOME, by PID: TERM, then KILL."""
        pids = self.processes()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 3
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if os.path.exists(f"/proc/{p}") and _state(p) != "Z"]
            time.sleep(0.05)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def cleanup(self):
        self.kill_all()
        if not KEEP:
            shutil.rmtree(self.root, ignore_errors=True)


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "X"


# ---------------------------------------------------------------------------------------------
# Gate page helpers shared by both browsers

def gate_url_prefix_chromium():
    return f"chrome-extension://{CHROMIUM_ID}/gate.html"


def original_from_gate(url):
    """The URL a gate page stands for (after '#'), or None for another page."""
    if "/gate.html" not in url or "#" not in url:
        return None
    return url.split("#", 1)[1]


# ---------------------------------------------------------------------------------------------
# Chromium

class PageDriver:
    """What both browsers' drivers share: the gate page and the test server's pages, read
    through `script` and `current_url`, which each driver defines."""

    def wait_for_gate(self, handle=None, timeout=10, state=None):
        """Waits until the tab shows the gate page (optionally in `state`); returns its URL."""
        if handle:
            self.switch(handle)

        def shown():
            url = self.url()
            if not self.is_gate(url):
                return None
            if state is not None and self.state() != state:
                return None
            return url
        return wait_for(shown, timeout, message=f"the gate page{' in state ' + state if state else ''}"
                        f" (tab at {self._safe_url()})")

    def go(self, url):
        """Loads `url` in the current tab, as a typed address."""
        raise NotImplementedError

    def state(self):
        return self.script("return document.documentElement.dataset.state || ''")

    def gate_info(self):
        return self.script("""
            const q = s => document.querySelector(s);
            const d = document.documentElement.dataset;
            return {state: d.state || '', shownAt: d.shownAt || null,
                    content: q('#content') ? q('#content').textContent : null,
                    countdown: q('#countdown') ? q('#countdown').textContent : null,
                    openDisabled: q('#open') ? q('#open').getAttribute('aria-disabled') : null,
                    url: location.href};""")

    def wait_for_page(self, host, path, timeout=10):
        """Waits for the tab to show the test server's page for host+path (its <h1>)."""
        def arrived():
            text = self.script(
                "const h = document.getElementById('page');"
                "return h && document.readyState === 'complete' ? h.textContent : null")
            if text and text.split(":")[0].split("/")[0] == host and ("/" + text.split("/", 1)[1]).startswith(path):
                return text
            return None
        return wait_for(arrived, timeout, message=f"the page {host}{path} (tab at {self._safe_url()})")

    def wait_for_rules(self, domain, present=True, timeout=15):
        """Waits until the extension's rules gate `domain` (a redirect rule, and no allow rule
        of a grace or of hours without a gate above it), or no longer do: the extension has
        heard from miga. A harness condition, not an assertion about gating."""
        def domains(rules, action):
            return {d for r in rules if isinstance(r, dict) and r.get("action", {}).get("type") == action
                    for d in r.get("condition", {}).get("requestDomains", [])}

        def covered():
            redirected = domains(self.dynamic_rules(), "redirect")
            allowed = domains(self.session_rules(), "allow")
            return (domain in redirected and domain not in allowed) == present
        return wait_for(covered, timeout, 0.25,
                        message=f"the extension's rules to {'cover' if present else 'drop'} {domain}")

    def _safe_url(self):
        try:
            return self.current_url()
        except Exception as error:  # noqa: BLE001
            return f"<{error.__class__.__name__}>"

    def stderr_log(self, tail=200):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-tail:])
        except OSError:
            return ""


class Chromium(PageDriver):
    """Chromium with the extension, through chromedriver, in `home`'s environment."""

    def __init__(self, home, server, extension=CHROMIUM_EXTENSION, headless=True, extra_args=(), log_name="chromium",
                 binary=CHROMIUM_BIN):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.home, self.server = home, server
        self.user_data_dir = os.path.join(home.config_home, "chromium")
        os.makedirs(self.user_data_dir, exist_ok=True)
        self.log_path = os.path.join(home.root, f"{log_name}.log")
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        rules = ", ".join(f"MAP {h} 127.0.0.1" for h in server.hosts) + ", EXCLUDE localhost"
        args = [
            "--no-sandbox", f"--user-data-dir={self.user_data_dir}",
            f"--host-resolver-rules={rules}", "--ignore-certificate-errors",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            # The browser's default settings otherwise (prediction, preloading and HTTPS upgrades
            # on); only what would reach Google's servers or drive a media router is off.
            "--disable-features=DisableLoadExtensionCommandLineSwitch,MediaRouter,OptimizationHints",
            "--disable-component-update", "--disable-sync",
            "--enable-logging=stderr", "--v=0", "--window-size=1000,800",
        ]
        if headless:
            args.append("--headless=new")
        if extension:
            args.append(f"--load-extension={extension}")
        args += list(extra_args)
        for a in args:
            options.add_argument(a)
        options.add_experimental_option("prefs", {"browser.enable_spellchecking": False})
        # chromedriver may pass --disable-extensions / block extension loading; make sure not.
        options.add_experimental_option("excludeSwitches", ["disable-extensions", "enable-automation"])
        options.page_load_strategy = "none"
        options.set_capability("acceptInsecureCerts", True)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        env = dict(home.env)
        self._log = open(self.log_path, "ab")
        service = Service(CHROMEDRIVER, env=env, log_output=self._log)
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_script_timeout(10)
        self.main_handle = self.driver.current_window_handle
        self.console = []

    # -- tabs

    def handles(self):
        return list(self.driver.window_handles)

    def new_tab(self, url=None):
        handles = self.handles()
        try:
            current = self.driver.current_window_handle
        except Exception:  # noqa: BLE001 - the current tab was closed (Exit closes tabs)
            current = None
        if current not in handles and handles:
            self.switch(handles[-1])  # new_window needs a live current tab
        self.driver.switch_to.new_window("tab")
        handle = self.driver.current_window_handle
        if url:
            self.driver.get(url)
        return handle

    def switch(self, handle):
        self.driver.switch_to.window(handle)

    def go(self, url):
        self.driver.get(url)

    def script(self, source):
        return self.driver.execute_script(source)

    def page_script(self, source):
        """`source` run as the page's own scripts are (selenium's are)."""
        return self.driver.execute_script(source)

    def current_url(self):
        return self.driver.current_url

    def url(self, handle=None):
        if handle:
            self.switch(handle)
        try:
            return self.driver.execute_script("return location.href")
        except Exception:  # noqa: BLE001 - navigating; ask the driver
            return self.driver.current_url

    def close_others(self, keep=None):
        """Closes every tab but `keep` (default: a fresh blank tab) and returns the kept handle."""
        if keep is None:
            keep = self.new_tab()
        for h in self.handles():
            if h != keep:
                self.switch(h)
                self.driver.close()
        self.switch(keep)
        return keep

    def fresh_tab(self, url=None):
        """A single tab (all others closed) at about:blank, then `url`."""
        keep = self.close_others()
        if url:
            self.driver.get(url)
        return keep

    # -- the extension's own pages

    def extension_url(self, page):
        return f"chrome-extension://{CHROMIUM_ID}/{page}"

    def extension_eval(self, script, page="calm.html"):
        """Runs async `script` (its last argument is the callback) in a tab of the extension's
        own `page`, then closes that tab and comes back to the current one."""
        back = self.driver.current_window_handle
        tab = self.new_tab(self.extension_url(page))
        try:
            wait_for(lambda: self.driver.execute_script("return document.readyState") == "complete"
                     and self.url().startswith("chrome-extension://"), 10, message=f"the extension page {page}")
            return self.driver.execute_async_script(script)
        finally:
            self.driver.close()
            self.switch(back)

    def dynamic_rules(self):
        return self.extension_eval("const done = arguments[arguments.length - 1];"
                                   "chrome.declarativeNetRequest.getDynamicRules().then(done, e => done(String(e)));")

    def session_rules(self):
        return self.extension_eval("const done = arguments[arguments.length - 1];"
                                   "chrome.declarativeNetRequest.getSessionRules().then(done, e => done(String(e)));")

    # -- gate page

    def is_gate(self, url):
        return url.startswith(gate_url_prefix_chromium())

    def press(self, key):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(key).perform()

    def click(self, selector):
        from selenium.webdriver.common.by import By
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def keys(self, *keys):
        """Types `keys` into whatever has the focus now (press() does too in Chromium)."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(*keys).perform()

    def chord(self, modifier, key):
        """Presses `key` with `modifier` held (WebDriver key codes, e.g. Ctrl "\ue009" + "c"), as
        a person does, into whatever has the focus: trusted key events, so the browser's own
        shortcuts (copy, paste) act."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).key_down(modifier).send_keys(key).key_up(modifier).perform()

    def close_tab(self):
        """Closes the current tab (the driver then has none until switch())."""
        self.driver.close()

    def shadow_elements(self, host, selector):
        """The elements matching `selector` inside the shadow root of the first `host` element,
        closed or open (WebDriver reaches into closed roots, as a person's input does; a page's
        scripts cannot); None when there is no such host."""
        from selenium.webdriver.common.by import By
        hosts = self.driver.find_elements(By.CSS_SELECTOR, host)
        return hosts[0].shadow_root.find_elements(By.CSS_SELECTOR, selector) if hosts else None

    def wait_for_url(self, predicate, timeout=10, handle=None, message="URL"):
        if handle:
            self.switch(handle)
        return wait_for(lambda: (lambda u: u if predicate(u) else None)(self.url()), timeout,
                        message=f"{message} (tab at {self._safe_url()})")

    def browser_log(self):
        try:
            self.console += self.driver.get_log("browser")
        except Exception:  # noqa: BLE001
            pass
        return self.console

    def quit(self):
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001
            pass
        self._log.close()


# ---------------------------------------------------------------------------------------------
# Firefox

class Firefox(PageDriver):
    """firefox-esr -headless -marionette with the extension as a temporary add-on."""

    def __init__(self, home, server, extension=FIREFOX_EXTENSION, log_name="firefox", extension_prefs=True, private=False):
        """`extension_prefs=False` keeps Firefox's own add-on settings (scopes, signatures):
        a fresh profile as a person's, for the packaged extension that Firefox loads itself."""
        self.home, self.server = home, server
        self.profile = os.path.join(home.root, "firefox-profile")
        os.makedirs(self.profile, exist_ok=True)
        self.port = free_port()
        prefs = {
            "marionette.port": self.port,
            "network.dns.localDomains": ",".join(server.hosts),
            # Prediction, speculative connections and HTTPS-First stay as Firefox ships them.
            "browser.shell.checkDefaultBrowser": False,
            "browser.startup.homepage_override.mstone": "ignore",
            "browser.startup.page": 0,
            "browser.aboutwelcome.enabled": False,
            "datareporting.policy.dataSubmissionEnabled": False,
            "toolkit.telemetry.reportingpolicy.firstRun": False,
            "app.update.disabledForTesting": True,
            "extensions.update.enabled": False,
            "extensions.getAddons.cache.enabled": False,
            "extensions.webextensions.warnings-as-errors": False,
            "xpinstall.signatures.required": False,
            "extensions.autoDisableScopes": 0,
            "extensions.enabledScopes": 5,
            "devtools.console.stdout.chrome": True,
            "devtools.console.stdout.content": True,
            "browser.tabs.warnOnClose": False,
            "browser.tabs.closeWindowWithLastTab": False,
            "browser.safebrowsing.malware.enabled": False,
            "browser.safebrowsing.phishing.enabled": False,
            "browser.safebrowsing.downloads.enabled": False,
            "captivedetect.canonicalURL": "",
            "network.captive-portal-service.enabled": False,
            "network.connectivity-service.enabled": False,
            "browser.newtabpage.enabled": False,
            "browser.newtab.preload": False,
            "remote.prefs.recommended": True,
            "security.OCSP.enabled": 0,
            # The test server's certificate is self-signed; Firefox registers service workers
            # only from trusted origins, and this lets the test site have one.
            "devtools.serviceWorkers.testing.enabled": True,
        }
        if not extension_prefs:
            for key in ("xpinstall.signatures.required", "extensions.autoDisableScopes", "extensions.enabledScopes"):
                prefs.pop(key)
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for k, v in prefs.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        self.log_path = os.path.join(home.root, f"{log_name}.log")
        self._log = open(self.log_path, "ab")
        env = dict(home.env)
        env["MOZ_HEADLESS"] = "1"
        env["MOZ_CRASHREPORTER_DISABLE"] = "1"
        self.process = subprocess.Popen([FIREFOX_BIN, "-headless", "-marionette", "-remote-allow-system-access", "-no-remote", "-profile", self.profile],
                                        env=env, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        start_new_session=True)

        try:
            self._connect(extension, private)
        except BaseException:
            self.quit()
            raise

    def _connect(self, extension, private=False):
        from marionette_driver.marionette import Marionette
        self.client = None

        def listening():
            if self.process.poll() is not None:
                raise RuntimeError(f"firefox exited {self.process.returncode}; see {self.log_path}")
            with socket.socket() as s:
                s.settimeout(0.5)
                return s.connect_ex(("127.0.0.1", self.port)) == 0
        wait_for(listening, 60, 0.1, message="Firefox's Marionette port")
        self.client = Marionette(host="127.0.0.1", port=self.port, startup_timeout=60)
        self.client.start_session({"acceptInsecureCerts": True, "pageLoadStrategy": "none"})
        self.client.timeout.script = 10
        from marionette_driver.addons import Addons
        if extension and private:
            # As a person's "Run in Private Windows → Allow" (Marionette's own parameter).
            self.addon_id = self.client._send_message("Addon:Install", {"path": os.path.abspath(extension), "temporary": True,
                                                                        "allowPrivateBrowsing": True}, key="value")
        else:
            self.addon_id = Addons(self.client).install(extension, temp=True) if extension else None
        self.uuid = self._extension_uuid() if extension else None

    def loaded_extension_uuid(self, timeout=20):
        """The moz-extension UUID of miga's extension when Firefox loaded it itself (a system
        add-on); raises Timeout when it never did."""
        self.uuid = self._extension_uuid(timeout)
        return self.uuid

    def _extension_uuid(self, timeout=10):
        with self.client.using_context("chrome"):
            return wait_for(lambda: self.client.execute_script(
                "const p = Services.prefs.getStringPref('extensions.webextensions.uuids', '{}');"
                "return JSON.parse(p)[arguments[0]] || null;", script_args=[GECKO_ID]),
                timeout, message="the extension's moz-extension UUID")

    def extension_url(self, page):
        return f"moz-extension://{self.uuid}/{page}"

    def extension_eval(self, script, page="calm.html"):
        back = self.client.current_window_handle
        tab = self.new_tab(self.extension_url(page))
        try:
            wait_for(lambda: self.client.execute_script("return document.readyState") == "complete"
                     and self.url().startswith("moz-extension://"), 10, message=f"the extension page {page}")
            return self.client.execute_async_script(script, sandbox=None)
        finally:
            self.client.close()
            self.switch(back)

    def dynamic_rules(self):
        return self.extension_eval("const done = arguments[arguments.length - 1];"
                                   "browser.declarativeNetRequest.getDynamicRules().then(done, e => done(String(e)));")

    def session_rules(self):
        return self.extension_eval("const done = arguments[arguments.length - 1];"
                                   "browser.declarativeNetRequest.getSessionRules().then(done, e => done(String(e)));")

    def handles(self):
        return list(self.client.window_handles)

    def new_tab(self, url=None):
        handle = self.client.open(type="tab", focus=True)["handle"]
        self.client.switch_to_window(handle)
        if url:
            self.client.navigate(url)
        return handle

    def switch(self, handle):
        self.client.switch_to_window(handle)

    def script(self, source):
        return self.client.execute_script(source)

    def page_script(self, source):
        """`source` run as the page's own scripts are (no Marionette sandbox)."""
        return self.client.execute_script(source, sandbox=None)

    def current_url(self):
        return self.client.get_url()

    def navigate(self, url):
        self.client.navigate(url)

    go = navigate

    def url(self):
        try:
            return self.client.execute_script("return location.href", sandbox=None)
        except Exception:  # noqa: BLE001
            return self.client.get_url()

    def is_gate(self, url):
        return url.startswith("moz-extension://") and "/gate.html" in url

    def fresh_tab(self, url=None):
        keep = self.new_tab()
        for h in self.handles():
            if h != keep:
                self.switch(h)
                self.client.close()
        self.switch(keep)
        if url:
            self.navigate(url)
        return keep

    def click(self, selector):
        from marionette_driver.by import By
        self.client.find_element(By.CSS_SELECTOR, selector).click()

    def press(self, key):
        from marionette_driver.by import By
        self.client.find_element(By.TAG_NAME, "body").send_keys(key)

    def keys(self, *keys):
        """Types `keys` into whatever has the focus now (press() focuses the page's body first)."""
        sequence = self.client.actions.sequence("key", "keyboard")
        for key in keys:
            for character in key:
                sequence.key_down(character).key_up(character)
        sequence.perform()
        self.client.actions.release()

    def chord(self, modifier, key):
        """As Chromium's: `key` with `modifier` held, into whatever has the focus."""
        self.client.actions.sequence("key", "keyboard").key_down(modifier).key_down(key).key_up(key).key_up(modifier).perform()
        self.client.actions.release()

    def close_tab(self):
        """Closes the current tab (the driver then has none until switch())."""
        self.client.close()

    def shadow_elements(self, host, selector):
        """As Chromium's: inside the (closed) shadow root of the first `host` element, or None."""
        from marionette_driver.by import By
        hosts = self.client.find_elements(By.CSS_SELECTOR, host)
        return hosts[0].shadow_root.find_elements(By.CSS_SELECTOR, selector) if hosts else None

    def quit(self):
        try:
            if getattr(self, "client", None):
                self.client.delete_session()
        except Exception:  # noqa: BLE001
            pass
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()


# ---------------------------------------------------------------------------------------------
# Test classes

class BrowserCase(unittest.TestCase):
    """One browser, home and server for a whole class (the countdowns make browsers precious).
    Subclasses name `browser_name`, `launch` (the driver class) and `missing` (why the browser
    cannot run here, or None)."""
    browser_name = "a browser"
    launch = None
    missing = None
    sites = []
    install = True
    timer_seconds = 15

    @classmethod
    def setUpClass(cls):
        if cls.launch is None:
            raise unittest.SkipTest("the shared base class")
        missing = what_is_missing()
        if missing:
            raise RuntimeError("; ".join(missing))
        reason = cls.missing()
        if reason:
            skip_or_fail(cls.__name__, f"{cls.browser_name} is not available: {reason}")
        cls.server = TestServer().start()
        cls.home = TempHome(sites=cls.sites, timer_seconds=cls.timer_seconds, grace_minutes=5)
        cls.browser = None
        try:
            if cls.install:
                cls.home.install()
            cls.prepare_home()
            cls.browser = cls.launch(cls.home, cls.server)
            cls.wait_until_ready()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def prepare_home(cls):
        pass

    @classmethod
    def wait_until_ready(cls):
        cls.browser.wait_for_rules("gated.test", timeout=20)

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "browser", None):
            cls.browser.quit()
        if getattr(cls, "home", None):
            cls.home.cleanup()
        if getattr(cls, "server", None):
            cls.server.stop()

    def new_events(self, **kw):
        return self.h.events(since_id=self.first_event, **kw)

    def wait_event(self, type_, app, timeout=10):
        return wait_for(lambda: [e for e in self.new_events(app=app) if e["type"] == type_], timeout,
                        message=f"a {type_} event for {app}")[-1]

    def session_of(self, app):
        return self.wait_event("session_start", app)["session"]

    def kill_native_hosts(self):
        """Kills miga's native host (as a crash would) and waits until it is gone."""
        hosts = self.h.native_hosts()
        self.assertTrue(hosts, "a native host is running")
        for pid in hosts:
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not set(hosts) & set(self.h.native_hosts()), 5, message="the host to be gone")

    def assert_nothing_for(self, hosts, mark, when):
        """No request reached a gated site. A connection the browser opened ahead of time
        (a preconnect: a TLS handshake with no request in it, which the browsers' default
        prediction makes) is not a request; it is reported, since it tells the site's server
        that this address may be on its way."""
        seen = [r for h in hosts for r in self.s.requests_for(h, mark, http_only=True)]
        self.assertEqual(seen, [], f"{when}: the browser sent a request to the gated site: {seen}")
        handshakes = [r for h in hosts for r in self.s.requests_for(h, mark) if r.method == "TLS"]
        if handshakes:
            line = f"preconnect: {self.id()} ({when}): {len(handshakes)} TLS handshake(s) with {sorted({r.sni for r in handshakes})}, no request\n"
            sys.stderr.write(line)
            report = os.environ.get("MIGA_BROWSER_PRECONNECT_LOG")
            if report:
                with open(report, "a") as f:
                    f.write(line)
