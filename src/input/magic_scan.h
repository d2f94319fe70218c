/* magic_scan.h - the first block of data that may hold a container's or an ELF image's
 * magic, by the widest vector compares the CPU has. */
#ifndef FC_MAGIC_SCAN_H
#define FC_MAGIC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"

#define FC_ELF_MAGIC 0x464C457Fu /* "\177ELF", read as a little-endian word */

/* The ways of comparing: each finds the same block. */
typedef enum fc_magic_isa {
    FC_MAGIC_PORTABLE, /* 16-byte vectors where the compiler has them, else words */
    FC_MAGIC_AVX2,
    FC_MAGIC_AVX512,
} fc_magic_isa;

/* The word index of the first block of sixteen 4-byte words in P[0..4 * n_words) where
 * FC_FATBIN_MAGIC or FC_ELF_MAGIC is one of the words, or, when no block holds one, of the
 * words after the last whole block (n_words rounded down to 16). P need not be aligned. */
size_t fc_magic_block(const uint8_t *p, size_t n_words);

/* The same by ISA alone, which must be one fc_magic_isa_usable says this CPU runs (tests). */
size_t fc_magic_block_by(fc_magic_isa isa, const uint8_t *p, size_t n_words);
bool fc_magic_isa_usable(fc_magic_isa isa);

#endif
