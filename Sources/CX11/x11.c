#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "CX11.h"

static MigaXcb loaded;
static const MigaXcb *result;
static char error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *symbol(void *library, const char *name, int *missing) {
    void *address = dlsym(library, name);
    if (address == NULL && !*missing) {
        *missing = 1;
        snprintf(error, sizeof error, "libxcb has no %s", name);
    }
    return address;
}

/// The screensaver extension is optional: without it the watcher counts time as if the
/// person never went idle, rather than not watching at all.
static void load_screensaver(void) {
    void *library = dlopen("libxcb-screensaver.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&loaded.screensaver_query_info = dlsym(library, "xcb_screensaver_query_info");
    *(void **)&loaded.screensaver_query_info_reply = dlsym(library, "xcb_screensaver_query_info_reply");
    if (loaded.screensaver_query_info == NULL || loaded.screensaver_query_info_reply == NULL) {
        loaded.screensaver_query_info = NULL;
        loaded.screensaver_query_info_reply = NULL;
        dlclose(library);
    }
}

/// The SYNC extension is optional too: without it the watcher asks the screensaver extension
/// every few seconds whether an idle person is back, rather than sleeping until an alarm on
/// the server's IDLETIME counter says so.
static void load_sync(void *core) {
    const char *name = getenv("MIGA_LIBXCB_SYNC");
    if (name == NULL || *name == '\0') name = "libxcb-sync.so.1";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    loaded.sync_id = dlsym(library, "xcb_sync_id");
    *(void **)&loaded.get_extension_data = dlsym(core, "xcb_get_extension_data");
    *(void **)&loaded.sync_initialize = dlsym(library, "xcb_sync_initialize");
    *(void **)&loaded.sync_initialize_reply = dlsym(library, "xcb_sync_initialize_reply");
    *(void **)&loaded.sync_list_system_counters = dlsym(library, "xcb_sync_list_system_counters");
    *(void **)&loaded.sync_list_system_counters_reply = dlsym(library, "xcb_sync_list_system_counters_reply");
    *(void **)&loaded.sync_create_alarm = dlsym(library, "xcb_sync_create_alarm");
    *(void **)&loaded.sync_change_alarm = dlsym(library, "xcb_sync_change_alarm");
    if (loaded.sync_id == NULL || loaded.get_extension_data == NULL || loaded.sync_initialize == NULL ||
        loaded.sync_initialize_reply == NULL || loaded.sync_list_system_counters == NULL ||
        loaded.sync_list_system_counters_reply == NULL || loaded.sync_create_alarm == NULL || loaded.sync_change_alarm == NULL) {
        loaded.sync_id = NULL;
        loaded.get_extension_data = NULL;
        loaded.sync_initialize = NULL;
        loaded.sync_initialize_reply = NULL;
        loaded.sync_list_system_counters = NULL;
        loaded.sync_list_system_counters_reply = NULL;
        loaded.sync_create_alarm = NULL;
        loaded.sync_change_alarm = NULL;
        dlclose(library);
    }
}

static void load(void) {
    const char *name = getenv("MIGA_LIBXCB");
    if (name == NULL || *name == '\0') name = "libxcb.so.1";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, sizeof error, "%s", reason ? reason : "cannot load libxcb");
        return;
    }
    int missing = 0;
#define LOAD(field, name) *(void **)&loaded.field = symbol(library, name, &missing)
    LOAD(connect, "xcb_connect");
    LOAD(connection_has_error, "xcb_connection_has_error");
    LOAD(disconnect, "xcb_disconnect");
    LOAD(get_setup, "xcb_get_setup");
    LOAD(setup_roots_iterator, "xcb_setup_roots_iterator");
    LOAD(screen_next, "xcb_screen_next");
    LOAD(get_file_descriptor, "xcb_get_file_descriptor");
    LOAD(flush, "xcb_flush");
    LOAD(generate_id, "xcb_generate_id");
    LOAD(poll_for_event, "xcb_poll_for_event");
    LOAD(intern_atom, "xcb_intern_atom");
    LOAD(intern_atom_reply, "xcb_intern_atom_reply");
    LOAD(change_window_attributes, "xcb_change_window_attributes");
    LOAD(create_window, "xcb_create_window");
    LOAD(change_property, "xcb_change_property");
    LOAD(get_property, "xcb_get_property");
    LOAD(get_property_reply, "xcb_get_property_reply");
    LOAD(send_event, "xcb_send_event");
#undef LOAD
    if (missing) {
        dlclose(library);
        return;
    }
    load_screensaver();
    load_sync(library);
    result = &loaded;
}

const MigaXcb *miga_xcb(void) {
    pthread_once(&once, load);
    return result;
}

const char *miga_xcb_error(void) {
    pthread_once(&once, load);
    return result ? NULL : error;
}
