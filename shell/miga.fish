# miga: put miga's shim folder first on PATH, so the apps you chose pause before they open.
# For fish (`miga install` adds this to ~/.config/fish/conf.d/). fish finds new commands at
# once; it keeps no command cache to reset.
set -l miga_shims $HOME/.local/share/miga/bin
if string match -q -- '/*' "$XDG_DATA_HOME"
    set miga_shims $XDG_DATA_HOME/miga/bin
end
while set -l index (contains -i -- $miga_shims $PATH)
    set -e PATH[$index]
end
set -gx PATH $miga_shims $PATH
