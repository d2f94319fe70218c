/* cuobjdump_names.c - what cuobjdump 13.0 lists from a file, and what it names each image
 * (docs/format.md, "How cuobjdump 13.0 names things"): for --list-elf/--list-ptx and
 * --extract. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* .nv_fatbin, or __nv_relfatbin when there is no .nv_fatbin. */
static const char *selected_section(const fc_object *o)
{
    const char *relfatbin = NULL;
    for (size_t i = 0; i < o->n_containers; i++) {
        const char *s = o->containers[i].section;
        if (o->containers[i].origin != FC_ORIGIN_SECTION || !s)
            continue;
        if (section_is_fatbin(s))
            return s;
        relfatbin = s;
    }
    return relfatbin;
}

bool cuobjdump_lists(const fc_object *o, const fc_container *c)
{
    if (c->origin == FC_ORIGIN_EMBEDDED || c->origin == FC_ORIGIN_PTX_FILE)
        return false;
    /* cuobjdump reads sections only; what the runtime registers without them is listed too. */
    if (c->origin == FC_ORIGIN_WRAPPER || c->origin == FC_ORIGIN_SEGMENT)
        return true;
    if (o->format != FC_FORMAT_ELF && o->format != FC_FORMAT_PE && o->format != FC_FORMAT_COFF)
        return true;
    const char *section = selected_section(o);
    return section && c->section && strcmp(c->section, section) == 0;
}

void cuobjdump_name(const fc_object *o, const fc_entry *e, unsigned n, char *buf, size_t size)
{
    bool ptx = e->kind == FC_IMAGE_PTX;
    char arch[32], stem[4096];
    fc_entry_cuobjdump_arch(e, arch, sizeof arch);
    const char *ext = ptx ? "ptx" : "cubin";
    if (o->format == FC_FORMAT_CUBIN) {
        path_stem(o->path, stem, sizeof stem);
        snprintf(buf, size, "%s.%s.%s", stem, arch, ext);
    } else if (e->identifier) {
        path_stem(e->identifier, stem, sizeof stem);
        snprintf(buf, size, "%s.%s.%s", stem, arch, ext);
    } else {
        path_stem(o->path, stem, sizeof stem);
        snprintf(buf, size, "%s.%u.%s.%s", stem, n, arch, ext);
    }
}
