import CAdw
import MigaCore

/// The trial or licence: where it stands, and "Activate licence…" (a file chooser, then
/// `EntitlementStore.activate`, which checks the file and keeps the current entitlement on any
/// refusal).
extension SettingsPage {
    func addLicenceRows(_ context: MigaContext) {
        guard let group = groups["licence"] else { return }
        let row = actionRow("Licence")
        adw_action_row_add_suffix(miga_action_row(row), rowButton("Activate licence…", accessibleName: "Activate licence…") { [self] in
            chooseLicence(context) { [self] in adw_action_row_set_subtitle(miga_action_row(row), Self.markupFree(licenceLine(context))) }
        })
        adw_action_row_set_subtitle(miga_action_row(row), Self.markupFree(licenceLine(context)))
        adw_preferences_group_add(miga_preferences_group(group), row)
    }

    /// Where the entitlement stands, and until a licence is active how one is had (as
    /// `miga license` says it). Reading it starts no trial.
    func licenceLine(_ context: MigaContext) -> String {
        EntitlementStore(context: context).status().explanation.joined(separator: "\n")
    }

    private func chooseLicence(_ context: MigaContext, then done: @escaping () -> Void) {
        let chooser = gtk_file_chooser_native_new("Activate a miga licence", nil, GTK_FILE_CHOOSER_ACTION_OPEN, "Activate", "Cancel")!
        onSignal(UnsafeMutableRawPointer(chooser), "response", with: { [self] _ in
            defer { g_object_unref(UnsafeMutableRawPointer(chooser)) }
            guard let file = gtk_file_chooser_get_file(miga_file_chooser(UnsafeMutableRawPointer(chooser))) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            guard let path = g_file_get_path(file) else { return }
            defer { g_free(path) }
            let licencePath = String(cString: path)
            change {
                let payload = try EntitlementStore(context: context).activate(licensePath: licencePath)
                return ["Licence activated: licensed to \(payload.licensee) (\(payload.edition))."]
            }
            done()
        })
        gtk_native_dialog_show(miga_native_dialog(UnsafeMutableRawPointer(chooser)))
    }
}
