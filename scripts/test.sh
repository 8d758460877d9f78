#!/bin/sh
# Checks the code layout, builds miga and runs every test (unit tests, and the built binary
# in temporary homes driven through tmux), in parallel, then the browser extension in real
# browsers and the GNOME Shell extension in a real, headless GNOME Shell, then checks
# `make install`/`make uninstall` and the Debian package (`make deb`, lintian, apt install,
# apt purge; it needs root or sudo, as installing any package does).
set -eu
cd "$(dirname "$0")/.."
# The code layout's rules (which target may use what), in a second, before anything is built.
python3 scripts/check-layers.py
# Files and functions of a size a reader can hold (its allow-list says what is larger, and why).
python3 scripts/check-sizes.py
scripts/swift-build.sh --build-tests
status=0
# Syncthing (deps.sh installs it) is the sync tests' other machine, and FUSE their sync folder
# that stops answering (HungSyncFolderTests), Xvfb with openbox the X11 watcher's desktop, GNOME
# Shell's settings schema what `install` switches on: missing, they fail, not skip.
MIGA_REQUIRE_SYNCTHING=1 MIGA_REQUIRE_FUSE=1 MIGA_REQUIRE_X11=1 MIGA_REQUIRE_GNOME_SHELL=1 scripts/run-suite.sh || status=$?
# The extension and the native host in real Chromium and Firefox (installed by deps.sh).
MIGA_REQUIRE_BROWSERS=1 scripts/browser-tests.sh || status=1
# The GNOME Shell extension in a real GNOME Shell, headless (installed by deps.sh).
MIGA_REQUIRE_GNOME_SHELL=1 scripts/gnome-tests.sh || status=1
[ "$status" -eq 0 ] && scripts/check-make-install.sh || status=1
[ "$status" -eq 0 ] && scripts/check-deb.sh || status=1
exit "$status"
