/* test_stream.c - fc_hold_data: a member of no known format is held only from the first place
 * the embedded search could find something (less the look-back it needs), whatever pieces the
 * stream arrives in, a pattern cut between two pieces included; before it, zeros (holes). */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "input.h"
#include "stream.h"
#include "tap.h"

#define SIZE ((70u << 20) + 12345u) /* past the 64 MiB held in memory */
#define KEEP (FC_PTX_HEADER_BEFORE + FC_EMBEDDED_PATTERN_MAX)

/* A stream of DATA handed out in pieces of the sizes in STEPS, in turn. */
typedef struct pieces {
    fc_stream s;
    const uint8_t *data;
    size_t size, at;
    const size_t *steps;
    size_t n_steps, k;
} pieces;

static ssize_t pieces_read(fc_stream *s, uint8_t *buf, size_t n)
{
    pieces *p = (pieces *)s;
    size_t step = p->steps[p->k++ % p->n_steps], left = p->size - p->at;
    if (step > n)
        step = n;
    if (step > left)
        step = left;
    memcpy(buf, p->data + p->at, step);
    p->at += step;
    return (ssize_t)step;
}

/* Bytes in which the search finds nothing: letters, never 'P' (the container magic's first
 * byte), '.' or 0x7f. */
static void fill(uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)('A' + (i * 7 + i / 13) % 26);
        d[i] = c == 'P' ? 'Q' : c;
    }
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Holds DATA through pieces of STEPS; checks what is kept from HIT on (SIZE_MAX: nothing). */
static void check(const char *what, const uint8_t *data, size_t size, const size_t *steps, size_t n_steps,
                  size_t hit, uint64_t hint)
{
    pieces p = {.s = {.read = pieces_read}, .data = data, .size = size, .steps = steps, .n_steps = n_steps};
    fc_held h;
    char why[300] = "";
    fc_status st = fc_hold_data(&p.s, hint, 8ull << 30, fc_embedded_first_candidate, &h, why, sizeof why);
    if (!ok(st == FC_OK, "%s: held (%s)", what, why))
        return;
    is_u64(h.img.size, size, "%s: every byte counted", what);
    if (hit == SIZE_MAX) {
        ok(all_zero(h.img.data, h.img.size), "%s: nothing to find, nothing kept", what);
    } else {
        size_t from = hit - FC_PTX_HEADER_BEFORE;
        ok(memcmp(h.img.data + from, data + from, size - from) == 0,
           "%s: kept from 4 KiB before the find to the end", what);
        ok(all_zero(h.img.data, hit - KEEP), "%s: nothing kept before that", what);
    }
    fc_held_free(&h);
}

int main(void)
{
    uint8_t *data = malloc(SIZE);
    if (!ok(data != NULL, "memory"))
        return 1;
    static const size_t whole[] = {1u << 20}, odd[] = {7, 65536, 1000003, 4093};
    fill(data, SIZE);
    check("no pattern", data, SIZE, whole, 1, SIZE_MAX, 0);
    check("no pattern, its size declared", data, SIZE, whole, 1, SIZE_MAX, SIZE); /* to a file at once */
    check("no pattern, odd pieces", data, SIZE, odd, 4, SIZE_MAX, 0);

    /* A container's magic cut between two pieces: 2 bytes at the end of one. */
    size_t at = (66u << 20) - 2;
    static const uint8_t magic[4] = {0x50, 0xed, 0x55, 0xba};
    memcpy(data + at, magic, 4);
    size_t cut[] = {(66u << 20), 1u << 20}; /* the first piece ends 2 bytes into it */
    check("magic across a seam", data, SIZE, cut, 2, at, 0);
    check("magic, odd pieces", data, SIZE, odd, 4, at, 0);
    check("magic, its size declared", data, SIZE, odd, 4, at, SIZE);
    fill(data + at, 4);

    /* ".version" cut after its first byte, its comment 4 KiB before it. */
    at = (67u << 20) - 1;
    memcpy(data + at, ".version", 8);
    size_t cut2[] = {(67u << 20), 1u << 20};
    check(".version across a seam", data, SIZE, cut2, 2, at, 0);
    fill(data + at, 8);

    /* An ELF header in the first 64 MiB, held in memory until then: kept whole. */
    at = 5u << 20;
    memcpy(data + at, "\177ELF", 4);
    check("in memory first", data, SIZE, whole, 1, at, 0);

    /* Small: held in memory as it is. */
    pieces p = {.s = {.read = pieces_read}, .data = data, .size = 1u << 20, .steps = odd, .n_steps = 4};
    fc_held h;
    char why[300] = "";
    ok(fc_hold_data(&p.s, 0, 8ull << 30, fc_embedded_first_candidate, &h, why, sizeof why) == FC_OK &&
           h.img.size == (1u << 20) && h.fd < 0 && memcmp(h.img.data, data, 1u << 20) == 0,
       "a small member is held in memory as it is");
    fc_held_free(&h);
    free(data);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}
