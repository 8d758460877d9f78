#!/bin/sh
# After `make install`: when the prefix's bin folder is not on this shell's PATH, says so and
# what to do now, since `miga` would be "command not found". Debian's ~/.profile adds
# ~/.local/bin, but only at the next login and only if the folder existed then.
# Usage: scripts/path-note.sh BIN
bin=${1%/}
case ":${PATH:-}:" in *":$bin:"* | *":$bin/:"*) exit 0 ;; esac
shown=$bin
[ -n "${HOME:-}" ] && case $bin in "$HOME"/*) shown="\$HOME${bin#"$HOME"}" ;; esac
if [ -n "${HOME:-}" ] && [ "$bin" = "$HOME/.local/bin" ]; then
    later="from your next login on, Debian's ~/.profile adds it by itself"
else
    later="add that line to ~/.profile to keep it"
fi
echo "miga is installed in $bin, which is not on your PATH yet: run  export PATH=\"$shown:\$PATH\"  in this shell now; $later."
