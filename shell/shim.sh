#!/bin/sh
# miga PATH shim for @NAME@: shows the gateway, then runs the real @COMMAND@ with these
# arguments. miga skips this folder when it looks for @COMMAND@, so it never finds itself.
command='@COMMAND@'
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
inside() { # whether $1, followed through links, is in this folder
    [ "${1%/*}" -ef "$here" ] && return 0
    [ -L "$1" ] || return 1
    real=$(readlink -f "$1" 2>/dev/null) || return 1
    [ "${real%/*}" -ef "$here" ]
}
# The real program, found as miga finds it: on PATH past this folder and past links into it.
# No subprocess unless a candidate is a symlink.
run() {
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
    if [ "${MIGA_GATED-}" = 1 ] || [ -x '@MIGA@' ]; then echo "$command: command not found" >&2; else
    echo "$command: command not found (and miga is no longer at @MIGA@)" >&2; fi
    exit 127
}
if [ "${MIGA_GATED-}" != 1 ] && [ -x '@MIGA@' ]; then
    # Grace after an Open: the gate left stamps (NAME.until's time is the grace's end), so the
    # pass needs no miga; it is kept as a file in miga's spool, which miga folds into its
    # events. Not when config.toml or the licence changed since the Open (NAME.since).
    # Folders as miga finds them: XDG values only when absolute, else below an absolute HOME.
    case ${XDG_RUNTIME_DIR-} in /*) grace=$XDG_RUNTIME_DIR/miga/grace/@NAME@ ;; *) grace= ;; esac
    case ${HOME-} in /*) home=$HOME ;; *) home= ;; esac
    case ${XDG_CONFIG_HOME-} in /*) settings=$XDG_CONFIG_HOME/miga ;; *) settings=${home:+$home/.config/miga} ;; esac
    case ${XDG_DATA_HOME-} in /*) spool=$XDG_DATA_HOME/miga/spool ;; *) spool=${home:+$home/.local/share/miga/spool} ;; esac
    if [ -n "$grace" ] && [ -n "$settings" ] && [ -n "$spool" ] && [ -f "$grace.since" ]; then
        if [ -d "$spool" ] && ! [ "$settings/config.toml" -nt "$grace.since" ] && ! [ "$settings/entitlement.json" -nt "$grace.since" ]; then
            up=0; read -r up _ < /proc/uptime 2>/dev/null
            pass=$spool/grace-$up-$$
            if : > "$pass" 2>/dev/null && [ "$grace.until" -nt "$pass" ] && echo '@NAME@' > "$pass"; then run "$@"; fi
        fi
    fi
    exec '@MIGA@' gate --app '@NAME@' -- '@COMMAND@' "$@"
fi
run "$@"
