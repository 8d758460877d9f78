import ArgumentParser
import MigaCore

/// `miga timebox-watch SESSION GROUP [START]`: started by the gate beside a desktop app opened "for
/// 10 minutes", never by hand (hidden from help). See `TimeboxWatch`.
struct TimeboxWatchCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: TimeboxWatch.commandName,
        abstract: "The soft end of a desktop app's timebox (started by `miga gate`, not by you).",
        shouldDisplay: false
    )

    @Argument(help: "The gate session whose Open declared the minutes.")
    var session: String

    @Argument(help: "The process group of the app the gate started.")
    var group: Int32

    @Argument(help: "When the group's leader started (clock ticks after boot; 0: it had ended). Left out: read now.")
    var leaderStart: UInt64?

    func run(_ context: MigaContext) throws {
        let app = leaderStart.map { AppProcessGroup(group: group, leaderStart: $0 == 0 ? nil : $0) } ?? .now(group)
        _ = TimeboxWatch(context: context).run(session: session, group: app)
    }
}
