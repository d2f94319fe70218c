/* bytes.h - little-endian (and big-endian) reads and overflow-checked arithmetic for untrusted input. */
#ifndef FC_BYTES_H
#define FC_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Reads go through memcpy: no struct is ever cast onto input bytes, so alignment and
 * strict aliasing never depend on the input. The fat binary format is little-endian. */
static inline uint16_t fc_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t fc_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Big-endian, for the formats that are: an rpm's header, a PyInstaller archive's cookie. */
static inline uint32_t fc_rd32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t fc_rd64(const uint8_t *p)
{
    return (uint64_t)fc_rd32(p) | (uint64_t)fc_rd32(p + 4) << 32;
}

/* *out = a + b; false when that overflows. */
static inline bool fc_add_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

/* True when [off, off + len) lies inside [0, size). */
static inline bool fc_range_ok(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

#endif
