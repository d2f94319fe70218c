/* pread_full.c - whole positioned reads (pread_full.h). */
#include "pread_full.h"

#include <errno.h>
#include <unistd.h>

size_t fc_pread_full(int fd, void *buf, size_t n, uint64_t off, int *err)
{
    size_t got = 0;
    if (err)
        *err = 0;
    while (got < n) {
        ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && err)
            *err = errno ? errno : EIO;
        if (k <= 0) /* an error, or the end of the file */
            break;
        got += (size_t)k;
    }
    return got;
}
