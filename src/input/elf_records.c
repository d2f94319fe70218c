/* elf_records.c - registration records outside .nvFatBinSegment.
 *
 * nvcc puts each translation unit's registration record in an input section named
 * .nvFatBinSegment, and its container in .nv_fatbin; GNU ld's default script keeps both as
 * output sections of those names. A linker script may merge them into others (review of
 * 2026-12-03: .nv_fatbin into .rodata, .nvFatBinSegment into .data): the start-up code still
 * hands each record to __cudaRegisterFatBinary, which reads the container at the address the
 * record holds, so the code is registered and loaded as ever. Read by section names only,
 * such a container was "kept as data" (its PTX not read: "ok" where the driver failed with
 * 218) or not found at all, past the searched head of .rodata in a program linked at a fixed
 * address ("no CUDA code", where the launch failed with 209).
 *
 * So in a linked file with no .nvFatBinSegment the writable data sections are searched for
 * records: 8-byte aligned {u32 magic 0x466243B1, u32 version 1 or 2}, the next word the
 * container's address (stored in place; or 0, left to a relative relocation: elf_segments.c
 * reads it). elf_segments.c follows them as it follows a table's. What it costs decides how
 * much is searched: the heads of the sections the data-section search has read already
 * (embedded_probe_size bytes each, in the page cache by now), and, in a file where containers
 * were found outside the registered sections (the only files whose verdict a record can turn
 * from "kept as data" to registered), every writable section whole but the bytes of those
 * containers and, past the head, the padding between them (cuFFT's 265 MB of .ldata is
 * containers back to back).
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "grow.h"
#include "image.h"
#include "input.h"
#include "reader.h"

#define BLOCK (256u << 10)
#define GAP_MIN 4096u /* between containers past a section's head: less is their padding */
#define MAX_RECORDS (1u << 20) /* found at most: a real file has one per translation unit */

/* Bytes [lo, hi) of the object that hold a container found already: no record lies there. */
typedef struct extent {
    uint64_t lo, hi;
} extent;

static int cmp_extent(const void *a, const void *b)
{
    uint64_t x = ((const extent *)a)->lo, y = ((const extent *)b)->lo;
    return x < y ? -1 : x > y;
}

/* The containers of B as sorted extents (*N of them; NULL when there are none or no memory). */
static extent *container_extents(const fc_builder *b, size_t *n)
{
    *n = 0;
    extent *e = b->obj.n_containers ? malloc(b->obj.n_containers * sizeof *e) : NULL;
    for (size_t i = 0; e && i < b->obj.n_containers; i++) {
        const fc_container *c = &b->containers[i];
        uint64_t hi;
        if (c->size && fc_add_ok(c->offset, c->size, &hi))
            e[(*n)++] = (extent){c->offset, hi};
    }
    if (e)
        qsort(e, *n, sizeof *e, cmp_extent);
    return e;
}

/* Appends to *W the records of RECORD_SIZE bytes (FC_WRAPPER_SIZE, or FC_WRAPPER_SIZE_32 in
 * 32-bit PE images: 4-byte addresses, 4-byte aligned) in [FROM, TO) of region G, whose first
 * byte loads at G->addr. False where it stopped: *NOMEM says when for want of memory (records
 * missed so changed the file's verdict: oom22). */
static bool search(fc_reader *r, const fc_region *g, uint64_t from, uint64_t to, unsigned record_size,
                   fc_wrapper **w, size_t *n, size_t *cap, bool *nomem)
{
    unsigned align = record_size == FC_WRAPPER_SIZE ? 8 : 4;
    /* The first offset whose address is aligned so. */
    uint64_t at = from + (align - (g->addr + (from - g->offset)) % align) % align;
    while (at < to && to - at >= record_size) {
        size_t got;
        const uint8_t *p = fc_reader_get(r, at, BLOCK, &got);
        if (!p || got < record_size)
            return false;
        if (got > to - at)
            got = (size_t)(to - at);
        size_t k = 0;
        for (; k + record_size <= got; k += align) {
            if (fc_rd32(p + k) != FC_WRAPPER_MAGIC)
                continue;
            uint32_t version = fc_rd32(p + k + 4);
            if (version != 1 && version != FC_WRAPPER_LINK_VERSION)
                continue;
            if (*n >= MAX_RECORDS)
                return false;
            fc_wrapper *more = fc_grow(*w, cap, *n + 1, sizeof *more, 16);
            if (!more) {
                *nomem = true;
                return false;
            }
            *w = more;
            uint64_t off = at + k;
            (*w)[(*n)++] = (fc_wrapper){.offset = off, .addr = g->addr + (off - g->offset), .version = version,
                                        .data = align == 8 ? fc_rd64(p + k + 8) : fc_rd32(p + k + 8)};
        }
        at += k; /* a record cut by the block's end is read whole from the next */
        if (!k)
            break;
    }
    return true;
}

fc_status fc_elf_records_elsewhere(const fc_builder *b, const fc_image *img, uint64_t base, const fc_region *g,
                                   size_t n_regions, uint64_t head, bool whole, unsigned record_size, fc_wrapper **out,
                                   size_t *n)
{
    size_t cap = 0, n_ext = 0;
    *out = NULL;
    *n = 0;
    extent *ext = whole ? container_extents(b, &n_ext) : NULL;
    bool nomem = whole && b->obj.n_containers && !ext;
    fc_status st = nomem ? FC_ERR_NOMEM : FC_OK;
    for (size_t i = 0; i < n_regions && st == FC_OK; i++) {
        uint64_t end = g[i].offset + (whole || g[i].size < head ? g[i].size : head);
        fc_reader r;
        if (!fc_image_reader(img, base, g[i].offset, end, BLOCK, &r)) {
            st = FC_ERR_NOMEM;
            break;
        }
        /* The bytes between the containers found in it (none in most): past its head, only
         * the gaps of GAP_MIN or more, each read on its own (cuFFT 12's .ldata has 23,983
         * containers 0 to 24 bytes apart: a read of each gap took its scan from 0.44 s to
         * 1.23 s). */
        uint64_t at = g[i].offset;
        for (size_t e = 0; at < end; e++) {
            while (e < n_ext && ext[e].hi <= at)
                e++;
            uint64_t stop = e < n_ext && ext[e].lo < end ? ext[e].lo : end;
            bool wanted = stop > at && (at - g[i].offset < head || stop - at >= GAP_MIN || stop == end);
            if (wanted)
                fc_reader_read_size(&r, stop - at < BLOCK ? (size_t)(stop - at) : BLOCK);
            if (wanted && !search(&r, &g[i], at, stop, record_size, out, n, &cap, &nomem))
                break;
            if (stop >= end)
                break;
            at = ext[e].hi;
        }
        if (r.error)
            st = FC_ERR_IO;
        if (nomem)
            st = FC_ERR_NOMEM;
        fc_reader_free(&r);
    }
    free(ext);
    return st;
}
