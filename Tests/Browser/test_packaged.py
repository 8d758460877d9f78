"""The extension as the Debian package ships it, loaded the way each of Debian's browsers loads
it, with no step of the person's: chromium through Debian's wrapper (/usr/bin/chromium loads
every folder in /usr/share/chromium/extensions), firefox-esr from /usr/share/mozilla/extensions
in a fresh profile with Firefox's own add-on settings. scripts/check-deb.sh runs it with the
package installed (MIGA_BIN=/usr/bin/miga); without the package it is skipped.

Run: python3 Tests/Browser/run_tests.py test_packaged.py
"""
import json, os, sys, unittest

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (failed, BrowserCase, Chromium, Firefox, CHROMIUM_ID, chromium_missing, firefox_missing,  # noqa: E402
                     original_from_gate)

CHROMIUM_WRAPPER = os.environ.get("MIGA_CHROMIUM_WRAPPER", "/usr/bin/chromium")
CHROMIUM_SYSTEM = "/usr/share/chromium/extensions/miga"
FIREFOX_SYSTEM = "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/miga@miga.app"


def packaged(folder):
    return None if os.path.exists(os.path.join(folder, "manifest.json")) else f"no packaged extension at {folder} (install the package)"


class PackagedCase(BrowserCase):
    sites = ["gated.test"]
    timer_seconds = 15

    def setUp(self):
        self.b, self.s, self.h = self.browser, self.server, self.home
        self.first_event = self.h.last_event_id()

    def tearDown(self):
        if failed(self):
            sys.stderr.write(f"\n--- {self.id()}: browser output (tail) ---\n{self.b.stderr_log(80)}\n")
            sys.stderr.write(f"--- events ---\n{json.dumps(self.h.events(since_id=self.first_event))}\n")

    def gates_a_typed_address(self, navigate):
        mark = self.s.mark()
        target = self.s.url("gated.test", "/page/packaged")
        navigate(target)
        self.assertEqual(original_from_gate(self.b.wait_for_gate(state="counting", timeout=15)), target)
        self.wait_event("session_start", "gated.test")
        self.assert_nothing_for(["gated.test"], mark, "before Open")


class TestPackagedInChromium(PackagedCase):
    browser_name = "Debian's chromium (its wrapper)"
    launch = staticmethod(lambda home, server: Chromium(home, server, extension=None, binary=CHROMIUM_WRAPPER,
                                                        log_name="chromium-packaged"))
    missing = staticmethod(lambda: chromium_missing() or packaged(CHROMIUM_SYSTEM)
                           or (None if os.access(CHROMIUM_WRAPPER, os.X_OK) else f"no {CHROMIUM_WRAPPER}"))

    def test_the_wrapper_loads_the_packaged_extension_and_it_gates(self):
        self.gates_a_typed_address(self.b.driver.get)
        self.assertTrue(self.b.url().startswith(f"chrome-extension://{CHROMIUM_ID}/"))
        manifest = self.b.script("return chrome.runtime.getManifest()")
        self.assertEqual(manifest["incognito"], "split", "the Chromium family's manifest")


class TestPackagedInFirefox(PackagedCase):
    browser_name = "firefox-esr"
    launch = staticmethod(lambda home, server: Firefox(home, server, extension=None, extension_prefs=False,
                                                       log_name="firefox-packaged"))
    missing = staticmethod(lambda: firefox_missing() or packaged(FIREFOX_SYSTEM))

    @classmethod
    def wait_until_ready(cls):
        cls.browser.loaded_extension_uuid()
        cls.browser.wait_for_rules("gated.test", timeout=20)

    def test_a_fresh_profile_loads_the_packaged_extension_and_it_gates(self):
        self.b.fresh_tab()
        self.gates_a_typed_address(self.b.navigate)
        manifest = self.b.client.execute_script("return browser.runtime.getManifest()", sandbox=None)
        self.assertEqual(manifest["incognito"], "spanning", "the Firefox family's manifest")


if __name__ == "__main__":
    unittest.main(verbosity=2)
