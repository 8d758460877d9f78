#!/bin/sh
# miga PATH shim: shows the gateway for the app named below, then runs the app's real
# command with these arguments. miga skips this folder when it looks for that command, so it
# never finds itself. The three values are miga's, each written as one quoted word.
name=@NAME@
command=@COMMAND@
miga=@MIGA@
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
    if [ "${MIGA_GATED-}" = "$name" ] || [ -x "$miga" ]; then echo "$command: command not found" >&2; else
    echo "$command: command not found (and miga is no longer at $miga)" >&2; fi
    exit 127
}
# MIGA_GATED names the app a gate opened: that app starting itself again passes straight
# through; anything else it starts that is gated (a gated terminal running another gated
# app) shows that app's own gate.
if [ "${MIGA_GATED-}" != "$name" ] && [ -x "$miga" ]; then
    # Grace after an Open: the gate left stamps (NAME.until's time is the grace's end), so the
    # pass needs no miga; it is kept as a file in miga's spool, which miga folds into its
    # events. Not when config.toml or the licence changed since the Open (NAME.since).
    # Folders as miga finds them: XDG values only when absolute, else below an absolute HOME.
    case ${XDG_RUNTIME_DIR-} in /*) grace=$XDG_RUNTIME_DIR/miga/grace/$name ;; *) grace= ;; esac
    case ${HOME-} in /*) home=$HOME ;; *) home= ;; esac
    case ${XDG_CONFIG_HOME-} in /*) settings=$XDG_CONFIG_HOME/miga ;; *) settings=${home:+$home/.config/miga} ;; esac
    case ${XDG_DATA_HOME-} in /*) spool=$XDG_DATA_HOME/miga/spool ;; *) spool=${home:+$home/.local/share/miga/spool} ;; esac
    if [ -n "$grace" ] && [ -n "$settings" ] && [ -n "$spool" ] && [ -f "$grace.since" ]; then
        if [ -d "$spool" ] && ! [ "$settings/config.toml" -nt "$grace.since" ] && ! [ "$settings/entitlement.json" -nt "$grace.since" ]; then
            up=0; read -r up _ < /proc/uptime 2>/dev/null
            pass=$spool/grace-$up-$$
            # A `.since` newer than now was stamped by a clock since set back (or not by miga):
            # its grace is not believed, and miga decides.
            if : > "$pass" 2>/dev/null && [ "$grace.until" -nt "$pass" ] && ! [ "$grace.since" -nt "$pass" ] \
                && printf '%s\n' "$name" > "$pass"; then
                # On a terminal a pass says so (a person might wonder where the pause went).
                # Digits checked before any arithmetic: a failed `date` must never stop the app.
                if [ -t 2 ] && end=$(date -r "$grace.until" +%s 2>/dev/null) && now=$(date +%s 2>/dev/null); then
                    case $end$now in
                    *[!0-9]*) ;;
                    ?*) left=$(( (end - now + 59) / 60 )); [ "$left" -gt 0 ] && echo "miga: grace for $name, $left min left" >&2 ;;
                    esac
                fi
                run "$@"
            fi
        fi
    fi
    exec "$miga" gate --app "$name" -- "$command" "$@"
fi
run "$@"
