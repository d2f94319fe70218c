/* embedded.c - finding containers stored as plain data in ordinary ELF sections.
 *
 * Some libraries keep fat binaries as data and load them themselves (cuFFT 13.0 keeps
 * 23,983 in .ldata, cuBLASLt 383 in .cask_resource). Nothing points at them in a way we can
 * follow, so the sections are searched for the container magic at 4-byte aligned offsets,
 * and every hit is validated by walking its entry headers (fc_fatbin_plausible); a
 * container found is skipped over whole, its payload never read. The search is split into
 * chunks spread over threads, each decoding what it finds into a builder of its own. With
 * a file, bytes are read with pread (reader.c) rather than through the mapping, so that
 * scanning hundreds of megabytes neither faults every page in nor grows the resident set.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "internal.h"

#define CHUNK_SIZE (8u << 20)  /* work unit handed to a thread */
#define WINDOW_SIZE (256u << 10) /* the most one read takes: fits in L2 */
#define MAX_THREADS 64
/* Workers need little stack. A small one also keeps the kernel from backing it with a
 * transparent huge page, which would add 2 MiB of resident memory per thread. */
#define WORKER_STACK (256u << 10)

typedef struct chunk {
    const fc_region *region;
    uint64_t start, end;   /* image offsets to search; a container may run past end */
    fc_builder found;      /* what this chunk decoded */
    bool ready;            /* found is initialised */
    bool searched;         /* taken by a thread already */
    int error;             /* errno of a failed read, or -1 when out of memory */
} chunk;

typedef struct job {
    const fc_image *img;
    const fc_builder *parent;
    uint64_t offset_base;
    chunk *chunks;
    size_t n_chunks;
    size_t next;           /* next chunk to take */
    pthread_mutex_t lock;
} job;

/* Index of the first 4-byte word equal to the magic in P[0..4 * n_words), or n_words. The
 * blocks of sixteen compare without branches, which compilers turn into vector code. */
static size_t find_magic(const uint8_t *p, size_t n_words)
{
    size_t i = 0;
    for (; i + 16 <= n_words; i += 16) {
        unsigned hit = 0;
        for (size_t k = 0; k < 16; k++)
            hit |= fc_rd32(p + 4 * (i + k)) == FC_FATBIN_MAGIC;
        if (hit)
            break;
    }
    for (; i < n_words; i++)
        if (fc_rd32(p + 4 * i) == FC_FATBIN_MAGIC)
            return i;
    return n_words;
}

static void search_chunk(job *j, chunk *c)
{
    c->searched = true;
    const fc_region *reg = c->region;
    /* Offsets from here on are the object's (archive members start at offset_base). */
    uint64_t lo = reg->offset - j->offset_base, hi = lo + reg->size;
    uint64_t pos = (c->start - j->offset_base + 3) & ~(uint64_t)3, end = c->end - j->offset_base;
    fc_reader r;
    bool reader = fc_image_reader(j->img, j->offset_base, lo, hi, WINDOW_SIZE, &r);
    if (!reader || fc_builder_init(&c->found, j->parent->opts, j->parent->obj.path, j->parent->obj.member,
                                   j->parent->label) != FC_OK) {
        c->error = -1;
        fc_reader_free(&r);
        return;
    }
    c->ready = true;
    fc_builder_where(&c->found, reg->section, lo);
    fc_reader_read_size(&r, WINDOW_SIZE);
    while (pos + 4 <= end) {
        size_t got;
        const uint8_t *p = fc_reader_get(&r, pos, 4, &got);
        if (!p || got < 4) { /* a failed read, or a file cut short under us */
            c->error = r.error ? r.error : EIO;
            break;
        }
        uint64_t stop = end < pos + got ? end : pos + got;
        size_t words = (size_t)((stop - pos) / 4);
        size_t at = find_magic(p, words);
        if (at == words) {
            /* Plain data: read on in ever larger blocks. */
            pos += (uint64_t)words * 4;
            fc_reader_read_size(&r, 2 * r.read_size);
            continue;
        }
        uint64_t hit = pos + (uint64_t)at * 4;
        uint64_t len = 0, used = 0;
        if (fc_fatbin_plausible(&r, hit, hi - hit, &len) &&
            fc_fatbin_decode_one(&c->found, &r, hit, len, FC_ORIGIN_EMBEDDED, reg->section, &used) == FC_OK) {
            /* Skip the container's payload unread; another container often follows at
             * once, so the next read is small. */
            pos = (hit + len + 3) & ~(uint64_t)3;
            fc_reader_read_size(&r, FC_READER_SMALL_READ);
        } else {
            if (c->found.obj.error || r.error) { /* out of memory, over a limit, or unreadable */
                c->error = r.error;
                break;
            }
            pos = hit + 4;
        }
    }
    fc_reader_free(&r);
}

static void *worker(void *arg)
{
    job *j = arg;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->lock);
        if (i >= j->n_chunks)
            return NULL;
        if (!j->chunks[i].searched)
            search_chunk(j, &j->chunks[i]);
    }
}

static unsigned thread_count(const fc_options *opts, size_t n_chunks)
{
    long n = opts->threads ? (long)opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;
    if ((size_t)n > n_chunks)
        n = (long)n_chunks;
    return (unsigned)n;
}

/* Moves chunk C's containers into B, skipping any that start inside one already taken
 * (a container found at the end of one chunk covers the start of the next). */
static fc_status merge(fc_builder *b, chunk *c, uint64_t *covered)
{
    if (c->error)
        return fc_builder_fail(b, c->error < 0 ? FC_ERR_NOMEM : FC_ERR_IO,
                               "%s: could not be searched for embedded containers: %s", c->region->section,
                               c->error < 0 ? "out of memory" : strerror(c->error));
    const fc_object *o = fc_builder_finish(&c->found);
    for (size_t i = 0; i < o->n_containers; i++) {
        const fc_container *src = &o->containers[i];
        if (src->offset < *covered)
            continue;
        *covered = src->offset + src->size;
        fc_status st = fc_builder_add_container(b, src->offset, src->origin, src->section);
        if (st != FC_OK)
            return st;
        fc_builder_set_container_size(b, src->size);
        for (size_t k = 0; k < src->n_entries; k++)
            if ((st = fc_builder_add_entry(b, &src->entries[k])) != FC_OK)
                return st;
    }
    if (o->error)
        return fc_builder_fail(b, o->status, "%s", o->error + strlen(b->label) + (*b->label ? 2 : 0));
    return FC_OK;
}

struct fc_embedded_search {
    job j;
    chunk *chunks;
    pthread_t tids[MAX_THREADS];
    unsigned started;
};

/* In FC_EMBEDDED_AUTO mode a section is searched in full only when its first bytes
 * (opts->embedded_probe_size) hold a container: cuFFT's first is 6 KB into .ldata,
 * cuSPARSE's 44 KB into .rodata. The exception is .cask_resource, where NVIDIA's CASK
 * kernel libraries keep their resources: it is always searched, because cuDNN 9's first
 * container there is 2.2 MB in (cuBLASLt's is at the start). */
static bool always_searched(const char *section)
{
    return section && strcmp(section, ".cask_resource") == 0;
}

static int cmp_chunk(const void *a, const void *b)
{
    const chunk *x = *(const chunk *const *)a, *y = *(const chunk *const *)b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Appends chunks covering [from, region end) of R to CHUNKS. */
static size_t add_chunks(chunk *chunks, size_t k, const fc_region *r, uint64_t from)
{
    uint64_t end = r->offset + r->size;
    for (uint64_t at = from; at < end; at += CHUNK_SIZE, k++) {
        memset(&chunks[k], 0, sizeof chunks[k]);
        chunks[k].region = r;
        chunks[k].start = at;
        chunks[k].end = end - at < CHUNK_SIZE ? end : at + CHUNK_SIZE;
    }
    return k;
}

fc_embedded_search *fc_embedded_start(fc_builder *b, const fc_image *img, uint64_t offset_base,
                                      const fc_region *regions, size_t n_regions)
{
    size_t most = n_regions;
    for (size_t r = 0; r < n_regions; r++)
        most += (size_t)((regions[r].size + CHUNK_SIZE - 1) / CHUNK_SIZE);
    if (!n_regions || b->opts->embedded == FC_EMBEDDED_NONE)
        return NULL;
    fc_embedded_search *s = calloc(1, sizeof *s);
    chunk *chunks = calloc(most, sizeof *chunks);
    if (!s || !chunks) {
        free(s);
        free(chunks);
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->j = (job){.img = img, .parent = b, .offset_base = offset_base, .chunks = chunks};
    size_t k = 0;
    if (b->opts->embedded == FC_EMBEDDED_ALL) {
        for (size_t r = 0; r < n_regions; r++)
            k = add_chunks(chunks, k, &regions[r], regions[r].offset);
    } else {
        /* First look at the head of each section, here; the rest of a section is searched
         * (by the helpers) only where the head held a container. */
        for (size_t r = 0; r < n_regions; r++) {
            const fc_region *reg = &regions[r];
            if (always_searched(reg->section)) {
                k = add_chunks(chunks, k, reg, reg->offset);
                continue;
            }
            uint64_t probe = b->opts->embedded_probe_size;
            uint64_t head = reg->size < probe ? reg->size : probe;
            chunks[k] = (chunk){.region = reg, .start = reg->offset, .end = reg->offset + head};
            search_chunk(&s->j, &chunks[k]);
            bool found = chunks[k].ready && chunks[k].found.obj.n_containers > 0;
            k++;
            if (found && head < reg->size)
                k = add_chunks(chunks, k, reg, reg->offset + head);
        }
    }
    s->j.n_chunks = k;
    pthread_mutex_init(&s->j.lock, NULL);
    /* Helpers start now; the caller joins in from fc_embedded_finish, after its own work. */
    unsigned nt = thread_count(b->opts, k);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, WORKER_STACK);
    for (unsigned t = 1; t < nt; t++)
        if (pthread_create(&s->tids[s->started], &attr, worker, &s->j) == 0)
            s->started++;
    pthread_attr_destroy(&attr);
    s->chunks = chunks;
    return s;
}

fc_status fc_embedded_finish(fc_embedded_search *s, fc_builder *b)
{
    if (!s)
        return b->obj.status;
    worker(&s->j); /* take what is left; without helpers, everything */
    for (unsigned t = 0; t < s->started; t++)
        pthread_join(s->tids[t], NULL);
    pthread_mutex_destroy(&s->j.lock);
    /* In file order (heads were searched first: order pointers, not the builders, which
     * point into themselves), and merged even after a problem in a registered section:
     * what was found still holds. */
    chunk **order = malloc((s->j.n_chunks ? s->j.n_chunks : 1) * sizeof *order);
    fc_status st = order ? FC_OK : fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    for (size_t c = 0; order && c < s->j.n_chunks; c++)
        order[c] = &s->chunks[c];
    if (order)
        qsort(order, s->j.n_chunks, sizeof *order, cmp_chunk);
    uint64_t covered = 0;
    for (size_t c = 0; order && c < s->j.n_chunks; c++)
        if (st == FC_OK)
            st = merge(b, order[c], &covered);
    for (size_t c = 0; c < s->j.n_chunks; c++)
        if (s->chunks[c].ready)
            fc_builder_reset(&s->chunks[c].found);
    free(order);
    free(s->chunks);
    free(s);
    return st != FC_OK ? st : b->obj.status;
}
