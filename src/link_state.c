/* link_state.c - whether an image refers to symbols defined elsewhere (relocatable device code
 * that only device linking completes), and whether it was compiled to be linked at all.
 *
 * The evidence (docs/matching.md, "Link inputs", tests/oracle): on driver 580.159.04,
 * relocatable code (ET_REL cubins, PTX stored with the ptxas option --compile-only) never runs
 * as a module: eager loading refuses every such image (CUDA_ERROR_NOT_FOUND when it refers to
 * another translation unit, CUDA_ERROR_INVALID_IMAGE otherwise, even with nothing unresolved),
 * and lazy loading accepts it but fails its functions at their first use. It is a link input.
 * The driver's own linker (cuLinkComplete) completes one alone exactly when it refers to
 * nothing outside but vprintf, malloc, free and __assertfail, which the driver supplies.
 * PTX without --compile-only is compiled as a whole program: a call to an undefined function
 * fails the load (CUDA_ERROR_INVALID_PTX, "ptxas fatal: Unresolved extern function").
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Functions the driver supplies to device code (its "system calls"). */
static bool driver_supplied(const char *name, size_t len)
{
    static const char *const names[] = {"vprintf", "malloc", "free", "__assertfail"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return true;
    return false;
}

fc_link_state fc_cubin_link_state(const uint8_t *img, size_t size)
{
    /* More sections than libelf is given (elf_sections.c): not read. */
    if (size < 64 || memcmp(img, "\177ELF", 4) != 0 || !fc_elf_image_sections_ok(img, size, NULL))
        return FC_LINK_UNKNOWN;
    fc_libelf_init();
    Elf *elf = elf_memory((char *)img, size);
    if (!elf)
        return FC_LINK_UNKNOWN;
    fc_link_state st = FC_LINK_UNKNOWN;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        goto cleanup;
    st = FC_LINK_SELF_CONTAINED;
    if (eh.e_type != ET_REL) /* linked: nothing left to resolve */
        goto cleanup;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d && sh.sh_entsize ? d->d_size / sh.sh_entsize : 0; /* what libelf holds */
        for (size_t i = 1; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym))
                break;
            /* Weak undefined symbols (__UDT, .nv.reservedSmem.* in CUDA 13 cubins) need no
             * definition: the cubins that hold only those load and link alone. */
            if (sym.st_shndx != SHN_UNDEF || GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (name && *name && !driver_supplied(name, strlen(name))) {
                st = FC_LINK_UNRESOLVED;
                goto cleanup;
            }
        }
    }
cleanup:
    elf_end(elf);
    return st;
}

static bool is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bool is_ident(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '%' || c == '.';
}

static size_t skip_space(const uint8_t *t, size_t i, size_t n)
{
    while (i < n && is_space(t[i]))
        i++;
    return i;
}

/* Whether the .extern declaration whose directive starts at T[I] ("func", "global", ...)
 * names something another translation unit must define. */
static bool extern_needs_definition(const uint8_t *t, size_t i, size_t n, bool functions_only)
{
    if (i + 5 <= n && memcmp(t + i, ".func", 5) == 0 && (i + 5 == n || !is_ident(t[i + 5]))) {
        i = skip_space(t, i + 5, n);
        if (i < n && t[i] == '(') { /* the return value's parameter list */
            while (i < n && t[i] != ')')
                i++;
            i = skip_space(t, i + 1, n);
        }
        size_t start = i;
        while (i < n && is_ident(t[i]))
            i++;
        return i > start && !driver_supplied((const char *)t + start, i - start);
    }
    if (functions_only)
        return false;
    /* Dynamic shared memory is declared .extern .shared and sized at launch. */
    return !(i + 7 <= n && memcmp(t + i, ".shared", 7) == 0);
}

/* Whether PTX text declares functions (or, unless FUNCTIONS_ONLY, variables) that another
 * translation unit must define. */
static bool ptx_has_externs(const uint8_t *t, size_t n, bool functions_only)
{
    static const char key[] = ".extern";
    const size_t k = sizeof key - 1;
    for (size_t i = 0; i + k <= n; i++) {
        if (t[i] != '.' || memcmp(t + i, key, k) != 0 || i + k >= n || !is_space(t[i + k]))
            continue;
        /* Only at the start of a line (after indentation): not inside a comment or a string. */
        size_t b = i;
        while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t'))
            b--;
        if (b > 0 && t[b - 1] != '\n')
            continue;
        if (extern_needs_definition(t, skip_space(t, i + k, n), n, functions_only))
            return true;
    }
    return false;
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

fc_link_state fc_entry_link_state(const fc_object *obj, const fc_entry *e, const fc_options *opts)
{
    if (!obj->image || e->obfuscated || (e->kind != FC_IMAGE_CUBIN && e->kind != FC_IMAGE_PTX))
        return FC_LINK_UNKNOWN;
    fc_buffer scratch = {NULL, 0};
    const uint8_t *src;
    size_t n;
    if (fc_entry_image(obj, e, opts, &scratch, &src, &n) != FC_OK) {
        free(scratch.p);
        return FC_LINK_UNKNOWN;
    }
    fc_link_state st = e->kind == FC_IMAGE_CUBIN ? fc_cubin_link_state(src, n)
                       : ptx_has_externs(src, n, false) ? FC_LINK_UNRESOLVED
                                                        : FC_LINK_SELF_CONTAINED;
    free(scratch.p);
    /* Bytes past the end of a file cut short meanwhile read as zeros (file_map.h). */
    if (obj->image_reclaimable &&
        fc_file_map_range_changed((const uint8_t *)obj->image + e->payload_offset, e->stored_size))
        return FC_LINK_UNKNOWN;
    return st;
}

/* Whether PTX compiled as a whole program calls a function it does not define. */
static bool ptx_calls_undefined(const fc_object *obj, const fc_entry *e, const fc_options *opts)
{
    fc_buffer scratch = {NULL, 0};
    const uint8_t *src;
    size_t n;
    bool bad = fc_entry_image(obj, e, opts, &scratch, &src, &n) == FC_OK && ptx_has_externs(src, n, true);
    free(scratch.p);
    return bad;
}

/* Whether a cubin is relocatable (ET_REL), from its first bytes: cheap even when compressed. */
static bool cubin_is_relocatable(const fc_object *obj, const fc_entry *e)
{
    uint8_t head[64];
    size_t got = 0;
    if (fc_entry_head(obj, e, head, sizeof head, &got) != FC_OK || got < 18 || memcmp(head, "\177ELF", 4) != 0)
        return false;
    return (head[16] | head[17] << 8) == ET_REL; /* cubins are little-endian */
}

fc_load fc_refine_load(const fc_object *obj, const fc_container *c, fc_load l, const fc_options *opts)
{
    if (c->role != FC_ROLE_MODULE || l.entry < 0 || (size_t)l.entry >= c->n_entries)
        return l;
    const fc_entry *e = &c->entries[l.entry];
    /* Registered code was linked when the program was built; PTX compiled to be linked in it
     * (--compile-only) is relocatable code the runtime loads as a module anyway, and its
     * functions fail at first use (tests/oracle: printf.rdc.compute_80.fatbin, lazy and eager). */
    if (fc_origin_registered(c->origin)) {
        if (l.result == FC_LOAD_SUCCESS && fc_entry_compiled_relocatable(e))
            l.result = FC_LOAD_RELOCATABLE;
        return l;
    }
    if (!obj->image)
        return l;
    if (e->obfuscated)
        return l;
    if (e->kind == FC_IMAGE_PTX && l.result == FC_LOAD_SUCCESS && !fc_entry_compiled_relocatable(e)) {
        if (ptx_calls_undefined(obj, e, opts))
            l.result = FC_LOAD_INVALID_PTX;
    } else if (e->kind == FC_IMAGE_CUBIN && l.result == FC_LOAD_SUCCESS && c->origin != FC_ORIGIN_CUBIN_FILE &&
               cubin_is_relocatable(obj, e)) {
        l.result = FC_LOAD_LINK_INPUT;
    }
    return l;
}
