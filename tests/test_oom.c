/* test_oom.c - running out of memory is never "no CUDA code".
 *
 * Allocations N to N + K - 1 fail (memory short for a while, as under RLIMIT_AS while other
 * threads hold much of it; K up to 3, and for good), for each N up to the number one scan of
 * a CUDA library makes: the library must then be reported with all its containers, or
 * something must be said: an error, or an object whose status is a failure. Found by review 5 (G4) under `ulimit -v` at -j 16, where a walk item that ran
 * out of memory, with no memory left for its message either, was taken for one that found
 * nothing, and the library was left out unsaid. malloc, calloc and realloc are this
 * program's own, over glibc's, so that libfatcheck's and libelf's calls come here too. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatcheck.h"
#include "tap.h"

#ifndef FIXTURES_DIR
#error FIXTURES_DIR must name the fixtures folder
#endif

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static atomic_long calls;
static atomic_long fail_from = -1; /* -1: none fails */
static atomic_long fail_count;     /* how many from there; 0: all */

static bool fails(void)
{
    long n = atomic_fetch_add(&calls, 1), from = atomic_load(&fail_from), k = atomic_load(&fail_count);
    return from >= 0 && n >= from && (k == 0 || n < from + k);
}

void *malloc(size_t n)
{
    return fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return fails() ? NULL : __libc_realloc(p, n);
}

typedef struct seen {
    size_t containers, objects, failed_objects, errors;
} seen;

static int on_object(void *ctx, const fc_object *o)
{
    seen *s = ctx;
    s->objects++;
    s->containers += o->n_containers;
    s->failed_objects += o->status != FC_OK;
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    (void)e;
    ((seen *)ctx)->errors++;
    return 0;
}

/* One scan of PATH on THREADS threads, allocations FROM to FROM + COUNT - 1 failing. */
static seen scan(const char *path, unsigned threads, long from, long count)
{
    fc_options o;
    fc_options_init(&o);
    o.threads = threads;
    seen s = {0, 0, 0, 0};
    atomic_store(&calls, 0);
    atomic_store(&fail_count, count);
    atomic_store(&fail_from, from);
    fc_scan(path, &o, on_object, on_error, &s);
    atomic_store(&fail_from, -1);
    return s;
}

int main(void)
{
    /* Fixtures one by one, and a folder of three of them, which two threads survey first. */
    char tree[] = "/tmp/fc-oom-XXXXXX";
    if (!mkdtemp(tree))
        return 1;
    static const char *const copied[] = {"libmulti.so", "libembedded.so", "app"};
    for (size_t i = 0; i < 3; i++) {
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", FIXTURES_DIR, copied[i]);
        snprintf(to, sizeof to, "%s/%s", tree, copied[i]);
        if (link(from, to) != 0)
            return 1;
    }
    const char *const files[] = {"libmulti.so", "libembedded.so", "app", "librdc.a", "all_archs.fatbin", tree};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++)
        for (unsigned threads = 1; threads <= 2; threads++) {
            char path[4096];
            if (files[f] == tree)
                snprintf(path, sizeof path, "%s", tree);
            else
                snprintf(path, sizeof path, "%s/%s", FIXTURES_DIR, files[f]);
            seen whole = scan(path, threads, -1, 0);
            long total = atomic_load(&calls), silent = 0, first = -1, first_k = 0;
            ok(whole.containers > 0 && whole.errors == 0 && whole.failed_objects == 0,
               "%s, %u thread(s): %zu containers in %zu objects, %ld allocations", files[f], threads, whole.containers,
               whole.objects, total);
            for (long k = 0; k <= 3; k++)
                for (long from = 0; from <= total; from++) {
                    seen s = scan(path, threads, from, k);
                    if (!(s.errors || s.failed_objects || s.containers == whole.containers)) {
                        if (first < 0)
                            first = from, first_k = k;
                        silent++;
                    }
                }
            ok(silent == 0,
               "%s, %u thread(s): allocations N to N + K - 1 failing (K 1 to 3, and all from N), N = 0..%ld: all "
               "found, or said (%ld silent; the first N %ld, K %ld)",
               files[f], threads, total, silent, first, first_k);
        }
    for (size_t i = 0; i < 3; i++) {
        char to[4096];
        snprintf(to, sizeof to, "%s/%s", tree, copied[i]);
        unlink(to);
    }
    rmdir(tree);
    return tap_done();
}
