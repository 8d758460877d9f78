#!/bin/sh
# The browser extension as each family loads it, from the one source folder `browser/`:
# DEST/chromium and DEST/firefox, each the shared files plus that family's manifest (they differ
# where the browsers do: Chromium's incognito "split" and service worker, Firefox's "spanning",
# background scripts and add-on id). Both load unpacked as written.
# It also builds page-gate-overlay.js, the gate over a page: one classic script (an injected
# script cannot be an ES module) made of the gate page's own modules, so there is one gate.
# Usage: scripts/build-extension.sh [DEST]   (default .build/browser)
set -eu
cd "$(dirname "$0")/.."
dest=${1:-.build/browser}
shared="background.js protocol.js api.js host.js tabs.js rules.js backstop.js gates.js timeboxes.js overlays.js page-overlays.js page-gate.js focus.js budget.js gate.html gate.js gate-tab.js gate-overlay.js gate-page.js gate-questions.js gate.css calm.html popup.html popup.js"
# The overlay's modules, each after those it imports; gate-overlay.js is its entry.
overlay_modules="gate-page.js gate-questions.js gate.js gate-overlay.js"

# A module's text as part of one script: its imports (single or several lines) go, `export`
# goes from its declarations. The modules import only each other.
module_body() {
    awk '
        skipping { if ($0 ~ /;[ \t]*$/) skipping = 0; next }
        /^import / { if ($0 !~ /;[ \t]*$/) skipping = 1; next }
        { sub(/^export /, ""); print }
    ' "$1"
}

# Text as a JavaScript template literal: backslashes, backquotes and "${" escaped.
template_literal() {
    printf '`'
    sed -e 's/\\/\\\\/g' -e 's/`/\\`/g' -e 's/\${/\\${/g' "$@"
    printf '`'
}

# page-gate-overlay.js: gate.html's <main> as GATE_MARKUP, gate.css as GATE_CSS (its rem as em:
# inside a page, rem would be the page's root font size), then the modules, in one function
# scope so the page and a second injection share nothing. Two modules declaring the same
# top-level name would collide here: the build stops instead.
build_overlay() {
    out=$1
    dupes=$(for f in $overlay_modules; do module_body "browser/$f"; done |
        sed -n -e 's/^\(async \)\{0,1\}function\*\{0,1\} \([A-Za-z_$][A-Za-z0-9_$]*\).*/\2/p' \
               -e 's/^const \([A-Za-z_$][A-Za-z0-9_$]*\).*/\1/p' -e 's/^let \([A-Za-z_$][A-Za-z0-9_$]*\).*/\1/p' \
               -e 's/^var \([A-Za-z_$][A-Za-z0-9_$]*\).*/\1/p' -e 's/^class \([A-Za-z_$][A-Za-z0-9_$]*\).*/\1/p' | sort | uniq -d)
    if [ -n "$dupes" ]; then
        echo "build-extension: the gate's modules both declare: $dupes (rename one)" >&2
        exit 1
    fi
    grep -q '<main>' browser/gate.html && grep -q '</main>' browser/gate.html ||
        { echo "build-extension: browser/gate.html has no <main>" >&2; exit 1; }
    {
        echo "// Built by scripts/build-extension.sh from browser/$(echo $overlay_modules | sed 's| |, browser/|g'),"
        echo "// gate.html and gate.css: edit those, not this."
        echo "(() => {"
        echo "\"use strict\";"
        printf 'const GATE_MARKUP = '
        sed -n '/<main>/,/<\/main>/p' browser/gate.html | template_literal
        echo ";"
        printf 'const GATE_CSS = '
        sed -e 's/\([0-9.]\)rem\([^A-Za-z0-9-]\)/\1em\2/g' browser/gate.css | template_literal
        echo ";"
        for f in $overlay_modules; do
            echo "// ---- $f"
            module_body "browser/$f"
        done
        echo "})();"
    } >"$out"
}

for family in chromium firefox; do
    rm -rf "$dest/$family.tmp"
    mkdir -p "$dest/$family.tmp"
    for f in $shared; do cp browser/$f "$dest/$family.tmp/$f"; done
    build_overlay "$dest/$family.tmp/page-gate-overlay.js"
    cp "browser/manifest.$family.json" "$dest/$family.tmp/manifest.json"
    # Swapped in whole, so a browser watching the folder never loads half of it.
    rm -rf "$dest/$family"
    mv "$dest/$family.tmp" "$dest/$family"
done
