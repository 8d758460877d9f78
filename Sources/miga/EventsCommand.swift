import ArgumentParser
import Foundation
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
                guard let store = try EventStore.openExisting(path: context.paths.database) else {
                    if format == .csv { print(EventLine.csvHeader) }
                    if let output { try AtomicFile.write(format == .csv ? EventLine.csvHeader + "\n" : "", to: output, mode: 0o600) }
                    return
                }
                if let output {
                    var data = Data()
                    try store.export(format: format) { data.append($0) }
                    try AtomicFile.write(data, to: output, mode: 0o600)
                } else {
                    try store.export(format: format) { try LinuxSystem.write($0, to: STDOUT_FILENO, name: "standard output") }
                }
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read events exported by `miga events export` (JSONL), all or nothing.",
            discussion: """
                One transaction: a line that cannot be read stops the import with its line number \
                and nothing is imported. Events already present (same time, session, type and app) \
                are skipped, so importing a file twice counts nothing twice.

                Examples:
                  miga events import miga-events.jsonl
                  ssh old-laptop miga events export | miga events import -
                """
        )

        @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"),
                  completion: .file(extensions: ["jsonl"]))
        var file: String

        func run() throws {
            try CommandSupport.run { context in
                let data: Data
                if file == "-" {
                    data = try LinuxSystem.readAll(from: STDIN_FILENO, name: "standard input")
                } else {
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                        throw ValidationError("\(file) is not a file; give the path of an exported .jsonl file")
                    }
                    data = try Data(contentsOf: URL(fileURLWithPath: file), options: .mappedIfSafe)
                }
                let result = try EventStore(path: context.paths.database).importLines(data, name: file == "-" ? "stdin" : file)
                print("Imported \(result.imported) event\(result.imported == 1 ? "" : "s")"
                      + (result.alreadyPresent > 0 ? " (\(result.alreadyPresent) already present, skipped)." : "."))
            }
        }
    }
}
