"""miga's extension in a real Firefox ESR (headless, Marionette, the extension as a temporary
add-on), against the local web server. See harness.py for the set-up.

Run: python3 -m unittest -v Tests/Browser/test_firefox.py   (or scripts/browser-tests.sh)
"""
import json, os, sys, time, unittest, urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import Allowance, DoThisInstead, Entries, HowLong, ScheduleWithoutGate  # noqa: E402
from cases_paths import Paths  # noqa: E402
from cases_overlay import GateOverPage  # noqa: E402
from cases_room import Budget, ComingBack, FocusTime  # noqa: E402
from harness import (failed, BrowserCase, Firefox, TempHome, TestServer, firefox_missing, original_from_gate, skip_or_fail,  # noqa: E402
                     wait_for, what_is_missing)

TIMER = 15
SITES = ["reddit.com", "gated.test", "open.test", "exit.test", "chain.test", "post.test", "revive.test"]


def by_session(events, session):
    return [e["type"] for e in events if e["session"] == session]


class FirefoxCase(BrowserCase):
    browser_name = "Firefox"
    launch = Firefox
    missing = staticmethod(firefox_missing)
    sites = SITES
    timer_seconds = TIMER

    def setUp(self):
        self.b, self.s, self.h = self.browser, self.server, self.home
        self.b.fresh_tab()
        self.first_event = self.h.last_event_id()

    def tearDown(self):
        if failed(self) or os.environ.get("MIGA_BROWSER_VERBOSE") == "1":
            sys.stderr.write(f"\n--- {self.id()}: firefox output (tail) ---\n{self.b.stderr_log(60)}\n")
            sys.stderr.write(f"--- events ---\n{json.dumps(self.h.events(since_id=self.first_event))}\n")


class TestFirefoxGate(FirefoxCase):

    def test_typed_address_shows_gate_and_sends_nothing(self):
        mark = self.s.mark()
        self.b.navigate(self.s.url("reddit.com", "/", scheme="http"))
        gate_url = self.b.wait_for_gate(state="counting")
        self.assertTrue(gate_url.startswith(f"moz-extension://{self.b.uuid}/gate.html"), gate_url)
        self.assertIn("://reddit.com", original_from_gate(gate_url))
        info = self.b.gate_info()
        self.assertTrue(info["content"].strip())
        self.assertEqual(info["openDisabled"], "true")
        self.session_of("reddit.com")
        self.assert_nothing_for(["reddit.com", "www.reddit.com"], mark, "while the gate counts down")

    def test_link_click_shows_gate(self):
        target = self.s.url("gated.test", "/page/from-link")
        self.b.navigate(self.s.url("free.test", "/links?gated=" + target))
        self.b.wait_for_page("free.test", "/links")
        mark = self.s.mark()
        self.b.click("#to-gated")
        gate_url = self.b.wait_for_gate(state="counting")
        self.assertEqual(original_from_gate(gate_url), target)
        self.assert_nothing_for(["gated.test"], mark, "after a link click")

    def test_popup_says_private_windows_are_not_paused_until_allowed(self):
        self.assertIn("Run in Private Windows", popup_private_hint(self.b) or "")

    def test_non_gated_site_untouched(self):
        mark = self.s.mark()
        self.b.navigate(self.s.url("free.test", "/page/free"))
        self.b.wait_for_page("free.test", "/page/free")
        self.assertTrue(self.s.hits("free.test", "/page/free", mark))
        self.assertEqual(self.new_events(types=["session_start"]), [])

    def test_exit_closes_tab_and_records_exit(self):
        self.b.new_tab()  # not the last tab
        mark = self.s.mark()
        self.b.navigate(self.s.url("exit.test", "/page/exit"))
        self.b.wait_for_gate(state="counting")
        gate_handle = self.b.client.current_window_handle
        session = self.session_of("exit.test")
        from marionette_driver.keys import Keys
        self.b.press(Keys.ESCAPE)  # Escape is Exit too
        wait_for(lambda: gate_handle not in self.b.handles(), 10, message="Exit to close the tab")
        self.b.switch(self.b.handles()[0])
        exits = [e for e in self.new_events() if e["session"] == session and e["type"] == "exit_selected"]
        self.assertEqual(len(exits), 1)
        self.assertEqual(exits[0]["app"], "exit.test")
        self.assert_nothing_for(["exit.test"], mark, "after Exit")

    def test_exit_in_last_tab_shows_calm_page(self):
        mark = self.s.mark()
        self.b.navigate(self.s.url("exit.test", "/page/last-tab"))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("exit.test")
        self.b.click("#exit")
        wait_for(lambda: self.b.url() == self.b.extension_url("calm.html"), 10, message="the calm page")
        self.assertEqual(len(self.b.handles()), 1)
        self.assertIn("exit_selected", by_session(self.new_events(), session))
        self.assert_nothing_for(["exit.test"], mark, "after Exit")

    def test_open_after_countdown_loads_site(self):
        target = self.s.url("open.test", "/page/opened?y=2")
        mark = self.s.mark()
        self.b.navigate(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("open.test")
        self.b.click("#open")  # early: stays locked
        wait_for(lambda: "unlocks" in self.b.client.execute_script(
            "return document.getElementById('notice').textContent"), 5, message="the 'Open unlocks' notice")
        self.assertEqual(self.b.state(), "counting")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.assert_nothing_for(["open.test"], mark, "before Open")
        opened_at = self.s.mark()
        self.b.click("#open")
        self.b.wait_for_page("open.test", "/page/opened", timeout=10)
        self.assertEqual(self.b.url(), target)
        self.assertTrue(self.s.hits("open.test", "/page/opened", opened_at))
        types = by_session(self.new_events(), session)
        self.assertEqual(types[0], "session_start")
        self.assertEqual(types[-1], "open_selected", types)
        self.assertIn("gateway_completed", types)

        # Grace in another tab.
        last = self.h.last_event_id()
        self.b.new_tab(self.s.url("www.open.test", "/page/second"))
        self.b.wait_for_page("www.open.test", "/page/second")
        wait_for(lambda: [e for e in self.h.events(since_id=last) if e["type"] == "grace_pass"
                          and e["app"] == "open.test"], 10, message="a grace_pass for open.test")


    def test_redirect_chain_shows_one_gate(self):
        final = self.s.url("www.chain.test", "/page/final")
        first = self.s.url("chain.test", "/hop/2?to=" + final, scheme="http")
        mark = self.s.mark()
        self.b.navigate(self.s.url("free.test", "/redirect?to=" + urllib.parse.quote(first, safe=":/")))
        self.b.wait_for_gate(state="counting")
        session = self.session_of("chain.test")
        self.assert_nothing_for(["chain.test", "www.chain.test"], mark, "before Open")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.click("#open")
        self.b.wait_for_page("www.chain.test", "/page/final", timeout=15)
        self.assertTrue(self.s.hits("chain.test", "/hop/0", mark), "the chain ran after Open")
        self.assertEqual(len(self.new_events(app="chain.test", types=["session_start"])), 1, "one gate for the whole chain")
        self.assertEqual(by_session(self.new_events(), session)[-1], "open_selected")

    def test_post_form_shows_gate_and_sends_nothing(self):
        target = self.s.url("post.test", "/page/submitted")
        self.b.navigate(self.s.url("free.test", "/form?action=" + target))
        self.b.wait_for_page("free.test", "/form")
        mark = self.s.mark()
        self.b.click("#post-submit")
        gate_url = self.b.wait_for_gate(state="counting")
        # Firefox ESR (153 here) redirects the POST by the plain rule, not by the higher-priority rule
        # that matches the POST method, so its gate does not say that the form is not sent
        # again; nothing leaves the browser either way.
        self.assertEqual(original_from_gate(gate_url), target)
        self.assert_nothing_for(["post.test"], mark, "after a POST")

    def test_host_killed_mid_gate_goes_on_and_opens_after_the_countdown(self):
        target = self.s.url("revive.test", "/page/revived")
        self.b.navigate(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("revive.test")
        self.kill_native_hosts()
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.click("#open")
        self.b.wait_for_page("revive.test", "/page/revived", timeout=10)
        self.assertEqual(by_session(self.new_events(), session), ["session_start", "gateway_completed", "open_selected"])


class TestFirefoxEntries(Entries, FirefoxCase):
    """With no grace: a link inside the site is not an entry; a site's service worker answering
    an entry, and going back into the site, are gated all the same."""

    def test_a_link_inside_the_site_is_not_an_entry(self):
        inside = self.s.url("gated.test", "/page/inside")
        self.b.navigate(self.s.url("gated.test", "/links?gated=" + urllib.parse.quote(inside, safe="")))
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.click("#open")
        self.b.wait_for_page("gated.test", "/links", timeout=10)
        mark = self.s.mark()
        self.b.click("#to-gated")
        self.b.wait_for_page("gated.test", "/page/inside", timeout=10)
        self.assertTrue(self.s.hits("gated.test", "/page/inside", mark))
        self.assertEqual(len(self.new_events(types=["session_start"])), 1, "no second gate inside the site")

    def test_a_worker_fetching_the_entry_itself_reaches_nothing_before_open(self):
        self.check_a_network_first_worker_reaches_nothing_before_open(TIMER)

    def test_a_service_worker_answering_the_entry_is_gated(self):
        self.install_service_worker()
        self.gate_also("sw.test")
        self.b.navigate(self.s.url("sw.test", "/page/typed"))
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), self.s.url("sw.test", "/page/typed"))
        self.assertEqual(len(self.new_events(app="sw.test", types=["session_start"])), 1, "one gate for one entry")

    def test_back_into_a_gated_site_is_gated(self):
        self.b.navigate(self.s.url("back.test", "/cached/first"))
        self.b.wait_for_page("back.test", "/cached/first")
        self.b.navigate(self.s.url("other.test", "/cached/second"))
        self.b.wait_for_page("other.test", "/cached/second")
        self.gate_also("back.test")
        mark = self.s.mark()
        self.b.client.go_back()
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), self.s.url("back.test", "/cached/first"))
        self.assertEqual(len(self.new_events(app="back.test", types=["session_start"])), 1)
        self.assert_nothing_for(["back.test"], mark, "going back into a gated site before Open")


class TestFirefoxScheduleWithoutGate(ScheduleWithoutGate, FirefoxCase):
    """Hours with `gate = false`: the site loads with no pause, recorded as `gateway_skipped`."""

    def test_schedule_without_gate_goes_straight_on(self):
        self.b.wait_for_rules("gated.test", present=False)  # allowed above its redirect
        mark = self.s.mark()
        self.b.navigate(self.s.url("gated.test", "/page/scheduled"))
        self.b.wait_for_page("gated.test", "/page/scheduled")
        self.assertTrue(self.s.hits("gated.test", "/page/scheduled", mark))
        skipped = self.wait_event("gateway_skipped", "gated.test")
        self.assertEqual(json.loads(skipped["detail"]), {"reason": "schedule"})
        self.assertEqual(self.new_events(types=["session_start"]), [])


def popup_private_hint(browser):
    """The popup's line about private windows, or None when it shows none."""
    browser.navigate(browser.extension_url("popup.html"))
    wait_for(lambda: browser.client.execute_script("return document.readyState") == "complete"
             and browser.client.execute_script("return document.getElementById('status').textContent"), 10,
             message="the popup")
    time.sleep(0.3)  # the private-window line is filled in after the status
    return browser.client.execute_script(
        "const p = document.getElementById('incognito'); return p.hidden ? null : p.textContent")


class TestFirefoxAllowance(Allowance, FirefoxCase):
    """`opens_per_day` and `miga snooze` in Firefox (cases.Allowance)."""


class TestFirefoxHowLong(HowLong, FirefoxCase):
    """"For how long?" and the soft end in Firefox (cases.HowLong)."""


class TestFirefoxDoThisInstead(DoThisInstead, FirefoxCase):
    """"Do this instead", the typed challenge and a person's own picture in Firefox (cases.DoThisInstead)."""


class TestFirefoxPrivateWindows(FirefoxCase):
    """Private windows: the popup says how to allow miga there while it is not; once allowed (as
    "Run in Private Windows → Allow" does), a gated site in a private window shows the gate."""
    sites = ["gated.test", "private.test"]
    launch = staticmethod(lambda home, server: Firefox(home, server, private=True, log_name="firefox-private"))

    def test_allowed_in_private_windows_the_gate_shows_there(self):
        self.assertIsNone(popup_private_hint(self.b), "allowed in private windows: no hint")
        handle = self.b.client.open(type="window", private=True, focus=True)["handle"]
        self.b.switch(handle)
        target = self.s.url("private.test", "/page/private")
        mark = self.s.mark()
        self.b.navigate(target)
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting", timeout=15)), target)
        self.assertTrue(self.b.client.execute_script("return browser.extension.inIncognitoContext", sandbox=None))
        self.assertEqual(len(self.new_events(app="private.test", types=["session_start"])), 1)
        self.assert_nothing_for(["private.test"], mark, "a private window's entry before Open")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.click("#open")
        self.b.wait_for_page("private.test", "/page/private")
        self.b.client.close()
        self.b.switch(self.b.handles()[0])


class TestFirefoxIntention(FirefoxCase):
    """`intention = true`: Open asks "What are you here to do?"; Esc goes back, Enter opens
    and the answer is kept with the Open."""
    sites = ["open.test", "gated.test"]  # the harness is ready once gated.test has a rule

    @classmethod
    def prepare_home(cls):
        cls.home.extra_config = "intention = true\n"
        cls.home.write_config()

    def question(self):
        return self.b.script("""
            const q = document.getElementById('intention');
            return {shown: !q.hidden, value: document.getElementById('intention-text').value,
                    focused: document.activeElement ? document.activeElement.id : null,
                    state: document.documentElement.dataset.state};""")

    def test_intention_asked_then_recorded(self):
        from marionette_driver.by import By
        from marionette_driver.keys import Keys
        target = self.s.url("open.test", "/page/intent")
        mark = self.s.mark()
        self.b.navigate(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("open.test")
        self.b.wait_for_gate(state="ready", timeout=TIMER + 10)
        self.b.click("#open")
        wait_for(lambda: self.question()["shown"], 5, message="the question")
        self.assertEqual(self.question()["focused"], "intention-text")
        field = self.b.client.find_element(By.CSS_SELECTOR, "#intention-text")
        field.send_keys(Keys.ESCAPE)  # back to the three choices, not Exit
        wait_for(lambda: not self.question()["shown"], 5, message="the question hidden")
        self.assertEqual(self.question()["state"], "ready")
        self.b.click("#open")
        wait_for(lambda: self.question()["shown"], 5, message="the question again")
        field.send_keys("qen " + Keys.BACK_SPACE * 4 + "reply to Sam")
        wait_for(lambda: self.question()["value"] == "reply to Sam", 5, message="the typed intention")
        self.assertEqual(self.question()["state"], "ready")
        self.assert_nothing_for(["open.test"], mark, "before Enter")
        self.assertEqual([t for t in by_session(self.new_events(), session)
                          if t in ("exit_selected", "content_read", "open_selected")], [])
        field.send_keys(Keys.ENTER)
        self.b.wait_for_page("open.test", "/page/intent", timeout=10)
        self.assertTrue(self.s.hits("open.test", "/page/intent", mark))
        opened = self.wait_event("open_selected", "open.test")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"intention": "reply to Sam"})


class TestFirefoxNoHost(FirefoxCase):
    """No host manifest for Firefox: gated sites load directly; the popup says how to install."""
    sites = ["gated.test"]

    @classmethod
    def prepare_home(cls):
        os.remove(cls.home.firefox_manifest())

    @classmethod
    def wait_until_ready(cls):
        pass

    def test_fails_open_and_popup_says_install(self):
        self.b.navigate(self.b.extension_url("popup.html"))
        wait_for(lambda: "miga install" in self.b.client.execute_script(
            "return document.getElementById('status').textContent"), 10, message="the popup's install hint")
        self.b.fresh_tab()
        mark = self.s.mark()
        self.b.navigate(self.s.url("gated.test", "/page/no-host"))
        self.b.wait_for_page("gated.test", "/page/no-host")
        self.assertTrue(self.s.hits("gated.test", "/page/no-host", mark))
        self.assertEqual(self.h.events(types=["session_start"]), [])


class TestFirefoxPaths(Paths, FirefoxCase):
    """Path sites (cases_paths.py): `tube.test/shorts` gated, the rest of tube.test not."""


class TestFirefoxGateOverPage(GateOverPage, FirefoxCase):
    """The gate over a page (cases_overlay.py): a single-page route into a path site."""


# The idle case (cases_room.Idle) runs in Chromium only: a headless Firefox is idle from its
# start, whatever Marionette types, so it has no idle time to test.
class TestFirefoxComingBack(ComingBack, FirefoxCase):
    """A return to a gated tab, before and after `reentry_minutes` and under a grace (cases_room)."""


class TestFirefoxFocusTime(FocusTime, FirefoxCase):
    """Focused time on a gated site, with its window focused and not, and focused again (cases_room)."""


class TestFirefoxBudget(Budget, FirefoxCase):
    """The daily budget's soft end (cases_room)."""


if __name__ == "__main__":
    unittest.main(verbosity=2)

