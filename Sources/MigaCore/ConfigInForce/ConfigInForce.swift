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

    /// Its copy beside the database: a state file deleted or garbled is read from here, so
    /// what waits goes on waiting (DESIGN "State files are input too"); the two gone together
    /// (the history's folder with them) start afresh, and the two unreadable make every
    /// loosening wait anew (`waitAnew`).
    public static func copyPath(_ paths: MigaPaths) -> String { paths.dataDirectory + "/loosening.json" }

    /// The most either is read or written: however large a config, miga never writes a state
    /// it would not read back (`save` keeps the old one instead, and what waits then waits on).
    static let stateLimit = BoundedFile.configLimit * 8

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
        let state: Loosening.State, settled: MigaConfig, intact: Bool
        switch readState(context: context) {
        case .absent:
            // No waits kept and none asked for: the file is what applies (the usual case).
            if loaded.config.loosenDelayMinutes > 0 {
                save(Loosening.State(settled: ConfigFile.show(loaded.config), pending: [],
                                     offset: context.clock.utcOffsetMinutes(at: context.clock.now())), context: context)
            }
            return Result(config: loaded.config, warnings: loaded.warnings, pending: [])
        case .unreadable(let problem):
            return waitAnew(loaded, context: context, problem: problem)
        case .read(let read, let config, let whole):
            state = read
            settled = config
            intact = whole
        }
        let now = context.clock.nowMilliseconds(), boot = context.clock.sinceBoot()
        // A wait that cannot have been miga's (begun in the future, longer than any delay) is
        // forgotten: the change it was for waits anew from now.
        let kept = state.pending.filter { $0.believable(now: now) }
        var outcome = Loosening.resolve(wanted: loaded.config, settled: settled, pending: kept, now: now, boot: boot)
        let offset = settleOffset(state: state, kept: kept, config: &outcome, delay: settled.loosenDelayMinutes, now: now, boot: boot,
                                  clock: context.clock)
        // An app whose removal applied now keeps its shims (nothing here may touch them): its
        // gates pass until a `config` or `install` command removes them (`retire`).
        var retired = state.retired
        for entry in outcome.applied { if case .app(let app) = entry.setting, !retired.contains(app) { retired.append(app) } }
        retired.removeAll { outcome.config.apps[$0] != nil }
        outcome.config.retiredApps = Set(retired)
        if outcome.config.loosenDelayMinutes == 0, outcome.pending.isEmpty, retired.isEmpty {
            remove(context: context) // nothing waits and nothing will: the file is all
        } else {
            let next = Loosening.State(settled: ConfigFile.show(outcome.config), pending: outcome.pending, retired: retired, offset: offset)
            if next != state || !intact { save(next, context: context) }
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
        guard !apps.isEmpty, case .read(var state, _, _) = readState(context: context) else { return }
        state.retired.removeAll { apps.contains($0) }
        save(state, context: context)
    }

    private enum Stored {
        /// Neither the file nor its copy is there.
        case absent
        /// Neither can be read (what is wrong with each that is there).
        case unreadable(String)
        /// `whole`: the file and its copy are both there, the same.
        case read(Loosening.State, settled: MigaConfig, whole: Bool)
    }

    /// The state, from its file, else from its copy: either alone is enough.
    private static func readState(context: MigaContext) -> Stored {
        var problems: [String] = []
        let paths = [statePath(context.paths), copyPath(context.paths)]
        for path in paths {
            do {
                guard let data = try BoundedFile.readIfPresent(path, limit: stateLimit) else { continue }
                if let state = String(validating: data, as: UTF8.self).flatMap(Loosening.State.init(json:)),
                   let settled = try? ConfigLoader().parse(state.settled, path: path).config {
                    if let problem = problems.first { context.messages.say("miga: warning: \(problem); its copy \(path) is what applies") }
                    let whole = path == paths[0] && (try? BoundedFile.readIfPresent(paths[1], limit: stateLimit)) == data
                    return .read(state, settled: settled, whole: whole)
                }
                problems.append("\(path) is not miga's state")
            } catch {
                problems.append("\(path) could not be read (\(error))")
            }
        }
        return problems.isEmpty ? .absent : .unreadable(problems.joined(separator: "; "))
    }

    /// The UTC offset hours without a gate are read in. A new one (a changed TZ, travel, the
    /// clock's summer time) is a loosening like any: with a delay and such hours, it waits,
    /// and meanwhile those hours hold only where they hold in both offsets.
    private static func settleOffset(state: Loosening.State, kept: [Loosening.Pending], config outcome: inout Loosening.Outcome,
                                     delay: Int, now: Int64, boot: BootTime?, clock: MigaClock) -> Int {
        let offset = clock.utcOffsetMinutes(at: clock.now())
        let settled = state.offset ?? offset
        guard settled != offset, delay > 0, outcome.config.schedules.contains(where: { !$0.gate }) else { return offset }
        let to = zone(offset)
        let entry = kept.first { $0.setting == .utcOffset && $0.to == to }
            ?? Loosening.Pending(setting: .utcOffset, from: zone(settled), to: to, since: now, applies: now + Int64(delay) * 60_000,
                                 witness: boot)
        if !entry.cancelled, entry.waited(now: now, boot: boot) {
            outcome.applied.append(entry)
            return offset
        }
        outcome.pending.append(entry)
        outcome.config.gateFreeShiftMinutes = settled - offset
        return settled
    }

    /// "UTC+09:00".
    static func zone(_ minutes: Int) -> String {
        let sign = minutes < 0 ? "-" : "+", whole = abs(minutes)
        return "UTC\(sign)\(Schedule.clock(whole))"
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
        let file = ConfigFile(path: context.paths.configFile, files: context.files)
        try file.update(using: { editor, written in
            for entry in waiting { restore(entry.setting, in: &editor, written: written, settled: settled) }
        }, expect: { _ in true })
        // What could not be set back waits no more: it stays cancelled.
        if case .read(var state, _, _) = readState(context: context) {
            let now = context.clock.nowMilliseconds(), boot = context.clock.sinceBoot()
            let wanted = try ConfigLoader().load(path: file.path).config
            let left = Loosening.resolve(wanted: wanted, settled: settled, pending: state.pending.filter { $0.believable(now: now) },
                                         now: now, boot: boot).pending
            state.pending = left.map { var entry = $0; entry.cancelled = true; return entry }
            save(state, context: context)
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
        case .schedules, .snooze, .utcOffset:
            break
        }
    }

    /// The lines a change through `config` says when something it loosened waits: what, and
    /// when it applies. Empty when nothing waits.
    /// `only`: the waits to name (a change names its own); the rest are counted, so the
    /// person knows `miga config pending` has more.
    public static func waitingNote(context: MigaContext, only: (Loosening.Pending) -> Bool = { _ in true }) -> [String] {
        guard let result = try? load(context: context) else { return [] }
        let named = result.pending.filter(only)
        guard !named.isEmpty else { return [] }
        let others = result.pending.count - named.count
        return named.map { describe($0, now: context.clock.nowMilliseconds(), clock: context.clock) }
            + ["(loosen_delay_minutes = \(result.config.loosenDelayMinutes): a change that loosens a rule waits; "
               + "`miga config pending --cancel` drops it"
               + (others > 0 ? "; \(others) other\(others == 1 ? "" : "s") waiting: `miga config pending`)" : ")")]
    }

    /// The loosened settings waiting now; none when the config cannot be read.
    public static func pending(context: MigaContext) -> [Loosening.Pending] {
        (try? load(context: context))?.pending ?? []
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

    /// A state that cannot be read, nor its copy: what was settled is not known, so it is taken
    /// to be the strictest config the file can be read as (`Loosening.strictest`), and every
    /// loosening the file may hold waits the whole delay from now: a loosening waits anew,
    /// never the reverse (DESIGN "State files are input too"). Said once: the state is
    /// written again.
    private static func waitAnew(_ loaded: ConfigLoader.Result, context: MigaContext, problem: String) -> Result {
        let delay = loaded.config.loosenDelayMinutes
        guard delay > 0 else {
            // Nothing waits and nothing will: the file is all.
            context.messages.say("miga: warning: \(problem); config.toml applies as it is")
            remove(context: context)
            return Result(config: loaded.config, warnings: loaded.warnings, pending: [])
        }
        let outcome = Loosening.resolve(wanted: loaded.config, settled: Loosening.strictest(loaded.config), pending: [],
                                        now: context.clock.nowMilliseconds(), boot: context.clock.sinceBoot())
        context.messages.say("miga: warning: \(problem); what config.toml loosens waits again, "
                             + "loosen_delay_minutes (\(delay) min) from now: `miga config pending` lists it")
        save(Loosening.State(settled: ConfigFile.show(outcome.config), pending: outcome.pending,
                             offset: context.clock.utcOffsetMinutes(at: context.clock.now())), context: context)
        return Result(config: outcome.config, warnings: loaded.warnings, pending: outcome.pending.sorted { $0.applies < $1.applies })
    }

    /// The state and its copy. One larger than either is read is never written: the last one
    /// stays, so what waited goes on waiting.
    private static func save(_ state: Loosening.State, context: MigaContext) {
        let text = state.json
        for (path, folder) in [(statePath(context.paths), context.paths.stateDirectory), (copyPath(context.paths), context.paths.dataDirectory)] {
            do {
                guard text.utf8.count <= stateLimit else {
                    throw ConfigError.tooLarge(path: path, limit: stateLimit)
                }
                try context.files.makeDirectories(folder, mode: 0o700)
                try AtomicFile.write(text, to: path, mode: 0o600)
            } catch {
                context.messages.say("miga: warning: could not keep the waiting settings in \(path): \(error)")
            }
        }
    }

    private static func remove(context: MigaContext) {
        context.files.removeFile(statePath(context.paths))
        context.files.removeFile(copyPath(context.paths))
    }

    /// `setting_loosened` for each setting whose wait ended, at the moment it ended; once,
    /// whichever process noticed it first.
    private static func record(_ applied: [Loosening.Pending], context: MigaContext) {
        guard AtomicFile.exists(context.paths.database), let store = try? EventStore(context: context) else { return }
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
