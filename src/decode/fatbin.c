/* fatbin.c - decoding fat binary containers and their entry headers from bytes.
 *
 * Layout (little-endian; docs/format.md says what each field is and how sure we are):
 *   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size 16, u64 entries size
 *   entry:     u16 kind, u16 0x0101, u32 header size, u64 payload size, u32 compressed size,
 *              u32 options offset, u16 minor, u16 major, u32 arch, u32 identifier offset,
 *              u32 identifier length, u64 flags, u64 (unknown), u64 uncompressed size
 */
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "reader.h"

/* Headers seen are at most a few hundred bytes; anything longer is treated as damage. */
#define FC_ENTRY_MAX_HEADER 65536u

static fc_image_kind kind_of(uint16_t raw)
{
    switch (raw) {
    case 1: return FC_IMAGE_PTX;
    case 2: return FC_IMAGE_CUBIN;
    case 8: return FC_IMAGE_LTOIR; /* NVVM IR per NVIDIA's fatbinary.h; -dlto gives it */
    default: return FC_IMAGE_UNKNOWN;
    }
}

static fc_compression compression_of(uint64_t flags)
{
    bool lz4 = flags & FC_FLAG_COMPRESS_LZ4, zstd = flags & FC_FLAG_COMPRESS_ZSTD;
    if (lz4 && zstd)
        return FC_COMPRESSION_UNKNOWN;
    return lz4 ? FC_COMPRESSION_LZ4 : zstd ? FC_COMPRESSION_ZSTD : FC_COMPRESSION_NONE;
}

static fc_variant variant_from_flags(uint64_t flags)
{
    if (flags & FC_FLAG_ARCH_SPECIFIC)
        return FC_VARIANT_ARCH_SPECIFIC;
    if (flags & FC_FLAG_FAMILY)
        return FC_VARIANT_FAMILY;
    return FC_VARIANT_NONE;
}

/* What can be wrong with an entry header; one check serves decoding and validation. */
typedef enum entry_problem {
    EP_NONE,
    EP_STRAY,         /* too few bytes left for an entry */
    EP_HEADER_SMALL,  /* header size below the minimum */
    EP_HEADER_PAST,   /* header runs past the container */
    EP_PAYLOAD_PAST,  /* payload runs past the container */
    EP_COMPRESSED_PAST, /* compressed size larger than the payload */
    EP_COMPRESSED_ZERO, /* compressed, with a compressed size of 0 */
    EP_IDENT_PAST,    /* identifier outside the header */
    EP_OPTIONS_PAST,  /* options block or text outside the header */
} entry_problem;

static entry_problem check_entry(const uint8_t *h, uint64_t avail)
{
    if (avail < 8)
        return EP_STRAY;
    uint32_t hs = fc_rd32(h + 4);
    if (hs < FC_ENTRY_MIN_HEADER)
        return EP_HEADER_SMALL;
    if (hs > FC_ENTRY_MAX_HEADER || hs > avail)
        return EP_HEADER_PAST;
    uint64_t psz = fc_rd64(h + 8);
    if (psz > avail - hs)
        return EP_PAYLOAD_PAST;
    if (compression_of(fc_rd64(h + 40)) != FC_COMPRESSION_NONE && fc_rd32(h + 16) > psz)
        return EP_COMPRESSED_PAST;
    /* The driver fails it ("Uncompress failed", CUDA_ERROR_UNKNOWN on the H200; review of
     * 2026-12-03, F5); none of 93,616 compressed entries of lib64, the eras corpus and the
     * fixtures has it. */
    if (compression_of(fc_rd64(h + 40)) != FC_COMPRESSION_NONE && fc_rd32(h + 16) == 0)
        return EP_COMPRESSED_ZERO;
    uint32_t id_len = fc_rd32(h + 36);
    if (id_len && !fc_range_ok(fc_rd32(h + 32), id_len, hs))
        return EP_IDENT_PAST;
    uint32_t opt_at = fc_rd32(h + 20);
    if (opt_at && (!fc_range_ok(opt_at, 8, hs) ||
                   !fc_range_ok(fc_rd32(h + opt_at), fc_rd32(h + opt_at + 4), hs)))
        return EP_OPTIONS_PAST;
    return EP_NONE;
}

static fc_status entry_failure(fc_builder *b, entry_problem p, const uint8_t *h, uint64_t avail,
                               const char *where)
{
    unsigned long long left = avail;
    switch (p) {
    case EP_STRAY:
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: %llu stray bytes after the last entry", where, left);
    case EP_HEADER_SMALL:
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: entry header size %u is below the minimum %u",
                               where, fc_rd32(h + 4), FC_ENTRY_MIN_HEADER);
    case EP_HEADER_PAST:
        return fc_builder_fail(b, FC_ERR_FORMAT,
                               "%s: entry header of %u bytes runs past the container (%llu bytes left)",
                               where, avail >= 8 ? fc_rd32(h + 4) : 0, left);
    case EP_PAYLOAD_PAST:
        return fc_builder_fail(b, FC_ERR_FORMAT,
                               "%s: entry payload of %llu bytes runs past the container (%llu bytes left)",
                               where, (unsigned long long)fc_rd64(h + 8), left - fc_rd32(h + 4));
    case EP_COMPRESSED_PAST:
        return fc_builder_fail(b, FC_ERR_FORMAT,
                               "%s: compressed size %u is larger than the entry's %llu payload bytes",
                               where, fc_rd32(h + 16), (unsigned long long)fc_rd64(h + 8));
    case EP_COMPRESSED_ZERO:
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: a compressed entry whose compressed size is 0", where);
    case EP_IDENT_PAST:
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: identifier lies outside the entry header", where);
    case EP_OPTIONS_PAST:
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: options lie outside the entry header", where);
    case EP_NONE:
        break;
    }
    return FC_OK;
}

/* Text is kept; the binary blocks that sm_100+ cubins store where PTX keeps its options
 * (their .nv.compat attributes, it seems) are not options and are left out. */
static bool printable(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] > 0x7e)
            return false;
    return true;
}

/* Copies header text at [off, off + len) into BUF when it is printable, trimmed of the
 * NULs and blanks around it. Returns BUF, or NULL. */
static const char *header_text(const uint8_t *h, uint32_t off, uint32_t len, char *buf, size_t size)
{
    const uint8_t *s = h + off;
    size_t n = len;
    while (n && (s[n - 1] == 0 || s[n - 1] == ' '))
        n--;
    while (n && *s == ' ')
        s++, n--;
    if (!n || n >= size || !printable(s, n))
        return NULL;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
}

/* Whether a cubin's identity bytes are those CUDA toolchains write and the driver takes. The
 * driver refused (CUDA_ERROR_INVALID_IMAGE, H200, 580.159.04, review of 2026-12-03) an ABI-8
 * cubin marked big-endian (EI_DATA 2) or with OS/ABI 0, 51 or 41, and loaded one with
 * EI_VERSION 0, which is not looked at. Every cubin of CUDA 11.8, 12.x and 13.0's libraries
 * and the fixtures (bench/cubin_survey) pairs ABI version 7 with OS/ABI 51, or 8 with 65; a
 * pair no toolchain writes is taken as damage, as those three were (docs/matching.md, rule 10). */
static bool cuda_identity(const uint8_t *p)
{
    unsigned data = p[5], osabi = p[7], abi = p[8];
    if (data != 1 /* ELFDATA2LSB */)
        return false;
    return abi >= 8 ? osabi == 65 : osabi == 51;
}

/* What the first bytes of an uncompressed cubin say of it: what the H200's driver (580.159.04)
 * refused with CUDA_ERROR_INVALID_IMAGE, lazy and eager, with or without PTX beside it, was a
 * broken magic, a 32-bit class and a machine other than EM_CUDA (tests/oracle's
 * kernels.bad*.fatbin; review 8, C2); with CUDA_ERROR_INVALID_SOURCE, an sm_80 cubin under an
 * sm_90 entry header (review of 2026-12-03, F3). The driver chooses by the entry header and
 * then reads the cubin's own SM. */
fc_cubin_header fc_cubin_header_of(const uint8_t *p, size_t n, uint32_t sm)
{
    if (n < 20)
        return FC_CUBIN_HEADER_UNREAD;
    bool ok = memcmp(p, "\177ELF", 4) == 0 && p[4] == 2 /* ELFCLASS64 */ && fc_rd16(p + 18) == 190 /* EM_CUDA */;
    if (!ok || !cuda_identity(p))
        return FC_CUBIN_HEADER_DAMAGED;
    if (n >= 52 && fc_cubin_sm_of(p[8] /* EI_ABIVERSION */, fc_rd32(p + 48) /* e_flags */) != sm)
        return FC_CUBIN_HEADER_OTHER_SM;
    return FC_CUBIN_HEADER_OK;
}

fc_cubin_header fc_compressed_cubin_header_of(const uint8_t *p, size_t n, bool all, fc_compression m, uint32_t sm,
                                              uint64_t declared)
{
    if (n < 4)
        return all && n ? FC_CUBIN_HEADER_NOT_COMPRESSED : FC_CUBIN_HEADER_UNREAD;
    /* An LZ4 block opens with a token before its first literal, so a cubin's "\177ELF" is never
     * its first bytes; a zstd frame opens with its magic (nvcc writes no skippable frames). */
    if (memcmp(p, "\177ELF", 4) == 0)
        return FC_CUBIN_HEADER_NOT_COMPRESSED;
    if (m == FC_COMPRESSION_ZSTD && fc_rd32(p) != 0xFD2FB528u)
        return FC_CUBIN_HEADER_NOT_COMPRESSED;
    if (m == FC_COMPRESSION_ZSTD) {
        /* A frame that states its content size (every zstd image of CUDA 13.0's libraries and
         * the fixtures, bench/cubin_survey) must state the entry's: the driver answered 999
         * ("Uncompress failed") for a declared size 64 bytes above or below the frame's
         * (review of 2026-12-03, v26 and v26b). */
        uint64_t fcs;
        switch (fc_zstd_content_size(p, n, &fcs)) {
        case FC_ZSTD_SIZE_SHORT: return all ? FC_CUBIN_HEADER_NOT_COMPRESSED : FC_CUBIN_HEADER_UNREAD;
        case FC_ZSTD_SIZE_BAD: return FC_CUBIN_HEADER_NOT_COMPRESSED;
        case FC_ZSTD_SIZE_KNOWN: return fcs == declared ? FC_CUBIN_HEADER_OK : FC_CUBIN_HEADER_NOT_COMPRESSED;
        case FC_ZSTD_SIZE_ABSENT: break;
        }
        return FC_CUBIN_HEADER_OK;
    }
    if (m != FC_COMPRESSION_LZ4)
        return FC_CUBIN_HEADER_OK;
    /* A raw block gives what the driver's buffer of the declared size takes: under 64 bytes no
     * cubin (its ELF header alone), which the driver refused for 0 (209, review of 2026-12-03,
     * v26c). Other sizes need the whole block inflated (link_state.c: cubin_head). */
    if (declared < 64)
        return FC_CUBIN_HEADER_NOT_COMPRESSED;
    /* LZ4 inflates the ELF header from a few dozen stored bytes, so the cubin's own SM is
     * checked as an uncompressed one's. Where those at hand do not give it, either more are to
     * be read or, all of the first kilobyte being here, the block is corrupt (any LZ4 block
     * gives 52 bytes from fewer) or holds no ELF header: the driver cannot take it. zstd needs
     * its whole first block (link_state.c: cubin_head). */
    uint8_t head[64];
    size_t got = fc_lz4_head(p, n, head, sizeof head);
    if (got >= 52)
        return fc_cubin_header_of(head, got, sm);
    return all ? FC_CUBIN_HEADER_NOT_COMPRESSED : FC_CUBIN_HEADER_UNREAD;
}

static size_t min_size(size_t a, uint64_t b, size_t c)
{
    if (b < a)
        a = (size_t)b;
    return a < c ? a : c;
}

/* Decodes the entry header at H (HELD bytes at hand there), AVAIL bytes before the container's
 * end, at file offset OFF. */
static fc_status decode_entry(fc_builder *b, const uint8_t *h, size_t held, uint64_t avail, uint64_t off,
                              uint64_t *consumed)
{
    entry_problem p = check_entry(h, avail);
    if (p != EP_NONE) {
        char where[300];
        fc_where(b, off, where, sizeof where);
        return entry_failure(b, p, h, avail, where);
    }
    fc_entry e;
    memset(&e, 0, sizeof e);
    e.offset = off;
    e.header_size = fc_rd32(h + 4);
    e.raw_kind = fc_rd16(h);
    e.kind = kind_of(e.raw_kind);
    e.version_minor = fc_rd16(h + 24);
    e.version_major = fc_rd16(h + 26);
    e.arch = fc_rd32(h + 28);
    e.flags = fc_rd64(h + 40);
    e.variant = variant_from_flags(e.flags);
    e.compression = compression_of(e.flags);
    e.debug = e.flags & FC_FLAG_DEBUG;
    e.obfuscated = e.flags & FC_FLAG_OBFUSCATED;
    e.payload_offset = off + e.header_size;
    e.payload_size = fc_rd64(h + 8);
    e.stored_size = e.payload_size;
    e.uncompressed_size = e.payload_size;
    if (e.compression != FC_COMPRESSION_NONE) {
        uint32_t csz = fc_rd32(h + 16);
        if (csz)
            e.stored_size = csz;
        e.uncompressed_size = fc_rd64(h + 56);
    }
    /* The payload's first bytes usually came with the header: looked at for free. */
    if (e.kind == FC_IMAGE_CUBIN && !e.obfuscated && held > e.header_size) {
        size_t at_hand = held - e.header_size;
        /* (Fewer than an ELF header's first 52 bytes at hand: left to cubin_head, link_state.c.) */
        if (e.compression == FC_COMPRESSION_NONE) {
            if (at_hand >= 52 && e.payload_size >= 52) {
                e.cubin_header = fc_cubin_header_of(h + e.header_size, min_size(at_hand, e.payload_size, 64), e.arch);
                e.elf_abi_version = h[e.header_size + 8]; /* EI_ABIVERSION */
                e.elf_version = fc_rd32(h + e.header_size + 20);
            }
        } else if (e.compression != FC_COMPRESSION_UNKNOWN) {
            size_t want = min_size(FC_CUBIN_HEAD_STORED, e.stored_size, SIZE_MAX);
            size_t n = at_hand < want ? at_hand : want;
            e.cubin_header = fc_compressed_cubin_header_of(h + e.header_size, n, n == want, e.compression, e.arch,
                                                            e.uncompressed_size);
        }
    }
    /* Flag bits a driver was seen refusing a cubin for, which no toolchain writes: the driver's
     * answer where it chooses the image (review of 2026-12-03, v16 and v17). */
    if (e.kind == FC_IMAGE_CUBIN && (e.flags & FC_FLAG_REFUSED_IMAGE))
        e.cubin_header = FC_CUBIN_HEADER_DAMAGED;
    else if (e.kind == FC_IMAGE_CUBIN && (e.flags & FC_FLAG_REFUSED_UNCOMPRESS))
        e.cubin_header = FC_CUBIN_HEADER_NOT_COMPRESSED;
    /* Other bits no toolchain writes: what a driver makes of them is not known (the H200's
     * loaded a cubin with 0x400000), so the entry is decoded and the object not judged: its
     * error (exit 3) rather than a guess either way. Decoding goes on. */
    uint64_t unknown = e.flags & ~FC_FLAGS_KNOWN;
    if (e.kind != FC_IMAGE_CUBIN)
        unknown |= e.flags & (FC_FLAG_REFUSED_IMAGE | FC_FLAG_REFUSED_UNCOMPRESS);
    /* Both compressions at once: no toolchain writes it, and a driver's answer is not known.
     * Read as neither, a zstd cubin had its zstd unseen: ok on a 12.2 driver, which reads no
     * zstd (review of 2026-12-05, rt7 F4). */
    const uint64_t both = FC_FLAG_COMPRESS_LZ4 | FC_FLAG_COMPRESS_ZSTD;
    if ((e.flags & both) == both) {
        char where[300];
        fc_where(b, off, where, sizeof where);
        fc_builder_fail(b, FC_ERR_UNSUPPORTED,
                        "%s: entry flags 0x%llx say LZ4 and zstd at once, which no CUDA toolchain is known to "
                        "write: what a driver makes of the entry is not known, and it is not judged",
                        where, (unsigned long long)e.flags);
    }
    if (unknown) {
        char where[300];
        fc_where(b, off, where, sizeof where);
        fc_builder_fail(b, FC_ERR_UNSUPPORTED,
                        "%s: entry flags 0x%llx hold bits 0x%llx that no CUDA toolchain is known to write: "
                        "what a driver makes of the entry is not known, and it is not judged",
                        where, (unsigned long long)e.flags, (unsigned long long)unknown);
    }
    char ident[1024], opts[4096];
    if (fc_rd32(h + 36))
        e.identifier = header_text(h, fc_rd32(h + 32), fc_rd32(h + 36), ident, sizeof ident);
    uint32_t opt_at = fc_rd32(h + 20);
    if (opt_at)
        e.options = header_text(h, fc_rd32(h + opt_at), fc_rd32(h + opt_at + 4), opts, sizeof opts);
    fc_status st = fc_builder_add_entry(b, &e);
    *consumed = e.header_size + e.payload_size;
    return st;
}

/* Says why the bytes at OFF could not be had: a failed read, or a file that ended early. */
static fc_status read_failure(fc_builder *b, const fc_reader *r, const char *where)
{
    if (r->error)
        return fc_builder_fail(b, FC_ERR_IO, "%s: cannot read: %s", where, strerror(r->error));
    return fc_builder_fail(b, FC_ERR_IO, "%s: the file ended early (did it change while being read?)", where);
}

/* The header of the entry at OFF, AVAIL bytes before its container's end: at least
 * min(AVAIL, 64) bytes, and the whole header when its declared size is plausible, which is
 * all that check_entry and decode_entry read; *HELD is how many bytes are at hand there.
 * NULL when the bytes could not be read. */
static const uint8_t *entry_header(fc_reader *r, uint64_t off, uint64_t avail, size_t *held)
{
    size_t got, want = avail < FC_ENTRY_MIN_HEADER ? (size_t)avail : FC_ENTRY_MIN_HEADER;
    const uint8_t *h = fc_reader_get(r, off, want, &got);
    if (!h || got < want)
        return NULL;
    if (avail >= 8) {
        uint32_t hs = fc_rd32(h + 4);
        if (hs > got && hs <= avail && hs <= FC_ENTRY_MAX_HEADER &&
            (!(h = fc_reader_get(r, off, hs, &got)) || got < hs))
            return NULL;
    }
    *held = got < avail ? got : (size_t)avail;
    return h;
}

fc_status fc_fatbin_decode_one(fc_builder *b, fc_reader *r, uint64_t off, uint64_t size, fc_origin origin,
                               const char *section, uint64_t *consumed)
{
    char where[300];
    fc_where(b, off, where, sizeof where);
    if (size < FC_CONTAINER_HEADER)
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: %llu bytes are too few for a container header",
                               where, (unsigned long long)size);
    size_t got;
    const uint8_t *buf = fc_reader_get(r, off, FC_CONTAINER_HEADER, &got);
    if (!buf || got < FC_CONTAINER_HEADER)
        return read_failure(b, r, where);
    if (fc_rd32(buf) != FC_FATBIN_MAGIC)
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: no fat binary magic (found 0x%08x)",
                               where, fc_rd32(buf));
    uint16_t version = fc_rd16(buf + 4), hsz = fc_rd16(buf + 6);
    if (version != 1)
        return fc_builder_fail(b, FC_ERR_UNSUPPORTED, "%s: container version %u is not 1", where, version);
    if (hsz < FC_CONTAINER_HEADER || hsz > size)
        return fc_builder_fail(b, FC_ERR_FORMAT, "%s: container header size %u is invalid", where, hsz);
    uint64_t body = fc_rd64(buf + 8);
    if (body > size - hsz)
        return fc_builder_fail(b, FC_ERR_FORMAT,
                               "%s: container of %llu bytes runs past the end (%llu bytes left)",
                               where, (unsigned long long)body, (unsigned long long)(size - hsz));
    fc_status st = fc_builder_add_container(b, off, origin, section);
    if (st != FC_OK)
        return st;
    fc_builder_set_container_size(b, hsz + body);
    uint64_t pos = hsz, end = hsz + body;
    while (pos < end) {
        uint64_t used = 0;
        size_t held = 0;
        const uint8_t *h = entry_header(r, off + pos, end - pos, &held);
        if (!h) {
            fc_where(b, off + pos, where, sizeof where);
            return read_failure(b, r, where);
        }
        st = decode_entry(b, h, held, end - pos, off + pos, &used);
        if (st != FC_OK)
            return st;
        pos += used;
    }
    *consumed = end;
    return FC_OK;
}

/* Offset of the first nonzero byte in [off, end), or END: the padding between containers. */
static uint64_t skip_zeros(fc_reader *r, uint64_t off, uint64_t end)
{
    while (off < end) {
        size_t got;
        const uint8_t *p = fc_reader_get(r, off, 1, &got);
        if (!p)
            return off; /* the decoder that follows says why */
        uint64_t n = got < end - off ? got : end - off;
        for (uint64_t i = 0; i < n; i++)
            if (p[i])
                return off + i;
        off += n;
    }
    return end;
}

fc_status fc_fatbin_walk(fc_builder *b, fc_reader *r, uint64_t off, uint64_t stop, uint64_t end, fc_origin origin,
                         const char *section, uint64_t *next)
{
    uint64_t pos = off;
    for (;;) {
        *next = pos = skip_zeros(r, pos, end);
        if (pos >= stop || pos >= end)
            return FC_OK;
        uint64_t used = 0;
        fc_status st = fc_fatbin_decode_one(b, r, pos, end - pos, origin, section, &used);
        if (st != FC_OK)
            return st;
        pos += used;
    }
}

fc_status fc_fatbin_decode_run(fc_builder *b, fc_reader *r, uint64_t off, uint64_t size, fc_origin origin,
                               const char *section)
{
    uint64_t next;
    return fc_fatbin_walk(b, r, off, off + size, off + size, origin, section, &next);
}

/* The container header at OFF (SIZE bytes available) as nvcc writes it (magic, version 1,
 * 16-byte header), or NULL. */
static const uint8_t *nvcc_header(fc_reader *r, uint64_t off, uint64_t size)
{
    size_t got;
    const uint8_t *buf = fc_reader_get(r, off, FC_CONTAINER_HEADER, &got);
    if (size < FC_CONTAINER_HEADER || !buf || got < FC_CONTAINER_HEADER || fc_rd32(buf) != FC_FATBIN_MAGIC ||
        fc_rd16(buf + 4) != 1 || fc_rd16(buf + 6) != FC_CONTAINER_HEADER)
        return NULL;
    return buf;
}

bool fc_fatbin_empty(fc_reader *r, uint64_t off, uint64_t size, uint64_t *len)
{
    const uint8_t *buf = nvcc_header(r, off, size);
    if (!buf || fc_rd64(buf + 8) != 0)
        return false;
    *len = FC_CONTAINER_HEADER;
    return true;
}

bool fc_fatbin_plausible(fc_reader *r, uint64_t off, uint64_t size, uint64_t *len)
{
    /* Stricter than decoding: a hit in arbitrary data must look exactly like what nvcc
     * writes before it is believed (known kinds, the 0x0101 field, 8-byte header sizes). */
    const uint8_t *buf = size < FC_CONTAINER_HEADER + FC_ENTRY_MIN_HEADER ? NULL : nvcc_header(r, off, size);
    if (!buf)
        return false;
    uint64_t body = fc_rd64(buf + 8);
    if (body < FC_ENTRY_MIN_HEADER || body > size - FC_CONTAINER_HEADER)
        return false;
    uint64_t pos = FC_CONTAINER_HEADER, end = FC_CONTAINER_HEADER + body;
    while (pos < end) {
        size_t held;
        const uint8_t *h = entry_header(r, off + pos, end - pos, &held);
        if (!h || check_entry(h, end - pos) != EP_NONE || kind_of(fc_rd16(h)) == FC_IMAGE_UNKNOWN ||
            fc_rd16(h + 2) != 0x0101 || fc_rd32(h + 4) % 8)
            return false;
        pos += fc_rd32(h + 4) + fc_rd64(h + 8);
    }
    *len = end;
    return true;
}
