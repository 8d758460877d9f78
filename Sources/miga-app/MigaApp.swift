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
        onSignal(UnsafeMutableRawPointer(application), "activate") { [unowned self] in activate() }
        return g_application_run(miga_application(application), 0, nil)
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
