/* link_state.c - whether an image can be loaded as it is, or is relocatable device code
 * that refers to symbols only device linking (nvlink, nvJitLink) resolves.
 *
 * cuModuleLoadData on such an image fails with CUDA_ERROR_NOT_FOUND ("named symbol not
 * found"): seen with the real driver on -rdc objects and on cuSPARSE's embedded link
 * inputs. A cubin tells by its ELF type (ET_REL) and its undefined symbols; PTX by its
 * .extern declarations of functions and variables.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static fc_link_state cubin_state(const uint8_t *img, size_t size)
{
    if (size < 64 || memcmp(img, "\177ELF", 4) != 0)
        return FC_LINK_UNKNOWN;
    fc_libelf_init();
    Elf *elf = elf_memory((char *)img, size);
    if (!elf)
        return FC_LINK_UNKNOWN;
    fc_link_state st = FC_LINK_UNKNOWN;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        goto cleanup;
    if (eh.e_type != ET_REL) {
        st = FC_LINK_SELF_CONTAINED;
        goto cleanup;
    }
    st = FC_LINK_SELF_CONTAINED;
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
            const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (sym.st_shndx == SHN_UNDEF && GELF_ST_BIND(sym.st_info) != STB_LOCAL && name && *name) {
                st = FC_LINK_UNRESOLVED;
                goto cleanup;
            }
        }
    }
cleanup:
    elf_end(elf);
    return st;
}

static fc_link_state ptx_state(const uint8_t *text, size_t size)
{
    static const char key[] = ".extern ";
    for (size_t i = 0; i + sizeof key - 1 <= size; i++)
        if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, key, sizeof key - 1) == 0)
            return FC_LINK_UNRESOLVED;
    return FC_LINK_SELF_CONTAINED;
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
    fc_link_state st = e->kind == FC_IMAGE_CUBIN ? cubin_state(src, n) : ptx_state(src, n);
    free(scratch.p);
    return st;
}
