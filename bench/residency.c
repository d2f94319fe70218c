/* residency.c - the floor for a cold run: how long reading exactly the pages a program caused
 * to be read takes, on N threads.
 *
 * "record" maps each file named on standard input and writes the ranges of its pages in the
 * page cache (mincore) as "offset length path" lines: run after evicting a tree and running
 * fatcheck over it cold, they are what fatcheck read from disk, readahead included. "replay"
 * reads those ranges (after evicting again) with pread on N threads, each file whole on one
 * thread, without readahead (POSIX_FADV_RANDOM), and prints the bytes and the wall time.
 * Directory blocks and inodes are not evicted by posix_fadvise, so neither run reads those.
 *
 *   find TREE -type f | residency record > ranges
 *   residency replay N < ranges
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int record(void)
{
    char path[8192];
    long page = sysconf(_SC_PAGESIZE);
    unsigned long long files = 0, bytes = 0;
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = '\0';
        int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            continue;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
            close(fd);
            continue;
        }
        size_t size = (size_t)st.st_size, pages = (size + (size_t)page - 1) / (size_t)page;
        void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
        unsigned char *in = map != MAP_FAILED ? malloc(pages) : NULL;
        if (in && mincore(map, size, in) == 0) {
            files++;
            for (size_t i = 0; i < pages;) {
                if (!(in[i] & 1)) {
                    i++;
                    continue;
                }
                size_t j = i;
                while (j < pages && (in[j] & 1))
                    j++;
                unsigned long long off = (unsigned long long)i * (unsigned long long)page,
                                   len = (unsigned long long)(j - i) * (unsigned long long)page;
                if (off + len > size)
                    len = size - off;
                printf("%llu %llu %s\n", off, len, path);
                bytes += len;
                i = j;
            }
        }
        free(in);
        if (map != MAP_FAILED)
            munmap(map, size);
        close(fd);
    }
    fprintf(stderr, "residency: %llu files looked at, %llu bytes resident\n", files, bytes);
    return 0;
}

typedef struct range {
    unsigned long long off, len;
    char *path;
} range;

static range *ranges;
static size_t n_ranges;
static size_t *file_starts, n_files; /* the first range of each file; ranges of one file are adjacent */
static atomic_size_t next_file;
static atomic_ullong read_bytes;

static void *reader(void *arg)
{
    (void)arg;
    char *buf = malloc(1u << 20);
    for (size_t f; buf && (f = atomic_fetch_add(&next_file, 1)) < n_files;) {
        size_t from = file_starts[f], to = f + 1 < n_files ? file_starts[f + 1] : n_ranges;
        int fd = open(ranges[from].path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            continue;
        posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
        for (size_t r = from; r < to; r++)
            for (unsigned long long done = 0; done < ranges[r].len;) {
                size_t want = ranges[r].len - done > (1u << 20) ? 1u << 20 : (size_t)(ranges[r].len - done);
                ssize_t got = pread(fd, buf, want, (off_t)(ranges[r].off + done));
                if (got <= 0)
                    break;
                done += (unsigned long long)got;
                read_bytes += (unsigned long long)got;
            }
        close(fd);
    }
    free(buf);
    return NULL;
}

static int replay(unsigned threads)
{
    char line[8300];
    size_t cap = 0, cap_files = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        unsigned long long off, len;
        int at = 0;
        if (sscanf(line, "%llu %llu %n", &off, &len, &at) != 2 || !at)
            continue;
        if (n_ranges == cap && !(ranges = realloc(ranges, (cap = cap ? 2 * cap : 1024) * sizeof *ranges)))
            return 1;
        bool same = n_ranges && strcmp(ranges[n_ranges - 1].path, line + at) == 0;
        ranges[n_ranges] = (range){off, len, same ? ranges[n_ranges - 1].path : strdup(line + at)};
        if (!same) {
            if (n_files == cap_files &&
                !(file_starts = realloc(file_starts, (cap_files = cap_files ? 2 * cap_files : 1024) * sizeof *file_starts)))
                return 1;
            file_starts[n_files++] = n_ranges;
        }
        n_ranges++;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pthread_t t[256];
    if (threads < 1)
        threads = 1;
    if (threads > 256)
        threads = 256;
    for (unsigned i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, reader, NULL);
    for (unsigned i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%zu files, %zu ranges, %llu bytes read in %.3f s on %u threads\n", n_files, n_ranges,
           (unsigned long long)read_bytes, (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9,
           threads);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "record") == 0)
        return record();
    if (argc == 3 && strcmp(argv[1], "replay") == 0)
        return replay((unsigned)atoi(argv[2]));
    fprintf(stderr, "usage: residency record < paths > ranges | residency replay N < ranges\n");
    return 2;
}
