import FoundationEssentials
import JSON

/// The settings that apply now: config.toml, with any loosened setting still waiting out
/// `loosen_delay_minutes` (see `Loosening`) kept at its settled value. Every part that gates
/// (the gate, the browser's host, `open-url`, `status`, the shims `install` writes) loads the
/// config here (and `config show/get`); `config set` and the editor work on the file as written.
public enum ConfigInForce {
    public struct Result {
        public var config: MigaConfig
        public var warnings: [String]
        /// Loosened settings waiting, soonest first.
        public var pending: [Loosening.Pending]
    }

    /// The state kept beside the file: what applies, and what waits.
    public static func statePath(_ paths: MigaPaths) -> String { paths.stateDirectory + "/loosening.json" }

    /// Throws what the loader throws (a file that does not parse: the caller fails open).
    /// `inFrontOfApp`: for a gate, the browser's host, `open-url`: the sync folder is not
    /// touched (it may be a mount that stopped answering), and `sync_config`'s copy is
    /// brought level after the first frame instead, by `miga sync push`, for the next launch.
    public static func load(context: MigaContext, inFrontOfApp: Bool = false) throws -> Result {
        var loaded = try ConfigLoader().load(path: context.paths.configFile)
        // sync_config: whichever of this machine's copy and the sync folder's changed applies
        // (a change from another machine is then a change like a hand edit: a loosening waits).
        if !inFrontOfApp, loaded.config.syncConfig,
           let folder = SyncFolderSetting.expanded(loaded.config.syncFolder, home: context.environment["HOME"]),
           ConfigSync.reconcile(folder: folder, context: context) == .took {
            loaded = try ConfigLoader().load(path: context.paths.configFile)
        }
        let path = statePath(context.paths)
        let stored: Data?
        do {
            stored = try BoundedFile.readIfPresent(path, limit: BoundedFile.configLimit * 2)
        } catch {
            return afresh(loaded, path: path, context: context, problem: "\(error)")
        }
        // No waits kept and none asked for: the file is what applies (the usual case, one stat).
        guard let stored else {
            if loaded.config.loosenDelayMinutes > 0 { save(Loosening.State(settled: ConfigFile.show(loaded.config), pending: []), to: path, context: context) }
            return Result(config: loaded.config, warnings: loaded.warnings, pending: [])
        }
        guard let state = String(validating: stored, as: UTF8.self).flatMap(Loosening.State.init(json:)),
              let settled = try? ConfigLoader().parse(state.settled, path: path).config else {
            return afresh(loaded, path: path, context: context, problem: "it is not miga's state")
        }
        let now = context.clock.nowMilliseconds()
        var outcome = Loosening.resolve(wanted: loaded.config, settled: settled, pending: state.pending, now: now)
        // An app whose removal applied now keeps its shims (nothing here may touch them): its
        // gates pass until a `config` or `install` command removes them (`retire`).
        var retired = state.retired
        for entry in outcome.applied { if case .app(let app) = entry.setting, !retired.contains(app) { retired.append(app) } }
        retired.removeAll { outcome.config.apps[$0] != nil }
        outcome.config.retiredApps = Set(retired)
        if outcome.config.loosenDelayMinutes == 0, outcome.pending.isEmpty, retired.isEmpty {
            try? LinuxSystem.removeFile(path) // nothing waits and nothing will: the file is all
        } else {
            let next = Loosening.State(settled: ConfigFile.show(outcome.config), pending: outcome.pending, retired: retired)
            if next != state { save(next, to: path, context: context) }
        }
        if !outcome.applied.isEmpty { record(outcome.applied, context: context) }
        return Result(config: outcome.config, warnings: loaded.warnings, pending: outcome.pending.sorted { $0.applies < $1.applies })
    }

    /// The apps whose removal applied after a wait and whose shims are still there; the caller
    /// removes the shims and then calls `forgetRetired`.
    public static func retiredApps(context: MigaContext) -> [String] {
        ((try? load(context: context))?.config.retiredApps).map { $0.sorted() } ?? []
    }

    /// Their shims are gone: the list is emptied (what waits is kept).
    public static func forgetRetired(_ apps: [String], context: MigaContext) {
        let path = statePath(context.paths)
        guard !apps.isEmpty, let stored = try? BoundedFile.readIfPresent(path, limit: BoundedFile.configLimit * 2),
              var state = String(validating: stored, as: UTF8.self).flatMap(Loosening.State.init(json:)) else { return }
        state.retired.removeAll { apps.contains($0) }
        save(state, to: path, context: context)
    }

    /// `miga config pending --cancel`: every waiting change dropped. config.toml is set back
    /// to what applies, setting by setting (comments and layout kept), so file and rules agree
    /// again; what the file cannot be set back to by miga (`[[schedule]]` tables, edited by
    /// hand) stays marked as cancelled: it never applies until the file changes it again.
    /// Returns what was dropped.
    public static func cancelPending(context: MigaContext) throws -> [Loosening.Pending] {
        let current = try load(context: context)
        let waiting = current.pending.filter { !$0.cancelled }
        guard !waiting.isEmpty else { return [] }
        let settled = current.config
        let file = ConfigFile(path: context.paths.configFile)
        try file.update(using: { editor, written in
            for entry in waiting { restore(entry.setting, in: &editor, written: written, settled: settled) }
        }, expect: { _ in true })
        // What could not be set back waits no more: it stays cancelled.
        let path = statePath(context.paths)
        if let stored = try? BoundedFile.read(path, limit: BoundedFile.configLimit * 2),
           var state = String(validating: stored, as: UTF8.self).flatMap(Loosening.State.init(json:)) {
            let now = context.clock.nowMilliseconds()
            let wanted = try ConfigLoader().load(path: file.path).config
            let left = Loosening.resolve(wanted: wanted, settled: settled, pending: state.pending, now: now).pending
            state.pending = left.map { var entry = $0; entry.cancelled = true; return entry }
            save(state, to: path, context: context)
        }
        return waiting
    }

    /// Writes `setting`'s value in `settled` into the file being edited.
    private static func restore(_ setting: Loosening.Setting, in editor: inout ConfigEditor, written: MigaConfig, settled: MigaConfig) {
        func restoreKeys(of entry: MigaConfig.App, table: [String], site: String?) {
            for key in (site == nil ? ConfigKeys.perApp : ConfigKeys.perSite).compactMap(ConfigKeys.key(named:)) where key.setByApp(entry) && key.name != "command" {
                let path = ConfigKeyPath(app: site == nil ? entry.name : nil, key: key.name, site: site)
                editor.setValue(ConfigKeys.toml(path, in: settled), forKey: key.name, table: table)
            }
        }
        switch setting {
        case .key(let key):
            editor.setValue(ConfigKeys.toml(ConfigKeyPath(app: nil, key: key), in: settled), forKey: key)
        case .app(let app):
            guard let entry = settled.apps[app], written.apps[app] == nil else { return }
            editor.addApp(MigaConfig.App(name: app, command: entry.command, timerSeconds: entry.timerSeconds))
            restoreKeys(of: entry, table: ["apps", app], site: nil)
        case .appKey(let app, let key):
            guard written.apps[app] != nil else { return }
            editor.setValue(ConfigKeys.toml(ConfigKeyPath(app: app, key: key), in: settled), forKey: key, table: ["apps", app])
        case .site(let site):
            guard let spelled = settled.sites.first(where: { SiteMatcher.normalizedSite($0) == site }) else { return }
            editor.setSites(written.sites + [spelled])
            if let entry = settled.siteSettings[site] { restoreKeys(of: entry, table: ["site", site], site: site) }
        case .siteKey(let site, let key):
            editor.setValue(ConfigKeys.toml(ConfigKeyPath(app: nil, key: key, site: site), in: settled), forKey: key, table: ["site", site])
        case .schedules, .snooze:
            break
        }
    }

    /// The lines a change through `config` says when something it loosened waits: what, and
    /// when it applies. Empty when nothing waits.
    public static func waitingNote(context: MigaContext) -> [String] {
        guard let result = try? load(context: context), !result.pending.isEmpty else { return [] }
        return result.pending.map { describe($0, now: context.clock.nowMilliseconds(), clock: context.clock) }
            + ["(loosen_delay_minutes = \(result.config.loosenDelayMinutes): a change that loosens a rule waits; "
               + "`miga config pending --cancel` drops it)"]
    }

    /// "timer_seconds: 30 → 20 at 14:05 (in 23 min)", or "… (cancelled)".
    public static func describe(_ entry: Loosening.Pending, now: Int64, clock: MigaClock) -> String {
        let change = "\(entry.setting.name): \(entry.from) → \(entry.to)"
        if entry.cancelled { return change + " (cancelled: config.toml still says so; set it back, or set it again to wait anew)" }
        let at = Date(timeIntervalSince1970: Double(entry.applies) / 1000)
        let minutes = max(1, (entry.applies - now + 59_999) / 60_000)
        let local = LocalMoment(unixMilliseconds: entry.applies, offsetMinutes: clock.utcOffsetMinutes(at: at))
        let day = local.day == LocalMoment(clock: clock).day ? "" : " on \(local.day)"
        return change + " at \(Schedule.clock(local.minute))\(day) (in \(minutes) min)"
    }

    /// A state that cannot be read: said once, and started again from the file as it is.
    private static func afresh(_ loaded: ConfigLoader.Result, path: String, context: MigaContext, problem: String) -> Result {
        context.messages.say("miga: warning: \(path) could not be read (\(problem)); the waits of loosen_delay_minutes start afresh from config.toml as it is")
        try? LinuxSystem.removeFile(path)
        if loaded.config.loosenDelayMinutes > 0 { save(Loosening.State(settled: ConfigFile.show(loaded.config), pending: []), to: path, context: context) }
        return Result(config: loaded.config, warnings: loaded.warnings, pending: [])
    }

    private static func save(_ state: Loosening.State, to path: String, context: MigaContext) {
        do {
            try LinuxSystem.makeDirectories(context.paths.stateDirectory, mode: 0o700)
            try AtomicFile.write(state.json, to: path, mode: 0o600)
        } catch {
            context.messages.say("miga: warning: could not keep the waiting settings in \(path): \(error)")
        }
    }

    /// `setting_loosened` for each setting whose wait ended, at the moment it ended; once,
    /// whichever process noticed it first.
    private static func record(_ applied: [Loosening.Pending], context: MigaContext) {
        guard AtomicFile.exists(context.paths.database), let store = try? EventStore(paths: context.paths) else { return }
        for entry in applied {
            let detail = OrderedJSON.object([
                ("setting", .string(entry.setting.name)), ("from", .string(entry.from)), ("to", .string(entry.to)),
                ("waited_minutes", .int(Int64(max(0, entry.applies - entry.since) / 60_000))),
            ]).text
            let at = Date(timeIntervalSince1970: Double(entry.applies) / 1000)
            let event = Event(timestamp: entry.applies, utcOffsetMinutes: context.clock.utcOffsetMinutes(at: at),
                              session: "loosened-\(entry.since)-\(entry.setting.name)", type: .settingLoosened, app: entry.setting.app ?? "",
                              contentID: nil, waitMilliseconds: nil, detail: detail)
            try? store.recordOnce(event)
        }
    }
}
