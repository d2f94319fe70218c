/* test_magic_scan.c - every way of comparing that this CPU runs finds the block a word-by-word
 * reading finds: magics planted at each word of a block, at unaligned starts, next to words
 * that differ from a magic by one byte, and past the last whole block (which no block search
 * may report). A way the CPU lacks is said as skipped, so a run on an older CPU says what it
 * did not test. */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "magic_scan.h"
#include "tap.h"

#define WORDS 1000 /* 62 whole blocks and 8 words over */

static size_t reference(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n - n % 16; i++) {
        uint32_t w = fc_rd32(p + 4 * i);
        if (w == FC_FATBIN_MAGIC || w == FC_ELF_MAGIC)
            return i - i % 16;
    }
    return n - n % 16;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

/* Filler that holds neither magic but words one byte off each. */
static void fill(uint8_t *p, size_t n_bytes, unsigned seed)
{
    srand(seed);
    for (size_t i = 0; i < n_bytes; i++)
        p[i] = (uint8_t)rand();
    for (size_t i = 0; i + 4 <= n_bytes; i += 4) {
        uint32_t w = fc_rd32(p + i);
        if (w == FC_FATBIN_MAGIC || w == FC_ELF_MAGIC)
            p[i] ^= 1;
        else if (rand() % 8 == 0) /* a near miss: one of the four bytes changed */
            put32(p + i, (rand() % 2 ? FC_FATBIN_MAGIC : FC_ELF_MAGIC) ^ (0xFFu << (8 * (rand() % 4))));
    }
}

int main(void)
{
    static const char *names[] = {"portable", "AVX2", "AVX-512"};
    static uint8_t buf[4 * WORDS + 64];
    for (int isa = FC_MAGIC_PORTABLE; isa <= FC_MAGIC_AVX512; isa++) {
        if (!fc_magic_isa_usable((fc_magic_isa)isa)) {
            printf("ok %d - # SKIP %s: this CPU lacks it\n", ++tap_n, names[isa]);
            continue;
        }
        size_t wrong = 0, cases = 0;
        for (unsigned shift = 0; shift < 4; shift++) /* P itself unaligned */
            for (size_t at = 0; at < WORDS; at += 1 + at / 64) {
                for (int which = 0; which < 2; which++) {
                    uint8_t *p = buf + shift;
                    fill(p, 4 * WORDS, (unsigned)(at * 8 + shift * 2 + (unsigned)which));
                    put32(p + 4 * at, which ? FC_ELF_MAGIC : FC_FATBIN_MAGIC);
                    if (at + 40 < WORDS) /* a second, later one must not be the answer */
                        put32(p + 4 * (at + 40), FC_FATBIN_MAGIC);
                    for (size_t n = at; n <= WORDS; n += 1 + (WORDS - at) / 5) {
                        cases++;
                        if (fc_magic_block_by((fc_magic_isa)isa, p, n) != reference(p, n))
                            wrong++;
                    }
                }
            }
        uint8_t *p = buf + 1;
        fill(p, 4 * WORDS, 7);
        cases++;
        wrong += fc_magic_block_by((fc_magic_isa)isa, p, WORDS) != reference(p, WORDS);
        ok(cases > 5000 && wrong == 0, "%s: the block of the first magic in %zu cases (%zu wrong)", names[isa], cases,
           wrong);
        is_u64(fc_magic_block_by((fc_magic_isa)isa, p, 15), 0, "%s: fewer words than a block: none searched",
               names[isa]);
        is_u64(fc_magic_block_by((fc_magic_isa)isa, p, WORDS), reference(p, WORDS), "%s: none planted: past the last block",
               names[isa]);
    }
    /* What the search itself uses is one of those. */
    fill(buf, 4 * WORDS, 11);
    put32(buf + 4 * 500, FC_FATBIN_MAGIC);
    is_u64(fc_magic_block(buf, WORDS), 496, "the chosen way finds the magic's block");
    return tap_done();
}
