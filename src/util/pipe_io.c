/* pipe_io.c - the children that talk to the CUDA driver (gpu.c, probe.c): their standard
 * streams, and whole reads and writes on their pipes, retried on EINTR and short transfers. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "pipe_io.h"

bool fc_read_all(int fd, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

bool fc_write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

int fc_child_stdio(int keep)
{
    /* A pipe made while the caller had fd 0 or 1 closed may sit there: move it first. */
    if (keep >= 0 && keep <= STDERR_FILENO) {
        int moved = fcntl(keep, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        if (moved >= 0)
            keep = moved;
    }
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    } else {
        close(STDIN_FILENO);
        close(STDOUT_FILENO);
    }
    return keep;
}
