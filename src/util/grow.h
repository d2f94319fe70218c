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
 * least NEED (>= 1) elements: P itself when it has it, else P reallocated to its capacity
 * (FIRST when it had none) doubled until NEED fits, *CAP updated. NULL when the size in bytes
 * would overflow or memory runs out: P is then unchanged and still the caller's.
 *   T *more = fc_grow(arr, &cap, n + 1, sizeof *arr, 16); if (!more) ...; arr = more; */
static inline void *fc_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (p && need <= *cap)
        return p;
    size_t n = p && *cap ? *cap : first ? first : 1, bytes;
    while (n < need)
        if (!fc_mul_ok(n, 2, &n))
            return NULL;
    if (!fc_mul_ok(n, elem, &bytes))
        return NULL;
    void *q = realloc(p, bytes);
    if (q)
        *cap = n;
    return q;
}

/* The same for the array whose pointer is at *ARR: true when it has room for NEED elements
 * (*ARR and *CAP updated when it had to grow), false when it could not (both unchanged). */
static inline bool fc_grow_array(void **arr, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return true;
    void *q = fc_grow(*arr, cap, need, elem, first);
    if (q)
        *arr = q;
    return q != NULL;
}

#endif
