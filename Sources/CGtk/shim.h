#include <gtk/gtk.h>
#include <glib-unix.h>

// What Swift cannot reach in GTK's C API by itself, for miga-gate-window: the cast macros
// (GTK_WINDOW() and friends are macros around a type check, which Swift does not import),
// and the variadic functions (g_object_set, gtk_accessible_update_property, g_variant_new),
// which Swift cannot call. Each helper is one line of C so the Swift side stays readable.

static inline GtkWindow *miga_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkLabel *miga_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkBox *miga_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkButton *miga_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkProgressBar *miga_progress_bar(GtkWidget *widget) { return GTK_PROGRESS_BAR(widget); }
static inline GtkScrolledWindow *miga_scrolled_window(GtkWidget *widget) { return GTK_SCROLLED_WINDOW(widget); }
static inline GtkEntry *miga_entry(GtkWidget *widget) { return GTK_ENTRY(widget); }
static inline GtkEditable *miga_editable(GtkWidget *widget) { return GTK_EDITABLE(widget); }

/// The accessible name a screen reader speaks for a widget without a label of its own
/// (the countdown bar, the seconds).
static inline void miga_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// A boolean property of any GObject (GtkSettings' gtk-application-prefer-dark-theme).
static inline void miga_object_set_bool(gpointer object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

static inline gboolean miga_object_get_bool(gpointer object, const char *property) {
    gboolean value = FALSE;
    g_object_get(object, property, &value, NULL);
    return value;
}

/// The arguments of org.freedesktop.portal.Settings.Read(namespace, key).
static inline GVariant *miga_variant_two_strings(const char *first, const char *second) {
    return g_variant_new("(ss)", first, second);
}

/// The portal's colour-scheme answer (0 no preference, 1 dark, 2 light), or -1. Read() wraps
/// the value in one variant more than its signature says (and ReadOne does not), so every
/// layer of variant is peeled off until a uint32 remains.
static inline int miga_variant_color_scheme(GVariant *reply) {
    if (reply == NULL) return -1;
    GVariant *value = g_variant_ref(reply);
    while (value != NULL) {
        GVariant *inner = NULL;
        if (g_variant_is_of_type(value, G_VARIANT_TYPE_UINT32)) {
            int scheme = (int)g_variant_get_uint32(value);
            g_variant_unref(value);
            return scheme;
        } else if (g_variant_is_of_type(value, G_VARIANT_TYPE_VARIANT)) {
            inner = g_variant_get_variant(value);
        } else if (g_variant_is_container(value) && g_variant_n_children(value) == 1) {
            inner = g_variant_get_child_value(value, 0);
        }
        g_variant_unref(value);
        value = inner;
    }
    return -1;
}

// The activation token a launcher hands over, and a new one for the app on Open (DESIGN "Real
// desktops"). Declared here rather than by including <gdk/x11/gdkx.h>: that header brings
// Xlib, whose `Bool` and `Window` would shadow Swift's names in every file importing CGtk.
GType gdk_x11_display_get_type(void);
void gdk_x11_display_set_startup_notification_id(GdkDisplay *display, const char *startup_id);
GType gdk_wayland_display_get_type(void);
void gdk_wayland_display_set_startup_notification_id(GdkDisplay *display, const char *startup_id);

/// Makes `token` the display's startup-notification id, as GDK does with DESKTOP_STARTUP_ID
/// when it loads (GTK 4.8 reads no XDG_ACTIVATION_TOKEN): the first window shown then
/// activates with it (xdg-activation on Wayland, `_NET_STARTUP_ID` and the end of the
/// launcher's startup sequence on X11).
static inline void miga_take_activation_token(const char *token) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL || token == NULL || *token == '\0') return;
    if (G_TYPE_CHECK_INSTANCE_TYPE(display, gdk_x11_display_get_type())) {
        gdk_x11_display_set_startup_notification_id(display, token);
    } else if (G_TYPE_CHECK_INSTANCE_TYPE(display, gdk_wayland_display_get_type())) {
        gdk_wayland_display_set_startup_notification_id(display, token);
    }
}

/// A new activation token for starting `name` (its program `executable`), asked of the
/// display as a launcher asks (`g_app_launch_context_get_startup_notify_id`): an
/// xdg-activation token tied to this focused window on Wayland, a startup-notification id
/// stamped with the person's last key press on X11. NULL when the desktop gives none; the
/// caller frees it with g_free.
static inline char *miga_new_activation_token(const char *name, const char *executable) {
    GdkDisplay *display = gdk_display_get_default();
    if (display == NULL) return NULL;
    GdkAppLaunchContext *context = gdk_display_get_app_launch_context(display);
    if (context == NULL) return NULL;
    const char *program = (executable != NULL && *executable != '\0') ? executable : name;
    char *commandline = g_shell_quote(program);
    GAppInfo *info = g_app_info_create_from_commandline(commandline, name, G_APP_INFO_CREATE_NONE, NULL);
    g_free(commandline);
    char *token = NULL;
    if (info != NULL) {
        // X11's launch feedback wants an icon, and an app made from a command line has none.
        char *icon = g_path_get_basename(program);
        gdk_app_launch_context_set_icon_name(context, icon);
        g_free(icon);
        token = g_app_launch_context_get_startup_notify_id(G_APP_LAUNCH_CONTEXT(context), info, NULL);
        g_object_unref(info);
    }
    g_object_unref(context);
    return token;
}

static inline GApplication *miga_application(GtkApplication *application) { return G_APPLICATION(application); }
