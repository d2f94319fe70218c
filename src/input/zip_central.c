/* zip_central.c - a zip's central directory checked against its local headers (zip_central.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "zip_central.h"
#include "zip_end.h"

#define U32_MAX_FIELD 0xffffffffu

/* The zip64 extended information field (0x0001) in the EXTRA bytes of length N: the values of
 * the fields given as 0xffffffff, in order (VALS, COUNT of them), replaced. False when it is
 * missing or short. */
static bool zip64_values(const uint8_t *extra, size_t n, uint64_t **vals, size_t count)
{
    size_t want = 0;
    for (size_t i = 0; i < count; i++)
        want += *vals[i] == U32_MAX_FIELD;
    if (!want)
        return true;
    for (size_t at = 0; at + 4 <= n;) {
        uint16_t id = fc_rd16(extra + at), len = fc_rd16(extra + at + 2);
        if (at + 4 + len > n)
            return false;
        if (id == 0x0001) {
            size_t k = 0;
            for (size_t i = 0; i < count; i++) {
                if (*vals[i] != U32_MAX_FIELD)
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

/* Checks the central directory entry at E (whose whole length, with its variable fields, is
 * inside DATA) against the local header it names. */
static bool entry_disagrees(const uint8_t *data, uint64_t size, const uint8_t *e, uint64_t delta, char *why,
                            size_t why_size)
{
    uint16_t nlen = fc_rd16(e + 28), xlen = fc_rd16(e + 30);
    const char *name = (const char *)(e + 46);
    uint64_t usize = fc_rd32(e + 24), csize = fc_rd32(e + 20), offset = fc_rd32(e + 42);
    uint64_t *cd_vals[] = {&usize, &csize, &offset};
    if (!zip64_values(e + 46 + nlen, xlen, cd_vals, 3)) {
        snprintf(why, why_size, "member %.*s: its central directory entry lacks the zip64 sizes it calls for", (int)nlen,
                 name);
        return true;
    }
    uint64_t at;
    if (!fc_add_ok(offset, delta, &at) || !fc_range_ok(at, 30, size) || memcmp(data + at, "PK\003\004", 4) != 0) {
        snprintf(why, why_size, "member %.*s: its central directory entry names no local header (offset %llu)",
                 (int)nlen, name, (unsigned long long)offset);
        return true;
    }
    const uint8_t *l = data + at;
    uint16_t lflags = fc_rd16(l + 6), lnlen = fc_rd16(l + 26), lxlen = fc_rd16(l + 28);
    uint16_t method = fc_rd16(e + 10), lmethod = fc_rd16(l + 8);
    if (method != lmethod) {
        snprintf(why, why_size, "member %.*s: its local header says compression method %u, its central directory "
                 "entry %u, which pip and unzip go by: what they install is not what was read here",
                 (int)nlen, name, lmethod, method);
        return true;
    }
    if (lflags & 8)
        return false; /* CRC and sizes in a data descriptor: readers take the directory's */
    uint64_t lusize = fc_rd32(l + 22), lcsize = fc_rd32(l + 18);
    uint64_t *l_vals[] = {&lusize, &lcsize};
    bool l_ok = fc_range_ok(at + 30 + lnlen, lxlen, size) && zip64_values(l + 30 + lnlen, lxlen, l_vals, 2);
    if (!l_ok || fc_rd32(l + 14) != fc_rd32(e + 16) || lusize != usize || lcsize != csize) {
        snprintf(why, why_size, "member %.*s: its local header and its central directory entry, which pip and unzip "
                 "go by, disagree on its %s: what they install is not what was read here", (int)nlen, name,
                 fc_rd32(l + 14) != fc_rd32(e + 16) ? "CRC-32" : "size");
        return true;
    }
    return false;
}

/* A central directory entry, by the local header it names. */
typedef struct named_at {
    uint64_t offset;
    const uint8_t *entry;
} named_at;

static int by_local_offset(const void *a, const void *b)
{
    const named_at *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Whether two of the N entries AT name one local header: pip and unzip extract each, the last
 * written over the first, and libarchive reads that member once, by the first (review of
 * 2026-12-06, rv16 1: a first entry of 0 bytes hid the library the second installs). */
static bool shared_local_header(named_at *at, size_t n, char *why, size_t why_size)
{
    qsort(at, n, sizeof *at, by_local_offset);
    for (size_t i = 1; i < n; i++)
        if (at[i].offset == at[i - 1].offset) {
            const uint8_t *a = at[i - 1].entry, *b = at[i].entry;
            snprintf(why, why_size, "members %.*s and %.*s: two central directory entries name one local header "
                     "(offset %llu), which pip and unzip extract twice, the last over the first: what they install "
                     "is not what was read here", (int)fc_rd16(a + 28), (const char *)(a + 46), (int)fc_rd16(b + 28),
                     (const char *)(b + 46), (unsigned long long)at[i].offset);
            return true;
        }
    return false;
}

bool fc_zip_headers_disagree(const uint8_t *data, uint64_t size, uint64_t read, char *why, size_t why_size)
{
    fc_zip_directory d;
    if (!fc_zip_directory_of(data, size, &d))
        return false;
    /* (At most one entry for each 46 bytes of the directory.) */
    named_at *at = malloc((size_t)((d.end - d.start) / 46) * sizeof *at + 1);
    if (!at) {
        snprintf(why, why_size, "out of memory");
        return true;
    }
    size_t n = 0;
    bool disagree = false;
    /* Walked by its size, as zipfile walks it. */
    for (uint64_t p = d.start; p < d.end && !disagree;) {
        if (!fc_range_ok(p, 46, d.end) || memcmp(data + p, "PK\001\002", 4) != 0)
            break; /* a directory readers refuse: not this check's to say */
        const uint8_t *e = data + p;
        uint64_t len = 46 + (uint64_t)fc_rd16(e + 28) + fc_rd16(e + 30) + fc_rd16(e + 32);
        if (!fc_range_ok(p, len, d.end))
            break;
        disagree = entry_disagrees(data, size, e, d.base, why, why_size);
        /* (entry_disagrees checked that the offset, zip64's included, names a local header.) */
        uint64_t offset = fc_rd32(e + 42);
        uint64_t *vals[] = {&(uint64_t){fc_rd32(e + 24)}, &(uint64_t){fc_rd32(e + 20)}, &offset};
        zip64_values(e + 46 + fc_rd16(e + 28), fc_rd16(e + 30), vals, 3);
        at[n++] = (named_at){offset, e};
        p += len;
    }
    if (!disagree)
        disagree = shared_local_header(at, n, why, why_size);
    /* libarchive, reading from the front where its seekable reader does not take the end
     * record (entry counts that differ, another disk, a comment longer than it looks back, a
     * zip64 end record with extensible data, which zipfile does not take), stops at the first
     * central directory header: a member only the directory reaches was not read, "no CUDA
     * code" (review of 2026-12-07, rv24 F1, F5). */
    if (!disagree && n > read) {
        snprintf(why, why_size, "its central directory, which pip and unzip go by, lists %zu members, %llu of them "
                 "read here: the rest are not seen", n, (unsigned long long)read);
        disagree = true;
    }
    free(at);
    return disagree;
}
