import ArgumentParser
import FoundationEssentials
import MigaCore

struct Uninstall: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove every file and line miga added, putting back what they replaced.",
        discussion: """
            Your own desktop files that a shim replaced come back, only miga's own entries leave \
            mimeapps.list and your rc files, and the browser you chose most recently (before or \
            since installing miga) is the default. Config, events and licence stay unless you add \
            --purge.

            --purge lists what it deletes (your own content packs by name, and this machine's \
            journal in the sync folder; other machines' journals stay) and asks first; \
            without a terminal it needs --yes. A trial's record stays, so a purge never starts \
            a new trial.

            Examples:
              miga uninstall
              miga uninstall --purge
              miga uninstall --purge --yes     # from a script
            """
    )

    @Flag(help: "Also delete config, events, your content packs and state (everything below miga's XDG folders).")
    var purge = false

    @Flag(help: "With --purge: delete without asking.")
    var yes = false

    func run(_ context: MigaContext) throws {
        let installer = try Installer(context: context)
        if purge, !yes {
            let doomed = installer.purgeList()
            if !doomed.isEmpty {
                guard context.terminal.isTerminal(.standardInput) else {
                    throw ValidationError("--purge would delete \(doomed.joined(separator: "; ")); add --yes to confirm, or run it on a terminal")
                }
                try context.output.line("miga uninstall --purge deletes:")
                for line in doomed { try context.output.line("  - \(line)") }
                let kept = installer.notOwnData()
                if !kept.isEmpty {
                    try context.output.line("It keeps what miga did not make in its data folder:")
                    for path in kept { try context.output.line("  - \(installer.layout.display(path))") }
                }
                try context.output.write("Delete all of this? [y/N] ")
                let answer = (readLine() ?? "").trimming(.whitespaces).lowercased()
                guard answer == "y" || answer == "yes" else {
                    try context.output.line("Nothing was changed.")
                    return
                }
            }
        }
        try installer.uninstall(purge: purge)
        try context.output.lines(installer.changes)
        try context.output.line(purge ? "miga is uninstalled and its data deleted." : "miga is uninstalled; your config and events are kept (--purge deletes them).")
        // bash remembers where it found a command: a shell open now still runs the removed shim.
        try context.output.line("Shells open now may still look for miga's shims (\"No such file or directory\"): run `hash -r` in each, or open a new shell.")
    }
}
