/* elf_pointers.c - containers kept as data past a section's head, found through the
 * pointers to them.
 *
 * By default a data section is searched whole only when its first MiB holds a container
 * (sections.c, FC_EMBEDDED_AUTO). CUDA 11.8's cuFFT (libcufft.so.10.9.0.58) keeps 22,346
 * containers in .data, the first 2.8 MiB in: none was found, and the file was judged on its
 * 20 registered ones. A library reaches such data through pointers, and in a shared object
 * a pointer is a relative relocation: an R_*_RELATIVE entry whose addend is the address
 * pointed at (22,346 of cuFFT 11.8's 22,348 into .data point at its containers, each
 * 16-aligned), or, packed (SHT_RELR, -z pack-relative-relocs), the word at a listed place.
 * So a section whose head holds none is searched whole when one of the 8-aligned addresses
 * past its head that relative relocations point at holds a container or a cubin.
 *
 * Looking costs a read each (cuBLASLt 13 points at 19,244 such addresses on 1,864 pages: 5-6 ms
 * of its 11 ms summary on dev, read all), so the largest objects are looked at first, up to
 * MAX_CHECKS a file: an address's object reaches the next address pointed at, and a container
 * with its image is kilobytes long where strings and small structures are not (cuFFT 11.8's
 * containers are each 1 KiB or more from the next pointer; of cuBLASLt's 14,875 addresses
 * past the head of .rodata, 54). A library that points at more large objects than that
 * besides one container may still keep it from this look; the file then says how many data
 * sections were searched only in part (JSON), as before. Code that reaches its data
 * PC-relatively, a program linked at a fixed address, and a file that registers no code (the
 * caller's choice) leave containers kept so to --embedded.
 *
 * What it costs is reading the relocations: cuBLASLt 13's .rela.dyn is 8.7 MB, 366,000
 * entries, copied by pread (2.6 ms of CPU on dev; through the mapping it was slower, and on
 * 2026-12-07 too, where an H100 was faster so: docs/performance.md) and sifted (1.9 ms), on
 * the scan's threads in pieces of 1 MiB; then 63,287 addresses sorted (0.9 ms) and 256 looked
 * at (0.4 ms). Its summary on dev went from 11.0-11.5 ms to
 * 14.4-14.9 ms (`perf stat -r 30`; on one thread, 15.7 ms). A hostile file is read no more
 * than its size over all its relocation sections, and looked into in 1,024 data sections at
 * most. What a hostile file can keep from this look (two reviews, 2026-12-02): more than
 * MAX_PIECES relocation pieces, more than MAX_ADDRESSES addresses before duplicates are
 * dropped, data sections more than 4 GiB past the first, and a second pointer into a
 * container, which cuts its object short.
 */
#include <gelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "grow.h"
#include "image.h"
#include "input.h"
#include "pool.h"
#include "prefault.h"
#include "reader.h"

#define RELA_ENTRY 24u
#define MAX_REGIONS 1024u          /* data sections past 1 MiB looked into: real files have a few */
#define MAX_ADDRESSES (1u << 22)   /* addresses kept, 16 MiB at most */
#define MAX_CHECKS 256u           /* addresses looked at, a file */
#define PIECE (1u << 20)          /* bytes of relocations one thread sifts at a time */
#define MAX_PIECES 4096u

/* A data section past whose head pointers are looked for: addresses [lo, hi). */
typedef struct target {
    uint64_t lo, hi;
    fc_region *region;
} target;

typedef struct pointers {
    const fc_image *img;
    uint64_t base, size;
    target *t; /* sorted by lo, disjoint */
    size_t n;
    uint64_t origin; /* the first target's lo: addresses are kept as 32-bit offsets from it */
    uint32_t *a;     /* the 8-aligned addresses pointed at in targets (cuBLASLt 13: 63,292) */
    size_t n_a;
    uint64_t budget; /* bytes of relocation sections still to be read: the file's size */
    bool nomem;      /* an allocation failed: what was looked at is not all there was */
} pointers;

static int cmp_target(const void *x, const void *y)
{
    const target *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The target ADDR falls in, or SIZE_MAX (binary search over the sorted targets). */
static size_t target_of(const pointers *p, uint64_t addr)
{
    if (addr < p->t[0].lo || addr >= p->t[p->n - 1].hi)
        return SIZE_MAX;
    size_t lo = 0, hi = p->n; /* the last target whose lo <= addr */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->t[mid].lo <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return addr < p->t[lo].hi ? lo : SIZE_MAX;
}

/* Addresses kept: 32-bit offsets from the first target's lo. */
typedef struct offsets {
    uint32_t *a;
    size_t n, cap;
    bool nomem; /* an address could not be kept for want of memory */
} offsets;

/* Keeps ADDR in L when it is 8-aligned (kept data is) and falls in a target. */
static void offer(const pointers *p, offsets *l, uint64_t addr)
{
    if (addr % 8 || l->n >= MAX_ADDRESSES || target_of(p, addr) == SIZE_MAX)
        return;
    uint32_t off = (uint32_t)(addr - p->origin);
    if (l->n && l->a[l->n - 1] == off)
        return; /* tables often point at one thing twice in a row */
    uint32_t *more = fc_grow(l->a, &l->cap, l->n + 1, sizeof *more, 1024);
    if (!more) {
        l->nomem = true;
        return;
    }
    l->a = more;
    l->a[l->n++] = off;
}

/* Sorts A (N) through TMP, a byte at a time (glibc's qsort took 2 ms of cuBLASLt's on dev);
 * a byte that is the same in every offset costs one pass over them. */
static void radix_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(a[i] >> shift & 0xff) + 1]++;
        if (count[(a[0] >> shift & 0xff) + 1] == n)
            continue;
        for (unsigned d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            tmp[count[a[i] >> shift & 0xff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* Whether the relocation section SH may still be read: a hostile table may name the same
 * bytes in thousands of headers, so at most the file's size is read over all of them. */
static bool take_budget(pointers *p, const GElf_Shdr *sh)
{
    if (!fc_range_ok(sh->sh_offset, sh->sh_size, p->size) || sh->sh_size > p->budget)
        return false;
    p->budget -= sh->sh_size;
    return true;
}

/* A piece of an SHT_RELA section, sifted by whichever thread takes it. What it finds is kept
 * on the thread's stack and added to the sifting's FOUND a batch at a time, at a place the
 * batch reserves, its pages taken in one call: the threads neither allocate nor grow anything
 * (each malloc, fault and arena growth of theirs took the process's memory map lock, and nine
 * pieces on an H100 slowed each other from 0.4 ms to 4.9 ms), and a page of FOUND costs no
 * fault (12 us each on the development VM: prefault.h). */
typedef struct piece {
    uint64_t offset, size; /* whole entries */
} piece;

typedef struct sifting {
    const pointers *p;
    uint32_t type;
    piece *pieces;
    size_t n, next;
    uint32_t *found; /* ROOM: one address per entry sifted (MAX_ADDRESSES at most: those past
                      * it are not kept) and the packed ones; N_FOUND kept, in no order */
    size_t room, n_found;
    pthread_mutex_t lock;
} sifting;

#define SIFT_READ (1365u * RELA_ENTRY) /* 32 KiB of whole entries: one pread, sifted in cache */
#define SIFT_BATCH 4096u               /* addresses kept on the stack before they are added */

/* Adds the N addresses in KEPT to S's FOUND, as many as there is room for. */
static void add_found(sifting *s, const uint32_t *kept, size_t n)
{
    pthread_mutex_lock(&s->lock);
    size_t at = s->n_found;
    if (n > s->room - at)
        n = s->room - at; /* past MAX_ADDRESSES: not looked at */
    s->n_found += n;
    pthread_mutex_unlock(&s->lock);
    if (!n)
        return;
    fc_prefault_part(s->found, s->room * sizeof *kept, s->found + at, n * sizeof *kept);
    memcpy(s->found + at, kept, n * sizeof *kept);
}

/* Every relative relocation's addend in piece PC, kept as offer keeps one. */
static void sift(sifting *s, const piece *pc)
{
    const pointers *p = s->p;
    uint8_t buf[SIFT_READ];
    uint32_t kept[SIFT_BATCH], last = UINT32_MAX;
    size_t n = 0;
    uint64_t lo = p->t[0].lo, hi = p->t[p->n - 1].hi; /* most addends miss every target */
    for (uint64_t k = 0; k < pc->size;) {
        size_t want = pc->size - k < SIFT_READ ? (size_t)(pc->size - k) : SIFT_READ, got;
        const uint8_t *q = fc_image_bytes(p->img, p->base + pc->offset + k, want, buf, &got);
        size_t count = got / RELA_ENTRY; /* none: the file is shorter than it was, said by its reader */
        if (!count)
            break;
        for (size_t e = 0; e < count; e++, q += RELA_ENTRY) {
            uint64_t addr = fc_rd64(q + 16);
            if (addr >= lo && addr < hi && !(addr & 7) && (uint32_t)fc_rd64(q + 8) == s->type &&
                target_of(p, addr) != SIZE_MAX) {
                uint32_t off = (uint32_t)(addr - p->origin);
                if (off == last)
                    continue; /* tables often point at one thing twice in a row */
                last = kept[n++] = off;
                if (n == SIFT_BATCH) {
                    add_found(s, kept, n);
                    n = 0;
                }
            }
        }
        k += (uint64_t)count * RELA_ENTRY;
    }
    if (n)
        add_found(s, kept, n);
}

static void sift_work(void *arg)
{
    sifting *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        size_t i = s->next < s->n ? s->next++ : SIZE_MAX;
        pthread_mutex_unlock(&s->lock);
        if (i == SIZE_MAX)
            return;
        sift(s, &s->pieces[i]);
    }
}

/* Cuts the SHT_RELA section SH into pieces of S, as many as room is left for. */
static void add_pieces(pointers *p, sifting *s, const GElf_Shdr *sh)
{
    if (sh->sh_entsize != RELA_ENTRY || !take_budget(p, sh))
        return;
    uint64_t end = sh->sh_size - sh->sh_size % RELA_ENTRY, step = PIECE - PIECE % RELA_ENTRY;
    for (uint64_t at = 0; at < end && s->n < MAX_PIECES; at += step) {
        uint64_t size = end - at < step ? end - at : step;
        size_t entries = (size_t)(size / RELA_ENTRY);
        s->pieces[s->n++] = (piece){.offset = sh->sh_offset + at, .size = size};
        /* Room for an address from each entry, up to MAX_ADDRESSES: entries that are no
         * relative relocation take none (97 MiB of others before .rela.dyn kept a container
         * from the look: review of 2026-12-07, rv25 5). */
        s->room += entries < MAX_ADDRESSES - s->room ? entries : MAX_ADDRESSES - s->room;
    }
}

/* Sifts the pieces of S on POOL's threads, and adds what they found to ALL (whose addresses
 * from packed relocations come first). */
static void sift_pieces(sifting *s, offsets *all, fc_pool *pool, unsigned threads)
{
    if (!s->n)
        return;
    s->room += all->n; /* FOUND's length from here on */
    if (!(s->found = malloc(s->room * sizeof *s->found))) {
        all->nomem = true;
        return;
    }
    if (all->n)
        memcpy(s->found, all->a, all->n * sizeof *s->found);
    s->n_found = all->n;
    unsigned helpers = s->n > 1 && threads > 1 ? threads - 1 : 0;
    if (helpers > s->n - 1)
        helpers = (unsigned)(s->n - 1);
    fc_pool_run(helpers ? pool : NULL, sift_work, s, helpers);
    free(all->a);
    *all = (offsets){.a = s->found, .n = s->n_found, .cap = s->room, .nomem = all->nomem};
}

/* An allocated section with bytes: where an address lies in the file. */
typedef struct span {
    uint64_t addr, size, offset;
} span;

static int cmp_span(const void *x, const void *y)
{
    const span *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static bool offset_of(const span *s, size_t n, uint64_t addr, uint64_t *off)
{
    if (!n || addr < s[0].addr)
        return false;
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    if (addr - s[lo].addr >= s[lo].size || s[lo].size - (addr - s[lo].addr) < 8)
        return false;
    *off = s[lo].offset + (addr - s[lo].addr);
    return true;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Packed relative relocations (SHT_RELR, gABI): an even word is a place, an odd word a
 * bitmap of the 63 words after the last place. The pointer is the word at each place, read
 * in the places' order (a linker writes them so; a hostile table alternating between two
 * far places cost a 64 KiB read each, 11 s for 48 MiB: review of 2026-12-02, F1). */
static void read_relr(pointers *p, const GElf_Shdr *sh, const span *spans, size_t n_spans, offsets *all)
{
    if (sh->sh_entsize != 8 || !take_budget(p, sh))
        return;
    fc_reader r, words;
    uint64_t *places = NULL, next = 0; /* where the next bitmap's first word is */
    size_t n = 0, cap = 0;
    if (!fc_image_reader(p->img, p->base, sh->sh_offset, sh->sh_offset + sh->sh_size, 256u << 10, &r)) {
        p->nomem = true;
        return;
    }
    fc_reader_read_size(&r, 256u << 10);
    for (uint64_t k = 0; k + 8 <= sh->sh_size && n < MAX_ADDRESSES; k += 8) {
        size_t got;
        const uint8_t *q = fc_reader_get(&r, sh->sh_offset + k, 8, &got);
        if (!q || got < 8)
            break;
        uint64_t w = fc_rd64(q);
        uint64_t *more = fc_grow(places, &cap, n + 63, sizeof *more, 1024);
        if (!more) {
            p->nomem = true;
            break;
        }
        places = more;
        if (!(w & 1)) {
            places[n++] = w;
            next = w + 8;
        } else {
            for (unsigned bit = 1; bit < 64; bit++)
                if (w >> bit & 1)
                    places[n++] = next + (uint64_t)(bit - 1) * 8;
            next += 63 * 8;
        }
    }
    fc_reader_free(&r);
    for (size_t i = 1; i < n; i++)
        if (places[i] < places[i - 1]) {
            qsort(places, n, sizeof *places, cmp_u64);
            break;
        }
    if (n && !fc_image_reader(p->img, p->base, 0, p->size, 64u << 10, &words))
        p->nomem = true;
    else if (n) {
        fc_reader_read_size(&words, 64u << 10);
        for (size_t i = 0; i < n; i++) {
            uint64_t off;
            size_t got;
            const uint8_t *v;
            if ((!i || places[i] != places[i - 1]) && offset_of(spans, n_spans, places[i], &off) &&
                (v = fc_reader_get(&words, off, 8, &got)) && got >= 8)
                offer(p, all, fc_rd64(v));
        }
        fc_reader_free(&words);
    }
    free(places);
}

/* Whether a container or a cubin kept as data stands at address ADDR of region G. */
static bool holds_code(pointers *p, const fc_region *g, uint64_t addr)
{
    uint64_t off = g->offset + (addr - g->addr), end = g->offset + g->size;
    fc_reader r;
    if (!fc_image_reader(p->img, p->base, off, end, FC_READER_MIN_CAP, &r)) {
        p->nomem = true;
        return false;
    }
    bool found = fc_embedded_at(&r, off, end - off);
    fc_reader_free(&r);
    return found;
}

/* An address and how far its object reaches. */
typedef struct sized {
    uint64_t reach, addr;
} sized;

/* Whether A comes before B in the looking order: the larger first, then the lower address
 * (the order is the same on every run). */
static bool before(const sized *a, const sized *b)
{
    return a->reach != b->reach ? a->reach > b->reach : a->addr < b->addr;
}

static int cmp_sized(const void *x, const void *y)
{
    return before(x, y) ? -1 : before(y, x) ? 1 : 0;
}

/* Keeps in HEAP (N of MAX_CHECKS, the last in the looking order at its root) the first
 * MAX_CHECKS of what it is offered (a bounded heap: the review's F2 found a power-of-two
 * bucket in address order passing over a larger object among 255 smaller ones). */
static void keep_first(sized *heap, size_t *n, sized x)
{
    size_t i;
    if (*n < MAX_CHECKS) {
        for (i = (*n)++; i > 0 && before(&heap[(i - 1) / 2], &x); i = (i - 1) / 2)
            heap[i] = heap[(i - 1) / 2];
        heap[i] = x;
        return;
    }
    if (!before(&x, &heap[0]))
        return;
    for (i = 0;;) { /* sift X down from the root */
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(&heap[c], &heap[c + 1]))
            c++;
        if (!before(&x, &heap[c]))
            break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = x;
}

/* Looks at the addresses kept, the objects that reach furthest first (to the next address
 * pointed at, or the section's end), MAX_CHECKS at most, and only objects of 64 bytes or
 * more. */
static void look(pointers *p)
{
    size_t n = 0, kept = 0;
    uint32_t *tmp = p->n_a ? malloc(p->n_a * sizeof *tmp) : NULL;
    sized heap[MAX_CHECKS];
    if (!tmp) {
        p->nomem |= p->n_a > 0;
        goto done;
    }
    fc_prefault(tmp, p->n_a * sizeof *tmp); /* written whole by the sort */
    radix_sort(p->a, tmp, p->n_a);
    for (size_t i = 0; i < p->n_a; i++)
        if (!n || p->a[i] != p->a[n - 1])
            p->a[n++] = p->a[i];
    for (size_t i = 0, t = target_of(p, p->origin + p->a[0]); i < n; i++) {
        uint64_t addr = p->origin + p->a[i], end = p->t[t].hi;
        size_t next = i + 1 < n ? target_of(p, p->origin + p->a[i + 1]) : SIZE_MAX;
        if (next == t)
            end = p->origin + p->a[i + 1];
        if (end - addr >= 64)
            keep_first(heap, &kept, (sized){end - addr, addr});
        t = next;
    }
    qsort(heap, kept, sizeof *heap, cmp_sized);
    for (size_t i = 0; i < kept; i++) {
        fc_region *g = p->t[target_of(p, heap[i].addr)].region;
        if (!g->pointed_at)
            g->pointed_at = holds_code(p, g, heap[i].addr);
    }
done:
    free(tmp);
}

fc_status fc_elf_pointed_regions(const fc_image *img, uint64_t base, uint64_t size, Elf *elf, fc_region *regions,
                                 size_t n_regions, const fc_options *opts, fc_pool *pool, unsigned threads)
{
    GElf_Ehdr eh;
    uint32_t type;
    size_t nsec;
    if (opts->embedded != FC_EMBEDDED_AUTO || !gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || !(type = fc_elf_relative_type(eh.e_machine)) ||
        elf_getshdrnum(elf, &nsec) != 0)
        return FC_OK;
    pointers p = {.img = img, .base = base, .size = size, .budget = size};
    span *spans = NULL;
    size_t n_spans = 0;
    if (!(p.t = malloc(MAX_REGIONS * sizeof *p.t))) /* (each written as it is used) */
        return FC_ERR_NOMEM;
    for (size_t i = 0; i < n_regions && p.n < MAX_REGIONS; i++) {
        fc_region *g = &regions[i];
        if (g->search_in_full || g->whole_file || g->size <= opts->embedded_probe_size ||
            fc_embedded_always_searched(g->section) || g->addr > UINT64_MAX - g->size)
            continue; /* searched whole, or all of it is its head */
        p.t[p.n++] = (target){.lo = g->addr + opts->embedded_probe_size, .hi = g->addr + g->size, .region = g};
    }
    if (!p.n)
        goto done;
    qsort(p.t, p.n, sizeof *p.t, cmp_target);
    for (size_t i = 1; i < p.n; i++)
        if (p.t[i].lo < p.t[i - 1].hi)
            goto done; /* sections that overlap: a broken table, whose data sections.c sorts out */
    p.origin = p.t[0].lo;
    while (p.n && p.t[p.n - 1].hi - p.origin > (uint64_t)UINT32_MAX + 1)
        p.n--; /* beyond 4 GiB of the first: not looked into */
    if (!p.n)
        goto done;
    spans = malloc((nsec ? nsec : 1) * sizeof *spans);
    p.nomem |= !spans;
    for (Elf_Scn *scn = NULL; spans && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (n_spans < nsec && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && sh.sh_type != SHT_NOBITS &&
            fc_range_ok(sh.sh_offset, sh.sh_size, size) && sh.sh_addr <= UINT64_MAX - sh.sh_size)
            spans[n_spans++] = (span){sh.sh_addr, sh.sh_size, sh.sh_offset};
    }
    if (spans)
        qsort(spans, n_spans, sizeof *spans, cmp_span);
    /* Relocation tables run to megabytes (cuBLASLt 13: 8.7 MB): their pieces are sifted on
     * the scan's threads; packed ones (a few kilobytes) here. */
    sifting sift_plan = {.p = &p, .type = type, .pieces = malloc(MAX_PIECES * sizeof(piece))};
    offsets all = {0};
    p.nomem |= !sift_plan.pieces;
    pthread_mutex_init(&sift_plan.lock, NULL);
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
            continue;
        if (sh.sh_type == SHT_RELA && sift_plan.pieces)
            add_pieces(&p, &sift_plan, &sh);
        else if (sh.sh_type == SHT_RELR && spans)
            read_relr(&p, &sh, spans, n_spans, &all);
    }
    sift_pieces(&sift_plan, &all, pool, threads);
    pthread_mutex_destroy(&sift_plan.lock);
    free(sift_plan.pieces);
    p.nomem |= all.nomem;
    p.a = all.a;
    p.n_a = all.n < MAX_ADDRESSES ? all.n : MAX_ADDRESSES;
    look(&p);
done:
    free(spans);
    free(p.a);
    free(p.t);
    return p.nomem ? FC_ERR_NOMEM : FC_OK;
}
