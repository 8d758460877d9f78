#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "CReadline.h"

static MigaReadline loaded;
static const MigaReadline *result;
static char error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *symbol(void *library, const char *name, int *missing) {
    void *address = dlsym(library, name);
    if (address == NULL && !*missing) {
        *missing = 1;
        snprintf(error, sizeof error, "libreadline has no %s", name);
    }
    return address;
}

static void load(void) {
    const char *name = getenv("MIGA_LIBREADLINE");
    if (name == NULL || *name == '\0') name = "libreadline.so.8";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(error, sizeof error, "%s", reason ? reason : "cannot load libreadline");
        return;
    }
    int missing = 0;
#define LOAD(field, name) *(void **)&loaded.field = symbol(library, name, &missing)
    LOAD(initialize, "rl_initialize");
    LOAD(callback_handler_install, "rl_callback_handler_install");
    LOAD(callback_handler_remove, "rl_callback_handler_remove");
    LOAD(callback_read_char, "rl_callback_read_char");
    LOAD(callback_sigcleanup, "rl_callback_sigcleanup");
    LOAD(replace_line, "rl_replace_line");
    LOAD(deprep_terminal, "rl_deprep_terminal");
    LOAD(prep_terminal, "rl_prep_terminal");
    LOAD(forced_update_display, "rl_forced_update_display");
    LOAD(resize_terminal, "rl_resize_terminal");
    LOAD(completion_matches, "rl_completion_matches");
    LOAD(add_history, "add_history");
    LOAD(read_history, "read_history");
    LOAD(write_history, "write_history");
    LOAD(stifle_history, "stifle_history");
    LOAD(catch_signals, "rl_catch_signals");
    LOAD(catch_sigwinch, "rl_catch_sigwinch");
    LOAD(attempted_completion_over, "rl_attempted_completion_over");
    LOAD(readline_name, "rl_readline_name");
    LOAD(attempted_completion_function, "rl_attempted_completion_function");
    LOAD(line_buffer, "rl_line_buffer");
#undef LOAD
    if (missing) {
        dlclose(library);
        return;
    }
    result = &loaded;
}

const MigaReadline *miga_readline(void) {
    pthread_once(&once, load);
    return result;
}

const char *miga_readline_error(void) {
    pthread_once(&once, load);
    return result ? NULL : error;
}
