#!/bin/sh
# Installs the Debian packages a task needs, when they are missing.
# Usage: scripts/deps.sh [build|deb|test]   (test, the default, is all of them)
#   build  what `make demo` and `make install` need: the compiler's C++ side and the C
#          libraries miga builds against (GTK 4 for the gate window)
#   deb    build, plus what `make deb` packages with
#   test   deb, plus the test tools: shells, tmux, a virtual X server with a window manager (openbox), real browsers, lintian,
#          Syncthing (the sync tests), FUSE (a sync folder that stops answering), GNOME Shell
#          (run headless by the desktop tests), and selenium and marionette_driver from PyPI
# Swift itself (6.0 or newer) must already be on PATH: see swift.org/install. Without it,
# this says so in one line, before anything is installed or built.
set -eu
set=${1:-test}
swift=${SWIFT:-swift}
install_swift="install it from https://www.swift.org/install/linux/ (swiftly, or the toolchain for Debian), put its usr/bin on PATH, then run make again"
if ! command -v "$swift" >/dev/null 2>&1; then
    echo "miga is built with Swift 6.0 or newer, and there is no '$swift' on PATH: $install_swift" >&2
    exit 1
fi
version=$("$swift" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
if [ "${version%%.*}" -lt 6 ] 2>/dev/null; then
    echo "miga is built with Swift 6.0 or newer, and '$swift' is Swift $version: $install_swift" >&2
    exit 1
fi
build="g++ libreadline-dev libsqlite3-dev libidn2-dev pkg-config libgtk-4-dev libadwaita-1-dev"
deb="$build debhelper fakeroot dpkg-dev"
test="$deb bash-completion sqlite3 tmux procps desktop-file-utils libglib2.0-bin man-db zsh fish xvfb x11-utils python3-gi gir1.2-atspi-2.0 at-spi2-core xterm xdotool chromium chromium-driver firefox-esr imagemagick lintian syncthing fuse3 libfuse3-dev nodejs gnome-shell dbus-daemon gjs gir1.2-gtk-4.0"
case $set in
    build) needed=$build ;;
    deb) needed=$deb ;;
    test) needed="$test openbox libxcb-screensaver0 libxcb-sync1 x11-utils" ;;  # + miga watch's X11 tests: an EWMH window manager, idleness (and its alarm)
    *) echo "deps.sh: no set '$set'; use build, deb or test" >&2; exit 2 ;;
esac
missing=""
for package in $needed; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
if [ "$set" = test ]; then
    # The browser tests drive real browsers: selenium (Chromium) and marionette_driver (Firefox).
    # (Debian's own python3 refuses pip installs outside a venv; there they go to ~/.local.)
    python3 -c 'import selenium, marionette_driver' 2>/dev/null ||
        python3 -m pip install -q --disable-pip-version-check selenium marionette_driver >&2 ||
        python3 -m pip install -q --disable-pip-version-check --user --break-system-packages selenium marionette_driver >&2
fi
[ -z "$missing" ] && exit 0
echo "miga: installing$missing" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
