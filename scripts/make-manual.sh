#!/bin/sh
# miga's man page, from its own --help through swift-argument-parser's generate-manual, with the
# characters the help uses and roff cannot take raw (generate-manual drops every non-ASCII
# one: "15–45" became "1545") carried as roff escapes, so the page says what --help says.
# Usage: scripts/make-manual.sh MIGA GENERATE-MANUAL OUTPUT-FOLDER
set -eu
miga=$1 generator=$2 out=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# generate-manual asks the program for its help; this stand-in hands it the help with each
# such character as an ASCII token, which the page then gets as its escape.
cat > "$work/miga" <<WRAPPER
#!/bin/sh
"$miga" "\$@" | sed -e 's/–/@en@/g; s/—/@em@/g; s/↑/@ua@/g; s/↓/@da@/g; s/…/@el@/g; s/·/@pc@/g; s/→/@ra@/g'
WRAPPER
chmod +x "$work/miga"
rm -rf "$out" && mkdir -p "$out"
"$generator" "$work/miga" --output-directory "$out"
# A blank line is not a paragraph break to groff (it warns); .Pp is.
sed -i -e 's/^$/.Pp/' \
    -e 's/@en@/\\(en/g; s/@em@/\\(em/g; s/@ua@/\\(ua/g; s/@da@/\\(da/g; s/@el@/\\[u2026]/g; s/@pc@/\\(pc/g; s/@ra@/\\(->/g' \
    "$out/miga.1"
if grep -q '@[a-z][a-z]@' "$out/miga.1"; then
    echo "make-manual: a token was left in the page" >&2
    exit 1
fi
