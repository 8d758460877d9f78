#ifndef MIGA_CX11_H
#define MIGA_CX11_H

#include <stdint.h>

/// The few parts of libxcb (and its screensaver extension) `miga watch` uses on X11, loaded
/// with dlopen(3) the first time they are asked for, never linked: every other start of miga
/// is spared loading libxcb, and miga still runs where it is missing. The types are declared
/// here, as the X protocol lays them out, so no X headers are needed to build either.
/// Replies and events are malloc'd by libxcb (free them with free()); each is at least 32
/// bytes, and a reply's `length` (in 4-byte units) counts what follows those 32 bytes.

typedef struct { unsigned int sequence; } MigaXcbCookie;

typedef struct { void *_Nullable data; int rem; int index; } MigaXcbScreenIterator;

typedef struct {
    uint8_t response_type;
    uint8_t error_code;
    uint16_t sequence;
    uint32_t pad[7];
    uint32_t full_sequence;
} MigaXcbGenericEvent;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t length;
    uint32_t atom;
} MigaXcbInternAtomReply;

typedef struct {
    uint8_t response_type;
    uint8_t format;
    uint16_t sequence;
    uint32_t length;
    uint32_t type;
    uint32_t bytes_after;
    uint32_t value_len;
    uint8_t pad0[12];
} MigaXcbGetPropertyReply;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t window;
    uint32_t atom;
    uint32_t time;
    uint8_t state;
    uint8_t pad1[3];
} MigaXcbPropertyNotifyEvent;

typedef struct {
    uint8_t response_type;
    uint8_t state;
    uint16_t sequence;
    uint32_t length;
    uint32_t saver_window;
    uint32_t ms_until_server;
    uint32_t ms_since_user_input;
    uint8_t kind;
    uint8_t pad0[7];
} MigaXcbScreensaverQueryInfoReply;

typedef struct {
    uint8_t response_type;
    uint8_t pad0;
    uint16_t sequence;
    uint32_t length;
    uint8_t present;
    uint8_t major_opcode;
    uint8_t first_event;
    uint8_t first_error;
} MigaXcbQueryExtensionReply;

/// The SYNC extension's AlarmNotify event (its first event + 1); 64-bit values as hi, lo.
typedef struct {
    uint8_t response_type;
    uint8_t kind;
    uint16_t sequence;
    uint32_t alarm;
    int32_t counter_value_hi;
    uint32_t counter_value_lo;
    int32_t alarm_value_hi;
    uint32_t alarm_value_lo;
    uint32_t timestamp;
    uint8_t state;
    uint8_t pad0[3];
} MigaXcbSyncAlarmNotifyEvent;

typedef struct {
    void *_Nullable (*_Nonnull connect)(const char *_Nullable display, int *_Nullable screen);
    int (*_Nonnull connection_has_error)(void *_Nonnull connection);
    void (*_Nonnull disconnect)(void *_Nonnull connection);
    const void *_Nullable (*_Nonnull get_setup)(void *_Nonnull connection);
    MigaXcbScreenIterator (*_Nonnull setup_roots_iterator)(const void *_Nonnull setup);
    void (*_Nonnull screen_next)(MigaXcbScreenIterator *_Nonnull iterator);
    int (*_Nonnull get_file_descriptor)(void *_Nonnull connection);
    int (*_Nonnull flush)(void *_Nonnull connection);
    uint32_t (*_Nonnull generate_id)(void *_Nonnull connection);
    MigaXcbGenericEvent *_Nullable (*_Nonnull poll_for_event)(void *_Nonnull connection);
    MigaXcbCookie (*_Nonnull intern_atom)(void *_Nonnull connection, uint8_t only_if_exists, uint16_t length, const char *_Nonnull name);
    MigaXcbInternAtomReply *_Nullable (*_Nonnull intern_atom_reply)(void *_Nonnull connection, MigaXcbCookie cookie, MigaXcbGenericEvent *_Nullable *_Nullable error);
    MigaXcbCookie (*_Nonnull change_window_attributes)(void *_Nonnull connection, uint32_t window, uint32_t mask, const void *_Nullable values);
    MigaXcbCookie (*_Nonnull create_window)(void *_Nonnull connection, uint8_t depth, uint32_t window, uint32_t parent,
                                           int16_t x, int16_t y, uint16_t width, uint16_t height, uint16_t border,
                                           uint16_t window_class, uint32_t visual, uint32_t mask, const void *_Nullable values);
    MigaXcbCookie (*_Nonnull change_property)(void *_Nonnull connection, uint8_t mode, uint32_t window, uint32_t property,
                                             uint32_t type, uint8_t format, uint32_t length, const void *_Nullable data);
    MigaXcbCookie (*_Nonnull get_property)(void *_Nonnull connection, uint8_t delete_, uint32_t window, uint32_t property,
                                          uint32_t type, uint32_t long_offset, uint32_t long_length);
    MigaXcbGetPropertyReply *_Nullable (*_Nonnull get_property_reply)(void *_Nonnull connection, MigaXcbCookie cookie, MigaXcbGenericEvent *_Nullable *_Nullable error);
    MigaXcbCookie (*_Nonnull send_event)(void *_Nonnull connection, uint8_t propagate, uint32_t destination, uint32_t mask, const char *_Nonnull event);
    /// From libxcb-screensaver: NULL when it is missing (idleness is then not watched).
    MigaXcbCookie (*_Nullable screensaver_query_info)(void *_Nonnull connection, uint32_t drawable);
    MigaXcbScreensaverQueryInfoReply *_Nullable (*_Nullable screensaver_query_info_reply)(void *_Nonnull connection, MigaXcbCookie cookie, MigaXcbGenericEvent *_Nullable *_Nullable error);
    /// From libxcb-sync (and libxcb's own extension lookup): all NULL when it is missing (the
    /// watcher then looks at idleness on a timer instead of being woken by an alarm).
    const void *_Nullable sync_id;
    const MigaXcbQueryExtensionReply *_Nullable (*_Nullable get_extension_data)(void *_Nonnull connection, const void *_Nonnull extension);
    MigaXcbCookie (*_Nullable sync_initialize)(void *_Nonnull connection, uint8_t major, uint8_t minor);
    MigaXcbGenericEvent *_Nullable (*_Nullable sync_initialize_reply)(void *_Nonnull connection, MigaXcbCookie cookie, MigaXcbGenericEvent *_Nullable *_Nullable error);
    MigaXcbCookie (*_Nullable sync_list_system_counters)(void *_Nonnull connection);
    MigaXcbGenericEvent *_Nullable (*_Nullable sync_list_system_counters_reply)(void *_Nonnull connection, MigaXcbCookie cookie, MigaXcbGenericEvent *_Nullable *_Nullable error);
    MigaXcbCookie (*_Nullable sync_create_alarm)(void *_Nonnull connection, uint32_t alarm, uint32_t mask, const void *_Nullable values);
    MigaXcbCookie (*_Nullable sync_change_alarm)(void *_Nonnull connection, uint32_t alarm, uint32_t mask, const void *_Nullable values);
} MigaXcb;

/// libxcb (`$MIGA_LIBXCB`, else libxcb.so.1), libxcb-screensaver.so.0 and libxcb-sync.so.1
/// (`$MIGA_LIBXCB_SYNC`, else libxcb-sync.so.1), loaded once; NULL
/// when libxcb cannot be loaded or lacks one of the above, and then `miga_xcb_error` says why.
const MigaXcb *_Nullable miga_xcb(void);
const char *_Nullable miga_xcb_error(void);

#endif
