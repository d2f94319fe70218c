/* reader.c - header reads by pread into a small buffer, or in place for memory images. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prefault.h"
#include "read_batch.h"
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
    free(r->win);
    r->buf = NULL;
    r->win = NULL;
    r->len = r->n_win = 0;
}

void fc_reader_heads_at(fc_reader *r, const uint64_t *at, size_t n)
{
    r->heads = r->mem ? NULL : at;
    r->n_heads = r->mem ? 0 : n;
}

/* The window's block holding [OFF, OFF + WANT), or NULL. */
static const uint8_t *in_window(const fc_reader *r, uint64_t off, size_t want, size_t *got)
{
    size_t lo = 0, hi = r->n_win; /* past the last block starting at or before OFF */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->win->at[r->win->order[mid]] <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    size_t i = r->win->order[lo - 1];
    uint64_t in = off - r->win->at[i];
    if (in >= r->win->len[i] || r->win->len[i] - in < want)
        return NULL;
    *got = (size_t)(r->win->len[i] - in);
    return r->win->bytes[i] + in;
}

size_t fc_reader_read_ahead(fc_reader *r, const uint64_t *at, size_t n, bool fresh)
{
    if (fresh)
        r->n_win = 0;
    if (r->mem || r->no_batch || !n)
        return 0;
    if (!r->win && !(r->win = malloc(sizeof *r->win))) {
        r->no_batch = true; /* out of memory: read as before */
        return 0;
    }
    size_t taken = 0;
    while (taken < n && r->n_win < FC_READER_WINDOW) {
        uint64_t pos[FC_READ_BATCH_MAX];
        uint32_t len[FC_READ_BATCH_MAX];
        uint8_t *bufs[FC_READ_BATCH_MAX];
        int32_t got[FC_READ_BATCH_MAX];
        size_t k = 0, first = r->n_win;
        for (; taken < n && k < FC_READ_BATCH_MAX && first + k < FC_READER_WINDOW; taken++) {
            if (at[taken] < r->lo || at[taken] >= r->hi)
                continue;
            uint64_t left = r->hi - at[taken];
            r->win->at[first + k] = at[taken];
            pos[k] = r->file_pos + (at[taken] - r->lo);
            len[k] = left < FC_READER_SMALL_READ ? (uint32_t)left : FC_READER_SMALL_READ;
            bufs[k] = r->win->bytes[first + k];
            k++;
        }
        if (k && !fc_read_batch(r->fd, pos, len, k, bufs, got)) {
            r->no_batch = true; /* no ring here: read as before */
            r->n_win = 0;
            return 0;
        }
        /* A short or failed block is left out: fc_reader_get reads it again, and says why. */
        for (size_t j = 0; j < k; j++) {
            if (got[j] < 0 || (uint32_t)got[j] != len[j])
                continue;
            size_t to = r->n_win;
            if (to != first + j) {
                memmove(r->win->bytes[to], bufs[j], len[j]);
                r->win->at[to] = r->win->at[first + j];
            }
            r->win->len[to] = len[j];
            r->n_win++;
        }
    }
    /* The blocks by offset, for in_window: an insertion sort, as most come in order. */
    for (size_t i = 0; i < r->n_win; i++) {
        size_t j = i;
        uint16_t v = (uint16_t)i;
        while (j && r->win->at[r->win->order[j - 1]] > r->win->at[v]) {
            r->win->order[j] = r->win->order[j - 1];
            j--;
        }
        r->win->order[j] = v;
    }
    return taken;
}

const uint8_t *fc_reader_peek(const fc_reader *r, uint64_t off, size_t want, size_t *got)
{
    return r->n_win && off >= r->lo && off < r->hi ? in_window(r, off, want, got) : NULL;
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
    r->at = off;
    r->len = 0;
    while (r->len < n) {
        ssize_t k = pread(r->fd, r->buf + r->len, n - r->len, (off_t)(r->file_pos + (off - r->lo) + r->len));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && !r->error)
            r->error = errno ? errno : EIO;
        if (k <= 0) /* an error, or the file is shorter than when it was measured */
            return;
        r->len += (size_t)k;
    }
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
    if (!held && r->n_win) {
        const uint8_t *p = in_window(r, off, want, got);
        if (p)
            return p;
    }
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
