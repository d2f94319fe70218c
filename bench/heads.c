/* heads.c - how fast the first 4 KiB of many files can be read: open, pread and close on N
 * threads of one process, on N processes, or through io_uring with direct descriptors on N
 * threads (a ring each, 32 files a submission: src/input/heads.c itself). Prints the wall
 * time. The threads of one process share its descriptor table, whose lock the survey's
 * heads waited on (docs/performance.md, run 21).
 * Usage: find TREE -type f | heads N threads|processes|io_uring */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "heads.h"

static char **names;
static size_t n_names;
static atomic_size_t next;
static atomic_long failed;

static void head_of(const char *name)
{
    char buf[4096];
    int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || pread(fd, buf, sizeof buf, 0) < 0)
        failed++;
    if (fd >= 0)
        close(fd);
}

static void *with_syscalls(void *arg)
{
    (void)arg;
    for (size_t i; (i = atomic_fetch_add(&next, 1)) < n_names;)
        head_of(names[i]);
    return NULL;
}

/* The survey's own reader (src/input/heads.c), a batch of files at a time. */
static void *with_io_uring(void *arg)
{
    (void)arg;
    fc_heads *h = fc_heads_new();
    uint8_t(*bufs)[FC_HEAD_SIZE] = malloc(FC_HEADS_BATCH * sizeof *bufs);
    ssize_t got[FC_HEADS_BATCH];
    if (!h || !bufs) {
        fputs("heads: io_uring cannot be used here (built without liburing, or refused)\n", stderr);
        exit(1);
    }
    for (size_t first; (first = atomic_fetch_add(&next, FC_HEADS_BATCH)) < n_names;) {
        size_t k = n_names - first < FC_HEADS_BATCH ? n_names - first : FC_HEADS_BATCH;
        if (!fc_heads_read(h, AT_FDCWD, (const char *const *)names + first, k, bufs, got)) {
            fputs("heads: the ring failed\n", stderr);
            exit(1);
        }
        for (size_t j = 0; j < k; j++)
            failed += got[j] < 0;
    }
    fc_heads_free(h);
    free(bufs);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc == 3 ? atoi(argv[1]) : 0;
    const char *how = argc == 3 ? argv[2] : "";
    bool procs = strcmp(how, "processes") == 0, uring = strcmp(how, "io_uring") == 0;
    if (n < 1 || n > 64 || (!procs && !uring && strcmp(how, "threads") != 0)) {
        fputs("usage: find TREE -type f | heads N threads|processes|io_uring\n", stderr);
        return 2;
    }
    size_t cap = 0;
    char *line = NULL;
    size_t len = 0;
    ssize_t r;
    while ((r = getline(&line, &len, stdin)) > 0) {
        if (line[r - 1] == '\n')
            line[r - 1] = '\0';
        if (n_names == cap && !(names = realloc(names, (cap = cap ? 2 * cap : 4096) * sizeof *names)))
            return 1;
        if (!(names[n_names++] = strdup(line)))
            return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (procs) {
        for (int p = 0; p < n; p++)
            if (fork() == 0) {
                for (size_t i = (size_t)p; i < n_names; i += (size_t)n)
                    head_of(names[i]);
                _exit(0);
            }
        while (wait(NULL) > 0)
            ;
    } else {
        void *(*work)(void *) = uring ? with_io_uring : with_syscalls;
        pthread_t t[64];
        for (int i = 1; i < n; i++)
            pthread_create(&t[i], NULL, work, NULL);
        work(NULL);
        for (int i = 1; i < n; i++)
            pthread_join(t[i], NULL);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s %d: %zu files, %.1f ms%s\n", how, n, n_names,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
           failed ? " (some could not be read)" : "");
    return 0;
}
