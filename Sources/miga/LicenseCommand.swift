import ArgumentParser
import MigaCore

struct LicenseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "license",
        abstract: "The 3-day trial and the one-time purchase.",
        discussion: """
            The trial starts at the first pause of an app or site you chose (never at the \
            demo, `doctor` or the welcome) and runs 72 hours. A licence is a one-time \
            purchase: the licence file arrives by email; `miga license activate FILE` \
            stores it. After the trial, until a licence is activated, apps and sites open \
            without a pause (stats, config and export keep working: your data is yours).

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
            for line in status.explanation { try context.output.line(line) }
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
