/* fuzz_stream.c - standard input: the bytes through a pipe to fc_scan_fd, which reads them
 * once, in order. A package (zip, tar, gzip, bzip2, xz, zstd, .deb, .rpm) is read through
 * libarchive as its bytes arrive, with the layers fatcheck decodes itself (an rpm's headers,
 * xz) and packages inside it as streams of their own; anything else is held (fc_hold) and
 * scanned; for every object, the link state and kernels of its first images. */
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "fatcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct feed {
    int fd;
    const uint8_t *data;
    size_t size;
} feed;

/* Writes the input into the pipe and closes it; stops when the reader closed its end. */
static void *writer(void *arg)
{
    feed *f = arg;
    for (size_t done = 0; done < f->size;) {
        ssize_t w = write(f->fd, f->data + done, f->size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

static int on_object(void *ctx, const fc_object *o)
{
    const fc_options *opts = ctx;
    for (size_t c = 0; c < o->n_containers && c < 4; c++)
        for (size_t e = 0; e < o->containers[c].n_entries && e < 4; e++) {
            const fc_entry *en = &o->containers[c].entries[e];
            fc_entry_link_state(o, en, opts);
            fc_kernel_list *l = NULL;
            fc_entry_kernels(&l, o, en, opts);
            fc_kernel_list_free(l);
        }
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    (void)ctx;
    (void)e;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int once;
    if (!once++)
        signal(SIGPIPE, SIG_IGN); /* the scan may stop reading before the writer is done */
    fc_options opts;
    fc_options_init(&opts);
    opts.max_decompressed_size = 1u << 24;
    opts.max_member_size = 1u << 24;
    opts.max_entries = 4096;
    opts.threads = 1;
    int p[2];
    if (pipe(p) != 0)
        return 0;
    feed f = {p[1], data, size};
    pthread_t t;
    if (pthread_create(&t, NULL, writer, &f) != 0) {
        close(p[0]);
        close(p[1]);
        return 0;
    }
    fc_scan_fd(p[0], NULL, &opts, on_object, on_error, &opts);
    close(p[0]);
    pthread_join(t, NULL);
    return 0;
}
