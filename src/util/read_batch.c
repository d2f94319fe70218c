/* read_batch.c - see read_batch.h. */
#include <errno.h>
#include <stdlib.h>

#include "read_batch.h"

#ifdef FC_HAVE_IO_URING
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_key_t ring_key;
static bool key_made;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static atomic_bool unusable; /* a ring could not be made once: none is tried again */

static void ring_free(void *p)
{
    struct io_uring *ring = p;
    if (ring) {
        io_uring_queue_exit(ring);
        free(ring);
    }
}

static void make_key(void)
{
    key_made = pthread_key_create(&ring_key, ring_free) == 0;
}

/* The calling thread's ring, made on first use; NULL when none can be. */
static struct io_uring *thread_ring(void)
{
    if (atomic_load_explicit(&unusable, memory_order_relaxed))
        return NULL;
    pthread_once(&key_once, make_key);
    if (!key_made)
        return NULL;
    struct io_uring *ring = pthread_getspecific(ring_key);
    if (ring)
        return ring;
    if (!(ring = malloc(sizeof *ring)))
        return NULL;
    int rc = io_uring_queue_init(FC_READ_BATCH_MAX, ring, 0);
    if (rc < 0) {
        free(ring);
        if (rc != -ENOMEM)
            atomic_store(&unusable, true); /* ENOSYS, EPERM (seccomp, io_uring_disabled) ... */
        return NULL;
    }
    if (pthread_setspecific(ring_key, ring) != 0) {
        ring_free(ring);
        return NULL;
    }
    return ring;
}

bool fc_read_batch_usable(void)
{
    return thread_ring() != NULL;
}

/* Drops what the ring holds after a failure: the ring goes, the next call makes another. */
static void ring_broken(struct io_uring *ring)
{
    pthread_setspecific(ring_key, NULL);
    ring_free(ring);
}

bool fc_read_batch(int fd, const uint64_t *pos, const uint32_t *len, size_t n, uint8_t *const *bufs, int32_t *got)
{
    struct io_uring *ring = n && n <= FC_READ_BATCH_MAX ? thread_ring() : NULL;
    if (!ring)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
        if (!sqe) { /* the ring has room for a whole batch: cannot happen */
            ring_broken(ring);
            return false;
        }
        io_uring_prep_read(sqe, fd, bufs[i], len[i], pos[i]);
        sqe->user_data = i;
        got[i] = -ECANCELED;
    }
    size_t seen = 0;
    int rc;
    do
        rc = io_uring_submit_and_wait(ring, (unsigned)n);
    while (rc == -EINTR);
    if (rc < 0) {
        ring_broken(ring); /* what is in flight ends with the ring */
        return false;
    }
    while (seen < n) {
        struct io_uring_cqe *c;
        if ((rc = io_uring_wait_cqe(ring, &c)) == -EINTR)
            continue;
        if (rc < 0) {
            ring_broken(ring);
            return false;
        }
        if (c->user_data < n)
            got[c->user_data] = c->res;
        io_uring_cqe_seen(ring, c);
        seen++;
    }
    return true;
}

void fc_read_batch_thread_end(void)
{
    pthread_once(&key_once, make_key);
    if (!key_made)
        return;
    struct io_uring *ring = pthread_getspecific(ring_key);
    if (ring) {
        pthread_setspecific(ring_key, NULL);
        ring_free(ring);
    }
}

#else /* built without liburing */

bool fc_read_batch(int fd, const uint64_t *pos, const uint32_t *len, size_t n, uint8_t *const *bufs, int32_t *got)
{
    (void)fd, (void)pos, (void)len, (void)n, (void)bufs, (void)got;
    return false;
}

bool fc_read_batch_usable(void)
{
    return false;
}

void fc_read_batch_thread_end(void)
{
}

#endif
