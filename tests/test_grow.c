/* test_grow.c - the growth helper every doubling array uses (src/util/grow.h): capacities, the
 * overflow checks, and an array left as it was when growing fails. */
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"
#include "tap.h"

int main(void)
{
    size_t cap = 0;
    int *a = fc_grow(NULL, &cap, 1, sizeof *a, 16);
    ok(a && cap == 16, "an empty array starts at FIRST");
    int *same = fc_grow(a, &cap, 16, sizeof *a, 16);
    ok(same == a && cap == 16, "room enough: the array as it is");
    a = fc_grow(a, &cap, 17, sizeof *a, 16);
    ok(a && cap == 32, "full: doubled");
    a = fc_grow(a, &cap, 100, sizeof *a, 16);
    ok(a && cap == 128, "doubled until NEED fits");
    size_t before = cap;
    ok(fc_grow(a, &cap, SIZE_MAX / 2, sizeof *a, 16) == NULL && cap == before,
       "a size in bytes past SIZE_MAX: NULL, the array and its capacity unchanged");
    ok(fc_grow(a, &cap, SIZE_MAX, 1, 16) == NULL && cap == before, "a count that cannot double: NULL");
    a[127] = 7; /* still the caller's */
    free(a);

    char *s = NULL;
    size_t scap = 0;
    ok(fc_grow_array((void **)&s, &scap, 10, 1, 8) && s && scap == 16, "fc_grow_array: in place");
    char *was = s;
    ok(!fc_grow_array((void **)&s, &scap, SIZE_MAX, 1, 8) && s == was && scap == 16,
       "fc_grow_array: on failure the pointer and capacity stay");
    free(s);
    size_t r;
    ok(fc_mul_ok(3, 4, &r) && r == 12 && !fc_mul_ok(SIZE_MAX, 2, &r), "fc_mul_ok");
    return tap_done();
}
