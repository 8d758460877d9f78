extension PathShim {
    /// The shim as miga writes it, from `shell/shim.sh` as compiled in.
    public static func text(migaPath: String, app: String, command: String) -> String {
        text(template: ShellIntegration.bundled("shim.sh"), migaPath: migaPath, app: app, command: command)
    }
}
