/* registration.c - the CUDA runtime's registration records (.nvFatBinSegment, .nvFatBi).
 *
 * nvcc emits one 24-byte record per translation unit, {u32 magic 0x466243B1, u32 version,
 * u64 address of its fat binary, u64 unused or link data} (fatbinary_section.h), which the
 * start-up code hands to __cudaRegisterFatBinary. In a linked file the address is the
 * container's virtual address: written in place by the linker (ELF executables, and shared
 * objects from GNU ld; PE images at their preferred base), or left 0 and filled by a dynamic
 * relocation (shared objects from some linkers). The records are hints for splitting a
 * section's walk, and the way to the containers when the section table does not show them.
 */
#include <stdlib.h>

#include "bytes.h"
#include "internal.h"

fc_status fc_wrappers_read(const fc_image *img, uint64_t base, uint64_t off, uint64_t size, uint64_t addr,
                           fc_wrapper **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (size < FC_WRAPPER_SIZE)
        return FC_OK;
    if (size > FC_WRAPPER_TABLE_MAX)
        size = FC_WRAPPER_TABLE_MAX;
    size_t count = (size_t)(size / FC_WRAPPER_SIZE), k = 0, got;
    fc_wrapper *w = malloc(count * sizeof *w);
    fc_reader r;
    if (!w || !fc_image_reader(img, base, off, off + size, (size_t)size, &r)) {
        free(w);
        return FC_ERR_NOMEM;
    }
    const uint8_t *p = fc_reader_get(&r, off, (size_t)size, &got);
    for (size_t i = 0; p && i < count && (i + 1) * FC_WRAPPER_SIZE <= got; i++) {
        const uint8_t *rec = p + i * FC_WRAPPER_SIZE;
        if (fc_rd32(rec) != FC_WRAPPER_MAGIC)
            continue;
        w[k++] = (fc_wrapper){.offset = off + i * FC_WRAPPER_SIZE, .addr = addr + i * FC_WRAPPER_SIZE,
                              .version = fc_rd32(rec + 4), .data = fc_rd64(rec + 8)};
    }
    int error = r.error;
    fc_reader_free(&r);
    if (error) {
        free(w);
        return FC_ERR_IO;
    }
    if (!k) {
        free(w);
        w = NULL;
    }
    *out = w;
    *n = k;
    return FC_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t *fc_region_set_starts(fc_region *g, uint64_t *offsets, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (offsets[i] >= g->offset && offsets[i] - g->offset < g->size)
            offsets[k++] = offsets[i];
    if (k < 2) {
        free(offsets);
        return NULL;
    }
    qsort(offsets, k, sizeof *offsets, cmp_u64);
    g->starts = offsets;
    g->n_starts = k;
    return offsets;
}
