/* stats.c - counting entries by kind, architecture, PTX ISA, compression and section. */
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "oom.h"
#include "stats.h"

/* P grown to hold NEED elements (grow.h); on failure P as it was, FAILED set and the failure
 * noted: the summary would list an architecture the fewer (oom.h). */
static void *grow(void *p, size_t *cap, size_t need, size_t elem, int *failed)
{
    void *q = fc_grow(p, cap, need, elem, 16);
    if (!q) {
        *failed = 1;
        oom_note();
    }
    return q ? q : p;
}

static void count_arch(stats *s, const fc_entry *e)
{
    bool ptx = e->kind == FC_IMAGE_PTX;
    uint16_t major = ptx ? e->version_major : 0, minor = ptx ? e->version_minor : 0;
    for (size_t i = 0; i < s->n_archs; i++) {
        arch_count *a = &s->archs[i];
        if (a->kind == e->kind && a->arch == e->arch && a->variant == e->variant && a->isa_major == major &&
            a->isa_minor == minor) {
            a->n++;
            return;
        }
    }
    s->archs = grow(s->archs, &s->cap_archs, s->n_archs + 1, sizeof *s->archs, &s->failed);
    if (s->n_archs < s->cap_archs)
        s->archs[s->n_archs++] = (arch_count){e->kind, e->arch, e->variant, major, minor, 1};
}

static void count_isa(stats *s, const fc_entry *e)
{
    for (size_t i = 0; i < s->n_isas; i++) {
        if (s->isas[i].major == e->version_major && s->isas[i].minor == e->version_minor) {
            s->isas[i].n++;
            return;
        }
    }
    s->isas = grow(s->isas, &s->cap_isas, s->n_isas + 1, sizeof *s->isas, &s->failed);
    if (s->n_isas < s->cap_isas)
        s->isas[s->n_isas++] = (isa_count){e->version_major, e->version_minor, 1};
}

static void count_section(stats *s, const char *name)
{
    if (!name)
        return;
    for (size_t i = 0; i < s->n_sections; i++) {
        if (strcmp(s->sections[i].name, name) == 0) {
            s->sections[i].n++;
            return;
        }
    }
    s->sections = grow(s->sections, &s->cap_sections, s->n_sections + 1, sizeof *s->sections, &s->failed);
    if (s->n_sections < s->cap_sections)
        s->sections[s->n_sections++] = (section_count){name, 1};
}

void stats_add(stats *s, const fc_container *c)
{
    s->containers++;
    count_section(s, c->section);
    for (size_t i = 0; i < c->n_entries; i++) {
        const fc_entry *e = &c->entries[i];
        s->entries++;
        s->by_kind[e->kind]++;
        s->by_compression[e->compression]++;
        s->debug += e->debug;
        count_arch(s, e);
        if (e->kind == FC_IMAGE_PTX)
            count_isa(s, e);
    }
}

static int cmp_arch(const void *pa, const void *pb)
{
    const arch_count *a = pa, *b = pb;
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    if (a->arch != b->arch)
        return a->arch < b->arch ? -1 : 1;
    if (a->variant != b->variant)
        return (int)a->variant - (int)b->variant;
    if (a->isa_major != b->isa_major)
        return a->isa_major < b->isa_major ? -1 : 1;
    return (int)a->isa_minor - (int)b->isa_minor;
}

static int cmp_isa(const void *pa, const void *pb)
{
    const isa_count *a = pa, *b = pb;
    if (a->major != b->major)
        return a->major < b->major ? -1 : 1;
    return (int)a->minor - (int)b->minor;
}

void stats_sort(stats *s)
{
    if (s->n_archs)
        qsort(s->archs, s->n_archs, sizeof *s->archs, cmp_arch);
    if (s->n_isas)
        qsort(s->isas, s->n_isas, sizeof *s->isas, cmp_isa);
}

void stats_free(stats *s)
{
    free(s->archs);
    free(s->isas);
    free(s->sections);
    memset(s, 0, sizeof *s);
}
