/* failmalloc.c - an LD_PRELOAD library that makes allocations fail, for the CLI's out-of-memory
 * test (oom_cli_test.py). test_oom.c does this inside a test program for the library; the
 * command's own allocations (its reports, their strings, stdio) need it around a whole run.
 *
 * FAILMALLOC_AT=N: the Nth allocation (counting from 1: malloc, calloc, realloc, reallocarray,
 * posix_memalign, aligned_alloc, memalign, valloc; strdup, asprintf, open_memstream and the
 * like come to these) fails, and FAILMALLOC_COUNT=K after it (default 1; 0: every one from
 * there on).
 * FAILMALLOC_REPORT=FILE: at exit, the number of allocations made is written to FILE (a run
 * with FAILMALLOC_AT unset counts what a normal run makes).
 * Allocations made inside dlopen are counted but never fail: they are the dynamic loader's and
 * the loaded library's constructors' (libstdc++'s, loaded with libarchive, aborts without
 * its emergency pool), which no code of fatcheck's can answer.
 * FAILMALLOC_TRACE=N: the Nth allocation prints a backtrace on standard error (to tell whose
 * it is).
 * With FAILMALLOC_AT set, a run that dies by SIGSEGV, SIGBUS, SIGFPE or SIGILL first writes
 * "failmalloc: fatal signal N in OBJECT" on standard error, OBJECT the first frame's library
 * or program that is neither libc nor this one: the test tells libarchive 3.6's own crashes
 * from fatcheck's.
 * The allocations it lets through go to the next malloc (glibc's). Not for sanitizer builds,
 * whose runtime must come first. */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void *(*next_memalign)(size_t, size_t);
static void (*next_free)(void *);
static void *(*next_dlopen)(const char *, int);
static _Thread_local int in_dlopen;

/* What dlsym allocates while the next functions are looked up (glibc's calloc for its error
 * state, at most): from here, never freed. */
static _Alignas(16) char early[4096];
static size_t early_used;

static void *early_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof early - early_used)
        return NULL;
    void *p = early + early_used;
    early_used += n;
    return p;
}

static void resolve(void)
{
    static _Thread_local int resolving;
    if (next_malloc || resolving)
        return;
    resolving = 1;
    next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    next_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
    next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    next_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    resolving = 0;
}

static atomic_long calls;
static long fail_at = -1, fail_count = 1, trace_at = -1;
static const char *report;
static atomic_int ready;

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : dflt;
}

/* Names the object the fatal signal came from (module comment), then dies by it. */
static void on_fatal(int sig)
{
    void *b[32];
    int k = backtrace(b, 32);
    const char *who = "unknown";
    for (int i = 0; i < k; i++) {
        Dl_info d;
        if (!dladdr(b[i], &d) || !d.dli_fname)
            continue;
        const char *base = strrchr(d.dli_fname, '/');
        base = base ? base + 1 : d.dli_fname;
        if (strncmp(base, "libc.so", 7) != 0 && strstr(base, "failmalloc") == NULL) {
            who = base;
            break;
        }
    }
    char line[300];
    int n = snprintf(line, sizeof line, "failmalloc: fatal signal %d in %s\n", sig, who);
    if (n > 0 && write(2, line, (size_t)n) < 0)
        n = 0;
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void failmalloc_init(void)
{
    fail_at = env_long("FAILMALLOC_AT", -1);
    fail_count = env_long("FAILMALLOC_COUNT", 1);
    trace_at = env_long("FAILMALLOC_TRACE", -1);
    report = getenv("FAILMALLOC_REPORT");
    resolve();
    if (trace_at > 0 || fail_at > 0) { /* backtrace() loads libgcc_s on its first call,
                                          * allocating: not then */
        void *b[2];
        backtrace(b, 2);
    }
    if (fail_at > 0) {
        int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
        for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
            signal(fatal[i], on_fatal);
    }
    atomic_store(&calls, 0);
    atomic_store(&ready, 1);
}

__attribute__((destructor)) static void failmalloc_fini(void)
{
    if (!report)
        return;
    int fd = open(report, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%ld\n", atomic_load(&calls));
    if (write(fd, buf, (size_t)n) != n)
        n = -1;
    close(fd);
}

/* Whether this allocation fails (counted only once the constructor ran: the dynamic loader's
 * and libc's own start come before). */
static int fails(void)
{
    if (!atomic_load(&ready))
        return 0;
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (n == trace_at) {
        void *b[64];
        int k = backtrace(b, 64);
        backtrace_symbols_fd(b, k, 2);
    }
    if (in_dlopen || fail_at < 1 || n < fail_at || (fail_count > 0 && n >= fail_at + fail_count))
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    resolve();
    if (!next_malloc)
        return early_alloc(n);
    return fails() ? NULL : next_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    resolve();
    if (!next_calloc)
        return size && n > (size_t)-1 / size ? NULL : early_alloc(n * size); /* zeroed: static */
    return fails() ? NULL : next_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    resolve();
    if (p && n == 0) /* a free, which cannot fail */
        return next_realloc(p, n);
    return fails() ? NULL : next_realloc(p, n);
}

void *dlopen(const char *name, int flags)
{
    resolve();
    in_dlopen++;
    void *h = next_dlopen(name, flags);
    in_dlopen--;
    return h;
}

void free(void *p)
{
    if ((char *)p >= early && (char *)p < early + sizeof early)
        return;
    resolve();
    next_free(p);
}

void *reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n * size);
}

void *memalign(size_t align, size_t n)
{
    resolve();
    return fails() ? NULL : next_memalign(align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

void *valloc(size_t n)
{
    return memalign((size_t)sysconf(_SC_PAGESIZE), n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    void *p = memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
