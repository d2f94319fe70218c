/* file_map.c - file mappings whose pages past a new end of file read as zeros (file_map.h).
 *
 * The registry is a fixed array the signal handler reads without locks: each slot holds a
 * mapping's range in atomics, written so that the handler never matches a range that is
 * being set up or torn down (the start is set last and cleared first, and read twice).
 * Registering, and installing or removing the handler, take a mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file_map.h"

/* Mappings alive at once: one for each thread scanning a file. More callers wait. */
#define SLOTS 256

typedef struct slot {
    _Atomic uintptr_t start, end; /* end is page-rounded; start 0: free */
    atomic_bool changed;
    int fd;                       /* the file mapped, to see its size now */
    _Atomic int64_t checked;      /* the coarse clock's tick when its size was last seen whole */
} slot;

static slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static unsigned in_use;
static struct sigaction previous; /* what SIGBUS did before our handler went in */
static uintptr_t page_size;

/* Hands a SIGBUS that is not ours to whoever had it before, called as a function. */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
    bool info = previous.sa_flags & SA_SIGINFO;
    void (*plain)(int) = previous.sa_handler;
    if (info && plain != SIG_DFL && plain != SIG_IGN) { /* the union's other member */
        previous.sa_sigaction(sig, si, uc);
        return;
    }
    if (!info && plain != SIG_DFL && plain != SIG_IGN) {
        plain(sig);
        return;
    }
    /* The default action (the kernel applies it to a fault even when SIGBUS is ignored):
     * restored, it ends the process when the faulting access runs again on return, or, for
     * a SIGBUS that was sent rather than caused, when the signal raised again is delivered. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGBUS, &dfl, NULL);
    if (si->si_code <= 0)
        raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    int saved_errno = errno;
    uintptr_t a = (uintptr_t)si->si_addr;
    /* BUS_ADRERR: a page past the end of the file, or one the kernel could not read. */
    if (si->si_code == BUS_ADRERR) {
        for (size_t i = 0; i < SLOTS; i++) {
            uintptr_t s = atomic_load(&slots[i].start), e = atomic_load(&slots[i].end);
            if (!s || a < s || a >= e || atomic_load(&slots[i].start) != s)
                continue;
            uintptr_t from = a & ~(page_size - 1);
            /* Every page after this one is past the end too. mmap is a plain system call
             * on Linux, safe here. */
            if (mmap((void *)from, e - from, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
                     0) == MAP_FAILED)
                break;
            atomic_store(&slots[i].changed, true);
            errno = saved_errno;
            return;
        }
    }
    errno = saved_errno;
    pass_on(sig, si, uc);
}

int fc_file_map_open(fc_file_map *m, int fd, size_t size)
{
    m->data = NULL;
    m->size = 0;
    m->slot = -1;
    pthread_mutex_lock(&lock);
    while (in_use == SLOTS)
        pthread_cond_wait(&freed, &lock);
    if (in_use == 0) {
        page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, &previous) != 0) {
            int err = errno;
            pthread_mutex_unlock(&lock);
            return err;
        }
    }
    /* Private and writable: libelf is handed a char *, and no write could reach the file.
     * Not charged to the commit limit: a private writable mapping is, whole, and one larger
     * than memory and swap was refused (ENOMEM) under the kernel's heuristic overcommit,
     * though a scan touches little of it (a 30 GiB docker save on a 23 GiB host: review of
     * 2026-12-05, rt8 finding 5). */
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED) {
        int err = errno;
        if (in_use == 0) {
            struct sigaction now;
            if (sigaction(SIGBUS, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigbus)
                sigaction(SIGBUS, &previous, NULL);
        }
        pthread_mutex_unlock(&lock);
        return err;
    }
    size_t i = 0;
    while (atomic_load(&slots[i].start))
        i++;
    atomic_store(&slots[i].changed, false);
    atomic_store(&slots[i].checked, -1);
    slots[i].fd = fd;
    atomic_store(&slots[i].end, (uintptr_t)p + ((size + page_size - 1) & ~(page_size - 1)));
    atomic_store(&slots[i].start, (uintptr_t)p);
    in_use++;
    pthread_mutex_unlock(&lock);
    m->data = p;
    m->size = size;
    m->slot = (int)i;
    return 0;
}

void fc_file_map_close(fc_file_map *m)
{
    if (m->slot < 0)
        return;
    pthread_mutex_lock(&lock);
    /* Out of the registry before the range is unmapped: another mapping may take the
     * addresses at once, and its faults are not ours. */
    atomic_store(&slots[m->slot].start, 0);
    atomic_store(&slots[m->slot].end, 0);
    munmap((void *)m->data, m->size);
    if (--in_use == 0) {
        /* Put back what was there, unless someone replaced our handler meanwhile. */
        struct sigaction now;
        if (sigaction(SIGBUS, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigbus)
            sigaction(SIGBUS, &previous, NULL);
    }
    pthread_cond_signal(&freed);
    pthread_mutex_unlock(&lock);
    m->data = NULL;
    m->size = 0;
    m->slot = -1;
}

bool fc_file_map_changed(const fc_file_map *m)
{
    return m->slot >= 0 && atomic_load(&slots[m->slot].changed);
}

bool fc_file_map_range_changed(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p, b = a + n;
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t s = atomic_load(&slots[i].start), e = atomic_load(&slots[i].end);
        if (!s || a < s || a >= e)
            continue;
        if (atomic_load(&slots[i].changed))
            return true;
        /* A file cut inside a page raises no fault: the rest of that page reads as zeros.
         * Its size is looked at once per tick of the coarse clock (1 to 4 ms), not at every
         * image: thousands of small images made the fstat calls a tenth of an archive's
         * time. A cut that slips between ticks is still found by the scan's own check when
         * the file is done (scan.c). */
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
        int64_t tick = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        if (atomic_load(&slots[i].checked) == tick)
            return false;
        struct stat st;
        if (fstat(slots[i].fd, &st) != 0 || (uint64_t)st.st_size < (uint64_t)(b - s)) {
            atomic_store(&slots[i].changed, true);
            return true;
        }
        atomic_store(&slots[i].checked, tick);
        return false;
    }
    return false;
}

bool fc_file_map_locate(const void *p, size_t n, int *fd, uint64_t *off)
{
    uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < SLOTS; i++) {
        uintptr_t s = atomic_load(&slots[i].start), e = atomic_load(&slots[i].end);
        if (!s || a < s || a >= e)
            continue;
        if (n > e - a)
            return false;
        *fd = slots[i].fd;
        *off = a - s;
        return true;
    }
    return false;
}
