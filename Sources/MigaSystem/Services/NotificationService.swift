import FoundationEssentials

/// Desktop notifications (`context.notifications`), for what a person must hear when no
/// terminal shows miga's stderr (a launcher's, a detached helper's).
public protocol NotificationService: Sendable {
    /// The program that shows them, when there is a graphical session; nil otherwise.
    func notifier(in context: MigaContext) -> String?
    /// Shows one; false, and nothing sent, when it cannot be. Never waits for it.
    func notify(title: String, _ body: String, in context: MigaContext) -> Bool
}

/// `notify-send`, started through the context's launcher in its environment.
public struct NotifySend: NotificationService {
    public init() {}

    public func notifier(in context: MigaContext) -> String? {
        TerminalEmulators.graphicalSessionPresent(in: context.environment) ? context.commandResolver.lookUp("notify-send") : nil
    }

    public func notify(title: String, _ body: String, in context: MigaContext) -> Bool {
        guard let notifier = notifier(in: context) else { return false }
        let command = ResolvedCommand(executable: notifier, arguments: ["notify-send", "--app-name=miga", title, body])
        return (try? context.launcher.spawnDetached(command, environment: context.environment)) != nil
    }
}
