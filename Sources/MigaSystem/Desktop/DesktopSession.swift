/// What a desktop tells miga's room watcher (`miga watch`) about the window in front, and
/// what the watcher may ask it to do to a window. Two desktops speak it: X11 (`X11Session`:
/// EWMH through libxcb, loaded with dlopen) and GNOME Shell (the `miga@miga.app` extension,
/// over the watcher's stdin and stdout). The watcher decides; a session only reports and acts.
public protocol DesktopSession: AnyObject {
    /// The next thing the desktop says, waiting at most `milliseconds` (nil: until something
    /// happens); nil when the time ran out. Throws `DesktopSessionEnded` when the desktop is
    /// gone (the display closed, the extension's pipe at end of file): the watcher then ends.
    func next(milliseconds: Int32?) throws -> DesktopEvent?
    /// Brings `window` to the front, focused (Open on a coming-back gate).
    func raise(_ window: String)
    /// Minimises `window` (Exit on a coming-back gate): never closes it, never signals it.
    func minimise(_ window: String)
    /// Asks `window` to close, as its close button would (`_NET_CLOSE_WINDOW`,
    /// `meta_window.delete()`): the budget's soft end, Close. Never signals a process.
    func close(_ window: String)
    /// While true the session reports `.idle(true)` once the person has been idle for
    /// `idleSeconds`, then `.idle(false)` when they are back; while false it need not look.
    /// (The watcher turns it on only while a gated app's window is in front: no polling
    /// otherwise.)
    func watchIdle(_ on: Bool, idleSeconds: Int)
    /// What to add to the environment of a window miga starts now (its gate window) so the
    /// desktop lets it come to the front focused, e.g. `DESKTOP_STARTUP_ID` with the X
    /// server's time; empty when the desktop sees to it itself.
    func activationEnvironment() -> [String: String]
}

/// A window as the desktop describes it. Every field is the desktop's (or another program's)
/// to set, so every one is untrusted text: matched, never run, never printed raw.
public struct WindowFacts: Equatable, Sendable {
    /// The session's handle for the window: an X11 window id in decimal, or GNOME Shell's
    /// `get_stable_sequence()`. Opaque to the watcher; handed back in raise/minimise/close.
    public var id: String
    /// The desktop-file id the desktop ties the window to (`Shell.WindowTracker`:
    /// "discord.desktop"), when it knows one.
    public var desktopID: String?
    /// `_GTK_APPLICATION_ID` on X11, the Wayland `app_id` on GNOME.
    public var applicationID: String?
    /// `WM_CLASS`: instance then class (either may be missing).
    public var wmClass: [String]
    /// `_NET_WM_PID` (GNOME: `get_pid()`), when known and > 0.
    public var pid: Int32?

    public init(id: String, desktopID: String? = nil, applicationID: String? = nil, wmClass: [String] = [], pid: Int32? = nil) {
        self.id = id
        self.desktopID = desktopID
        self.applicationID = applicationID
        self.wmClass = wmClass
        self.pid = pid
    }
}

public enum DesktopEvent: Equatable, Sendable {
    /// The window with keyboard focus now; nil when none (the desktop itself, a panel, the
    /// screen locked).
    case focused(WindowFacts?)
    /// The person went idle (true) or came back (false); see `DesktopSession.watchIdle`.
    case idle(Bool)
}

/// The desktop is gone: the display closed, or the shell extension's end of the pipe.
public struct DesktopSessionEnded: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
