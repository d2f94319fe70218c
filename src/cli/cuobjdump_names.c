/* cuobjdump_names.c - what cuobjdump 13.0 lists from a file, and what it names each image
 * (docs/format.md, "How cuobjdump 13.0 names things"): for --list-elf/--list-ptx and
 * --extract. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

bool cuobjdump_lists(const fc_object *o, const fc_container *c)
{
    if (c->origin == FC_ORIGIN_EMBEDDED || c->origin == FC_ORIGIN_PTX_FILE || c->origin == FC_ORIGIN_PTX_TEXT ||
        c->origin == FC_ORIGIN_EMBEDDED_CUBIN)
        return false;
    /* cuobjdump reads sections only; what the runtime registers without them is listed too. */
    if (c->origin == FC_ORIGIN_WRAPPER || c->origin == FC_ORIGIN_SEGMENT)
        return true;
    if (o->format != FC_FORMAT_ELF && o->format != FC_FORMAT_PE && o->format != FC_FORMAT_COFF)
        return true;
    const char *section = fc_object_registered_section(o); /* .nv_fatbin, else __nv_relfatbin */
    return section && c->section && strcmp(c->section, section) == 0;
}

/* The file name of a member: "lib/x.cubin" -> "x.cubin", "a.tar!x.cubin" -> "x.cubin",
 * "lib/x.a(y.cubin)" -> "y.cubin". */
static const char *member_file(const char *member, char *buf, size_t size)
{
    size_t len = strlen(member);
    const char *open = len && member[len - 1] == ')' ? strrchr(member, '(') : NULL;
    if (open) {
        snprintf(buf, size, "%.*s", (int)(len - (size_t)(open - member) - 2), open + 1);
        return buf;
    }
    const char *last = strrchr(member, '/'), *bang = strrchr(member, '!');
    if (bang && (!last || bang > last))
        last = bang;
    return last ? last + 1 : member;
}

void cuobjdump_name_parts(const fc_object *o, const fc_entry *e, unsigned n, char *stem, size_t stem_size,
                          char *tail, size_t tail_size)
{
    bool ptx = e->kind == FC_IMAGE_PTX;
    char arch[32], file[4096];
    fc_entry_cuobjdump_arch(arch, sizeof arch, e);
    const char *ext = ptx ? "ptx" : "cubin";
    if (o->format == FC_FORMAT_CUBIN) {
        /* a cubin inside a package or archive is named after itself, as cuobjdump names the file */
        path_stem(o->member ? member_file(o->member, file, sizeof file) : o->path, stem, stem_size);
        snprintf(tail, tail_size, ".%s.%s", arch, ext);
    } else if (e->identifier) {
        path_stem(e->identifier, stem, stem_size);
        snprintf(tail, tail_size, ".%s.%s", arch, ext);
    } else {
        path_stem(o->path, stem, stem_size);
        snprintf(tail, tail_size, ".%u.%s.%s", n, arch, ext);
    }
}

void cuobjdump_name(const fc_object *o, const fc_entry *e, unsigned n, char *buf, size_t size)
{
    char stem[4096], tail[64];
    cuobjdump_name_parts(o, e, n, stem, sizeof stem, tail, sizeof tail);
    snprintf(buf, size, "%s%s", stem, tail);
}
