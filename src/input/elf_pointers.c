/* elf_pointers.c - containers kept as data past a section's head, found through the
 * pointers to them.
 *
 * By default a data section is searched whole only when its first MiB holds a container
 * (sections.c, FC_EMBEDDED_AUTO). CUDA 11.8's cuFFT (libcufft.so.10.9.0.58) keeps 22,346
 * containers in .data, the first 2.8 MiB in: none was found, and the file was judged on its
 * 20 registered ones. A library reaches such data through pointers, and in a shared object
 * a pointer is an R_*_RELATIVE dynamic relocation whose addend is the address pointed at:
 * 22,346 of cuFFT 11.8's 22,348 relative relocations into .data point at its containers, each
 * 16-aligned. So a section whose head holds none is searched whole when, among the 8-aligned
 * addresses past its head that relative relocations point at, a sample of SAMPLE holds one.
 * Code that reaches its data PC-relatively, and a program linked at a fixed address, leave
 * no relocation: containers kept so are still found only by --embedded.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "image.h"
#include "input.h"
#include "reader.h"

#define RELA_ENTRY 24u
#define SAMPLE 64u /* addresses read per section: a 4-byte read each */

/* The relative relocation's type for MACHINE (0: not known here). */
static uint32_t relative_type(unsigned machine)
{
    return machine == EM_X86_64 ? 8 : machine == EM_AARCH64 ? 1027 : machine == EM_PPC64 ? 22 : 0;
}

/* A deterministic sample of up to SAMPLE of the addresses seen for one section, every one
 * equally likely to be kept (reservoir sampling with a fixed seed: the same file always
 * gives the same answer). */
typedef struct sample {
    uint64_t lo, hi; /* addresses past the section's head: [lo, hi) */
    uint64_t seen;
    uint64_t kept[SAMPLE];
} sample;

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

static void offer(sample *s, uint64_t addr, uint64_t *rng)
{
    if (s->seen < SAMPLE) {
        s->kept[s->seen++] = addr;
        return;
    }
    uint64_t j = next_random(rng) % ++s->seen;
    if (j < SAMPLE)
        s->kept[j] = addr;
}

/* Hands every relative relocation's addend in the SHT_RELA section SH to the samples. */
static void read_relocations(const fc_image *img, uint64_t base, uint64_t size, const GElf_Shdr *sh, uint32_t type,
                             sample *s, size_t n, uint64_t *rng)
{
    if (sh->sh_entsize != RELA_ENTRY || !fc_range_ok(sh->sh_offset, sh->sh_size, size))
        return;
    fc_reader r;
    if (!fc_image_reader(img, base, sh->sh_offset, sh->sh_offset + sh->sh_size, 256u << 10, &r))
        return;
    fc_reader_read_size(&r, 256u << 10);
    /* The bounds of every sample, to pass over most addends with two comparisons. */
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = s[i].lo < lo ? s[i].lo : lo;
        hi = s[i].hi > hi ? s[i].hi : hi;
    }
    uint64_t end = sh->sh_size - sh->sh_size % RELA_ENTRY;
    for (uint64_t k = 0; k < end;) {
        size_t got;
        const uint8_t *p = fc_reader_get(&r, sh->sh_offset + k, RELA_ENTRY, &got);
        if (!p || got < RELA_ENTRY)
            break;
        size_t count = got / RELA_ENTRY; /* whole entries held from here */
        if (count > (end - k) / RELA_ENTRY)
            count = (size_t)((end - k) / RELA_ENTRY);
        for (size_t e = 0; e < count; e++, p += RELA_ENTRY) {
            uint64_t addr = fc_rd64(p + 16);
            if (addr < lo || addr >= hi || addr % 8 || (uint32_t)fc_rd64(p + 8) != type)
                continue;
            for (size_t i = 0; i < n; i++)
                if (addr >= s[i].lo && addr < s[i].hi) {
                    offer(&s[i], addr, rng);
                    break;
                }
        }
        k += (uint64_t)count * RELA_ENTRY;
    }
    fc_reader_free(&r);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether a container or a cubin kept as data stands at one of the N addresses AT (sorted
 * here) of region G. */
static bool container_at_one(const fc_image *img, uint64_t base, const fc_region *g, uint64_t *at, size_t n)
{
    uint64_t end = g->offset + g->size;
    fc_reader r;
    if (!n || !fc_image_reader(img, base, g->offset, end, FC_READER_MIN_CAP, &r))
        return false;
    qsort(at, n, sizeof *at, cmp_u64);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        uint64_t off = g->offset + (at[i] - g->addr);
        found = fc_embedded_at(&r, off, end - off);
    }
    fc_reader_free(&r);
    return found;
}

void fc_elf_pointed_regions(const fc_image *img, uint64_t base, uint64_t size, Elf *elf, fc_region *regions,
                            size_t n_regions, const fc_options *opts)
{
    GElf_Ehdr eh;
    uint32_t type;
    if (opts->embedded != FC_EMBEDDED_AUTO || !gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || !(type = relative_type(eh.e_machine)))
        return;
    sample *s = calloc(n_regions ? n_regions : 1, sizeof *s);
    size_t *of = calloc(n_regions ? n_regions : 1, sizeof *of); /* each sample's region */
    size_t n = 0;
    for (size_t i = 0; s && of && i < n_regions; i++) {
        const fc_region *g = &regions[i];
        if (g->search_in_full || g->whole_file || g->size <= opts->embedded_probe_size ||
            fc_embedded_always_searched(g->section) || g->addr > UINT64_MAX - g->size)
            continue; /* searched whole, or all of it is its head */
        s[n] = (sample){.lo = g->addr + opts->embedded_probe_size, .hi = g->addr + g->size};
        of[n++] = i;
    }
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (Elf_Scn *scn = NULL; n && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC))
            read_relocations(img, base, size, &sh, type, s, n, &rng);
    }
    for (size_t k = 0; k < n; k++)
        regions[of[k]].pointed_at = container_at_one(img, base, &regions[of[k]], s[k].kept,
                                                     s[k].seen < SAMPLE ? (size_t)s[k].seen : SAMPLE);
    free(s);
    free(of);
}
