import ArgumentParser
import FoundationEssentials
import MigaCore

/// A command that runs on a context: `run(_:)` does the work and writes through
/// `context.output` and `context.messages`, so tests run it in-process on a context of their
/// own (`Tests/MigaCommandTests`); ArgumentParser's `run()` hands it the live one.
protocol ContextCommand: ParsableCommand {
    func run(_ context: MigaContext) throws
}

extension ContextCommand {
    /// ArgumentParser's entry: the command on the live context.
    func run() throws { try CommandSupport.run(run(_:)) }
}

/// What every command but `gate` shares: the live context, and errors printed as one
/// `miga: …` line (saying what to do next) with exit status 1.
enum CommandSupport {
    static func context() throws -> MigaContext {
        do {
            return try MigaContext.live()
        } catch {
            throw ExitCode(fail(error, messages: StandardErrorSink()))
        }
    }

    /// Runs a command's body with the live context; any error becomes one `miga: …` line and
    /// exit status 1.
    static func run(_ body: (MigaContext) throws -> Void) throws {
        let status = status(of: body, in: try context())
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs `body` on `context`: its exit status, and any error said as one `miga: …` line.
    static func status(of body: (MigaContext) throws -> Void, in context: MigaContext) -> Int32 {
        if ConfigFile(path: context.paths.configFile, files: context.files).writeFormerSitesIn() {
            context.messages.say(ConfigFile.formerSitesNote)
        }
        do {
            try body(context)
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            return fail(error, messages: context.messages)
        }
    }

    static func warn(_ line: String, _ context: MigaContext) {
        context.messages.say("miga: warning: \(line)")
    }

    /// Says `error` and returns the exit status. Output whose reader left (`miga events
    /// export | head -1`) ends quietly with 0: the reader had what it wanted.
    static func fail(_ error: Error, messages: any MessageSink) -> Int32 {
        if let error = error as? LinuxError, error.isClosedOutput { return 0 }
        messages.say("miga: \(error)")
        return ExitCode.failure.rawValue
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

    /// The colours for this terminal's background (TerminalPalette).
    static func palette(_ context: MigaContext) -> TerminalPalette { TerminalPalette(environment: context.environment) }

    /// Colour only for a terminal, and never when NO_COLOR is set (no-color.org).
    static func useColor(_ context: MigaContext) -> Bool {
        context.output.isTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty && context.environment["TERM"] != "dumb"
    }
}
