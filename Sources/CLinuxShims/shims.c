#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <wchar.h>
#include "CLinuxShims.h"

int miga_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

int miga_pipe2_cloexec_nonblock(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }
