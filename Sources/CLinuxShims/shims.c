#define _GNU_SOURCE
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>
#include <wchar.h>
#include <stdio.h>
#include <sys/timerfd.h>
#include <time.h>
#include "CLinuxShims.h"

int miga_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

int miga_pipe2_cloexec_nonblock(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

int miga_idle_io_priority(void) {
    // IOPRIO_WHO_PROCESS = 1, this process; IOPRIO_CLASS_IDLE = 3, shifted by IOPRIO_CLASS_SHIFT (13).
    return (int)syscall(SYS_ioprio_set, 1, 0, 3 << 13);
}

int miga_standard_output_failed(void) {
    return fflush(stdout) != 0 || ferror(stdout) != 0;
}

int miga_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    // pidfd_open's descriptors are close-on-exec by default.
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

int miga_wall_clock_timerfd(void) { return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK); }

int miga_wall_clock_timerfd_arm(int fd, long long milliseconds) {
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0) return -1;
    struct itimerspec value = {0};
    long long nanoseconds = (long long)now.tv_nsec + (milliseconds % 1000) * 1000000LL;
    value.it_value.tv_sec = now.tv_sec + (time_t)(milliseconds / 1000) + (time_t)(nanoseconds / 1000000000LL);
    value.it_value.tv_nsec = (long)(nanoseconds % 1000000000LL);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &value, NULL);
}
