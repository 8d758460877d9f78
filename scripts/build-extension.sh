#!/bin/sh
# The browser extension as each family loads it, from the one source folder `browser/`:
# DEST/chromium and DEST/firefox, each the shared files plus that family's manifest (they differ
# where the browsers do: Chromium's incognito "split" and service worker, Firefox's "spanning",
# background scripts and add-on id). Both load unpacked as written.
# Usage: scripts/build-extension.sh [DEST]   (default .build/browser)
set -eu
cd "$(dirname "$0")/.."
dest=${1:-.build/browser}
shared="background.js protocol.js api.js host.js tabs.js rules.js backstop.js gates.js timeboxes.js overlays.js page-overlays.js gate.html gate.js gate-page.js gate-questions.js gate.css calm.html popup.html popup.js"
for family in chromium firefox; do
    rm -rf "$dest/$family.tmp"
    mkdir -p "$dest/$family.tmp"
    for f in $shared; do cp browser/$f "$dest/$family.tmp/$f"; done
    cp "browser/manifest.$family.json" "$dest/$family.tmp/manifest.json"
    # Swapped in whole, so a browser watching the folder never loads half of it.
    rm -rf "$dest/$family"
    mv "$dest/$family.tmp" "$dest/$family"
done
