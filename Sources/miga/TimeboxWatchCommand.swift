import ArgumentParser
import MigaCore

/// `miga timebox-watch SESSION GROUP`: started by the gate beside a desktop app opened "for
/// 10 minutes", never by hand (hidden from help). See `TimeboxWatch`.
struct TimeboxWatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: TimeboxWatch.commandName,
        abstract: "The soft end of a desktop app's timebox (started by `miga gate`, not by you).",
        shouldDisplay: false
    )

    @Argument(help: "The gate session whose Open declared the minutes.")
    var session: String

    @Argument(help: "The process group of the app the gate started.")
    var group: Int32

    func run() throws {
        try CommandSupport.run { context in
            _ = TimeboxWatch(context: context).run(session: session, group: group)
        }
    }
}
