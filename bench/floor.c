/* floor.c - what this machine charges for the things a short run of fatcheck is made of, so
 * that a run's time can be set beside them (docs/performance.md, dev): a system call, a page
 * of memory written the first time, a page already mapped written again, and 1 KiB reads of a
 * file at spread offsets, one pread each and batched through io_uring. Prints microseconds per
 * operation, the median of five rounds.
 *   floor [FILE]        (FILE: read for the pread figures; default /proc/self/exe) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef FC_HAVE_IO_URING
#include <liburing.h>
#endif

#define N 4096     /* operations a round */
#define ROUNDS 5

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v)
{
    qsort(v, ROUNDS, sizeof *v, by_value);
    return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "/proc/self/exe";
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 4096) {
        fprintf(stderr, "floor: %s: cannot read it, or it is under 4 KiB\n", path);
        return 2;
    }
    static char bufs[N][1024];
    static off_t offs[N];
    for (size_t i = 0; i < N; i++) /* spread over the file, as container headers are */
        offs[i] = (off_t)((st.st_size - 1024) / N * i);
    double t_sys[ROUNDS], t_fresh[ROUNDS], t_again[ROUNDS], t_pread[ROUNDS], t_ring[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        double t = now();
        for (size_t i = 0; i < N; i++)
            (void)getppid();
        t_sys[r] = now() - t;
        char *p = mmap(NULL, (size_t)N * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return 2;
        t = now();
        for (size_t i = 0; i < N; i++)
            p[i * 4096] = 1;
        t_fresh[r] = now() - t;
        t = now();
        for (size_t i = 0; i < N; i++)
            p[i * 4096] = 2;
        t_again[r] = now() - t;
        munmap(p, (size_t)N * 4096);
        t = now();
        for (size_t i = 0; i < N; i++)
            if (pread(fd, bufs[i], 1024, offs[i]) < 0)
                return 2;
        t_pread[r] = now() - t;
        t_ring[r] = 0;
#ifdef FC_HAVE_IO_URING
        struct io_uring ring;
        if (io_uring_queue_init(256, &ring, 0) == 0) {
            t = now();
            for (size_t i = 0; i < N; i += 256) {
                for (size_t k = i; k < i + 256 && k < N; k++)
                    io_uring_prep_read(io_uring_get_sqe(&ring), fd, bufs[k], 1024, (unsigned long long)offs[k]);
                io_uring_submit_and_wait(&ring, 256);
                io_uring_cq_advance(&ring, 256);
            }
            t_ring[r] = now() - t;
            io_uring_queue_exit(&ring);
        }
#endif
    }
    printf("system call (getppid)      %7.3f us\n", median(t_sys) / N * 1e6);
    printf("page written the first time %6.3f us\n", median(t_fresh) / N * 1e6);
    printf("page written again          %6.3f us\n", median(t_again) / N * 1e6);
    printf("1 KiB pread                 %6.3f us\n", median(t_pread) / N * 1e6);
    if (median(t_ring) > 0)
        printf("1 KiB read through io_uring %6.3f us (256 a submission)\n", median(t_ring) / N * 1e6);
    return 0;
}
