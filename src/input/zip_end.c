/* zip_end.c - a zip's end-of-central-directory record, looked for as zip readers do (zip_end.h). */
#include <string.h>

#include "bytes.h"
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

bool fc_zip_ends_file(const uint8_t *data, uint64_t size)
{
    uint64_t pos;
    if (!last_end_record(data, size, &pos))
        return false;
    const uint8_t *r = data + pos;
    /* The record ends the file: its comment runs exactly to the end. One disk, holding every entry. */
    if (pos + 22 + fc_rd16(r + 20) != size || fc_rd16(r + 4) != 0 || fc_rd16(r + 6) != 0 ||
        fc_rd16(r + 8) != fc_rd16(r + 10))
        return false;
    uint64_t cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16), cd_end = pos;
    if (pos >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0) {
        /* Zip64: the locator names the zip64 end record, which must end where the locator
         * begins (libarchive seeks to the offset as written). */
        uint64_t at = fc_rd64(r - 20 + 8), loc = pos - 20;
        if (fc_rd32(r - 20 + 4) != 0 || !fc_range_ok(at, 56, loc) || memcmp(data + at, "PK\006\006", 4) != 0 ||
            fc_rd64(data + at + 4) != loc - at - 12)
            return false;
        cd_size = fc_rd64(data + at + 40);
        cd_offset = fc_rd64(data + at + 48);
        cd_end = at;
    }
    /* The central directory ends where the end record begins; its offset may count from the
     * zip's own start (a stub put before it with cat) or the file's (zip -A). */
    if (cd_size > cd_end || cd_offset > cd_end - cd_size)
        return false;
    return cd_size == 0 ? fc_rd16(r + 10) == 0 : memcmp(data + cd_end - cd_size, "PK\001\002", 4) == 0;
}

uint64_t fc_zip_stub(const uint8_t *data, uint64_t size, unsigned *entries)
{
    uint64_t pos;
    *entries = 0;
    if (!fc_zip_ends_file(data, size) || !last_end_record(data, size, &pos))
        return size;
    const uint8_t *r = data + pos;
    *entries = fc_rd16(r + 10);
    /* Zip64 (its offsets are in extra fields): not walked, all of it is the stub. */
    if (*entries == 0 || (pos >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0))
        return size;
    uint64_t cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16), cd_start = pos - cd_size;
    uint64_t base = cd_start - cd_offset; /* the zip's start; 0 when offsets count from the file's */
    uint64_t first = UINT64_MAX, at = cd_start;
    for (unsigned i = 0; i < *entries; i++) {
        if (!fc_range_ok(at, 46, pos) || memcmp(data + at, "PK\001\002", 4) != 0)
            return size;
        uint32_t local = fc_rd32(data + at + 42);
        if (local == 0xffffffffu)
            return size;
        if (local < first)
            first = local;
        at += 46u + fc_rd16(data + at + 28) + fc_rd16(data + at + 30) + fc_rd16(data + at + 32);
    }
    return base + first <= size ? base + first : size;
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
