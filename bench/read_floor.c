/* read_floor.c - the floor of a warm run: the reads one run of fatcheck made, made again with
 * nothing else around them. Each thread of the run that read FILE gets a thread here that
 * makes the same preads (offset and length) in the same order into one buffer; the threads
 * start together. Prints the reads, the bytes, and the median and least wall time of all the
 * threads' reads over the rounds. A run of fatcheck that reads what it read cannot take less
 * than this plus starting a process, whatever it computes.
 *
 *   strace -f -qq -e trace=openat,pread64 -e raw=pread64 -o TRACE fatcheck ... FILE
 *   read_floor TRACE FILE [ROUNDS]
 *
 * TRACE must come from that command: openat decoded (to tell which descriptors are FILE's),
 * pread64's arguments raw (hexadecimal, so that the data read is not printed). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 1024

typedef struct read_op {
    uint64_t off, len;
} read_op;

typedef struct thread_reads {
    long pid;
    read_op *ops;
    size_t n, cap;
} thread_reads;

static thread_reads *threads;
static size_t n_threads;
static int file_fd;
static uint64_t largest;
static pthread_barrier_t start;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static thread_reads *reads_of(long pid)
{
    for (size_t i = 0; i < n_threads; i++)
        if (threads[i].pid == pid)
            return &threads[i];
    threads = realloc(threads, (n_threads + 1) * sizeof *threads);
    if (!threads)
        abort();
    memset(&threads[n_threads], 0, sizeof *threads);
    threads[n_threads].pid = pid;
    return &threads[n_threads++];
}

/* Reads TRACE: which descriptors openat gave for FILE (closed ones are not tracked: a
 * descriptor reused for another file would be counted, so trace one file at a time), and
 * every pread64 on them, by thread. */
static int load_trace(const char *trace, const char *file)
{
    FILE *f = fopen(trace, "r");
    if (!f)
        return -1;
    char quoted[4200];
    snprintf(quoted, sizeof quoted, "\"%s\"", file);
    static char is_file[MAX_FDS];
    long pending_open = -1; /* a pid whose openat of FILE was left unfinished */
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        long pid;
        int used;
        if (sscanf(line, "%ld %n", &pid, &used) != 1)
            continue;
        const char *rest = line + used;
        if (strncmp(rest, "openat(", 7) == 0 && strstr(rest, quoted)) {
            const char *eq = strstr(rest, ") = ");
            if (eq) {
                long fd = strtol(eq + 4, NULL, 10);
                if (fd >= 0 && fd < MAX_FDS)
                    is_file[fd] = 1;
            } else if (strstr(rest, "<unfinished")) {
                pending_open = pid;
            }
        } else if (pid == pending_open && strncmp(rest, "<... openat resumed>", 20) == 0) {
            const char *eq = strstr(rest, ") = ");
            long fd = eq ? strtol(eq + 4, NULL, 10) : -1;
            if (fd >= 0 && fd < MAX_FDS)
                is_file[fd] = 1;
            pending_open = -1;
        } else if (strncmp(rest, "pread64(", 8) == 0) {
            unsigned long fd, buf, len, off;
            if (sscanf(rest, "pread64(%lx, %lx, %lx, %lx", &fd, &buf, &len, &off) != 4 || fd >= MAX_FDS ||
                !is_file[fd])
                continue;
            thread_reads *t = reads_of(pid);
            if (t->n == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 256;
                t->ops = realloc(t->ops, t->cap * sizeof *t->ops);
                if (!t->ops)
                    abort();
            }
            t->ops[t->n++] = (read_op){off, len};
            if (len > largest)
                largest = len;
        }
    }
    fclose(f);
    return 0;
}

static void replay(const thread_reads *t, uint8_t *buf)
{
    for (size_t i = 0; i < t->n; i++)
        if (pread(file_fd, buf, t->ops[i].len, t->ops[i].off) < 0)
            perror("pread");
}

static void *replay_thread(void *arg)
{
    const thread_reads *t = arg;
    uint8_t *buf = malloc(largest);
    if (!buf)
        abort();
    replay(t, buf); /* once before timing: the buffer's pages faulted in, as fatcheck's are reused */
    for (;;) {
        pthread_barrier_wait(&start);
        if (!t->ops)
            break;
        replay(t, buf);
        pthread_barrier_wait(&start);
    }
    free(buf);
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: read_floor TRACE FILE [ROUNDS]\n", stderr);
        return 2;
    }
    int rounds = argc > 3 ? atoi(argv[3]) : 21;
    if (rounds < 1 || rounds > 10000 || load_trace(argv[1], argv[2]) != 0 || n_threads == 0) {
        fprintf(stderr, "read_floor: no pread64 of %s in %s (or a bad ROUNDS)\n", argv[2], argv[1]);
        return 2;
    }
    if ((file_fd = open(argv[2], O_RDONLY)) < 0) {
        perror(argv[2]);
        return 2;
    }
    size_t reads = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < n_threads; i++) {
        reads += threads[i].n;
        for (size_t k = 0; k < threads[i].n; k++)
            bytes += threads[i].ops[k].len;
    }

    /* All threads at once, as the run made them. The main thread is one of the barrier's
     * parties and times from the first barrier to the second. */
    pthread_barrier_init(&start, NULL, (unsigned)n_threads + 1);
    pthread_t *tids = calloc(n_threads, sizeof *tids);
    for (size_t i = 0; i < n_threads; i++)
        pthread_create(&tids[i], NULL, replay_thread, &threads[i]);
    double *wall = calloc(rounds, sizeof *wall);
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&start);
        wall[r] = now() - t0;
    }
    for (size_t i = 0; i < n_threads; i++)
        threads[i].ops = NULL; /* the stop signal: each thread sees it after the barrier */
    pthread_barrier_wait(&start);
    for (size_t i = 0; i < n_threads; i++)
        pthread_join(tids[i], NULL);
    qsort(wall, rounds, sizeof *wall, by_value);
    printf("%zu reads, %.1f MB, on %zu threads: median %.2f ms, least %.2f ms\n", reads, bytes / 1e6, n_threads,
           wall[rounds / 2] * 1e3, wall[0] * 1e3);
    return 0;
}
