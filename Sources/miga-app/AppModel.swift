import MigaCore

/// What every page reads and changes: the person's miga, through MigaCore only. A context that
/// cannot be made (no HOME) leaves `problem` to show instead of the pages.
final class AppModel {
    let context: MigaContext?
    let problem: String?

    private init(context: MigaContext?, problem: String?) {
        self.context = context
        self.problem = problem
    }

    static func load() -> AppModel {
        do {
            return AppModel(context: try MigaContext.live(), problem: nil)
        } catch {
            return AppModel(context: nil, problem: "\(error)")
        }
    }

    /// The first run: nothing gated yet, so the window opens on the welcome.
    var nothingGated: Bool {
        context.map { AppOverview.nothingGated(context: $0) } ?? false
    }

    /// The Hub's and Stats' numbers now, or why they cannot be read.
    func overview() -> Result<AppOverview, AppProblem> {
        guard let context else { return .failure(AppProblem(problem ?? "miga cannot find your home folder")) }
        do {
            return .success(try AppOverview.load(context: context))
        } catch {
            return .failure(AppProblem("\(error)"))
        }
    }

    /// What the welcome offers on this machine.
    func offer() -> WelcomeOffer {
        context.map { WelcomeOffer.find(context: $0) } ?? WelcomeOffer()
    }

    /// The timer in force, for the welcome's spin button.
    var timerSeconds: Int {
        context.flatMap { try? ConfigInForce.load(context: $0).config.timerSeconds } ?? MigaConfig().timerSeconds
    }

    /// Does what the welcome chose: the lines to show.
    func setUp(_ choice: WelcomeChoice, offer: WelcomeOffer) throws -> [String] {
        guard let context else { throw AppProblem(problem ?? "miga cannot find your home folder") }
        return try WelcomeSetup(context: context).apply(choice, offer: offer)
    }

    /// Opens a Hub tile through its gate, as a detached `miga` (its window shows the pause);
    /// nil, or why it could not start.
    func open(_ item: AppOverview.HubItem) -> String? {
        guard let context else { return problem }
        guard let miga = migaPath else { return "miga is not installed beside miga-app nor on PATH" }
        let arguments = item.gateArguments(miga: miga)
        do {
            try context.launcher.spawnDetached(ResolvedCommand(executable: miga, arguments: arguments), environment: context.environment)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `miga` beside this program (both in bin/, or .build/debug), else the first on PATH.
    var migaPath: String? {
        guard let context else { return nil }
        let folder = context.executablePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let beside = folder + "/miga"
        if context.executablePath.contains("/"), LinuxSystem.isExecutableFile(beside) { return beside }
        let path = context.environment["PATH"] ?? CommandResolver.defaultSearchPath
        return path.split(separator: ":").map { $0 + "/miga" }.first { $0.hasPrefix("/") && LinuxSystem.isExecutableFile($0) }
    }
}

/// Why a page cannot show what it would (no HOME, an unreadable event store): said on the page.
struct AppProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
