#!/bin/sh
# `make deb`, then the package as a person meets it: lintian finds nothing (errors, warnings,
# pedantic and info tags alike), `apt install ./miga_*.deb` installs it, the installed miga
# runs, its man page is found, a gate runs in a terminal (tmux), the extension and the host
# manifests are where browsers look, installing wrote into no home; then `apt purge` leaves
# none of its files, and a person's shims still open their apps without it.
set -eu
cd "$(dirname "$0")/.."
fail() { echo "check-deb: $*" >&2; exit 1; }
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
version=$(sed -n 's/.*current = "\(.*\)"/\1/p' Sources/MigaCore/Version.swift)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb="miga_${version}_${arch}.deb"
work=$(mktemp -d)
cleanup() {
    tmux -L miga-deb kill-server 2>/dev/null || true
    dpkg-query -W miga >/dev/null 2>&1 && $sudo apt-get purge -y -qq miga >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

rm -f "$deb"
make -s deb >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; fail "make deb failed"; }
[ -f "$deb" ] || fail "make deb did not leave $deb here"
lintian --pedantic --info --display-experimental --fail-on error,warning,info,pedantic "$deb" >"$work/lintian" 2>&1 ||
    { cat "$work/lintian" >&2; fail "lintian is not clean"; }
grep -E '^[EWIPX]:' "$work/lintian" && fail "lintian reported tags"

dpkg-query -W miga >/dev/null 2>&1 && fail "miga is already installed as a package; remove it first"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; fail "apt install ./$deb failed"; }
dpkg -L miga > "$work/files"

# The program, its man page, its completions.
[ "$(/usr/bin/miga --version)" = "$version" ] || fail "/usr/bin/miga --version is not $version"
[ "$(man -w miga)" = /usr/share/man/man1/miga.1.gz ] || fail "man -w miga gave $(man -w miga)"
MANWIDTH=80 man miga 2>"$work/man.err" | grep -q "open-url" || fail "the man page does not render"
[ -s "$work/man.err" ] && { cat "$work/man.err" >&2; fail "man complained"; }
for f in /usr/share/bash-completion/completions/miga /usr/share/zsh/vendor-completions/_miga \
         /usr/share/fish/vendor_completions.d/miga.fish /usr/share/doc/miga/copyright /usr/share/doc/miga/changelog.gz \
         /usr/share/doc/miga/README.md.gz /usr/share/doc/miga/DETAILS.md.gz /usr/lib/miga/miga-gate-window \
         /usr/share/applications/app.miga.Gate.desktop /usr/share/icons/hicolor/scalable/apps/app.miga.Gate.svg \
         /usr/bin/miga-app /usr/share/applications/app.miga.Miga.desktop; do
    [ -f "$f" ] || fail "$f is missing"
done
out=$(bash -c ". /usr/share/bash-completion/completions/miga
COMP_WORDS=(miga sta); COMP_CWORD=1; COMP_LINE='miga sta'; COMP_POINT=8; _miga; echo \"\${COMPREPLY[*]}\"")
case " $out " in *" stats status "*) ;; *) fail "bash completion gave '$out'" ;; esac
if ldd /usr/bin/miga | grep -Eq "swift|libstdc\+\+"; then fail "/usr/bin/miga loads a shared Swift or C++ runtime"; fi

# The extension where Debian's webext packages keep theirs, linked for both browsers.
# Each family gets its own manifest (Chromium "split", Firefox "spanning").
for family in chromium firefox; do
    for f in .build/browser/$family/*; do
        cmp -s "$f" "/usr/share/webext/miga/$family/${f##*/}" || fail "/usr/share/webext/miga/$family lacks ${f##*/}"
    done
done
[ "$(readlink -f /usr/share/chromium/extensions/miga)" = /usr/share/webext/miga/chromium ] || fail "Chromium's extension link"
[ "$(readlink -f '/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/miga@miga.app')" = /usr/share/webext/miga/firefox ] ||
    fail "Firefox's extension link"
# The GNOME Shell extension where the shell finds system extensions, and the 45+ variant.
for variant in "43:/usr/share/gnome-shell/extensions" "45:/usr/lib/miga/gnome-shell-45"; do
    for f in .build/gnome-shell/${variant%%:*}/miga@miga.app/*; do
        cmp -s "$f" "${variant#*:}/miga@miga.app/${f##*/}" || fail "${variant#*:}/miga@miga.app lacks ${f##*/}"
    done
done
# System host manifests, naming a path that starts miga as the host (the path takes no arguments).
for manifest in /usr/lib/mozilla/native-messaging-hosts/miga.gateway.json /etc/chromium/native-messaging-hosts/miga.gateway.json; do
    python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["name"]=="miga.gateway" and m["path"]=="/usr/lib/miga/miga-native-host" and m["type"]=="stdio", m' \
        "$manifest" || fail "$manifest is not miga's host manifest"
done
grep -qx "/etc/chromium/native-messaging-hosts/miga.gateway.json" /var/lib/dpkg/info/miga.conffiles || fail "the /etc manifest is not a conffile"
mkdir -p "$work/fresh"
reply=$(printf '\020\000\000\000{"type":"hello"}' | env -i HOME="$work/fresh" /usr/lib/miga/miga-native-host chrome-extension://ofokomeiepojclgahgdjidagbanoehml/ | tail -c +5)
case "$reply" in *'"gating":false'*'"reason":"not_set_up"'*) ;; *) fail "the host, before miga install, answered: $reply" ;; esac
# The packaged extension is active in Debian's own browsers with no step of the person's:
# chromium through its wrapper, firefox-esr from /usr/share/mozilla/extensions in a fresh
# profile; in each, a gated site shows the pause (Tests/Browser/test_packaged.py).
if ! MIGA_BIN=/usr/bin/miga MIGA_REQUIRE_BROWSERS=1 python3 Tests/Browser/run_tests.py test_packaged.py >"$work/packaged.log" 2>&1; then
    grep -v -e '^\[' -e '^console' "$work/packaged.log" | tail -40 >&2
    fail "the packaged extension did not gate in Debian's chromium and firefox-esr"
fi
# Installing touches no home: the package has no maintainer script that could, and a home that
# never ran `miga install` is left as it was by the host (no trial started, nothing written).
for script in preinst postinst prerm postrm; do [ -e "/var/lib/dpkg/info/miga.$script" ] && fail "the package has a $script"; done
[ -z "$(find "$work/fresh" -mindepth 1)" ] || fail "the host wrote into a home: $(find "$work/fresh" -mindepth 1)"
grep -qE '^/(home|root)' "$work/files" && fail "the package installs into a home"
status=0; env -i HOME="$work/fresh" /usr/lib/miga/miga-gate-window --check 2>/dev/null || status=$?
[ "$status" -eq 2 ] || fail "the installed window's --check without a display gave $status, not 2"

# A gate from the installed binary, in a terminal.
home="$work/home"
mkdir -p "$home/.config/miga"
printf 'timer_seconds = 15\nanimations = false\n' > "$home/.config/miga/config.toml"
tmux -L miga-deb -f /dev/null new-session -d -x 80 -y 24 \
    "env -i HOME=$home PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 /usr/bin/miga gate --app demo -- /bin/echo opened; echo STATUS=\$?; sleep 30"
seen=""
for _ in $(seq 100); do
    seen=$(tmux -L miga-deb capture-pane -p)
    case "$seen" in *"[e] Exit"*) break ;; esac
    sleep 0.1
done
case "$seen" in *"miga · demo"*"[e] Exit"*) ;; *) fail "no gate on screen: $seen" ;; esac
tmux -L miga-deb send-keys e
for _ in $(seq 50); do
    seen=$(tmux -L miga-deb capture-pane -p)
    case "$seen" in *STATUS=0*) break ;; esac
    sleep 0.1
done
case "$seen" in *STATUS=0*) ;; *) fail "the gate did not end on e: $seen" ;; esac
case "$seen" in *opened*) fail "Exit opened the app" ;; esac
events=$(sqlite3 "$home/.local/share/miga/miga.sqlite3" "SELECT group_concat(type, ' ') FROM (SELECT type FROM events ORDER BY id)")
[ "$events" = "session_start exit_selected" ] || fail "the gate recorded: $events"

# Someone's shims, made by the installed miga, then the package removed.
mkdir -p "$work/apps"
printf '#!/bin/sh\necho "the app ran: $*"\n' > "$work/apps/chatapp"
chmod 755 "$work/apps/chatapp"
user="$work/user"
mkdir -p "$user"
env -i HOME="$user" PATH="$work/apps:/usr/bin:/bin" /usr/bin/miga config apps add chatapp >/dev/null
env -i HOME="$user" PATH="$work/apps:/usr/bin:/bin" /usr/bin/miga install >/dev/null 2>&1 || fail "miga install failed"
shim="$user/.local/share/miga/bin/chatapp"
[ -x "$shim" ] || fail "miga install made no shim"

$sudo apt-get purge -y -qq miga >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "apt purge failed"; }
left=""
while read -r path; do
    [ -d "$path" ] && [ ! -L "$path" ] && continue # shared folders (/usr/share/man/man1 …) stay
    { [ -e "$path" ] || [ -L "$path" ]; } && left="$left $path"
done < "$work/files"
for folder in /usr/lib/miga /usr/share/webext/miga /usr/share/doc/miga /usr/share/gnome-shell/extensions/miga@miga.app; do [ -e "$folder" ] && left="$left $folder"; done
[ -z "$left" ] || fail "apt purge left:$left"
out=$(env -i HOME="$user" PATH="$work/apps:/usr/bin:/bin" "$shim" one "two words" 2>/dev/null) || fail "the shim failed without miga"
[ "$out" = "the app ran: one two words" ] || fail "the shim without miga gave: $out"
echo "make deb: ok ($deb, lintian clean, installed, gate ran, purged without a trace, shims still open apps)"
