/// The person's settings (`config.toml`), with the defaults of DESIGN "config.toml keys".
public struct MigaConfig: Equatable, Sendable {
    public static let timerRange = 15...45
    public static let graceRange = 0...120
    public static let escalateRange = 0...30
    /// Opens a day before the gate says the allowance is used (0: no allowance).
    public static let opensPerDayRange = 0...100
    /// What Enter gives at "For how long?" (`default_minutes`).
    public static let defaultMinutesRange = 1...240
    /// Minutes away after which coming back to an app or tab meets a gate (`reentry_minutes`; 0: off).
    public static let reentryMinutesRange = 0...1440
    /// Focused minutes a day before the gate says the budget is used (`minutes_per_day`; 0: none).
    public static let minutesPerDayRange = 0...1440
    /// The sites miga paused before `sites` defaulted to none: a config.toml with no `sites`
    /// line (made before then) still gates them, and miga writes them into it once
    /// (`ConfigFile.writeFormerSitesIn`), so no one's gates vanish on an upgrade.
    public static let formerDefaultSites = ["reddit.com", "x.com", "twitter.com", "instagram.com",
                                            "facebook.com", "tiktok.com", "youtube.com"]

    public enum Breathing: String, Sendable, CaseIterable { case box, off }
    /// Before Open: nothing more, or a sentence to type exactly (`challenge = "type"`).
    public enum Challenge: String, Sendable, CaseIterable { case off, type }
    /// How long a loosened setting waits before it applies (`loosen_delay_minutes`): up to a week.
    public static let loosenDelayRange = 0...10080

    public struct App: Equatable, Sendable {
        public var name: String
        public var command: String
        public var timerSeconds: Int?
        /// Overrides of the global `intention` and `escalate_seconds`.
        public var intention: Bool?
        public var escalateSeconds: Int?
        public var opensPerDay: Int?
        /// Overrides of the global `ask_minutes` and `default_minutes`.
        public var askMinutes: Bool?
        public var defaultMinutes: Int?
        public var challenge: Challenge?
        /// Overrides of the global `reentry_minutes` and `minutes_per_day`.
        public var reentryMinutes: Int?
        public var minutesPerDay: Int?

        public init(name: String, command: String, timerSeconds: Int? = nil, intention: Bool? = nil,
                    escalateSeconds: Int? = nil, opensPerDay: Int? = nil, askMinutes: Bool? = nil, defaultMinutes: Int? = nil,
                    challenge: Challenge? = nil, reentryMinutes: Int? = nil, minutesPerDay: Int? = nil) {
            self.name = name
            self.command = command
            self.timerSeconds = timerSeconds
            self.intention = intention
            self.escalateSeconds = escalateSeconds
            self.opensPerDay = opensPerDay
            self.askMinutes = askMinutes
            self.defaultMinutes = defaultMinutes
            self.challenge = challenge
            self.reentryMinutes = reentryMinutes
            self.minutesPerDay = minutesPerDay
        }
    }

    public var timerSeconds = 30
    public var graceMinutes = 5
    public var categories: [ContentKind] = ContentKind.allCases
    /// Content categories beyond the calm defaults that the gate may show
    /// (`ContentLibrary.extraCategories`); none until the person turns one on.
    public var extraCategories: [String] = []
    public var breathing = Breathing.box
    public var animations = true
    public var terminal = ""
    /// Nothing is gated that the person did not choose: no sites until they name some.
    public var sites: [String] = []
    public var apps: [String: App] = [:]
    public var intention = false
    public var escalateSeconds = 0
    public var opensPerDay = 0
    public var askMinutes = false
    public var defaultMinutes = 10
    public var weeklySummary = false
    public var challenge = Challenge.off
    public var reentryMinutes = 0
    public var minutesPerDay = 0
    /// 0: a change applies at once; else a change that loosens waits this long (see `Loosening`).
    public var loosenDelayMinutes = 0
    /// A folder the person's sync tool shares between their machines ("" : off); see `SyncJournal`.
    public var syncFolder = ""
    /// Also keep `config.toml` in that folder, the newest copy winning (see `ConfigSync`).
    public var syncConfig = false
    /// The `[[alternative]]` tables that read cleanly, in file order.
    public var alternatives: [Alternative] = []
    /// Apps whose removal waited out `loosen_delay_minutes` and has applied, while their shims
    /// are still in place (set by `ConfigInForce`, never read from the file): their gates pass.
    public var retiredApps: Set<String> = []
    /// While a new UTC offset waits out `loosen_delay_minutes` (set by `ConfigInForce`, never
    /// read from the file): minutes from the clock's local time to the settled offset's. Hours
    /// without a gate then hold only when they hold in both, so a changed TZ never moves them
    /// onto the present.
    public var gateFreeShiftMinutes: Int?
    /// `[site."reddit.com"]` tables: a site's own values of the per-app keys (no `command`),
    /// keyed by the site as `sites` writes it (normalised); `name` is the site.
    public var siteSettings: [String: App] = [:]
    /// The `[[schedule]]` tables that read cleanly, in file order.
    public var schedules: [Schedule] = []

    public init() {}

    /// The countdown for `app`: its own override when it has one, else the global timer.
    public func timerSeconds(for app: String?) -> Int {
        app.flatMap { apps[$0]?.timerSeconds } ?? timerSeconds
    }

    /// The settings of the site whose events are recorded under `app` (its app name).
    public func siteEntry(app: String) -> App? {
        siteSettings.values.first { SiteMatcher.appName(site: $0.name) == app }
    }

    /// App names are file names (shims, grace stamps); the rule is AppCheck's.
    /// A valid app name made from any text (a program's file name, say): `My App` is `My-App`.
    public static func appName(derivedFrom text: String) -> String {
        AppCheck.name(derivedFrom: text)
    }

    public static func isValidAppName(_ name: String) -> Bool {
        AppCheck.problem(withName: name) == nil
    }

    /// Whether `name` may be what a gate, its events, grace and a snooze are about: an app
    /// name, or a path site's name (`youtube.com/shorts`, `SiteMatcher.appName(site:)`).
    public static func isValidGateName(_ name: String) -> Bool {
        isValidAppName(name) || SiteMatcher.isPathSiteName(name)
    }

    /// A gate's name (`isValidGateName`) as a file name: an app name as it is, any other
    /// character (a path site's `/`) as `%XX`, so `youtube.com/shorts` is `youtube.com%2Fshorts`
    /// and no name is ever a path. App names hold no `%`, so no two names share a file.
    public static func fileName(of name: String) -> String {
        var file = ""
        for byte in name.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, AppCheck.isNameScalar(scalar) {
                file.unicodeScalars.append(scalar)
            } else {
                file += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return file
    }
}
