#include <adwaita.h>

// What Swift cannot reach in GTK's and libadwaita's C API by itself, for miga-app: the cast
// macros (GTK_WINDOW() and friends type-check through a macro, which Swift does not import)
// and the variadic functions, which Swift cannot call. One line of C each, so the Swift side
// stays readable. libadwaita 1.2 (Debian 12): nothing newer may be named here.

static inline GtkWindow *miga_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkBox *miga_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkLabel *miga_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkButton *miga_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkEditable *miga_editable(GtkWidget *widget) { return GTK_EDITABLE(widget); }
static inline GtkSpinButton *miga_spin_button(GtkWidget *widget) { return GTK_SPIN_BUTTON(widget); }
static inline GtkSwitch *miga_switch(GtkWidget *widget) { return GTK_SWITCH(widget); }
static inline GtkCheckButton *miga_check_button(GtkWidget *widget) { return GTK_CHECK_BUTTON(widget); }
static inline GtkFlowBox *miga_flow_box(GtkWidget *widget) { return GTK_FLOW_BOX(widget); }
static inline GtkListBox *miga_list_box(GtkWidget *widget) { return GTK_LIST_BOX(widget); }
static inline GtkScrolledWindow *miga_scrolled_window(GtkWidget *widget) { return GTK_SCROLLED_WINDOW(widget); }
static inline GtkDrawingArea *miga_drawing_area(GtkWidget *widget) { return GTK_DRAWING_AREA(widget); }
static inline GtkImage *miga_image(GtkWidget *widget) { return GTK_IMAGE(widget); }
static inline AdwApplicationWindow *miga_adw_window(GtkWidget *widget) { return ADW_APPLICATION_WINDOW(widget); }
static inline AdwViewStack *miga_view_stack(GtkWidget *widget) { return ADW_VIEW_STACK(widget); }
static inline AdwViewSwitcherTitle *miga_view_switcher_title(GtkWidget *widget) { return ADW_VIEW_SWITCHER_TITLE(widget); }
static inline AdwViewSwitcherBar *miga_view_switcher_bar(GtkWidget *widget) { return ADW_VIEW_SWITCHER_BAR(widget); }
static inline AdwHeaderBar *miga_header_bar(GtkWidget *widget) { return ADW_HEADER_BAR(widget); }
static inline AdwStatusPage *miga_status_page(GtkWidget *widget) { return ADW_STATUS_PAGE(widget); }
static inline AdwPreferencesPage *miga_preferences_page(GtkWidget *widget) { return ADW_PREFERENCES_PAGE(widget); }
static inline AdwPreferencesGroup *miga_preferences_group(GtkWidget *widget) { return ADW_PREFERENCES_GROUP(widget); }
static inline AdwPreferencesRow *miga_preferences_row(GtkWidget *widget) { return ADW_PREFERENCES_ROW(widget); }
static inline AdwActionRow *miga_action_row(GtkWidget *widget) { return ADW_ACTION_ROW(widget); }
static inline AdwEntryRow *miga_entry_row(GtkWidget *widget) { return ADW_ENTRY_ROW(widget); }
static inline AdwComboRow *miga_combo_row(GtkWidget *widget) { return ADW_COMBO_ROW(widget); }
static inline AdwExpanderRow *miga_expander_row(GtkWidget *widget) { return ADW_EXPANDER_ROW(widget); }
static inline AdwLeaflet *miga_leaflet(GtkWidget *widget) { return ADW_LEAFLET(widget); }
static inline AdwMessageDialog *miga_message_dialog(GtkWidget *widget) { return ADW_MESSAGE_DIALOG(widget); }
static inline GtkStack *miga_stack(GtkWidget *widget) { return GTK_STACK(widget); }
static inline GtkMenuButton *miga_menu_button(GtkWidget *widget) { return GTK_MENU_BUTTON(widget); }
static inline GActionMap *miga_action_map(GtkWidget *widget) { return G_ACTION_MAP(widget); }
static inline GActionMap *miga_application_action_map(AdwApplication *application) { return G_ACTION_MAP(application); }
static inline AdwWindowTitle *miga_window_title(GtkWidget *widget) { return ADW_WINDOW_TITLE(widget); }
static inline GApplication *miga_application(AdwApplication *application) { return G_APPLICATION(application); }
static inline GtkApplication *miga_gtk_application(AdwApplication *application) { return GTK_APPLICATION(application); }

/// The accessible name a screen reader speaks for a widget without a label of its own.
static inline void miga_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// The accessible description (what a screen reader reads after the name).
static inline void miga_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/// A drawing area a screen reader announces as a picture (the role is fixed at construction).
static inline GtkWidget *miga_drawing_area_new_image(void) { return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL)); }

/// One keyboard accelerator for an action (`app.quit`, `window.close`).
static inline void miga_set_accel(GtkApplication *application, const char *action, const char *accel) { const char *accels[] = { accel, NULL }; gtk_application_set_accels_for_action(application, action, accels); }

static inline GListModel *miga_list_model(void *model) { return G_LIST_MODEL(model); }
static inline GtkFileChooser *miga_file_chooser(void *chooser) { return GTK_FILE_CHOOSER(chooser); }
static inline GtkNativeDialog *miga_native_dialog(void *dialog) { return GTK_NATIVE_DIALOG(dialog); }
