#if canImport(Glibc)
import Glibc
#endif
import CGtk
import GateWindowProtocol

/// The window as a desktop application, `app.miga.Gate`: its id names the window to the
/// desktop (Wayland app_id, X11 `_GTK_APPLICATION_ID`), which finds app.miga.Gate.desktop and
/// shows "miga" with miga's icon. Non-unique: two gates at once are two processes, and no
/// name is asked of the session bus before the first frame.
final class GateApplication {
    static let id = "app.miga.Gate"

    private let application: UnsafeMutablePointer<GtkApplication>
    private var gate: GateWindow?
    private var link: GateLink?

    init() {
        application = gtk_application_new(Self.id, G_APPLICATION_NON_UNIQUE)
    }

    /// Runs until the gate is done with the window; the exit status.
    func run() -> Int32 {
        let activate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            Unmanaged<GateApplication>.fromOpaque(context!).takeUnretainedValue().activate()
        }
        connectSignal(UnsafeMutableRawPointer(application), "activate", activate, Unmanaged.passUnretained(self).toOpaque())
        return g_application_run(miga_application(application), 0, nil)
    }

    private func activate() {
        guard gate == nil else { return }
        let gate = GateWindow()
        gtk_window_set_application(miga_window(gate.window), application)
        let application = self.application
        let link = GateLink(
            received: { gate.handle($0) },
            batchDone: { gate.batchDone() },
            gone: { g_application_quit(miga_application(application)) })
        gate.send = { link.send($0) }
        gate.quit = { link.end() }
        (self.gate, self.link) = (gate, link)
        link.start()
    }

    /// The launcher's activation token, for this window to come to the front focused. GDK
    /// takes DESKTOP_STARTUP_ID itself (and clears it) as it loads; XDG_ACTIVATION_TOKEN, which
    /// GTK 4.8 does not read, is taken here when no DESKTOP_STARTUP_ID came. Either way it is
    /// gone from the environment: it is spent once this window shows.
    static func takeLaunchersToken() {
        guard let given = getenv("XDG_ACTIVATION_TOKEN") else { return }
        let token = String(cString: given)
        unsetenv("XDG_ACTIVATION_TOKEN")
        guard ActivationToken.isPlausible(token), let display = gdk_display_get_default(),
              gdk_display_get_startup_notification_id(display) == nil else { return }
        miga_take_activation_token(token)
    }
}
