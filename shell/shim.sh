#!/bin/sh
# miga PATH shim for @NAME@: shows the gateway, then runs the real @COMMAND@ with these
# arguments. miga skips this folder when it looks for @COMMAND@, so it never finds itself.
if [ "${MIGA_GATED-}" != 1 ] && [ -x '@MIGA@' ]; then exec '@MIGA@' gate --app '@NAME@' -- '@COMMAND@' "$@"; fi
# Started from inside a gate (an app miga opened starts another gated app: MIGA_GATED=1),
# miga would only pass straight through, so the shim does that itself without starting it;
# and when miga is gone (removed or moved without `miga uninstall`) the app opens all the
# same. Either way the program is found as miga finds it: on PATH past this folder and past
# links into it. No subprocess unless a candidate is a symlink.
command='@COMMAND@'
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
inside() { # whether $1, followed through links, is in this folder
    [ "${1%/*}" -ef "$here" ] && return 0
    [ -L "$1" ] || return 1
    real=$(readlink -f "$1" 2>/dev/null) || return 1
    [ "${real%/*}" -ef "$here" ]
}
case $command in
*/*)
    inside "$command" || exec "$command" "$@"
    command=${command##*/} ;; # the app's command is a shim of miga's: the real program of that name
esac
rest=$PATH:
while [ -n "$rest" ]; do
    folder=${rest%%:*}
    rest=${rest#*:}
    candidate=${folder:-.}/$command
    [ -f "$candidate" ] && [ -x "$candidate" ] || continue
    inside "$candidate" && continue
    exec "$candidate" "$@"
done
if [ "${MIGA_GATED-}" = 1 ]; then echo "$command: command not found" >&2; else
echo "$command: command not found (and miga is no longer at @MIGA@)" >&2; fi
exit 127
