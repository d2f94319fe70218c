/* pe_imports.c - the CUDA DLLs a Windows image imports, for the runtime it needs (runtime.c).
 *
 * The import directory (data directory 1) is a table of 20-byte descriptors, one per DLL,
 * ended by one of zeros; the delay-load directory (13) one of 32-byte descriptors, loaded on
 * first use but needed all the same. Each names its DLL by an RVA; its lookup table lists
 * the functions, by name (an RVA of a 2-byte hint and the name) or by ordinal (top bit set).
 * PE/COFF specification, "The .idata Section" and "Delay-Load Import Tables". Every RVA is
 * mapped through the section table and bounded by the bytes the file holds.
 */
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "input.h"
#include "pe.h"

#define DLL_NAME_MAX 256u
#define DESCRIPTORS_MAX 4096u /* DLLs an image imports: real ones name tens */
#define FUNCTIONS_MAX 65536u  /* functions looked through per DLL */

typedef struct imports {
    const uint8_t *data;
    size_t size;
    const fc_pe *pe;
    bool damaged; /* some table or name points outside the file's sections */
} imports;

/* The NUL-terminated string at RVA, or NULL (a name without its NUL within MAX bytes too). */
static const char *string_at(imports *im, uint64_t rva, size_t max)
{
    uint64_t off, avail;
    if (!fc_pe_rva_offset(im->pe, rva, &off, &avail) || off >= im->size) {
        im->damaged = true;
        return NULL;
    }
    if (avail > im->size - off)
        avail = im->size - off;
    const char *s = (const char *)im->data + off;
    if (!memchr(s, '\0', avail < max ? (size_t)avail : max)) {
        im->damaged = true;
        return NULL;
    }
    return s;
}

/* Whether the lookup table at RVA names the function NAME. */
static bool imports_function(imports *im, uint64_t rva, const char *name)
{
    uint64_t off, avail;
    if (!rva || !fc_pe_rva_offset(im->pe, rva, &off, &avail))
        return false;
    unsigned width = im->pe->pe32_plus ? 8 : 4;
    uint64_t ordinal = im->pe->pe32_plus ? 1ull << 63 : 1ull << 31;
    for (uint64_t i = 0; i < FUNCTIONS_MAX && (i + 1) * width <= avail && off + (i + 1) * width <= im->size; i++) {
        const uint8_t *p = im->data + off + i * width;
        uint64_t entry = width == 8 ? fc_rd64(p) : fc_rd32(p);
        if (!entry)
            break;
        if (entry & ordinal)
            continue;
        const char *f = string_at(im, (entry & 0x7fffffffu) + 2, DLL_NAME_MAX);
        if (f && strcmp(f, name) == 0)
            return true;
    }
    return false;
}

/* Reads the descriptor table at RVA (SIZE bytes as the directory says, a hint): descriptors
 * of ENTRY bytes, the DLL name's RVA at NAME_AT and the lookup table's at LOOKUP_AT. DELAY:
 * delay-load descriptors, whose RVAs are addresses when their attributes' bit 0 is clear. */
static bool read_descriptors(fc_builder *b, imports *im, uint32_t rva, uint32_t size, unsigned entry, unsigned name_at,
                             unsigned lookup_at, bool delay, bool *cudart)
{
    if (!rva && !size)
        return true;
    uint64_t off, avail;
    if (!fc_pe_rva_offset(im->pe, rva, &off, &avail)) {
        im->damaged = true;
        return true;
    }
    for (uint64_t i = 0; i < DESCRIPTORS_MAX; i++) {
        if ((i + 1) * entry > avail || off + (i + 1) * entry > im->size) {
            im->damaged = true; /* the table runs out before its terminator */
            break;
        }
        const uint8_t *d = im->data + off + i * entry;
        uint64_t name_rva = fc_rd32(d + name_at), lookup = fc_rd32(d + lookup_at);
        if (!name_rva && !lookup)
            break;
        if (!delay && !lookup) /* no lookup table: the address table holds the same at first */
            lookup = fc_rd32(d + 16);
        if (delay && !(fc_rd32(d) & 1)) { /* an old delay-load table: addresses, not RVAs */
            name_rva = name_rva >= im->pe->image_base ? name_rva - im->pe->image_base : 0;
            lookup = lookup >= im->pe->image_base ? lookup - im->pe->image_base : 0;
        }
        const char *dll = string_at(im, name_rva, DLL_NAME_MAX);
        if (!dll)
            continue;
        if (fc_cuda_library_version(dll)) {
            *cudart |= fc_is_cuda_runtime_library(dll);
            if (fc_builder_add_needed(b, dll) != FC_OK)
                return false;
        } else if (!b->obj.imports_registration && imports_function(im, lookup, "__cudaRegisterFatBinary")) {
            /* Its registration comes from a DLL that is no CUDA runtime fatcheck knows. */
            b->obj.imports_registration = true;
        }
    }
    return true;
}

fc_pe_needs fc_pe_read_needs(fc_builder *b, const uint8_t *data, size_t size, const fc_pe *pe)
{
    b->obj.linked_program = pe->image;
    if (!pe->image)
        return FC_PE_NEEDS_NONE;
    imports im = {data, size, pe, false};
    bool cudart = false;
    if (!read_descriptors(b, &im, pe->import_rva, pe->import_size, 20, 12, 0, false, &cudart) ||
        !read_descriptors(b, &im, pe->delay_import_rva, pe->delay_import_size, 32, 4, 16, true, &cudart))
        return FC_PE_NEEDS_NONE;
    if (cudart)
        b->obj.imports_registration = false; /* the runtime is named: that decides */
    return cudart ? FC_PE_NEEDS_RUNTIME : im.damaged ? FC_PE_NEEDS_UNKNOWN : FC_PE_NEEDS_NONE;
}
