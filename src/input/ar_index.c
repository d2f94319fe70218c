/* ar_index.c - the members a static archive's symbol and long-name tables list (ar_index.h). */
#include <string.h>

#include "ar_index.h"
#include "ar_name.h"
#include "bytes.h"

static uint64_t rd_be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static uint64_t rd(const uint8_t *p, unsigned n, bool big)
{
    if (big)
        return rd_be(p, n);
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

uint64_t fc_ar_offset_at(const fc_ar_offsets *t, uint64_t i)
{
    return rd(t->first + i * t->stride, t->width, t->big);
}

bool fc_ar_symtab_offsets(const uint8_t *data, uint64_t size, bool wide, fc_ar_offsets *out)
{
    unsigned w = wide ? 8 : 4;
    if (size < w)
        return false;
    uint64_t count = rd_be(data, w);
    /* The offsets must fit the member: a count that says more is no table to go by. */
    if (count > (size - w) / w)
        return false;
    *out = (fc_ar_offsets){.first = data + w, .count = count, .width = w, .stride = w, .big = true};
    return true;
}

bool fc_ar_offsets_last(const fc_ar_offsets *t, uint64_t *last)
{
    uint64_t max = 0;
    for (uint64_t i = 0; i < t->count; i++) {
        uint64_t off = fc_ar_offset_at(t, i);
        if (off > max)
            max = off;
    }
    *last = max;
    return t->count != 0;
}

/* The highest member offset of a __.SYMDEF read in one byte order, or false when the table
 * does not hold together so: its ranlib array and string table must fit the member, and each
 * offset that lies inside the archive must lead to a member header (its "`\n" ends it). */
static bool symdef_last(const uint8_t *data, uint64_t size, unsigned w, bool big, const uint8_t *ar,
                        uint64_t ar_size, uint64_t *last)
{
    if (size < 2 * (uint64_t)w)
        return false;
    uint64_t bytes = rd(data, w, big);
    if (bytes % (2 * w) || bytes > size - 2 * w)
        return false;
    uint64_t strings = rd(data + w + bytes, w, big);
    if (strings > size - 2 * w - bytes)
        return false;
    uint64_t max = 0;
    for (uint64_t at = w; at < w + bytes; at += 2 * w) {
        uint64_t off = rd(data + at + w, w, big); /* {string index, member offset} */
        if (off < 8 || (fc_range_ok(off, FC_AR_HEADER, ar_size) && memcmp(ar + off + 58, "`\n", 2) != 0))
            return false;
        if (off > max)
            max = off;
    }
    *last = max;
    return bytes != 0;
}

bool fc_ar_symdef_offsets(const uint8_t *data, uint64_t size, bool wide, bool big, fc_ar_offsets *out)
{
    unsigned w = wide ? 8 : 4;
    if (size < w)
        return false;
    uint64_t bytes = rd(data, w, big);
    if (bytes > size - w)
        return false;
    /* {string index, member offset} pairs after the array's size: whole pairs only. */
    *out = (fc_ar_offsets){.first = data + 2 * w, .count = bytes / (2 * w), .width = w, .stride = 2 * w, .big = big};
    return true;
}

bool fc_ar_symdef_last(const uint8_t *data, uint64_t size, bool wide, const uint8_t *ar, uint64_t ar_size,
                       uint64_t *last)
{
    unsigned w = wide ? 8 : 4;
    uint64_t little, big;
    bool as_little = symdef_last(data, size, w, false, ar, ar_size, &little);
    bool as_big = symdef_last(data, size, w, true, ar, ar_size, &big);
    /* Both orders holding together is no table to prove by: which one is meant is not known. */
    if (as_little == as_big)
        return false;
    *last = as_little ? little : big;
    return true;
}

bool fc_ar_names_last(const uint8_t *names, uint64_t size, uint64_t *last, char *out, size_t out_size)
{
    bool found = false;
    for (uint64_t at = 0; at < size;) {
        uint64_t end = at;
        while (end < size && names[end] != '\n' && names[end] != '\0')
            end++;
        uint64_t n = end - at;
        if (n && names[at + n - 1] == '/')
            n--;
        if (n) { /* separators and padding ("\n" runs) are no names */
            *last = at;
            size_t k = n < out_size ? (size_t)n : out_size - 1;
            memcpy(out, names + at, k);
            out[k] = '\0';
            found = true;
        }
        at = end + 1;
    }
    return found;
}
