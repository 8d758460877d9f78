import Foundation

/// Reading and changing `config.toml` on the person's behalf: a file that does not parse is
/// never rewritten, and every change is checked by reading the result back before the atomic
/// write (mode 0600) replaces the file.
public struct ConfigFile {
    public var path: String

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> ConfigLoader.Result {
        try ConfigLoader().load(path: path)
    }

    /// Applies `edit` to the file's text; `expect` must hold for the result, else nothing is
    /// written. Returns the new configuration.
    @discardableResult
    public func update(_ edit: (inout ConfigEditor) -> Void, expect: (MigaConfig) -> Bool) throws -> MigaConfig {
        let text: String
        if let data = AtomicFile.read(path) {
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw InstallError.configNotEditable(path: path, problem: "not UTF-8 text")
            }
            text = decoded
        } else {
            text = ""
        }
        _ = try ConfigLoader().parse(text, path: path) // a broken file is the person's to fix
        var editor = ConfigEditor(text: text)
        edit(&editor)
        let result: MigaConfig
        do {
            result = try ConfigLoader().parse(editor.text, path: path).config
        } catch {
            throw InstallError.configNotEditable(path: path, problem: "the change would not parse (\(error))")
        }
        guard expect(result) else {
            throw InstallError.configNotEditable(path: path, problem: "this setting is written in a form miga cannot change safely")
        }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try LinuxSystem.makeDirectories(folder, mode: 0o700)
            try AtomicFile.write(editor.text, to: path, mode: 0o600)
        } catch {
            throw InstallError.write(path: path, problem: "\(error)")
        }
        return result
    }
}

extension ConfigFile {
    /// The configuration, refusing a file that does not parse (it must be fixed by hand first).
    public func loadForEditing() throws -> MigaConfig {
        try load().config
    }
}
