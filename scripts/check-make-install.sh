#!/bin/sh
# `make install PREFIX=…` then `make uninstall PREFIX=…` into a temporary prefix: the release
# binary runs, the man page renders, each shell loads its completions (and completes a
# subcommand), and uninstall leaves no file behind.
set -eu
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check-make-install: $*" >&2; exit 1; }

make -s install PREFIX="$prefix" >/dev/null
"$prefix/bin/miga" --version >/dev/null || fail "installed binary does not run"
MANWIDTH=80 man -l "$prefix/share/man/man1/miga.1" 2>/dev/null | grep -q "open-url" || fail "man page lacks open-url"
out=$(bash -c ". '$prefix/share/bash-completion/completions/miga'
COMP_WORDS=(miga ins); COMP_CWORD=1; COMP_LINE='miga ins'; COMP_POINT=8; _miga; echo \"\${COMPREPLY[*]}\"")
case " $out " in *" install "*" doctor "*) ;; *) fail "bash completion gave '$out'" ;; esac
zsh -f -c "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -Uz compinit; compinit -u -d '$prefix/zcompdump'; (( \$+functions[_miga] ))" \
    || fail "zsh does not find _miga"
out=$(fish --no-config -c "source '$prefix/share/fish/vendor_completions.d/miga.fish'; complete -C 'miga uninst'")
echo "$out" | grep -q "^uninstall" || fail "fish completion gave '$out'"
make -s uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f ! -name zcompdump)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "make install/uninstall: ok"
