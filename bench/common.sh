# Sourced by the bench scripts: hyperfine (from Debian when missing), the release build they
# measure (the same flags as `make build`), and a work folder removed on exit.
set -eu
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -qq hyperfine >/dev/null; }
make -s release >/dev/null # the flags `make build` uses
miga="$PWD/.build/release/miga"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bench/results
