import ArgumentParser
import FoundationEssentials
import MigaCore

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "One history across your machines, through a folder your sync tool shares.",
        discussion: """
            With sync_folder set, each machine appends its own events to its own files in that \
            folder (ID/events-YYYY-MM.jsonl) and folds in the other machines' files, so streaks, \
            "3rd time today", stats and the week count every machine. Use any tool that keeps a \
            folder the same on each machine: Syncthing, Nextcloud, Dropbox, a USB stick copied \
            across. miga never talks to the tool, and its database never goes in the folder. \
            Grace stays per machine.

            Examples:
              miga config set sync_folder ~/Sync/miga   # on each machine
              miga sync status
              miga sync status --json | jq '.machines[] | {device, events}'
            """,
        subcommands: [SyncStatusCommand.self, SyncPushCommand.self],
        defaultSubcommand: SyncStatusCommand.self
    )
}

struct SyncStatusCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "This machine's id, the machines seen, when each last wrote, and what could not be read.",
        discussion: """
            It first folds in what the other machines wrote and puts any of this machine's events \
            not yet there into the folder, then reports.

            Examples:
              miga sync status
              miga sync status --json
            """
    )

    @Flag(help: "Print {\"device\",\"folder\",\"machines\":[{\"device\",\"host\",\"this_machine\",\"last_write\",\"events\"}],\"behind\",\"unwritten\",\"unread_bytes\",\"skipped\"} as JSON.")
    var json = false

    func run(_ context: MigaContext) throws {
        let config = try ConfigInForce.load(context: context).config
        let store = try EventStore.openForReading(config: config, context: context)
        let device = config.syncFolder.isEmpty ? nil : store?.journal?.device
        let report = try SyncReport.build(store: store, device: device,
                                          offsetMinutes: context.clock.utcOffsetMinutes(at: context.clock.now()),
                                          processes: context.processes)
        try context.output.write(json ? report.json + "\n" : report.text)
        if let problem = store?.journalProblem { context.messages.say("miga: \(problem)") }
    }
}
