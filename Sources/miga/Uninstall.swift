import ArgumentParser
import MigaCore

struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove every file and line miga added, putting back what they replaced.",
        discussion: """
            Your own desktop files that a shim replaced come back, other lines of mimeapps.list \
            and your rc files stay as they are, and your previous browser is the default again. \
            Config, events and licence stay unless you add --purge.

            Examples:
              miga uninstall
              miga uninstall --purge
            """
    )

    @Flag(help: "Also delete config, events and state (everything below miga's XDG folders).")
    var purge = false

    func run() throws {
        try CommandSupport.run { context in
            let installer = try Installer(context: context)
            try installer.uninstall(purge: purge)
            CommandSupport.print(installer.changes)
            print(purge ? "miga is uninstalled and its data deleted." : "miga is uninstalled; your config and events are kept (--purge deletes them).")
        }
    }
}
