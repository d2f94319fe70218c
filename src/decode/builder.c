/* builder.c - building fc_object results (fc_builder_*): growing arrays, owned strings, the
 * first error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "fatcheck.h"
#include "grow.h"
#include "prefault.h"

fc_status fc_builder_init(fc_builder *b, const fc_options *opts, const char *path, const char *member,
                          const char *label)
{
    memset(b, 0, sizeof *b);
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return FC_ERR_INVALID;
    b->options = *opts;
    b->opts = &b->options;
    b->obj.status = FC_OK;
    size_t n = label ? strlen(label) + 1 : strlen(path ? path : "") + (member ? strlen(member) + 2 : 0) + 1;
    b->label = malloc(n);
    if (!b->label)
        return FC_ERR_NOMEM;
    if (label)
        memcpy(b->label, label, n);
    else if (member)
        snprintf(b->label, n, "%s(%s)", path ? path : "", member);
    else
        snprintf(b->label, n, "%s", path ? path : "");
    /* The object keeps its own copies: callers' names may not outlive the builder. */
    b->obj.path = path ? fc_builder_strndup(b, path, strlen(path)) : NULL;
    b->obj.member = member ? fc_builder_strndup(b, member, strlen(member)) : NULL;
    b->obj.label = b->label;
    if ((path && !b->obj.path) || (member && !b->obj.member))
        return FC_ERR_NOMEM;
    return FC_OK;
}

void fc_builder_reset(fc_builder *b)
{
    for (size_t i = 0; i < b->n_strings; i++)
        free(b->strings[i]);
    free(b->strings);
    free(b->containers);
    free(b->first_entry);
    free(b->entries);
    free(b->needed);
    free(b->label);
    free((char *)b->obj.error);
    memset(b, 0, sizeof *b);
}

void fc_builder_move(fc_builder *to, fc_builder *from)
{
    *to = *from;
    to->opts = &to->options; /* the one pointer into the builder itself */
    memset(from, 0, sizeof *from);
}

char *fc_builder_strndup(fc_builder *b, const char *s, size_t len)
{
    if (!fc_grow_array((void **)&b->strings, &b->cap_strings, b->n_strings + 1, sizeof *b->strings, 16))
        return NULL;
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    b->strings[b->n_strings++] = copy;
    return copy;
}

fc_status fc_builder_add_container(fc_builder *b, uint64_t offset, fc_origin origin, const char *section)
{
    size_t n = b->obj.n_containers;
    if (n >= b->opts->max_containers)
        return fc_builder_fail(b, FC_ERR_LIMIT, "more than %llu containers",
                               (unsigned long long)b->opts->max_containers);
    if (!fc_grow_array((void **)&b->containers, &b->cap_containers, n + 1, sizeof *b->containers, 16) ||
        !fc_grow_array((void **)&b->first_entry, &b->cap_first, n + 1, sizeof *b->first_entry, 16))
        return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    if (section && (!b->last_section || strcmp(section, b->last_section) != 0)) {
        b->last_section = fc_builder_strndup(b, section, strlen(section));
        if (!b->last_section)
            return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    }
    fc_container *c = &b->containers[n];
    memset(c, 0, sizeof *c);
    c->offset = offset;
    c->origin = origin;
    c->section = section ? b->last_section : NULL;
    b->first_entry[n] = b->n_entries;
    b->obj.n_containers = n + 1;
    return FC_OK;
}

void fc_builder_set_container_size(fc_builder *b, uint64_t size)
{
    if (b->obj.n_containers)
        b->containers[b->obj.n_containers - 1].size = size;
}

fc_status fc_builder_add_needed(fc_builder *b, const char *soname)
{
    if (!fc_grow_array((void **)&b->needed, &b->cap_needed, b->n_needed + 1, sizeof *b->needed, 16))
        return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    const char *copy = fc_builder_strndup(b, soname, strlen(soname));
    if (!copy)
        return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    b->needed[b->n_needed++] = copy;
    return FC_OK;
}

void fc_builder_set_soname(fc_builder *b, const char *soname)
{
    /* Without it the CUDA runtime the library is went unnamed, and its runtime unjudged, in a
     * run that exited as a normal one (oom22). */
    if (!(b->obj.soname = fc_builder_strndup(b, soname, strlen(soname))))
        fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
}

const fc_entry *fc_builder_container_entries(const fc_builder *b, const fc_container *c, size_t *n)
{
    size_t at = (size_t)(c - b->containers);
    size_t first = b->first_entry[at];
    *n = (at + 1 < b->obj.n_containers ? b->first_entry[at + 1] : b->n_entries) - first;
    return b->entries ? b->entries + first : NULL;
}

void fc_builder_set_container_role(fc_builder *b, fc_role role)
{
    if (b->obj.n_containers)
        b->containers[b->obj.n_containers - 1].role = role;
}

void fc_builder_drop_container(fc_builder *b)
{
    if (!b->obj.n_containers)
        return;
    b->obj.n_containers--;
    b->n_entries = b->first_entry[b->obj.n_containers];
}

/* Grows *ARR to exactly NEED elements when it has fewer: the room reserved is filled, so its
 * pages are taken at once (prefault.h). */
static bool grow_exact(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    if (need > SIZE_MAX / elem)
        return false;
    void *p = realloc(*arr, need * elem);
    if (!p)
        return false;
    fc_prefault((char *)p + *cap * elem, (need - *cap) * elem);
    *arr = p;
    *cap = need;
    return true;
}

bool fc_builder_reserve(fc_builder *b, size_t n, size_t m)
{
    size_t c = b->obj.n_containers;
    return c + n >= c && b->n_entries + m >= m &&
           grow_exact((void **)&b->containers, &b->cap_containers, c + n, sizeof *b->containers) &&
           grow_exact((void **)&b->first_entry, &b->cap_first, c + n, sizeof *b->first_entry) &&
           grow_exact((void **)&b->entries, &b->cap_entries, b->n_entries + m, sizeof *b->entries);
}

bool fc_builder_take(fc_builder *b, fc_builder *from)
{
    size_t nc = from->obj.n_containers, ne = from->n_entries, ns = from->n_strings;
    size_t bc = b->obj.n_containers, be = b->n_entries;
    if (bc > b->opts->max_containers || nc > b->opts->max_containers - bc || be > b->opts->max_entries ||
        ne > b->opts->max_entries - be || !fc_builder_reserve(b, nc, ne) ||
        (ns && !fc_grow_array((void **)&b->strings, &b->cap_strings, b->n_strings + ns, sizeof *b->strings, 16)))
        return false;
    if (nc) {
        memcpy(b->containers + bc, from->containers, nc * sizeof *b->containers);
        for (size_t i = 0; i < nc; i++)
            b->first_entry[bc + i] = from->first_entry[i] + be;
    }
    if (ne)
        memcpy(b->entries + be, from->entries, ne * sizeof *b->entries);
    if (ns)
        memcpy(b->strings + b->n_strings, from->strings, ns * sizeof *b->strings);
    b->obj.n_containers += nc;
    b->n_entries += ne;
    b->n_strings += ns;
    /* FROM's strings are B's now, its names among them: it is fit only to be reset. */
    from->obj.n_containers = from->n_entries = from->n_strings = 0;
    from->obj.path = from->obj.member = from->obj.soname = from->last_section = NULL;
    memset(from->recent, 0, sizeof from->recent);
    return true;
}

/* A copy of S owned by B: a recent equal one, or a new one. */
static const char *intern(fc_builder *b, const char *s)
{
    size_t n = sizeof b->recent / sizeof *b->recent;
    for (size_t i = 0; i < n; i++)
        if (b->recent[i] && strcmp(b->recent[i], s) == 0)
            return b->recent[i];
    char *copy = fc_builder_strndup(b, s, strlen(s));
    if (copy)
        b->recent[b->recent_next++ % n] = copy;
    return copy;
}

fc_status fc_builder_add_entry(fc_builder *b, const fc_entry *e)
{
    if (b->n_entries >= b->opts->max_entries)
        return fc_builder_fail(b, FC_ERR_LIMIT, "more than %llu entries",
                               (unsigned long long)b->opts->max_entries);
    if (!fc_grow_array((void **)&b->entries, &b->cap_entries, b->n_entries + 1, sizeof *b->entries, 16))
        return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    fc_entry *d = &b->entries[b->n_entries];
    *d = *e;
    if ((e->identifier && !(d->identifier = intern(b, e->identifier))) ||
        (e->options && !(d->options = intern(b, e->options))))
        return fc_builder_fail(b, FC_ERR_NOMEM, "out of memory");
    b->n_entries++;
    return FC_OK;
}

fc_status fc_builder_fail(fc_builder *b, fc_status status, const char *fmt, ...)
{
    if (b->obj.error) { /* keep the first problem: later ones are usually its echoes */
        /* but not over running out of memory, which leaves the report short whatever came
         * first: the run says so (exit 4; rv20: a hostile ELF's segment limit, said first,
         * made a later failed allocation exit 3) */
        if (status == FC_ERR_NOMEM)
            b->obj.status = status;
        return status;
    }
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    size_t n = strlen(b->label) + strlen(reason) + 3;
    char *msg = malloc(n);
    if (msg && *b->label)
        snprintf(msg, n, "%s: %s", b->label, reason);
    else if (msg)
        snprintf(msg, n, "%s", reason);
    b->obj.error = msg;
    b->obj.status = status;
    return status;
}

void fc_builder_where(fc_builder *b, const char *section, uint64_t section_offset)
{
    b->where_section = section;
    b->where_base = section_offset;
}

void fc_where(const fc_builder *b, uint64_t off, char *buf, size_t size)
{
    if (b->where_section && off >= b->where_base)
        snprintf(buf, size, "%s+0x%llx", b->where_section, (unsigned long long)(off - b->where_base));
    else
        snprintf(buf, size, "offset 0x%llx", (unsigned long long)off);
}

const fc_object *fc_builder_finish(fc_builder *b)
{
    size_t n = b->obj.n_containers;
    for (size_t i = 0; i < n; i++) {
        fc_container *c = &b->containers[i];
        c->entries = fc_builder_container_entries(b, c, &c->n_entries);
        c->rdc_object |= c->section && fc_section_is_relfatbin(c->section);
        c->role = fc_container_role(c);
    }
    b->obj.containers = b->containers;
    b->obj.needed = b->needed;
    b->obj.n_needed = b->n_needed;
    return &b->obj;
}

void fc_object_free(fc_object *obj)
{
    if (!obj)
        return;
    /* Objects from fc_decode_fatbin are the first member of a heap builder. */
    fc_builder *b = (fc_builder *)obj;
    fc_builder_reset(b);
    free(b);
}
