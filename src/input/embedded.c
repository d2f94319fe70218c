/* embedded.c - finding containers stored as plain data in ordinary sections, and the places
 * where PTX kept as text may start.
 *
 * Some libraries keep fat binaries as data and load them themselves (cuFFT 13.0 keeps
 * 23,983 in .ldata, cuBLASLt 383 in .cask_resource), and some programs keep bare cubins so
 * (TensorRT-LLM). Nothing points at them in a way we can follow, so the sections are searched
 * for the container magic and the ELF magic at 4-byte aligned offsets, and every hit is
 * validated by walking its entry headers (fc_fatbin_plausible) or its ELF header and section
 * table (cubin_plausible); what is found is skipped over whole, its payload never read. sections.c cuts the
 * sections into ranges searched on several threads. With a file, bytes are read with pread
 * (reader.c) rather than through the mapping, so that scanning hundreds of megabytes
 * neither faults every page in nor grows the resident set.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"
#include "grow.h"
#include "input.h"
#include "magic_scan.h"
#include "reader.h"

#define BLOCK_SIZE (256u << 10) /* the most one read takes: fits in L2 */

/* Index of the first 4-byte word in P[0..4 * n_words) that starts a container or an ELF
 * image, or n_words: blocks of sixteen words are tested at once, and only one that holds
 * a magic word by word. */
static size_t find_magic(const uint8_t *p, size_t n_words)
{
    for (size_t i = fc_magic_block(p, n_words); i < n_words; i++) {
        uint32_t w = fc_rd32(p + 4 * i);
        if (w == FC_FATBIN_MAGIC || w == FC_ELF_MAGIC)
            return i;
    }
    return n_words;
}

/* ---- Cubins kept as data ----------------------------------------------------------------
 * A program that hands cuModuleLoadData a cubin of its own keeps the ELF image as it is, a
 * byte array in .rodata (TensorRT-LLM's FMHA kernels). Such an image is taken only when its
 * header is a cubin's (64-bit little-endian, EM_CUDA, a CUDA OS/ABI, an SM in e_flags, the
 * sizes ELF fixes) and its section table and every section lie inside the bytes searched:
 * its extent is where the furthest of them ends. */
#define EHDR 64u
#define SHDR 64u
#define PHDR 56u
#define CUBIN_MAX_SECTIONS 65535u
#define NOTE_MAX 4096u /* of .note.nv.tkinfo, read for the variant */

typedef struct cubin_info {
    uint64_t size;
    uint32_t arch;
    fc_variant variant;
    bool relocatable; /* ET_REL: for a linker, never run as a module */
    uint8_t abi_version; /* EI_ABIVERSION */
    uint32_t elf_version; /* e_version */
} cubin_info;

/* Reads the variant from the cubin's .note.nv.tkinfo, when its names can be read. */
static fc_variant cubin_note_variant(fc_reader *r, uint64_t at, uint64_t shoff, unsigned shnum, unsigned shstrndx,
                                     uint32_t arch)
{
    size_t got;
    const uint8_t *p = fc_reader_get(r, at + shoff + (uint64_t)shstrndx * SHDR, SHDR, &got);
    if (!p || got < SHDR)
        return FC_VARIANT_NONE;
    uint64_t names = fc_rd64(p + 24), names_size = fc_rd64(p + 32);
    for (unsigned i = 1; i < shnum; i++) {
        if (!(p = fc_reader_get(r, at + shoff + (uint64_t)i * SHDR, SHDR, &got)) || got < SHDR)
            return FC_VARIANT_NONE;
        uint32_t name = fc_rd32(p), type = fc_rd32(p + 4);
        uint64_t off = fc_rd64(p + 24), size = fc_rd64(p + 32);
        static const char want[] = ".note.nv.tkinfo";
        if (type != 7 /* SHT_NOTE */ || name >= names_size || names_size - name < sizeof want)
            continue;
        const uint8_t *n = fc_reader_get(r, at + names + name, sizeof want, &got);
        if (!n || got < sizeof want || memcmp(n, want, sizeof want) != 0)
            continue;
        size_t len = size < NOTE_MAX ? (size_t)size : NOTE_MAX;
        const uint8_t *note = fc_reader_get(r, at + off, len, &got);
        return note ? fc_cubin_variant(note, got < len ? got : len, arch) : FC_VARIANT_NONE;
    }
    return FC_VARIANT_NONE;
}

/* Whether the cubin INFO at AT is the payload of a fat binary's entry: an entry header for a
 * cubin of its architecture and size ends where it starts (its own header-size field may be
 * the damage, so it is not required to say where). Such a cubin belongs to a container, whole
 * or damaged (its magic gone, records pointing at it), and is not one a program loads on its
 * own. */
#define ENTRY_HEADER_MAX 256u
static bool entry_payload(fc_reader *r, uint64_t at, const cubin_info *info)
{
    for (uint32_t h = 64; h <= ENTRY_HEADER_MAX && h <= at - r->lo; h += 8) {
        size_t got;
        const uint8_t *p = fc_reader_get(r, at - h, 32, &got);
        if (!p || got < 32)
            return false;
        uint64_t payload = fc_rd64(p + 8);
        if (fc_rd16(p) == 2 && fc_rd16(p + 2) == 0x0101 && fc_rd32(p + 28) == info->arch &&
            payload >= info->size && payload - info->size < 4096)
            return true;
    }
    return false;
}

/* Whether a cubin starts at AT, within AVAIL bytes; fills *INFO. */
static bool cubin_plausible(fc_reader *r, uint64_t at, uint64_t avail, cubin_info *info)
{
    size_t got;
    const uint8_t *p = avail >= EHDR ? fc_reader_get(r, at, EHDR, &got) : NULL;
    /* e_version is not asked: CUDA 11's and 12's ptxas write their release there (118, 124) */
    if (!p || got < EHDR || p[EI_CLASS] != ELFCLASS64 || p[EI_DATA] != ELFDATA2LSB || p[EI_VERSION] != EV_CURRENT ||
        fc_rd16(p + 18) != 190 /* EM_CUDA */ || fc_rd16(p + 52) != EHDR)
        return false;
    GElf_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, p, EI_NIDENT);
    info->abi_version = p[EI_ABIVERSION];
    info->elf_version = fc_rd32(p + 20);
    eh.e_type = fc_rd16(p + 16);
    eh.e_flags = fc_rd32(p + 48);
    uint64_t phoff = fc_rd64(p + 32), shoff = fc_rd64(p + 40);
    unsigned phentsize = fc_rd16(p + 54), phnum = fc_rd16(p + 56), shentsize = fc_rd16(p + 58);
    unsigned shnum = fc_rd16(p + 60), shstrndx = fc_rd16(p + 62);
    char why[300];
    if ((eh.e_type != ET_EXEC && eh.e_type != ET_REL) || !fc_elf_cubin_header(&eh, &info->arch, why, sizeof why) ||
        shentsize != SHDR || shnum == 0 || shnum > CUBIN_MAX_SECTIONS || shstrndx >= shnum || shoff < EHDR ||
        (phnum && (phentsize != PHDR || phoff < EHDR)))
        return false;
    uint64_t end = 0;
    if (!fc_add_ok(shoff, (uint64_t)shnum * SHDR, &end) || end > avail)
        return false;
    uint64_t ph_end = phoff + (uint64_t)phnum * PHDR;
    if (phnum && (ph_end < phoff || ph_end > avail))
        return false;
    if (phnum && ph_end > end)
        end = ph_end;
    /* The null section first, then every section inside the bytes searched. */
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *s = fc_reader_get(r, at + shoff + (uint64_t)i * SHDR, SHDR, &got);
        if (!s || got < SHDR)
            return false;
        uint32_t type = fc_rd32(s + 4);
        uint64_t off = fc_rd64(s + 24), size = fc_rd64(s + 32), s_end;
        if (i == 0) {
            if (type != 0 || off != 0)
                return false;
            continue;
        }
        if (type == 8 /* SHT_NOBITS */ || size == 0)
            continue;
        if (off < EHDR || !fc_add_ok(off, size, &s_end) || s_end > avail)
            return false;
        if (s_end > end)
            end = s_end;
    }
    info->size = end;
    info->relocatable = eh.e_type == ET_REL;
    if (entry_payload(r, at, info))
        return false;
    info->variant = cubin_note_variant(r, at, shoff, shnum, shstrndx, info->arch);
    return true;
}

/* Adds the cubin INFO at AT to FOUND: a pseudo-container of one entry, as a cubin file is. */
static fc_status add_cubin(fc_builder *found, uint64_t at, const cubin_info *info, const char *section)
{
    fc_entry e;
    memset(&e, 0, sizeof e);
    e.kind = FC_IMAGE_CUBIN;
    e.raw_kind = 2;
    e.arch = info->arch;
    e.variant = info->variant;
    e.elf_abi_version = info->abi_version;
    e.elf_version = info->elf_version;
    e.offset = e.payload_offset = at;
    e.payload_size = e.stored_size = e.uncompressed_size = info->size;
    fc_status st = fc_builder_add_container(found, at, FC_ORIGIN_EMBEDDED_CUBIN, section);
    if (st != FC_OK)
        return st;
    fc_builder_set_container_size(found, info->size);
    if (info->relocatable)
        fc_builder_set_container_role(found, FC_ROLE_LINK_INPUT);
    return fc_builder_add_entry(found, &e);
}

/* Index of the first magic at any byte offset of P[0..n), or n: the word search once for
 * each of the four alignments. */
static size_t find_magic_unaligned(const uint8_t *p, size_t n)
{
    size_t best = n;
    for (size_t phase = 0; phase < 4 && phase + 4 <= n; phase++) {
        size_t words = (n - phase) / 4, at = find_magic(p + phase, words);
        if (at < words && phase + 4 * at < best)
            best = phase + 4 * at;
    }
    return best;
}

/* Where ".version" occurs in the data searched: places where a PTX module kept as text may
 * start (ptx_text.c decides), in ascending order, perhaps repeated. */
typedef struct text_marks {
    uint64_t *at;
    size_t n, cap;
    uint64_t below;    /* only places below this are noted */
    bool nomem;        /* a place could not be noted for want of memory */
} text_marks;

static void note_place(text_marks *m, uint64_t at)
{
    uint64_t *more = fc_grow(m->at, &m->cap, m->n + 1, sizeof *more, 64);
    if (!more) { /* a place missed costs a module: the search fails (a PTX library was "ok",
                  * then "no CUDA code", exit 0, under out of memory: oom22) */
        m->nomem = true;
        return;
    }
    m->at = more;
    m->at[m->n++] = at;
}

/* Notes the ".version" in P[0..n), which holds object offsets from OFF. Each 64-byte block is
 * first tested for a '.' followed by a 'v' with byte compares that compilers vectorise, and
 * only a block that has one is looked at closely: 12.7 GB/s on the .rodata of CUDA 13.0's
 * libraries, where glibc's memmem ran at 1.0-1.7 GB/s on the text-heavy ones (libnvrtc,
 * libnvJitLink, libnvperf_host) and 8-9 GB/s on the others. */
static void note_text(text_marks *m, const uint8_t *p, size_t n, uint64_t off)
{
    if (off >= m->below)
        return;
    if (m->below - off < n)
        n = (size_t)(m->below - off) + 7; /* one that starts below may end past it */
    size_t i = 0;
    for (; i + 64 + 8 <= n; i += 64) {
        unsigned pair = 0;
        for (size_t k = 0; k < 64; k++)
            pair |= (p[i + k] == '.') & (p[i + k + 1] == 'v');
        if (!pair)
            continue;
        for (size_t k = 0; k < 64; k++)
            if (p[i + k] == '.' && memcmp(p + i + k, ".version", 8) == 0 && off + i + k < m->below)
                note_place(m, off + i + k);
    }
    for (; i + 8 <= n; i++)
        if (p[i] == '.' && memcmp(p + i, ".version", 8) == 0 && off + i < m->below)
            note_place(m, off + i);
}

/* Whether what starts with MAGIC at AT of R (AVAIL bytes on) is a cubin (*CUBIN filled) or a
 * container (*LEN its length) kept as data. */
static bool kept_at(fc_reader *r, uint64_t at, uint64_t avail, uint32_t magic, cubin_info *cubin, uint64_t *len)
{
    return magic == FC_ELF_MAGIC ? cubin_plausible(r, at, avail, cubin) : fc_fatbin_plausible(r, at, avail, len);
}

/* The first offset in [FROM, END), 4-byte aligned (any offset when UNALIGNED), where a
 * container validates (up to the reader's end), *LEN getting its length; or where a cubin
 * does, *CUBIN getting it (its size 0 otherwise). UINT64_MAX when there is none, or a read
 * failed. The bytes searched before it are noted in MARKS. */
static uint64_t find_container(fc_reader *r, uint64_t from, uint64_t end, bool unaligned, text_marks *marks,
                               uint64_t *len, cubin_info *cubin)
{
    cubin->size = 0;
    uint64_t pos = unaligned ? from : (from + 3) & ~(uint64_t)3;
    /* A magic that starts before END may end past it (chunks of a search are cut anywhere). */
    uint64_t lim = r->hi - end > 3 ? end + 3 : r->hi;
    fc_reader_read_size(r, FC_READER_SMALL_READ);
    while (pos + 4 <= lim && pos < end) {
        size_t got;
        const uint8_t *p = fc_reader_get(r, pos, 4, &got);
        if (!p || got < 4) {
            if (!r->error) /* a file cut short under us */
                r->error = EIO;
            return UINT64_MAX;
        }
        uint64_t stop = lim < pos + got ? lim : pos + got;
        size_t words = (size_t)((stop - pos) / 4), n = (size_t)(stop - pos);
        size_t at = unaligned ? find_magic_unaligned(p, n) : 4 * find_magic(p, words);
        if (marks) /* up to the hit, and 7 bytes on for a ".version" cut by the block's end */
            note_text(marks, p, (at < n ? at : n) + 7 <= got ? (at < n ? at : n) + 7 : got, pos);
        if (at >= 4 * words && (!unaligned || at == n)) {
            /* Plain data: read on in ever larger blocks (a magic cut by the block's end is
             * met again at the start of the next). */
            pos += unaligned ? (n > 3 ? n - 3 : 1) : (uint64_t)words * 4;
            fc_reader_read_size(r, 2 * r->read_size > BLOCK_SIZE ? BLOCK_SIZE : 2 * r->read_size);
            continue;
        }
        uint64_t hit = pos + at;
        if (hit >= end)
            return UINT64_MAX;
        if (kept_at(r, hit, r->hi - hit, fc_rd32(p + at), cubin, len))
            return hit;
        if (r->error)
            return UINT64_MAX;
        pos = hit + (unaligned ? 1 : 4);
    }
    return UINT64_MAX;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Adds to FOUND the PTX modules that start at the places MARKS noted before UNTIL (every
 * one of them), in order; returns where the last one ends (or FROM). */
static uint64_t take_modules(fc_builder *found, fc_reader *r, const fc_region *reg, text_marks *m, uint64_t from,
                             uint64_t until, size_t *next)
{
    uint64_t done = from, tried = UINT64_MAX;
    for (; *next < m->n && m->at[*next] < until; (*next)++) {
        uint64_t at = m->at[*next];
        if (at >= done && at != tried) /* a place noted twice is tried once */
            done = fc_ptx_text_module(found, r, tried = at, r->hi, reg->section);
    }
    return done;
}

int fc_embedded_search(fc_builder *found, fc_reader *r, const fc_region *reg, uint64_t start, uint64_t end,
                       uint64_t text_end)
{
    uint64_t pos = start, len = 0, text_done = start;
    /* Compilers place containers 4-byte aligned, and the default search looks there only
     * (every offset costs libcublasLt.so.13's summary about a third more). A file of no known
     * format, and any data under --embedded (an .incbin or include_bytes! array is aligned
     * to 1), is searched at every offset. */
    bool every_offset = reg->whole_file || (found->opts && found->opts->embedded == FC_EMBEDDED_ALL);
    text_marks marks = {.below = text_end < end ? text_end : end};
    text_marks *m = start < marks.below ? &marks : NULL;
    size_t next = 0;
    while (pos < end) {
        size_t noted = marks.n;
        cubin_info cubin;
        uint64_t hit = find_container(r, pos, end, every_offset, m, &len, &cubin), used = 0;
        if (m && marks.n > noted) {
            /* Modules before the container, in file order (the merge relies on it). */
            qsort(marks.at + next, marks.n - next, sizeof *marks.at, cmp_u64);
            text_done = take_modules(found, r, reg, &marks, text_done, hit, &next);
        }
        if (hit == UINT64_MAX)
            break;
        /* Validated already: decoding fails only out of memory, over a limit or on a read
         * error, all recorded in FOUND. */
        if (cubin.size) {
            if (add_cubin(found, hit, &cubin, reg->section) != FC_OK)
                break;
            len = cubin.size;
        } else if (fc_fatbin_decode_one(found, r, hit, len, FC_ORIGIN_EMBEDDED, reg->section, &used) != FC_OK) {
            break;
        }
        /* The payload is skipped unread; another container often follows at once. */
        pos = hit + len;
        if (text_done < pos)
            text_done = pos;
    }
    free(marks.at);
    if (marks.nomem)
        fc_builder_fail(found, FC_ERR_NOMEM, "out of memory");
    return r->error;
}

bool fc_embedded_at(fc_reader *r, uint64_t at, uint64_t avail)
{
    uint64_t len;
    cubin_info cubin;
    size_t got;
    const uint8_t *p = fc_reader_get(r, at, 4, &got);
    if (!p || got < 4)
        return false;
    return kept_at(r, at, avail, fc_rd32(p), &cubin, &len);
}

/* In FC_EMBEDDED_AUTO mode a section is searched in full only when its first bytes
 * (opts->embedded_probe_size) hold a container: cuFFT's first is 6 KB into .ldata,
 * cuSPARSE's 44 KB into .rodata. The exception is .cask_resource, where NVIDIA's CASK
 * kernel libraries keep their resources: it is always searched, because cuDNN 9's first
 * container there is 2.2 MB in (cuBLASLt's is at the start). */
bool fc_embedded_always_searched(const char *section)
{
    return section && strcmp(section, ".cask_resource") == 0;
}

size_t fc_embedded_first_candidate(const uint8_t *p, size_t n)
{
    static const uint8_t magic[4] = {0x50, 0xed, 0x55, 0xba}; /* FC_FATBIN_MAGIC, little-endian */
    size_t i = 0;
    /* Blocks of 64 are first tested for the first two bytes of any pattern, branch-free as
     * note_text does; only a block with one is looked at closely. */
    for (; i + 64 + 1 <= n; i += 64) {
        /* A block of zeros, what a bomb or a sparse file is made of, holds none: told by eight
         * words (a debug build took 74 s over a decompression bomb's 8 GiB byte by byte). */
        uint64_t w[8];
        memcpy(w, p + i, sizeof w);
        if (!(w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]))
            continue;
        unsigned pair = 0;
        for (size_t k = 0; k < 64; k++)
            pair |= ((p[i + k] == 0x50) & (p[i + k + 1] == 0xed)) | ((p[i + k] == '.') & (p[i + k + 1] == 'v')) |
                    ((p[i + k] == 0x7f) & (p[i + k + 1] == 'E'));
        if (pair)
            break;
    }
    for (; i + 4 <= n; i++) {
        if ((p[i] == 0x50 && memcmp(p + i, magic, 4) == 0) || (p[i] == 0x7f && memcmp(p + i, "\177ELF", 4) == 0) ||
            (p[i] == '.' && i + 8 <= n && memcmp(p + i, ".version", 8) == 0))
            return i;
    }
    return n;
}
