#!/bin/sh
# The GNOME Shell extension miga@miga.app, both variants from the one source folder
# gnome-shell/miga@miga.app (written for GNOME Shell 43–44 in the classic import style):
#   OUT/43/miga@miga.app   the source as it is (shell-version 43, 44)
#   OUT/45/miga@miga.app   ES modules for GNOME Shell 45 and later: each line between
#                          `// @imports-begin` and `// @imports-end` becomes an import
#                          (imports.gi.X → gi://X, imports.ui.X → resource:///org/gnome/shell/ui/X.js,
#                          Me.imports.X → ./X.js; ExtensionUtils and Me go), top-level
#                          `var X =` becomes `export const X =`, and the `init()` between
#                          `// @entry-begin` and `// @entry-end` becomes the default export,
#                          a subclass of the shell's Extension.
# Usage: scripts/build-gnome-extension.sh OUT   (default .build/gnome-shell)
set -eu
cd "$(dirname "$0")/.."
source=gnome-shell/miga@miga.app
out=${1:-.build/gnome-shell}
uuid=miga@miga.app

rm -rf "$out/43/$uuid" "$out/45/$uuid"
mkdir -p "$out/43/$uuid" "$out/45/$uuid"
cp "$source"/*.js "$source"/metadata.json "$out/43/$uuid/"

# One source file as an ES module.
es_module() {
    awk '
        /^\/\/ @imports-begin/ { imports = 1; next }
        /^\/\/ @imports-end/ { imports = 0; next }
        imports && /^const [A-Za-z_]+ = imports\.gi\.[A-Za-z_]+;/ {
            name = $2; module = $4; sub(/^imports\.gi\./, "", module); sub(/;$/, "", module)
            printf "import %s from '\''gi://%s'\'';\n", name, module; next
        }
        imports && /^const [A-Za-z_]+ = imports\.ui\.[A-Za-z_]+;/ {
            name = $2; module = $4; sub(/^imports\.ui\./, "", module); sub(/;$/, "", module)
            printf "import * as %s from '\''resource:///org/gnome/shell/ui/%s.js'\'';\n", name, module; next
        }
        imports && /^const [A-Za-z_]+ = Me\.imports\.[A-Za-z_]+;/ {
            name = $2; module = $4; sub(/^Me\.imports\./, "", module); sub(/;$/, "", module)
            printf "import * as %s from '\''./%s.js'\'';\n", name, module; next
        }
        imports && /^const (ExtensionUtils|Me) = / { next }
        imports { print "UNTRANSLATED IMPORT: " $0 > "/dev/stderr"; failed = 1; next }
        /^\/\/ @entry-begin/ {
            entry = 1
            print "import {Extension} from '\''resource:///org/gnome/shell/extensions/extension.js'\'';"
            print ""
            print "export default class MigaExtension extends Extension {"
            print "    enable() {"
            print "        this._miga = new MigaShell();"
            print "        this._miga.enable();"
            print "    }"
            print ""
            print "    disable() {"
            print "        this._miga.disable();"
            print "        this._miga = null;"
            print "    }"
            print "}"
            next
        }
        /^\/\/ @entry-end/ { entry = 0; next }
        entry { next }
        /^'\''use strict'\'';$/ { next }
        /^var [A-Za-z_]+ = / { sub(/^var /, "export const "); print; next }
        { print }
        END { exit failed }
    ' "$1"
}

for file in "$source"/*.js; do
    es_module "$file" > "$out/45/$uuid/$(basename "$file")"
done
sed 's/"shell-version": \[[^]]*\]/"shell-version": ["45", "46", "47", "48"]/' "$source/metadata.json" > "$out/45/$uuid/metadata.json"
grep -q '"45"' "$out/45/$uuid/metadata.json"
