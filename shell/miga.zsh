# miga: put miga's shim folder first on PATH, so the apps you chose pause before they open.
# For zsh (`miga install` adds one line sourcing this file to ~/.zshrc).
() {
    local shims="$HOME/.local/share/miga/bin"
    [[ "${XDG_DATA_HOME:-}" == /* ]] && shims="$XDG_DATA_HOME/miga/bin"
    # Drop any copy of it (matched literally), keep every other entry, put it first.
    path=("$shims" "${(@)path:#${(b)shims}}")
    rehash
}
