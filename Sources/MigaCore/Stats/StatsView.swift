import JSON

/// The human view of `miga stats`: totals, streaks, a per-day chart of exits against opens
/// and a per-app table. Colour only when asked (a terminal without NO_COLOR).
public struct StatsView {
    public var color: Bool
    /// The terminal's width: the chart and the totals fit it, down to 40 columns.
    public var columns: Int
    public var palette: TerminalPalette

    public init(color: Bool, columns: Int = 80, palette: TerminalPalette = .dark) {
        self.color = color
        self.columns = max(40, columns)
        self.palette = palette
    }

    /// The longest bar: what is left of a line after "  2026-11-21 Mon " and " 12/3".
    var chartWidth: Int { min(30, columns - 26) }

    public func render(_ report: StatsReport, app: String? = nil) -> String {
        guard report.hasHistory else {
            return """
                No pauses yet, so nothing to count. Gate an app (miga config apps add NAME, then
                miga install); each time you choose Exit it shows up here, and days with an Exit
                make a streak.

                """
        }
        var lines = summaryLines(report, app: app)
        lines += chartLines(report)
        lines += appLines(report)
        lines += machineLines(report)
        return lines.joined(separator: "\n") + "\n"
    }

    private var green: (String) -> String { TextColumns.paint(palette.good, color: color) }
    private var dim: (String) -> String { TextColumns.paint("2", color: color) }
    private var bold: (String) -> String { TextColumns.paint("1", color: color) }

    /// The title and range, the totals (as many to a line as fit) and the streak.
    private func summaryLines(_ report: StatsReport, app: String?) -> [String] {
        let days = report.days.count
        var lines: [String] = []
        let title = "miga · last \(days) day\(days == 1 ? "" : "s")"
        let range = "(\(report.from) – \(report.to))" + (app.map { " · \(TerminalText.field($0))" } ?? "")
        if title.count + 1 + range.count <= columns {
            lines.append(bold(title) + " " + range)
        } else {
            lines.append(bold(title))
            lines.append(range)
        }
        lines.append("")
        let rate = Int((report.exitRate * 100).rounded())
        // The totals, as many to a line as fit.
        let totals = ["Exits \(report.exits)", "Opens \(report.opens)", "Reads \(report.reads)", "Sessions \(report.sessions)",
                      "Exit rate \(rate)%", "Waited \(JSONText.number(report.minutesWaited, places: 1)) min"]
            + (report.focusSeconds > 0 ? ["Spent \(JSONText.number(StatsReport.minutes(seconds: report.focusSeconds), places: 1)) min"] : [])
        var line = "", plain = ""
        for (index, part) in totals.enumerated() {
            if !plain.isEmpty, 2 + plain.count + 3 + part.count > columns {
                lines.append("  " + line)
                line = ""
                plain = ""
            }
            line += (plain.isEmpty ? "" : "   ") + (index == 0 ? green(part) : part)
            plain += (plain.isEmpty ? "" : "   ") + part
        }
        lines.append("  " + line)
        let current = report.streak.current
        lines.append("  Streak " + green("\(current) day\(current == 1 ? "" : "s")") + " (longest \(report.streak.longest))"
                     + (current == 0 ? dim("  — one Exit starts a new one") : ""))
        lines.append("")
        return lines
    }

    /// The last fortnight at most, and no day before the first pause: a first day's chart
    /// is one row, not thirteen of 0/0.
    private func chartLines(_ report: StatsReport) -> [String] {
        let recent = report.days.suffix(14)
        let chartDays = recent.filter { day in report.firstDay.map { day.date >= $0 } ?? true }
        let peak = max(1, chartDays.map { $0.exits + $0.opens }.max() ?? 1)
        let heading = chartDays.count < recent.count ? "since your first pause"
            : chartDays.count < report.days.count ? "last \(chartDays.count) days" : "per day"
        var lines = ["  " + heading + "        " + green("█ exits") + "  " + dim("░ opens")]
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        for day in chartDays {
            let scale = Double(chartWidth) / Double(peak)
            let exits = Int((Double(day.exits) * scale).rounded(.up))
            let opens = Int((Double(day.opens) * scale).rounded(.up))
            let bar = green(String(repeating: "█", count: exits)) + dim(String(repeating: "░", count: opens))
            let padding = String(repeating: " ", count: max(0, chartWidth + 1 - exits - opens))
            lines.append("  \(day.date) \(names[day.date.weekday]) \(bar)\(padding)\(day.exits)/\(day.opens)")
        }
        return lines
    }

    /// The per-app table, with the minutes spent when there are any. Narrow terminals drop the
    /// sessions column, then shorten long names.
    private func appLines(_ report: StatsReport) -> [String] {
        guard !report.apps.isEmpty else { return [] }
        // Names may come from another machine's journal: shown only through the sanitiser.
        let appNames = report.apps.map { TerminalText.field($0.app) }
        let longest = max(3, appNames.map(\.count).max() ?? 3)
        let spent = report.focusSeconds > 0 ? 9 : 0
        let sessions = 2 + longest + 33 + spent <= columns
        let width = min(longest, max(3, columns - 2 - (sessions ? 33 : 23) - spent))
        var lines = ["", "  " + bold(TextColumns.pad("app", width) + (sessions ? "  sessions" : "") + "  exits  opens  reads"
                                     + (spent > 0 ? "  minutes" : ""))]
        for (appName, row) in zip(appNames, report.apps) {
            let name = appName.count > width ? appName.prefix(width - 1) + "…" : appName
            let minutes = spent > 0 ? "  " + TextColumns.right(JSONText.number(StatsReport.minutes(seconds: row.focusSeconds), places: 1), 7) : ""
            lines.append("  \(TextColumns.pad(name, width))" + (sessions ? "  \(TextColumns.right(row.sessions, 8))" : "")
                         + "  \(TextColumns.right(row.exits, 5))  \(TextColumns.right(row.opens, 5))  \(TextColumns.right(row.reads, 5))"
                         + minutes)
        }
        return lines
    }

    /// The per-machine table, when the history is synced.
    private func machineLines(_ report: StatsReport) -> [String] {
        guard let machines = report.machines else { return [] }
        let names = machines.map { TerminalText.field($0.host ?? String($0.device.prefix(8))) + ($0.thisMachine ? " (this)" : "") }
        let width = min(max(7, names.map(\.count).max() ?? 7), max(7, columns - 2 - 33))
        var lines = ["", "  " + bold(TextColumns.pad("machine", width) + "  sessions  exits  opens  reads")]
        for (name, row) in zip(names, machines) {
            let shown = name.count > width ? name.prefix(width - 1) + "…" : name
            lines.append("  \(TextColumns.pad(shown, width))  \(TextColumns.right(row.sessions, 8))"
                         + "  \(TextColumns.right(row.exits, 5))  \(TextColumns.right(row.opens, 5))  \(TextColumns.right(row.reads, 5))")
        }
        return lines
    }
}
