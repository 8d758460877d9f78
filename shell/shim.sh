#!/bin/sh
# miga PATH shim for @NAME@: shows the gateway, then runs the real @COMMAND@ with these
# arguments. miga skips this folder when it looks for @COMMAND@, so it never finds itself.
if [ -x '@MIGA@' ]; then exec '@MIGA@' gate --app '@NAME@' -- '@COMMAND@' "$@"; fi
# miga is gone (removed or moved without `miga uninstall`): the app opens all the same, found
# on PATH past this folder (and past links into it), as miga would have found it.
command='@COMMAND@'
case $command in */*) exec "$command" "$@" ;; esac
here=$(cd -P "${0%/*}" 2>/dev/null && pwd)
rest=$PATH:
while [ -n "$rest" ]; do
    folder=${rest%%:*}
    rest=${rest#*:}
    candidate=${folder:-.}/$command
    [ -f "$candidate" ] && [ -x "$candidate" ] || continue
    real=$(readlink -f "$candidate" 2>/dev/null) || real=$candidate
    [ "${real%/*}" = "$here" ] && continue
    exec "$candidate" "$@"
done
echo "$command: command not found (and miga is no longer at @MIGA@)" >&2
exit 127
