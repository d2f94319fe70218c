/* heads.c - how fast the first 4 KiB of many files can be read: open, pread and close on N
 * threads of one process, on N processes, or through io_uring with direct descriptors on N
 * threads (a ring each, 32 files a submission: src/input/heads.c's way). Prints the wall
 * time. The threads of one process share its descriptor table, whose lock the survey's
 * heads waited on (docs/performance.md, run 21).
 * Usage: find TREE -type f | heads N threads|processes|io_uring */
#include <errno.h>
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
#ifdef FC_HAVE_IO_URING
#include <liburing.h>
#endif

#define BATCH 32

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

#ifdef FC_HAVE_IO_URING
static void *with_io_uring(void *arg)
{
    (void)arg;
    struct io_uring ring;
    if (io_uring_queue_init(3 * BATCH, &ring, 0) < 0 || io_uring_register_files_sparse(&ring, BATCH) < 0) {
        fputs("heads: io_uring cannot be used here\n", stderr);
        exit(1);
    }
    static __thread char buf[BATCH][4096];
    for (size_t first; (first = atomic_fetch_add(&next, BATCH)) < n_names;) {
        size_t k = n_names - first < BATCH ? n_names - first : BATCH;
        for (size_t j = 0; j < k; j++) {
            struct io_uring_sqe *s = io_uring_get_sqe(&ring);
            io_uring_prep_openat_direct(s, AT_FDCWD, names[first + j], O_RDONLY | O_NONBLOCK, 0, (unsigned)j);
            s->flags |= IOSQE_IO_LINK;
            s = io_uring_get_sqe(&ring);
            io_uring_prep_read(s, (int)j, buf[j], sizeof buf[j], 0);
            s->flags |= IOSQE_FIXED_FILE | IOSQE_IO_HARDLINK;
            s = io_uring_get_sqe(&ring);
            io_uring_prep_close_direct(s, (unsigned)j);
        }
        io_uring_submit_and_wait(&ring, (unsigned)(3 * k));
        for (size_t seen = 0; seen < 3 * k; seen++) {
            struct io_uring_cqe *c;
            if (io_uring_wait_cqe(&ring, &c) < 0)
                break;
            failed += c->res < 0 && c->res != -ECANCELED ? 1 : 0;
            io_uring_cqe_seen(&ring, c);
        }
    }
    io_uring_queue_exit(&ring);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    int n = argc == 3 ? atoi(argv[1]) : 0;
    const char *how = argc == 3 ? argv[2] : "";
    bool procs = strcmp(how, "processes") == 0, uring = strcmp(how, "io_uring") == 0;
    if (n < 1 || n > 64 || (!procs && !uring && strcmp(how, "threads") != 0)) {
        fputs("usage: find TREE -type f | heads N threads|processes|io_uring\n", stderr);
        return 2;
    }
#ifndef FC_HAVE_IO_URING
    if (uring) {
        fputs("heads: built without liburing\n", stderr);
        return 2;
    }
#endif
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
        void *(*work)(void *) = with_syscalls;
#ifdef FC_HAVE_IO_URING
        if (uring)
            work = with_io_uring;
#endif
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
