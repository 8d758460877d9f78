#ifndef CLINUXSHIMS_H
#define CLINUXSHIMS_H
// Calls that glibc only declares under _GNU_SOURCE / _XOPEN_SOURCE, which Swift's Glibc
// module does not define.
int miga_wcwidth(unsigned int scalar);
int miga_pipe2_cloexec_nonblock(int fds[2]);
// The idle I/O class for this process (ioprio_set has no glibc wrapper); 0 or -1.
int miga_idle_io_priority(void);
// fflush(stdout), then whether it or any earlier write to stdout failed (ferror): 1 if so.
// In C because Swift 6 cannot prove the C library's `stdout` global safe to read.
int miga_standard_output_failed(void);
// A descriptor that becomes readable when process `pid` ends (pidfd_open, Linux 5.3; no
// glibc wrapper before 2.36), close-on-exec; -1 when there is none.
int miga_pidfd_open(int pid);
// A timerfd on CLOCK_REALTIME, close-on-exec and non-blocking; -1 when there is none.
int miga_wall_clock_timerfd(void);
// Arms it for `milliseconds` from now (absolute, TFD_TIMER_CANCEL_ON_SET: a clock set makes
// it readable too); 0 or -1.
int miga_wall_clock_timerfd_arm(int fd, long long milliseconds);
#endif
