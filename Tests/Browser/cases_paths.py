"""Path sites (`tube.test/shorts`, as `youtube.com/shorts`), shared by the Chromium and Firefox
tests: mixed in before the browser's own case class (`class T(Paths, ChromiumCase)`).
A path site is gated however it is entered — typed, or by a link from its own host's pages —
while the host's other pages (`/watch?v=1`) open as before; after Open the tab goes on inside
the path site without another gate, and is gated again once it has left it. A grace for the
path site is its own: it does not cover its host, nor the host's grace the path site."""
from harness import original_from_gate

SHORTS = "tube.test/shorts"


class Paths:
    sites = [SHORTS]

    @classmethod
    def prepare_home(cls):
        cls.home.write_config(grace_minutes=0)

    @classmethod
    def wait_until_ready(cls):
        cls.browser.wait_for_rules("tube.test", timeout=20)

    def tearDown(self):
        super().tearDown()
        if self.h.sites != [SHORTS] or self.h.grace_minutes != 0:
            self.h.write_config(sites=[SHORTS], grace_minutes=0)
            self.b.wait_for_rules("tube.test")

    def gates(self, app=SHORTS):
        return self.new_events(app=app, types=["session_start"])

    def test_a_typed_path_is_gated_and_the_hosts_other_pages_are_not(self):
        mark = self.s.mark()
        target = self.s.url("tube.test", "/shorts/typed")
        self.b.go(target)
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), target)
        self.assertEqual(len(self.gates()), 1, "one gate, recorded under the path site's name")
        self.assert_nothing_for(["tube.test"], mark, "a path site's entry before Open")

        mark = self.s.mark()
        self.b.go(self.s.url("tube.test", "/watch?v=1"))
        self.b.wait_for_page("tube.test", "/watch")
        self.assertTrue(self.s.hits("tube.test", "/watch?v=1", mark))
        self.b.go(self.s.url("www.tube.test", "/shortsx"))
        self.b.wait_for_page("www.tube.test", "/shortsx")
        self.b.go(self.s.url("tube.test", "/Shorts/x"))
        self.b.wait_for_page("tube.test", "/Shorts/x")  # paths are case-sensitive
        self.assertEqual(len(self.gates()), 1, "no gate for the host's other pages")
        self.assertEqual(self.new_events(app="tube.test"), [])

    def test_an_in_site_link_into_the_path_is_an_entry_and_inside_it_the_tab_goes_on(self):
        self.b.go(self.s.url("tube.test", "/tube"))
        self.b.wait_for_page("tube.test", "/tube")
        self.b.click("#to-watch")
        self.b.wait_for_page("tube.test", "/watch", timeout=10)
        self.assertEqual(self.gates(), [], "a link to a video is not gated")

        mark = self.s.mark()
        self.b.click("#to-short")
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting")), self.s.url("tube.test", "/shorts/x"))
        self.assertEqual(len(self.gates()), 1, "a link from the host into the path is an entry")
        self.assert_nothing_for(["tube.test"], mark, "an in-site entry before Open")
        self.b.wait_for_gate(state="ready", timeout=self.timer_seconds + 10)
        self.b.press("o")
        self.b.wait_for_page("tube.test", "/shorts/x", timeout=10)

        # Inside the path site the tab goes on, page after page, without a gate.
        for _ in range(2):
            mark = self.s.mark()
            self.b.click("#next-short")
            self.b.wait_for_page("tube.test", "/shorts/y", timeout=10)
            self.assertTrue(self.s.hits("tube.test", "/shorts/y", mark))
        self.assertEqual(len(self.gates()), 1, "no second gate inside the path site")

        # Out of it and back in by a link: an entry again.
        self.b.click("#to-watch")
        self.b.wait_for_page("tube.test", "/watch", timeout=10)
        mark = self.s.mark()
        self.b.click("#to-short")
        self.b.wait_for_gate(state="counting")
        self.assertEqual(len(self.gates()), 2, "back into the path site from its host is an entry")
        self.assert_nothing_for(["tube.test"], mark, "a second entry before Open")

    def test_a_grace_for_the_path_site_does_not_cover_its_host(self):
        # Two pairs of a path site and its host: tube.test's path site in grace, docs.test's host.
        self.h.write_config(sites=[SHORTS, "tube.test", "docs.test/shorts", "docs.test"], grace_minutes=5)
        self.b.wait_for_rules("docs.test")
        self.h.import_open(SHORTS)
        self.h.import_open("docs.test")
        for host, path in (("tube.test", "/shorts/in-grace"), ("docs.test", "/watch?v=3")):
            mark = self.s.mark()
            self.b.fresh_tab(self.s.url(host, path))
            self.b.wait_for_page(host, path.split("?")[0], timeout=15)
            self.assertTrue(self.s.hits(host, path, mark), f"{host}{path} in its own grace")
        self.assertEqual(self.gates(), [], "the path site's grace lets it in")

        for host, path, app in (("tube.test", "/watch?v=2", "tube.test"), ("docs.test", "/shorts/host-grace", "docs.test/shorts")):
            mark = self.s.mark()
            target = self.s.url(host, path)
            self.b.fresh_tab(target)
            self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting", timeout=15)), target)
            self.assertEqual(len(self.gates(app)), 1, f"{app} is a site of its own, not in the other's grace")
            self.assert_nothing_for([host], mark, f"{app}'s entry before Open")
