#!/bin/sh
# Installs the Debian packages miga's build and tests need, when they are missing.
# Swift itself (6.0 or newer) must already be on PATH: see swift.org/install.
set -eu
needed="g++ bash-completion libreadline-dev libsqlite3-dev libidn2-dev pkg-config sqlite3 tmux procps desktop-file-utils libglib2.0-bin man-db zsh fish xvfb xterm xdotool chromium chromium-driver firefox-esr libgtk-4-dev imagemagick debhelper fakeroot lintian dpkg-dev"
missing=""
for package in $needed; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
# The browser tests drive real browsers: selenium (Chromium) and marionette_driver (Firefox).
# (Debian's own python3 refuses pip installs outside a venv; there they go to ~/.local.)
python3 -c 'import selenium, marionette_driver' 2>/dev/null ||
    python3 -m pip install -q --disable-pip-version-check selenium marionette_driver >&2 ||
    python3 -m pip install -q --disable-pip-version-check --user --break-system-packages selenium marionette_driver >&2
[ -z "$missing" ] && exit 0
echo "miga: installing$missing" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
