import CAdw
import MigaCore

/// The Stats page (DESIGN "Welcome, hub, stats and settings"): the last seven days' chart,
/// the streak, this week's exit share beside one sec's 36 %, per app, the top intentions.
/// Every number is MigaCore's (`AppOverview`: the reports of `miga stats --json`).
final class StatsPage {
    let widget: Widget
    private let model: AppModel

    init(model: AppModel) {
        self.model = model
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        reload()
    }

    func reload() {
        Widgets.empty(widget)
        let page = adw_preferences_page_new()!
        gtk_widget_set_vexpand(page, 1)
        switch model.overview() {
        case .failure(let problem):
            let group = Widgets.group("Cannot read your numbers")
            adw_preferences_group_add(miga_preferences_group(group), Widgets.label(String(describing: problem)))
            adw_preferences_page_add(miga_preferences_page(page), miga_preferences_group(group))
        case .success(let overview):
            for group in groups(overview) { adw_preferences_page_add(miga_preferences_page(page), miga_preferences_group(group)) }
        }
        gtk_box_append(miga_box(widget), page)
    }

    private func groups(_ overview: AppOverview) -> [Widget] {
        [chart(overview.days), streak(overview.days.streak), share(overview.week), perApp(overview.days), intentions(overview.week)]
    }

    private func chart(_ report: StatsReport) -> Widget {
        let group = Widgets.group("The last seven days", description: "\(count(report.exits, "exit")), \(count(report.opens, "open")), "
                                  + "\(minutes(report.focusSeconds)) min in gated apps and sites")
        let legend = Widgets.label("Green: exits · grey: opens", classes: ["dim-label", "caption"])
        adw_preferences_group_add(miga_preferences_group(group), Widgets.box(GTK_ORIENTATION_VERTICAL, spacing: 6,
                                                                            [StatsChart(days: report.days).widget, legend]))
        return group
    }

    private func streak(_ streak: Streaks) -> Widget {
        let group = Widgets.group("Streak", description: "A day with at least one Exit counts.")
        add([Widgets.row("Current streak", count(streak.current, "day")), Widgets.row("Longest streak", count(streak.longest, "day"))], to: group)
        return group
    }

    private func share(_ week: WeekReport) -> Widget {
        let group = Widgets.group("This week's exits", description: "Of the times you reached for a gated app or site, how often you left.")
        add([Widgets.row("Your exit share", percent(week.week.exitShare)),
             Widgets.row("one sec's users (a 2023 study)", percent(WeekReport.oneSecExitShare))], to: group)
        return group
    }

    private func perApp(_ report: StatsReport) -> Widget {
        let group = Widgets.group("Per app and site", description: "The last seven days.")
        let rows = report.apps.map {
            Widgets.row($0.app, "\(count($0.sessions, "pause")) · \(count($0.exits, "exit")) · \(count($0.opens, "open")) · \(minutes($0.focusSeconds)) min")
        }
        add(rows.isEmpty ? [Widgets.row("Nothing yet", "Numbers show here after your first pause.")] : rows, to: group)
        return group
    }

    private func intentions(_ week: WeekReport) -> Widget {
        let group = Widgets.group("What you came to do", description: "This week's intentions, most often first.")
        let rows = week.intentions.map { Widgets.row($0.text, $0.count == 1 ? "once" : "\($0.count) times") }
        add(rows.isEmpty ? [Widgets.row("No intentions yet", "With intention = true the pause asks what you are here to do.")] : rows, to: group)
        return group
    }

    private func add(_ rows: [Widget], to group: Widget) {
        rows.forEach { adw_preferences_group_add(miga_preferences_group(group), $0) }
    }

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
    private func minutes(_ seconds: Int) -> String { AppOverview.minutesText(seconds: seconds) }
    private func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
}
