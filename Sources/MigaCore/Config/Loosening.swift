import JSON

/// `loosen_delay_minutes`: a change that loosens a rule waits before it applies, whoever makes
/// it (a `config` verb, the editor, an edit of config.toml by hand); a change that tightens
/// applies at once (DESIGN "Time and friction", Loosening waits).
///
/// The file stays as the person wrote it. What applies is kept beside it (`settled`): each
/// load compares the file with it, setting by setting; a loosened setting keeps its settled
/// value until its wait is over. The wait is the settled `loosen_delay_minutes`, so lowering
/// the delay itself waits too. A setting changed again while it waits starts a new wait.
public enum Loosening {
    /// What one change is about.
    public enum Setting: Hashable, Sendable {
        /// A top-level key (`timer_seconds`).
        case key(String)
        /// An app being gated at all (`[apps.NAME]`).
        case app(String)
        /// An app's own value of a key.
        case appKey(String, String)
        /// A site being gated at all (in `sites`).
        case site(String)
        /// A site's own value of a key (`[site."NAME"]`).
        case siteKey(String, String)
        /// The `[[schedule]]` tables, as a whole.
        case schedules
        /// `miga snooze`, waiting to start (kept in its own file, see `Snooze`).
        case snooze
        /// The local time's offset from UTC, which hours without a gate are read in: a new
        /// one (travel, a changed TZ) moves those hours, so it waits like any loosening.
        case utcOffset

        /// As `config show`, `status` and the week name it.
        public var name: String {
            switch self {
            case .key(let key): return key
            case .app(let app): return "apps.\(app)"
            case .appKey(let app, let key): return "apps.\(app).\(key)"
            case .site(let site): return "sites: \(site)"
            case .siteKey(let site, let key): return "site.\(site).\(key)"
            case .schedules: return "[[schedule]]"
            case .snooze: return "snooze"
            case .utcOffset: return "time zone"
            }
        }

        /// The app or site (by its app name) it belongs to, if any.
        public var app: String? {
            switch self {
            case .app(let app), .appKey(let app, _): return app
            case .site(let site), .siteKey(let site, _): return SiteMatcher.appName(site: site)
            case .key, .schedules, .snooze, .utcOffset: return nil
            }
        }
    }

    /// A setting whose loosened value waits.
    public struct Pending: Equatable, Sendable {
        public var setting: Setting
        /// The value in force and the one waiting, as text.
        public var from: String
        public var to: String
        /// When it was first seen, and when it applies (Unix ms).
        public var since: Int64
        public var applies: Int64
        /// `miga config pending --cancel` dropped it: the settled value stays, whatever the
        /// file says, until the file changes that setting again.
        public var cancelled: Bool
        /// The time since boot at `since`: a wall clock that jumped past `applies` is not
        /// taken for a wait that was waited (see `waited`).
        public var witness: BootTime?

        public init(setting: Setting, from: String, to: String, since: Int64, applies: Int64, cancelled: Bool = false,
                    witness: BootTime? = nil) {
            self.setting = setting
            self.from = from
            self.to = to
            self.since = since
            self.applies = applies
            self.cancelled = cancelled
            self.witness = witness
        }

        /// Whether the wait is over at `now`: by the wall clock, and, within the boot it began
        /// in, by the time since boot too, which no step of the wall clock (NTP, `date -s`,
        /// faketime) moves. After a reboot the wall clock alone tells (the time the machine was
        /// off is seen by nothing else).
        public func waited(now: Int64, boot: BootTime?) -> Bool {
            guard applies <= now else { return false }
            guard let witness, let boot, witness.boot == boot.boot else { return true }
            return boot.milliseconds - witness.milliseconds >= applies - since
        }

        /// Believable as written by miga: begun no later than `now`, waiting no longer than
        /// the longest delay. Anything else (a clock since set back, a garbled or hand-made
        /// file) is forgotten, so the change waits anew from now.
        func believable(now: Int64) -> Bool {
            // A delay is at least a minute (0 applies at once, with nothing kept).
            since <= now && applies - since >= 60_000 && applies - since <= Int64(MigaConfig.loosenDelayRange.upperBound) * 60_000
                && witness.map { (0...Loosening.bootLimit).contains($0.milliseconds) } != false
        }
    }

    /// A time since boot beyond a century is no reading of a real machine's.
    static let bootLimit: Int64 = 100 * 366 * 86_400_000

    /// One difference between what applies and what the file says.
    struct Change: Equatable {
        var setting: Setting
        var from: String
        var to: String
        var loosens: Bool
    }

    /// What applies now, and what the state becomes.
    public struct Outcome: Equatable {
        public var config: MigaConfig
        /// The settings still waiting (a cancelled one included: it is still not applied).
        public var pending: [Pending]
        /// Loosened settings whose wait ended at this load: they apply from their `applies`.
        public var applied: [Pending]
    }

    /// Compares `wanted` (the file) with `settled` (what applied last) at `now`.
    public static func resolve(wanted: MigaConfig, settled: MigaConfig, pending: [Pending], now: Int64,
                               boot: BootTime? = nil) -> Outcome {
        let delay = Int64(settled.loosenDelayMinutes) * 60_000
        var config = wanted
        var waiting: [Pending] = []
        var applied: [Pending] = []
        for change in changes(from: settled, to: wanted) where change.loosens {
            let earlier = pending.first { $0.setting == change.setting && $0.to == change.to }
            if let earlier, earlier.cancelled {
                revert(change.setting, in: &config, to: settled)
                waiting.append(earlier)
                continue
            }
            let entry = earlier ?? Pending(setting: change.setting, from: change.from, to: change.to, since: now, applies: now &+ delay,
                                           witness: boot)
            if delay == 0 || entry.waited(now: now, boot: boot) {
                applied.append(entry)
            } else {
                revert(change.setting, in: &config, to: settled)
                waiting.append(entry)
            }
        }
        return Outcome(config: config, pending: waiting, applied: applied)
    }

    /// Every setting that differs, and whether the change loosens it.
    static func changes(from settled: MigaConfig, to wanted: MigaConfig) -> [Change] {
        var changes: [Change] = []
        func compare(_ setting: Setting, _ key: ConfigKey, _ from: String, _ to: String) {
            guard from != to else { return }
            changes.append(Change(setting: setting, from: from, to: to, loosens: loosens(key, from: from, to: to)))
        }
        let keys = ConfigKeys.table.filter { $0.looser != nil }
        for key in keys where key.copyGlobal != nil {
            compare(.key(key.name), key, key.text(settled, nil), key.text(wanted, nil))
        }
        for (name, before) in settled.apps.sorted(by: { $0.key < $1.key }) {
            guard let after = wanted.apps[name] else {
                changes.append(Change(setting: .app(name), from: "gated", to: "not gated", loosens: true))
                continue
            }
            // A key the app sets in neither is the global key's change, compared above.
            for key in keys where key.copyApp != nil && (key.setByApp(before) || key.setByApp(after)) {
                compare(.appKey(name, key.name), key, key.text(settled, before), key.text(wanted, after))
            }
        }
        let before = SiteMatcher(sites: settled.sites).sites, after = Set(SiteMatcher(sites: wanted.sites).sites)
        for site in before where !after.contains(site) {
            changes.append(Change(setting: .site(site), from: "gated", to: "not gated", loosens: true))
        }
        for site in before where after.contains(site) {
            let old = settled.siteSettings[site], new = wanted.siteSettings[site]
            for key in keys where key.copyApp != nil && (old.map(key.setByApp) == true || new.map(key.setByApp) == true) {
                compare(.siteKey(site, key.name), key, key.text(settled, old), key.text(wanted, new))
            }
        }
        let oldTables = settled.schedules.map(scheduleText), newTables = wanted.schedules.map(scheduleText)
        if oldTables != newTables {
            // Hours without a gate, or gentler than the timer, that were not there; or stricter
            // hours that are gone.
            let added = wanted.schedules.filter { !oldTables.contains(scheduleText($0)) }
            let removed = settled.schedules.filter { !newTables.contains(scheduleText($0)) }
            // A table's timer stands in for the app's own (`GatePlan`), so it is gentler when it
            // is below any timer it can take the place of: the global one, an app's or site's
            // own, or a table's it may now come before.
            let loosens = added.contains { gentler($0, in: wanted, tables: settled.schedules) } || removed.contains { table in
                table.gate && (table.timerSeconds ?? 0) > (timers(table, in: settled, tables: []).min() ?? .max)
            }
            // The tables' digest in `to`: changed again while waiting is a new change.
            var digest: UInt64 = 0xcbf29ce484222325
            for byte in newTables.joined(separator: "\n").utf8 { digest = (digest ^ UInt64(byte)) &* 0x100000001b3 }
            changes.append(Change(setting: .schedules, from: "\(oldTables.count) table\(oldTables.count == 1 ? "" : "s")",
                                  to: "\(newTables.count) table\(newTables.count == 1 ? "" : "s") (changed, \(String(digest % 0x10000, radix: 16)))",
                                  loosens: loosens))
        }
        return changes
    }

    /// Whether a `[[schedule]]` table, where `config` and the gated `tables` apply, makes its
    /// hours gentler: no gate, or a timer below any it can stand in for.
    static func gentler(_ table: Schedule, in config: MigaConfig, tables: [Schedule]) -> Bool {
        !table.gate || (table.timerSeconds ?? .max) < (timers(table, in: config, tables: tables).max() ?? 0)
    }

    /// The strictest config `written` can be read as: each key that loosens (globally, and in
    /// each app and site that sets it) at its strictest value (`ConfigKey.strictest`), and no
    /// `[[schedule]]` table that makes hours gentler. With no record of what was settled, it
    /// stands for what was: compared with it, every loosening the file may hold waits anew
    /// (DESIGN "State files are input too"). Apps, sites and the keys that loosen nothing are
    /// as written: a gone app or site no file can tell.
    public static func strictest(_ written: MigaConfig) -> MigaConfig {
        var config = written
        for key in ConfigKeys.table { key.tighten(&config) }
        config.schedules = written.schedules.filter { !gentler($0, in: config, tables: []) }
        return config
    }

    /// The timers a `[[schedule]]` table's hours would otherwise have, for the apps and sites
    /// it applies to: the global timer, their own, and those of the gated tables in `tables`.
    static func timers(_ table: Schedule, in config: MigaConfig, tables: [Schedule]) -> [Int] {
        var timers = [config.timerSeconds]
        for (name, app) in config.apps where table.applies(to: name) { if let own = app.timerSeconds { timers.append(own) } }
        for (site, entry) in config.siteSettings where table.applies(to: SiteMatcher.appName(site: site)) {
            if let own = entry.timerSeconds { timers.append(own) }
        }
        timers += tables.compactMap { $0.gate ? $0.timerSeconds : nil }
        return timers
    }

    static func loosens(_ key: ConfigKey, from: String, to: String) -> Bool {
        switch key.looser {
        case .lower?, .delay?: return (Int(to) ?? 0) < (Int(from) ?? 0)
        case .higher?: return (Int(to) ?? 0) > (Int(from) ?? 0)
        case .allowance?:
            let old = Int(from) ?? 0, new = Int(to) ?? 0
            return old > 0 && (new == 0 || new > old)
        case .off?:
            if case .choice(let choices) = key.kind { return to == choices.first }
            return from == "true" && to == "false"
        case nil: return false
        }
    }

    /// Puts `setting` back to its value in `settled`.
    static func revert(_ setting: Setting, in config: inout MigaConfig, to settled: MigaConfig) {
        switch setting {
        case .key(let name):
            ConfigKeys.key(named: name)?.copyGlobal?(&config, settled)
        case .app(let app):
            config.apps[app] = settled.apps[app]
        case .appKey(let app, let name):
            guard var entry = config.apps[app], let copy = ConfigKeys.key(named: name)?.copyApp else { return }
            copy(&entry, settled.apps[app])
            config.apps[app] = entry
        case .site(let site):
            if let written = settled.sites.first(where: { SiteMatcher.normalizedSite($0) == site }) { config.sites.append(written) }
            if let table = settled.siteSettings[site] { config.siteSettings[site] = table }
        case .siteKey(let site, let name):
            guard let copy = ConfigKeys.key(named: name)?.copyApp else { return }
            var entry = config.siteSettings[site] ?? MigaConfig.App(name: site, command: "")
            copy(&entry, settled.siteSettings[site])
            config.siteSettings[site] = entry
        case .schedules:
            config.schedules = settled.schedules
        case .snooze, .utcOffset:
            break
        }
    }

    /// A table as the comparison sees it: its place in the file aside.
    static func scheduleText(_ schedule: Schedule) -> String {
        var copy = schedule
        copy.index = 0
        return "\(copy)"
    }
}

/// The state kept beside config.toml: what applies, and what waits. It is input like any
/// file (DESIGN "State files are input too"): a waiting change whose entry cannot be
/// believed (a number out of range, a setting miga does not know) is forgotten, and so waits
/// anew from now; never the reverse.
extension Loosening {
    public struct State: Equatable {
        /// What applies, as config.toml text (`ConfigFile.show`).
        public var settled: String
        public var pending: [Pending]
        /// Apps whose removal applied after its wait, whose shims are still in place.
        public var retired: [String]
        /// The UTC offset (minutes) that hours without a gate are read in; nil: the clock's.
        public var offset: Int?

        public init(settled: String, pending: [Pending], retired: [String] = [], offset: Int? = nil) {
            self.settled = settled
            self.pending = pending
            self.retired = retired
            self.offset = offset
        }

        public var json: String {
            var members: [(String, OrderedJSON)] = [
                ("version", .int(1)),
                ("settled", .string(settled)),
                ("pending", .array(pending.map(Self.json))),
                ("retired", .array(retired.map(OrderedJSON.string))),
            ]
            if let offset { members.append(("offset", .int(Int64(offset)))) }
            return OrderedJSON.object(members).text + "\n"
        }

        public init?(json text: String) {
            guard let value = try? JSONValue.parse(text), value["version"]?.integer == 1,
                  let settled = value["settled"]?.string, case .array(let entries)? = value["pending"] else { return nil }
            var pending: [Pending] = []
            for entry in entries {
                guard let setting = Self.setting(entry["setting"]), let from = entry["from"]?.string, let to = entry["to"]?.string,
                      let since = entry["since"]?.unixMilliseconds, let applies = entry["applies"]?.unixMilliseconds else { continue }
                var witness: BootTime?
                if case .array(let parts)? = entry["boot"] {
                    guard parts.count == 2, let boot = parts[0].string, let milliseconds = parts[1].integer(in: 0...Loosening.bootLimit)
                    else { continue }
                    witness = BootTime(boot: boot, milliseconds: milliseconds)
                }
                pending.append(Pending(setting: setting, from: from, to: to, since: since, applies: applies,
                                       cancelled: entry["cancelled"] == .bool(true), witness: witness))
            }
            var retired: [String] = []
            if case .array(let names)? = value["retired"] { retired = names.compactMap(\.string).filter(MigaConfig.isValidAppName) }
            let offset = value["offset"]?.integer(in: EventBounds.offsetMinutes).map { Int($0) }
            self.init(settled: settled, pending: pending, retired: retired, offset: offset)
        }

        static func json(_ pending: Pending) -> OrderedJSON {
            let setting: [OrderedJSON]
            switch pending.setting {
            case .key(let key): setting = [.string("key"), .string(key)]
            case .app(let app): setting = [.string("app"), .string(app)]
            case .appKey(let app, let key): setting = [.string("app_key"), .string(app), .string(key)]
            case .site(let site): setting = [.string("site"), .string(site)]
            case .siteKey(let site, let key): setting = [.string("site_key"), .string(site), .string(key)]
            case .schedules: setting = [.string("schedules")]
            case .snooze: setting = [.string("snooze")]
            case .utcOffset: setting = [.string("utc_offset")]
            }
            var members: [(String, OrderedJSON)] = [
                ("setting", .array(setting)), ("from", .string(pending.from)), ("to", .string(pending.to)),
                ("since", .int(pending.since)), ("applies", .int(pending.applies)), ("cancelled", .bool(pending.cancelled)),
            ]
            if let witness = pending.witness {
                members.append(("boot", .array([.string(witness.boot), .int(witness.milliseconds)])))
            }
            return .object(members)
        }

        static func setting(_ value: JSONValue?) -> Setting? {
            guard case .array(let parts)? = value else { return nil }
            let words = parts.compactMap(\.string)
            guard words.count == parts.count else { return nil }
            switch (words.first, words.count) {
            case ("key", 2): return .key(words[1])
            case ("app", 2): return .app(words[1])
            case ("app_key", 3): return .appKey(words[1], words[2])
            case ("site", 2): return .site(words[1])
            case ("site_key", 3): return .siteKey(words[1], words[2])
            case ("schedules", 1): return .schedules
            case ("utc_offset", 1): return .utcOffset
            default: return nil
            }
        }
    }
}
