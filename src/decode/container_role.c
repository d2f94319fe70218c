/* container_role.c - what a container is for, from its headers alone: a module the runtime
 * registers and loads, or a link input (-rdc, LTO). The builder sets it (fc_builder_finish);
 * the verdicts read it. */
#include <string.h>

#include "decode.h"

bool fc_section_is_fatbin(const char *name)
{
    return strcmp(name, ".nv_fatbin") == 0 || strcmp(name, ".nv_fatb") == 0;
}

bool fc_section_is_relfatbin(const char *name)
{
    return strcmp(name, "__nv_relfatbin") == 0 || strcmp(name, "__nv_rel") == 0;
}

bool fc_container_is_rdc_object(const fc_container *c)
{
    return c->rdc_object || (c->section && fc_section_is_relfatbin(c->section));
}

fc_role fc_container_role(const fc_container *c)
{
    if (fc_container_is_rdc_object(c))
        return FC_ROLE_LINK_INPUT;
    /* What the runtime registers is loaded as a module, whatever it holds: relocatable code
     * there fails (fc_refine_load), it is not excused as a link input. */
    if (fc_origin_registered(c->origin))
        return c->role;
    for (size_t i = 0; i < c->n_entries; i++)
        if (fc_entry_compiled_relocatable(&c->entries[i]))
            return FC_ROLE_LINK_INPUT;
    return c->role;
}

int fc_entry_cubin_type(const fc_object *obj, const fc_entry *e)
{
    uint8_t head[18];
    size_t got = 0;
    if (fc_entry_head(obj, e, head, sizeof head, &got) != FC_OK || got < sizeof head ||
        memcmp(head, "\177ELF", 4) != 0 || head[5] != 1 /* ELFDATA2LSB */)
        return -1;
    return head[16] | head[17] << 8;
}

bool fc_entry_compiled_relocatable(const fc_entry *e)
{
    if (e->kind == FC_IMAGE_LTOIR)
        return true;
    if (e->kind != FC_IMAGE_PTX || !e->options)
        return false;
    /* nvcc -rdc stores "--compile-only"; fatbinary passes on whatever --cmdline held. */
    for (const char *p = e->options; *p;) {
        while (*p == ' ')
            p++;
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        size_t len = (size_t)(end - p);
        if ((len == 14 && memcmp(p, "--compile-only", 14) == 0) || (len == 2 && memcmp(p, "-c", 2) == 0))
            return true;
        p = end;
    }
    return false;
}
