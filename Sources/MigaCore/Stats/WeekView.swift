import Foundation

/// The human view of `miga stats --week`: the week's totals beside last week's, a row per
/// app, the intentions given most often, the streak.
public struct WeekView {
    public var color: Bool

    public init(color: Bool) { self.color = color }

    public func render(_ report: WeekReport, today: CivilDay) -> String {
        guard report.hasHistory else {
            return "No pauses yet, so no week to show. Each Exit and Open shows up here.\n"
        }
        let bold = paint("1"), green = paint("32"), dim = paint("2")
        var lines = [bold("miga · this week") + " (\(report.from) – \(report.to)) " + dim("against last week"), ""]
        func row(_ label: String, _ now: String, _ before: String) -> String {
            "  " + pad(label, 16) + left(now, 8) + "  " + dim(left(before, 9))
        }
        lines.append("  " + pad("", 16) + left("this", 8) + "  " + left("last", 9))
        let week = report.week, last = report.lastWeek
        lines.append(row("Exits", "\(week.exits)", "\(last.exits)").replacingFirst("Exits", with: green("Exits")))
        lines.append(row("Opens", "\(week.opens)", "\(last.opens)"))
        lines.append(row("Pauses", "\(week.sessions)", "\(last.sessions)"))
        lines.append(row("Minutes waited", JSONText.number(week.minutesWaited, places: 1), JSONText.number(last.minutesWaited, places: 1)))
        lines.append(row("Exit rate", "\(Int((week.exitRate * 100).rounded()))%", "\(Int((last.exitRate * 100).rounded()))%"))
        lines.append("  Streak " + green("\(report.streak.current) day\(report.streak.current == 1 ? "" : "s")")
                     + " (longest \(report.streak.longest))")
        if !report.apps.isEmpty {
            lines.append("")
            let width = min(24, max(3, report.apps.map { $0.app.count }.max() ?? 3))
            lines.append("  " + bold(pad("app", width) + "   exits  opens  minutes" + "   " + "last: exits opens"))
            for app in report.apps {
                let name = app.app.count > width ? app.app.prefix(width - 1) + "…" : app.app
                lines.append("  \(pad(String(name), width))   \(left("\(app.week.exits)", 5))  \(left("\(app.week.opens)", 5))  "
                             + left(JSONText.number(app.week.minutesWaited, places: 1), 7)
                             + "   " + dim("      \(left("\(app.lastWeek.exits)", 5)) \(left("\(app.lastWeek.opens)", 5))"))
            }
        }
        if !report.intentions.isEmpty {
            lines.append("")
            lines.append("  " + bold("What you came to do"))
            for intention in report.intentions {
                lines.append("  \(left("\(intention.count)×", 4)) \(TerminalText.forScreen(intention.text))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func paint(_ code: String) -> (String) -> String {
        { text in color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func left(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
