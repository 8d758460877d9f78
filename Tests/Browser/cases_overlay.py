"""The gate over a page, shared by the Chromium and Firefox tests (mixed in before the
browser's case class, as cases.py's are): a single-page site (Tests/Browser/server.py's /spa/)
whose link changes its route by `history.pushState` into a gated path site, which no request
reveals. The whole gate comes over the page, in a closed shadow root: the page is kept as it
was (its scroll, a half-typed comment, no reload), its scripts can neither read the gate nor
press Open, and the element comes back when they remove it."""
import time

from harness import wait_for

SHORTS = "spa.test/shorts"


class GateOverPage:
    sites = ["gated.test", SHORTS]

    @classmethod
    def prepare_home(cls):
        cls.home.write_config(grace_minutes=0)

    # -- the overlay, as a person and as the page see it

    def gate(self, selector):
        """The elements matching `selector` in the gate over the page (None: no gate)."""
        return self.b.shadow_elements("miga-gate", selector)

    def gate_text(self, selector):
        elements = self.gate(selector)
        return elements[0].text if elements else None

    def wait_gate(self, shown=True, timeout=10):
        return wait_for(lambda: (self.b.page_script("return !!document.querySelector('miga-gate')") == shown) or None,
                        timeout, message=f"the gate over the page to be {'shown' if shown else 'gone'}")

    def wait_ready(self, timeout=None):
        wait_for(lambda: (self.gate("#open") or [None])[0] is not None and
                 self.gate("#open")[0].get_attribute("aria-disabled") == "false",
                 timeout or self.timer_seconds + 15, message="Open after the countdown")

    def on_spa(self, path="/spa/home"):
        self.b.fresh_tab(self.s.url("spa.test", path))
        self.b.wait_for_page("spa.test", path)

    def scroll_to(self, y):
        """The page scrolled to `y`, and still there a moment later: Firefox may still be
        bringing the field just typed in into view, which would undo a single scrollTo."""
        def settled():
            self.b.page_script(f"window.scrollTo(0, {y})")
            time.sleep(0.3)
            return self.b.page_script("return Math.round(window.scrollY)") == y or None
        wait_for(settled, 10, message=f"the page to stay scrolled to {y}")

    def route(self, link):
        """The page's own script changes its route to the link's, as its click would (no
        click: a driver's, and Firefox's for a script's, scroll the page)."""
        self.b.page_script(f"history.pushState({{}}, '', document.getElementById('{link}').getAttribute('href'))")

    # -- the cases

    def test_a_route_into_a_gated_path_shows_the_gate_over_the_page_and_open_keeps_the_page(self):
        self.b.wait_for_rules("spa.test")
        self.on_spa()
        # A route inside the site but not into the gated path costs nothing.
        self.route("to-other")
        time.sleep(1.5)
        self.assertFalse(self.b.page_script("return !!document.querySelector('miga-gate')"), "a route outside the path")
        # The person's page: a half-typed comment, scrolled down.
        self.b.click("#comment")
        self.b.keys("half a comment")
        # (Firefox scrolls a field that has the focus back into view when the route changes.)
        self.b.page_script("document.activeElement.blur()")
        self.scroll_to(1500)
        mark = self.s.mark()
        self.route("to-shorts")
        self.wait_gate()
        scrolled = self.b.page_script("return Math.round(window.scrollY)")
        self.assertEqual(scrolled, 1500)
        self.assertRegex(self.gate_text("#countdown") or "", r"\d+ s")
        self.assertEqual(self.gate("#open")[0].get_attribute("aria-disabled"), "true")
        self.assertTrue((self.gate_text("#content") or "").strip(), "the gate's content")
        # gate.css, inside the root: the gate fills the window above the page.
        self.assertEqual(self.gate("#miga-gate")[0].value_of_css_property("position"), "fixed")
        self.session_of(SHORTS)
        self.assertEqual(self.s.requests_for("spa.test", mark, http_only=True), [], "a route is no request")
        self.assertTrue(self.b.page_script("return location.pathname") == "/shorts/abc")

        self.check_the_page_cannot_read_or_drive_the_gate()

        self.gate("#open")[0].click()  # a person's click
        self.wait_gate(shown=False)
        self.wait_event("open_selected", SHORTS)
        page = self.b.page_script("return {y: Math.round(window.scrollY), comment: document.getElementById('comment').value,"
                                  " loads: window.spaLoads, path: location.pathname}")
        self.assertEqual(page, {"y": scrolled, "comment": "half a comment", "loads": 1, "path": "/shorts/abc"})
        # Inside the path site, the next route is a visit going on: no second gate.
        self.route("to-more")
        time.sleep(1.5)
        self.assertFalse(self.b.page_script("return !!document.querySelector('miga-gate')"), "a route inside the path site")

    def check_the_page_cannot_read_or_drive_the_gate(self):
        seen = self.b.page_script("""
            const host = document.querySelector('miga-gate');
            return {shadow: host.shadowRoot === null, text: document.documentElement.textContent,
                    inner: document.documentElement.innerText, children: host.children.length,
                    found: document.querySelectorAll('#open, #countdown, #exit').length};""")
        self.assertTrue(seen["shadow"], "the page's scripts reach the gate's shadow root")
        self.assertEqual(seen["children"], 0)
        self.assertEqual(seen["found"], 0)
        for words in ("Read Next", "Exit", "Open in"):
            self.assertNotIn(words, seen["text"])
            self.assertNotIn(words, seen["inner"])
        self.wait_ready()
        # Everything a page's script can do to press Open, after the countdown: nothing opens.
        self.b.page_script("""
            const host = document.querySelector('miga-gate');
            for (const key of ['o', 'Enter', 'e', 'Escape']) {
              for (const target of [document, document.body, host, window]) {
                target.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, composed: true}));
              }
            }
            host.click();
            host.dispatchEvent(new MouseEvent('click', {bubbles: true, composed: true}));
            const atCentre = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
            if (atCentre) atCentre.click();""")
        time.sleep(1.5)
        self.assertFalse(self.new_events(app=SHORTS, types=["open_selected", "exit_selected"]), "a page's script chose")
        self.assertTrue(self.gate("#open"), "the gate is still up")
        # Removed by the page, it comes back at once.
        self.b.page_script("document.querySelector('miga-gate').remove()")
        self.wait_gate(timeout=2)
        self.assertTrue(self.gate("#open"), "the gate that came back is the gate")

    def test_exit_over_the_page_closes_the_tab(self):
        self.b.wait_for_rules("spa.test")
        first = self.b.fresh_tab(self.s.url("other.test", "/page/first"))
        second = self.b.new_tab(self.s.url("spa.test", "/spa/exit"))
        self.b.switch(second)
        self.b.wait_for_page("spa.test", "/spa/exit")
        self.route("to-shorts")
        self.wait_gate()
        self.b.keys("e")  # the focus is in the gate: its keys act
        self.wait_event("exit_selected", SHORTS)
        wait_for(lambda: second not in self.b.handles(), 15, message="the tab to close")
        self.b.switch(first)
        self.assertEqual(self.new_events(app=SHORTS, types=["open_selected"]), [])

    def test_exit_over_the_page_in_the_last_tab_shows_the_calm_page(self):
        self.b.wait_for_rules("spa.test")
        self.on_spa("/spa/last")
        self.route("to-shorts")
        self.wait_gate()
        self.b.keys("e")
        self.wait_event("exit_selected", SHORTS)
        wait_for(lambda: self.b.url().split("#")[0].endswith("/calm.html") or None, 15, message="the calm page")
        self.assertEqual(len(self.b.handles()), 1)

    def test_a_route_into_the_path_site_under_its_grace_shows_no_gate(self):
        self.h.write_config(grace_minutes=10)
        try:
            self.h.import_open(SHORTS)  # an Open elsewhere: the path site's grace runs
            self.on_spa("/spa/grace")
            self.route("to-shorts")
            self.wait_event("grace_pass", SHORTS)
            time.sleep(1)
            self.assertFalse(self.b.page_script("return !!document.querySelector('miga-gate')"), "a route under a grace")
            self.assertEqual(self.new_events(app=SHORTS, types=["session_start"]), [])
        finally:
            self.h.write_config(grace_minutes=0)
