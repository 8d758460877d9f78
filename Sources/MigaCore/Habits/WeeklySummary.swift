import FoundationEssentials

/// `weekly_summary = true`: at the first gate of a new week (Monday 00:00, local), a desktop
/// notification of the week just ended. The Monday it was sent for is kept in
/// `~/.local/state/miga/weekly-summary`, so it comes once a week however many gates follow.
struct WeeklySummary {
    let context: MigaContext

    var markerPath: String { context.paths.stateDirectory + "/weekly-summary" }

    /// Sends last week's summary if this week's has not gone yet. Without a graphical session
    /// or `notify-send` nothing is sent and nothing marked: the next gate on the desktop will.
    func sendIfDue(store: EventStore, today: CivilDay) {
        let monday = today.adding(days: -today.weekday)
        let sent = AtomicFile.read(markerPath).map { String(decoding: $0.prefix(64), as: UTF8.self).trimming(.whitespacesAndNewlines) }
        guard sent != monday.description,
              context.desktopNotifier != nil,
              let report = try? WeekReport.build(store: store, weekOf: monday.adding(days: -7), today: today) else { return }
        try? context.files.makeDirectories(context.paths.stateDirectory, mode: 0o700)
        guard (try? AtomicFile.write(monday.description + "\n", to: markerPath, mode: 0o600)) != nil else { return }
        context.notifyDesktop(title: "miga · your week \(report.from) – \(report.to)", report.summary)
    }
}
