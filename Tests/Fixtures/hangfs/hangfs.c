/*
 * hangfs: a passthrough FUSE filesystem that can be told to stop answering, as a dead
 * network mount or a stalled USB stick does. The tests of "the sync folder is someone
 * else's disk" (Tests/MigaCLITests/HungSyncFolderTests.swift) put miga's sync folder on it.
 *
 * Usage: hangfs BACKING CONTROL MOUNTPOINT
 *   BACKING     a real directory; every file operation is passed through to it
 *   CONTROL     a file outside the mount: while it exists, every operation (lookup,
 *               getattr, open, read, write, readdir, ...) waits, until it is removed, the
 *               filesystem is unmounted, or HANGFS_MAX_STALL seconds (default 120) pass, so
 *               a test runner that died never leaves a mount that hangs for ever
 *   MOUNTPOINT  an empty directory
 * Each operation that had to wait is logged to standard error ("stalled OP PATH" when it
 * starts waiting, "released OP PATH after N ms" when it goes on): the test reads which of
 * miga's calls touched the folder while it hung. Built by the test with
 *   cc hangfs.c $(pkg-config --cflags --libs fuse3)
 * (Debian: fuse3 libfuse3-dev). Runs in the foreground; SIGTERM unmounts and exits, and so
 * does the end of the process that started it (a test runner that crashed).
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int backing = -1;
static const char *control;
static double max_stall = 120;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

/* While CONTROL exists, waits (polling: a control file needs no signal handling and takes
 * effect for the very next operation once the test has created it). */
static void stall_if_told(const char *op, const char *path) {
    if (access(control, F_OK) != 0) return;
    double start = now_ms();
    fprintf(stderr, "stalled %s %s\n", op, path ? path : "-");
    struct fuse *fuse = fuse_get_context()->fuse;
    while (access(control, F_OK) == 0 && now_ms() - start < max_stall * 1000) {
        if (fuse && fuse_session_exited(fuse_get_session(fuse))) break;
        usleep(10000);
    }
    fprintf(stderr, "released %s %s after %.0f ms\n", op, path ? path : "-", now_ms() - start);
}

/* The path relative to BACKING: "/a/b" is "a/b", "/" is ".". */
static const char *rel(const char *path) {
    while (*path == '/') path++;
    return *path ? path : ".";
}

#define RESULT(call) ((call) < 0 ? -errno : 0)

static void *hang_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    /* Nothing answered from the kernel's caches: a hung disk hangs every look. */
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->direct_io = 1;
    cfg->use_ino = 1;
    return NULL;
}

static int hang_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    stall_if_told("getattr", path);
    if (fi) return RESULT(fstat(fi->fh, st));
    return RESULT(fstatat(backing, rel(path), st, AT_SYMLINK_NOFOLLOW));
}

static int hang_access(const char *path, int mask) {
    stall_if_told("access", path);
    return RESULT(faccessat(backing, rel(path), mask, 0));
}

static int hang_readlink(const char *path, char *buffer, size_t size) {
    stall_if_told("readlink", path);
    ssize_t n = readlinkat(backing, rel(path), buffer, size - 1);
    if (n < 0) return -errno;
    buffer[n] = 0;
    return 0;
}

static int hang_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset,
                        struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
    (void)offset; (void)fi; (void)flags;
    stall_if_told("readdir", path);
    int fd = openat(backing, rel(path), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return -errno;
    DIR *dir = fdopendir(fd);
    if (!dir) { int e = errno; close(fd); return -e; }
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        struct stat st = { .st_ino = entry->d_ino, .st_mode = (mode_t)entry->d_type << 12 };
        if (fill(buffer, entry->d_name, &st, 0, 0)) break;
    }
    closedir(dir);
    return 0;
}

static int hang_mknod(const char *path, mode_t mode, dev_t rdev) {
    stall_if_told("mknod", path);
    return RESULT(mknodat(backing, rel(path), mode, rdev));
}

static int hang_mkdir(const char *path, mode_t mode) {
    stall_if_told("mkdir", path);
    return RESULT(mkdirat(backing, rel(path), mode));
}

static int hang_unlink(const char *path) {
    stall_if_told("unlink", path);
    return RESULT(unlinkat(backing, rel(path), 0));
}

static int hang_rmdir(const char *path) {
    stall_if_told("rmdir", path);
    return RESULT(unlinkat(backing, rel(path), AT_REMOVEDIR));
}

static int hang_symlink(const char *target, const char *path) {
    stall_if_told("symlink", path);
    return RESULT(symlinkat(target, backing, rel(path)));
}

static int hang_rename(const char *from, const char *to, unsigned int flags) {
    stall_if_told("rename", from);
    return RESULT(renameat2(backing, rel(from), backing, rel(to), flags));
}

static int hang_link(const char *from, const char *to) {
    stall_if_told("link", from);
    return RESULT(linkat(backing, rel(from), backing, rel(to), 0));
}

static int hang_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    stall_if_told("chmod", path);
    if (fi) return RESULT(fchmod(fi->fh, mode));
    return RESULT(fchmodat(backing, rel(path), mode, 0));
}

static int hang_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    stall_if_told("chown", path);
    if (fi) return RESULT(fchown(fi->fh, uid, gid));
    return RESULT(fchownat(backing, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW));
}

static int hang_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    stall_if_told("truncate", path);
    if (fi) return RESULT(ftruncate(fi->fh, size));
    int fd = openat(backing, rel(path), O_WRONLY);
    if (fd < 0) return -errno;
    int result = RESULT(ftruncate(fd, size));
    close(fd);
    return result;
}

static int hang_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *fi) {
    stall_if_told("utimens", path);
    if (fi) return RESULT(futimens(fi->fh, times));
    return RESULT(utimensat(backing, rel(path), times, AT_SYMLINK_NOFOLLOW));
}

static int hang_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    stall_if_told("create", path);
    int fd = openat(backing, rel(path), fi->flags, mode);
    if (fd < 0) return -errno;
    fi->fh = fd;
    return 0;
}

static int hang_open(const char *path, struct fuse_file_info *fi) {
    stall_if_told("open", path);
    int fd = openat(backing, rel(path), fi->flags);
    if (fd < 0) return -errno;
    fi->fh = fd;
    return 0;
}

static int hang_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    stall_if_told("read", path);
    ssize_t n = pread(fi->fh, buffer, size, offset);
    return n < 0 ? -errno : (int)n;
}

static int hang_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi) {
    stall_if_told("write", path);
    ssize_t n = pwrite(fi->fh, buffer, size, offset);
    return n < 0 ? -errno : (int)n;
}

static int hang_statfs(const char *path, struct statvfs *st) {
    stall_if_told("statfs", path);
    int fd = openat(backing, rel(path), O_RDONLY | O_PATH);
    if (fd < 0) return -errno;
    int result = RESULT(fstatvfs(fd, st));
    close(fd);
    return result;
}

static int hang_flush(const char *path, struct fuse_file_info *fi) {
    (void)fi;
    stall_if_told("flush", path);
    return 0;
}

/* Not stalled: the kernel does not wait for a release, and closing must always work. */
static int hang_release(const char *path, struct fuse_file_info *fi) {
    (void)path;
    close(fi->fh);
    return 0;
}

static int hang_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    stall_if_told("fsync", path);
    return RESULT(datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}

static int hang_opendir(const char *path, struct fuse_file_info *fi) {
    (void)fi;
    stall_if_told("opendir", path);
    struct stat st;
    if (fstatat(backing, rel(path), &st, 0) < 0) return -errno;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static const struct fuse_operations operations = {
    .init = hang_init,
    .getattr = hang_getattr,
    .access = hang_access,
    .readlink = hang_readlink,
    .opendir = hang_opendir,
    .readdir = hang_readdir,
    .mknod = hang_mknod,
    .mkdir = hang_mkdir,
    .symlink = hang_symlink,
    .unlink = hang_unlink,
    .rmdir = hang_rmdir,
    .rename = hang_rename,
    .link = hang_link,
    .chmod = hang_chmod,
    .chown = hang_chown,
    .truncate = hang_truncate,
    .utimens = hang_utimens,
    .create = hang_create,
    .open = hang_open,
    .read = hang_read,
    .write = hang_write,
    .statfs = hang_statfs,
    .flush = hang_flush,
    .release = hang_release,
    .fsync = hang_fsync,
};

/* The starter gone, this process is another's child: SIGTERM to itself, which libfuse takes
 * as the end (it unmounts), and which ends every wait above. PR_SET_PDEATHSIG would follow
 * the starting thread rather than the process. */
static pid_t starter;
static void *watch_starter(void *unused) {
    (void)unused;
    while (getppid() == starter) usleep(200000);
    kill(getpid(), SIGTERM);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: hangfs BACKING CONTROL MOUNTPOINT\n");
        return 2;
    }
    starter = getppid();
    /* With every signal blocked in the watcher, as libfuse blocks them in its workers, the
     * SIGTERM reaches the main thread, whose wait for the workers it ends. */
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_t watcher;
    pthread_create(&watcher, NULL, watch_starter, NULL);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    setvbuf(stderr, NULL, _IOLBF, 0);
    backing = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (backing < 0) { perror(argv[1]); return 1; }
    /* Absolute: the server may change its working directory. */
    static char control_path[PATH_MAX];
    if (argv[2][0] == '/') control = argv[2];
    else if (getcwd(control_path, sizeof control_path - strlen(argv[2]) - 2)) {
        strcat(strcat(control_path, "/"), argv[2]);
        control = control_path;
    } else { perror("getcwd"); return 1; }
    const char *limit = getenv("HANGFS_MAX_STALL");
    if (limit && atof(limit) > 0) max_stall = atof(limit);
    char *fuse_argv[] = { argv[0], "-f", "-o", "fsname=hangfs,subtype=hangfs,max_threads=64", argv[3], NULL };
    return fuse_main(5, fuse_argv, &operations, NULL);
}
