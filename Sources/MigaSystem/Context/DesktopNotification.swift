import FoundationEssentials

extension MigaContext {
    /// A desktop notification through `notify-send`, for what a person must hear when no
    /// terminal shows miga's stderr (a launcher's, a detached helper's). False, and nothing
    /// sent, without a graphical session or `notify-send`; never waits for it.
    @discardableResult
    public func notifyDesktop(title: String = "miga", _ body: String) -> Bool {
        guard let notifier = desktopNotifier else { return false }
        let command = ResolvedCommand(executable: notifier, arguments: ["notify-send", "--app-name=miga", title, body])
        return (try? launcher.spawnDetached(command, environment: environment)) != nil
    }

    /// `notify-send`, when there is a graphical session to show its notifications.
    public var desktopNotifier: String? {
        TerminalEmulators.graphicalSessionPresent(in: environment) ? commandResolver.lookUp("notify-send") : nil
    }
}
