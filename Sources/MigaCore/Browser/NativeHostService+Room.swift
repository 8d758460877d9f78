import FoundationEssentials

// The room, not just the door (DESIGN), through the browser: a tab come back to, focused
// time, and the daily budget's soft end. Every decision is `GateService+Room`'s.
extension NativeHostService {
    /// A gated site's tab came to the front: whether it meets a gate, decided by the gate
    /// service and recorded nowhere (the gate over the page that follows records its own).
    func comingBack(url: String, awaySeconds: Int64?) throws -> HostToExtension {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let found = Self.site(of: url, setup) else { return .reentry(gate: false, site: nil) }
        let service = GateService(config: setup.config, store: try store(), context: context)
        return .reentry(gate: service.returnMeetsGate(found.app, isSite: true, awaySeconds: awaySeconds), site: found.site)
    }

    /// Focused seconds on a gated site's tab: a `focus` event, today's minutes, and the budget's
    /// soft end once they reach `minutes_per_day`. An address of no gated site records nothing.
    func focus(url: String, seconds: Int) throws -> HostToExtension.Focus {
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let found = Self.site(of: url, setup) else { return HostToExtension.Focus(site: nil, minutesToday: 0) }
        let (site, app) = found
        let service = GateService(config: setup.config, store: try store(), context: context)
        if let problem = service.recordFocus(app, seconds: seconds) { throw ReplyError("could not record the focused time: \(problem)") }
        let focused = service.focusSecondsToday(app)
        let budget = service.budgetEndDue(app, isSite: true, focusSeconds: focused).map { minutes in
            HostToExtension.BudgetEnd(site: site, minutes: minutes, message: DailyBudget.message(minutes: minutes, site: app),
                                      choices: DailyBudget.siteChoices)
        }
        return HostToExtension.Focus(site: site, minutesToday: StatsReport.minutes(seconds: focused), budgetEnd: budget)
    }

    /// The budget's soft end answered in a site's tabs: recorded once a day.
    func endBudget(url: String, choice: String) throws -> Bool {
        guard DailyBudget.choices.contains(choice) else {
            throw ReplyError("unknown choice \"\(TerminalText.visible(choice))\" (one of \(DailyBudget.choices.joined(separator: ", ")))")
        }
        let setup = BrowserSetup.load(context: context)
        guard setup.gating, let found = Self.site(of: url, setup) else { return false }
        let service = GateService(config: setup.config, store: try store(), context: context)
        do {
            return try service.endBudget(found.app, isSite: true, choice: choice)
        } catch {
            throw ReplyError("\(error)")
        }
    }

    /// The gated site of `url` as the extension knows it (its entry in `sites`) and its app
    /// name (what events name), or nil.
    static func site(of url: String, _ setup: BrowserSetup) -> (site: String, app: String)? {
        guard let site = setup.matcher.site(for: url) else { return nil }
        let app = SiteMatcher.appName(site: site)
        return (setup.matcher.sites.first { SiteMatcher.appName(site: $0) == app } ?? site, app)
    }
}
