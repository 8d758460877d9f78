#!/bin/sh
# `make install PREFIX=…` then `make uninstall PREFIX=…` into a temporary prefix: the release
# binary runs, the man page renders, each shell loads its completions (and completes a
# subcommand), it refuses licences signed with the test key, and uninstall leaves no file behind.
set -eu
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check-make-install: $*" >&2; exit 1; }

make -s install PREFIX="$prefix" >"$prefix/build-log" 2>&1 || { cat "$prefix/build-log" >&2; fail "make install failed"; }
# SwiftPM's warning about GTK's pkg-config flags is explained and dropped (scripts/swift-build.sh).
grep -q "prohibited flag" "$prefix/build-log" && fail "the build printed: $(grep "prohibited flag" "$prefix/build-log")"
# A prefix whose bin is not on PATH (this one) is named, with what to do now.
grep -q "miga is installed in $prefix/bin, which is not on your PATH yet" "$prefix/build-log" \
    || fail "make install did not say that $prefix/bin is not on PATH"
# An unchanged tree does not rebuild: building generate-manual re-ran the content embedder,
# whose rewritten (identical) output made the next `make demo` recompile MigaCore.
make -s release >"$prefix/build-log" 2>&1 || fail "make release failed: $(cat "$prefix/build-log")"
rebuilt=$(grep "Compiling" "$prefix/build-log" | grep -v "Compiling plugin" | tr '\n' ' ' || true)
[ -z "$rebuilt" ] || fail "make release after make install, with no change, rebuilt: $rebuilt"
rm "$prefix/build-log"
"$prefix/bin/miga" --version >/dev/null || fail "installed binary does not run"
MANWIDTH=80 man -l "$prefix/share/man/man1/miga.1" 2>/dev/null | grep -q "open-url" || fail "man page lacks open-url"
out=$(bash -c ". '$prefix/share/bash-completion/completions/miga'
COMP_WORDS=(miga ins); COMP_CWORD=1; COMP_LINE='miga ins'; COMP_POINT=8; _miga; echo \"\${COMPREPLY[*]}\"")
case " $out " in *" install "*" doctor "*) ;; *) fail "bash completion gave '$out'" ;; esac
zsh -f -c "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -Uz compinit; compinit -u -d '$prefix/zcompdump'; (( \$+functions[_miga] ))" \
    || fail "zsh does not find _miga"
out=$(fish --no-config -c "source '$prefix/share/fish/vendor_completions.d/miga.fish'; complete -C 'miga uninst'")
echo "$out" | grep -q "^uninstall" || fail "fish completion gave '$out'"
# The man page says what --help says, dashes and arrows included (generate-manual drops them).
flat() { tr -s ' \n' '  '; }
page=$(MANWIDTH=200 LANG=C.UTF-8 man -l "$prefix/share/man/man1/miga.1" 2>&1 | flat)
helps=$({ "$prefix/bin/miga" --help; "$prefix/bin/miga" gate --help; "$prefix/bin/miga" config --help; } 2>&1 | flat)
for said in "a 15–45 s countdown" "timer_seconds (15–45)" "grace_minutes (0–120)" "↑ ↓ PgUp PgDn j k"; do
    case "$helps" in *"$said"*) ;; *) fail "--help does not say '$said' (this check is stale)" ;; esac
    case "$page" in *"$said"*) ;; *) fail "the man page does not say '$said', as --help does" ;; esac
done
# The extension as browsers load it, and the host link a manifest names.
for family in chromium firefox; do
    for f in .build/browser/$family/*; do
        cmp -s "$f" "$prefix/share/webext/miga/$family/${f##*/}" || fail "make install did not install $f"
    done
done
# The GNOME Shell extension: the 43–44 variant where the shell finds it, the 45+ one beside.
for variant in "43:share/gnome-shell/extensions" "45:lib/miga/gnome-shell-45"; do
    for f in .build/gnome-shell/${variant%%:*}/miga@miga.app/*; do
        cmp -s "$f" "$prefix/${variant#*:}/miga@miga.app/${f##*/}" || fail "make install did not install $f"
    done
done
[ -f "$prefix/share/gnome-shell/extensions/miga@miga.app/extension.js" ] || fail "no GNOME Shell extension installed"
[ "$(readlink -f "$prefix/lib/miga/miga-native-host")" = "$(readlink -f "$prefix/bin/miga")" ] || fail "lib/miga/miga-native-host does not lead to bin/miga"
reply=$(printf '\020\000\000\000{"type":"hello"}' | env -i HOME="$prefix/home" "$prefix/lib/miga/miga-native-host" chrome-extension://x/ | tail -c +5)
case "$reply" in '{"type":"state"'*) ;; *) fail "the host link did not answer as the native host: $reply" ;; esac
# The gate window is its own program: miga itself never links GTK (it would slow every start).
if ldd "$prefix/bin/miga" | grep -q libgtk; then fail "bin/miga links GTK"; fi
# Every launch pays for each shared library: the Swift and C++ runtimes are linked in (Makefile).
if ldd "$prefix/bin/miga" | grep -Eq "swift|libstdc\+\+|Foundation"; then fail "bin/miga loads a shared Swift or C++ runtime"; fi
# readline is loaded only for a prompt (dlopen), so a gate never pays for it.
if ldd "$prefix/bin/miga" | grep -q libreadline; then fail "bin/miga links libreadline at start"; fi
ldd "$prefix/lib/miga/miga-gate-window" | grep -q libgtk-4 || fail "lib/miga/miga-gate-window does not link GTK 4"
# The gate window's hidden entry names the installed window, and miga's icon is beside it.
grep -qx "Exec=$prefix/lib/miga/miga-gate-window" "$prefix/share/applications/app.miga.Gate.desktop" ||
    fail "share/applications/app.miga.Gate.desktop does not start $prefix/lib/miga/miga-gate-window"
desktop-file-validate "$prefix/share/applications/app.miga.Gate.desktop" || fail "app.miga.Gate.desktop is not valid"
cmp -s data/icons/app.miga.Gate.svg "$prefix/share/icons/hicolor/scalable/apps/app.miga.Gate.svg" || fail "make install did not install miga's icon"
# The miga app beside miga, libadwaita's, and its entry (the GNOME Shell indicator's "Open miga").
ldd "$prefix/bin/miga-app" | grep -q libadwaita-1 || fail "bin/miga-app does not link libadwaita"
grep -qx "Exec=$prefix/bin/miga-app" "$prefix/share/applications/app.miga.Miga.desktop" ||
    fail "share/applications/app.miga.Miga.desktop does not start $prefix/bin/miga-app"
desktop-file-validate "$prefix/share/applications/app.miga.Miga.desktop" || fail "app.miga.Miga.desktop is not valid"
status=0; env -i HOME="$prefix/home" "$prefix/lib/miga/miga-gate-window" --check 2>/dev/null || status=$?
[ "$status" -eq 2 ] || fail "miga-gate-window --check without a display gave $status, not 2"
# Release builds trust only the compiled-in production key: a licence signed with the test
# key (which debug builds accept, for the tests) must be refused.
[ -x .build/debug/miga-license ] || swift build --product miga-license >/dev/null
.build/debug/miga-license sign --private-key Tests/Fixtures/license/test-signing-key --licensee Test > "$prefix/test.license"
mkdir -p "$prefix/home"
if env -i HOME="$prefix/home" "$prefix/bin/miga" license activate "$prefix/test.license" 2>"$prefix/err"; then
    fail "the release binary accepted a licence signed with the test key"
fi
grep -q "signature does not match" "$prefix/err" || fail "unexpected refusal: $(cat "$prefix/err")"
make -s uninstall PREFIX="$prefix" >/dev/null 2>"$prefix/err" || fail "make uninstall failed: $(cat "$prefix/err")"
[ -s "$prefix/err" ] && fail "make uninstall said: $(cat "$prefix/err")"
rm -rf "$prefix/home" "$prefix/test.license" "$prefix/err"
left=$(find "$prefix" \( -type f -o -type l \) ! -name zcompdump)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "make install/uninstall: ok"
