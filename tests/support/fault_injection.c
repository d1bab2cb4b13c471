/* Faults injected into dtb for the tests (tests/tools/faults.cpp), loaded with LD_PRELOAD:
 *   DTB_FAULT_READ_EIO=TEXT   pread on a file whose path contains TEXT fails with EIO
 *   DTB_FAULT_WRITE_ENOSPC=TEXT  write to such a file fails with ENOSPC (a full disk)
 * Every other call goes to the C library unchanged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int path_matches(int fd, const char* variable) {
    const char* text = getenv(variable);
    if (!text || !*text) return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = '\0';
    return strstr(path, text) != NULL;
}

ssize_t pread(int fd, void* buf, size_t count, off_t offset) {
    static ssize_t (*real)(int, void*, size_t, off_t);
    /* POSIX's way to take a function from dlsym without a cast between object and function. */
    if (!real) *(void**)(&real) = dlsym(RTLD_NEXT, "pread");
    if (path_matches(fd, "DTB_FAULT_READ_EIO")) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, count, offset);
}

ssize_t pread64(int fd, void* buf, size_t count, off_t offset) {
    return pread(fd, buf, count, offset);
}

ssize_t write(int fd, const void* buf, size_t count) {
    static ssize_t (*real)(int, const void*, size_t);
    if (!real) *(void**)(&real) = dlsym(RTLD_NEXT, "write");
    if (fd > 2 && path_matches(fd, "DTB_FAULT_WRITE_ENOSPC")) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd, buf, count);
}
