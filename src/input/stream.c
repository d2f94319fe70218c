/* stream.c - streams read once, and holding one whole within a bound (see stream.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode.h"
#include "input.h"
#include "stream.h"

/* Spooled bytes go to the file in pieces of this size; a piece of zeros is left as a hole. */
#define SPOOL_CHUNK (1u << 20)
#define HOLE_BLOCK (64u << 10)

ssize_t fc_stream_read(fc_stream *s, void *buf, size_t n)
{
    if (s->ahead_len) {
        size_t k = n < s->ahead_len ? n : s->ahead_len;
        memcpy(buf, s->ahead, k);
        s->ahead += k;
        s->ahead_len -= k;
        return (ssize_t)k;
    }
    return n ? s->read(s, buf, n) : 0;
}

ssize_t fc_stream_fill(fc_stream *s, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = fc_stream_read(s, (uint8_t *)buf + got, n - got);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

void fc_stream_unread(fc_stream *s, const uint8_t *buf, size_t n)
{
    s->ahead = buf;
    s->ahead_len = n;
}

static ssize_t fd_read(fc_stream *s, uint8_t *buf, size_t n)
{
    fc_fd_stream *f = (fc_fd_stream *)s;
    for (;;) {
        ssize_t r = read(f->fd, buf, n);
        if (r >= 0)
            return r;
        if (errno != EINTR) {
            snprintf(s->error, sizeof s->error, "read error: %s", strerror(errno));
            return -1;
        }
    }
}

void fc_fd_stream_init(fc_fd_stream *f, int fd)
{
    *f = (fc_fd_stream){.s = {.read = fd_read}, .fd = fd};
}

static ssize_t memory_read(fc_stream *s, uint8_t *buf, size_t n)
{
    fc_memory_stream *m = (fc_memory_stream *)s;
    size_t k = n < m->left ? n : m->left;
    memcpy(buf, m->p, k);
    m->p += k;
    m->left -= k;
    return (ssize_t)k;
}

void fc_memory_stream_init(fc_memory_stream *m, const uint8_t *p, size_t n)
{
    *m = (fc_memory_stream){.s = {.read = memory_read}, .p = p, .left = n};
}

/* An unlinked file in $TMPDIR (else /tmp): O_TMPFILE where the file system has it. */
static int temporary_file(char *why, size_t why_size)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/fatcheck-XXXXXX", dir) >= (int)sizeof path) {
        snprintf(why, why_size, "cannot create a temporary file in %s: name too long", dir);
        return -1;
    }
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, why_size, "cannot create a temporary file in %s: %s", dir, strerror(errno));
        return -1;
    }
    unlink(path);
    return fd;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Writes N bytes at OFF, leaving blocks of zeros as holes (the file is extended at the end). */
static bool spool_write(int fd, const uint8_t *p, size_t n, uint64_t off, char *why, size_t why_size)
{
    while (n) {
        size_t k = n < HOLE_BLOCK ? n : HOLE_BLOCK;
        if (!all_zero(p, k)) {
            for (size_t done = 0; done < k;) {
                ssize_t w = pwrite(fd, p + done, k - done, (off_t)(off + done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    snprintf(why, why_size, "cannot write a temporary file: %s", w < 0 ? strerror(errno) : "no progress");
                    return false;
                }
                done += (size_t)w;
            }
        }
        p += k;
        n -= k;
        off += k;
    }
    return true;
}

/* Holding bytes that will only be searched (fc_hold_data): nothing is written before the
 * first place the search could find something, less what it reads before that place. TAIL
 * keeps the last bytes seen so far, for a pattern cut between two pieces and for that
 * look-back. */
#define KEEP_BEFORE (FC_PTX_HEADER_BEFORE + FC_EMBEDDED_PATTERN_MAX)
typedef struct sparse {
    size_t (*first)(const uint8_t *p, size_t n);
    bool found;
    uint8_t tail[KEEP_BEFORE];
    size_t tail_len;
} sparse;

/* Writes the N bytes at P, which stand at OFF, as spool_write does; with SP, only from the
 * first place SP->first finds on. */
static bool spool_piece(int fd, const uint8_t *p, size_t n, uint64_t off, sparse *sp, char *why, size_t why_size)
{
    if (!sp || sp->found)
        return spool_write(fd, p, n, off, why, why_size);
    if (n == 0)
        return true; /* nothing held in memory before the spool began */
    /* A pattern cut between the tail and P: the seam, searched on its own. */
    enum { SEAM = FC_EMBEDDED_PATTERN_MAX - 1 };
    uint8_t seam[2 * SEAM];
    size_t a = sp->tail_len < SEAM ? sp->tail_len : SEAM, b = n < SEAM ? n : SEAM;
    memcpy(seam, sp->tail + sp->tail_len - a, a);
    memcpy(seam + a, p, b);
    size_t at = sp->first(seam, a + b);
    uint64_t hit = UINT64_MAX;
    if (at < a)
        hit = off - a + at;
    else if ((at = sp->first(p, n)) < n)
        hit = off + at;
    if (hit == UINT64_MAX) {
        /* Nothing yet: the tail moves on, the file keeps a hole. */
        if (n >= KEEP_BEFORE) {
            memcpy(sp->tail, p + n - KEEP_BEFORE, KEEP_BEFORE);
            sp->tail_len = KEEP_BEFORE;
        } else {
            size_t keep = sp->tail_len + n > KEEP_BEFORE ? KEEP_BEFORE - n : sp->tail_len;
            memmove(sp->tail, sp->tail + sp->tail_len - keep, keep);
            memcpy(sp->tail + keep, p, n);
            sp->tail_len = keep + n;
        }
        return true;
    }
    sp->found = true;
    uint64_t earliest = off - sp->tail_len; /* the tail holds the bytes just before OFF */
    uint64_t from = hit >= earliest + KEEP_BEFORE ? hit - KEEP_BEFORE : earliest;
    if (from < off && !spool_write(fd, sp->tail + sp->tail_len - (off - from), (size_t)(off - from), from, why,
                                   why_size))
        return false;
    size_t skip = from > off ? (size_t)(from - off) : 0; /* what this piece holds before that */
    return spool_write(fd, p + skip, n - skip, off + skip, why, why_size);
}

static fc_status too_large(uint64_t limit, char *why, size_t why_size)
{
    snprintf(why, why_size, "larger than the %llu-byte limit, not read", (unsigned long long)limit);
    return FC_ERR_LIMIT;
}

static fc_status read_failed(const fc_stream *s, char *why, size_t why_size)
{
    snprintf(why, why_size, "%s", s->error[0] ? s->error : "read error");
    return FC_ERR_IO;
}

/* Goes on from the LEN bytes at MEM (freed here) in a temporary file; with SP, sparsely. */
static fc_status spool(fc_stream *s, uint8_t *mem, size_t len, uint64_t limit, sparse *sp, fc_held *h, char *why,
                       size_t why_size)
{
    int fd = temporary_file(why, why_size);
    uint8_t *chunk = fd >= 0 ? malloc(SPOOL_CHUNK) : NULL;
    fc_status st = fd < 0 ? FC_ERR_IO : FC_OK;
    if (fd >= 0 && !chunk) {
        snprintf(why, why_size, "out of memory");
        st = FC_ERR_NOMEM;
    }
    uint64_t total = len;
    if (st == FC_OK && !spool_piece(fd, mem, len, 0, sp, why, why_size))
        st = FC_ERR_IO;
    free(mem);
    while (st == FC_OK) {
        ssize_t r = fc_stream_read(s, chunk, SPOOL_CHUNK);
        if (r < 0)
            st = read_failed(s, why, why_size);
        else if (r == 0)
            break;
        else if ((uint64_t)r > limit - total)
            st = too_large(limit, why, why_size);
        else if (!spool_piece(fd, chunk, (size_t)r, total, sp, why, why_size))
            st = FC_ERR_IO;
        else
            total += (uint64_t)r;
    }
    free(chunk);
    if (st == FC_OK && total > SIZE_MAX)
        st = too_large(SIZE_MAX, why, why_size);
    if (st == FC_OK && ftruncate(fd, (off_t)total) != 0) {
        snprintf(why, why_size, "cannot write a temporary file: %s", strerror(errno));
        st = FC_ERR_IO;
    }
    void *map = MAP_FAILED;
    if (st == FC_OK && total && (map = mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE, fd, 0)) ==
                                     MAP_FAILED) { /* as file_map.c: not charged to the commit limit */
        snprintf(why, why_size, "cannot map a temporary file: %s", strerror(errno));
        st = FC_ERR_IO;
    }
    if (st != FC_OK) {
        if (fd >= 0)
            close(fd);
        return st;
    }
    /* As a file is read (scan.c): headers by pread, little through the mapping. */
    madvise(map, (size_t)total, MADV_RANDOM);
    *h = (fc_held){.img = {map, (size_t)total, fd, true}, .map = map, .fd = fd};
    return FC_OK;
}

static fc_status hold(fc_stream *s, uint64_t size_hint, uint64_t limit, sparse *sp, fc_held *h, char *why,
                      size_t why_size)
{
    *h = (fc_held){.fd = -1};
    if (size_hint > FC_HOLD_IN_MEMORY)
        return spool(s, NULL, 0, limit, sp, h, why, why_size);
    uint8_t *mem = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap == FC_HOLD_IN_MEMORY)
                return spool(s, mem, len, limit, sp, h, why, why_size);
            size_t ncap = cap ? 2 * cap : 64u << 10;
            if (ncap > FC_HOLD_IN_MEMORY)
                ncap = FC_HOLD_IN_MEMORY;
            uint8_t *more = realloc(mem, ncap);
            if (!more) {
                free(mem);
                snprintf(why, why_size, "out of memory");
                return FC_ERR_NOMEM;
            }
            mem = more;
            cap = ncap;
        }
        ssize_t r = fc_stream_read(s, mem + len, cap - len);
        if (r <= 0) {
            if (r < 0) {
                free(mem);
                return read_failed(s, why, why_size);
            }
            break;
        }
        len += (size_t)r;
        if (len > limit) {
            free(mem);
            return too_large(limit, why, why_size);
        }
    }
    *h = (fc_held){.img = {len ? mem : (const uint8_t *)"", len, -1, false}, .mem = mem, .fd = -1};
    return FC_OK;
}

fc_status fc_hold(fc_stream *s, uint64_t size_hint, uint64_t limit, fc_held *h, char *why, size_t why_size)
{
    return hold(s, size_hint, limit, NULL, h, why, why_size);
}

fc_status fc_hold_data(fc_stream *s, uint64_t size_hint, uint64_t limit, size_t (*first)(const uint8_t *p, size_t n),
                       fc_held *h, char *why, size_t why_size)
{
    sparse *sp = malloc(sizeof *sp);
    if (!sp) {
        *h = (fc_held){.fd = -1};
        snprintf(why, why_size, "out of memory");
        return FC_ERR_NOMEM;
    }
    sp->first = first;
    sp->found = false;
    sp->tail_len = 0;
    fc_status st = hold(s, size_hint, limit, sp, h, why, why_size);
    free(sp);
    return st;
}

void fc_held_free(fc_held *h)
{
    if (h->map)
        munmap(h->map, h->img.size);
    if (h->fd >= 0)
        close(h->fd);
    free(h->mem);
    *h = (fc_held){.fd = -1};
}
