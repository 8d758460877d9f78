/// `~/.local/share/miga/bin/NAME`: the POSIX sh script from `shell/shim.sh` that execs
/// `miga gate --app NAME -- COMMAND "$@"` with miga's absolute path.
public enum PathShim {
    public static func text(migaPath: String, app: String, command: String) -> String {
        // The template puts each value inside single quotes; a quote inside one is closed,
        // escaped and reopened, so any path survives.
        func quoted(_ text: String) -> String { text.replacingEvery("'", with: "'\\''") }
        return ShellIntegration.bundled("shim.sh")
            .replacingEvery("@MIGA@", with: quoted(migaPath))
            .replacingEvery("@NAME@", with: app)
            .replacingEvery("@COMMAND@", with: quoted(command))
    }
}
