/* elf_needs.c - what a host ELF file asks of the dynamic linker that tells its CUDA runtime:
 * the CUDA libraries in its DT_NEEDED, and whether it imports the runtime's registration
 * functions rather than naming a runtime (runtime.c turns both into a driver requirement). */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "fatcheck.h"
#include "image.h"
#include "input.h"
#include "runtime_names.h"

/* Whether the dynamic symbol table imports a symbol NAME names (all of it, or, with PREFIX,
 * its start): __cudaRegisterFatBinary, when code registers through whatever runtime the
 * loading process has; __cudaRegisterLinkedBinary_*, which only the device link step
 * defines. */
static bool imports(Elf *elf, Elf_Scn *dynsym, const GElf_Shdr *sh, const char *name, bool prefix)
{
    Elf_Data *d = elf_getdata(dynsym, NULL);
    size_t n = d && sh->sh_entsize ? d->d_size / sh->sh_entsize : 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym))
            break;
        if (sym.st_shndx != SHN_UNDEF)
            continue;
        const char *s = elf_strptr(elf, sh->sh_link, sym.st_name);
        if (s && (prefix ? strncmp(s, name, strlen(name)) == 0 : strcmp(s, name) == 0))
            return true;
    }
    return false;
}

/* The file offset of virtual address ADDR, through the PT_LOAD segments, and how many bytes
 * of that segment follow it in the file; false outside them. */
static bool vaddr_offset(Elf *elf, size_t phnum, uint64_t addr, uint64_t *off, uint64_t *left)
{
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
            addr - ph.p_vaddr < ph.p_filesz) {
            *off = ph.p_offset + (addr - ph.p_vaddr);
            *left = ph.p_filesz - (addr - ph.p_vaddr);
            return true;
        }
    }
    return false;
}

/* The dynamic symbol table as the dynamic linker finds it, through DT_SYMTAB and DT_STRTAB,
 * for files without a section table: SYMS (N entries of 24 bytes) and STR (STRSZ bytes), both
 * inside the file. */
typedef struct {
    const uint8_t *syms;
    size_t n;
    const char *str;
    uint64_t strsz;
} dyn_symbols;

/* How many entries the dynamic symbol table has, which no dynamic tag says: DT_HASH's chain
 * count, or one past the highest index DT_GNU_HASH's chains reach (each chain ends at an
 * entry whose low bit is set). 0 where neither can be read. */
static size_t count_symbols(Elf *elf, size_t phnum, const uint8_t *data, uint64_t size, uint64_t hash,
                            uint64_t gnu_hash)
{
    uint64_t off, left;
    if (hash && vaddr_offset(elf, phnum, hash, &off, &left) && left >= 8 && fc_range_ok(off, 8, size))
        return fc_rd32(data + off + 4);
    if (!gnu_hash || !vaddr_offset(elf, phnum, gnu_hash, &off, &left) || left < 16 || !fc_range_ok(off, left, size))
        return 0;
    const uint8_t *h = data + off;
    uint64_t nbuckets = fc_rd32(h), symoffset = fc_rd32(h + 4), bloom = fc_rd32(h + 8);
    if (bloom > (left - 16) / 8)
        return 0;
    uint64_t buckets = 16 + 8 * bloom; /* 64-bit bloom words */
    if (nbuckets > (left - buckets) / 4)
        return 0;
    uint64_t last = 0;
    for (uint64_t i = 0; i < nbuckets; i++)
        if (fc_rd32(h + buckets + 4 * i) > last)
            last = fc_rd32(h + buckets + 4 * i);
    if (last < symoffset)
        return (size_t)symoffset; /* every bucket empty: only the unhashed symbols */
    uint64_t chains = buckets + 4 * nbuckets;
    for (uint64_t i = last - symoffset;; i++) { /* the last bucket's chain, to its end */
        if (i >= (left - chains) / 4)
            return 0;
        if (fc_rd32(h + chains + 4 * i) & 1)
            return (size_t)(symoffset + i + 1);
    }
}

/* DT_NEEDED through the program headers, for files whose section table is gone (sstrip) or
 * shows no dynamic section: what the dynamic linker itself reads. Returns whether it found
 * the dynamic segment; *CUDART says whether libcudart was named, and *SYMS is the dynamic
 * symbol table where it could be read (n 0 where not). */
static bool needs_from_segments(fc_builder *b, Elf *elf, const uint8_t *data, uint64_t size, bool *cudart,
                                dyn_symbols *syms)
{
    size_t phnum;
    memset(syms, 0, sizeof *syms);
    if (elf_getphdrnum(elf, &phnum) != 0 || gelf_getclass(elf) != ELFCLASS64)
        return false;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_DYNAMIC || !fc_range_ok(ph.p_offset, ph.p_filesz, size))
            continue;
        const uint8_t *dyn = data + ph.p_offset;
        size_t n = (size_t)(ph.p_filesz / 16);
        uint64_t strtab = 0, strsz = 0, symtab = 0, syment = 24, hash = 0, gnu_hash = 0, stroff, left;
        for (size_t k = 0; k < n; k++) {
            uint64_t tag = fc_rd64(dyn + 16 * k), val = fc_rd64(dyn + 16 * k + 8);
            if (tag == DT_NULL)
                break;
            if (tag == DT_STRTAB)
                strtab = val;
            else if (tag == DT_STRSZ)
                strsz = val;
            else if (tag == DT_SYMTAB)
                symtab = val;
            else if (tag == DT_SYMENT)
                syment = val;
            else if (tag == DT_HASH)
                hash = val;
            else if (tag == DT_GNU_HASH)
                gnu_hash = val;
        }
        /* The dynamic linker does not check DT_STRSZ: the names are read where the segment
         * holding the table has bytes, whatever it says. */
        if (!strtab || !vaddr_offset(elf, phnum, strtab, &stroff, &left))
            return false;
        if (!strsz || strsz > left)
            strsz = left;
        if (!fc_range_ok(stroff, strsz, size))
            strsz = stroff < size ? size - stroff : 0;
        uint64_t symoff, symleft;
        size_t nsyms = syment == 24 && symtab && vaddr_offset(elf, phnum, symtab, &symoff, &symleft)
                           ? count_symbols(elf, phnum, data, size, hash, gnu_hash) : 0;
        if (nsyms && strsz && nsyms <= symleft / 24 && fc_range_ok(symoff, (uint64_t)nsyms * 24, size))
            *syms = (dyn_symbols){data + symoff, nsyms, (const char *)data + stroff, strsz};
        for (size_t k = 0; k < n; k++) {
            uint64_t tag = fc_rd64(dyn + 16 * k), val = fc_rd64(dyn + 16 * k + 8);
            if (tag == DT_NULL)
                break;
            if ((tag != DT_NEEDED && tag != DT_SONAME) || val >= strsz)
                continue;
            const char *name = (const char *)data + stroff + val;
            size_t len = strnlen(name, (size_t)(strsz - val));
            if (len == (size_t)(strsz - val)) /* not terminated inside the table */
                continue;
            if (!fc_cuda_library_version(name))
                continue;
            if (tag == DT_SONAME) {
                fc_builder_set_soname(b, name);
                continue;
            }
            *cudart |= fc_is_cuda_runtime_library(name);
            if (fc_builder_add_needed(b, name) != FC_OK)
                return true;
        }
        return true;
    }
    return false;
}

/* imports() for a table read through the program headers (Elf64_Sym: st_name at 0, st_shndx
 * at 6): 1 or 0, or -1 where an imported symbol's name cannot be read (past the string
 * table or not ended in it), so that whether NAME is imported cannot be told. */
static int imports_in(const dyn_symbols *t, const char *name, bool prefix)
{
    int found = 0;
    for (size_t i = 1; i < t->n; i++) {
        const uint8_t *sym = t->syms + 24 * i;
        uint32_t at = fc_rd32(sym);
        if (fc_rd16(sym + 6) != SHN_UNDEF || at == 0) /* defined, or no name */
            continue;
        if (at >= t->strsz)
            return -1;
        const char *s = t->str + at;
        size_t room = (size_t)(t->strsz - at), len = strnlen(s, room);
        if (len == room)
            return -1;
        if (prefix ? strncmp(s, name, strlen(name)) == 0 : strcmp(s, name) == 0)
            found = 1;
    }
    return found;
}

/* Whether string table STRNDX holds NAME as a whole string: one memmem, where going through
 * the symbols (imports) cost every library without CUDA code 4.7% more CPU (dev,
 * /usr/lib/x86_64-linux-gnu). */
static bool strtab_has(Elf *elf, size_t strndx, const char *name)
{
    Elf_Scn *scn = elf_getscn(elf, strndx);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    return d && d->d_buf && fc_holds_whole_string(d->d_buf, d->d_size, name);
}

/* The name of the shared memory segments a static runtime opens: its strings hold it 17 to
 * 21 KB after its table of driver functions in every release looked at (CUDA 11.8, 12.4 and
 * 13.0; 6 to 12 KB before it where lld links), and a library that only names the driver's
 * functions does not (CUPTI 13 imports shm_open and names them all, to trace them). */
static const char shm_segments[] = "/cudart.shm.";

/* The newest release among the driver functions named (runtime_names.h) in P[0, N); *SHM
 * whether P[0, N) names the runtime's segments. */
static int newest_runtime_call(const uint8_t *p, size_t n, bool *shm)
{
    *shm = memmem(p, n, shm_segments, sizeof shm_segments - 1) != NULL;
    return fc_runtime_names_newest(p, n);
}

/* Where a static runtime keeps the names: .rodata (one section; 46 MB in cuBLASLt 13). The
 * runtime's table of driver function names lies in its last tens of KB in every CUDA
 * library looked at (cuBLAS, cuBLASLt, cuRAND, cuSOLVER and cuSPARSE 13.0: 40 to 60 KB from
 * its end), the runtime being linked last; so the anchor is looked for from the end back, a
 * chunk at a time, each chunk's pages of a file mapping dropped after it (fc_image_release),
 * and the names are read within 256 KiB of it; -1 where it is not in the LEN bytes at OFF.
 * Searched from the start, cuBLASLt 13's summary spent 7.6 to 8.3 ms of its 14 on the H200
 * in this search. Only a second static runtime in one file would make the direction matter;
 * then the one linked last is read. The runtime's segment name is an anchor too, and where
 * a chunk holds it, the one read around: GNU ld keeps one copy of a string, so where code
 * linked before the runtime names cuCtxResetPersistingL2Cache (cudaGetDriverEntryPoint), the
 * only copy of the name lies there, megabytes before the runtime's table, and a library was
 * "no CUDA code" on a driver its CUDA 13 runtime cannot start on (review of 2026-12-07, rv40).
 * *SHM as newest_runtime_call sets it. */
static int runtime_calls_in(const fc_image *img, uint64_t base, const uint8_t *data, uint64_t off, uint64_t len,
                            bool *shm)
{
    /* The first chunk holds the table in every library looked at; later ones grow to 4 MiB. */
    uint64_t chunk = 256u << 10;
    const uint64_t overlap = 64; /* longer than every name with its NULs */
    /* Every runtime that names any of them names CUDA 11.0's (the oldest, last in the
     * table): it is looked for alone, one pass, and the names are read around it, where
     * the runtime keeps its table of driver functions: within 21 KB of it in the CUDA
     * 11.8, 12.3, 12.4 and 13.0 libraries looked at. */
    char pattern[64];
    size_t plen = fc_whole_string(pattern, fc_runtime_names_oldest());
    const uint64_t window = 256u << 10; /* twelve times the farthest seen */
    const uint8_t *area = data + off;
    for (uint64_t end = len; end > 0;) {
        uint64_t start = end > chunk ? end - chunk : 0;
        uint64_t stop = len - end > overlap ? end + overlap : len; /* a name across the seam */
        const uint8_t *hit = NULL, *segments = NULL;
        for (const uint8_t *at = area + start, *q; (q = memmem(at, (size_t)(area + stop - at), pattern, plen));
             at = q + 1)
            hit = q; /* the last in the chunk */
        for (const uint8_t *at = area + start, *q;
             (q = memmem(at, (size_t)(area + stop - at), shm_segments, sizeof shm_segments - 1)); at = q + 1)
            segments = q;
        if (segments)
            hit = segments;
        fc_image_release(img, base + off + start, stop - start);
        end = start;
        if (chunk < (4u << 20))
            chunk *= 2;
        if (!hit)
            continue;
        uint64_t found = (uint64_t)(hit - area);
        uint64_t lo = found > window ? found - window : 0;
        uint64_t hi = len - found > window ? found + window : len;
        return newest_runtime_call(area + lo, (size_t)(hi - lo), shm);
    }
    return -1;
}

/* A stretch of the file, for the segments searched. */
typedef struct {
    uint64_t off, len;
} span;

static int by_offset(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* The driver functions a static runtime names, in .rodata; without a section table, in the
 * segments that are loaded and not written (.rodata's, and the text's where one segment
 * holds both), the last first: the runtime's table is in the last of them that holds .rodata.
 * Segments that overlap are searched once, as one stretch (a hostile file's 65,000 segments
 * over the whole file took 42 s), so no byte is searched twice. */
static int runtime_calls_cuda(Elf *elf, const fc_image *img, uint64_t base, const uint8_t *data, uint64_t size,
                              bool sections, bool *shm)
{
    *shm = false;
    size_t shstrndx, phnum;
    if (!sections) {
        if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0)
            return 0;
        span *spans = malloc(phnum * sizeof *spans);
        size_t n = 0;
        if (!spans)
            return 0;
        for (size_t i = 0; i < phnum; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && !(ph.p_flags & PF_W) &&
                (ph.p_flags & PF_R) && ph.p_filesz && fc_range_ok(ph.p_offset, ph.p_filesz, size))
                spans[n++] = (span){ph.p_offset, ph.p_filesz};
        }
        qsort(spans, n, sizeof *spans, by_offset);
        size_t merged = 0;
        for (size_t i = 0; i < n; i++) {
            if (merged && spans[i].off <= spans[merged - 1].off + spans[merged - 1].len) {
                uint64_t end = spans[i].off + spans[i].len;
                if (end > spans[merged - 1].off + spans[merged - 1].len)
                    spans[merged - 1].len = end - spans[merged - 1].off;
            } else {
                spans[merged++] = spans[i];
            }
        }
        int found = -1;
        for (size_t i = merged; i-- > 0 && found < 0;)
            found = runtime_calls_in(img, base, data, spans[i].off, spans[i].len, shm);
        free(spans);
        return found > 0 ? found : 0;
    }
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
            !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(name, ".rodata") != 0)
            continue;
        if (!fc_range_ok(sh.sh_offset, sh.sh_size, size))
            return 0;
        int found = runtime_calls_in(img, base, data, sh.sh_offset, sh.sh_size, shm);
        return found > 0 ? found : 0;
    }
    return 0;
}

void fc_elf_read_needs(fc_builder *b, Elf *elf, const GElf_Ehdr *eh, const fc_image *img, uint64_t base,
                       const uint8_t *data, uint64_t size)
{
    b->obj.linked_program = eh->e_type == ET_EXEC || eh->e_type == ET_DYN;
    if (!b->obj.linked_program)
        return;
    Elf_Scn *dynsym = NULL;
    GElf_Shdr dynsym_sh = {0};
    bool cudart = false, dynamic_section = false;
    dyn_symbols from_segments = {0};
    size_t nsec = 0;
    elf_getshdrnum(elf, &nsec);
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_DYNSYM) {
            dynsym = scn;
            dynsym_sh = sh;
        }
        if (sh.sh_type != SHT_DYNAMIC)
            continue;
        dynamic_section = true;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d && sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
                break;
            const char *name = dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_SONAME
                                   ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val) : NULL;
            if (!name || !fc_cuda_library_version(name))
                continue;
            if (dyn.d_tag == DT_SONAME) {
                fc_builder_set_soname(b, name);
                continue;
            }
            cudart |= fc_is_cuda_runtime_library(name);
            if (fc_builder_add_needed(b, name) != FC_OK)
                return;
        }
    }
    /* A program whose dynamic section cannot be read names libraries nobody can list. */
    if (!dynamic_section && !needs_from_segments(b, elf, data, size, &cudart, &from_segments) && b->obj.n_containers)
        b->obj.runtime_unknown = true;
    bool shm_named = false; /* the runtime's "/cudart.shm." by its table */
    if (!cudart && b->obj.n_containers)
        b->obj.runtime_calls_cuda = runtime_calls_cuda(elf, img, base, data, size, nsec > 1, &shm_named);
    /* Without the dynamic symbol table (neither in the section table nor through the dynamic
     * segment's DT_SYMTAB) a file that names no runtime cannot be told apart from one that
     * imports the process's: nothing is claimed. */
    if (!cudart && b->obj.n_containers) {
        int imported;
        if (dynsym)
            b->obj.imports_registration = imports(elf, dynsym, &dynsym_sh, "__cudaRegisterFatBinary", false);
        else if (from_segments.n && (imported = imports_in(&from_segments, "__cudaRegisterFatBinary", false)) >= 0)
            b->obj.imports_registration = imported == 1;
        else
            b->obj.runtime_unknown = true;
    }
    /* A static CUDA runtime linked into a file none of whose device code it registers (a C++
     * program or library built with g++ against libcudart_static.a: "no CUDA code", exit 0,
     * where a CUDA 13 build cannot start on a CUDA 12.4 driver; the same with PTX kept as
     * text or a fat binary kept as data, which the program loads itself: "ok" where the
     * runtime fails, cuDNN 9's libcudnn_graph.so.9 on a CUDA 12.4 driver, review of
     * 2026-12-07). Told by what the runtime alone does together: it imports shm_open (few
     * files do: LLVM's and OpenMP's runtimes here), names the driver functions that date it,
     * and by them the "/cudart.shm." segments it opens (CUPTI 13, whose containers are data,
     * imports shm_open and names every driver function, to trace them, and is no runtime);
     * only files that import it are searched. A CUDA library it needs does not stand for it:
     * libcublas.so.12 beside a CUDA 13 runtime. */
    if (!cudart && !fc_any_registered(b->containers, b->obj.n_containers)) {
        int shm = dynsym ? strtab_has(elf, dynsym_sh.sh_link, "shm_open") &&
                               imports(elf, dynsym, &dynsym_sh, "shm_open", false)
                         : from_segments.n ? imports_in(&from_segments, "shm_open", false) : 0;
        if (shm == 1 && !b->obj.n_containers) /* searched above where the file holds containers */
            b->obj.runtime_calls_cuda = runtime_calls_cuda(elf, img, base, data, size, nsec > 1, &shm_named);
        if (shm == 1 && b->obj.runtime_calls_cuda && shm_named)
            b->obj.static_runtime = true;
    }
    /* -rdc code linked into a program without the device link step (CMake's
     * CUDA_SEPARABLE_COMPILATION with CUDA_RESOLVE_DEVICE_SYMBOLS off): nothing registers its
     * __nv_relfatbin, and the program imports the registration only that step defines, so
     * loading it fails ("undefined symbol: __cudaRegisterLinkedBinary_..."). Checked only
     * where __nv_relfatbin stands without .nv_fatbin. */
    bool relfatbin = false, fatbin = false;
    for (size_t c = 0; c < b->obj.n_containers; c++) {
        const fc_container *ct = &b->containers[c];
        if (fc_origin_registered(ct->origin) && ct->section) {
            bool rel = strcmp(ct->section, "__nv_relfatbin") == 0 || strcmp(ct->section, "__nv_rel") == 0;
            relfatbin |= rel;
            fatbin |= !rel;
        }
    }
    if (relfatbin && !fatbin && dynsym)
        b->obj.device_link_missing = imports(elf, dynsym, &dynsym_sh, "__cudaRegisterLinkedBinary_", true);
    /* Without a section table no name tells -rdc objects apart; the import does, where no
     * container is the device link step's output (which defines these functions). */
    bool linked = false;
    for (size_t c = 0; c < b->obj.n_containers; c++)
        linked |= b->containers[c].device_link;
    if (!dynsym && from_segments.n && !linked && b->obj.n_containers)
        b->obj.device_link_missing = imports_in(&from_segments, "__cudaRegisterLinkedBinary_", true) == 1;
    /* Code that registers fat binaries with the runtime, in a file where none was found: its
     * .nv_fatbin and records removed (objcopy --remove-section), or kept where nothing leads.
     * Its kernels fail at launch ("device kernel image is invalid" on the H200), where "no CUDA
     * code" passed it (review of 2026-12-03, F8). nvcc registers an empty fat binary for a
     * translation unit without kernels, so a real file that registers holds one. Looked for
     * in files that need the shared runtime, which defines it: the symbols of every other
     * file without containers (libtorch_cpu.so's 100,000) would be read for nothing. */
    if (!b->obj.n_containers && b->obj.status == FC_OK && cudart &&
        (dynsym ? imports(elf, dynsym, &dynsym_sh, "__cudaRegisterFatBinary", false)
                : from_segments.n && imports_in(&from_segments, "__cudaRegisterFatBinary", false) == 1))
        fc_builder_fail(b, FC_ERR_FORMAT, "it registers CUDA code with the runtime (it imports "
                                          "__cudaRegisterFatBinary) but holds no fat binary: were its "
                                          ".nv_fatbin and .nvFatBinSegment removed?");
}
