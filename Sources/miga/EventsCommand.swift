import ArgumentParser
import FoundationEssentials
import MigaCore

extension EventStore.ExportFormat: ExpressibleByArgument {}

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Your events, out and back in.",
        subcommands: [Export.self, Import.self]
    )

    struct Export: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every event, oldest first (JSONL: one JSON object per line; or CSV).",
            discussion: """
                Each line: {"ts":"2026-11-21T09:30:00.000+01:00","type":"exit_selected","app":"discord",\
                "session":"…","content_id":null,"wait_ms":31000,"detail":null}

                Examples:
                  miga events export > miga-events.jsonl
                  miga events export --format csv --output miga-events.csv
                """
        )

        @Option(help: "jsonl or csv.")
        var format = EventStore.ExportFormat.jsonl

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (replaced whole, only when complete) instead of standard output.",
                                                        valueName: "file"))
        var output: String?

        func run(_ context: MigaContext) throws {
            // Every machine's events, with sync_folder: the others' folded in first.
            let config = (try? ConfigInForce.load(context: context))?.config ?? MigaConfig()
            guard let store = try EventStore.openForReading(config: config, context: context) else {
                if format == .csv { try context.output.line(EventLine.csvHeader) }
                if let output { try AtomicFile.write(format == .csv ? EventLine.csvHeader + "\n" : "", to: output, mode: 0o600) }
                return
            }
            let report: StoredDataReport
            if let output {
                var data = Data()
                report = try store.export(format: format) { data.append($0) }
                try AtomicFile.write(data, to: output, mode: 0o600)
            } else {
                report = try store.export(format: format) { try context.output.write($0) }
            }
            if let summary = report.summary { CommandSupport.warn(summary, context) }
        }
    }

    struct Import: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read events exported by `miga events export` (JSONL or CSV); a bad line imports nothing.",
            discussion: """
                The whole file is read and checked first: a line that cannot be read stops the \
                import with its line number and nothing is imported. Then it is written in short \
                batches, and gates get the database between two. Events already present (same time, session, \
                type and app) are skipped, so importing a file twice counts nothing twice, and an \
                import stopped part-way is completed by importing the same file again. JSONL when \
                the first byte is `{`, else CSV with the header `events export --format csv` writes.

                Examples:
                  miga events import miga-events.jsonl
                  miga events import miga-events.csv
                  ssh old-laptop miga events export | miga events import -
                """
        )

        @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"),
                  completion: .file(extensions: ["jsonl", "csv"]))
        var file: String

        func run(_ context: MigaContext) throws {
            // Read as a stream (a pipe from another machine works too), one line in memory.
            guard let input = try (file == "-" ? InputFile.standardInput : InputFile(path: file)) else {
                throw ValidationError("\(file) is not a file; give the path of an exported .jsonl or .csv file")
            }
            let store = try EventStore(context: context, lockWait: .patient)
            let result = try store.importLines(from: .descriptor(input.descriptor), name: file == "-" ? "stdin" : file)
            // With sync_folder, what came in goes to this machine's journal now, not a
            // batch per launch.
            if let config = try? ConfigInForce.load(context: context).config, store.useSyncFolder(of: config, context: context) == nil {
                do { try store.catchUpJournal() } catch { context.messages.say("miga: the imported events wait to go to the sync folder: \(error)") }
            }
            try context.output.line("Imported \(result.imported) event\(result.imported == 1 ? "" : "s")"
                                    + (result.alreadyPresent > 0 ? " (\(result.alreadyPresent) already present, skipped)." : "."))
        }
    }
}
