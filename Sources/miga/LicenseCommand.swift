import ArgumentParser
import MigaCore

struct LicenseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "license",
        abstract: "The 3-day trial and the one-time purchase.",
        discussion: """
            The trial starts the first time miga is used and runs 72 hours. After it, until a \
            licence is activated, apps open without a pause (stats, config and export keep \
            working: your data is yours).

            Examples:
              miga license
              miga license activate ~/Downloads/ada.miga-license
            """,
        subcommands: [Status.self, Activate.self],
        defaultSubcommand: Status.self
    )

    struct Status: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Say whether the trial runs, has ended, or a licence is active, and which file says so.")

        func run(_ context: MigaContext) throws {
            let status = EntitlementStore(context: context).status()
            try context.output.line(status.summary)
            try context.output.line("(\(status.path))")
        }
    }

    struct Activate: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "activate",
            abstract: "Check a licence file's signature and store it; anything wrong keeps the current entitlement.",
            discussion: "Example:\n  miga license activate ~/Downloads/ada.miga-license")

        @Argument(help: ArgumentHelp("The licence file you received.", valueName: "file"), completion: .file())
        var file: String

        func run(_ context: MigaContext) throws {
            let store = EntitlementStore(context: context)
            try Installer(context: context).prepareConfigFolder()
            let payload = try store.activate(licensePath: file)
            try context.output.line("Thank you, \(payload.licensee): licence \(payload.licenseID) is active.")
            try context.output.line("(\(store.path))")
        }
    }
}
