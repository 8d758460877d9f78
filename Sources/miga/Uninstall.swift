import ArgumentParser
import FoundationEssentials
import Glibc
import MigaCore

struct Uninstall: ParsableCommand {
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

    func run() throws {
        try CommandSupport.run { context in
            let installer = try Installer(context: context)
            if purge, !yes {
                let doomed = installer.purgeList()
                if !doomed.isEmpty {
                    guard LinuxSystem.isTerminal(STDIN_FILENO) else {
                        throw ValidationError("--purge would delete \(doomed.joined(separator: "; ")); add --yes to confirm, or run it on a terminal")
                    }
                    print("miga uninstall --purge deletes:")
                    for line in doomed { print("  - \(line)") }
                    let kept = installer.notOwnData()
                    if !kept.isEmpty {
                        print("It keeps what miga did not make in its data folder:")
                        for path in kept { print("  - \(installer.layout.display(path))") }
                    }
                    print("Delete all of this? [y/N] ", terminator: "")
                    fflush(nil) // all output streams, stdout among them (Swift 6 cannot prove C's `stdout` safe to read)
                    let answer = (readLine() ?? "").trimming(.whitespaces).lowercased()
                    guard answer == "y" || answer == "yes" else {
                        print("Nothing was changed.")
                        return
                    }
                }
            }
            try installer.uninstall(purge: purge)
            CommandSupport.print(installer.changes)
            print(purge ? "miga is uninstalled and its data deleted." : "miga is uninstalled; your config and events are kept (--purge deletes them).")
            // bash remembers where it found a command: a shell open now still runs the removed shim.
            print("Shells open now may still look for miga's shims (\"No such file or directory\"): run `hash -r` in each, or open a new shell.")
        }
    }
}
