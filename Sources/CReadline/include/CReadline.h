#ifndef MIGA_CREADLINE_H
#define MIGA_CREADLINE_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/// GNU readline's functions and variables as miga uses them (the interactive `miga config`
/// and plain mode's prompt). libreadline is loaded with dlopen(3) the first time it is asked
/// for, not linked: every other start of miga — each gate, pass and link — is spared loading
/// it and libtinfo (about 0.3 ms), and miga still runs where it is missing.
typedef struct {
    int (*_Nonnull initialize)(void);
    void (*_Nonnull callback_handler_install)(const char *_Nullable prompt, rl_vcpfunc_t *_Nonnull handler);
    void (*_Nonnull callback_handler_remove)(void);
    void (*_Nonnull callback_read_char)(void);
    void (*_Nonnull callback_sigcleanup)(void);
    void (*_Nonnull replace_line)(const char *_Nonnull text, int clear_undo);
    void (*_Nonnull deprep_terminal)(void);
    void (*_Nonnull prep_terminal)(int meta);
    int (*_Nonnull forced_update_display)(void);
    void (*_Nonnull resize_terminal)(void);
    char *_Nullable *_Nullable (*_Nonnull completion_matches)(const char *_Nonnull text, rl_compentry_func_t *_Nonnull generator);
    void (*_Nonnull add_history)(const char *_Nonnull line);
    int (*_Nonnull read_history)(const char *_Nullable path);
    int (*_Nonnull write_history)(const char *_Nullable path);
    void (*_Nonnull stifle_history)(int max);
    int *_Nonnull catch_signals;
    int *_Nonnull catch_sigwinch;
    int *_Nonnull attempted_completion_over;
    const char *_Nullable *_Nonnull readline_name;
    rl_completion_func_t *_Nullable *_Nonnull attempted_completion_function;
    char *_Nullable *_Nonnull line_buffer;
} MigaReadline;

/// libreadline (`$MIGA_LIBREADLINE`, else libreadline.so.8), loaded once; NULL when it cannot
/// be loaded or lacks one of the above, and then `miga_readline_error` says why.
const MigaReadline *_Nullable miga_readline(void);
const char *_Nullable miga_readline_error(void);

#endif
