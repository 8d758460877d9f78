extension MigaContext {
    /// A desktop notification through the context's notification service: false, and nothing
    /// sent, without a graphical session or a notifier; never waits for it.
    @discardableResult
    public func notifyDesktop(title: String = "miga", _ body: String) -> Bool {
        notifications.notify(title: title, body, in: self)
    }

    /// The program that shows notifications, when there is a graphical session to show them.
    public var desktopNotifier: String? { notifications.notifier(in: self) }
}
