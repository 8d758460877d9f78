import ArgumentParser
import FoundationEssentials
import MigaCore

extension ContentKind: ExpressibleByArgument {}

struct ContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content",
        abstract: "The quotes, affirmations and short reads the gateway shows.",
        discussion: """
            The bundled packs are compiled in; your own packs in ~/.local/share/miga/quotes/*.toml \
            join the rotation (a broken one is skipped with a warning).

            Examples:
              miga content list --kind article
              miga content show stoic-speck
              miga content validate ~/.local/share/miga/quotes/mine.toml
            """,
        subcommands: [List.self, Show.self, Validate.self]
    )

    static func library(_ context: MigaContext) throws -> ContentLibrary {
        try ContentLibrary.load(userFolder: context.paths.userContentDirectory, files: context.files) { CommandSupport.warn($0, context) }
    }

    struct List: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "One line per item: id, kind, category, and the start of its text.",
            discussion: "An item whose category is off (an extra category not in extra_categories) shows \"(off)\" after it.")

        @Option(help: "quote, affirmation or article.")
        var kind: ContentKind?

        @Option(help: ArgumentHelp("Only this category.", valueName: "category"))
        var category: String?

        func run(_ context: MigaContext) throws {
            // Which extra categories are on: as the gate reads them (a broken config turns none on).
            let extras = (try? ConfigInForce.load(context: context).config.extraCategories) ?? []
            var anyOff = false
            for item in try ContentCommand.library(context).items
                where (kind == nil || item.kind == kind) && (category == nil || item.category == category) {
                // One line per item: its breaks and tabs become spaces, other controls U+FFFD.
                let text = TerminalText.forScreen(item.title ?? item.text).replacingEvery("\n", with: " ")
                let off = !ContentLibrary.isShown(item, extraCategories: extras)
                anyOff = anyOff || off
                let category = TerminalText.forScreen(item.category) + (off ? " (off)" : "")
                try context.output.line("\(item.id)\t\(item.kind.rawValue)\t\(category)\t\(text.count > 60 ? String(text.prefix(59)) + "…" : text)")
            }
            if anyOff {
                let names = ContentLibrary.extraCategories.map(\.name).joined(separator: ",")
                context.messages.say("miga: items marked (off) are shown only when you turn their category on: `miga config set extra_categories \(names)`")
            }
        }
    }

    struct Show: ContextCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print one item whole.")

        @Argument(help: ArgumentHelp("The item's id (see `miga content list`).", valueName: "id"))
        var id: String

        func run(_ context: MigaContext) throws {
            guard let item = try ContentCommand.library(context).item(id: id) else {
                throw ValidationError("no item \"\(id)\"; see `miga content list`")
            }
            if let title = item.title { try context.output.line(TerminalText.forScreen(title) + "\n") }
            try context.output.line(TerminalText.visible(item.text))
            if let author = item.author { try context.output.line("— \(TerminalText.forScreen(author))") }
            try context.output.line("\n(\(item.id), \(item.kind.rawValue), \(TerminalText.forScreen(item.category)))")
        }
    }

    struct Validate: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check content packs: every problem with its file and line (duplicate id, unknown kind or key, missing text, over-long quote).")

        @Argument(help: ArgumentHelp("The pack files.", valueName: "path"), completion: .file(extensions: ["toml"]))
        var paths: [String]

        func run(_ context: MigaContext) throws {
            var failed = false
            // Bundled ids are taken, except those of a bundled pack whose own source is checked.
            var ids: [String: String] = [:]
            for id in ContentLibrary.bundledIDs(excludingPacksNamed: Set(paths.map { FilePath.lastComponent(of: $0) })) {
                ids[id] = "a bundled pack"
            }
            for path in paths {
                // Every problem at once, each with its line: one run shows all there is to fix.
                let report = ContentLibrary.checkPack(path: path, knownIDs: &ids)
                for warning in report.warnings { CommandSupport.warn("\(warning)", context) }
                for problem in report.problems { context.messages.say("miga: \(problem)") }
                if report.problems.isEmpty {
                    let count = report.items.count
                    try context.output.line("\(path): ok, \(count) item\(count == 1 ? "" : "s")\(report.warnings.isEmpty ? "" : " (\(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s"))")")
                } else {
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }
}
