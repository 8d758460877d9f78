import JSON

/// The human view of `miga stats --week`: the week's totals beside last week's, a row per
/// app, the intentions given most often, the streak.
public struct WeekView {
    public var color: Bool
    public var palette: TerminalPalette

    public init(color: Bool, palette: TerminalPalette = .dark) {
        self.color = color
        self.palette = palette
    }

    /// Exits of all pauses; "—" in a week without one, not a discouraging 0 %. The one
    /// share shown, beside one sec's figure: the exit rate (of choices made) beside it read as
    /// the same number twice, unexplained; it stays in `stats --week --json`.
    static func share(_ totals: WeekReport.Totals) -> String {
        totals.attempts == 0 ? "—" : "\(Int((totals.exitShare * 100).rounded()))%"
    }

    public func render(_ report: WeekReport, today: CivilDay) -> String {
        guard report.hasHistory else {
            return "No pauses yet, so no week to show. Each Exit and Open shows up here.\n"
        }
        let bold = TextColumns.paint("1", color: color), green = TextColumns.paint(palette.good, color: color), dim = TextColumns.paint("2", color: color)
        var lines = [bold("miga · this week") + " (\(report.from) – \(report.to)) " + dim("against last week"), ""]
        func row(_ label: String, _ now: String, _ before: String, paint: (String) -> String = { $0 }) -> String {
            "  " + paint(label) + TextColumns.pad("", 16 - label.count) + TextColumns.right(now, 8) + "  " + dim(TextColumns.right(before, 9))
        }
        lines.append("  " + TextColumns.pad("", 16) + TextColumns.right("this", 8) + "  " + TextColumns.right("last", 9))
        let week = report.week, last = report.lastWeek
        lines.append(row("Exits", "\(week.exits)", "\(last.exits)", paint: green))
        lines.append(row("Opens", "\(week.opens)", "\(last.opens)"))
        lines.append(row("Pauses", "\(week.sessions)", "\(last.sessions)"))
        lines.append(row("Minutes waited", JSONText.number(week.minutesWaited, places: 1), JSONText.number(last.minutesWaited, places: 1)))
        if report.countsFocus {
            lines.append(row("Minutes spent", "\(week.focusSeconds / 60)", "\(last.focusSeconds / 60)"))
        }
        lines.append(row("Exit share", Self.share(week), Self.share(last)) + dim("  (of pauses; one sec's study: \(Int(WeekReport.oneSecExitShare * 100))%)"))
        lines.append("  Streak " + green("\(report.streak.current) day\(report.streak.current == 1 ? "" : "s")")
                     + " (longest \(report.streak.longest))")
        if report.overAllowance > 0 {
            lines.append("  Opens past a day's allowance: \(report.overAllowance)")
        }
        if report.timeboxes > 0 {
            let boxes = report.timeboxes == 1 ? "1 timebox" : "\(report.timeboxes) timeboxes"
            lines.append("  Minutes you said: \(report.minutesDeclared), minutes used: \(report.minutesUsed) (\(boxes))")
        }
        if !report.apps.isEmpty {
            lines.append("")
            // Names and intentions may come from another machine's journal: only through the sanitiser.
            let appNames = report.apps.map { TerminalText.field($0.app) }
            let width = min(24, max(3, appNames.map(\.count).max() ?? 3))
            let spent = report.countsFocus ? "  spent" : ""
            lines.append("  " + bold(TextColumns.pad("app", width) + "   exits  opens  share  minutes" + spent + "   " + "last: exits opens"))
            for (appName, app) in zip(appNames, report.apps) {
                let name = appName.count > width ? appName.prefix(width - 1) + "…" : appName
                lines.append("  \(TextColumns.pad(String(name), width))   \(TextColumns.right("\(app.week.exits)", 5))  \(TextColumns.right("\(app.week.opens)", 5))  "
                             + TextColumns.right(Self.share(app.week), 5) + "  "
                             + TextColumns.right(JSONText.number(app.week.minutesWaited, places: 1), 7)
                             + (report.countsFocus ? TextColumns.right("\(app.week.focusSeconds / 60)", 7) : "")
                             + "   " + dim("      \(TextColumns.right("\(app.lastWeek.exits)", 5)) \(TextColumns.right("\(app.lastWeek.opens)", 5))"))
            }
        }
        if !report.alternatives.isEmpty {
            lines.append("")
            lines.append("  " + bold("What you did instead"))
            for choice in report.alternatives {
                lines.append("  \(TextColumns.right("\(choice.count)×", 4)) \(TerminalText.field(choice.text))")
            }
        }
        if !report.loosened.isEmpty {
            lines.append("")
            lines.append("  " + bold("Settings loosened (after their wait)"))
            for change in report.loosened {
                lines.append("  \(TerminalText.field(change.setting)): \(TerminalText.field(change.from)) → \(TerminalText.field(change.to))")
            }
        }
        if !report.intentions.isEmpty {
            lines.append("")
            lines.append("  " + bold("What you came to do"))
            for intention in report.intentions {
                lines.append("  \(TextColumns.right("\(intention.count)×", 4)) \(TerminalText.field(intention.text))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
