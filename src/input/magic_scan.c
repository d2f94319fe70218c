/* magic_scan.c - the first block of data that may hold a magic (magic_scan.h).
 *
 * The search for containers kept as data (embedded.c) tests every 4-byte aligned word of the
 * sections it searches (cuBLASLt 13: 35 MB a summary) against two magics. The bytes were
 * just copied in by pread and sit in cache, so the compares are the search's cost. By
 * 16-byte vectors, 35 MB in 256 KiB blocks took 1.67 ms on dev, by AVX2 0.95 ms and by
 * AVX-512 0.43 ms (a test program; docs/performance.md). The widest the CPU runs is chosen
 * when called; the portable form stays for other CPUs and compilers. */
#include <string.h>

#include "bytes.h"
#include "magic_scan.h"

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Whether the 64 bytes at P hold either magic as an aligned word: four vector compares of
 * each (compilers left the scalar form scalar). */
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
static bool block_has_magic(const uint8_t *p)
{
    u32x4 v[4];
    memcpy(v, p, sizeof v);
    i32x4 m = (v[0] == FC_FATBIN_MAGIC) | (v[0] == FC_ELF_MAGIC) | (v[1] == FC_FATBIN_MAGIC) | (v[1] == FC_ELF_MAGIC) |
              (v[2] == FC_FATBIN_MAGIC) | (v[2] == FC_ELF_MAGIC) | (v[3] == FC_FATBIN_MAGIC) | (v[3] == FC_ELF_MAGIC);
    return (m[0] | m[1] | m[2] | m[3]) != 0;
}
#else
static bool block_has_magic(const uint8_t *p)
{
    unsigned hit = 0;
    for (size_t k = 0; k < 16; k++) {
        uint32_t w = fc_rd32(p + 4 * k);
        hit |= (w == FC_FATBIN_MAGIC) | (w == FC_ELF_MAGIC);
    }
    return hit;
}
#endif

static size_t block_portable(const uint8_t *p, size_t n_words)
{
    size_t i = 0;
    for (; i + 16 <= n_words; i += 16)
        if (block_has_magic(p + 4 * i))
            break;
    return i;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_X86_VECTORS 1

__attribute__((target("avx2"))) static size_t block_avx2(const uint8_t *p, size_t n_words)
{
    const __m256i fat = _mm256_set1_epi32((int)FC_FATBIN_MAGIC), elf = _mm256_set1_epi32((int)FC_ELF_MAGIC);
    size_t i = 0;
    for (; i + 16 <= n_words; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + 4 * i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 4 * i + 32));
        __m256i m = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(a, fat), _mm256_cmpeq_epi32(a, elf)),
                                    _mm256_or_si256(_mm256_cmpeq_epi32(b, fat), _mm256_cmpeq_epi32(b, elf)));
        if (!_mm256_testz_si256(m, m))
            break;
    }
    return i;
}

__attribute__((target("avx512f"))) static size_t block_avx512(const uint8_t *p, size_t n_words)
{
    const __m512i fat = _mm512_set1_epi32((int)FC_FATBIN_MAGIC), elf = _mm512_set1_epi32((int)FC_ELF_MAGIC);
    size_t i = 0;
    for (; i + 16 <= n_words; i += 16) {
        __m512i a = _mm512_loadu_si512((const void *)(p + 4 * i));
        if (_mm512_cmpeq_epi32_mask(a, fat) | _mm512_cmpeq_epi32_mask(a, elf))
            break;
    }
    return i;
}
#endif

bool fc_magic_isa_usable(fc_magic_isa isa)
{
    switch (isa) {
    case FC_MAGIC_PORTABLE:
        return true;
#ifdef HAVE_X86_VECTORS
    case FC_MAGIC_AVX2:
        return __builtin_cpu_supports("avx2");
    case FC_MAGIC_AVX512:
        return __builtin_cpu_supports("avx512f");
#endif
    default:
        return false;
    }
}

size_t fc_magic_block_by(fc_magic_isa isa, const uint8_t *p, size_t n_words)
{
    switch (isa) {
#ifdef HAVE_X86_VECTORS
    case FC_MAGIC_AVX2:
        return block_avx2(p, n_words);
    case FC_MAGIC_AVX512:
        return block_avx512(p, n_words);
#endif
    default:
        return block_portable(p, n_words);
    }
}

size_t fc_magic_block(const uint8_t *p, size_t n_words)
{
#ifdef HAVE_X86_VECTORS
    if (__builtin_cpu_supports("avx512f"))
        return block_avx512(p, n_words);
    if (__builtin_cpu_supports("avx2"))
        return block_avx2(p, n_words);
#endif
    return block_portable(p, n_words);
}
