import ArgumentParser
import FoundationEssentials
import MigaCore

struct DataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Your data: erase it.",
        subcommands: [Delete.self]
    )

    struct Delete: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Erase every event and the rotation state; config and licence stay.",
            discussion: """
                Asks first on a terminal; elsewhere needs --yes. The database file is rewritten \
                so nothing deleted lingers on disk. Export first if you may want it back. With \
                sync_folder set, this machine's own files in that folder are removed too; the \
                other machines' events stay theirs.

                Examples:
                  miga data delete
                  miga events export > backup.jsonl && miga data delete --yes
                """
        )

        @Flag(help: "Do not ask.")
        var yes = false

        func run(_ context: MigaContext) throws {
            guard let store = try EventStore.openExisting(context: context, lockWait: .patient) else {
                try context.output.line("No events recorded; nothing to delete.")
                return
            }
            let count = try store.eventCount()
            if !yes {
                guard context.terminal.isTerminal(.standardInput) else {
                    throw ValidationError("not deleting \(count) events without confirmation; add --yes")
                }
                try context.output.write("Delete all \(count) events and the content rotation state? Config and licence stay. [y/N] ")
                let answer = (readLine() ?? "").trimming(.whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else {
                    try context.output.line("Nothing deleted.")
                    throw ExitCode.failure
                }
            }
            let deleted = try store.deleteAll()
            try context.output.line("Deleted \(deleted) event\(deleted == 1 ? "" : "s") and the rotation state.")
            // With sync on, this machine's files in the folder go too; the other machines'
            // events are theirs, and come back at the next fold.
            let config = (try? ConfigInForce.load(context: context))?.config ?? MigaConfig()
            if store.useSyncFolder(of: config, context: context) == nil, let journal = store.journal {
                let removed = store.removeOwnJournal()
                try context.output.line("Removed this machine's \(removed) journal file\(removed == 1 ? "" : "s") from \(journal.folder). "
                                        + "The other machines' events come back from there; run `miga data delete` on each machine to erase them everywhere.")
            }
        }
    }
}
