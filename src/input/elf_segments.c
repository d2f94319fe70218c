/* elf_segments.c - the CUDA code of an ELF file that its section table does not show.
 *
 * The CUDA runtime never reads section headers: at start-up it is handed the registration
 * records (.nvFatBinSegment), each holding the address of a container, and reads the
 * container at that address in the loaded image. So a file whose section table is gone
 * (sstrip, e_shnum zeroed) or says something else (.nv_fatbin retyped NOBITS or NOTE, sized
 * 0, renamed) still loads every kernel. Here the records are found (in .nvFatBinSegment when
 * the table names it, else by searching the loaded segments for their magic), their
 * addresses read (in place, or from the R_*_RELATIVE relocations PT_DYNAMIC lists when a
 * linker left them 0), and mapped to file offsets through the PT_LOAD program headers.
 * Containers found so are FC_ORIGIN_WRAPPER; when no record leads anywhere, a search of the
 * loaded segments finds the containers as FC_ORIGIN_SEGMENT.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "grow.h"
#include "image.h"
#include "input.h"
#include "reader.h"

/* Loadable segments read: real files have 2 to 10 (the kernel refuses an executable of more
 * than 1,170 program headers); one that declares more is said, and the rest not read. */
#define PT_LOAD_MAX 4096u
#define RELA_SIZE 24u
#define DYNAMIC_MAX (64u << 10)   /* bytes of PT_DYNAMIC read at most (4,096 entries) */

typedef struct segment {
    uint64_t vaddr, offset, filesz; /* object offsets, FILESZ clipped to the object */
} segment;

typedef struct view {
    const fc_image *img;
    uint64_t base, size;           /* the object at image position BASE, SIZE bytes */
    segment *loads;                /* in program header order */
    size_t n_loads;
    segment *spans;                /* the file bytes they load, each once: sorted, disjoint */
    size_t n_spans;
    uint64_t dynamic_off, dynamic_size;
    uint16_t machine;
    const fc_region *named;        /* sections whose names a container found is given, or none */
    size_t n_named;
} view;

/* The object offset of virtual address VA, or UINT64_MAX; *AVAIL gets the bytes of its
 * segment from there. */
static uint64_t va_to_offset(const view *v, uint64_t va, uint64_t *avail)
{
    for (size_t i = 0; i < v->n_loads; i++) {
        const segment *s = &v->loads[i];
        if (va >= s->vaddr && va - s->vaddr < s->filesz) {
            *avail = s->filesz - (va - s->vaddr);
            return s->offset + (va - s->vaddr);
        }
    }
    *avail = 0;
    return UINT64_MAX;
}

static bool map_to_offset(const void *ctx, uint64_t va, uint64_t *off, uint64_t *avail, const char **section)
{
    const view *v = ctx;
    *section = NULL;
    if ((*off = va_to_offset(v, va, avail)) == UINT64_MAX)
        return false;
    for (size_t i = 0; i < v->n_named; i++)
        if (*off >= v->named[i].offset && *off - v->named[i].offset < v->named[i].size)
            *section = v->named[i].section;
    return true;
}

/* The address the object offset OFF loads at (through the first segment holding it). */
static uint64_t offset_to_va(const view *v, uint64_t off)
{
    for (size_t i = 0; i < v->n_loads; i++)
        if (off >= v->loads[i].offset && off - v->loads[i].offset < v->loads[i].filesz)
            return v->loads[i].vaddr + (off - v->loads[i].offset);
    return 0;
}

static int cmp_offset(const void *a, const void *b)
{
    uint64_t x = ((const segment *)a)->offset, y = ((const segment *)b)->offset;
    return x < y ? -1 : x > y;
}

/* Reads the PT_LOAD and PT_DYNAMIC headers. What cannot be read, or is past PT_LOAD_MAX, is
 * B's error: the code there would not be looked for. False when no segment is loaded. */
static bool read_program_headers(fc_builder *b, Elf *elf, view *v)
{
    size_t n, n_loads = 0;
    if (elf_getphdrnum(elf, &n) != 0) {
        fc_builder_fail(b, FC_ERR_FORMAT, "program headers cannot be read: %s", elf_errmsg(-1));
        return false;
    }
    if (!(v->loads = malloc((n < PT_LOAD_MAX ? n : PT_LOAD_MAX) * sizeof *v->loads + 1))) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) {
            GElf_Ehdr eh;
            bool header = gelf_getehdr(elf, &eh) != NULL;
            fc_builder_fail(b, FC_ERR_FORMAT, "program header table (%u entries at offset 0x%llx) cannot be read from "
                            "entry %zu on (%s): what those segments load was not searched for CUDA code",
                            header ? eh.e_phnum : 0, header ? (unsigned long long)eh.e_phoff : 0ull, i, elf_errmsg(-1));
            break;
        }
        if (ph.p_type == PT_LOAD)
            n_loads++;
        if (ph.p_offset >= v->size || ph.p_filesz == 0)
            continue;
        uint64_t filesz = ph.p_filesz < v->size - ph.p_offset ? ph.p_filesz : v->size - ph.p_offset;
        if (ph.p_type == PT_LOAD && v->n_loads < PT_LOAD_MAX)
            v->loads[v->n_loads++] = (segment){ph.p_vaddr, ph.p_offset, filesz};
        else if (ph.p_type == PT_DYNAMIC) {
            v->dynamic_off = ph.p_offset;
            v->dynamic_size = filesz < DYNAMIC_MAX ? filesz : DYNAMIC_MAX;
        }
    }
    if (n_loads > PT_LOAD_MAX)
        fc_builder_fail(b, FC_ERR_LIMIT, "%zu loadable segments (PT_LOAD), more than the %u read: the others were "
                        "not searched for CUDA code", n_loads, PT_LOAD_MAX);
    /* Segments may name the same bytes (a hostile file: thousands of them): each is searched
     * once. */
    if (!v->n_loads)
        return false;
    if (!(v->spans = malloc(v->n_loads * sizeof *v->spans))) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return false;
    }
    memcpy(v->spans, v->loads, v->n_loads * sizeof *v->spans);
    qsort(v->spans, v->n_loads, sizeof *v->spans, cmp_offset);
    for (size_t i = 0; i < v->n_loads; i++) {
        segment *last = v->n_spans ? &v->spans[v->n_spans - 1] : NULL;
        const segment s = v->spans[i];
        if (last && s.offset <= last->offset + last->filesz) {
            if (s.offset + s.filesz > last->offset + last->filesz)
                last->filesz = s.offset + s.filesz - last->offset;
        } else {
            v->spans[v->n_spans++] = s;
        }
    }
    return true;
}

/* Bytes [OFF, OFF + LEN) of the object (LEN at most DYNAMIC_MAX), copied into a new buffer;
 * NULL on failure, B failed when for want of memory. */
static uint8_t *read_range(fc_builder *b, const view *v, uint64_t off, uint64_t len)
{
    uint8_t *p = malloc(len ? (size_t)len : 1);
    fc_reader r;
    size_t got;
    if (!p || !fc_image_reader(v->img, v->base, off, off + len, FC_READER_MIN_CAP, &r)) {
        free(p);
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    const uint8_t *q = fc_reader_get(&r, off, (size_t)len, &got);
    bool ok = q && got >= len;
    if (ok)
        memcpy(p, q, (size_t)len);
    fc_reader_free(&r);
    if (!ok) {
        free(p);
        return NULL;
    }
    return p;
}

/* Appends the records found by searching the loaded bytes for their magic at 8-byte aligned
 * addresses. Like the records of a table, each must lead to a container (caller). */
static void search_records(fc_builder *b, const view *v, fc_wrapper **w, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < v->n_spans; i++) {
        const segment *s = &v->spans[i];
        fc_reader r;
        if (!fc_image_reader(v->img, v->base, s->offset, s->offset + s->filesz, 256u << 10, &r)) {
            fc_builder_fail(b, FC_ERR_NOMEM, "out of memory"); /* records unseen: no "device_link" */
            return;
        }
        fc_reader_read_size(&r, 256u << 10);
        uint64_t skew = (8 - offset_to_va(v, s->offset) % 8) % 8; /* the first 8-byte aligned address */
        for (uint64_t at = skew; at + FC_WRAPPER_SIZE <= s->filesz; at += 8) {
            size_t got;
            const uint8_t *p = fc_reader_get(&r, s->offset + at, FC_WRAPPER_SIZE, &got);
            if (!p || got < FC_WRAPPER_SIZE)
                break;
            uint32_t version = fc_rd32(p + 4);
            if (fc_rd32(p) != FC_WRAPPER_MAGIC || (version != 1 && version != 2))
                continue;
            /* at most 2^20 records' room */
            if (*n >= *cap && *cap >= (1u << 19))
                break;
            fc_wrapper *more = fc_grow(*w, cap, *n + 1, sizeof *more, 16);
            if (!more) {
                fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
                break;
            }
            *w = more;
            (*w)[(*n)++] = (fc_wrapper){.offset = s->offset + at, .addr = offset_to_va(v, s->offset + at),
                                        .version = version, .data = fc_rd64(p + 8)};
        }
        fc_reader_free(&r);
    }
}

static int cmp_wrapper_place(const void *a, const void *b)
{
    uint64_t x = ((const fc_wrapper *)a)->addr + 8, y = ((const fc_wrapper *)b)->addr + 8;
    return x < y ? -1 : x > y;
}

uint32_t fc_elf_relative_type(unsigned machine)
{
    return machine == EM_X86_64 ? 8 : machine == EM_AARCH64 ? 1027 : machine == EM_PPC64 ? 22 : 0;
}

/* Records whose address a linker left 0 get it from the R_*_RELATIVE relocation of that
 * place (its addend), found through PT_DYNAMIC's DT_RELA table. */
static void relocate(fc_builder *b, const view *v, fc_wrapper *w, size_t n)
{
    uint32_t relative = fc_elf_relative_type(v->machine);
    bool needed = false;
    for (size_t i = 0; i < n; i++)
        needed |= w[i].data == 0;
    if (!needed || !relative || !v->dynamic_size)
        return;
    uint8_t *dyn = read_range(b, v, v->dynamic_off, v->dynamic_size);
    uint64_t rela = 0, relasz = 0, relaent = RELA_SIZE;
    for (uint64_t k = 0; dyn && k + 16 <= v->dynamic_size; k += 16) {
        uint64_t tag = fc_rd64(dyn + k), val = fc_rd64(dyn + k + 8);
        if (tag == DT_NULL)
            break;
        if (tag == DT_RELA)
            rela = val;
        else if (tag == DT_RELASZ)
            relasz = val;
        else if (tag == DT_RELAENT)
            relaent = val;
    }
    free(dyn);
    uint64_t avail, off = rela ? va_to_offset(v, rela, &avail) : UINT64_MAX;
    if (off == UINT64_MAX || relaent < RELA_SIZE || relaent > 256)
        return;
    if (relasz > avail)
        relasz = avail;
    qsort(w, n, sizeof *w, cmp_wrapper_place);
    fc_reader r;
    if (!fc_image_reader(v->img, v->base, off, off + relasz, 256u << 10, &r)) {
        /* records left without their address: no "device_link" (oom_cli) */
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return;
    }
    fc_reader_read_size(&r, 256u << 10);
    for (uint64_t k = 0; k + RELA_SIZE <= relasz; k += relaent) {
        size_t got;
        const uint8_t *p = fc_reader_get(&r, off + k, RELA_SIZE, &got);
        if (!p || got < RELA_SIZE)
            break;
        uint64_t place = fc_rd64(p), info = fc_rd64(p + 8);
        if ((uint32_t)info != relative)
            continue;
        size_t lo = 0, hi = n; /* the record whose address field is at PLACE */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (w[mid].addr + 8 < place)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n && w[lo].addr + 8 == place && w[lo].data == 0)
            w[lo].data = fc_rd64(p + 16);
    }
    fc_reader_free(&r);
}

/* Searches every loaded segment for containers not found yet, adding them with ORIGIN. */
static void search_segments(fc_builder *b, const fc_container_index *k, const view *v, fc_origin origin)
{
    fc_builder found;
    if (fc_builder_init(&found, b->opts, b->obj.path, b->obj.member, b->label) != FC_OK) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory"); /* segments unsearched */
        return;
    }
    for (size_t i = 0; i < v->n_spans; i++) {
        const segment *s = &v->spans[i];
        fc_reader r;
        if (!fc_image_reader(v->img, v->base, s->offset, s->offset + s->filesz, 256u << 10, &r)) {
            fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
            break;
        }
        fc_region g = {.offset = s->offset, .size = s->filesz};
        fc_embedded_search(&found, &r, &g, s->offset, s->offset + s->filesz, s->offset + s->filesz);
        fc_reader_free(&r);
    }
    const fc_object *o = fc_builder_finish(&found);
    if (o->status == FC_ERR_NOMEM) /* what the search found is short: not all there is */
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    uint64_t covered = 0;
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *c = &o->containers[i];
        if (c->offset < covered || fc_container_index_at(k, b, c->offset))
            continue;
        covered = c->offset + c->size;
        /* A cubin kept as data stays one: the program hands it to the driver itself (one
         * that is a container's payload, whole or damaged, is not taken: embedded.c). */
        bool cubin = c->origin == FC_ORIGIN_EMBEDDED_CUBIN;
        if (fc_builder_add_container(b, c->offset, cubin ? c->origin : origin, NULL) != FC_OK)
            break;
        fc_builder_set_container_size(b, c->size);
        if (cubin)
            fc_builder_set_container_role(b, c->role);
        for (size_t e = 0; e < c->n_entries; e++)
            if (fc_builder_add_entry(b, &c->entries[e]) != FC_OK)
                break;
    }
    fc_builder_reset(&found);
}

void fc_elf_unlisted(fc_builder *b, const fc_image *img, uint64_t base, uint64_t size, Elf *elf,
                     const fc_elf_sections *seen)
{
    bool odd = seen->table_missing || seen->registered_unusable || seen->records_unusable;
    if (!odd && !seen->records_size && !seen->records_elsewhere)
        return;
    view v = {.img = img, .base = base, .size = size};
    GElf_Ehdr eh;
    fc_wrapper *w = NULL, *found = NULL; /* the table's records (the caller's), or those found */
    size_t n = 0, cap = 0;
    fc_container_index k = {0};
    if (!gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 || !read_program_headers(b, elf, &v))
        goto done;
    v.machine = eh.e_machine;
    if (seen->records_elsewhere) { /* the section table is sound: the containers are named */
        v.named = seen->data;
        v.n_named = seen->n_data;
    }
    if (seen->records_size || seen->records_elsewhere) {
        if (seen->records_unread)
            goto done;
        w = seen->records;
        n = seen->n_records;
    } else {
        search_records(b, &v, &found, &n, &cap);
        w = found;
    }
    if (odd || seen->records_elsewhere)
        relocate(b, &v, w, n);
    fc_address_map map = {map_to_offset, &v, "every loaded segment"};
    size_t registered = fc_records_follow(b, &k, img, base, w, n, seen->registered, seen->n_registered, &map);
    /* With no section table the data sections were not searched either: search the loaded
     * bytes, where what no record points at is plain data. When no record leads anywhere,
     * nothing tells registered containers from others. */
    if (seen->table_missing || (odd && !registered))
        search_segments(b, &k, &v, registered ? FC_ORIGIN_EMBEDDED : FC_ORIGIN_SEGMENT);
done:
    free(found);
    free(v.loads);
    free(v.spans);
    fc_container_index_free(&k);
}
