#!/bin/sh
# Writes data/launch.order: the functions a launch runs (a gate to its frame and its Exit, a
# pass-through, a grace pass, `open-url`), which `make release` has the linker lay out
# together at the front of miga's code. The kernel maps a program's code 64 KiB around each
# page it first runs, so code a launch runs scattered over the 14 MB of functions made every
# gate resident in 8.5 MB of it; laid out together, a few. A function missing from the list
# (new since it was made) only lands where the linker would have put it anyway, so the list
# is made again now and then, not with every change: `scripts/make-order-file.sh`.
set -eu
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "make-order-file: needs valgrind (apt install valgrind)" >&2; exit 1; }
# The release build's own flags, with its symbols kept (valgrind cannot read lld's debug
# information: only the symbol table is kept).
touch data/launch.order # the first time
flags=$(make -s -n release | tail -1 | sed -e 's/^.*swift-build.sh //' -e 's/-Xlinker -s //')
# shellcheck disable=SC2086 # the flags are words
scripts/swift-build.sh $flags --product miga >/dev/null
symbols=$(mktemp)
trap 'rm -f "$symbols"' EXIT
strip --strip-debug -o "$symbols" .build/release/miga
chmod 755 "$symbols"
kept=$(KEEP=1 MIGA="$symbols" bash bench/instructions.sh 2>&1 >/dev/null | sed -n 's/^kept //p')
[ -d "$kept" ] || { echo "make-order-file: bench/instructions.sh kept no profiles" >&2; exit 1; }
# Every function named in the profiles ("fn=(id) name" the first time one appears), miga's
# own and the static Swift runtime's; the C library's are not ours to place.
cat "$kept"/cg-* | sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' | grep -v -E '^0x|^\(below main\)$' | sort -u > data/launch.order
rm -rf "$kept"
make -s release >/dev/null
echo "data/launch.order: $(wc -l < data/launch.order) functions"
