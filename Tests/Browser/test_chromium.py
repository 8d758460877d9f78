"""miga's extension in a real Chromium (headless, selenium + chromedriver), against a local
web server whose request log proves what left the browser. See harness.py for the set-up.

Run: python3 -m unittest -v Tests/Browser/test_chromium.py   (or scripts/browser-tests.sh)
"""
import datetime, json, os, shlex, shutil, subprocess, sys, time, unittest, urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import Allowance, DoThisInstead, Entries, HowLong, ScheduleWithoutGate  # noqa: E402
from cases_paths import Paths  # noqa: E402
from cases_overlay import GateOverPage  # noqa: E402
from cases_room import Budget, ComingBack, FocusTime, Idle  # noqa: E402
from harness import (failed, BrowserCase, Chromium, CHROMIUM_ID, MIGA_BIN, TempHome, TestServer, chromium_missing, now_iso, original_from_gate,  # noqa: E402
                     skip_or_fail, wait_for, what_is_missing, Timeout)

TIMER = 15
SITES = ["reddit.com", "gated.test", "open.test", "chain.test", "import.test", "exit.test", "abandon.test", "post.test",
         "*.wild.test", "revive.test", "restart.test", "after.test"]


def _keys():
    try:
        from selenium.webdriver.common.keys import Keys as keys
        return keys
    except ImportError:  # selenium absent: the class is skipped before any key is pressed
        return None


Keys = _keys()


def by_session(events, session):
    return [e["type"] for e in events if e["session"] == session]


class ChromiumCase(BrowserCase):
    browser_name = "Chromium"
    launch = Chromium
    missing = staticmethod(chromium_missing)
    sites = SITES
    timer_seconds = TIMER

    def setUp(self):
        self.b = self.browser
        self.s = self.server
        self.h = self.home
        self.tab = self.b.fresh_tab()
        self.first_event = self.h.last_event_id()

    def tearDown(self):
        if failed(self) or os.environ.get("MIGA_BROWSER_VERBOSE") == "1":
            sys.stderr.write(f"\n--- {self.id()}: console ---\n")
            for entry in self.b.browser_log()[-30:]:
                sys.stderr.write(f"{entry.get('level')} {entry.get('message')}\n")
            sys.stderr.write("--- chromium stderr (extension lines) ---\n")
            for line in self.b.stderr_log(400).splitlines():
                if "CONSOLE" in line or "extension" in line.lower() or "native" in line.lower() or "miga" in line:
                    sys.stderr.write(line + "\n")
            sys.stderr.write(f"--- events ---\n{json.dumps(self.h.events(since_id=self.first_event), indent=None)}\n")


class TestGate(ChromiumCase):
    """Gate shown for each kind of navigation; nothing leaves the browser before Open; Exit,
    Open, grace, locking, redirect chains."""

    def test_typed_address_shows_gate_and_sends_nothing(self):
        mark = self.s.mark()
        # As typed: the omnibox makes `reddit.com` http://reddit.com/, which HSTS upgrades.
        self.b.driver.get(self.s.url("reddit.com", "/", scheme="http"))
        gate_url = self.b.wait_for_gate(state="counting")
        original = original_from_gate(gate_url)
        self.assertIn(original.split("://")[0], ("http", "https"))
        self.assertIn("://reddit.com", original)
        info = self.b.gate_info()
        self.assertTrue(info["content"].strip(), "the gate shows a quote or a read")
        self.assertRegex(info["countdown"], r"\d")
        self.assertEqual(info["openDisabled"], "true")
        self.session_of("reddit.com")
        self.assert_nothing_for(["reddit.com", "www.reddit.com"], mark, "while the gate counts down")
        self.assertEqual(len([h for h in self.b.handles()]), 1)

    def test_link_click_shows_gate(self):
        target = self.s.url("gated.test", "/page/from-link")
        self.b.driver.get(self.s.url("free.test", "/links?gated=" + target))
        self.b.wait_for_page("free.test", "/links")
        mark = self.s.mark()
        self.b.click("#to-gated")
        gate_url = self.b.wait_for_gate(state="counting")
        self.assertEqual(original_from_gate(gate_url), target)
        self.session_of("gated.test")
        self.assert_nothing_for(["gated.test"], mark, "after a link click")

    def test_redirect_from_another_site_shows_gate(self):
        target = self.s.url("gated.test", "/page/after-redirect")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("free.test", "/redirect?to=" + target))
        gate_url = self.b.wait_for_gate(state="counting")
        self.assertEqual(original_from_gate(gate_url), target)
        self.assertTrue(self.s.hits("free.test", "/redirect", mark), "the non-gated hop was requested")
        self.assert_nothing_for(["gated.test"], mark, "after a redirect to it")

    def test_new_window_shows_gate(self):
        target = self.s.url("sub.gated.test", "/page/new-window")
        self.b.driver.get(self.s.url("free.test", "/links?gated=" + target))
        self.b.wait_for_page("free.test", "/links")
        before = set(self.b.handles())
        mark = self.s.mark()
        self.b.click("#new-window")
        try:
            new = wait_for(lambda: set(self.b.handles()) - before, 10, message="a new tab")
        except Timeout:
            # About one run in six here and in CI, chromedriver never lists the tab that the
            # link opened and the extension sent to its gate page, though the gate runs there
            # (its session_start is recorded). What can still be seen is checked: the gate ran
            # for the site, and nothing reached it.
            self.assertIn("://free.test", self.b.url(), "the link's own tab stays where it was")
            self.session_of("gated.test")
            self.assert_nothing_for(["sub.gated.test"], mark, "in a new window (a tab chromedriver does not list)")
            return
        handle = new.pop()
        gate_url = self.b.wait_for_gate(handle, state="counting")
        self.assertEqual(original_from_gate(gate_url), target)
        self.session_of("gated.test")
        self.assert_nothing_for(["sub.gated.test"], mark, "in a new window")

    def test_post_form_shows_gate_and_sends_nothing(self):
        target = self.s.url("post.test", "/page/submitted")
        self.b.driver.get(self.s.url("free.test", "/form?action=" + target))
        self.b.wait_for_page("free.test", "/form")
        mark = self.s.mark()
        self.b.click("#post-submit")
        gate_url = self.b.wait_for_gate(state="counting")
        self.assertIn("gate.html?post=1#", gate_url)
        self.assertEqual(original_from_gate(gate_url), target)
        self.assert_nothing_for(["post.test"], mark, "after a POST")

    def test_non_gated_site_untouched(self):
        frame = self.s.url("gated.test", "/page/in-a-frame")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("free.test", "/links?frame=" + frame))
        self.b.wait_for_page("free.test", "/links")
        self.assertTrue(self.b.url().startswith("http"), self.b.url())
        # A subframe of a gated site is not gated: it loads inside the free page.
        wait_for(lambda: self.s.hits("gated.test", "/page/in-a-frame", mark), 10, message="the subframe's request")
        # `*.wild.test` covers only subdomains.
        self.b.driver.get(self.s.url("wild.test", "/page/bare"))
        self.b.wait_for_page("wild.test", "/page/bare")
        self.assertEqual(self.new_events(types=["session_start"]), [])
        self.b.driver.get(self.s.url("sub.wild.test", "/page/sub"))
        self.b.wait_for_gate(state="counting")
        self.session_of("wild.test")

    def test_exit_closes_tab_and_records_exit(self):
        self.b.new_tab()  # the gate is not the window's last tab
        mark = self.s.mark()
        self.b.driver.get(self.s.url("exit.test", "/page/exit"))
        self.b.wait_for_gate(state="counting")
        gate_handle = self.b.driver.current_window_handle
        session = self.session_of("exit.test")
        self.b.press("e")
        wait_for(lambda: gate_handle not in self.b.handles(), 10, message="Exit to close the tab")
        self.assertEqual(by_session(self.new_events(), session)[-1], "exit_selected")
        exit_event = [e for e in self.new_events() if e["session"] == session and e["type"] == "exit_selected"][0]
        self.assertEqual(exit_event["app"], "exit.test")
        self.assert_nothing_for(["exit.test"], mark, "after Exit")

    def test_exit_in_last_tab_shows_calm_page(self):
        mark = self.s.mark()
        self.b.driver.get(self.s.url("exit.test", "/page/last-tab"))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("exit.test")
        self.b.click("#exit")
        wait_for(lambda: self.b.state() == "exited", 5, message="the exited state")
        self.b.wait_for_url(lambda u: u == self.b.extension_url("calm.html"), 10, message="the calm page")
        self.assertEqual(len(self.b.handles()), 1)
        self.assertIn("exit_selected", by_session(self.new_events(), session))
        self.assert_nothing_for(["exit.test"], mark, "after Exit")

    def test_closing_tab_mid_countdown_is_abandoned(self):
        self.b.new_tab()
        self.b.driver.get(self.s.url("abandon.test", "/page/x"))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("abandon.test")
        self.b.driver.close()
        self.b.switch(self.b.handles()[0])
        wait_for(lambda: "abandoned" in by_session(self.new_events(), session), 10, message="an abandoned event")

    def test_a_page_cannot_drive_the_gate(self):
        # A site frames miga's gate page: it does not run, nothing is recorded, nothing of the
        # gated site is fetched; and no file of miga's, the gate page included, can be fetched
        # from a web page by the extension's fixed address (no way to tell miga is installed).
        gate = self.b.extension_url("gate.html") + "#" + self.s.url("gated.test", "/page/framed")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("other.test", "/links?frame=" + urllib.parse.quote(gate, safe="")))
        self.b.wait_for_page("other.test", "/links")
        for name in ("gate.html", "gate.css", "gate.js", "calm.html"):
            fetched = self.b.driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "fetch(arguments[0]).then(r => done('fetched ' + r.status), e => done('refused'));",
                self.b.extension_url(name))
            self.assertEqual(fetched, "refused", f"a web page fetched miga's {name}")
        time.sleep(3)
        self.assertEqual(self.new_events(app="gated.test"), [], "a framed gate page recorded something")
        self.assert_nothing_for(["gated.test"], mark, "framed")

        # The site sends its own tab to the gate page: Chromium refuses it (the page is
        # reachable only by its per-session address, which only miga's rules use).
        direct = self.b.extension_url("gate.html") + "#" + self.s.url("gated.test", "/page/direct")
        self.b.driver.execute_script("location.href = arguments[0];", direct)
        self.b.wait_for_url(lambda u: u.startswith("chrome-extension://invalid") or u.startswith("chrome-error:"), 10,
                            message="the refused gate page")
        time.sleep(1)
        self.assertEqual(self.new_events(app="gated.test"), [], "a gate page the site opened recorded something")
        self.assert_nothing_for(["gated.test"], mark, "a gate page the site opened")

    def test_host_killed_mid_gate_goes_on_and_opens_after_the_countdown(self):
        # The native host dies while the gate page counts down: the gate goes on with a new
        # host (the same session, the time already waited kept), and Open opens the site.
        target = self.s.url("revive.test", "/page/revived")
        mark = self.s.mark()
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("revive.test")
        self.kill_native_hosts()
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.assert_nothing_for(["revive.test"], mark, "before Open")
        self.b.press("o")
        self.b.wait_for_page("revive.test", "/page/revived", timeout=10)
        types = by_session(self.new_events(), session)
        self.assertEqual(types, ["session_start", "gateway_completed", "open_selected"], types)
        self.assertEqual([e for e in self.new_events(app="revive.test") if e["type"] == "session_start"][0]["session"], session,
                         "one gate, not a second one after the restart")
        opened = [e for e in self.new_events() if e["session"] == session and e["type"] == "open_selected"][0]
        self.assertGreaterEqual(opened["wait_ms"], (TIMER - 1) * 1000, "the countdown was neither reset nor skipped")
        self.assertLess(opened["wait_ms"], 2 * TIMER * 1000, "nor started again")

    def test_worker_stopped_mid_gate_goes_on_and_opens_after_the_countdown(self):
        # The extension's service worker is stopped while the gate counts down (as Chromium
        # does to idle workers, or on an update): its native host sees the pipe close, and the
        # page, which this new worker never sent, goes on with the gate it names.
        target = self.s.url("restart.test", "/page/worker")
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("restart.test")
        hosts = self.h.native_hosts()
        self.assertTrue(hosts, "a native host is running")
        self.b.driver.execute_cdp_cmd("ServiceWorker.enable", {})
        self.b.driver.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})
        wait_for(lambda: not set(hosts) & set(self.h.native_hosts()), 10,
                 message="the host to end with the worker")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press("o")
        self.b.wait_for_page("restart.test", "/page/worker", timeout=10)
        types = by_session(self.new_events(), session)
        self.assertEqual(types, ["session_start", "gateway_completed", "open_selected"], types)
        self.assertEqual(len(self.new_events(app="restart.test", types=["session_start"])), 1, "one gate, not two")

    def test_a_link_inside_the_site_when_grace_has_ended_is_not_gated(self):
        # Grace ends while the person reads the site: their next click inside it goes on.
        started = datetime.datetime.now().astimezone() - datetime.timedelta(minutes=5) + datetime.timedelta(seconds=6)
        self.h.import_open("after.test", ts=started.isoformat(timespec="milliseconds"))
        inside = self.s.url("after.test", "/page/inside")
        self.b.driver.get(self.s.url("after.test", "/links?gated=" + urllib.parse.quote(inside, safe="")))
        self.b.wait_for_page("after.test", "/links")
        self.b.wait_for_rules("after.test", present=True, timeout=20)  # grace is over
        mark = self.s.mark()
        self.b.click("#to-gated")
        self.b.wait_for_page("after.test", "/page/inside", timeout=10)
        self.assertTrue(self.s.hits("after.test", "/page/inside", mark))
        self.assertEqual(self.new_events(app="after.test", types=["session_start"]), [], "a click inside the site is not an entry")

    def test_open_after_countdown_loads_site_then_grace_everywhere(self):
        target = self.s.url("open.test", "/page/opened?x=1")
        mark = self.s.mark()
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("open.test")
        content = self.b.gate_info()["content"]

        # Read Next while counting: another item, a content_read event.
        self.b.press("n")
        wait_for(lambda: "content_read" in by_session(self.new_events(), session), 10, message="content_read")
        wait_for(lambda: self.b.gate_info()["content"] != content, 5, message="the next item on the page")

        # Open early stays locked: the page says so, stays counting, nothing is fetched.
        self.b.press("o")
        self.b.click("#open")
        wait_for(lambda: "unlocks" in self.b.driver.execute_script(
            "return document.getElementById('notice').textContent"), 5, message="the 'Open unlocks in' notice")
        self.assertEqual(self.b.state(), "counting")
        self.assertEqual(self.b.gate_info()["openDisabled"], "true")
        self.assertTrue(self.b.is_gate(self.b.url()))
        self.assertNotIn("open_selected", by_session(self.new_events(), session))

        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.assertEqual(self.b.gate_info()["openDisabled"], "false")
        self.assert_nothing_for(["open.test"], mark, "before Open")
        opened_at = self.s.mark()
        self.b.press("o")
        self.b.wait_for_page("open.test", "/page/opened", timeout=10)
        self.assertEqual(self.b.url(), target)
        self.assertTrue(self.s.hits("open.test", "/page/opened", opened_at), "the site is fetched after Open")
        types = by_session(self.new_events(), session)
        self.assertEqual(types[0], "session_start")
        self.assertEqual(types[-1], "open_selected", types)
        self.assertIn("gateway_completed", types)
        opened = [e for e in self.new_events() if e["session"] == session and e["type"] == "open_selected"][0]
        self.assertEqual(opened["app"], "open.test")
        self.assertGreaterEqual(opened["wait_ms"], (TIMER - 1) * 1000)

        # Grace in another tab: the site loads directly, a grace_pass is recorded, no new gate.
        last = self.h.last_event_id()
        mark = self.s.mark()
        self.b.new_tab(self.s.url("www.open.test", "/page/second-tab"))
        self.b.wait_for_page("www.open.test", "/page/second-tab")
        wait_for(lambda: [e for e in self.h.events(since_id=last) if e["type"] == "grace_pass"
                          and e["app"] == "open.test"], 10, message="a grace_pass for open.test")
        self.assertEqual(self.h.events(since_id=last, types=["session_start"]), [])

        # Grace is shared with `miga open-url`: it passes the link on to the browser, no gate.
        last = self.h.last_event_id()
        link = "https://open.test/from-another-app"
        result = self.h.miga("open-url", link, timeout=30)
        wait_for(lambda: any(link in line for line in self.h.fake_browser_urls()), 10,
                 message=f"the default browser to receive {link} (stdout {result.stdout!r} stderr {result.stderr!r})")
        types = [e["type"] for e in self.h.events(since_id=last) if e["app"] == "open.test"]
        self.assertIn("grace_pass", types)
        self.assertNotIn("session_start", types)

    def test_grace_from_outside_lets_gate_page_pass(self):
        # An Open elsewhere (another browser, open-url): the extension has not heard of it, but
        # the gate page asks miga first and goes straight on.
        self.h.import_open("import.test")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("import.test", "/page/imported"))
        self.b.wait_for_page("import.test", "/page/imported", timeout=10)
        self.assertTrue(self.s.hits("import.test", "/page/imported", mark))
        self.wait_event("grace_pass", "import.test")
        self.assertEqual(self.new_events(app="import.test", types=["session_start"]), [])

    def test_redirect_chain_shows_one_gate(self):
        final = self.s.url("www.chain.test", "/page/final")
        first = self.s.url("chain.test", "/hop/2?to=" + final, scheme="http")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("free.test", "/redirect?to=" + first))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("chain.test")
        self.assert_nothing_for(["chain.test", "www.chain.test"], mark, "before Open")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press(Keys.ENTER)  # Enter is Open too
        self.b.wait_for_page("www.chain.test", "/page/final", timeout=15)
        self.assertTrue(self.s.hits("chain.test", "/hop/0", mark), "the chain ran after Open")
        self.assertEqual(len(self.new_events(app="chain.test", types=["session_start"])), 1,
                         "one gate for the whole chain")
        self.assertEqual(by_session(self.new_events(), session)[-1], "open_selected")
        self.assertEqual(len(self.b.handles()), 1)

    def test_popup_shows_today(self):
        self.b.driver.get(self.b.extension_url("popup.html"))
        exits = wait_for(lambda: (lambda t: t if t and t[0].isdigit() else None)(
            self.b.driver.execute_script("return document.getElementById('exits').textContent")), 10,
            message="the popup's exits")
        stats = json.loads(self.h.miga("stats", "--json").stdout)
        today = stats["days"][-1]
        self.assertEqual(int(exits), today["exits"])
        opens = self.b.driver.execute_script("return document.getElementById('opens').textContent")
        self.assertEqual(int(opens), today["opens"])
        self.assertRegex(self.b.driver.execute_script("return document.getElementById('streak').textContent"), r"\d")
        status = self.b.driver.execute_script("return document.getElementById('status').textContent")
        self.assertNotIn("miga install", status)

    def test_config_change_picked_up(self):
        # Adding a site gates it without a restart; removing it ungates it. Nothing else talks
        # to miga meanwhile: the host notices the file change by itself.
        self.h.write_config(sites=self.sites + ["later.test"])
        try:
            self.b.wait_for_rules("later.test", timeout=15)
            mark = self.s.mark()
            self.b.driver.get(self.s.url("later.test", "/page/now-gated"))
            self.b.wait_for_gate(state="counting")
            self.session_of("later.test")
            self.assert_nothing_for(["later.test"], mark, "after the site was added")
        finally:
            self.h.write_config(sites=self.sites)
        self.b.wait_for_rules("later.test", present=False, timeout=15)
        self.b.fresh_tab()
        self.b.driver.get(self.s.url("later.test", "/page/free-again"))
        self.b.wait_for_page("later.test", "/page/free-again")

    def test_config_change_picked_up_while_a_gate_talks(self):
        # The edit lands while a gate page is talking to miga (Read Next, closing a gate tab):
        # it must still reach the extension within seconds, not at the next minute's refresh.
        self.b.driver.get(self.s.url("gated.test", "/page/talking"))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("gated.test")
        self.h.write_config(sites=self.sites + ["other.test"])
        try:
            self.b.press("n")
            wait_for(lambda: "content_read" in by_session(self.new_events(), session), 10, message="content_read")
            self.b.wait_for_rules("other.test", timeout=15)
        finally:
            self.h.write_config(sites=self.sites)


class PausePage:
    """Reading the gate page's notes and its "What are you here to do?" question."""

    def notes(self):
        """The lines under the site's name, or None while they are hidden."""
        return self.b.script("""
            const n = document.getElementById('notes');
            return n.hidden ? null : [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data);""")

    def question(self):
        return self.b.script("""
            const q = document.getElementById('intention'), f = document.getElementById('intention-text');
            const shown = id => getComputedStyle(document.getElementById(id)).display !== 'none';
            return {shown: !q.hidden, text: q.textContent.replace(/\\s+/g, ' ').trim(), value: f.value,
                    maxLength: f.maxLength, focused: document.activeElement ? document.activeElement.id : null,
                    buttons: ['exit', 'next', 'open'].filter(shown), state: document.documentElement.dataset.state};""")

    def wait_question(self, shown=True):
        return wait_for(lambda: (lambda q: q if q["shown"] == shown else None)(self.question()), 5,
                        message=f"the question {'shown' if shown else 'hidden'}")


class TestHabits(ChromiumCase, PausePage):
    """`intention = true`: Open asks "What are you here to do?" and the answer is kept with the
    Open; the lines under the site's name say how often today and what was said last time."""
    sites = ["open.test", "gated.test", "exit.test"]

    @classmethod
    def prepare_home(cls):
        cls.home.extra_config = "intention = true\n"
        cls.home.write_config(grace_minutes=0)  # the next gate of a site comes at once

    def test_intention_typed_then_enter_opens(self):
        target = self.s.url("open.test", "/page/intent?x=1")
        mark = self.s.mark()
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("open.test")
        self.assertIsNone(self.notes(), "the first gate today has no notes")
        self.assertFalse(self.question()["shown"])
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)

        self.b.press("o")  # Open asks first, and opens nothing
        q = self.wait_question()
        self.assertEqual(q["text"], "What are you here to do? Enter opens · Esc goes back")
        self.assertEqual((q["focused"], q["value"], q["maxLength"]), ("intention-text", "", 120))
        self.assertEqual(q["buttons"], ["exit"], "Exit stays; Read Next and Open wait behind the question")
        # The page's keys are typed into the field, not acted on.
        self.b.press("qen " + Keys.BACKSPACE * 4 + "reply to Sam")
        wait_for(lambda: self.question()["value"] == "reply to Sam", 5, message="the typed intention")
        q = self.question()
        self.assertEqual((q["shown"], q["state"]), (True, "ready"))
        self.assertTrue(self.b.is_gate(self.b.url()))
        self.assertEqual([t for t in by_session(self.new_events(), session)
                          if t in ("exit_selected", "content_read", "open_selected", "abandoned")], [])
        self.assert_nothing_for(["open.test"], mark, "while the question is asked")

        opened_at = self.s.mark()
        self.b.press(Keys.ENTER)
        self.b.wait_for_page("open.test", "/page/intent", timeout=10)
        self.assertEqual(self.b.url(), target)
        self.assertTrue(self.s.hits("open.test", "/page/intent", opened_at), "the site is fetched after Enter")
        opened = self.wait_event("open_selected", "open.test")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"intention": "reply to Sam"})

        # The next gate of the site says how often, and what was meant last time.
        self.b.fresh_tab(self.s.url("open.test", "/page/again"))
        self.b.wait_for_gate(state="counting")
        self.assertEqual(self.notes(), ["2nd time today", "Last time: reply to Sam"])

    def test_intention_escape_goes_back_then_empty_answer_opens(self):
        target = self.s.url("gated.test", "/page/no-intention")
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("gated.test")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)

        self.b.click("#open")
        self.assertEqual(self.wait_question()["focused"], "intention-text")
        self.b.press(Keys.ESCAPE)  # back to the three choices, not Exit
        q = self.wait_question(shown=False)
        self.assertEqual((q["state"], q["buttons"]), ("ready", ["exit", "next", "open"]))
        self.assertTrue(self.b.is_gate(self.b.url()))
        self.assertNotIn("exit_selected", by_session(self.new_events(), session))
        self.b.press("n")  # the page's keys act again
        wait_for(lambda: "content_read" in by_session(self.new_events(), session), 10, message="content_read")

        self.b.press(Keys.ENTER)  # Open: the question again
        q = self.wait_question()
        self.assertEqual((q["focused"], q["value"]), ("intention-text", ""))
        self.b.press(Keys.ENTER)  # an empty answer opens too, and stores nothing
        self.b.wait_for_page("gated.test", "/page/no-intention", timeout=10)
        opened = self.wait_event("open_selected", "gated.test")
        self.assertEqual(opened["session"], session)
        self.assertIsNone(opened["detail"])

    def test_notes_say_how_often_today(self):
        for visit, expected in ((1, None), (2, ["2nd time today"]), (3, ["3rd time today"])):
            self.b.fresh_tab(self.s.url("exit.test", f"/page/visit-{visit}"))
            self.b.wait_for_gate(state="counting")
            wait_for(lambda: len(self.new_events(app="exit.test", types=["session_start"])) == visit, 10,
                     message=f"session_start {visit}")
            self.assertEqual(self.notes(), expected, f"visit {visit}")
            if visit < 3:
                self.b.press("e")
                wait_for(lambda: len(self.new_events(app="exit.test", types=["exit_selected"])) == visit, 10,
                         message=f"exit_selected {visit}")


class TestAllowance(Allowance, ChromiumCase):
    """`opens_per_day` and `miga snooze` in Chromium (cases.Allowance)."""


class TestHowLong(HowLong, ChromiumCase):
    """"For how long?" and the soft end in Chromium (cases.HowLong); and a worker that stops."""

    def stop_the_worker(self):
        hosts = self.h.native_hosts()
        self.b.driver.execute_cdp_cmd("ServiceWorker.enable", {})
        self.b.driver.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})
        wait_for(lambda: not set(hosts) & set(self.h.native_hosts()), 10, message="the host to end with the worker")

    def test_a_worker_that_stops_loses_no_soft_end(self):
        # Chromium stops the extension's worker (idle, an update) while a timebox runs: its
        # alarm brings it back for the end; stopped again under the overlay, the worker that
        # the choice wakes knows the tab it put the overlay in, and records the choice.
        self.h.import_open("restart.test", ts=now_iso(5 * 60 - 15), detail={"minutes": 5})
        self.h.write_config(sites=self.sites + ["restart.test"])
        self.b.wait_for_rules("restart.test", present=False, timeout=10)
        self.b.go(self.s.url("restart.test", "/page/reading"))
        self.b.wait_for_page("restart.test", "/page/reading")
        self.stop_the_worker()
        self.assertEqual(self.wait_soft_end(30)["title"], "Your 5 minutes on restart.test are up")
        self.stop_the_worker()
        self.soft_end_button("keep").click()
        self.assertEqual(self.wait_ending("restart.test", "keep")["minutes"], 5)
        wait_for(lambda: self.soft_end() is None, 5, message="the overlay to go")


class TestDoThisInstead(DoThisInstead, ChromiumCase):
    """"Do this instead", the typed challenge and a person's own picture in Chromium (cases.DoThisInstead)."""


class TestScheduleWithoutGate(ScheduleWithoutGate, ChromiumCase):
    """A `[[schedule]]` with `gate = false` in force: the site loads with no pause, and the
    pass is recorded as `gateway_skipped` (reason `schedule`)."""

    def test_schedule_without_gate_goes_straight_on(self):
        target = self.s.url("gated.test", "/page/scheduled")
        # These hours allow the site above its redirect: no redirect, no round trip to miga.
        self.b.wait_for_rules("gated.test", present=False)
        self.assertIn("gated.test", {d for r in self.b.dynamic_rules() for d in r["condition"]["requestDomains"]},
                      "the redirect rules stay put")
        mark = self.s.mark()
        self.b.driver.get(target)
        self.b.wait_for_page("gated.test", "/page/scheduled", timeout=10)
        self.assertEqual(self.b.url(), target)
        self.assertTrue(self.s.hits("gated.test", "/page/scheduled", mark))
        skipped = self.wait_event("gateway_skipped", "gated.test")
        self.assertEqual(json.loads(skipped["detail"]), {"reason": "schedule"})
        self.assertEqual(self.new_events(types=["session_start"]), [])


class TestEntriesNotClicks(Entries, ChromiumCase):
    """A gate guards the entry into a site, not each page: with no grace at all, a link inside
    the site goes straight on after Open, and a link into it from another site is gated."""

    def test_a_link_inside_the_site_is_not_an_entry(self):
        inside = self.s.url("gated.test", "/page/inside")
        self.b.driver.get(self.s.url("gated.test", "/links?gated=" + urllib.parse.quote(inside, safe="")))
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press("o")
        self.b.wait_for_page("gated.test", "/links", timeout=10)
        self.assertEqual(len(self.new_events(types=["session_start"])), 1)
        mark = self.s.mark()
        self.b.click("#to-gated")
        self.b.wait_for_page("gated.test", "/page/inside", timeout=10)
        self.assertTrue(self.s.hits("gated.test", "/page/inside", mark))
        self.assertEqual(len(self.new_events(types=["session_start"])), 1, "no second gate inside the site")

        entry = self.s.url("gated.test", "/page/entry")
        self.b.driver.get(self.s.url("other.test", "/links?gated=" + urllib.parse.quote(entry, safe="")))
        self.b.wait_for_page("other.test", "/links")
        mark = self.s.mark()
        self.b.click("#to-gated")
        self.b.wait_for_gate(state="counting")
        self.assertEqual(len(self.new_events(types=["session_start"])), 2, "a link from another site is an entry")
        self.assert_nothing_for(["gated.test"], mark, "an entry before Open")


class TestWhatTheRulesCannotSee(Entries, ChromiumCase):
    """Entries the redirect rules never see — a site's service worker answering the navigation,
    a back/forward-cache restore — are still gated (the webNavigation backstop), and nothing
    of the site is shown first."""

    def test_a_worker_fetching_the_entry_itself_reaches_nothing_before_open(self):
        self.check_a_network_first_worker_reaches_nothing_before_open(TIMER)

    def test_a_service_worker_answering_the_entry_is_gated(self):
        self.install_service_worker()
        self.gate_also("sw.test")
        mark = self.s.mark()
        self.b.driver.get(self.s.url("sw.test", "/page/typed"))
        url = self.b.wait_for_gate(state="counting")
        self.assertEqual(original_from_gate(url), self.s.url("sw.test", "/page/typed"))
        session = self.session_of("sw.test")
        self.assertEqual(len(self.new_events(types=["session_start"])), 1, "one gate for one entry")
        self.assert_nothing_for(["sw.test"], mark, "a worker-answered entry before Open")

        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press("o")
        self.b.wait_for_page("sw.test", "/page/typed")
        self.assertIn("open_selected", by_session(self.new_events(app="sw.test"), session))
        self.assertEqual(len(self.new_events(types=["session_start"])), 1, "no second gate after Open")

        # A link from another site, answered by the worker too, is an entry as well.
        entry = self.s.url("sw.test", "/page/linked")
        self.b.driver.get(self.s.url("other.test", "/links?gated=" + urllib.parse.quote(entry, safe="")))
        self.b.wait_for_page("other.test", "/links")
        self.b.click("#to-gated")
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), entry)
        self.assertEqual(len(self.new_events(types=["session_start"])), 2)

    def test_back_into_a_gated_site_is_gated(self):
        # The page is left by a navigation it starts itself, so Chromium keeps it in its
        # back/forward cache: going back restores it with no request the rules could see.
        self.b.driver.get(self.s.url("back.test", "/cached/first"))
        self.b.wait_for_page("back.test", "/cached/first")
        self.b.script("window.addEventListener('pageshow', e => { if (e.persisted) document.title = 'RESTORED'; });")
        self.b.script(f"location.href = {json.dumps(self.s.url('other.test', '/cached/second'))};")
        self.b.wait_for_page("other.test", "/cached/second")
        self.gate_also("back.test")
        mark = self.s.mark()
        self.b.driver.back()
        url = self.b.wait_for_gate(state="counting")
        self.assertEqual(original_from_gate(url), self.s.url("back.test", "/cached/first"))
        self.assertEqual(len(self.new_events(app="back.test", types=["session_start"])), 1)
        self.assert_nothing_for(["back.test"], mark, "going back into a gated site before Open")

    def test_back_into_a_gated_site_from_the_back_forward_cache_is_gated(self):
        # Opened through its gate, left by a navigation the page starts, then gone back to:
        # Chromium restores the page from its back/forward cache (no request at all), and the
        # backstop sends the tab to the gate as the restore commits.
        self.gate_also("back.test")
        target = self.s.url("back.test", "/cached/opened")
        self.b.driver.get(target)
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press("o")
        self.b.wait_for_page("back.test", "/cached/opened")
        self.b.script("window.addEventListener('pageshow', e => { if (e.persisted) document.title = 'RESTORED'; });")
        self.b.script(f"location.href = {json.dumps(self.s.url('other.test', '/cached/away'))};")
        self.b.wait_for_page("other.test", "/cached/away")
        mark = self.s.mark()
        self.b.driver.back()
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), target)
        self.assertEqual(len(self.new_events(app="back.test", types=["session_start"])), 2, "the way back is an entry")
        self.assert_nothing_for(["back.test"], mark, "going back into a gated site before Open")


class TestIncognito(ChromiumCase):
    """Incognito windows: until miga is allowed there its popup says how; once allowed, a gated
    site opened in an incognito window shows the gate there (the manifest's "split" mode lets an
    incognito tab load the extension's page), and Open opens it."""
    sites = ["gated.test", "private.test"]

    def popup_hint(self):
        self.b.driver.get(self.b.extension_url("popup.html"))
        return wait_for(lambda: self.b.script(
            "const p = document.getElementById('incognito'); return p && !p.hidden ? p.textContent : ''") or None
            if self.b.script("return document.readyState") == "complete" else None, 10, message="the popup's incognito line")

    def test_allowed_in_incognito_the_gate_shows_there(self):
        self.assertIn("Allow in Incognito", self.popup_hint())
        self.b.driver.get("chrome://extensions/?id=" + CHROMIUM_ID)
        wait_for(lambda: self.b.script("return document.readyState") == "complete", 10, message="chrome://extensions")
        self.b.driver.set_script_timeout(20)
        error = self.b.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            # An unpacked extension is reloaded when allowed in incognito, and kept on only in
            # developer mode, which a person loading it unpacked has on.
            "chrome.developerPrivate.updateProfileConfiguration({inDeveloperMode: true})"
            ".then(() => chrome.developerPrivate.updateExtensionConfiguration({extensionId: arguments[0], incognitoAccess: true}))"
            ".then(() => done(null), e => done(String(e)));", CHROMIUM_ID)
        self.assertIsNone(error)
        self.b.fresh_tab()
        self.b.wait_for_rules("private.test", timeout=20)  # the extension reloads when allowed

        before = set(self.b.handles())
        target = self.s.url("private.test", "/page/incognito")
        mark = self.s.mark()
        # Answered before the window opens: chromedriver waits on a new window's first load.
        self.b.extension_eval("const done = arguments[arguments.length - 1];"
                              f"chrome.windows.create({{incognito: true, url: {json.dumps(target)}}}).catch(e => console.error(e)); done(null);")
        handle = wait_for(lambda: (set(self.b.handles()) - before) and list(set(self.b.handles()) - before)[0], 10,
                          message="the incognito window")
        self.b.switch(handle)
        self.b.wait_for_gate(state="counting", timeout=15)
        self.assertTrue(self.b.script("return chrome.extension.inIncognitoContext"), "the gate is in the incognito window")
        self.assertEqual(len(self.new_events(app="private.test", types=["session_start"])), 1)
        self.assert_nothing_for(["private.test"], mark, "an incognito entry before Open")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.press("o")
        self.b.wait_for_page("private.test", "/page/incognito")
        self.assertEqual(len(self.new_events(app="private.test", types=["open_selected"])), 1)
        self.b.driver.close()
        self.b.switch(self.b.handles()[0])


class TestHandedOver(ChromiumCase):
    """A link opened from another app through `miga open-url`, gated in the terminal and opened
    there, reaches the browser with a one-time pass: no second gate, nothing more recorded,
    even with no grace at all; the next entry is gated again."""
    sites = ["gated.test", "handed.test"]

    @classmethod
    def prepare_home(cls):
        cls.home.write_config(grace_minutes=0)

    def test_an_open_in_the_terminal_is_not_gated_again_by_the_browser(self):
        if not shutil.which("tmux"):
            skip_or_fail(type(self).__name__, "tmux is not installed")
        target = self.s.url("handed.test", "/page/handed")
        socket_path = os.path.join(self.h.root, "tmux.sock")
        env = dict(self.h.env, TERM="xterm-256color")
        command = " ".join(["env", "-i", *(shlex.quote(f"{k}={v}") for k, v in env.items()),
                            shlex.quote(MIGA_BIN), "open-url", shlex.quote(target), "; sleep 60"])
        subprocess.run(["tmux", "-S", socket_path, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", command],
                       check=True, env=env)
        try:
            session = self.wait_event("session_start", "handed.test", timeout=15)["session"]
            self.wait_event("gateway_completed", "handed.test", timeout=TIMER + 15)
            subprocess.run(["tmux", "-S", socket_path, "send-keys", "o"], check=True)
            wait_for(lambda: target in self.h.fake_browser_urls(), 15, message="the link handed to the browser")
        finally:
            subprocess.run(["tmux", "-S", socket_path, "kill-server"], capture_output=True)
        self.assertEqual(by_session(self.new_events(), session), ["session_start", "gateway_completed", "open_selected"])

        # The browser now opens what it was handed, as it would.
        after = self.h.last_event_id()
        self.b.driver.get(target)
        self.b.wait_for_page("handed.test", "/page/handed", timeout=10)
        time.sleep(0.5)  # a late grace_pass or second session_start would be written by now
        self.assertEqual(self.h.events(since_id=after), [], "the browser gated or recorded the same attempt again")

        # Once: the next entry is gated.
        self.b.driver.get(self.s.url("other.test", "/page/between"))
        self.b.wait_for_page("other.test", "/page/between")
        self.b.driver.get(target)
        self.b.wait_for_gate(state="counting")


class TestNoHost(ChromiumCase):
    """miga's host manifest removed: the extension fails open and its popup says how to install."""
    sites = ["gated.test"]

    @classmethod
    def prepare_home(cls):
        os.remove(cls.home.chromium_manifest())

    @classmethod
    def wait_until_ready(cls):
        pass

    def test_fails_open_and_popup_says_install(self):
        self.b.driver.get(self.b.extension_url("popup.html"))
        status = wait_for(lambda: self.b.driver.execute_script(
            "return document.getElementById('status').textContent"), 10, message="the popup's status")
        self.assertIn("miga install", status)
        self.b.fresh_tab()
        mark = self.s.mark()
        self.b.driver.get(self.s.url("gated.test", "/page/no-host"))
        self.b.wait_for_page("gated.test", "/page/no-host")
        self.assertTrue(self.s.hits("gated.test", "/page/no-host", mark))
        self.assertEqual(self.b.dynamic_rules(), [])
        self.assertEqual(self.h.events(types=["session_start"]), [])


class TestHostBinaryGone(ChromiumCase):
    """The manifest is there but the program it names is gone: fail open too."""
    sites = ["gated.test"]

    @classmethod
    def prepare_home(cls):
        with open(cls.home.chromium_manifest()) as f:
            path = json.load(f)["path"]
        os.remove(path)

    @classmethod
    def wait_until_ready(cls):
        pass

    def test_fails_open(self):
        self.b.driver.get(self.b.extension_url("popup.html"))
        wait_for(lambda: "miga install" in self.b.driver.execute_script(
            "return document.getElementById('status').textContent"), 10, message="the popup's install hint")
        self.b.fresh_tab()
        mark = self.s.mark()
        self.b.driver.get(self.s.url("gated.test", "/page/no-binary"))
        self.b.wait_for_page("gated.test", "/page/no-binary")
        self.assertTrue(self.s.hits("gated.test", "/page/no-binary", mark))


class TestChromiumPaths(Paths, ChromiumCase):
    """Path sites (cases_paths.py): `tube.test/shorts` gated, the rest of tube.test not."""


class TestGateOverPage(GateOverPage, ChromiumCase):
    """The gate over a page (cases_overlay.py): a single-page route into a path site."""


class TestComingBack(ComingBack, ChromiumCase):
    """A return to a gated tab, before and after `reentry_minutes` and under a grace (cases_room)."""


class TestFocusTime(FocusTime, ChromiumCase):
    """Focused time on a gated site, with its window focused and not (cases_room)."""


class TestBudget(Budget, ChromiumCase):
    """The daily budget's soft end (cases_room)."""


class TestIdle(Idle, ChromiumCase):
    """Idle stops the count (cases_room): Chromium with a window on a private Xvfb display."""
    launch = staticmethod(lambda home, server: Chromium(home, server, headless=False))


if __name__ == "__main__":
    unittest.main(verbosity=2)

