#if canImport(Glibc)
import Glibc
#endif
import CGtk

/// Light or dark as the desktop prefers. Debian's GTK 4.8 does not follow the preference by
/// itself, so it is read here and passed on as `gtk-application-prefer-dark-theme`: first the
/// GSettings key (synchronous, a file read, so the first frame already has the right colours;
/// skipped when the schema is not installed, since GSettings aborts on an unknown schema),
/// then the settings portal, asynchronously, which knows the preference on desktops other than
/// GNOME too and must never hold up the first paint.
enum ColorScheme {
    static func followDesktop() {
        if let dark = gsettingsPrefersDark() { apply(dark: dark) }
        if let bus = getenv("DBUS_SESSION_BUS_ADDRESS"), bus.pointee != 0 { askPortal() }
    }

    static func apply(dark: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        miga_object_set_bool(UnsafeMutableRawPointer(settings), "gtk-application-prefer-dark-theme", dark ? 1 : 0)
    }

    /// nil when there is no preference (or no way to know it).
    private static func gsettingsPrefersDark() -> Bool? {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.interface", 1) else { return nil }
        defer { g_settings_schema_unref(schema) }
        guard g_settings_schema_has_key(schema, "color-scheme") != 0 else { return nil }
        let settings = g_settings_new_full(schema, nil, nil)
        defer { g_object_unref(settings) }
        guard let value = g_settings_get_string(settings, "color-scheme") else { return nil }
        defer { g_free(value) }
        switch String(cString: value) {
        case "prefer-dark": return true
        case "prefer-light": return false
        default: return nil
        }
    }

    /// org.freedesktop.portal.Settings.Read("org.freedesktop.appearance", "color-scheme"):
    /// 1 dark, 2 light, 0 no preference (then the GSettings answer stands). The portal is not
    /// started for us if it is not running (it would cost more than the window's whole life).
    private static func askPortal() {
        g_bus_get(G_BUS_TYPE_SESSION, nil, { _, result, _ in
            var error: UnsafeMutablePointer<GError>?
            guard let bus = g_bus_get_finish(result, &error) else {
                g_error_free(error)
                return
            }
            g_dbus_connection_call(
                bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                "org.freedesktop.portal.Settings", "Read",
                miga_variant_two_strings("org.freedesktop.appearance", "color-scheme"),
                nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, { source, result, _ in
                    var error: UnsafeMutablePointer<GError>?
                    let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                    if let error { g_error_free(error) }
                    switch miga_variant_color_scheme(reply) {
                    case 1: ColorScheme.apply(dark: true)
                    case 2: ColorScheme.apply(dark: false)
                    default: break
                    }
                    if let reply { g_variant_unref(reply) }
                }, nil)
            // The pending call holds its own reference to the connection.
            g_object_unref(UnsafeMutableRawPointer(bus))
        }, nil)
    }
}
