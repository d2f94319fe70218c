/* grow.h - growing arrays: one overflow-checked helper for every array that doubles as it
 * fills, in the library and the command alike (header only). */
#ifndef FC_GROW_H
#define FC_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* *out = a * b; false when that overflows. */
static inline bool fc_mul_ok(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* Returns P (an array of *CAP elements of ELEM bytes, or NULL with *CAP 0) with room for at
 * least NEED elements: as it is when it has it, else reallocated to double its capacity (at
 * least FIRST, at least NEED), *CAP updated. NULL when the size in bytes would overflow or
 * memory runs out: P is then unchanged and still the caller's. */
static inline void *fc_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (p && need <= *cap)
        return p;
    size_t n = *cap && p ? *cap : 0, bytes;
    if (n == 0)
        n = first ? first : 1;
    else if (!fc_mul_ok(n, 2, &n))
        return NULL;
    while (n < need)
        if (!fc_mul_ok(n, 2, &n))
            return NULL;
    if (!fc_mul_ok(n, elem, &bytes))
        return NULL;
    void *q = realloc(p, bytes ? bytes : 1);
    if (q)
        *cap = n;
    return q;
}

#endif
