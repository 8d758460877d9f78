"""Set-ups and steps the Chromium and Firefox tests share, so each scenario is written once;
mixed in before the browser's own case class (`class T(Entries, ChromiumCase)`)."""
from harness import original_from_gate, wait_for


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
