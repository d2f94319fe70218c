/* registration.c - the CUDA runtime's registration records (.nvFatBinSegment, .nvFatBi).
 *
 * nvcc emits one 24-byte record per translation unit, {u32 magic 0x466243B1, u32 version,
 * u64 address of its fat binary, u64 unused or link data} (fatbinary_section.h; 16 bytes with
 * 4-byte pointers in 32-bit images), which the start-up code hands to __cudaRegisterFatBinary.
 * In a linked file the address is the container's virtual address: written in place by the
 * linker (ELF executables, and shared objects from GNU ld; PE images at their preferred base),
 * or left 0 and filled by a dynamic relocation (shared objects from some linkers). The records
 * are hints for splitting a section's walk, and the way to the containers when the section
 * table does not show them; a record that leads to no container is a registration that fails.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "grow.h"
#include "image.h"
#include "input.h"
#include "prefault.h"
#include "reader.h"

fc_status fc_wrappers_read(const fc_image *img, uint64_t base, uint64_t off, uint64_t size, uint64_t addr,
                           unsigned record_size, fc_wrapper **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (size < record_size)
        return FC_OK;
    if (size > FC_WRAPPER_TABLE_MAX)
        size = FC_WRAPPER_TABLE_MAX;
    size_t count = (size_t)(size / record_size), k = 0, got;
    fc_wrapper *w = malloc(count * sizeof *w);
    fc_reader r;
    if (!w || !fc_image_reader(img, base, off, off + size, (size_t)size, &r)) {
        free(w);
        return FC_ERR_NOMEM;
    }
    /* Both are written whole (a table is thousands of records: cuBLASLt 13's 2,782): their
     * pages are taken at once (prefault.h). */
    fc_prefault(w, count * sizeof *w);
    fc_reader_read_size(&r, (size_t)size);
    const uint8_t *p = fc_reader_get(&r, off, (size_t)size, &got);
    for (size_t i = 0; p && i < count && (i + 1) * record_size <= got; i++) {
        const uint8_t *rec = p + i * record_size;
        if (fc_rd32(rec) != FC_WRAPPER_MAGIC)
            continue;
        w[k++] = (fc_wrapper){.offset = off + i * record_size, .addr = addr + i * record_size,
                              .version = fc_rd32(rec + 4),
                              .data = record_size == FC_WRAPPER_SIZE ? fc_rd64(rec + 8) : fc_rd32(rec + 8)};
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

uint64_t *fc_region_set_starts(fc_region *g, const fc_wrapper *w, size_t n, uint64_t addr)
{
    if (n < 2) /* one record gives no place to split at */
        return NULL;
    uint64_t *starts = malloc(n * sizeof *starts);
    if (!starts)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (w[i].data >= addr && w[i].data - addr < g->size)
            starts[k++] = g->offset + (w[i].data - addr);
    if (k < 2) {
        free(starts);
        return NULL;
    }
    qsort(starts, k, sizeof *starts, cmp_u64);
    g->starts = starts;
    g->n_starts = k;
    return starts;
}

/* ---- Containers by offset ------------------------------------------------------------- */

static size_t slot_of(const fc_container_index *k, uint64_t off)
{
    size_t i = (size_t)((off * 0x9E3779B97F4A7C15ull) >> 20) & (k->cap - 1);
    while (k->slots[i].index1 && k->slots[i].offset != off)
        i = (i + 1) & (k->cap - 1);
    return i;
}

bool fc_container_index_reserve(fc_container_index *k, size_t n)
{
    if (n <= k->n || n * 2 <= k->cap)
        return true;
    size_t cap = k->cap ? k->cap : 64;
    while (cap < n * 2)
        if (!fc_mul_ok(cap, 2, &cap))
            return false;
    fc_container_index bigger = {NULL, 0, cap};
    if (!(bigger.slots = malloc(bigger.cap * sizeof *bigger.slots)))
        return false;
    /* Slots are used all over the table: its pages taken at once, then cleared. */
    fc_prefault(bigger.slots, bigger.cap * sizeof *bigger.slots);
    memset(bigger.slots, 0, bigger.cap * sizeof *bigger.slots);
    for (size_t i = 0; i < k->cap; i++)
        if (k->slots[i].index1)
            bigger.slots[slot_of(&bigger, k->slots[i].offset)] = k->slots[i];
    bigger.n = k->n;
    free(k->slots);
    *k = bigger;
    return true;
}

bool fc_container_index_add(fc_container_index *k, uint64_t off, size_t index)
{
    if ((k->n + 1) * 2 > k->cap && !fc_container_index_reserve(k, k->cap ? k->cap : 32))
        return false;
    size_t i = slot_of(k, off);
    if (!k->slots[i].index1) {
        k->slots[i].offset = off;
        k->slots[i].index1 = index + 1;
        k->n++;
    }
    return true;
}

fc_container *fc_container_index_at(const fc_container_index *k, fc_builder *b, uint64_t off)
{
    if (!k->cap)
        return NULL;
    size_t i = slot_of(k, off);
    return k->slots[i].index1 ? &b->containers[k->slots[i].index1 - 1] : NULL;
}

void fc_container_index_free(fc_container_index *k)
{
    free(k->slots);
    memset(k, 0, sizeof *k);
}

/* ---- Following the records ------------------------------------------------------------ */

#define ZERO_PADDING_MAX 4096u /* zero bytes skipped between containers of one run */

/* True when the object offset OFF lies in one of the N regions. */
static bool in_regions(const fc_region *g, size_t n, uint64_t off)
{
    for (size_t i = 0; i < n; i++)
        if (off >= g[i].offset && off - g[i].offset < g[i].size)
            return true;
    return false;
}

/* Decodes the run of containers from OFF (AVAIL bytes mapped from there, in SECTION or
 * NULL): the one a record points at, and those that follow it back to back, as in
 * .nv_fatbin. Returns how many
 * containers the runtime is now known to register there; *LEADS says whether a container
 * (sound, damaged, or decoded already) starts at OFF. */
static size_t decode_run(fc_builder *b, fc_container_index *k, const fc_image *img, uint64_t base, uint64_t off,
                         uint64_t avail, const char *section, bool *leads)
{
    fc_reader r;
    *leads = false;
    if (!fc_image_reader(img, base, off, off + avail, FC_READER_MIN_CAP, &r)) {
        /* not "no fat binary there" (exit 3 under out of memory: oom_cli) */
        *leads = true;
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return 0;
    }
    size_t n = 0, got;
    uint64_t pos = off, end = off + avail, len;
    const uint8_t *head = fc_reader_get(&r, off, 4, &got);
    if (fc_container_index_at(k, b, off)) {
        *leads = true; /* decoded already: by a section's walk or the run of another record */
    } else if (head && got >= 4 && fc_rd32(head) == FC_FATBIN_MAGIC && !fc_fatbin_plausible(&r, off, avail, &len) &&
               !fc_fatbin_empty(&r, off, avail, &len)) {
        /* A record points at a damaged container: the runtime would try to load it. Decoding
         * it records why it cannot. */
        *leads = true;
        fc_fatbin_decode_one(b, &r, off, avail, FC_ORIGIN_WRAPPER, section, &len);
        b->obj.registered_undecoded = true;
        fc_reader_free(&r);
        return 1;
    }
    while (pos < end && (fc_fatbin_plausible(&r, pos, end - pos, &len) ||
                         (pos == off && fc_fatbin_empty(&r, pos, end - pos, &len)))) {
        *leads = true;
        fc_container *c = fc_container_index_at(k, b, pos);
        if (c && c->origin == FC_ORIGIN_WRAPPER)
            break; /* this run was decoded from another record */
        if (c) {
            /* Found by the search of a data section: it is registered after all. */
            if (c->origin == FC_ORIGIN_EMBEDDED)
                c->origin = FC_ORIGIN_WRAPPER;
        } else if (fc_fatbin_decode_one(b, &r, pos, end - pos, FC_ORIGIN_WRAPPER, section, &len) != FC_OK) {
            b->obj.registered_undecoded = true;
            break;
        } else if (!fc_container_index_add(k, pos, b->obj.n_containers - 1)) {
            fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
            break;
        }
        n++;
        pos += len;
        uint64_t zeros_end = end - pos < ZERO_PADDING_MAX ? end : pos + ZERO_PADDING_MAX;
        while (pos < zeros_end) {
            const uint8_t *p = fc_reader_get(&r, pos, 1, &got);
            if (!p || *p)
                break;
            pos++;
        }
    }
    fc_reader_free(&r);
    return n;
}

/* Whether entry E (decoded into B) holds code compiled to be linked: PTX stored with
 * --compile-only, LTO-IR, or a relocatable (ET_REL) cubin, whose ELF header is read, inflating
 * no more than its first bytes. */
static bool entry_relocatable(fc_builder *b, const fc_entry *e)
{
    return e->kind == FC_IMAGE_CUBIN ? fc_entry_cubin_type(&b->obj, e) == 1 /* ET_REL */
                                     : fc_entry_compiled_relocatable(e);
}

/* Where there is no section table to say which containers are -rdc objects (__nv_relfatbin),
 * their registration records do, with what they hold: nvcc gives each -rdc translation unit
 * a version-1 record that only the device link step's code reads (crt/link.stub hands it to
 * the runtime's own link, never to __cudaRegisterFatBinary), and a whole-program one never
 * holds relocatable code. So beside a device link output, a container in no section that
 * a version-1 record leads to and that holds relocatable code only is taken for an -rdc
 * object; one that cannot be read stays a module, which fails (the safe side). */
static void mark_rdc_objects(fc_builder *b, fc_container_index *k, const fc_wrapper *w, size_t n,
                             const fc_address_map *map)
{
    bool output = false;
    for (size_t c = 0; c < b->obj.n_containers && !output; c++)
        output = b->containers[c].device_link;
    for (size_t i = 0; output && i < n; i++) {
        uint64_t off, avail;
        const char *section = NULL;
        if (w[i].version == FC_WRAPPER_LINK_VERSION || !w[i].data ||
            !map->to_offset(map->ctx, w[i].data, &off, &avail, &section))
            continue;
        fc_container *c = fc_container_index_at(k, b, off);
        if (!c || c->device_link || c->rdc_object || c->section)
            continue; /* a section says what it is; under another name, it stays a module (it fails) */
        size_t n_entries;
        const fc_entry *entries = fc_builder_container_entries(b, c, &n_entries);
        bool relocatable = n_entries > 0;
        for (size_t e = 0; relocatable && e < n_entries; e++)
            relocatable = entry_relocatable(b, &entries[e]);
        if (relocatable) {
            c->rdc_object = true;
            c->role = FC_ROLE_LINK_INPUT;
        }
    }
}

size_t fc_records_follow(fc_builder *b, fc_container_index *k, const fc_image *img, uint64_t base,
                         const fc_wrapper *w, size_t n, const fc_region *registered, size_t n_registered,
                         const fc_address_map *map)
{
    size_t found = 0;
    /* Room for what is known and what the records may add, at once rather than doubling. */
    if (!fc_container_index_reserve(k, b->obj.n_containers + (n < 65536 ? n : 65536))) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return 0;
    }
    if (!k->n)
        for (size_t c = 0; c < b->obj.n_containers; c++)
            if (!fc_container_index_add(k, b->containers[c].offset, c)) {
                fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
                return 0;
            }
    for (size_t i = 0; i < n; i++) {
        if (!w[i].data)
            continue; /* left to a relocation that was not read: nothing to tell */
        uint64_t avail, off;
        const char *section = NULL;
        bool leads;
        if (!map->to_offset(map->ctx, w[i].data, &off, &avail, &section)) {
            b->obj.registered_undecoded = true;
            fc_builder_fail(b, FC_ERR_FORMAT,
                            "registration record %zu (offset 0x%llx) points at 0x%llx, outside %s: there is no fat "
                            "binary there, and the CUDA runtime fails to register it",
                            i + 1, (unsigned long long)w[i].offset, (unsigned long long)w[i].data, map->mapped);
            continue;
        }
        if (in_regions(registered, n_registered, off))
            leads = fc_container_index_at(k, b, off) != NULL; /* the section's walk decoded what is there */
        else
            found += decode_run(b, k, img, base, off, avail, section, &leads);
        b->obj.registered_undecoded |= !leads;
        fc_container *c = leads && w[i].version == FC_WRAPPER_LINK_VERSION ? fc_container_index_at(k, b, off) : NULL;
        /* Wherever a linker put it (a script may merge .nv_fatbin into .rodata), but never an
         * -rdc object's section. */
        if (c && (!c->section || !fc_section_is_relfatbin(c->section)))
            c->device_link = true;
        if (!leads)
            fc_builder_fail(b, FC_ERR_FORMAT,
                            "registration record %zu (offset 0x%llx) points at 0x%llx (offset 0x%llx), where there "
                            "is no fat binary: the CUDA runtime fails to register it",
                            i + 1, (unsigned long long)w[i].offset, (unsigned long long)w[i].data,
                            (unsigned long long)off);
    }
    mark_rdc_objects(b, k, w, n, map);
    return found;
}
