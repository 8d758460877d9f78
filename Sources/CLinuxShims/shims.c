#define _GNU_SOURCE
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>
#include <wchar.h>
#include <stdio.h>
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
