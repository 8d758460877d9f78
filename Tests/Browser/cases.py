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
