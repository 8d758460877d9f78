import JSON

/// `minutes_per_day`: a day's focused minutes on an app or site, and the soft end that asks
/// once when they run out during use (DESIGN "The room, not just the door"). A gateway, never
/// a lock: past it the gate waits longer and Open says "Open anyway" (`GatePlan`), and the soft
/// end's "Keep going" is always there.
public enum DailyBudget {
    /// What the soft end may be answered with: close the tab (or app), keep going, or `gone`
    /// (nothing of it was left to ask).
    public static let choices = ["close", "keep", "gone"]
    /// What a site's soft end offers, in order, with what its buttons say.
    public static let siteChoices: [(choice: String, label: String)] = [("close", "Close tab"), ("keep", "Keep going")]

    /// The budget of `app` (0: none): its own, else the global one.
    public static func minutes(config: MigaConfig, app: String, isSite: Bool) -> Int {
        let entry = isSite ? config.siteEntry(app: app) : config.apps[app]
        let minutes = entry?.minutesPerDay ?? config.minutesPerDay
        return MigaConfig.minutesPerDayRange.contains(minutes) ? minutes : 0
    }

    /// "Your 30 minutes on reddit.com for today are used".
    public static func message(minutes: Int, site: String) -> String {
        "Your \(minutes) minute\(minutes == 1 ? "" : "s") on \(site) for today \(minutes == 1 ? "is" : "are") used"
    }

    /// The soft end's `timebox_ended` detail.
    static func detail(minutes: Int, choice: String) -> String {
        OrderedJSON.object([("budget", .bool(true)), ("minutes", .int(minutes)), ("choice", .string(choice))]).text
    }
}
