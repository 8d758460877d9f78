import ArgumentParser
import FoundationEssentials
import Glibc
import MigaCore

/// What every command but `gate` shares: the live context, and errors printed as one
/// `miga: …` line (saying what to do next) with exit status 1.
enum CommandSupport {
    static func context() throws -> MigaContext {
        do {
            return try MigaContext.live()
        } catch {
            throw fail(error)
        }
    }

    /// Runs a command's body with the live context; any error becomes one `miga: …` line and
    /// exit status 1.
    static func run(_ body: (MigaContext) throws -> Void) throws {
        let context = try context()
        do {
            try body(context)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }

    static func warn(_ line: String) {
        LinuxSystem.say("miga: warning: \(TerminalText.visible(line))\n")
    }

    /// Prints `error` and returns the exit to throw. Output whose reader left (`miga events
    /// export | head -1`) ends quietly with 0: the reader had what it wanted.
    static func fail(_ error: Error) -> ExitCode {
        if let error = error as? LinuxError, error.code == EPIPE, error.operation == "write to standard output" {
            return ExitCode.success
        }
        LinuxSystem.say("miga: \(TerminalText.visible("\(error)"))\n")
        return ExitCode.failure
    }

    static func print(_ lines: [String]) {
        for line in lines { Swift.print(line) }
    }

    /// Tab completion of the configured apps (`miga config apps remove <Tab>`).
    @Sendable static func configuredApps(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        configured { $0.apps.keys.sorted() }.filter { $0.hasPrefix(prefix) }
    }

    /// Tab completion of config keys.
    @Sendable static func configKeys(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        configured { ConfigKeys.all(in: $0) }.filter { $0.hasPrefix(prefix) }
    }

    /// Tab completion of the gated sites.
    @Sendable static func configuredSites(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        configured { $0.sites }.filter { $0.hasPrefix(prefix) }
    }

    private static func configured(_ values: (MigaConfig) -> [String]) -> [String] {
        guard let context = try? MigaContext.live(),
              let config = try? ConfigLoader().load(path: context.paths.configFile).config else { return [] }
        return values(config)
    }

    /// Colour only for a terminal, and never when NO_COLOR is set (no-color.org).
    /// The colours for this terminal's background (TerminalPalette).
    static var palette: TerminalPalette { TerminalPalette(environment: ProcessInfo.processInfo.environment) }

    static var useColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        return LinuxSystem.isTerminal(STDOUT_FILENO) && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
}
