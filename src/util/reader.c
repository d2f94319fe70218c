/* reader.c - header reads by pread into a small buffer, or in place for memory images. */
#include <stdlib.h>

#include "pread_full.h"
#include "prefault.h"
#include "reader.h"

void fc_reader_memory(fc_reader *r, const uint8_t *mem, uint64_t lo, uint64_t hi)
{
    *r = (fc_reader){.mem = mem, .fd = -1, .lo = lo, .hi = hi < lo ? lo : hi};
}

bool fc_reader_file(fc_reader *r, int fd, uint64_t file_pos, uint64_t lo, uint64_t hi, size_t cap)
{
    if (cap < FC_READER_MIN_CAP)
        cap = FC_READER_MIN_CAP;
    /* No read returns more than the region holds: a buffer for a small one is its size (an
     * object of 300,000 data sections of 88 bytes had 300,000 buffers of 64 KiB to 256 KiB
     * allocated and freed, each an mmap and munmap under AddressSanitizer: 85 s). */
    if (hi > lo && hi - lo < cap)
        cap = (size_t)(hi - lo);
    *r = (fc_reader){.fd = fd, .file_pos = file_pos, .lo = lo, .hi = hi < lo ? lo : hi, .cap = cap,
                     .read_size = FC_READER_SMALL_READ};
    r->buf = malloc(cap);
    return r->buf != NULL;
}

void fc_reader_free(fc_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = 0;
}

void fc_reader_read_size(fc_reader *r, size_t n)
{
    r->read_size = n < FC_READER_SMALL_READ ? FC_READER_SMALL_READ : n > r->cap ? r->cap : n;
    /* Large refills are made to scan: they will fill the buffer, so its pages are taken at
     * once (prefault.h). */
    if (r->buf && !r->backed && r->read_size >= FC_PREFAULT_MIN) {
        fc_prefault(r->buf, r->cap);
        r->backed = r->cap;
    }
}

/* Fills the buffer with up to N bytes from offset OFF. */
static void refill(fc_reader *r, uint64_t off, size_t n)
{
    int err;
    r->at = off;
    /* fewer than N: an error, or the file is shorter than when it was measured */
    r->len = fc_pread_full(r->fd, r->buf, n, r->file_pos + (off - r->lo), &err);
    if (err && !r->error)
        r->error = err;
}

const uint8_t *fc_reader_get(fc_reader *r, uint64_t off, size_t want, size_t *got)
{
    *got = 0;
    if (off < r->lo || off >= r->hi)
        return NULL;
    uint64_t left = r->hi - off;
    if (r->mem) {
        *got = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
        return r->mem + (off - r->lo);
    }
    if (want > r->cap)
        want = r->cap;
    if (want > left)
        want = (size_t)left;
    bool held = off >= r->at && off - r->at < r->len && r->len - (off - r->at) >= want;
    if (!held) {
        size_t n = want > r->read_size ? want : r->read_size;
        if (n > left)
            n = (size_t)left;
        refill(r, off, n);
        if (r->len == 0)
            return NULL;
    }
    *got = r->len - (size_t)(off - r->at);
    return r->buf + (off - r->at);
}
