/* measure.c - runs a command RUNS times after one warm-up run and prints the median wall
 * time in seconds and the largest peak resident set in KiB: "0.004512 4420".
 * Usage: measure RUNS COMMAND [ARG]...   (output of the command goes to /dev/null)
 * A C helper rather than Python, so that the child's peak RSS is its own: a process
 * spawned from Python starts with Python's pages counted. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: measure RUNS COMMAND [ARG]...\n", stderr);
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 100000) {
        fputs("measure: RUNS must be 1 to 100000\n", stderr);
        return 2;
    }
    double *t = calloc((size_t)runs, sizeof *t);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    long max_rss = 0;
    for (int i = 0; i <= runs; i++) {
        struct timespec a, b;
        pid_t pid;
        clock_gettime(CLOCK_MONOTONIC, &a);
        if (posix_spawnp(&pid, argv[2], &fa, NULL, argv + 2, environ) != 0) {
            perror("measure: spawn");
            return 1;
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0) {
            perror("measure: wait");
            return 1;
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (i == 0) /* warm-up: page cache, dynamic loader */
            continue;
        t[i - 1] = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
        if (ru.ru_maxrss > max_rss)
            max_rss = ru.ru_maxrss;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    double median = runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
    printf("%.6f %ld\n", median, max_rss);
    free(t);
    return 0;
}
