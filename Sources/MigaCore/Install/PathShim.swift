/// `~/.local/share/miga/bin/NAME`: the POSIX sh script from `shell/shim.sh` that execs
/// `miga gate --app NAME -- COMMAND "$@"` with miga's absolute path.
public enum PathShim {
    /// The shim made from `template`: its three placeholders each become one quoted word, the
    /// only place the app's name, its command and miga's path appear (never in a comment, where
    /// a line break would start a line of code). Needs nothing but ShellQuoting, so the shim
    /// fuzz target builds it alone.
    public static func text(template: String, migaPath: String, app: String, command: String) -> String {
        ShellQuoting.filled(template, [("@MIGA@", migaPath), ("@NAME@", app), ("@COMMAND@", command)])
    }
}
