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
}
