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
            }
        }

        /// The app or site (by its app name) it belongs to, if any.
        public var app: String? {
            switch self {
            case .app(let app), .appKey(let app, _): return app
            case .site(let site), .siteKey(let site, _): return SiteMatcher.appName(site: site)
            case .key, .schedules, .snooze: return nil
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

        public init(setting: Setting, from: String, to: String, since: Int64, applies: Int64, cancelled: Bool = false) {
            self.setting = setting
            self.from = from
            self.to = to
            self.since = since
            self.applies = applies
            self.cancelled = cancelled
        }
    }

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
    public static func resolve(wanted: MigaConfig, settled: MigaConfig, pending: [Pending], now: Int64) -> Outcome {
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
            let entry = earlier ?? Pending(setting: change.setting, from: change.from, to: change.to, since: now, applies: now &+ delay)
            if delay == 0 || entry.applies <= now {
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
            let loosens = added.contains { !$0.gate || ($0.timerSeconds ?? .max) < wanted.timerSeconds }
                || removed.contains { $0.gate && ($0.timerSeconds ?? 0) > settled.timerSeconds }
            // The tables' digest in `to`: changed again while waiting is a new change.
            var digest: UInt64 = 0xcbf29ce484222325
            for byte in newTables.joined(separator: "\n").utf8 { digest = (digest ^ UInt64(byte)) &* 0x100000001b3 }
            changes.append(Change(setting: .schedules, from: "\(oldTables.count) table\(oldTables.count == 1 ? "" : "s")",
                                  to: "\(newTables.count) table\(newTables.count == 1 ? "" : "s") (changed, \(String(digest % 0x10000, radix: 16)))",
                                  loosens: loosens))
        }
        return changes
    }

    static func loosens(_ key: ConfigKey, from: String, to: String) -> Bool {
        switch key.looser {
        case .lower?: return (Int(to) ?? 0) < (Int(from) ?? 0)
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
        case .snooze:
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

/// The state kept beside config.toml: what applies, and what waits. A file that cannot be
/// read back is started afresh (said once by the caller): the person's rules then apply as
/// the file has them, which never keeps anyone from their app.
extension Loosening {
    public struct State: Equatable {
        /// What applies, as config.toml text (`ConfigFile.show`).
        public var settled: String
        public var pending: [Pending]
        /// Apps whose removal applied after its wait, whose shims are still in place.
        public var retired: [String]

        public init(settled: String, pending: [Pending], retired: [String] = []) {
            self.settled = settled
            self.pending = pending
            self.retired = retired
        }

        public var json: String {
            OrderedJSON.object([
                ("version", .int(1)),
                ("settled", .string(settled)),
                ("pending", .array(pending.map(Self.json))),
                ("retired", .array(retired.map(OrderedJSON.string))),
            ]).text + "\n"
        }

        public init?(json text: String) {
            guard let value = try? JSONValue.parse(text), value["version"]?.integer == 1,
                  let settled = value["settled"]?.string, case .array(let entries)? = value["pending"] else { return nil }
            var pending: [Pending] = []
            for entry in entries {
                guard let setting = Self.setting(entry["setting"]), let from = entry["from"]?.string, let to = entry["to"]?.string,
                      let since = entry["since"]?.integer, let applies = entry["applies"]?.integer else { return nil }
                pending.append(Pending(setting: setting, from: from, to: to, since: since, applies: applies,
                                       cancelled: entry["cancelled"] == .bool(true)))
            }
            var retired: [String] = []
            if case .array(let names)? = value["retired"] { retired = names.compactMap(\.string).filter(MigaConfig.isValidAppName) }
            self.init(settled: settled, pending: pending, retired: retired)
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
            }
            return .object([("setting", .array(setting)), ("from", .string(pending.from)), ("to", .string(pending.to)),
                            ("since", .int(pending.since)), ("applies", .int(pending.applies)), ("cancelled", .bool(pending.cancelled))])
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
            default: return nil
            }
        }
    }
}
