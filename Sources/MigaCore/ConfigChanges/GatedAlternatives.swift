/// `miga config alternatives add/remove/list`: the "Do this instead" tables in config.toml,
/// written as the person would write them, under the config's lock.
public struct GatedAlternatives {
    public var context: MigaContext

    public init(context: MigaContext) {
        self.context = context
    }

    private var file: ConfigFile { ConfigFile(path: context.paths.configFile, files: context.files) }

    public func list() throws -> [Alternative] {
        try file.loadForEditing().alternatives
    }

    /// Appends one; checked as the loader checks a table, so what is written is read back whole.
    @discardableResult
    public func add(label: String, command: String?, url: String?, apps: [String], sites: [String]) throws -> Alternative {
        let alternative = try Alternative.make(label: label, command: command, url: url, apps: apps, sites: sites, index: 0,
                                               in: try file.loadForEditing())
        try Installer(context: context).prepareConfigFolder()
        // Counted under the lock: another `add` that landed since the check above still adds one.
        var before = 0
        let written = try file.update(using: { editor, current in
            before = current.alternatives.count
            editor.addAlternative(alternative)
        }, expect: { $0.alternatives.count == before + 1 })
        return written.alternatives.last ?? alternative
    }

    /// Removes the one named by its number in `list` or its label (any case).
    @discardableResult
    public func remove(_ name: String) throws -> Alternative {
        var removed: Alternative?
        try file.update(using: { editor, current in
            guard let found = Self.find(name, in: current.alternatives) else { return }
            removed = found
            editor.removeAlternative(found.index)
        }, expect: { _ in true })
        guard let removed else {
            throw ConfigValueError.unknownAlternative(name, labels: try list().map { "\($0.index). \($0.label)" })
        }
        return removed
    }

    /// By its number (1 = the first table) or by its label.
    public static func find(_ name: String, in alternatives: [Alternative]) -> Alternative? {
        if let number = Int(name) { return alternatives.first { $0.index == number } }
        return alternatives.first { $0.label.lowercased() == name.lowercased() }
    }
}
