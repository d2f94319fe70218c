/* ar_index.c - the members a static archive's symbol and long-name tables list (ar_index.h). */
#include <string.h>

#include "ar_index.h"

static uint64_t rd_be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

bool fc_ar_symtab_last(const uint8_t *data, uint64_t size, bool wide, uint64_t *last)
{
    unsigned w = wide ? 8 : 4;
    if (size < w)
        return false;
    uint64_t count = rd_be(data, w);
    /* The offsets must fit the member: a count that says more is no table to prove by. */
    if (count == 0 || count > (size - w) / w)
        return false;
    uint64_t max = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t off = rd_be(data + w + i * w, w);
        if (off > max)
            max = off;
    }
    *last = max;
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
