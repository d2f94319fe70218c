/* zip_central.c - a zip's central directory checked against its local headers (zip_central.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "zip_central.h"
#include "zip_end.h"

/* Checks the central directory entry at E (whose whole length, with its variable fields, is
 * inside DATA) against the local header it names. */
static bool entry_disagrees(const uint8_t *data, uint64_t size, const uint8_t *e, uint64_t delta, char *why,
                            size_t why_size)
{
    uint16_t nlen = fc_rd16(e + 28), xlen = fc_rd16(e + 30);
    const char *name = (const char *)(e + 46);
    uint64_t usize = fc_rd32(e + 24), csize = fc_rd32(e + 20), offset = fc_rd32(e + 42);
    uint64_t *cd_vals[] = {&usize, &csize, &offset};
    if (!fc_zip64_values(e + 46 + nlen, xlen, cd_vals, 3)) {
        snprintf(why, why_size, "member %.*s: its central directory entry lacks the zip64 sizes it calls for", (int)nlen,
                 name);
        return true;
    }
    uint64_t at = offset + delta; /* (modulo 2^64, as fc_zip_directory's base is) */
    if (!fc_range_ok(at, 30, size) || memcmp(data + at, "PK\003\004", 4) != 0) {
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
    uint64_t lusize = fc_rd32(l + 22), lcsize = fc_rd32(l + 18);
    uint64_t *l_vals[] = {&lusize, &lcsize};
    bool l_ok = fc_range_ok(at + 30 + lnlen, lxlen, size) && fc_zip64_values(l + 30 + lnlen, lxlen, l_vals, 2);
    uint32_t lcrc = fc_rd32(l + 14), crc = fc_rd32(e + 16);
    /* CRC and sizes deferred to a data descriptor: zipfile and unzip take the directory's, and
     * libarchive's seekable reader the local header's where they are not 0 (rv28 F1: 3 bytes of
     * a library so declared were read, its 27,576 installed). Streaming writers write zeros. */
    bool deferred = lflags & 8;
    if (deferred && l_ok && (!lcrc || lcrc == crc) && (!lusize || lusize == usize) && (!lcsize || lcsize == csize))
        return false;
    if (!l_ok || lcrc != crc || lusize != usize || lcsize != csize) {
        snprintf(why, why_size, "member %.*s: its local header and its central directory entry, which pip and unzip "
                 "go by, disagree on its %s: what they install is not what was read here", (int)nlen, name,
                 lcrc != crc ? "CRC-32" : "size");
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

/* A name in the directory: where its bytes are, how many. */
typedef struct listed {
    const char *name;
    size_t len;
} listed;

/* NAME (LEN bytes) as compared: libarchive gives a directory's name with a '/' after it,
 * and one written on Windows with its '\\' as '/'. */
static listed listed_name(const char *name, size_t len)
{
    while (len && (name[len - 1] == '/' || name[len - 1] == '\\'))
        len--;
    return (listed){name, len};
}

static int by_name(const void *a, const void *b)
{
    const listed *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    for (size_t i = 0; i < n; i++) {
        unsigned char p = (unsigned char)(x->name[i] == '\\' ? '/' : x->name[i]);
        unsigned char q = (unsigned char)(y->name[i] == '\\' ? '/' : y->name[i]);
        if (p != q)
            return p < q ? -1 : 1;
    }
    return x->len < y->len ? -1 : x->len > y->len;
}

/* The first of the N listed names (sorted) that the READ names (N_READ of them, sorted)
 * do not match one for one, or NULL. */
static const listed *unread(const listed *dir, size_t n, listed *read, size_t n_read)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        while (j < n_read && by_name(&read[j], &dir[i]) < 0)
            j++;
        if (j == n_read || by_name(&read[j], &dir[i]) != 0)
            return &dir[i];
        j++;
    }
    return NULL;
}

/* Where libarchive's seekable zip reader takes the central directory to start (*START) and
 * what it adds to the local header offsets there (*BASE), as its bid finds it: the last end
 * record in the file's last 16 KiB, on disk 0 with every entry there and its directory before
 * it (the directory then taken to end where the record begins), or the zip64 end record at the
 * offset a locator within those 16 KiB gives (read as written, nothing added). False when it
 * takes none: libarchive then reads the zip from the front. */
static bool libarchive_directory(const uint8_t *data, uint64_t size, uint64_t *start, uint64_t *base)
{
    uint64_t tail = size < 16384 ? size : 16384, from = size - tail;
    if (size < 22)
        return false;
    for (uint64_t pos = size - 22 + 1; pos-- > from + 1;) {
        if (memcmp(data + pos, "PK\005\006", 4) != 0)
            continue;
        const uint8_t *r = data + pos;
        uint32_t cd_size = fc_rd32(r + 12), cd_offset = fc_rd32(r + 16);
        /* (libarchive adds the two as 32-bit numbers: the sum wraps, rv28.) */
        bool ok = fc_rd16(r + 4) == 0 && fc_rd16(r + 6) == 0 && fc_rd16(r + 8) == fc_rd16(r + 10) &&
                  (uint32_t)(cd_size + cd_offset) <= pos && cd_size <= pos;
        if (ok) {
            *start = pos - cd_size;
            *base = *start - cd_offset;
        }
        /* (The locator is looked for in the 16 KiB read: rv26 F3.) */
        if (pos - from >= 20 && memcmp(r - 20, "PK\006\007", 4) == 0 && fc_rd32(r - 20 + 4) == 0 &&
            fc_rd32(r - 20 + 16) == 1) {
            uint64_t at = fc_rd64(r - 20 + 8), len;
            const uint8_t *z = data + at;
            if (fc_range_ok(at, 56, size) && (len = fc_rd64(z + 4) + 12) >= 56 && len <= 16384 &&
                fc_range_ok(at, len, size) && fc_rd32(z + 16) == 0 && fc_rd32(z + 20) == 0 &&
                fc_rd64(z + 24) == fc_rd64(z + 32)) {
                *start = fc_rd64(z + 48);
                *base = 0;
                ok = true;
            }
        }
        return ok;
    }
    return false;
}

/* What a read from the front reaches of a zip's members (front_walk). */
typedef enum { FRONT_REACHES, FRONT_MISSES, FRONT_UNSURE } front_reach;

/* Whether libarchive, reading DATA (SIZE bytes) from the front, reaches a local header at each
 * of the N sorted OFFSETS (counted from BASE), as its reader from the front goes: from the first
 * byte, each local header after the last one's data, passing over bytes that are no signature
 * (a gap between members, a spanning marker), and stopping at the first central directory
 * header or end record (two zips put one after the other read as the first). *AT: the first
 * offset missed; FRONT_UNSURE where a member on the way defers its sizes to a data descriptor,
 * whose end libarchive finds by decompressing it, not followed here (*AT then the local
 * header's offset). */
static front_reach front_walk(const uint8_t *data, uint64_t size, uint64_t base, const named_at *offsets, size_t n,
                              uint64_t *at)
{
    uint64_t pos = 0;
    size_t i = 0;
    while (i < n) {
        const uint8_t *q = pos < size ? data + pos : NULL, *end = data + size;
        while (q && (q = memchr(q, 'P', (size_t)(end - q))) && end - q >= 4 &&
               !(q[1] == 'K' && ((q[2] == 3 && q[3] == 4) || (q[2] == 1 && q[3] == 2) || (q[2] == 5 && q[3] == 6) ||
                                 (q[2] == 6 && q[3] == 6))))
            q++;
        if (!q || end - q < 30 || q[2] != 3)
            break; /* the end of the bytes, or of the members */
        pos = (uint64_t)(q - data);
        uint16_t nlen = fc_rd16(q + 26), xlen = fc_rd16(q + 28);
        uint64_t usize = fc_rd32(q + 22), csize = fc_rd32(q + 18);
        uint64_t *vals[] = {&usize, &csize};
        if ((fc_rd16(q + 6) & 8) || !fc_range_ok(pos + 30 + nlen, xlen, size) ||
            !fc_zip64_values(q + 30 + nlen, xlen, vals, 2)) {
            *at = pos;
            return FRONT_UNSURE;
        }
        if (base + offsets[i].offset < pos) { /* passed over */
            *at = i;
            return FRONT_MISSES;
        }
        while (i < n && base + offsets[i].offset == pos)
            i++;
        if (!fc_add_ok(pos + 30 + nlen + xlen, csize, &pos))
            break;
    }
    *at = i;
    return i == n ? FRONT_REACHES : FRONT_MISSES;
}

/* Whether the LEN bytes at P hold one that is not ASCII. */
static bool not_ascii(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)p[i] >= 0x80)
            return true;
    return false;
}

bool fc_zip_headers_disagree(const uint8_t *data, uint64_t size, size_t read, const char *const *names,
                             fc_zip_name_form form, char *why, size_t why_size)
{
    fc_zip_directory d;
    if (!fc_zip_directory_of(data, size, &d)) {
        /* libarchive read it, zipfile refuses it, and unzip, which retries a directory's
         * offset as written, extracted the library (rv36 F2: an end record written twice). */
        snprintf(why, why_size, "Python's zipfile (pip) finds no central directory it reads in it, where libarchive "
                 "read %zu member%s: what unzip or another reader extracts from it was not checked here", read,
                 read == 1 ? "" : "s");
        return true;
    }
    /* (At most one entry for each 46 bytes of the directory.) */
    size_t most = (size_t)((d.end - d.start) / 46);
    named_at *at = malloc(most * sizeof *at + 1);
    listed *dir = malloc(most * sizeof *dir + 1), *got = names ? malloc(read * sizeof *got + 1) : NULL;
    if (!at || !dir || (names && !got)) {
        free(at);
        free(dir);
        free(got);
        snprintf(why, why_size, "out of memory");
        return true;
    }
    size_t n = 0;
    bool disagree = false, zip64_offset = false;
    /* Walked by its size, as zipfile walks it. */
    for (uint64_t p = d.start; p < d.end && !disagree;) {
        if (!fc_range_ok(p, 46, d.end) || memcmp(data + p, "PK\001\002", 4) != 0)
            break; /* a directory readers refuse: not this check's to say */
        const uint8_t *e = data + p;
        uint64_t len = 46 + (uint64_t)fc_rd16(e + 28) + fc_rd16(e + 30) + fc_rd16(e + 32);
        if (!fc_range_ok(p, len, d.end)) {
            /* zipfile reads its name, extra field and comment cut at the directory's end and
             * installs it; none of it checked here, it hid a member read otherwise (rv28 F3). */
            snprintf(why, why_size, "member %.*s: its central directory entry runs past the directory's end, where "
                     "pip and unzip still read it: what they install was not checked here",
                     (int)(fc_range_ok(p + 46, fc_rd16(e + 28), d.end) ? fc_rd16(e + 28) : 0), (const char *)(e + 46));
            disagree = true;
            break;
        }
        disagree = entry_disagrees(data, size, e, d.base, why, why_size);
        /* (entry_disagrees checked that the offset, zip64's included, names a local header.) */
        uint64_t offset = fc_rd32(e + 42);
        zip64_offset |= offset == 0xffffffff;
        uint64_t *vals[] = {&(uint64_t){fc_rd32(e + 24)}, &(uint64_t){fc_rd32(e + 20)}, &offset};
        fc_zip64_values(e + 46 + fc_rd16(e + 28), fc_rd16(e + 30), vals, 3);
        dir[n] = listed_name((const char *)(e + 46), fc_rd16(e + 28));
        at[n++] = (named_at){offset, e};
        p += len;
    }
    if (!disagree)
        disagree = shared_local_header(at, n, why, why_size); /* (AT sorted by offset since) */
    /* Which members libarchive reads: those of the directory its seekable reader takes, which
     * must be zipfile's, or, reading from the front, those it reaches (a decoy member of the
     * library's name, with a directory of its own, came first: review of 2026-12-07). */
    uint64_t la_start = 0, la_base = 0, at_i = 0;
    front_reach reach = FRONT_REACHES;
    if (!disagree && libarchive_directory(data, size, &la_start, &la_base)) {
        /* (The same start with another base read other local headers: rv26 F4, F5.) */
        if (la_start != d.start || la_base != d.base) {
            snprintf(why, why_size, "its end leads libarchive to another central directory than the one pip and unzip "
                     "go by: what they install is not what was read here");
            disagree = true;
        } else if (la_base != 0 && zip64_offset) {
            /* libarchive adds its base before it looks for the zip64 offset's 0xffffffff, and
             * then finds none (rv28). */
            snprintf(why, why_size, "a member's offset is in a zip64 field, which libarchive does not read where bytes "
                     "precede the zip: what pip and unzip install is not what was read here");
            disagree = true;
        }
    } else if (!disagree && (reach = front_walk(data, size, d.base, at, n, &at_i)) == FRONT_MISSES) {
        const uint8_t *e = at[at_i].entry;
        snprintf(why, why_size, "member %.*s: listed in its central directory, which pip and unzip go by, at a local "
                 "header that reading from the front does not reach: what they install is not what was read here",
                 (int)fc_rd16(e + 28), (const char *)(e + 46));
        disagree = true;
    } else if (!disagree && reach == FRONT_UNSURE) {
        /* A decoy member with a data descriptor would hide what follows it (rv26 F2). */
        snprintf(why, why_size, "libarchive reads it from the front (its end record is not one libarchive's seekable "
                 "reader takes), and the member at offset %llu defers its sizes to a data descriptor: which members "
                 "pip and unzip install was not told here", (unsigned long long)at_i);
        disagree = true;
    }
    /* libarchive, reading from the front where its seekable reader does not take the end
     * record (entry counts that differ, another disk, a comment longer than it looks back, a
     * zip64 end record with extensible data, which zipfile does not take), stops at the first
     * central directory header: a member only the directory reaches was not read, "no CUDA
     * code" (review of 2026-12-07, rv24 F1, F5), also where a decoy member before its own
     * directory made the counts agree (rv25 2). Compared by name, one for one. */
    const listed *missing = NULL;
    char *formed = NULL; /* the directory's names not ASCII, as the reader of NAMES gives them */
    if (!disagree && names && form) {
        size_t need = 0;
        for (size_t i = 0; i < n; i++)
            need += not_ascii(dir[i].name, dir[i].len) ? 4 * dir[i].len + 1 : 0;
        if (need && !(formed = malloc(need))) {
            snprintf(why, why_size, "out of memory");
            disagree = true;
        }
        for (size_t i = 0, used = 0; formed && i < n; i++) {
            if (!not_ascii(dir[i].name, dir[i].len))
                continue;
            size_t slot = 4 * dir[i].len + 1; /* room enough for any recomposition */
            size_t k = form(dir[i].name, dir[i].len, formed + used, slot);
            if (k && k < slot)
                dir[i] = listed_name(formed + used, k);
            used += slot;
        }
    }
    if (!disagree && names) {
        for (size_t i = 0; i < read; i++)
            got[i] = listed_name(names[i], strlen(names[i]));
        qsort(dir, n, sizeof *dir, by_name);
        qsort(got, read, sizeof *got, by_name);
        missing = unread(dir, n, got, read);
    }
    if (!disagree && missing) {
        snprintf(why, why_size, "member %.*s: listed in its central directory, which pip and unzip go by, but not "
                 "among the %zu member%s read here: what they install is not what was read here", (int)missing->len,
                 missing->name, read, read == 1 ? "" : "s");
        disagree = true;
    } else if (!disagree && n > read) {
        snprintf(why, why_size, "its central directory, which pip and unzip go by, lists %zu members, %zu of them "
                 "read here: the rest are not seen", n, read);
        disagree = true;
    }
    if (!disagree && fc_zip64_unzip_goes_elsewhere(data, size)) {
        snprintf(why, why_size, "its zip64 end record and its end record name different central directories: pip "
                 "goes by the first, unzip by the second: what unzip extracts was not read here");
        disagree = true;
    }
    free(at);
    free(dir);
    free(got);
    free(formed);
    return disagree;
}
