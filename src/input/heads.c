/* heads.c - the first bytes of many files of one folder at once, through io_uring (heads.h).
 *
 * Each file is a chain of three requests: open into a direct descriptor (the ring's table,
 * not the process's), read its head through it, close it. The read is hard-linked to the
 * close, so that a failed read still frees the slot; a failed open cancels both. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "heads.h"

#ifdef FC_HAVE_IO_URING
#include <liburing.h>

#define PATIENCE_S 1                /* seconds without any completion before reads are cancelled */
#define CANCEL_DATA (UINT64_MAX - 1) /* user_data of a cancel request (liburing takes UINT64_MAX) */

struct fc_heads {
    struct io_uring ring;
    bool broken;
};

fc_heads *fc_heads_new(void)
{
    fc_heads *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    if (io_uring_queue_init(3 * FC_HEADS_BATCH, &h->ring, 0) < 0) {
        free(h);
        return NULL;
    }
    if (io_uring_register_files_sparse(&h->ring, FC_HEADS_BATCH) < 0) {
        io_uring_queue_exit(&h->ring);
        free(h);
        return NULL;
    }
    return h;
}

bool fc_heads_read(fc_heads *h, int dirfd, const char *const *names, size_t n, uint8_t (*bufs)[FC_HEAD_SIZE],
                   ssize_t *got)
{
    if (h->broken || n > FC_HEADS_BATCH)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct io_uring_sqe *open = io_uring_get_sqe(&h->ring);
        struct io_uring_sqe *read = io_uring_get_sqe(&h->ring);
        struct io_uring_sqe *close = io_uring_get_sqe(&h->ring);
        if (!open || !read || !close) { /* the ring has room for a whole batch: cannot happen */
            h->broken = true;
            return false;
        }
        io_uring_prep_openat_direct(open, dirfd, names[i], O_RDONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW, 0, (unsigned)i);
        open->flags |= IOSQE_IO_LINK;
        open->user_data = 3 * i;
        io_uring_prep_read(read, (int)i, bufs[i], FC_HEAD_SIZE, 0);
        read->flags |= IOSQE_FIXED_FILE | IOSQE_IO_HARDLINK;
        read->user_data = 3 * i + 1;
        io_uring_prep_close_direct(close, (unsigned)i);
        close->user_data = 3 * i + 2;
        got[i] = -ECANCELED;
    }
    size_t want = 3 * n, seen = 0;
    int rc;
    struct io_uring_cqe *first;
    struct __kernel_timespec patience = {.tv_sec = PATIENCE_S};
    do
        rc = io_uring_submit_and_wait_timeout(&h->ring, &first, (unsigned)want, &patience, NULL);
    while (rc == -EINTR);
    if (rc < 0 && rc != -ETIME) {
        h->broken = true; /* what is in flight is ended with the ring */
        return false;
    }
    bool read_done[FC_HEADS_BATCH] = {false};
    while (seen < want) {
        struct io_uring_cqe *c;
        if ((rc = io_uring_wait_cqe_timeout(&h->ring, &c, &patience)) == -EINTR)
            continue;
        if (rc == -ETIME) {
            /* Nothing for a while: a read that waits for data to come, which would wait for
             * ever (a FIFO with a writer, put in a listed file's place: io_uring polls an
             * O_NONBLOCK pipe rather than fail with EAGAIN). The reads not done are cancelled
             * (a read from a disk in progress completes as usual); those files are read one
             * by one by the caller. */
            for (size_t i = 0; i < n; i++) {
                struct io_uring_sqe *cancel = read_done[i] ? NULL : io_uring_get_sqe(&h->ring);
                if (!cancel)
                    continue;
                io_uring_prep_cancel64(cancel, 3 * i + 1, 0);
                cancel->user_data = CANCEL_DATA;
                want++;
            }
            io_uring_submit(&h->ring); /* also what an earlier submission left unsubmitted */
            continue;
        }
        if (rc < 0) {
            h->broken = true;
            return false;
        }
        if (c->user_data != CANCEL_DATA) {
            size_t i = (size_t)(c->user_data / 3);
            int step = (int)(c->user_data % 3);
            if (i < n && ((step == 0 && c->res < 0) || step == 1) && got[i] == -ECANCELED)
                got[i] = c->res; /* the open's error, or what the read gave */
            if (i < n && step >= 1)
                read_done[i] = true;
        }
        io_uring_cqe_seen(&h->ring, c);
        seen++;
    }
    return true;
}

void fc_heads_free(fc_heads *h)
{
    if (!h)
        return;
    io_uring_queue_exit(&h->ring);
    free(h);
}

#else /* built without liburing */

fc_heads *fc_heads_new(void)
{
    return NULL;
}

bool fc_heads_read(fc_heads *h, int dirfd, const char *const *names, size_t n, uint8_t (*bufs)[FC_HEAD_SIZE],
                   ssize_t *got)
{
    (void)h, (void)dirfd, (void)names, (void)n, (void)bufs, (void)got;
    return false;
}

void fc_heads_free(fc_heads *h)
{
    (void)h;
}

#endif
