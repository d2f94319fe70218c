/* prefault.c - see prefault.h. */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prefault.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

void fc_prefault(void *p, size_t n)
{
#ifdef __linux__
    if (!p || n < FC_PREFAULT_MIN)
        return;
    long k = sysconf(_SC_PAGESIZE); /* glibc keeps it: no system call */
    uintptr_t page = k > 0 ? (uintptr_t)k : 4096;
    uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE); /* EINVAL on older kernels: fine */
#else
    (void)p;
    (void)n;
#endif
}

void fc_prefault_part(void *buf, size_t size, void *p, size_t n)
{
#ifdef __linux__
    long k = sysconf(_SC_PAGESIZE);
    uintptr_t page = k > 0 ? (uintptr_t)k : 4096;
    uintptr_t b_lo = ((uintptr_t)buf + page - 1) & ~(page - 1), b_hi = ((uintptr_t)buf + size) & ~(page - 1);
    uintptr_t lo = (uintptr_t)p & ~(page - 1), hi = ((uintptr_t)p + n + page - 1) & ~(page - 1);
    if (lo < b_lo)
        lo = b_lo;
    if (hi > b_hi)
        hi = b_hi;
    if (n && hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)buf;
    (void)size;
    (void)p;
    (void)n;
#endif
}
