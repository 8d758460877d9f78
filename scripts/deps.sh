#!/bin/sh
# Installs the Debian packages miga's build and tests need, when they are missing.
# Swift itself (6.0 or newer) must already be on PATH: see swift.org/install.
set -eu
needed="libreadline-dev libsqlite3-dev libidn2-dev pkg-config sqlite3 tmux procps desktop-file-utils libglib2.0-bin man-db zsh fish xvfb xterm xdotool"
missing=""
for package in $needed; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing="$missing $package"
done
[ -z "$missing" ] && exit 0
echo "miga: installing$missing" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
