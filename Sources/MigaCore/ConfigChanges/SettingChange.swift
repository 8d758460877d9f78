/// One setting changed, as `miga config set KEY VALUE` and the miga app's Settings change it:
/// checked by the key table, written with the person's comments kept, and said the same way
/// everywhere (the value written, sites a list `set` dropped, a loosening that waits, the
/// shims an app's new command made, what a sync folder shares). One rule in one place: every
/// front end changes a setting through here.
public struct SettingChange {
    public var context: MigaContext
    /// How the place the change is made from adds one site (said when a `set` of the site
    /// list dropped some).
    public var addingSite: String

    public init(context: MigaContext, addingSite: String = "miga config sites add HOST") {
        self.context = context
        self.addingSite = addingSite
    }

    /// Sets `key` (`timer_seconds`, `apps.discord.timer_seconds`, `site.reddit.com.ask_minutes`)
    /// to `value` as typed (`20`, `off`, `reddit.com, x.com`); returns the lines to say.
    public func set(_ key: String, to value: String) throws -> [String] {
        var lines: [String] = []
        try set(key, to: value) { lines.append($0) }
        return lines
    }

    /// The same, each line said as soon as it is known: a failure after the write (the sync
    /// folder cannot be shared) comes after what was written has been said.
    public func set(_ key: String, to value: String, say: (String) throws -> Void) throws {
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        try Installer(context: context).prepareConfigFolder()
        // An app's command is what its shims run: checked like `apps add`, and the shims
        // follow it at once (or they would go on running the old one).
        if let path = try? ConfigKeys.resolve(key, in: file.loadForEditing()), let app = path.app, path.key == "command" {
            let installer = try GatedApps(context: context).setCommand(of: app, to: value)
            try say("\(path.name) = \(ConfigKeys.toml(path, in: try file.load().config))")
            try installer.changes.forEach { try say("  " + $0) }
            return
        }
        let before = try? file.loadForEditing()
        let waitedBefore = ConfigInForce.pending(context: context)
        let path = try file.set(key, to: value)
        let config = try file.load().config
        try say("\(path.name) = \(ConfigKeys.toml(path, in: config))")
        if let before, let note = ConfigKeys.droppedNote(path, before: before, after: config, adding: addingSite) {
            try say("  " + note)
        }
        // Only this change's wait: the others were said when they were made (`config pending`
        // lists them all), and said again at every set they buried the line that mattered.
        try ConfigInForce.waitingNote(context: context, only: { entry in
            Self.concerns(entry, path) || !waitedBefore.contains(entry)
        }).forEach { try say("  waiting: " + $0) }
        if path.key == "sync_folder" || path.key == "sync_config" {
            try EventStore.shareHistory(config: config, context: context).forEach { try say("  " + $0) }
        }
    }

    /// Whether a waiting change is of the key `path` names: the key itself, or for the site
    /// list, a site it dropped.
    static func concerns(_ entry: Loosening.Pending, _ path: ConfigKeyPath) -> Bool {
        if case .site = entry.setting { return ConfigKeys.key(named: path.key)?.kind == .sites }
        return entry.setting.name == path.name
    }

    /// What waits of a change to `name` (a key as `set` names it), one line each: empty when
    /// the value written is the value in force.
    public static func waiting(for name: String, context: MigaContext) -> [String] {
        guard let inForce = try? ConfigInForce.load(context: context) else { return [] }
        let now = context.clock.nowMilliseconds()
        return inForce.pending.filter { !$0.cancelled && $0.setting.name == name }
            .map { ConfigInForce.describe($0, now: now, clock: context.clock) }
    }
}
