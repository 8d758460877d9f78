import FoundationEssentials

extension MigaContext {
    /// A desktop notification through `notify-send`, for what a person must hear when no
    /// terminal shows miga's stderr (a launcher's, a detached helper's). False, and nothing
    /// sent, without a graphical session or `notify-send`; never waits for it.
    @discardableResult
    public func notifyDesktop(title: String = "miga", _ body: String) -> Bool {
        guard TerminalEmulators.graphicalSessionPresent(in: environment),
              let notifier = commandResolver.lookUp("notify-send") else { return false }
        let command = ResolvedCommand(executable: notifier, arguments: ["notify-send", "--app-name=miga", title, body])
        return (try? launcher.spawnDetached(command, environment: environment)) != nil
    }
}
