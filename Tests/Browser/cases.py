"""Set-ups and steps the Chromium and Firefox tests share, so each scenario is written once;
mixed in before the browser's own case class (`class T(Entries, ChromiumCase)`)."""
import base64
import json
import os
import time

from harness import now_iso, original_from_gate, wait_for


class ScheduleWithoutGate:
    """A `[[schedule]]` with `gate = false` in force for gated.test, all day."""
    sites = ["gated.test", "reddit.com"]

    @classmethod
    def prepare_home(cls):
        cls.home.extra_config = '\n[[schedule]]\ndays = "daily"\nfrom = "00:00"\nto = "24:00"\ngate = false\napps = ["gated.test"]\n'
        cls.home.write_config()

    @classmethod
    def wait_until_ready(cls):
        # The host's state has arrived once the site outside these hours has its rule.
        cls.browser.wait_for_rules("reddit.com", timeout=20)


class Entries:
    """No grace at all (every entry is gated), and a site added to the list for one test."""
    sites = ["gated.test"]

    @classmethod
    def prepare_home(cls):
        cls.home.write_config(grace_minutes=0)

    def tearDown(self):
        super().tearDown()
        self.h.write_config(sites=["gated.test"])

    def gate_also(self, site):
        self.h.write_config(sites=["gated.test", site])
        self.b.wait_for_rules(site)

    def install_service_worker(self, host="sw.test", folder="sw"):
        """Visits `host` while it is not gated, so its service worker (Tests/Browser/server.py:
        /sw/ answers every navigation itself, /swnet/ fetches each from the network first)
        handles every later navigation to it; ends on another site."""
        self.b.go(self.s.url(host, f"/{folder}/install"))
        wait_for(lambda: self.b.script("return document.documentElement.dataset.worker") == "ready", 15,
                 message="the site's service worker")
        self.b.go(self.s.url(host, "/page/before"))
        self.b.wait_for_page(host, "/page/before")
        if folder == "sw":
            self.assertIn("from the service worker", self.b.script("return document.getElementById('arrived').textContent"))
        self.b.go(self.s.url("other.test", "/page/elsewhere"))
        self.b.wait_for_page("other.test", "/page/elsewhere")

    def check_a_network_first_worker_reaches_nothing_before_open(self, timer):
        self.install_service_worker("swnet.test", "swnet")
        self.gate_also("swnet.test")
        mark = self.s.mark()
        target = self.s.url("swnet.test", "/page/typed")
        self.b.go(target)
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), target)
        self.assert_nothing_for(["swnet.test"], mark, "an entry the site's worker fetched itself, before Open")
        self.b.wait_for_gate(state="ready", timeout=timer + 10)
        self.b.click("#open")
        self.b.wait_for_page("swnet.test", "/page/typed")
        self.assertTrue(self.s.hits("swnet.test", "/page/typed", mark), "after Open the worker fetches it")


class Allowance:
    """`opens_per_day = 1`: past today's one Open the page says so before the countdown, waits
    45 s and calls Open "Open anyway". And `miga snooze` naming one site: the extension hears
    of it (and of its --off) from the host's watch, before any navigation asks."""
    sites = ["gated.test", "exit.test"]

    @classmethod
    def prepare_home(cls):
        cls.home.extra_config = "opens_per_day = 1\n"
        cls.home.write_config(grace_minutes=0)

    def test_past_the_allowance_open_says_open_anyway(self):
        self.b.fresh_tab(self.s.url("exit.test", "/page/first"))
        self.b.wait_for_gate(state="counting")
        self.assertEqual(self.notes(), ["1 of 1 open left today"])
        self.assertRegex(self.b.script("return document.getElementById('open-label').textContent"), r"^Open in \d+ s$")
        self.b.press("e")
        wait_for(lambda: self.new_events(app="exit.test", types=["exit_selected"]), 10, message="exit_selected")
        self.h.import_open("exit.test")
        self.b.fresh_tab(self.s.url("exit.test", "/page/second"))
        self.b.wait_for_gate(state="counting")
        self.assertEqual(self.notes(), ["2nd time today", "Today's 1 open is used: Open is still yours, after 45 s"])
        self.assertRegex(self.b.script("return document.getElementById('open-label').textContent"), r"^Open anyway in 4[345] s$")

    def test_snooze_lets_the_named_site_through_and_no_other(self):
        self.b.wait_for_rules("gated.test", present=True)
        self.h.miga("snooze", "--begin", "20m", "gated.test")  # as its own gate's Open runs it
        try:
            # The host watches the snooze as it watches config.toml: the extension lets the
            # site in within a moment, before any navigation asks.
            self.b.wait_for_rules("gated.test", present=False, timeout=5)
            self.b.wait_for_rules("exit.test", present=True, timeout=1)
            mark = self.s.mark()
            self.b.fresh_tab(self.s.url("gated.test", "/page/snoozed"))
            self.b.wait_for_page("gated.test", "/page/snoozed", timeout=10)
            self.assertTrue(self.s.hits("gated.test", "/page/snoozed", mark))
            self.assertEqual(self.wait_event("grace_pass", "gated.test")["detail"], '{"snooze":true}')
            self.b.fresh_tab(self.s.url("exit.test", "/page/not-snoozed"))
            self.b.wait_for_gate(state="counting")
            self.b.go(self.b.extension_url("popup.html"))
            status = wait_for(lambda: (lambda t: t if t and "Snoozed" in t else None)(
                self.b.script("return document.getElementById('status').textContent")), 10, message="the popup's snooze line")
            self.assertIn("gated.test. To end it sooner: miga snooze --off", status)
        finally:
            self.h.miga("snooze", "--off")
        # --off ends it in the browser too: the site is gated again at once.
        self.b.wait_for_rules("gated.test", present=True, timeout=5)
        self.b.fresh_tab(self.s.url("gated.test", "/page/after-off"))
        self.b.wait_for_gate(state="counting")

    def notes(self):
        """The lines under the site's name, or None while they are hidden."""
        return self.b.script("""
            const n = document.getElementById('notes');
            return n.hidden ? null : [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.data);""")


# WebDriver's key codes (the same in selenium and marionette_driver).
ENTER, ESCAPE, TAB = "\ue007", "\ue00c", "\ue004"


class HowLong:
    """`ask_minutes = true` ("How long?", DESIGN "Time and friction"): after the countdown Open
    asks "For how long?" (`1`…`4`, Enter the default, Esc back); the answer is kept with the
    Open, and its grace lasts that long. A minute before the end a quiet notice in the site's
    tabs; at the end the soft end, an overlay in exactly those tabs: Close tab · 5 more minutes
    (once) · Keep going, recorded as `timebox_ended`.

    The soft ends come without waiting minutes: an Open that said how long is imported dated
    minutes ago (`import_open(..., detail={"minutes": 5})`), and rewriting config.toml makes the
    host send its state, with the timebox, at once (its watch). Where the timebox has ended
    already, the site's tab is opened before the site is gated (so it is on the site without
    an entry), and the site is then added to the list: the state that says so carries the
    ended timebox, whose soft end comes at once. The overlay lives in a closed shadow root:
    the tests find its host element by its tag name and reach its buttons through WebDriver,
    which sees into closed roots as a person's input does (a page's scripts cannot: checked)."""
    sites = ["gated.test", "open.test", "exit.test", "keep.test", "notice.test"]
    timer = 15
    config = "ask_minutes = true\ndefault_minutes = 10\n"

    @classmethod
    def prepare_home(cls):
        cls.home.extra_config = cls.config
        cls.home.write_config()

    def tearDown(self):
        super().tearDown()
        if self.h.sites != self.sites or self.h.extra_config != self.config:
            self.h.extra_config = self.config
            self.h.write_config(sites=self.sites)

    # -- the page's question

    def minutes_question(self):
        return self.b.script("""
            const q = document.getElementById('minutes');
            const shown = id => getComputedStyle(document.getElementById(id)).display !== 'none';
            const text = e => e.textContent.replace(/\\s+/g, ' ').trim();
            return {shown: !q.hidden, question: text(document.getElementById('minutes-question')),
                    choices: [...q.querySelectorAll('button')].map(b => [b.id, text(b)]),
                    labels: [...q.querySelectorAll('button')].map(b => b.getAttribute('aria-label')),
                    hint: text(document.getElementById('minutes-hint')), open: text(document.getElementById('open')),
                    buttons: ['exit', 'next', 'open'].filter(shown),
                    focused: document.activeElement ? document.activeElement.id : null,
                    state: document.documentElement.dataset.state};""")

    def wait_minutes(self, shown=True):
        return wait_for(lambda: (lambda q: q if q["shown"] == shown else None)(self.minutes_question()), 5,
                        message=f"'For how long?' {'shown' if shown else 'hidden'}")

    def open_gate(self, host, path):
        """Loads a gated page and waits out its countdown; the gate's session."""
        self.b.go(self.s.url(host, path))
        self.b.wait_for_gate(state="counting")
        session = self.session_of(host)
        self.b.wait_for_gate(state="ready", timeout=self.timer + 10)
        return session

    def test_how_long_is_asked_after_the_countdown_and_kept_with_the_open(self):
        target = self.s.url("open.test", "/page/how-long")
        mark = self.s.mark()
        self.b.go(target)
        self.b.wait_for_gate(state="counting")
        session = self.session_of("open.test")
        self.assertFalse(self.minutes_question()["shown"], "asked only after Open")
        self.b.press("o")  # early: locked, and no question
        self.assertFalse(self.minutes_question()["shown"])
        self.b.wait_for_gate(state="ready", timeout=self.timer + 10)
        self.b.press("o")
        q = self.wait_minutes()
        self.assertEqual(q["question"], "For how long?")
        self.assertEqual(q["choices"], [["minutes-5", "1 5 min"], ["minutes-10", "2 10 min"],
                                        ["minutes-20", "3 20 min"], ["minutes-30", "4 30 min"]])
        self.assertEqual(q["labels"], ["5 min (1)", "10 min (2)", "20 min (3)", "30 min (4)"],
                         "read as the window reads them: never '1 5 min' as '15 min'")
        self.assertEqual(q["hint"], "Enter takes 10 min · Esc goes back")
        self.assertEqual(q["open"], "Enter Open · 10 min", "Open shows the default, on Enter")
        self.assertEqual(q["buttons"], ["exit", "open"], "Exit stays; Read Next waits behind the question")
        self.assertEqual(q["focused"], "minutes-10")
        self.assertEqual(self.new_events(app="open.test", types=["open_selected"]), [])
        self.assert_nothing_for(["open.test"], mark, "while 'For how long?' asks")

        opened_at = self.s.mark()
        self.b.press("2")
        self.b.wait_for_page("open.test", "/page/how-long", timeout=10)
        self.assertTrue(self.s.hits("open.test", "/page/how-long", opened_at), "the site is fetched after the answer")
        opened = self.wait_event("open_selected", "open.test")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"minutes": 10})
        # The host times it: the timebox ends 10 minutes after the Open, as does its grace.
        state, = self.h.ask_host({"type": "state"})
        box = [b for b in state["timeboxes"] if b["site"] == "open.test"]
        self.assertEqual(len(box), 1, state["timeboxes"])
        self.assertEqual((box[0]["session"], box[0]["minutes"], box[0]["extended"]), (session, 10, False))
        self.assertAlmostEqual(box[0]["end"], opened["ts"] + 10 * 60000, delta=1000)
        self.assertAlmostEqual(state["grace"]["open.test"], box[0]["end"], delta=1000)

        # Its grace: the site again, in another tab, passes without a second gate.
        last = self.h.last_event_id()
        self.b.new_tab(self.s.url("www.open.test", "/page/again"))
        self.b.wait_for_page("www.open.test", "/page/again", timeout=10)
        wait_for(lambda: [e for e in self.h.events(since_id=last, app="open.test") if e["type"] == "grace_pass"], 10,
                 message="a grace_pass for open.test")
        self.assertEqual(self.h.events(since_id=last, types=["session_start"]), [])

    def test_enter_takes_the_default_and_escape_goes_back(self):
        session = self.open_gate("gated.test", "/page/default")
        self.b.press("o")
        self.wait_minutes()
        self.b.press(ESCAPE)  # back to the three choices: not Exit, nothing opened
        q = self.wait_minutes(shown=False)
        self.assertEqual((q["state"], q["buttons"], q["open"]), ("ready", ["exit", "next", "open"], "o Open"))
        time.sleep(0.5)
        self.assertTrue(self.b.is_gate(self.b.url()))
        self.assertEqual([e["type"] for e in self.new_events() if e["session"] == session
                          and e["type"] in ("open_selected", "exit_selected", "abandoned")], [])
        self.b.press(ENTER)  # Open: the question again
        self.assertEqual(self.wait_minutes()["focused"], "minutes-10")
        self.b.press(ENTER)  # the default
        self.b.wait_for_page("gated.test", "/page/default", timeout=10)
        opened = self.wait_event("open_selected", "gated.test")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"minutes": 10})

    def test_with_an_intention_the_question_comes_first(self):
        self.h.extra_config = self.config + "intention = true\n"
        self.h.write_config()
        time.sleep(0.5)  # each gate reads the config; the host has it at once
        session = self.open_gate("exit.test", "/page/intent")
        self.b.press("o")
        wait_for(lambda: self.b.script("return !document.getElementById('intention').hidden"), 5,
                 message="the intention question")
        self.assertFalse(self.minutes_question()["shown"])
        self.b.keys("reply to Sam")
        wait_for(lambda: self.b.script("return document.getElementById('intention-text').value") == "reply to Sam", 5,
                 message="the typed intention")
        self.b.keys(ENTER)  # then "For how long?"
        q = self.wait_minutes()
        self.assertTrue(self.b.script("return document.getElementById('intention').hidden"))
        self.assertEqual(q["focused"], "minutes-10")
        self.assertEqual(self.new_events(app="exit.test", types=["open_selected"]), [])
        self.b.press("3")
        self.b.wait_for_page("exit.test", "/page/intent", timeout=10)
        opened = self.wait_event("open_selected", "exit.test")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"intention": "reply to Sam", "minutes": 20})

    # -- the soft end

    def soft_end(self):
        """The overlay in the current tab: {"title", "buttons": [ids]}, or None."""
        elements = self.b.shadow_elements("miga-soft-end", "p, button")
        if not elements:
            return None
        texts = [e.text for e in elements if e.tag_name.lower() == "p"]
        return {"title": texts[1] if len(texts) > 1 else None,
                "buttons": [e.get_attribute("id") for e in elements if e.tag_name.lower() == "button"]}

    def soft_end_button(self, name):
        return [e for e in self.b.shadow_elements("miga-soft-end", "button") if e.get_attribute("id") == name][0]

    def wait_soft_end(self, timeout=25):
        return wait_for(self.soft_end, timeout, 0.2, message=f"the soft end (tab at {self.b.url()})")

    def assert_no_overlay(self, why):
        self.assertEqual(self.b.script("return document.querySelectorAll('miga-soft-end, miga-notice').length"), 0, why)

    def assert_closed_to_the_page(self):
        """The page's own scripts see an element and nothing in it."""
        self.assertEqual(self.b.page_script("""
            const e = document.querySelector('miga-soft-end, miga-notice');
            return [e.shadowRoot, e.children.length, e.textContent];"""), [None, 0, ""])

    def keep_screenshot(self, name):
        """With MIGA_SCREENSHOTS set (a folder), the tab as the person sees it, to look at."""
        folder = os.environ.get("MIGA_SCREENSHOTS")
        if not folder:
            return
        path = os.path.join(folder, f"{name}-{type(self).__name__}.png")
        if hasattr(self.b, "driver"):
            self.b.driver.save_screenshot(path)
        else:
            with open(path, "wb") as out:
                out.write(base64.b64decode(self.b.client.screenshot()))

    def timebox_endings(self, app):
        return [json.loads(e["detail"]) for e in self.new_events(app=app, types=["timebox_ended"])]

    def wait_ending(self, app, choice):
        """The detail of the `timebox_ended` with `choice` for `app`, once it is recorded (once)."""
        ends = wait_for(lambda: [e for e in self.timebox_endings(app) if e["choice"] == choice], 10,
                        message=f"timebox_ended {choice} for {app}")
        self.assertEqual(len(ends), 1, ends)
        return ends[0]

    def ended_open(self, site, minutes=5, ended_ago=20, extended=False):
        """An Open of `site` that said `minutes`, its time up `ended_ago` seconds ago (with five
        more minutes given, when `extended`); its session."""
        total = minutes + (5 if extended else 0)
        session = self.h.import_open(site, ts=now_iso(total * 60 + ended_ago), detail={"minutes": minutes})
        if extended:
            self.h.import_events({"ts": now_iso(ended_ago + 5 * 60 + 10), "type": "timebox_ended", "app": site, "session": session,
                                  "detail": {"minutes": minutes, "choice": "extend", "used": minutes}})
        return session

    def on_site_before_it_is_gated(self, *urls):
        """This tab at the first of `urls`, a new tab at each other, loaded while their site is
        not gated; this tab stays current. Its handle."""
        first = self.tab_handle()
        for index, url in enumerate(urls):
            if index == 0:
                self.b.go(url)
            else:
                self.b.new_tab(url)
            host, path = url.split("://", 1)[1].split("/", 1)
            self.b.wait_for_page(host.split(":")[0], "/" + path.split("?")[0])
        self.b.switch(first)
        return first

    def tab_handle(self):
        return self.b.driver.current_window_handle if hasattr(self.b, "driver") else self.b.client.current_window_handle

    def test_soft_end_in_the_site_tabs_only_and_keep_going(self):
        # An Open of 5 minutes whose end is 15 s away: the tab loads in its grace.
        session = self.h.import_open("keep.test", ts=now_iso(5 * 60 - 15), detail={"minutes": 5})
        self.h.write_config()  # the host's watch sends the state, with the timebox
        self.b.wait_for_rules("keep.test", present=False, timeout=10)
        self.b.go(self.s.url("www.keep.test", "/page/reading"))  # a subdomain is the site
        self.b.wait_for_page("www.keep.test", "/page/reading")
        site_tab = self.tab_handle()
        other_tab = self.b.new_tab(self.s.url("free.test", "/page/elsewhere"))
        self.b.wait_for_page("free.test", "/page/elsewhere")
        self.b.switch(site_tab)
        self.assertEqual(self.wait_soft_end(), {"title": "Your 5 minutes on keep.test are up",
                                                "buttons": ["close", "extend", "keep"]})
        self.keep_screenshot("soft-end")
        self.assert_closed_to_the_page()
        self.assertEqual(self.timebox_endings("keep.test"), [])
        self.b.switch(other_tab)
        self.assert_no_overlay("another site's tab")
        self.b.switch(site_tab)
        # By keys: the overlay holds the focus; Tab goes to Close tab, 5 more minutes, Keep going.
        self.b.keys(TAB, TAB, TAB, ENTER)
        ending = self.wait_ending("keep.test", "keep")
        self.assertEqual((ending["minutes"], ending["choice"]), (5, "keep"))
        self.assertEqual(self.new_events(app="keep.test", types=["timebox_ended"])[0]["session"], session)
        wait_for(lambda: self.soft_end() is None, 5, message="the overlay to go")
        self.b.wait_for_page("www.keep.test", "/page/reading")
        self.assertEqual(len(self.b.handles()), 2)
        state, = self.h.ask_host({"type": "state"})
        self.assertEqual([b for b in state["timeboxes"] if b["site"] == "keep.test"], [], "answered")

    def test_five_more_minutes_is_offered_once(self):
        self.on_site_before_it_is_gated(self.s.url("extend.test", "/page/reading"))
        session = self.ended_open("extend.test")
        self.h.write_config(sites=self.sites + ["extend.test"])
        self.assertEqual(self.wait_soft_end(), {"title": "Your 5 minutes on extend.test are up",
                                                "buttons": ["close", "extend", "keep"]})
        # Only the overlay's own script, in a tab it was put in, answers for it: not the page
        # (it has no way to the extension), not another of the extension's own tabs.
        self.assertFalse(self.b.page_script("return Boolean(window.browser || (window.chrome && chrome.runtime && chrome.runtime.sendMessage))"))
        forged = self.b.extension_eval(
            "const done = arguments[arguments.length - 1];"
            f"(globalThis.browser ?? chrome).runtime.sendMessage({json.dumps({'type': 'soft_end', 'session': session, 'choice': 'keep'})})"
            ".then(done, e => done(String(e)));")
        self.assertEqual(forged, {"ok": False})
        self.assertEqual(self.timebox_endings("extend.test"), [])
        self.assertIsNotNone(self.soft_end())
        self.soft_end_button("extend").click()
        ending = self.wait_ending("extend.test", "extend")
        self.assertEqual(ending["minutes"], 5)
        wait_for(lambda: self.soft_end() is None, 5, message="the overlay to go")
        self.b.wait_for_page("extend.test", "/page/reading")
        # Five more minutes from the end: its grace runs again, to the timebox's new end.
        self.b.wait_for_rules("extend.test", present=False, timeout=10)
        state, again = self.h.ask_host({"type": "state"}, {"type": "timebox_end", "session": session, "choice": "extend"})
        box, = [b for b in state["timeboxes"] if b["site"] == "extend.test"]
        self.assertEqual((box["session"], box["minutes"], box["extended"]), (session, 5, True))
        self.assertGreater(box["end"], time.time() * 1000)
        self.assertAlmostEqual(state["grace"]["extend.test"], box["end"], delta=1000)
        self.assertEqual(again["type"], "error")
        self.assertIn("offered once", again["error"])
        self.assertEqual(len(self.timebox_endings("extend.test")), 1, "the refused extension recorded nothing")

    def test_after_five_more_minutes_the_soft_end_offers_no_more_and_close_closes(self):
        site_tab = self.on_site_before_it_is_gated(self.s.url("close.test", "/page/one"),
                                                   self.s.url("www.close.test", "/page/two"))
        other_tab = self.b.new_tab(self.s.url("free.test", "/page/stays"))
        self.b.wait_for_page("free.test", "/page/stays")
        self.b.switch(site_tab)
        self.ended_open("close.test", extended=True)
        self.h.write_config(sites=self.sites + ["close.test"])
        self.assertEqual(self.wait_soft_end(), {"title": "Your 10 minutes on close.test are up", "buttons": ["close", "keep"]})
        second = [h for h in self.b.handles() if h not in (site_tab, other_tab)][0]
        self.b.switch(second)
        self.assertEqual(self.wait_soft_end(5)["buttons"], ["close", "keep"], "every tab of the site")
        self.b.switch(site_tab)
        self.soft_end_button("close").click()
        wait_for(lambda: self.b.handles() == [other_tab], 10, message="the site's tabs to close")
        self.b.switch(other_tab)
        self.b.wait_for_page("free.test", "/page/stays")
        self.assert_no_overlay("another site's tab")
        ending = self.wait_ending("close.test", "close")
        self.assertEqual(ending["minutes"], 10)

    def test_close_in_every_tab_there_is_leaves_the_calm_page(self):
        self.on_site_before_it_is_gated(self.s.url("last.test", "/page/only"))
        self.assertEqual(len(self.b.handles()), 1)
        self.ended_open("last.test")
        self.h.write_config(sites=self.sites + ["last.test"])
        self.wait_soft_end()
        self.soft_end_button("close").click()
        self.wait_ending("last.test", "close")
        wait_for(lambda: self.b.url() == self.b.extension_url("calm.html"), 10, message="the calm page")
        self.assertEqual(len(self.b.handles()), 1)

    def test_no_tab_of_the_site_at_the_end_is_gone(self):
        self.b.go(self.s.url("free.test", "/page/elsewhere"))
        self.b.wait_for_page("free.test", "/page/elsewhere")
        self.ended_open("gone.test")
        self.h.write_config(sites=self.sites + ["gone.test"])
        ending = self.wait_ending("gone.test", "gone")
        self.assertEqual(ending["minutes"], 5)
        self.assert_no_overlay("another site's tab")

    def test_closing_the_site_tab_under_the_soft_end_is_gone(self):
        site_tab = self.on_site_before_it_is_gated(self.s.url("left.test", "/page/leaving"))
        other_tab = self.b.new_tab(self.s.url("free.test", "/page/elsewhere"))
        self.b.wait_for_page("free.test", "/page/elsewhere")
        self.b.switch(site_tab)
        self.ended_open("left.test")
        self.h.write_config(sites=self.sites + ["left.test"])
        self.wait_soft_end()
        self.assertEqual(self.timebox_endings("left.test"), [])
        self.b.close_tab()
        self.b.switch(other_tab)
        self.wait_ending("left.test", "gone")

    def test_a_minute_before_the_end_a_quiet_notice(self):
        # An Open of 5 minutes with 75 s left: the notice comes in 15 s, in the site's tab.
        session = self.h.import_open("notice.test", ts=now_iso(4 * 60 - 15), detail={"minutes": 5})
        self.h.write_config()
        try:
            self.b.wait_for_rules("notice.test", present=False, timeout=10)
            self.b.go(self.s.url("notice.test", "/page/reading"))
            self.b.wait_for_page("notice.test", "/page/reading")
            site_tab = self.tab_handle()
            other_tab = self.b.new_tab(self.s.url("free.test", "/page/elsewhere"))
            self.b.wait_for_page("free.test", "/page/elsewhere")
            self.b.switch(site_tab)
            notice = wait_for(lambda: self.b.shadow_elements("miga-notice", "div"), 25, 0.2, message="the notice")
            self.assertEqual(notice[0].text, "1 minute left on notice.test")
            self.assert_closed_to_the_page()
            self.assertIsNone(self.soft_end(), "the notice is not the soft end")
            self.assertEqual(self.b.url(), self.s.url("notice.test", "/page/reading"), "the page goes on")
            self.b.switch(other_tab)
            self.assert_no_overlay("another site's tab")
        finally:
            # Answered now, and the extension told, so its soft end does not come in a later test.
            self.h.ask_host({"type": "timebox_end", "session": session, "choice": "keep"})
            self.h.write_config()


CONTROL = "\ue009"


def png(width, height):
    """A small PNG picture (a soft diagonal gradient with a dark square in its middle, so a
    screenshot shows it is drawn whole), as bytes."""
    import struct, zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            inside = width // 3 <= x < 2 * width // 3 and height // 3 <= y < 2 * height // 3
            row += bytes((40, 90, 80) if inside else (120 + 100 * x // width, 170, 140 + 100 * y // height))
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


class DoThisInstead:
    """"Do this instead", a typed challenge and a person's own picture (DESIGN "Time and
    friction"), on the gate page.

    `[[alternative]]` tables: the gate shows those that apply beside Exit (`1`…`3`, buttons
    `#alternative-N` by position); choosing one is an Exit (`exit_selected` with
    `{"alternative": label}`) that then opens it: miga runs a command itself, a link opens in
    the gate's tab — with the one-time pass an Open gives, so a link on a gated site is not
    gated. `challenge = "type"` for reddit.com: Open first asks the sentence, typed exactly
    (a mistake clears it, a paste never counts), then "For how long?" (its keys 1…4 are
    minutes there, not alternatives). A content item with `image` shows it beside
    its words."""
    sites = ["reddit.com", "gated.test", "exit.test"]
    sentence = "I am opening reddit.com on purpose"

    @classmethod
    def prepare_home(cls):
        home, server = cls.home, cls.server
        cls.ran = os.path.join(home.root, "alt-ran")
        cls.picture = os.path.join(home.root, "pic.png")
        with open(cls.picture, "wb") as f:
            f.write(png(360, 240))  # wider than the page shows: it is scaled down to 240 × 160
        quotes = os.path.join(home.data_home, "miga/quotes")
        os.makedirs(quotes, exist_ok=True)
        with open(os.path.join(quotes, "mine.toml"), "w") as f:
            f.write('[[items]]\nid = "mine-picture"\nkind = "article"\ncategory = "own"\ntitle = "The lake at Ohrid"\n'
                    f'image = {json.dumps(cls.picture)}\n'
                    'text = "Remember the morning light on the water, and how slow the day felt."\n')
        home.extra_config = (
            'categories = ["articles"]\n'
            '[site."reddit.com"]\nchallenge = "type"\nask_minutes = true\ndefault_minutes = 10\n\n'
            # A command of the person's: miga runs it (here it leaves a file to find).
            '[[alternative]]\nlabel = "Write"\n'
            f'command = ["sh", "-c", {json.dumps("echo done > " + cls.ran)}]\nsites = ["reddit.com"]\n\n'
            # A link on a site that is not gated, for every gate.
            f'[[alternative]]\nlabel = "Docs"\nurl = {json.dumps(server.url("docs.test", "/page"))}\n\n'
            # A link on a gated site, only on exit.test's gate (the third table, shown second).
            f'[[alternative]]\nlabel = "Notes"\nurl = {json.dumps(server.url("gated.test", "/page/notes"))}\nsites = ["exit.test"]\n')
        home.write_config(grace_minutes=0)  # every entry is gated, also after an Open

    # -- reading the page

    def alternatives(self):
        """The buttons beside Exit: [[id, text]] (hidden ones left out)."""
        return self.b.script("""
            const g = document.getElementById('alternatives');
            return g.hidden ? [] : [...g.querySelectorAll('button')].map(b => [b.id, b.textContent.replace(/\\s+/g, ' ').trim()]);""")

    def challenge(self):
        return self.b.script("""
            const box = document.getElementById('challenge-box'), f = document.getElementById('challenge');
            const shown = id => getComputedStyle(document.getElementById(id)).display !== 'none';
            const text = id => document.getElementById(id).textContent.replace(/\\s+/g, ' ').trim();
            return {shown: !box.hidden, question: text('challenge-question'), sentence: text('challenge-sentence'),
                    value: f.value, problem: text('challenge-problem'), hint: text('challenge-hint'),
                    focused: document.activeElement ? document.activeElement.id : null,
                    buttons: ['exit', 'next', 'open', 'alternatives'].filter(shown),
                    state: document.documentElement.dataset.state};""")

    def wait_challenge(self, shown=True, **expected):
        def matches():
            c = self.challenge()
            return c if c["shown"] == shown and all(c[k] == v for k, v in expected.items()) else None
        return wait_for(matches, 5, message=f"the challenge {'shown' if shown else 'hidden'} {expected or ''}"
                        f" (last: {self.challenge()})")

    def image(self):
        return self.b.script("""
            const i = document.getElementById('image');
            const r = i.getBoundingClientRect();
            return {shown: !i.hidden && getComputedStyle(i).display !== 'none', complete: i.complete,
                    naturalWidth: i.naturalWidth, width: r.width, height: r.height, alt: i.alt,
                    src: (i.getAttribute('src') || '').slice(0, 22),
                    title: (document.querySelector('#content h1') || {}).textContent || null,
                    content: document.getElementById('content').textContent};""")

    def gate_of(self, host, path):
        """A fresh single tab at `host` `path`, its gate counting; the gate's session."""
        self.b.fresh_tab(self.s.url(host, path))
        self.b.wait_for_gate(state="counting")
        return self.session_of(host)

    # -- Do this instead

    def test_an_alternative_by_its_key_runs_the_command(self):
        mark = self.s.mark()
        session = self.gate_of("reddit.com", "/page/instead")
        self.assertEqual(self.alternatives(), [["alternative-1", "1 Write"], ["alternative-2", "2 Docs"]])
        self.assertFalse(os.path.exists(self.ran))
        self.keep_screenshot("alternatives")
        self.b.press("1")  # during the countdown: an alternative is an Exit, always free
        wait_for(lambda: self.b.script("return !document.getElementById('celebration').hidden"), 5,
                 message="the celebration")
        exited = self.wait_event("exit_selected", "reddit.com")
        self.assertEqual((exited["session"], json.loads(exited["detail"])), (session, {"alternative": "Write"}))
        wait_for(lambda: os.path.exists(self.ran), 10, message="the command's file")
        with open(self.ran) as f:
            self.assertEqual(f.read(), "done\n")
        # Then as Exit: the only tab shows the calm page.
        wait_for(lambda: self.b.url() == self.b.extension_url("calm.html"), 10, message="the calm page")
        self.assertEqual(self.new_events(types=["open_selected"]), [])
        self.assert_nothing_for(["reddit.com", "www.reddit.com"], mark, "an alternative chosen instead")

    def test_an_alternative_by_its_button_opens_its_link_in_the_tab(self):
        mark = self.s.mark()
        session = self.gate_of("gated.test", "/page/instead")
        self.assertEqual(self.alternatives(), [["alternative-1", "1 Docs"]], "Write is only for reddit.com")
        self.b.click("#alternative-1")
        self.b.wait_for_page("docs.test", "/page", timeout=10)
        self.assertEqual(self.b.url(), self.s.url("docs.test", "/page"))
        self.assertTrue(self.s.hits("docs.test", "/page", mark), "the link was fetched")
        exited = self.wait_event("exit_selected", "gated.test")
        self.assertEqual((exited["session"], json.loads(exited["detail"])), (session, {"alternative": "Docs"}))
        self.assert_nothing_for(["gated.test"], mark, "an alternative chosen instead")
        self.assertEqual([e["app"] for e in self.new_events(types=["session_start"])], ["gated.test"], "no other gate")
        self.assertEqual(len(self.b.handles()), 1)

    def test_an_alternative_on_a_gated_site_is_not_gated(self):
        mark = self.s.mark()
        session = self.gate_of("exit.test", "/page/instead")
        # Positions, not the tables' numbers: Notes is the third table, shown second.
        self.assertEqual(self.alternatives(), [["alternative-1", "1 Docs"], ["alternative-2", "2 Notes"]])
        self.b.wait_for_gate(state="ready", timeout=self.timer_seconds + 10)
        self.b.press("2")
        self.b.wait_for_page("gated.test", "/page/notes", timeout=10)
        self.assertTrue(self.s.hits("gated.test", "/page/notes", mark))
        exited = self.wait_event("exit_selected", "exit.test")
        self.assertEqual((exited["session"], json.loads(exited["detail"])), (session, {"alternative": "Notes"}))
        self.assertEqual([e["app"] for e in self.new_events(types=["session_start"])], ["exit.test"],
                         "the link was let through: no gate for gated.test")
        self.assertEqual(self.new_events(app="gated.test"), [], "nor a grace pass")
        self.assert_nothing_for(["exit.test"], mark, "an alternative chosen instead")

    # -- the typed challenge

    def test_the_typed_challenge_before_open(self):
        # Last of the class (by name): its Open said 10 minutes, which reddit.com's grace lasts.
        if os.path.exists(self.ran):
            os.remove(self.ran)  # the command's file from another test
        target = self.s.url("reddit.com", "/page/on-purpose")
        mark = self.s.mark()
        session = self.gate_of("reddit.com", "/page/on-purpose")
        self.assertFalse(self.challenge()["shown"], "asked only after the countdown")
        self.b.wait_for_gate(state="ready", timeout=self.timer_seconds + 10)
        self.b.press("o")
        c = self.wait_challenge()
        self.assertEqual((c["question"], c["sentence"], c["value"], c["focused"]),
                         ("Type this to open:", self.sentence, "", "challenge"))
        self.assertEqual(c["buttons"], ["exit", "alternatives"], "Exit and its alternatives stay; Read Next and Open wait")
        self.assertEqual(c["hint"], "Enter opens · Esc goes back")

        # A mistake clears what was typed, and says so; the page's keys are typed, not acted on.
        self.b.keys("I am opx")
        self.wait_challenge(value="", problem="Start again: type it exactly")
        self.b.keys("1")  # not "Write": typed, a mistake
        self.wait_challenge(value="", problem="Start again: type it exactly")
        self.assertFalse(os.path.exists(self.ran))
        self.b.keys("I am opening redd", "\ue003" * 2)  # Backspace works
        self.wait_challenge(value="I am opening re", problem="")
        self.keep_screenshot("challenge")
        self.b.keys(ENTER)  # not the whole sentence: nothing
        time.sleep(0.3)
        self.assertEqual(self.wait_challenge(value="I am opening re")["state"], "ready")

        # A paste never counts: the sentence copied to the clipboard by a person's Ctrl-C, then Ctrl-V.
        self.copy_to_clipboard(self.sentence)
        self.b.click("#challenge")
        self.b.chord(CONTROL, "v")
        self.wait_challenge(value="", problem="Start again: type it exactly")

        # Esc goes back to the choices: not an Exit, nothing opened.
        self.b.keys(ESCAPE)
        c = self.wait_challenge(shown=False)
        self.assertEqual((c["state"], c["buttons"]), ("ready", ["exit", "next", "open", "alternatives"]))
        self.assertTrue(self.b.is_gate(self.b.url()))
        self.assertEqual([e["type"] for e in self.new_events() if e["session"] == session
                          and e["type"] in ("open_selected", "exit_selected", "abandoned")], [])

        # The sentence typed, then Enter: the site, and only now.
        self.b.press("o")
        self.wait_challenge(value="", problem="")
        self.b.keys(self.sentence)
        self.wait_challenge(value=self.sentence)
        self.assert_nothing_for(["reddit.com", "www.reddit.com"], mark, "before the sentence's Enter")
        self.b.keys(ENTER)
        # Then "For how long?" (reddit.com asks it): there 1…4 pick minutes, not an alternative.
        wait_for(lambda: self.b.script("return !document.getElementById('minutes').hidden"), 5, message="For how long?")
        self.assertFalse(self.challenge()["shown"])
        self.assert_nothing_for(["reddit.com", "www.reddit.com"], mark, "while 'For how long?' asks")
        opened_at = self.s.mark()
        self.b.keys("2")
        self.b.wait_for_page("reddit.com", "/page/on-purpose", timeout=10)
        self.assertEqual(self.b.url(), target)
        self.assertTrue(self.s.hits("reddit.com", "/page/on-purpose", opened_at))
        opened = self.wait_event("open_selected", "reddit.com")
        self.assertEqual(opened["session"], session)
        self.assertEqual(json.loads(opened["detail"]), {"challenge": True, "minutes": 10})
        self.assertEqual(self.new_events(types=["exit_selected"]), [], "2 was not Docs")

    def copy_to_clipboard(self, text):
        """Puts `text` on the clipboard as a person does: selected in a field of the page, then
        Ctrl-C (trusted keys); checks that the clipboard works by pasting it into another field
        first, so the refused paste that follows is a real one."""
        self.b.script(f"""
            for (const id of ['copy-from', 'paste-check']) {{
              const t = document.createElement('textarea');
              t.id = id;
              document.body.append(t);
            }}
            const from = document.getElementById('copy-from');
            from.value = {json.dumps(text)};
            from.focus();
            from.select();""")
        self.b.chord(CONTROL, "c")
        self.b.script("document.getElementById('paste-check').focus()")
        self.b.chord(CONTROL, "v")
        wait_for(lambda: self.b.script("return document.getElementById('paste-check').value") == text, 5,
                 message="the clipboard to work (a paste into a plain field)")
        self.b.script("for (const id of ['copy-from', 'paste-check']) document.getElementById(id).remove();")

    # -- a person's own picture

    def test_an_items_own_picture_is_shown_beside_it(self):
        if not os.path.exists(self.h.database):  # a first gate makes the database
            self.h.ask_host({"type": "gate", "url": self.s.url("gated.test", "/page/warm-up")})
        # Every bundled article counts as shown this round, so the rotation's next is ours.
        listed = self.h.miga("content", "list", "--kind", "article").stdout
        others = [line.split("\t")[0] for line in listed.splitlines() if line.strip() and not line.startswith("mine-picture")]
        self.assertIn("mine-picture", listed)
        self.assertGreater(len(others), 5)
        import sqlite3
        db = sqlite3.connect(self.h.database, timeout=10)
        try:
            with db:
                db.execute("DELETE FROM rotation_shown")
                db.execute("DELETE FROM rotation_state")
                db.executemany("INSERT INTO rotation_shown VALUES (?)", [(i,) for i in others])
        finally:
            db.close()

        self.gate_of("gated.test", "/page/picture")
        shown = wait_for(lambda: (lambda i: i if i["shown"] and i["complete"] and i["naturalWidth"] else None)(self.image()),
                         5, message=f"the picture (last: {self.image()})")
        self.assertEqual(shown["title"], "The lake at Ohrid")
        self.assertEqual((shown["naturalWidth"], shown["alt"], shown["src"]), (360, "The lake at Ohrid", "data:image/png;base64,"))
        self.assertLessEqual(shown["width"], 240.5)
        self.assertLessEqual(shown["height"], 240.5)
        self.assertAlmostEqual(shown["width"] / shown["height"], 1.5, delta=0.02, msg="not stretched")
        self.keep_screenshot("own-picture")
        # Read Next: an item without a picture shows none.
        self.b.press("n")
        after = wait_for(lambda: (lambda i: i if i["title"] != "The lake at Ohrid" else None)(self.image()), 10,
                         message="the next item")
        self.assertFalse(after["shown"], after)
        self.assertEqual(after["src"], "")
        self.keep_screenshot("no-picture")
        self.b.press("e")
        self.wait_event("exit_selected", "gated.test")

    def keep_screenshot(self, name):
        HowLong.keep_screenshot(self, name)
