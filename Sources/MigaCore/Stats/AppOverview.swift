import FoundationEssentials
import JSON

/// What the miga app's Hub and Stats pages show, computed here so the app writes no rule of
/// its own: the gated apps and sites with today's numbers (`miga stats --days 1 --json`'s
/// rows), the last seven days (`miga stats --days 7 --json`) and this week against the last
/// (`miga stats --week --json`: exit share, top intentions).
public struct AppOverview: Equatable, Sendable {
    /// One tile of the Hub.
    public struct HubItem: Equatable, Sendable {
        public enum Kind: String, Sendable { case app, site }

        public var kind: Kind
        /// The app's name in config.toml, or the site as listed.
        public var name: String
        /// What opens it: the app's command, or the site.
        public var target: String
        /// The desktop entry's `Icon` (a theme name or an absolute path), nil without one.
        public var icon: String?
        /// Today's row of `miga stats --days 1` for it (zeros when it has none).
        public var today: StatsReport.AppRow

        /// The argv (argv[0]: miga's own path) that opens it through its gate: `miga gate`
        /// detached for an app (the gate shows its window without a terminal), `miga open-url`
        /// for a site, as a link clicked anywhere would.
        public func gateArguments(miga: String) -> [String] {
            switch kind {
            case .app: return [miga, "gate", "--app", name, "--detach", "--", target]
            case .site: return [miga, "open-url", "https://" + name + (name.contains("/") ? "" : "/")]
            }
        }

        /// "2 times today · 5.5 min", as the tile says it.
        public var todayLine: String {
            let times = today.sessions == 1 ? "once today" : "\(today.sessions) times today"
            return times + " · " + AppOverview.minutesText(seconds: today.focusSeconds) + " min"
        }
    }

    public var hub: [HubItem]
    /// The last seven days, today included.
    public var days: StatsReport
    public var week: WeekReport
    /// Why the config could not be read (the numbers still show), nil when it could.
    public var configProblem: String?

    public static let chartDays = 7

    /// Focused seconds as `miga stats --json` writes their minutes ("4.5").
    public static func minutesText(seconds: Int) -> String {
        JSONText.number(StatsReport.minutes(seconds: seconds), places: 1)
    }

    /// Everything the pages show, from the config in force and the event store.
    public static func load(context: MigaContext) throws -> AppOverview {
        var problem: String?
        let config: MigaConfig
        do {
            config = try ConfigInForce.load(context: context).config
        } catch {
            problem = "\(error)"
            config = MigaConfig()
        }
        let store = try EventStore.openForReading(config: config, context: context)
        let today = LocalMoment(clock: context.clock).day
        let locator = DesktopEntryLocator(environment: context.environment)
        let entries = locator.entries(warn: { _ in })
        func icon(_ command: String) -> String? {
            entries.first { DesktopShim.runs(command, entry: $0.entry) && $0.entry.string("Icon") != nil }?.entry.string("Icon")
        }
        return AppOverview(hub: try hub(config: config, store: store, today: today, icon: icon),
                           days: try StatsReport.build(store: store, today: today, days: chartDays),
                           week: try WeekReport.build(store: store, weekOf: today, today: today),
                           configProblem: problem)
    }

    /// The gated apps (by name) then the gated sites (in the config's order), each with today's row.
    public static func hub(config: MigaConfig, store: EventStore?, today: CivilDay, icon: (String) -> String?) throws -> [HubItem] {
        let rows = try StatsReport.build(store: store, today: today, days: 1).apps
        func row(_ name: String) -> StatsReport.AppRow { rows.first { $0.app == name } ?? StatsReport.AppRow(app: name) }
        let apps = config.apps.values.sorted { $0.name < $1.name }.map {
            HubItem(kind: .app, name: $0.name, target: $0.command, icon: icon($0.command), today: row($0.name))
        }
        let sites = config.sites.map {
            HubItem(kind: .site, name: $0, target: $0, icon: nil, today: row(SiteMatcher.appName(site: $0)))
        }
        return apps + sites
    }

    /// Whether nothing is gated yet: the app's first run shows the welcome.
    public static func nothingGated(context: MigaContext) -> Bool {
        guard let config = try? ConfigInForce.load(context: context).config else { return false }
        return config.apps.isEmpty && config.sites.isEmpty
    }
}
