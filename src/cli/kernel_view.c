/* kernel_view.c - working out which kernels have no loadable image on a target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "kernel_view.h"

/* A set of strings (kernel names), open addressing; the strings are not owned. Each slot
 * keeps its name's hash, so that a probe compares names only when the hashes agree:
 * cuBLASLt's kernel names run to hundreds of bytes. */
typedef struct name_set {
    const char **slots;
    uint64_t *hashes;
    size_t *values;       /* index into a side array, for the caller */
    size_t n, cap;
} name_set;

/* FNV-1a over eight bytes at a time: a name is hashed once per pass, not once per probe. */
static uint64_t hash(const char *s)
{
    size_t n = strlen(s);
    uint64_t h = 1469598103934665603ull ^ n;
    for (; n >= 8; n -= 8, s += 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; n; n--)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h ^ (h >> 32);
}

static size_t slot_of(const name_set *s, const char *name, uint64_t h)
{
    size_t i = (size_t)h & (s->cap - 1);
    while (s->slots[i] && (s->hashes[i] != h || strcmp(s->slots[i], name) != 0))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* Returns the slot of NAME (hash H), adding it (with VALUE) when absent; -1 on no memory. */
static long set_put(name_set *s, const char *name, uint64_t h, size_t value, bool *added)
{
    if ((s->n + 1) * 2 > s->cap) {
        name_set b = {NULL, NULL, NULL, 0, s->cap ? s->cap * 2 : 64};
        b.slots = calloc(b.cap, sizeof *b.slots);
        b.hashes = calloc(b.cap, sizeof *b.hashes);
        b.values = calloc(b.cap, sizeof *b.values);
        if (!b.slots || !b.hashes || !b.values) {
            free(b.slots);
            free(b.hashes);
            free(b.values);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i]) {
                size_t k = slot_of(&b, s->slots[i], s->hashes[i]);
                b.slots[k] = s->slots[i];
                b.hashes[k] = s->hashes[i];
                b.values[k] = s->values[i];
            }
        b.n = s->n;
        free(s->slots);
        free(s->hashes);
        free(s->values);
        *s = b;
    }
    size_t i = slot_of(s, name, h);
    *added = !s->slots[i];
    if (*added) {
        s->slots[i] = name;
        s->hashes[i] = h;
        s->values[i] = value;
        s->n++;
    }
    return (long)i;
}

/* The slot holding NAME (hash H), or -1. */
static long set_find(const name_set *s, const char *name, uint64_t h)
{
    if (!s->cap)
        return -1;
    size_t i = slot_of(s, name, h);
    return s->slots[i] ? (long)i : -1;
}

static void set_free(name_set *s)
{
    free(s->slots);
    free(s->hashes);
    free(s->values);
}

const fc_kernel_list *kernel_view_entry(const kernel_view *kv, size_t c, size_t e)
{
    return kv->lists[kv->first[c] + e];
}

static int cmp_missing(const void *a, const void *b)
{
    return strcmp(((const missing_kernel *)a)->demangled, ((const missing_kernel *)b)->demangled);
}

/* Appends ARCH to the space-separated list in BUF, once. */
static void add_arch(char *buf, size_t size, const char *arch)
{
    size_t n = strlen(arch), len = strlen(buf);
    for (const char *p = buf; (p = strstr(p, arch)) != NULL; p += n)
        if ((p == buf || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return;
    if (len + n + 2 < size)
        snprintf(buf + len, size - len, "%s%s", len ? " " : "", arch);
}

static bool missing_for_target(kernel_view *kv, const fc_object *obj, const judgement *j, size_t t)
{
    size_t nt = j->cfg->n_targets;
    name_set provided = {0}, failing = {0};
    bool ok = true;
    /* Kernels that some loadable registered module provides. */
    for (size_t c = 0; c < obj->n_containers && ok; c++) {
        const fc_container *ct = &obj->containers[c];
        fc_load l = j->loads[c * nt + t];
        bool loads = l.result == FC_LOAD_SUCCESS ||
                     (l.result == FC_LOAD_LINK_INPUT && j->links[c * nt + t].via != FC_LINK_VIA_NONE);
        if (!container_registered(ct) || !loads || j->unused[c])
            continue;
        for (size_t e = 0; e < ct->n_entries && ok; e++) {
            const fc_kernel_list *kl = kernel_view_entry(kv, c, e);
            for (size_t k = 0; kl && k < kl->n && ok; k++) {
                bool added;
                if (kl->items[k].entry)
                    ok = set_put(&provided, kl->items[k].name, hash(kl->items[k].name), 0, &added) >= 0;
            }
        }
    }
    /* Kernels of failing registered modules that none of those provides. */
    for (size_t c = 0; c < obj->n_containers && ok; c++) {
        const fc_container *ct = &obj->containers[c];
        fc_load l = j->loads[c * nt + t];
        bool fails = l.result == FC_LOAD_NO_BINARY || l.result == FC_LOAD_UNSUPPORTED_PTX ||
                     l.result == FC_LOAD_JIT_DISABLED || l.result == FC_LOAD_INVALID_PTX ||
                     l.result == FC_LOAD_RELOCATABLE ||
                     (l.result == FC_LOAD_LINK_INPUT && j->links[c * nt + t].via == FC_LINK_VIA_NONE);
        if (!container_registered(ct) || !fails || j->unused[c])
            continue;
        name_set here = {0};
        for (size_t e = 0; e < ct->n_entries && ok; e++) {
            const fc_kernel_list *kl = kernel_view_entry(kv, c, e);
            for (size_t k = 0; kl && k < kl->n && ok; k++) {
                const fc_kernel *kn = &kl->items[k];
                bool added;
                if (!kn->entry)
                    continue;
                uint64_t h = hash(kn->name);
                if (set_find(&provided, kn->name, h) >= 0)
                    continue;
                if (set_put(&here, kn->name, h, 0, &added) < 0) {
                    ok = false;
                    break;
                }
                if (!added)
                    continue; /* counted once per container */
                long at = set_put(&failing, kn->name, h, kv->n_missing[t], &added);
                if (at < 0) {
                    ok = false;
                    break;
                }
                if (added) {
                    if (kv->n_missing[t] == kv->missing_cap[t]) {
                        size_t cap = kv->missing_cap[t] ? kv->missing_cap[t] * 2 : 16;
                        missing_kernel *p = realloc(kv->missing[t],
                                                    cap * sizeof *p);
                        if (!p) {
                            ok = false;
                            break;
                        }
                        kv->missing[t] = p;
                        kv->missing_cap[t] = cap;
                    }
                    missing_kernel *m = &kv->missing[t][kv->n_missing[t]++];
                    memset(m, 0, sizeof *m);
                    m->name = kn->name;
                    m->demangled = kn->demangled;
                }
                kv->missing[t][failing.values[at]].containers++;
            }
        }
        set_free(&here);
    }
    /* Where the missing kernels do exist: every image (any container) that has them. */
    for (size_t c = 0; c < obj->n_containers && ok && kv->n_missing[t]; c++) {
        const fc_container *ct = &obj->containers[c];
        for (size_t e = 0; e < ct->n_entries; e++) {
            const fc_kernel_list *kl = kernel_view_entry(kv, c, e);
            char arch[32];
            fc_entry_arch_name(&ct->entries[e], arch, sizeof arch);
            for (size_t k = 0; kl && k < kl->n; k++) {
                long at = set_find(&failing, kl->items[k].name, hash(kl->items[k].name));
                if (at < 0)
                    continue;
                size_t idx = failing.values[at];
                missing_kernel *m = &kv->missing[t][idx];
                add_arch(m->available_in, sizeof m->available_in, arch);
            }
        }
    }
    if (ok && kv->n_missing[t])
        qsort(kv->missing[t], kv->n_missing[t], sizeof(missing_kernel), cmp_missing);
    set_free(&provided);
    set_free(&failing);
    return ok;
}

kernel_view *kernel_view_new(const fc_object *obj, const fc_options *opts, const judgement *j)
{
    kernel_view *kv = calloc(1, sizeof *kv);
    if (!kv)
        return NULL;
    size_t nt = j ? j->cfg->n_targets : 0;
    kv->first = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *kv->first);
    kv->missing = calloc(nt ? nt : 1, sizeof *kv->missing);
    kv->n_missing = calloc(nt ? nt : 1, sizeof *kv->n_missing);
    kv->missing_cap = calloc(nt ? nt : 1, sizeof *kv->missing_cap);
    if (!kv->first || !kv->missing || !kv->n_missing || !kv->missing_cap ||
        fc_object_kernels(obj, opts, &kv->lists, &kv->status, &kv->n) != FC_OK) {
        kernel_view_free(kv, nt);
        return NULL;
    }
    size_t k = 0;
    for (size_t c = 0; c < obj->n_containers; c++) {
        kv->first[c] = k;
        k += obj->containers[c].n_entries;
    }
    for (size_t t = 0; t < nt && j->loads; t++)
        if (!missing_for_target(kv, obj, j, t)) {
            kernel_view_free(kv, nt);
            return NULL;
        }
    return kv;
}

void kernel_view_free(kernel_view *kv, size_t n_targets)
{
    if (!kv)
        return;
    fc_object_kernels_free(kv->lists, kv->status, kv->n);
    for (size_t t = 0; kv->missing && t < n_targets; t++)
        free(kv->missing[t]);
    free(kv->missing);
    free(kv->n_missing);
    free(kv->missing_cap);
    free(kv->first);
    free(kv);
}
