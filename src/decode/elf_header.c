/* elf_header.c - what an ELF header claims, checked against itself, and cubins opened after
 * those checks (elf_header.h). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "elf_header.h"

#ifndef EM_CUDA
#define EM_CUDA 190
#endif

/* The OS/ABI values CUDA toolchains write in cubins: 51 and 41 (LLVM's ELFOSABI_CUDA and
 * ELFOSABI_CUDA_V2), and 65, which ptxas 13 writes (every cubin of CUDA 13.0's libraries). */
static bool cuda_osabi(unsigned v)
{
    return v == 51 || v == 41 || v == 65;
}

static unsigned read16(const uint8_t *p, bool big)
{
    return big ? (unsigned)p[0] << 8 | p[1] : (unsigned)p[1] << 8 | p[0];
}

/* Where each layout keeps e_ehsize, and the value it must hold there. */
#define EHSIZE_AT_32 40u
#define EHSIZE_AT_64 52u
#define EHDR_32 52u
#define EHDR_64 64u

bool fc_elf_header_problem(const uint8_t *p, uint64_t size, char *why, size_t why_size)
{
    if (size < EI_NIDENT) {
        snprintf(why, why_size, "%llu bytes are too few for an ELF header", (unsigned long long)size);
        return true;
    }
    unsigned cls = p[EI_CLASS], data = p[EI_DATA];
    if (cls != ELFCLASS32 && cls != ELFCLASS64) {
        snprintf(why, why_size, "the ELF header's class (EI_CLASS) is %u: neither 32-bit (1) nor 64-bit (2)", cls);
        return true;
    }
    if (data != ELFDATA2LSB && data != ELFDATA2MSB) {
        snprintf(why, why_size,
                 "the ELF header's byte order (EI_DATA) is %u: neither little-endian (1) nor big-endian (2)", data);
        return true;
    }
    bool is64 = cls == ELFCLASS64, big = data == ELFDATA2MSB;
    unsigned want = is64 ? EHDR_64 : EHDR_32, at = is64 ? EHSIZE_AT_64 : EHSIZE_AT_32;
    if (size < want) {
        snprintf(why, why_size, "%llu bytes are too few for a %d-bit ELF header", (unsigned long long)size,
                 is64 ? 64 : 32);
        return true;
    }
    unsigned got = read16(p + at, big);
    if (got == want)
        return false;
    unsigned other_want = is64 ? EHDR_32 : EHDR_64, other_at = is64 ? EHSIZE_AT_32 : EHSIZE_AT_64;
    if (size >= other_want && read16(p + other_at, big) == other_want)
        snprintf(why, why_size,
                 "the ELF header says %d-bit (EI_CLASS %u), but is laid out as a %d-bit one: its class byte is "
                 "damaged",
                 is64 ? 64 : 32, cls, is64 ? 32 : 64);
    else if (read16(p + at, !big) == want)
        snprintf(why, why_size,
                 "the ELF header says %s-endian (EI_DATA %u), but its fields are %s-endian: its byte-order byte "
                 "is damaged",
                 big ? "big" : "little", data, big ? "little" : "big");
    else /* an odd size field, and no other layout explains it: left to libelf */
        return false;
    return true;
}

bool fc_elf_cubin_header(const GElf_Ehdr *eh, uint32_t *arch, char *why, size_t why_size)
{
    unsigned osabi = eh->e_ident[EI_OSABI];
    *arch = fc_elf_cubin_sm(eh);
    if (!cuda_osabi(osabi)) {
        const char *os = osabi == ELFOSABI_SYSV ? " (System V)" : osabi == ELFOSABI_GNU ? " (GNU/Linux)" : "";
        snprintf(why, why_size,
                 "e_machine is 190 (EM_CUDA), but OS/ABI %u%s is no CUDA toolchain's (51, 41 or 65): not a cubin "
                 "but a host ELF file marked as one; searched as a host file",
                 osabi, os);
        return false;
    }
    if (*arch == 0) {
        snprintf(why, why_size, "a cubin whose e_flags (0x%llx) name no SM architecture",
                 (unsigned long long)eh->e_flags);
        return false;
    }
    return true;
}

fc_variant fc_cubin_variant(const uint8_t *p, size_t n, uint32_t arch)
{
    static const char key[] = "-arch sm_";
    const size_t k = sizeof key - 1;
    for (size_t i = 0; i + k < n; i++) {
        if (memcmp(p + i, key, k) != 0)
            continue;
        size_t j = i + k;
        uint32_t v = 0;
        while (j < n && p[j] >= '0' && p[j] <= '9' && v < 100000)
            v = v * 10 + (uint32_t)(p[j++] - '0');
        if (v != arch || j >= n)
            return FC_VARIANT_NONE;
        return p[j] == 'a' ? FC_VARIANT_ARCH_SPECIFIC : p[j] == 'f' ? FC_VARIANT_FAMILY : FC_VARIANT_NONE;
    }
    return FC_VARIANT_NONE;
}

uint32_t fc_cubin_sm_of(uint8_t abi_version, uint32_t e_flags)
{
    /* ABI version 8 (CUDA 13) keeps the SM in bits 8-15 of e_flags; earlier ABIs in the
     * low byte. Checked on nvcc 13.0 cubins from sm_75 to sm_121. */
    return abi_version >= 8 ? (e_flags >> 8) & 0xff : e_flags & 0xff;
}

uint32_t fc_elf_cubin_sm(const GElf_Ehdr *eh)
{
    return fc_cubin_sm_of(eh->e_ident[EI_ABIVERSION], (uint32_t)eh->e_flags);
}

Elf *fc_elf_cubin_open(const uint8_t *img, size_t size, const fc_options *opts, fc_status *st)
{
    char why[300];
    *st = FC_ERR_LIMIT;
    if (!fc_elf_image_sections_ok(img, size, opts)) /* libelf keeps ~250 bytes a section */
        return NULL;
    /* A damaged class or byte-order byte would have libelf read another layout. */
    *st = FC_ERR_FORMAT;
    if (size < 64 || memcmp(img, "\177ELF", 4) != 0 || fc_elf_header_problem(img, size, why, sizeof why))
        return NULL;
    fc_libelf_init();
    elf_errno(); /* clear */
    Elf *elf = elf_memory((char *)img, size);
    if (elf)
        *st = FC_OK;
    else if (fc_libelf_out_of_memory())
        *st = FC_ERR_NOMEM; /* no fault of the cubin's */
    return elf;
}

bool fc_libelf_out_of_memory(void)
{
    int e = elf_errno();
    return e && strcmp(elf_errmsg(e), "out of memory") == 0;
}

static pthread_once_t libelf_once = PTHREAD_ONCE_INIT;
static bool libelf_ok;

static void libelf_init(void)
{
    libelf_ok = elf_version(EV_CURRENT) != EV_NONE;
}

bool fc_libelf_init(void)
{
    pthread_once(&libelf_once, libelf_init);
    return libelf_ok;
}

static uint64_t rd(const uint8_t *p, unsigned n, bool big)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
    return v;
}

uint64_t fc_elf_section_count(const uint8_t *p, uint64_t n)
{
    if (n < 64 || memcmp(p, "\177ELF", 4) != 0 || (p[4] != 1 && p[4] != 2))
        return 0;
    bool is64 = p[4] == 2, big = p[5] == 2;
    uint64_t shoff = is64 ? rd(p + 0x28, 8, big) : rd(p + 0x20, 4, big);
    uint64_t shnum = rd(p + (is64 ? 0x3c : 0x30), 2, big);
    uint64_t size_at = is64 ? 0x20 : 0x14, entry = is64 ? 64 : 40;
    if (shnum || !shoff || !fc_range_ok(shoff, entry, n))
        return shnum;
    return rd(p + shoff + size_at, is64 ? 8 : 4, big);
}

bool fc_elf_image_sections_ok(const uint8_t *p, size_t n, const fc_options *opts)
{
    fc_options defaults;
    if (!(opts = fc_options_resolve(opts, &defaults)))
        return false; /* not called with options no fc_options_init filled: refused at the scan */
    return fc_elf_section_count(p, n) <= opts->max_sections;
}
