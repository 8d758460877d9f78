"""The room, not just the door, in a real browser (DESIGN "The room, not just the door"): a
gated site's tab that comes back to the front after `reentry_minutes` shows the gate over the
page (not before, not under a grace); focused time on a gated site is recorded as `focus`
events while its tab is the active tab of the focused window and the person is not idle;
the daily budget's soft end asks once. Mixed in before a browser's case class, as cases.py's.

A browser has no fake clock: `reentry_minutes = 1` is the least there is, so the return after
the threshold waits one real minute (once, for both the return and the grace). The idle test
lowers the host's idle threshold to 15 s (`MIGA_IDLE_SECONDS`, the `idle` API's least) and needs
a real idle time: headless browsers have none (Chromium is never idle, Firefox is idle from its
start whatever Marionette types), so it runs Chromium with a window on a private Xvfb display
and moves its pointer with xdotool, as a person would.

A site's tab is put on the site before the site is gated (then the list grows), so it is there
without an entry and its gate; the budget's used minutes are imported as `focus` events."""
import json
import os
import shutil
import subprocess
import time
import unittest
import uuid

from harness import wait_for

# WebDriver's key code for Enter (the same in selenium and marionette_driver).
ENTER = "\ue007"


def seconds_of(events):
    return sum(json.loads(e["detail"] or "{}").get("seconds", 0) for e in events)


class RoomSteps:
    """The steps every room case uses."""
    base_sites = ["gated.test"]
    config = ""
    idle_seconds = 3600  # the browsers never count the person idle here (the idle case lowers it)

    @classmethod
    def prepare_home(cls):
        cls.home.extra_env["MIGA_IDLE_SECONDS"] = str(cls.idle_seconds)
        cls.home.extra_config = cls.config
        cls.home.write_config(sites=cls.base_sites)

    def tearDown(self):
        super().tearDown()
        if self.h.sites != self.base_sites or self.h.extra_config != self.config:
            self.h.extra_config = self.config
            self.h.write_config(sites=self.base_sites)

    def page(self, host, path):
        """A new tab showing the test server's page; its handle."""
        handle = self.b.new_tab(self.s.url(host, path))
        self.b.wait_for_page(host, path)
        return handle

    def gate_sites(self, *sites, graced=()):
        """Adds `sites` and `graced` to the list (their tabs are on them already: no entry, no
        gate); the extension has the rules of `sites` (a graced site's let it in)."""
        self.h.write_config(sites=self.base_sites + list(sites) + list(graced))
        for site in sites:
            self.b.wait_for_rules(site)

    def focus_events(self, site):
        return self.new_events(app=site, types=["focus"])

    def gate_over_page(self):
        """Whether the gate over the page is there (its host element; what is inside is closed)."""
        return self.b.script("return document.querySelector('miga-gate') !== null")

    def open_window(self, url):
        """A new browser window at `url`, focused (as a person's click on another window)."""
        if hasattr(self.b, "driver"):
            self.b.driver.switch_to.new_window("window")
            self.b.driver.get(url)
            return self.b.driver.current_window_handle
        handle = self.b.client.open(type="window", focus=True)["handle"]
        self.b.client.switch_to_window(handle, focus=True)
        self.b.navigate(url)
        return handle


class ComingBack(RoomSteps):
    """`reentry_minutes = 1` (set once the tabs are in place): a return to a gated tab before
    the minute goes on, after it shows the gate over the page (a `session_start` with
    {"reentry":true}); a grace covers it."""
    sites = ["gated.test"]

    def test_a_tab_come_back_to_before_and_after_the_threshold_and_under_a_grace(self):
        other = self.b.handles()[0]
        self.b.go(self.s.url("free.test", "/page/elsewhere"))
        self.b.wait_for_page("free.test", "/page/elsewhere")
        graced = self.page("later.test", "/page/graced")
        room = self.page("back.test", "/page/room")
        self.h.import_open("later.test")  # its grace (5 minutes) covers a return
        self.gate_sites("back.test", graced=["later.test"])
        self.b.switch(room)
        # Only now: a tab of a site that was not gated counts as seen for the first time when it
        # next comes to the front (and the harness's look at the rules brings it back to the
        # front), which is a return. The host reads the config at each question (a second for
        # one on its way to be answered first).
        time.sleep(1)
        self.h.extra_config = self.config + "reentry_minutes = 1\n"
        self.h.write_config()

        # Before the threshold: away a few seconds, then back: no gate, and the time in front
        # before leaving was recorded.
        time.sleep(2)
        self.b.switch(other)
        wait_for(lambda: self.focus_events("back.test"), 10, message="the focus time before leaving")
        time.sleep(2)
        self.b.switch(room)
        time.sleep(3)
        self.assertFalse(self.gate_over_page(), "a return after seconds goes on")
        self.assertEqual(self.new_events(app="back.test", types=["session_start"]), [])

        # After the threshold (one real minute away; no fake clock in a browser).
        counted = len(self.focus_events("back.test"))
        self.b.switch(other)
        wait_for(lambda: len(self.focus_events("back.test")) > counted, 10, message="the focus time before leaving again")
        seconds = seconds_of(self.focus_events("back.test"))
        time.sleep(62)
        self.assertEqual(seconds_of(self.focus_events("back.test")), seconds, "nothing is counted while the tab is not in front")
        # A tab never in front before counts as a return; the grace covers it.
        self.b.switch(graced)
        time.sleep(3)
        self.assertFalse(self.gate_over_page(), "a grace covers a return")
        self.assertEqual(self.new_events(app="later.test", types=["session_start"]), [])
        self.b.switch(room)
        wait_for(self.gate_over_page, 10, message="the gate over the page on a return after the threshold")
        start = self.wait_event("session_start", "back.test")
        self.assertEqual(json.loads(start["detail"]), {"reentry": True})
        self.assertIn("/page/room", self.b.url(), "the gate is over the page, which stays where it was")


class FocusTime(RoomSteps):
    """Focused time: counted while the site's tab is the active tab of the focused window,
    sent when focus leaves (another tab, another window); nothing while another window is in
    front; the popup shows today's minutes."""
    sites = ["gated.test"]

    def test_focus_is_counted_while_the_window_is_focused_and_not_while_another_is(self):
        first = self.b.handles()[0]
        self.b.go(self.s.url("free.test", "/page/start"))
        self.b.wait_for_page("free.test", "/page/start")
        tab = self.page("left.test", "/page/focused")
        self.gate_sites("left.test")
        self.b.switch(tab)
        started = time.monotonic()
        time.sleep(5)
        # Another window comes to the front (as another app would): focus leaves the site.
        window = self.open_window(self.s.url("free.test", "/page/other-window"))
        counted = time.monotonic() - started
        events = wait_for(lambda: self.focus_events("left.test"), 10, message="the focus time when the window lost focus")
        self.assertGreaterEqual(seconds_of(events), 3)
        self.assertLessEqual(seconds_of(events), counted + 2)
        time.sleep(6)
        self.assertEqual(seconds_of(self.focus_events("left.test")), seconds_of(events),
                         "no time is counted while another window is in front")
        self.assertEqual(self.new_events(types=["focus"], app="free.test"), [], "a site that is not gated is not counted")
        # The popup shows today's minutes.
        self.b.switch(window)
        self.b.go(self.b.extension_url("popup.html"))
        minutes = wait_for(lambda: (lambda t: t if t and t != "–" else None)(
            self.b.script("return document.getElementById('minutes').textContent")), 10, message="the popup's minutes")
        self.assertRegex(minutes, r"min$")
        if hasattr(self.b, "client"):
            self.check_the_count_resumes_when_its_window_is_focused_again(tab, seconds_of(events))
        del first

    def check_the_count_resumes_when_its_window_is_focused_again(self, tab, before):
        """Firefox only: a headless Chromium gives no window the focus back once another has
        taken it (Marionette does, as a person's click on the window does)."""
        self.b.client.switch_to_window(tab, focus=True)
        time.sleep(4)
        self.open_window(self.s.url("free.test", "/page/third-window"))
        wait_for(lambda: seconds_of(self.focus_events("left.test")) >= before + 2, 10,
                 message="the focus time of the window focused again")


class Budget(RoomSteps):
    """`minutes_per_day = 1` on a site: once today's focused minutes reach it during a visit,
    the soft end asks in the site's tabs (its words from the host), once; Keep going is
    recorded as `timebox_ended` {"budget":true,…} and the page stays."""
    sites = ["gated.test"]
    config = '[site."last.test"]\nminutes_per_day = 1\n'

    def soft_end_buttons(self):
        return self.b.shadow_elements("miga-soft-end", "button")

    def test_the_budget_ends_softly_once(self):
        other = self.b.handles()[0]
        self.b.go(self.s.url("free.test", "/page/budget-elsewhere"))
        self.b.wait_for_page("free.test", "/page/budget-elsewhere")
        tab = self.page("last.test", "/page/budget")
        self.gate_sites("last.test")
        # Today's minute is used already (elsewhere, earlier).
        self.h.import_events({"type": "focus", "app": "last.test", "session": str(uuid.uuid4()), "detail": {"seconds": 60}})
        self.b.switch(tab)
        time.sleep(2)
        self.b.switch(other)
        self.b.switch(tab)
        buttons = wait_for(self.soft_end_buttons, 15, message="the budget's soft end in the site's tab")
        title = self.b.shadow_elements("miga-soft-end", "#title")[0].text
        self.assertIn("last.test", title)
        self.assertEqual([b.get_attribute("id") for b in buttons], ["close", "keep"])
        # A page of the site that loads while the question waits (a link inside it) asks it again.
        self.b.page_script("location.href = '/page/budget-next'")
        self.b.wait_for_page("last.test", "/page/budget-next")
        buttons = wait_for(self.soft_end_buttons, 15, message="the budget's soft end after a reload")
        keep = [b for b in buttons if b.get_attribute("id") == "keep"][0]
        keep.click()
        ended = self.wait_event("timebox_ended", "last.test")
        detail = json.loads(ended["detail"])
        self.assertEqual((detail.get("budget"), detail.get("choice")), (True, "keep"))
        wait_for(lambda: not self.b.shadow_elements("miga-soft-end", "button"), 5, message="the overlay to go")
        self.assertIn("/page/budget-next", self.b.url(), "Keep going keeps the page")
        # Asked once: more time on the site brings no second soft end.
        time.sleep(2)
        self.b.switch(other)
        self.b.switch(tab)
        time.sleep(3)
        self.assertFalse(self.soft_end_buttons())
        self.assertEqual(len(self.new_events(app="last.test", types=["timebox_ended"])), 1)


class Idle(RoomSteps):
    """Idle stops the count: with the threshold at 15 s, a person who stops using the computer
    is counted until their last input, not after. Needs a real idle time: Chromium with a window
    on a private Xvfb display, the pointer moved by xdotool."""
    sites = ["gated.test"]
    idle_seconds = 15

    @classmethod
    def prepare_home(cls):
        missing = [tool for tool in ("Xvfb", "xdotool") if not shutil.which(tool)]
        if missing:
            raise unittest.SkipTest(f"the idle test needs {', '.join(missing)} (a real idle time)")
        cls.home.extra_env["DISPLAY"] = cls.start_display()
        super().prepare_home()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.stop_display()

    @classmethod
    def start_display(cls):
        """A private X display for the browser; its number."""
        read, write = os.pipe()
        cls.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                    pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        return ":" + number

    @classmethod
    def stop_display(cls):
        if getattr(cls, "xvfb", None) and cls.xvfb.poll() is None:
            cls.xvfb.terminate()
            cls.xvfb.wait(10)

    def move_pointer(self, x):
        subprocess.run(["xdotool", "mousemove", str(x), "300"], env={"DISPLAY": self.h.extra_env["DISPLAY"]}, check=True,
                       timeout=10)

    def test_idle_stops_the_count(self):
        other = self.b.handles()[0]
        self.b.go(self.s.url("free.test", "/page/idle-elsewhere"))
        self.b.wait_for_page("free.test", "/page/idle-elsewhere")
        tab = self.page("gone.test", "/page/idle")
        self.gate_sites("gone.test")
        self.b.switch(tab)
        self.move_pointer(100)  # here, and active
        started = time.monotonic()
        for step in range(5):  # ten seconds of use
            time.sleep(2)
            self.move_pointer(200 + step * 10)
        used = time.monotonic() - started
        # Then nothing: idle after 15 s without input, and the time up to the last input is sent.
        events = wait_for(lambda: self.focus_events("gone.test"), 40, message="the focus time when the person went idle")
        self.assertGreaterEqual(seconds_of(events), used - 4)
        self.assertLessEqual(seconds_of(events), used + 4, "the idle minutes are not counted")
        time.sleep(5)
        self.assertEqual(seconds_of(self.focus_events("gone.test")), seconds_of(events), "nothing is counted while idle")
        del other
