/* missing_kernels.c - with --kernels: the kernels of every image, and per target the kernels
 * that no module loading there provides, with the images that do have them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "fatcheck.h"
#include "name_pool.h"
#include "verdict_internal.h"

/* A set of strings (kernel names), open addressing; the strings are not owned. Each slot
 * keeps its name's hash, so that a probe compares names only when the hashes agree:
 * cuBLASLt's kernel names run to hundreds of bytes. */
typedef struct name_set {
    const char **slots;
    uint64_t *hashes;
    size_t *values;       /* index into a side array, for the caller */
    size_t n, cap;
} name_set;

/* A name is hashed once per pass, not once per probe. */
static uint64_t hash(const char *s)
{
    return fc_name_hash(s, strlen(s));
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

static int cmp_missing(const void *a, const void *b)
{
    return strcmp(((const fc_missing_kernel *)a)->demangled, ((const fc_missing_kernel *)b)->demangled);
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

/* The kernel list of entry E of container C. */
static const fc_kernel_list *entry_kernels(const fc_judgement *j, size_t c, size_t e)
{
    return j->lists[j->first[c] + e];
}

/* Whether the device link step's output cannot load on T, so that the runtime links the -rdc
 * objects itself (rule 5). */
static bool device_link_fails(const fc_judgement *j, const fc_object *obj, size_t t)
{
    for (size_t c = 0; c < obj->n_containers; c++)
        if (fc_device_link_fails(j, &obj->containers[c], c, t))
            return true;
    return false;
}

/* Rule: a container provides its kernels on a target when it loads there (or, a link input, the
 * device linker has an image for it); unused link inputs and containers kept as data count
 * neither way (their kernels are the program's business), but for the -rdc objects the
 * runtime links itself where the device link step's output cannot load (LINKS_RDC), each
 * providing its own kernels when it has an image for the target (rule 5). */
static bool provides(const fc_judgement *j, const fc_container *ct, size_t c, size_t t, bool links_rdc)
{
    fc_load l = j->loads[c * j->n_targets + t];
    if (j->unused[c])
        return links_rdc && fc_runtime_links_object(j, c, t);
    bool loads = l.result == FC_LOAD_SUCCESS || fc_runtime_links_instead(j, ct, c, t) ||
                 (l.result == FC_LOAD_LINK_INPUT && j->links[c * j->n_targets + t].via != FC_LINK_VIA_NONE);
    return loads && !fc_container_kept_as_data(ct);
}

static bool fails(const fc_judgement *j, const fc_container *ct, size_t c, size_t t)
{
    if (fc_runtime_links_instead(j, ct, c, t))
        return false;
    fc_load l = j->loads[c * j->n_targets + t];
    bool failed = l.result == FC_LOAD_NO_BINARY || l.result == FC_LOAD_UNSUPPORTED_PTX ||
                  l.result == FC_LOAD_JIT_DISABLED || l.result == FC_LOAD_INVALID_PTX ||
                  l.result == FC_LOAD_RELOCATABLE || l.result == FC_LOAD_INVALID_IMAGE ||
                  l.result == FC_LOAD_INVALID_SOURCE || l.result == FC_LOAD_UNCOMPRESS_FAILED ||
                  l.result == FC_LOAD_UNSUPPORTED_COMPRESSION || l.result == FC_LOAD_TOOLKIT_TOO_NEW ||
                  (l.result == FC_LOAD_LINK_INPUT && j->links[c * j->n_targets + t].via == FC_LINK_VIA_NONE);
    return failed && !fc_container_kept_as_data(ct) && !j->unused[c];
}

/* Rule: a module provides the kernels of the image the driver takes (a device linker, of a link
 * input): a kernel built only for some architectures (#if __CUDA_ARCH__ >= 900) is in their
 * images alone, and its launch fails elsewhere ("named symbol not found", H200, driver 580,
 * an sm_90 and sm_100 build: review of 2026-12-04, K1). -1 where that image is not known
 * here (the -rdc objects the runtime links itself): every image's kernels then. *READABLE
 * says whether the chosen image's kernels could be read: one that could not provides none
 * (it was taken to provide every image's, and a kernel its module lacks went unsaid: review
 * of 2026-12-05, F5). */
static int chosen_entry(const fc_judgement *j, const fc_container *ct, size_t c, size_t t, bool *readable)
{
    *readable = false;
    if (j->unused[c] || fc_runtime_links_instead(j, ct, c, t))
        return -1;
    fc_load l = j->loads[c * j->n_targets + t];
    int e = l.result == FC_LOAD_LINK_INPUT ? j->links[c * j->n_targets + t].entry : l.entry;
    if (e < 0 || (size_t)e >= ct->n_entries)
        return -1;
    *readable = entry_kernels(j, c, (size_t)e) && j->status[j->first[c] + (size_t)e] == FC_OK;
    return e;
}

/* Adds the kernels (entry points) of KL to S; false when memory ran out. */
static bool put_kernels(name_set *s, const fc_kernel_list *kl)
{
    for (size_t k = 0; kl && k < kl->n; k++) {
        bool added;
        if (kl->items[k].entry && set_put(s, kl->items[k].name, hash(kl->items[k].name), 0, &added) < 0)
            return false;
    }
    return true;
}

static bool missing_for_target(fc_judgement *j, const fc_object *obj, size_t t)
{
    name_set provided = {0}, failing = {0};
    /* Where nothing runs whatever the images hold (the driver, or code never device-linked),
     * every kernel is missing. */
    bool ok = true, none_runs = fc_verdict_driver_fails(&j->verdicts[t]) || j->verdicts[t].unlinked;
    /* Kernels that some loadable registered module provides. */
    bool links_rdc = device_link_fails(j, obj, t);
    for (size_t c = 0; c < obj->n_containers && ok && !none_runs; c++) {
        const fc_container *ct = &obj->containers[c];
        if (!provides(j, ct, c, t, links_rdc))
            continue;
        bool readable;
        int chosen = chosen_entry(j, ct, c, t, &readable);
        for (size_t e = 0; e < ct->n_entries && ok; e++)
            if (chosen < 0 || ((int)e == chosen && readable))
                ok = put_kernels(&provided, entry_kernels(j, c, e));
    }
    /* Kernels of failing registered modules that none of those provides; and those of modules
     * that load whose image lacks them (each such module counted). A module that loads is held
     * to its own image alone: the runtime launches a kernel through the module that registered
     * it, so another module's kernel of the same name (a static kernel of another translation
     * unit, mangled alike) does not stand in for it (review of 2026-12-05, F3). */
    for (size_t c = 0; c < obj->n_containers && ok; c++) {
        const fc_container *ct = &obj->containers[c];
        bool failing_here = fails(j, ct, c, t) ||
                            (none_runs && !fc_container_kept_as_data(ct) && !j->unused[c]);
        bool readable;
        int chosen = chosen_entry(j, ct, c, t, &readable);
        bool loading = !failing_here && !none_runs && provides(j, ct, c, t, links_rdc) && chosen >= 0;
        if (!failing_here && !loading)
            continue;
        name_set own = {0};
        if (loading && readable)
            ok = put_kernels(&own, entry_kernels(j, c, (size_t)chosen));
        const name_set *excused = loading ? &own : &provided;
        bool lacks = false;
        name_set here = {0};
        for (size_t e = 0; e < ct->n_entries && ok; e++) {
            const fc_kernel_list *kl = entry_kernels(j, c, e);
            for (size_t k = 0; kl && k < kl->n && ok; k++) {
                const fc_kernel *kn = &kl->items[k];
                bool added;
                if (!kn->entry)
                    continue;
                uint64_t h = hash(kn->name);
                if (set_find(excused, kn->name, h) >= 0)
                    continue;
                if (set_put(&here, kn->name, h, 0, &added) < 0) {
                    ok = false;
                    break;
                }
                if (!added)
                    continue; /* counted once per container */
                lacks = true;
                long at = set_put(&failing, kn->name, h, j->n_missing[t], &added);
                if (at < 0) {
                    ok = false;
                    break;
                }
                if (added) {
                    fc_missing_kernel *p = fc_grow(j->missing[t], &j->missing_cap[t], j->n_missing[t] + 1,
                                                   sizeof *p, 16);
                    if (!p) {
                        ok = false;
                        break;
                    }
                    j->missing[t] = p;
                    fc_missing_kernel *m = &j->missing[t][j->n_missing[t]++];
                    memset(m, 0, sizeof *m);
                    m->name = kn->name;
                    m->demangled = kn->demangled;
                }
                j->missing[t][failing.values[at]].containers++;
            }
        }
        /* Where they are: this module's images that have them. Another module's kernel of
         * that name is not this one's (a static kernel of another unit), and does not start
         * through this module (review of 2026-12-05, F3: "fill(int*) (in sm_100 sm_90)" named
         * the other unit's sm_90 image). */
        for (size_t e = 0; e < ct->n_entries && ok && lacks; e++) {
            const fc_kernel_list *kl = entry_kernels(j, c, e);
            char arch[32];
            fc_entry_arch_name(arch, sizeof arch, &ct->entries[e]);
            for (size_t k = 0; kl && k < kl->n; k++) {
                const fc_kernel *kn = &kl->items[k];
                if (!kn->entry)
                    continue;
                uint64_t h = hash(kn->name);
                long at = set_find(&here, kn->name, h) >= 0 ? set_find(&failing, kn->name, h) : -1;
                if (at >= 0) {
                    fc_missing_kernel *m = &j->missing[t][failing.values[at]];
                    add_arch(m->available_in, sizeof m->available_in, arch);
                }
            }
        }
        set_free(&here);
        set_free(&own);
        if (loading && lacks)
            j->verdicts[t].modules_lacking_kernels++;
    }
    if (ok && j->n_missing[t])
        qsort(j->missing[t], j->n_missing[t], sizeof(fc_missing_kernel), cmp_missing);
    set_free(&provided);
    set_free(&failing);
    return ok;
}

fc_status fc_missing_kernels_find(fc_judgement *j, const fc_object *obj, const fc_options *scan)
{
    size_t nt = j->n_targets;
    j->first = calloc(obj->n_containers ? obj->n_containers : 1, sizeof *j->first);
    j->missing = calloc(nt ? nt : 1, sizeof *j->missing);
    j->n_missing = calloc(nt ? nt : 1, sizeof *j->n_missing);
    j->missing_cap = calloc(nt ? nt : 1, sizeof *j->missing_cap);
    if (!j->first || !j->missing || !j->n_missing || !j->missing_cap ||
        fc_object_kernels(&j->lists, &j->status, &j->n_lists, obj, scan) != FC_OK)
        return FC_ERR_NOMEM;
    size_t k = 0;
    for (size_t c = 0; c < obj->n_containers; c++) {
        j->first[c] = k;
        k += obj->containers[c].n_entries;
    }
    for (size_t t = 0; t < nt && j->loads; t++) {
        if (!missing_for_target(j, obj, t))
            return FC_ERR_NOMEM;
        fc_verdict *v = &j->verdicts[t];
        if (v->status == FC_VERDICT_OK && v->modules_lacking_kernels)
            v->status = FC_VERDICT_PARTIAL;
    }
    return FC_OK;
}

void fc_missing_kernels_free(fc_judgement *j)
{
    fc_object_kernels_free(j->lists, j->status, j->n_lists);
    for (size_t t = 0; j->missing && t < j->n_targets; t++)
        free(j->missing[t]);
    free(j->missing);
    free(j->n_missing);
    free(j->missing_cap);
    free(j->first);
    j->lists = NULL;
    j->status = NULL;
    j->missing = NULL;
}

fc_status fc_judgement_kernels(const fc_kernel_list **out, const fc_judgement *j, size_t c, size_t e)
{
    *out = NULL;
    if (!j || !j->first || c >= j->n_containers || j->first[c] + e >= j->n_lists)
        return FC_ERR_INVALID;
    *out = j->lists[j->first[c] + e];
    return j->status[j->first[c] + e];
}

size_t fc_judgement_missing_kernels(const fc_missing_kernel **out, const fc_judgement *j, size_t t)
{
    *out = NULL;
    if (!j || !j->n_missing || t >= j->n_targets)
        return 0;
    *out = j->missing[t];
    return j->n_missing[t];
}
