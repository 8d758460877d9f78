# miga: put miga's shim folder first on PATH, so the apps you chose pause before they open.
# For bash, dash and other POSIX shells (`miga install` adds one line sourcing this file).
# Sourcing it again moves the folder to the front instead of adding it twice.
case "${XDG_DATA_HOME:-}" in
    /*) _miga_shims="$XDG_DATA_HOME/miga/bin" ;;
    *) _miga_shims="$HOME/.local/share/miga/bin" ;; # unset or relative: the XDG default
esac
_miga_rest=
_miga_ifs=$IFS
IFS=:
# Split PATH on ':' only: no filename expansion of its entries (restored afterwards).
case $- in *f*) _miga_glob=off ;; *) _miga_glob=on; set -f ;; esac
for _miga_dir in $PATH; do
    [ "$_miga_dir" = "$_miga_shims" ] || _miga_rest="${_miga_rest:+$_miga_rest:}$_miga_dir"
done
[ "$_miga_glob" = on ] && set +f
IFS=$_miga_ifs
PATH="$_miga_shims${_miga_rest:+:$_miga_rest}"
export PATH
unset _miga_shims _miga_rest _miga_ifs _miga_dir _miga_glob
# bash and zsh remember where commands are; forget, so a new shim is found at once.
hash -r 2>/dev/null || true
