/* zip_end.c - a zip's end-of-central-directory record, looked for as zip readers do (zip_end.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "grow.h"
#include "zip_end.h"

bool fc_zip_end_ok(const uint8_t *tail, size_t n, uint64_t total)
{
    if (n < 22 || total < n)
        return false;
    /* From the end back, as Python's zipfile and libarchive look: the record is 22 bytes and a
     * comment of up to 65,535. */
    size_t lowest = n > 22 + 0xffff ? n - (22 + 0xffff) : 0; /* (the bytes before: a locator's) */
    for (size_t at = n - 22 + 1; at-- > lowest;) {
        const uint8_t *r = tail + at;
        if (memcmp(r, "PK\005\006", 4) != 0)
            continue;
        uint64_t pos = total - (n - at); /* the record's offset in the zip */
        uint32_t cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16);
        /* Zip64: a zip64 record and its locator (20 bytes, just before) lie between. */
        if (at >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0)
            return true;
        /* The central directory ends where the record begins: a signature met by chance in a
         * member's bytes or a comment does not. */
        if ((uint64_t)cd_offset + cd_size == pos)
            return true;
    }
    return false;
}

/* Where the last end record signature within reach of the end lies, as libarchive's seekable
 * reader takes it (a record in a comment would be the one it reads); false if none. */
static bool last_end_record(const uint8_t *data, uint64_t size, uint64_t *at)
{
    if (size < 22)
        return false;
    uint64_t lowest = size > 22 + 0xffff ? size - (22 + 0xffff) : 0;
    uint64_t pos = size - 22;
    while (memcmp(data + pos, "PK\005\006", 4) != 0)
        if (pos-- == lowest)
            return false;
    *at = pos;
    return true;
}

/* Whether the end record at POS in DATA holds together, as libarchive's seekable reader takes
 * one: on disk 0 with every entry there, and the central directory ending where that record (or
 * the zip64 end record its locator names) begins, starting with a central directory header or
 * empty (DATA holds the record's 22 bytes). */
static bool end_at(const uint8_t *data, uint64_t pos)
{
    const uint8_t *r = data + pos;
    if (fc_rd16(r + 4) != 0 || fc_rd16(r + 6) != 0 || fc_rd16(r + 8) != fc_rd16(r + 10))
        return false;
    uint64_t entries = fc_rd16(r + 10), cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16), cd_end = pos;
    if (pos >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0) {
        /* Zip64: the locator names the zip64 end record, which must end where the locator
         * begins (libarchive seeks to the offset as written). */
        uint64_t at = fc_rd64(r - 20 + 8), loc = pos - 20;
        if (fc_rd32(r - 20 + 4) != 0 || !fc_range_ok(at, 56, loc) || memcmp(data + at, "PK\006\006", 4) != 0 ||
            fc_rd64(data + at + 4) != loc - at - 12 || fc_rd64(data + at + 24) != fc_rd64(data + at + 32))
            return false;
        entries = fc_rd64(data + at + 32);
        cd_size = fc_rd64(data + at + 40);
        cd_offset = fc_rd64(data + at + 48);
        cd_end = at;
    }
    /* Its offset may count from the zip's start (a stub put before it with cat) or the
     * file's (zip -A). */
    if (cd_size > cd_end || cd_offset > cd_end - cd_size)
        return false;
    return cd_size == 0 ? entries == 0 : memcmp(data + cd_end - cd_size, "PK\001\002", 4) == 0;
}

bool fc_zip_record_in_tail(const uint8_t *tail, size_t n, uint64_t total)
{
    if (n > FC_ZIP_RECORD_TAIL) {
        tail += n - FC_ZIP_RECORD_TAIL;
        n = FC_ZIP_RECORD_TAIL;
    }
    if (n < 22)
        return false;
    for (size_t at = n - 22 + 1; at-- > 0;)
        if (memcmp(tail + at, "PK\005\006", 4) == 0 && (uint64_t)fc_rd32(tail + at + 12) + fc_rd32(tail + at + 16) <= total)
            return true;
    return false;
}

bool fc_zip_ends_file(const uint8_t *data, uint64_t size)
{
    uint64_t pos;
    /* The last record ends the file: its comment runs exactly to the end. */
    return last_end_record(data, size, &pos) && pos + 22 + fc_rd16(data + pos + 20) == size && end_at(data, pos);
}

bool fc_zip_directory_of(const uint8_t *data, uint64_t size, fc_zip_directory *d)
{
    uint64_t pos;
    if (!last_end_record(data, size, &pos))
        return false;
    const uint8_t *r = data + pos;
    uint64_t cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16), cd_end = pos;
    if (pos >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0) {
        /* A zip64 locator: zipfile refuses one that names another disk, and takes the zip64
         * end record only where one without extensible data would lie, just before it; a
         * locator with none there (written by hand, or a comment's bytes) leaves the record's
         * own values (review of 2026-12-07, rv24 F4). */
        if (fc_rd32(r - 20 + 4) != 0 || fc_rd32(r - 20 + 16) > 1)
            return false;
        if (pos >= 20 + 56 && memcmp(r - 20 - 56, "PK\006\006", 4) == 0) {
            cd_size = fc_rd64(r - 20 - 56 + 40);
            cd_offset = fc_rd64(r - 20 - 56 + 48);
            cd_end = pos - 20 - 56;
        }
    }
    /* (The disk numbers and entry counts of the record zipfile does not look at.) An offset
     * past where the directory starts is taken off every member's offset, as zipfile takes
     * it (its concat below 0: the base wraps, and BASE + offset lands where zipfile seeks); it
     * was refused here, and with it every check of the directory (rv28 F2). */
    if (cd_size > cd_end)
        return false;
    if (cd_size && memcmp(data + cd_end - cd_size, "PK\001\002", 4) != 0)
        return false;
    *d = (fc_zip_directory){.start = cd_end - cd_size, .end = cd_end, .base = cd_end - cd_size - cd_offset};
    return true;
}

/* An end record's field as unzip checks it against the zip64 record's: all ones (deferred to
 * zip64) or the same. */
static bool agrees(uint64_t field, uint64_t all_ones, uint64_t zip64)
{
    return field == all_ones || field == zip64;
}

bool fc_zip64_unzip_goes_elsewhere(const uint8_t *data, uint64_t size)
{
    uint64_t pos;
    if (!last_end_record(data, size, &pos) || pos < 20 + 56)
        return false;
    const uint8_t *r = data + pos, *loc = r - 20, *z = r - 20 - 56;
    if (memcmp(loc, "PK\006\007", 4) != 0 || memcmp(z, "PK\006\006", 4) != 0)
        return false; /* zipfile goes by the end record too */
    bool passed_over = fc_rd32(loc + 16) != 1 || !agrees(fc_rd16(r + 4), 0xffff, fc_rd32(z + 16)) ||
                       !agrees(fc_rd16(r + 6), 0xffff, fc_rd32(z + 20)) ||
                       !agrees(fc_rd16(r + 8), 0xffff, fc_rd64(z + 24)) ||
                       !agrees(fc_rd16(r + 10), 0xffff, fc_rd64(z + 32)) ||
                       !agrees(fc_rd32(r + 12), 0xffffffff, fc_rd64(z + 40)) ||
                       !agrees(fc_rd32(r + 16), 0xffffffff, fc_rd64(z + 48));
    return passed_over && (fc_rd32(r + 12) != fc_rd64(z + 40) || fc_rd32(r + 16) != fc_rd64(z + 48));
}

bool fc_zip_has_end(const uint8_t *data, uint64_t size)
{
    fc_zip_directory d;
    return fc_zip_directory_of(data, size, &d);
}

bool fc_zip_has_members(const uint8_t *data, uint64_t size)
{
    fc_zip_directory d;
    return fc_zip_directory_of(data, size, &d) && d.end > d.start;
}

/* Whole DATA as its one uncovered range. */
static fc_zip_range *whole(uint64_t size, size_t *n)
{
    fc_zip_range *r = malloc(sizeof *r);
    if (r) {
        *r = (fc_zip_range){0, size};
        *n = 1;
    }
    return r;
}

static int by_offset(const void *a, const void *b)
{
    const fc_zip_range *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

bool fc_zip64_values(const uint8_t *extra, size_t n, uint64_t **vals, size_t count)
{
    size_t want = 0;
    for (size_t i = 0; i < count; i++)
        want += *vals[i] == 0xffffffffu;
    if (!want)
        return true;
    for (size_t at = 0; at + 4 <= n;) {
        uint16_t id = fc_rd16(extra + at), len = fc_rd16(extra + at + 2);
        if (at + 4 + len > n)
            return false;
        if (id == 0x0001) {
            size_t k = 0;
            for (size_t i = 0; i < count; i++) {
                if (*vals[i] != 0xffffffffu)
                    continue;
                if ((k + 1) * 8 > len)
                    return false;
                *vals[i] = fc_rd64(extra + at + 4 + 8 * k++);
            }
            return true;
        }
        at += 4 + (size_t)len;
    }
    return false;
}


fc_zip_range *fc_zip_uncovered(const uint8_t *data, uint64_t size, unsigned *entries, size_t *n)
{
    fc_zip_directory d;
    *entries = 0;
    *n = 0;
    if (!fc_zip_directory_of(data, size, &d) || d.start == d.end)
        return whole(size, n);
    fc_zip_range *covered = NULL;
    size_t cap = 0, k = 0;
    /* Walked by its size, as zipfile walks it: the end record's count is not looked at (one
     * of 0 over a directory that held a library had the zip searched as bytes: rv24 F3). */
    for (uint64_t at = d.start; at < d.end; k++) {
        if (!fc_range_ok(at, 46, d.end) || memcmp(data + at, "PK\001\002", 4) != 0 || k >= UINT_MAX)
            goto unsure;
        uint64_t usize = fc_rd32(data + at + 24), csize = fc_rd32(data + at + 20), local = fc_rd32(data + at + 42);
        uint64_t *vals[] = {&usize, &csize, &local};
        if (!fc_range_ok(at + 46 + fc_rd16(data + at + 28), fc_rd16(data + at + 30), d.end) ||
            !fc_zip64_values(data + at + 46 + fc_rd16(data + at + 28), fc_rd16(data + at + 30), vals, 3))
            goto unsure;
        uint64_t lh = d.base + local; /* (modulo 2^64: the base may stand for a negative one) */
        if (!fc_range_ok(lh, 30, size) || memcmp(data + lh, "PK\003\004", 4) != 0)
            goto unsure;
        /* The member's data, after its local header's name and extra field (read as the
         * local header gives them: what lies in them is searched). */
        uint64_t start = lh + 30 + fc_rd16(data + lh + 26) + fc_rd16(data + lh + 28);
        if (!fc_range_ok(start, csize, size))
            goto unsure;
        fc_zip_range *more = fc_grow(covered, &cap, k + 1, sizeof *more, 64);
        if (!more) {
            free(covered);
            return NULL;
        }
        covered = more;
        covered[k] = (fc_zip_range){start, csize};
        at += 46u + fc_rd16(data + at + 28) + fc_rd16(data + at + 30) + fc_rd16(data + at + 32);
    }
    *entries = (unsigned)k;
    qsort(covered, k, sizeof *covered, by_offset);
    /* What lies between: at most one range more than the members. */
    fc_zip_range *gaps = malloc((k + 1) * sizeof *gaps);
    if (!gaps) {
        free(covered);
        return NULL;
    }
    uint64_t from = 0;
    for (size_t i = 0; i < k; i++) {
        if (covered[i].offset > from)
            gaps[(*n)++] = (fc_zip_range){from, covered[i].offset - from};
        if (covered[i].offset + covered[i].size > from)
            from = covered[i].offset + covered[i].size;
    }
    if (size > from)
        gaps[(*n)++] = (fc_zip_range){from, size - from};
    free(covered);
    return gaps;
unsure:
    free(covered);
    *entries = (unsigned)(k + 1); /* a zip of members still, the one met here one of them */
    return whole(size, n);
}

bool fc_zip_behind_head(const uint8_t *head, size_t n)
{
    if (n >= 8 && memcmp(head, "PK00PK\003\004", 8) == 0)
        return true;
    if (n < 2 || head[0] != '#' || head[1] != '!')
        return false;
    const uint8_t *nl = memchr(head, '\n', n < 4096 ? n : 4096);
    return nl && !memchr(head, '\0', (size_t)(nl - head)) && (size_t)(nl - head) + 5 <= n &&
           memcmp(nl + 1, "PK\003\004", 4) == 0;
}
