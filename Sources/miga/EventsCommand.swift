import ArgumentParser
import FoundationEssentials
import Glibc
import MigaCore

extension EventStore.ExportFormat: ExpressibleByArgument {}

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Your events, out and back in.",
        subcommands: [Export.self, Import.self]
    )

    struct Export: ParsableCommand {
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

        func run() throws {
            try CommandSupport.run { context in
                // Every machine's events, with sync_folder: the others' folded in first.
                let config = (try? ConfigInForce.load(context: context))?.config ?? MigaConfig()
                guard let store = try EventStore.openForReading(config: config, context: context) else {
                    if format == .csv { print(EventLine.csvHeader) }
                    if let output { try AtomicFile.write(format == .csv ? EventLine.csvHeader + "\n" : "", to: output, mode: 0o600) }
                    return
                }
                let report: StoredDataReport
                if let output {
                    var data = Data()
                    report = try store.export(format: format) { data.append($0) }
                    try AtomicFile.write(data, to: output, mode: 0o600)
                } else {
                    report = try store.export(format: format) { try LinuxSystem.write($0, to: STDOUT_FILENO, name: "standard output") }
                }
                if let summary = report.summary { CommandSupport.warn(summary) }
            }
        }
    }

    struct Import: ParsableCommand {
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

        func run() throws {
            try CommandSupport.run { context in
                // Read as a stream (a pipe from another machine works too), one line in memory.
                var fd = STDIN_FILENO
                if file != "-" {
                    var info = stat()
                    guard stat(file, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
                        throw ValidationError("\(file) is not a file; give the path of an exported .jsonl or .csv file")
                    }
                    fd = open(file, O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { throw LinuxError(operation: "open \(file)", code: errno) }
                }
                defer { if fd != STDIN_FILENO { close(fd) } }
                let store = try EventStore(paths: context.paths, lockWait: .patient)
                let result = try store.importLines(from: .descriptor(fd), name: file == "-" ? "stdin" : file)
                // With sync_folder, what came in goes to this machine's journal now, not a
                // batch per launch.
                if let config = try? ConfigInForce.load(context: context).config, store.useSyncFolder(of: config, context: context) == nil {
                    do { try store.catchUpJournal() } catch { context.messages.say("miga: the imported events wait to go to the sync folder: \(error)") }
                }
                print("Imported \(result.imported) event\(result.imported == 1 ? "" : "s")"
                      + (result.alreadyPresent > 0 ? " (\(result.alreadyPresent) already present, skipped)." : "."))
            }
        }
    }
}
