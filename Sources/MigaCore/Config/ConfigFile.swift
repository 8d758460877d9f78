import FoundationEssentials

/// Reading and changing `config.toml` on the person's behalf: a file that does not parse is
/// never rewritten, and every change is checked by reading the result back before the atomic
/// write (mode 0600) replaces the file.
public struct ConfigFile {
    public var path: String
    /// Where its folder is made and its lock taken.
    public var files: any FileService

    public init(path: String, files: any FileService = SystemFiles()) {
        self.path = path
        self.files = files
    }

    public func load() throws -> ConfigLoader.Result {
        try ConfigLoader().load(path: path)
    }

    /// Applies `edit` to the file's text; `expect` must hold for the result, else nothing is
    /// written. Returns the new configuration.
    @discardableResult
    public func update(_ edit: (inout ConfigEditor) -> Void, expect: (MigaConfig) -> Bool) throws -> MigaConfig {
        try update(using: { editor, _ in edit(&editor) }, expect: expect)
    }

    /// `update`, with `edit` given the configuration as the file holds it under the lock: a
    /// change that builds on the current value (a list with one more site) must start from
    /// there, not from a read made before another edit landed.
    @discardableResult
    public func update(using edit: (inout ConfigEditor, MigaConfig) -> Void, expect: (MigaConfig) -> Bool) throws -> MigaConfig {
        try ConfigLock.holding(folderOf: path, files: files) { try unlockedUpdate(edit, expect: expect) }
    }

    /// The text a config.toml miga makes starts from: a `sites` line, so the new file never
    /// reads as one made before `sites` defaulted to none.
    public static let newFileText = "sites = []\n"

    private func unlockedUpdate(_ edit: (inout ConfigEditor, MigaConfig) -> Void, expect: (MigaConfig) -> Bool) throws -> MigaConfig {
        let text = try ConfigLoader.text(of: path) ?? Self.newFileText
        let current = try ConfigLoader().parse(text, path: path).config // a broken file is the person's to fix
        var editor = ConfigEditor(text: text)
        edit(&editor, current)
        let result = try editor.parsed(path: path)
        guard expect(result) else {
            throw ConfigError.notEditable(path: path, problem: "this setting is written in a form miga cannot change safely")
        }
        try write(editor.text)
        return result
    }

    /// The one way the file is written, by every edit. A result larger than the loader reads
    /// is refused whole: written, it would turn every gate into a fail-open (`config_error`)
    /// and every setting off, with nothing telling the person why.
    fileprivate func write(_ text: String) throws {
        let text = try Self.withSitesLine(text, path: path)
        guard text.utf8.count <= BoundedFile.configLimit else {
            throw ConfigError.tooLarge(path: path, limit: BoundedFile.configLimit)
        }
        do {
            try files.makeDirectories(FilePath.parent(of: path), mode: 0o700)
            try AtomicFile.write(text, to: path, mode: 0o600)
        } catch {
            throw ConfigError.unwritable(path: path, problem: "\(error)")
        }
    }
}

extension ConfigFile {
    /// Said once, at the first command after `writeFormerSitesIn` wrote them.
    public static let formerSitesNote = "miga: your config had no `sites` line; the seven sites miga used to pause are now written in it "
        + "(`miga config sites list`; `miga config sites remove SITE` stops one)"

    /// Every config.toml miga writes holds a `sites` line: without one the text reads as made
    /// before `sites` defaulted to none, so the line written is the sites it reads as holding
    /// (the former seven for such a file), and what the file means does not change.
    static func withSitesLine(_ text: String, path: String) throws -> String {
        let read = try ConfigLoader().parse(text, path: path)
        guard !read.writesSites else { return text }
        var editor = ConfigEditor(text: text)
        editor.setSites(read.config.sites)
        return editor.text
    }

    /// A config.toml made before `sites` defaulted to none (no `sites` line) gets the seven
    /// sites it still gates written in, once; true when this call wrote them. A file that is
    /// missing, does not parse, cannot be read or written, or is locked is left as it is: it
    /// keeps reading as holding them, and the next command tries again.
    public func writeFormerSitesIn() -> Bool {
        func lacksSites() throws -> String? {
            guard let text = try ConfigLoader.text(of: path), !(try ConfigLoader().parse(text, path: path).writesSites) else { return nil }
            return text
        }
        // Looked at first without the lock: nearly every command finds the line there.
        guard (try? lacksSites()) != nil else { return false }
        return (try? ConfigLock.holding(folderOf: path, files: files) { () throws -> Bool in
            guard let text = try lacksSites() else { return false }
            try write(text)
            return true
        }) ?? false
    }

    /// The configuration, refusing a file that does not parse (it must be fixed by hand first).
    public func loadForEditing() throws -> MigaConfig {
        try load().config
    }
}

extension ConfigFile {
    /// `miga config set KEY VALUE`: checked first, then one value changed in place.
    @discardableResult
    public func set(_ name: String, to text: String) throws -> ConfigKeyPath {
        let config = try loadForEditing()
        let path = try ConfigKeys.resolve(name, in: config)
        let value = try ConfigKeys.tomlValue(text, for: path)
        try update({ $0.setValue(value, forKey: path.key, table: path.table) }, expect: { ConfigKeys.toml(path, in: $0) == value })
        return path
    }

    /// The effective configuration as TOML (defaults filled in, each app's timer shown), so
    /// `miga config show > file` gives a file miga reads back the same.
    public static func show(_ config: MigaConfig) -> String {
        var lines = ConfigKeys.topLevel.map { "\($0) = \(ConfigKeys.toml(ConfigKeyPath(app: nil, key: $0), in: config))" }
        for app in config.apps.values.sorted(by: { $0.name < $1.name }) {
            lines.append("")
            lines.append("[apps.\(ConfigEditor.key(app.name))]")
            for key in ConfigKeys.perApp.compactMap(ConfigKeys.key(named:)) {
                let path = ConfigKeyPath(app: app.name, key: key.name)
                if key.setByApp(app) {
                    lines.append("\(key.name) = \(ConfigKeys.toml(path, in: config))")
                } else if key.name == "timer_seconds" { // the one an app most often changes: say what it runs with
                    lines.append("# timer_seconds = \(config.timerSeconds)  (the global timer)")
                }
            }
        }
        for entry in config.siteSettings.values.sorted(by: { $0.name < $1.name }) {
            let keys = ConfigKeys.perSite.compactMap(ConfigKeys.key(named:)).filter { $0.setByApp(entry) }
            guard !keys.isEmpty else { continue }
            lines.append("")
            lines.append("[site.\(ConfigEditor.key(entry.name))]")
            for key in keys { lines.append("\(key.name) = \(ConfigKeys.toml(ConfigKeyPath(app: nil, key: key.name, site: entry.name), in: config))") }
        }
        for schedule in config.schedules {
            lines.append("")
            lines.append("[[schedule]]")
            lines.append("days = \(ConfigEditor.string(schedule.daysText))")
            lines.append("from = \(ConfigEditor.string(Schedule.clock(schedule.from)))")
            lines.append("to = \(ConfigEditor.string(Schedule.clock(schedule.to)))")
            if let timer = schedule.timerSeconds { lines.append("timer_seconds = \(timer)") }
            if !schedule.gate { lines.append("gate = false") }
            if let apps = schedule.apps { lines.append("apps = [" + apps.map(ConfigEditor.string).joined(separator: ", ") + "]") }
        }
        for alternative in config.alternatives {
            lines.append("")
            lines.append(contentsOf: alternative.tomlLines)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Replaces the file with `text` (the editor's save), refusing text that does not parse and
    /// a file someone else changed since `original` was read.
    public func replace(with text: String, original: String?) throws {
        try ConfigLock.holding(folderOf: path, files: files) { try unlockedReplace(with: text, original: original) }
    }

    private func unlockedReplace(with text: String, original: String?) throws {
        let current = AtomicFile.read(path).map { String(decoding: $0, as: UTF8.self) }
        guard current == original else {
            throw ConfigError.notEditable(path: path, problem: "it changed on disk since the editor read it")
        }
        do {
            _ = try ConfigLoader().parse(text, path: path)
        } catch {
            throw ConfigError.notEditable(path: path, problem: "the result would not parse (\(error))")
        }
        try write(text)
    }
}
