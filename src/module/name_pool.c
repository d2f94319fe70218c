/* name_pool.c - kernel names kept once for all the images of an object (name_pool.h).
 *
 * Names are spread over shards by hash, each with its own lock, table and string arena, so
 * that the kernel view's threads seldom wait for one another. A new name is demangled outside
 * the lock (it is the slow part) and inserted after a second look, in case another thread
 * inserted it meanwhile. */
#include "name_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"

#define MAX_SHARDS 64u
#define FIRST_CHUNK 1024u  /* a shard's first arena block; each next one twice as large ... */
#define CHUNK (64u << 10)  /* ... up to this (more for a longer name) */

typedef struct pooled {
    uint64_t hash;
    const char *name;      /* NULL: an empty slot */
    const char *demangled;
    size_t len;
} pooled;

typedef struct chunk {
    struct chunk *next;
    char bytes[];
} chunk;

typedef struct shard {
    pthread_mutex_t lock;
    pooled *slots;
    size_t n, cap;
    chunk *chunks;
    char *at;              /* free bytes of the newest chunk */
    size_t left;
    size_t next_chunk;     /* the size of the next block */
} shard;

struct fc_name_pool {
    atomic_size_t refs;
    unsigned n_shards;
    shard shards[];
};

/* A key drawn once a process, so that names chosen to share a table's slots cannot be made
 * ahead of time: with a fixed hash, 100,000 PTX names whose hashes agreed in the bits a table
 * indexes by (one name in 1,024 does, for bits 10 to 19) took the default path 42 s, each insert
 * walking one growing cluster (review of 2026-12-05, F1). */
static uint64_t hash_key;
static pthread_once_t hash_key_once = PTHREAD_ONCE_INIT;

static void draw_hash_key(void)
{
    uint64_t k = 0;
    if (getrandom(&k, sizeof k, GRND_NONBLOCK) != (ssize_t)sizeof k) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        k = (uint64_t)t.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)t.tv_sec ^ (uint64_t)getpid() << 32 ^
            (uint64_t)(uintptr_t)&k;
    }
    hash_key = k;
}

/* The last steps of splitmix64: every bit of H reaches every bit of the result, so that
 * tables indexing by the low bits see all of the name. */
static uint64_t mix(uint64_t h)
{
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

uint64_t fc_name_hash(const char *s, size_t n)
{
    pthread_once(&hash_key_once, draw_hash_key);
    uint64_t h = (1469598103934665603ull ^ hash_key) ^ n;
    for (; n >= 8; n -= 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = mix(h ^ w);
    }
    uint64_t tail = 0;
    memcpy(&tail, s, n);
    return mix(h ^ tail ^ (uint64_t)n << 59 ^ hash_key);
}

fc_name_pool *fc_name_pool_new(unsigned shards)
{
    unsigned n = 1;
    while (n < shards && n < MAX_SHARDS)
        n *= 2;
    fc_name_pool *p = calloc(1, sizeof *p + n * sizeof(shard));
    if (!p)
        return NULL;
    atomic_init(&p->refs, 1);
    p->n_shards = n;
    for (unsigned i = 0; i < n; i++) {
        pthread_mutex_init(&p->shards[i].lock, NULL);
        p->shards[i].next_chunk = FIRST_CHUNK;
    }
    return p;
}

fc_name_pool *fc_name_pool_ref(fc_name_pool *p)
{
    atomic_fetch_add(&p->refs, 1);
    return p;
}

void fc_name_pool_unref(fc_name_pool *p)
{
    if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
        return;
    for (unsigned i = 0; i < p->n_shards; i++) {
        shard *s = &p->shards[i];
        for (chunk *c = s->chunks, *next; c; c = next) {
            next = c->next;
            free(c);
        }
        free(s->slots);
        pthread_mutex_destroy(&s->lock);
    }
    free(p);
}

/* N bytes of S's arena (the caller holds its lock); NULL when out of memory. */
static char *arena_take(shard *s, size_t n)
{
    if (n > s->left) {
        size_t size = n > s->next_chunk ? n : s->next_chunk;
        if (s->next_chunk < CHUNK)
            s->next_chunk *= 2;
        chunk *c = size > SIZE_MAX - sizeof *c ? NULL : malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->next = s->chunks;
        s->chunks = c;
        s->at = c->bytes;
        s->left = size;
    }
    char *r = s->at;
    s->at += n;
    s->left -= n;
    return r;
}

static char *arena_copy(shard *s, const char *str, size_t n)
{
    char *c = arena_take(s, n + 1);
    if (c) {
        memcpy(c, str, n);
        c[n] = '\0';
    }
    return c;
}

/* The slot of NAME (hash H), or the empty one where it would go (the caller holds the lock;
 * the table is never full). */
static pooled *slot_of(shard *s, const char *name, size_t len, uint64_t h)
{
    size_t i = (size_t)h & (s->cap - 1);
    for (; s->slots[i].name; i = (i + 1) & (s->cap - 1)) {
        const pooled *e = &s->slots[i];
        if (e->hash == h && e->len == len && memcmp(e->name, name, len) == 0)
            break;
    }
    return &s->slots[i];
}

static bool make_room(shard *s)
{
    if ((s->n + 1) * 2 <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap * 2 : 16;
    pooled *slots = cap > SIZE_MAX / sizeof *slots ? NULL : calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    shard grown = {.slots = slots, .cap = cap};
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].name)
            *slot_of(&grown, s->slots[i].name, s->slots[i].len, s->slots[i].hash) = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

/* Looks NAME up in S; when absent and DM is given (DM_LEN bytes, or NULL for none), adds it.
 * True with *FOUND filled when it is there afterwards. */
static bool look(shard *s, const char *name, size_t len, uint64_t h, bool add, const char *dm, size_t dm_len,
                 pooled *found, bool *ok)
{
    *ok = true;
    pthread_mutex_lock(&s->lock);
    pooled *e = s->cap ? slot_of(s, name, len, h) : NULL;
    bool there = e && e->name;
    if (!there && add) {
        char *kept = NULL, *kept_dm = NULL;
        if (!make_room(s) || !(kept = arena_copy(s, name, len)) || (dm && !(kept_dm = arena_copy(s, dm, dm_len)))) {
            *ok = false; /* the arena's bytes taken are freed with the pool */
        } else {
            e = slot_of(s, name, len, h);
            *e = (pooled){h, kept, kept_dm ? kept_dm : kept, len};
            s->n++;
            there = true;
        }
    }
    if (there)
        *found = *e;
    pthread_mutex_unlock(&s->lock);
    return there;
}

bool fc_name_pool_get(fc_name_pool *p, const char *name, size_t len, fc_demangle_fn demangle, const char **kept,
                      const char **demangled)
{
    uint64_t h = fc_name_hash(name, len);
    shard *s = &p->shards[(h >> 58) & (p->n_shards - 1)];
    pooled got;
    bool ok;
    if (!look(s, name, len, h, false, NULL, 0, &got, &ok)) {
        bool nomem = false;
        char *dm = demangle ? demangle(name, len, &nomem) : NULL;
        if (nomem) /* kept mangled, the name read as if it had no other form (oom22) */
            return false;
        bool there = look(s, name, len, h, true, dm, dm ? strlen(dm) : 0, &got, &ok);
        free(dm);
        if (!there || !ok)
            return false;
    }
    *kept = got.name;
    *demangled = got.demangled;
    return true;
}
