/* sections.c - decoding one ELF object's container sections on several threads.
 *
 * A registered section (.nv_fatbin, __nv_relfatbin) holds containers back to back: a chain
 * whose every link is known only from the one before, read a header at a time. When the
 * registration table says where containers start (elf.c), the section is cut into segments;
 * each segment after the first takes the first start the table gives inside it and walks
 * the chain from there to the segment's end. The merge then follows the chain from the
 * section's start: a segment whose start is where the chain before it stopped is taken
 * whole; any other is decoded again from that point on the calling thread. So the result is
 * always what one thread walking the chain would find, and a table that lies only costs
 * time.
 *
 * Data sections are searched for embedded containers and PTX kept as text (embedded.c) as
 * part of the same work: in FC_EMBEDDED_AUTO mode the head of each is searched first, and the
 * rest only when the head held one; the sections left so are counted in the object.
 */
#include <pthread.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "image.h"
#include "input.h"
#include "pool.h"
#include "reader.h"

#define SEGMENT_SIZE (4u << 20)   /* a registered section is walked in pieces of this size */
#define CHUNK_SIZE (8u << 20)     /* a data section is searched in pieces of this size */
#define SEARCH_BUFFER (256u << 10)
/* Items planned, run, merged and freed at a time (decode_sections). */
#define BATCH_ITEMS 4096u
/* Objects with less to read than this are done on the calling thread alone. */
#define ALONE_BELOW (1u << 20)

typedef enum item_kind { ITEM_WALK, ITEM_PROBE, ITEM_SEARCH } item_kind;

typedef struct item {
    item_kind kind;
    const fc_region *region;
    uint64_t start, end;   /* object offsets: where a walk's containers start, or the range searched */
    uint64_t text_end;     /* a search: PTX kept as text is looked for below this */
    fc_builder *found;     /* what this item decoded; NULL before it ran, or when nothing */
    int error;             /* errno of a failed read, or -1 when out of memory */
    uint64_t first, next;  /* a walk: where it starts (UINT64_MAX: nowhere), where it stopped */
    bool head_only;        /* a probe whose head held nothing: the rest of its region is not searched */
} item;

typedef struct plan {
    const fc_image *img;
    uint64_t base;
    const fc_builder *parent;
    item *items;
    size_t n, cap;         /* items planned, and room for every one a probe could add */
    size_t next;           /* the next item to take */
    unsigned active;       /* items being worked on, which may add more */
    pthread_mutex_t lock;
    pthread_cond_t changed;
} plan;

/* Frees what an item found once it is merged: the merged object and the items not yet
 * merged are what the peak holds. */
static void release(item *it)
{
    if (it->found)
        fc_builder_reset(it->found);
    free(it->found);
    it->found = NULL;
}

/* Starts ITEM's builder and a reader of its region with a buffer of CAP bytes. */
static bool item_begin(const plan *pl, item *it, fc_reader *r, size_t cap)
{
    const fc_region *g = it->region;
    const fc_builder *p = pl->parent;
    if (!fc_image_reader(pl->img, pl->base, g->offset, g->offset + g->size, cap, r)) {
        it->error = -1;
        fc_reader_free(r);
        return false;
    }
    if (!(it->found = malloc(sizeof *it->found)) ||
        fc_builder_init(it->found, p->opts, p->obj.path, p->obj.member, p->label) != FC_OK) {
        release(it);
        fc_reader_free(r);
        it->error = -1;
        return false;
    }
    fc_builder_where(it->found, g->section, g->offset);
    return true;
}

/* Frees an item's builder when it found nothing: an object with tens of thousands of small
 * data sections (-fdata-sections) would otherwise hold a builder for each. */
static void keep_if_found(item *it)
{
    if (it->found && !it->found->obj.n_containers && it->found->obj.status == FC_OK)
        release(it);
}

/* The index of the first of the N sorted STARTS at or past AT (N when none is). */
static size_t starts_from(const uint64_t *starts, size_t n, uint64_t at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (starts[mid] < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first of the N sorted STARTS in [from, to), or UINT64_MAX. */
static uint64_t first_start(const uint64_t *starts, size_t n, uint64_t from, uint64_t to)
{
    size_t i = starts_from(starts, n, from);
    return i < n && starts[i] < to ? starts[i] : UINT64_MAX;
}

static void walk(const plan *pl, item *it)
{
    fc_reader r;
    if (it->first == UINT64_MAX || !item_begin(pl, it, &r, FC_READER_MIN_CAP))
        return;
    const fc_region *g = it->region;
    /* Where the records say how many containers start here, their arrays are sized once
     * (two entries a container, as in NVIDIA's libraries) rather than doubled as they fill. */
    size_t n = starts_from(g->starts, g->n_starts, it->end) - starts_from(g->starts, g->n_starts, it->first);
    if (n && n < 65536)
        fc_builder_reserve(it->found, n, 2 * n); /* a hint: the walk grows them if it must */
    fc_fatbin_walk(it->found, &r, it->first, it->end, g->offset + g->size, FC_ORIGIN_SECTION, g->section,
                   &it->next);
    fc_reader_free(&r);
}

/* Appends items searching [from, region end) of G in CHUNK_SIZE pieces, for PTX text too
 * below TEXT_END; the caller holds the lock, or no thread runs yet. */
static void add_searches(plan *pl, const fc_region *g, uint64_t from, uint64_t text_end)
{
    uint64_t end = g->offset + g->size;
    for (uint64_t at = from; at < end && pl->n < pl->cap; at += CHUNK_SIZE)
        pl->items[pl->n++] = (item){.kind = ITEM_SEARCH, .region = g, .start = at,
                                    .end = end - at < CHUNK_SIZE ? end : at + CHUNK_SIZE, .text_end = text_end};
}

static void search(plan *pl, item *it)
{
    fc_reader r;
    if (!item_begin(pl, it, &r, SEARCH_BUFFER))
        return;
    it->error = fc_embedded_search(it->found, &r, it->region, it->start, it->end, it->text_end);
    fc_reader_free(&r);
    keep_if_found(it);
    const fc_region *g = it->region;
    bool held = it->found && it->found->obj.n_containers > 0;
    it->head_only = it->kind == ITEM_PROBE && !held && !it->error && it->end < g->offset + g->size;
    if (it->kind == ITEM_PROBE && held && it->end < g->offset + g->size) {
        /* The rest is searched for what the head held: PTX text is looked for only after PTX
         * text (cuFFT's .ldata holds 23,983 containers and no text). */
        bool text = false;
        for (size_t i = 0; i < it->found->obj.n_containers && !text; i++)
            text = it->found->containers[i].origin == FC_ORIGIN_PTX_TEXT;
        pthread_mutex_lock(&pl->lock);
        add_searches(pl, g, it->end, text ? g->offset + g->size : it->end);
        pthread_cond_broadcast(&pl->changed);
        pthread_mutex_unlock(&pl->lock);
    }
}

/* What each thread runs: items in order until none is left and none being worked on can
 * add more. */
static void work(void *arg)
{
    plan *pl = arg;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        while (pl->next >= pl->n && pl->active > 0)
            pthread_cond_wait(&pl->changed, &pl->lock);
        if (pl->next >= pl->n)
            break;
        item *it = &pl->items[pl->next++];
        pl->active++;
        pthread_mutex_unlock(&pl->lock);
        if (it->kind == ITEM_WALK)
            walk(pl, it);
        else
            search(pl, it);
        pthread_mutex_lock(&pl->lock);
        pl->active--;
        pthread_cond_broadcast(&pl->changed);
    }
    pthread_mutex_unlock(&pl->lock);
}

/* Room in B for everything the items ITEMS[0..n) found, so that merging them grows B once
 * and to size, not by doubling. */
static void reserve_for(fc_builder *b, item *items, size_t n)
{
    size_t containers = 0, entries = 0;
    for (size_t i = 0; i < n; i++)
        if (items[i].found) {
            containers += items[i].found->obj.n_containers;
            entries += items[i].found->n_entries;
        }
    /* Batch after batch, at least double: a million small finds merged in batches must not
     * reallocate the whole object each time. */
    if (containers && containers < b->obj.n_containers)
        containers = b->obj.n_containers;
    if (entries && entries < b->n_entries)
        entries = b->n_entries;
    fc_builder_reserve(b, containers, entries); /* without it, merging grows as it goes */
}

/* Copies container SRC and its entries into B. */
static fc_status copy_container(fc_builder *b, const fc_container *src)
{
    fc_status st = fc_builder_add_container(b, src->offset, src->origin, src->section);
    if (st != FC_OK)
        return st;
    fc_builder_set_container_size(b, src->size);
    fc_builder_set_container_role(b, src->role); /* a relocatable cubin kept as data */
    for (size_t k = 0; k < src->n_entries; k++)
        if ((st = fc_builder_add_entry(b, &src->entries[k])) != FC_OK)
            return st;
    return FC_OK;
}

/* Moves the first problem an item's builder recorded into B. A builder's failure is its
 * status: its message may be missing, when there was no memory to write it (review 7's G4: a
 * walk that ran out of memory was taken for one that found nothing, and a CUDA library was
 * left out of a run unsaid). */
static fc_status copy_failure(fc_builder *b, const fc_object *o)
{
    if (!o->error)
        return fc_builder_fail(b, o->status, "%s", fc_status_name(o->status)); /* "out of memory" */
    /* The message already starts with the label they share. */
    return fc_builder_fail(b, o->status, "%s", o->error + strlen(b->label) + (*b->label ? 2 : 0));
}

/* Follows region G's chain through its segments SEGS[0..n). */
static fc_status merge_walks(const plan *pl, fc_builder *b, const fc_region *g, item *segs, size_t n)
{
    uint64_t cur = g->offset, end = g->offset + g->size;
    fc_reader r;
    bool reader = false;
    fc_status st = FC_OK;
    fc_builder_where(b, g->section, g->offset);
    for (size_t k = 0; k < n && st == FC_OK; k++) {
        item *it = &segs[k];
        if (cur >= it->end) /* a container from before runs over this whole segment */
            continue;
        if (it->found && !it->error && it->first == cur) {
            const fc_object *o = fc_builder_finish(it->found);
            if (!fc_builder_take(b, it->found))
                for (size_t i = 0; i < o->n_containers && st == FC_OK; i++)
                    st = copy_container(b, &o->containers[i]);
            if (st == FC_OK && o->status != FC_OK)
                st = copy_failure(b, o);
            cur = it->next;
            release(it);
            continue;
        }
        /* The guess was wrong, or the segment could not be read: walk it here. */
        if (!reader && !(reader = fc_image_reader(pl->img, pl->base, g->offset, end, FC_READER_MIN_CAP, &r)))
            return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        st = fc_fatbin_walk(b, &r, cur, it->end, end, FC_ORIGIN_SECTION, g->section, &cur);
    }
    if (reader)
        fc_reader_free(&r);
    /* The runtime registers the section whole: what follows the problem is unknown. */
    if (st != FC_OK)
        b->obj.registered_undecoded = true;
    return st;
}

static int cmp_start(const void *a, const void *b)
{
    const item *x = *(const item *const *)a, *y = *(const item *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Adds what the searches found to B in file order, skipping any container that starts
 * inside one already taken (a container found at the end of one chunk covers the start of
 * the next). */
static fc_status merge_searches(fc_builder *b, item **found, size_t n, uint64_t *covered_so_far)
{
    qsort(found, n, sizeof *found, cmp_start);
    uint64_t covered = *covered_so_far;
    for (size_t c = 0; c < n; c++) {
        item *it = found[c];
        if (it->error)
            return fc_builder_fail(b, it->error < 0 ? FC_ERR_NOMEM : FC_ERR_IO,
                                   "%s: could not be searched for embedded containers: %s",
                                   it->region->section ? it->region->section : "the file",
                                   it->error < 0 ? "out of memory" : strerror(it->error));
        if (!it->found)
            continue;
        const fc_object *o = fc_builder_finish(it->found);
        for (size_t i = 0; i < o->n_containers; i++) {
            const fc_container *src = &o->containers[i];
            if (src->offset < covered)
                continue;
            covered = src->offset + src->size;
            *covered_so_far = covered;
            fc_status st = copy_container(b, src);
            if (st != FC_OK)
                return st;
        }
        if (o->status != FC_OK)
            return copy_failure(b, o);
        release(it);
    }
    return FC_OK;
}

/* Whether data region G is searched in full for PTX kept as text, at once. */
static bool text_searched_whole(fc_embedded_mode mode, const fc_region *g)
{
    return mode == FC_EMBEDDED_ALL || g->whole_file || g->search_in_full;
}

/* Whether data region G is searched in full for containers at once, rather than its head
 * first. */
static bool searched_whole(fc_embedded_mode mode, const fc_region *g)
{
    return text_searched_whole(mode, g) || fc_embedded_always_searched(g->section) ||
           (mode == FC_EMBEDDED_AUTO && g->pointed_at);
}

/* ---- Section tables that name the same bytes twice -------------------------------------
 * Linkers never let sections overlap, but a broken or hostile section table may name the
 * same bytes twice (a second .nv_fatbin header), or overlapping ones: read as they are,
 * their containers would be counted twice. Each byte is read once: a registered section
 * that overlaps one starting before it (or at the same place and listed before it) is
 * left out, and so is a data section that overlaps a registered section or an earlier data
 * section. The first one left out is said, after decoding, unless decoding found worse. */

typedef struct order_ctx {
    const fc_region *r;
} order_ctx;

static int cmp_by_offset(const void *a, const void *b, void *arg)
{
    const fc_region *r = ((const order_ctx *)arg)->r;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (r[i].offset != r[j].offset)
        return r[i].offset < r[j].offset ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Indices of R[0..n) in the order of their offsets (ties: table order); NULL when out of
 * memory. Section tables are nearly always in offset order already. */
static size_t *offset_order(const fc_region *r, size_t n)
{
    size_t *o = malloc((n ? n : 1) * sizeof *o);
    if (!o)
        return NULL;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        o[i] = i;
        sorted &= i == 0 || r[i - 1].offset <= r[i].offset;
    }
    if (!sorted)
        qsort_r(o, n, sizeof *o, cmp_by_offset, &(order_ctx){r});
    return o;
}

static void say_left_out(char *note, size_t size, const fc_region *out, const fc_region *kept)
{
    if (*note)
        return;
    bool same = out->offset == kept->offset && out->size == kept->size;
    snprintf(note, size,
             same ? "the section table names the bytes of section %s (offset 0x%llx, %llu bytes) again, as %s: "
                    "they were read once"
                  : "section %4$s (offset 0x%5$llx, %6$llu bytes) overlaps section %1$s (offset 0x%2$llx, %3$llu "
                    "bytes) in the file: it was not read",
             kept->section ? kept->section : "?", (unsigned long long)kept->offset, (unsigned long long)kept->size,
             out->section ? out->section : "?", (unsigned long long)out->offset, (unsigned long long)out->size);
}

/* Sets KEEP[i] for the regions R[0..n) that overlap no earlier one of them, nor one of the
 * KEPT_N regions BEFORE (disjoint, in BEFORE_ORDER). Returns how many were left out, or
 * SIZE_MAX when out of memory; ORDER gets R's offset order (the caller frees it). */
static size_t mark_overlaps(const fc_region *r, size_t n, const fc_region *before, const size_t *before_order,
                            size_t before_n, bool *keep, size_t **order, char *note, size_t note_size)
{
    if (!(*order = offset_order(r, n)))
        return SIZE_MAX;
    size_t dropped = 0, b = 0, last = SIZE_MAX; /* last: the kept region reaching furthest */
    uint64_t reach = 0;
    for (size_t k = 0; k < n; k++) {
        const fc_region *g = &r[(*order)[k]];
        uint64_t end = g->offset + g->size;
        while (b < before_n && before[before_order[b]].offset + before[before_order[b]].size <= g->offset)
            b++;
        const fc_region *hit = NULL;
        if (last != SIZE_MAX && g->offset < reach)
            hit = &r[last];
        else if (b < before_n && before[before_order[b]].offset < end)
            hit = &before[before_order[b]];
        keep[(*order)[k]] = !hit;
        if (hit) {
            dropped++;
            say_left_out(note, note_size, g, hit);
        } else if (last == SIZE_MAX || end > reach) {
            reach = end;
            last = (*order)[k];
        }
    }
    return dropped;
}

/* Copies the regions R[0..n) that KEEP says into a new array (N_KEPT of them). */
static fc_region *kept_copy(const fc_region *r, size_t n, const bool *keep, size_t n_kept)
{
    fc_region *out = malloc((n_kept ? n_kept : 1) * sizeof *out);
    for (size_t i = 0, k = 0; out && i < n; i++)
        if (keep[i])
            out[k++] = r[i];
    return out;
}

fc_pool *fc_scan_pool(fc_scan_ctx *sc, unsigned threads)
{
    if (!sc->pool && !sc->pool_failed && threads > 1)
        sc->pool_failed = !(sc->pool = fc_pool_new(threads - 1));
    return sc->pool;
}

/* Room for the items of data region G: its head's, and the chunks of the rest should the
 * head hold a container; or, searched whole, its chunks. Adds what is read first to *BYTES. */
static size_t region_items(const fc_options *opts, const fc_region *g, bool whole, uint64_t *bytes)
{
    if (whole) {
        *bytes += g->size;
        return (size_t)((g->size + CHUNK_SIZE - 1) / CHUNK_SIZE);
    }
    uint64_t head = g->size < opts->embedded_probe_size ? g->size : opts->embedded_probe_size;
    *bytes += head;
    return 1 + (size_t)((g->size - head + CHUNK_SIZE - 1) / CHUNK_SIZE);
}

static void decode_sections(fc_scan_ctx *sc, fc_builder *b, const fc_image *img, uint64_t base,
                            const fc_region *fatbins, size_t n_fatbins, const fc_region *data, size_t n_data)
{
    const fc_options *opts = b->opts;
    unsigned threads = fc_thread_count(opts);
    bool split = threads > 1;
    fc_embedded_mode mode = opts->embedded;
    if (mode == FC_EMBEDDED_NONE)
        n_data = 0;
    if (!n_fatbins && !n_data)
        return;
    size_t *order = offset_order(data, n_data);
    if (!order) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return;
    }
    /* PTX kept as text is looked for in the heads of an object's data sections only when it
     * registers no code with the runtime: a library that does (every large CUDA library)
     * loads its kernels so, and its summary costs no more for the search. --embedded, and
     * needing libcuda.so (search_in_full), look everywhere. */
    bool text_heads = n_fatbins == 0;
    /* The work is done in batches of about BATCH_ITEMS items, each merged and freed before
     * the next: an object with a million data sections, each holding a container, held a
     * builder for each until one merge at the end (1.10 GiB for 300,000). The registered
     * sections' walks come in the first batch, and the data sections (disjoint by now) in
     * file order, so that merging batch after batch gives what one merge of all would. */
    uint64_t covered = 0;     /* where the last embedded container merged ends */
    size_t next = 0;          /* the next data region to plan, in ORDER */
    unsigned helpers = 0;
    fc_status searched = FC_OK; /* merging the searches stops at their first problem */
    for (bool first = true; searched == FC_OK && (first || next < n_data); first = false) {
        size_t cap = 0, last = next;
        uint64_t bytes = 0;
        for (size_t i = 0; first && i < n_fatbins; i++) {
            cap += split && fatbins[i].starts ? (size_t)(fatbins[i].size / SEGMENT_SIZE) + 1 : 1;
            bytes += fatbins[i].size / 16; /* headers are a small part of what a walk spans */
        }
        for (; last < n_data; last++) {
            const fc_region *g = &data[order[last]];
            uint64_t more_bytes = 0;
            size_t more = region_items(opts, g, searched_whole(mode, g), &more_bytes);
            if (cap && cap + more > BATCH_ITEMS)
                break;
            cap += more;
            bytes += more_bytes;
        }
        if (!cap)
            break;
        plan pl = {.img = img, .base = base, .parent = b, .cap = cap};
        if (!(pl.items = calloc(cap, sizeof *pl.items))) {
            fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
            break;
        }
        for (size_t i = 0; first && i < n_fatbins; i++) {
            const fc_region *g = &fatbins[i];
            /* Without the registration table's hints the chain is walked in one piece. */
            uint64_t end = g->offset + g->size, step = split && g->starts ? SEGMENT_SIZE : g->size;
            for (uint64_t at = g->offset;; at += step) {
                bool at_end = end - at <= step;
                item *it = &pl.items[pl.n++];
                *it = (item){.kind = ITEM_WALK, .region = g, .start = at, .end = at_end ? end : at + step};
                it->first = at == g->offset ? at : first_start(g->starts, g->n_starts, at, it->end);
                if (at_end)
                    break;
            }
        }
        size_t n_walks = pl.n;
        for (; next < last; next++) {
            const fc_region *g = &data[order[next]];
            if (searched_whole(mode, g)) {
                /* .cask_resource (NVIDIA's kernel resources, no text): its containers
                 * everywhere, PTX text only when every section is searched for it. */
                add_searches(&pl, g, g->offset, text_searched_whole(mode, g) ? g->offset + g->size : g->offset);
            } else {
                uint64_t head = g->size < opts->embedded_probe_size ? g->size : opts->embedded_probe_size;
                pl.items[pl.n++] = (item){.kind = ITEM_PROBE, .region = g, .start = g->offset,
                                          .end = g->offset + head, .text_end = g->offset + (text_heads ? head : 0)};
            }
        }
        pthread_mutex_init(&pl.lock, NULL);
        pthread_cond_init(&pl.changed, NULL);
        unsigned h = bytes >= ALONE_BELOW ? threads - 1 : 0;
        if (h > cap - 1)
            h = (unsigned)(cap - 1);
        fc_pool_run(h ? fc_scan_pool(sc, threads) : NULL, work, &pl, h);
        pthread_cond_destroy(&pl.changed);
        pthread_mutex_destroy(&pl.lock);
        helpers |= h;

        /* Registered sections first, each along its chain; then what the searches found. */
        reserve_for(b, pl.items, pl.n);
        size_t k = 0;
        fc_status st = FC_OK;
        while (k < n_walks && st == FC_OK) {
            size_t n = 1;
            while (k + n < n_walks && pl.items[k + n].region == pl.items[k].region)
                n++;
            st = merge_walks(&pl, b, pl.items[k].region, pl.items + k, n);
            k += n;
        }
        item **found = malloc((pl.n - n_walks + 1) * sizeof *found);
        if (!found) {
            searched = fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        } else {
            for (size_t i = n_walks; i < pl.n; i++)
                found[i - n_walks] = &pl.items[i];
            /* Embedded containers are merged even after a problem in a registered section:
             * what was found still holds. */
            searched = merge_searches(b, found, pl.n - n_walks, &covered);
            free(found);
        }
        for (size_t i = 0; i < pl.n; i++) {
            b->obj.sections_searched_in_part += pl.items[i].head_only;
            release(&pl.items[i]);
        }
        free(pl.items);
    }
    free(order);
#ifdef __GLIBC__
    /* What the helpers allocated was freed here, into their own arenas, where glibc keeps
     * it: hand those pages back, or each file's leftovers pile up under the next one's. */
    if (helpers)
        malloc_trim(0);
#endif
}

void fc_decode_sections(fc_scan_ctx *sc, fc_builder *b, const fc_image *img, uint64_t base,
                        const fc_region *fatbins, size_t n_fatbins, const fc_region *data, size_t n_data)
{
    if (b->opts->embedded == FC_EMBEDDED_NONE)
        n_data = 0;
    char note[600] = "";
    size_t *fatbin_order = NULL, *data_order = NULL;
    bool *keep = malloc((n_fatbins + n_data + 1) * sizeof *keep);
    size_t out_fatbins = keep ? mark_overlaps(fatbins, n_fatbins, NULL, NULL, 0, keep, &fatbin_order, note,
                                              sizeof note)
                              : SIZE_MAX;
    fc_region *kept_fatbins = NULL, *kept_data = NULL;
    if (out_fatbins != SIZE_MAX && out_fatbins &&
        !(kept_fatbins = kept_copy(fatbins, n_fatbins, keep, n_fatbins - out_fatbins)))
        out_fatbins = SIZE_MAX;
    /* Data is checked against the registered sections that stay, in offset order. */
    size_t *kept_order = NULL;
    size_t n_kept = out_fatbins == SIZE_MAX ? 0 : n_fatbins - out_fatbins;
    if (out_fatbins != SIZE_MAX && !(kept_order = offset_order(kept_fatbins ? kept_fatbins : fatbins, n_kept)))
        out_fatbins = SIZE_MAX;
    size_t out_data = out_fatbins == SIZE_MAX ? SIZE_MAX
                                              : mark_overlaps(data, n_data, kept_fatbins ? kept_fatbins : fatbins,
                                                              kept_order, n_kept, keep + n_fatbins, &data_order,
                                                              note, sizeof note);
    if (out_data != SIZE_MAX && out_data &&
        !(kept_data = kept_copy(data, n_data, keep + n_fatbins, n_data - out_data)))
        out_data = SIZE_MAX;
    free(fatbin_order);
    free(data_order);
    free(kept_order);
    free(keep);
    if (out_data == SIZE_MAX) {
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    } else {
        decode_sections(sc, b, img, base, kept_fatbins ? kept_fatbins : fatbins, n_kept,
                        kept_data ? kept_data : data, n_data - out_data);
        if (*note)
            fc_builder_fail(b, FC_ERR_FORMAT, "%s", note); /* kept only if nothing worse came first */
    }
    free(kept_fatbins);
    free(kept_data);
}
