/// The X11 desktop for `miga watch`: EWMH's `_NET_ACTIVE_WINDOW`, the window's
/// `_GTK_APPLICATION_ID`, `WM_CLASS` and `_NET_WM_PID`, and the screensaver extension's idle
/// time, through libxcb loaded with dlopen (so `miga` links nothing more).
public final class X11Session: DesktopSession {
    /// Connects to `display` (nil: `$DISPLAY`). Throws `DesktopSessionEnded` with a one-line
    /// reason when there is no X server to talk to or libxcb cannot be loaded.
    public static func connect(display: String?) throws -> X11Session {
        throw DesktopSessionEnded("the X11 watcher is not built yet")
    }

    public func next(milliseconds: Int32?) throws -> DesktopEvent? { throw DesktopSessionEnded("not connected") }
    public func raise(_ window: String) {}
    public func minimise(_ window: String) {}
    public func close(_ window: String) {}
    public func watchIdle(_ on: Bool, idleSeconds: Int) {}
    public func activationEnvironment() -> [String: String] { [:] }
}
