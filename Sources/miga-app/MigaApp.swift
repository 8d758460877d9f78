import CAdw
import MigaCore

/// The app as a desktop application, `app.miga.Miga`: unique, so a second launch (the dock,
/// the GNOME Shell indicator's "Open miga") brings the one window to the front.
final class MigaApp {
    static let id = "app.miga.Miga"

    private let application: UnsafeMutablePointer<AdwApplication>
    private var window: MainWindow?

    init() {
        application = adw_application_new(Self.id, GApplicationFlags(rawValue: 0))
    }

    func run() -> Int32 {
        onSignal(UnsafeMutableRawPointer(application), "startup") { [unowned self] in addKeys() }
        onSignal(UnsafeMutableRawPointer(application), "activate") { [unowned self] in activate() }
        return g_application_run(miga_application(application), 0, nil)
    }

    /// Ctrl+Q quits, Ctrl+W closes the window, Escape goes back a screen in the welcome.
    private func addKeys() {
        let quit = g_simple_action_new("quit", nil)!
        onSignal(UnsafeMutableRawPointer(quit), "activate", with: { [unowned self] _ in g_application_quit(miga_application(application)) })
        g_action_map_add_action(miga_application_action_map(application), quit)
        let gtk = miga_gtk_application(application)
        miga_set_accel(gtk, "app.quit", "<Control>q")
        miga_set_accel(gtk, "window.close", "<Control>w")
        miga_set_accel(gtk, "win.back", "Escape")
    }

    private func activate() {
        if let window {
            gtk_window_present(miga_window(window.window))
            return
        }
        let window = MainWindow(application: miga_gtk_application(application), model: AppModel.load())
        self.window = window
        gtk_window_present(miga_window(window.window))
    }
}
