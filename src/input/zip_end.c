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
