/* elf.c - finding containers in ELF files and static archives, through libelf.
 *
 * Host ELF files keep containers in .nv_fatbin (whole-program builds) and __nv_relfatbin
 * (-rdc builds); other data sections may hold more (embedded.c). Archives are walked
 * member by member. A standalone cubin (e_machine EM_CUDA) is one image.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar_index.h"
#include "ar_name.h"
#include "bytes.h"
#include "decode.h"
#include "elf_compressed.h"
#include "elf_header.h"
#include "grow.h"
#include "image.h"
#include "input.h"
#include "pool.h"
#include "pe.h"
#include "reader.h"
#include "zip_end.h"

#ifndef EM_CUDA
#define EM_CUDA 190
#endif

/* An archive's pages are released behind the walk in steps of this size. */
#define RELEASE_STEP (4u << 20)

/* Sections smaller than one container header and one entry header cannot hold one. */
#define EMBEDDED_MIN_SECTION (FC_CONTAINER_HEADER + FC_ENTRY_MIN_HEADER)

/* Whether a libelf call that failed (errno cleared before it) failed for want of memory: its
 * own words then ("invalid operand", "no readable member") made a damaged input of an
 * allocation failure, exit 3 (oom22). */
static bool libelf_out_of_memory(void)
{
    return errno == ENOMEM;
}

static bool is_fatbin_section(const char *name)
{
    return strcmp(name, ".nv_fatbin") == 0 || strcmp(name, "__nv_relfatbin") == 0;
}

/* Data sections whose layout the ABI or toolchain fixes (unwind tables, pointer arrays,
 * the GOT, TLS images, relocated constants): a fat binary, which needs no relocation and
 * no thread-local copy, is never placed there, so they are not searched. */
static bool is_structured_section(const char *name)
{
    static const char *const names[] = {
        ".eh_frame", ".eh_frame_hdr", ".gcc_except_table", ".init_array", ".fini_array",
        ".preinit_array", ".dynamic", ".got", ".got.plt", ".tdata", ".data.rel.ro",
        ".nvFatBinSegment", ".interp", ".note.gnu.build-id", ".note.ABI-tag",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static fc_status decode_cubin(fc_builder *b, Elf *elf, const GElf_Ehdr *eh, uint32_t arch, const uint8_t *data,
                              uint64_t size)
{
    fc_entry e;
    memset(&e, 0, sizeof e);
    e.kind = FC_IMAGE_CUBIN;
    e.raw_kind = 2;
    e.arch = arch;
    e.payload_size = e.stored_size = e.uncompressed_size = size;
    e.elf_abi_version = eh->e_ident[EI_ABIVERSION];
    e.elf_version = eh->e_version;
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr sh;
            const char *name;
            if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
                continue;
            if (strcmp(name, ".note.nv.tkinfo") == 0 && sh.sh_type != SHT_NOBITS &&
                fc_range_ok(sh.sh_offset, sh.sh_size, size)) {
                e.variant = fc_cubin_variant(data + sh.sh_offset, (size_t)sh.sh_size, e.arch);
                break;
            }
        }
    }
    fc_status st = fc_builder_add_container(b, 0, FC_ORIGIN_CUBIN_FILE, NULL);
    if (st == FC_OK)
        st = fc_builder_add_entry(b, &e);
    fc_builder_set_container_size(b, size);
    /* A relocatable cubin (nvcc -rdc -cubin) is for a linker: the driver never runs one as a
     * module, even when it refers to nothing outside (link_state.c). */
    if (st == FC_OK && eh->e_type == ET_REL)
        fc_builder_set_container_role(b, FC_ROLE_LINK_INPUT);
    return st;
}

/* Appends G to *ARR, growing it by doubling. False when out of memory. */
static bool push_region(fc_region **arr, size_t *n, size_t *cap, fc_region g)
{
    fc_region *more = fc_grow(*arr, cap, *n + 1, sizeof *more, 16);
    if (!more)
        return false;
    *arr = more;
    (*arr)[(*n)++] = g;
    return true;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}
/* Bytes after the end of everything the ELF headers of a file of SIZE bytes name: an
 * AppImage's or snap's squashfs is appended so, holding the application's own libraries.
 * Noted from FC_APPENDED_MIN bytes on; returns where the image ends. */
static uint64_t note_appended(fc_builder *b, Elf *elf, const GElf_Ehdr *eh, uint64_t size)
{
    uint64_t end = eh->e_ehsize;
    size_t shnum = 0; /* past 65,279 sections the count is in the first section header */
    if (eh->e_shoff && (elf_getshdrnum(elf, &shnum) != 0 || shnum == 0))
        return size; /* a section table whose size cannot be told: nothing is claimed */
    if (eh->e_shoff)
        end = max_u64(end, eh->e_shoff + (uint64_t)shnum * eh->e_shentsize);
    if (eh->e_phoff && eh->e_phnum)
        end = max_u64(end, eh->e_phoff + (uint64_t)eh->e_phnum * eh->e_phentsize);
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS && sh.sh_offset <= size)
            end = max_u64(end, sh.sh_offset + (sh.sh_size < size - sh.sh_offset ? sh.sh_size : size - sh.sh_offset));
    }
    size_t phnum = 0;
    if (elf_getphdrnum(elf, &phnum) == 0)
        for (size_t i = 0; i < phnum && i < 65536; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(elf, (int)i, &ph) && ph.p_offset <= size)
                end = max_u64(end, ph.p_offset + (ph.p_filesz < size - ph.p_offset ? ph.p_filesz : size - ph.p_offset));
        }
    if (end < size && size - end >= FC_APPENDED_MIN) {
        b->obj.appended_offset = end;
        b->obj.appended_size = size - end;
    }
    return end < size ? end : size;
}

/* Whether ELF's program header table can be read and holds no PT_LOAD segment (one that
 * cannot be read is said later, by what reads the segments). */
static bool no_loaded_segment(Elf *elf)
{
    size_t phnum = 0;
    if (elf_getphdrnum(elf, &phnum) != 0)
        return false;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type == PT_LOAD)
            return false;
    }
    return true;
}

/* Whether the file bytes [OFF, OFF + SIZE) lie inside one loaded segment (PT_LOAD's file
 * range), or the file has no program headers to tell (an object). A registered section
 * outside them is never mapped: the runtime cannot register what it holds (review of
 * 2026-12-03, F7: a section table pointing .nv_fatbin at bytes appended to the file read as a
 * module that loads, where the driver answered 209 for the code the records register). */
static bool in_loaded_segment(Elf *elf, uint64_t off, uint64_t size)
{
    size_t phnum = 0;
    if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0)
        return true;
    bool any = false;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
            continue;
        any = true;
        if (off >= ph.p_offset && off - ph.p_offset <= ph.p_filesz && size <= ph.p_filesz - (off - ph.p_offset))
            return true;
    }
    return !any;
}

/* A registered section sized but of type SHT_NOBITS holds no bytes in the file: objcopy
 * --only-keep-debug writes every loaded section so. When neither the records nor the loaded
 * segments led to a registered container either, the code is in another file, and "no CUDA
 * code" would pass one whose kernels exist (review of 2026-12-03, M4). Said before the
 * import check (elf_needs.c), whose guess it makes precise. */
static void note_code_elsewhere(fc_builder *b, const fc_elf_sections *seen)
{
    if (!seen->nobits || b->obj.status != FC_OK)
        return;
    for (size_t i = 0; i < b->obj.n_containers; i++) {
        fc_origin o = b->containers[i].origin;
        if (o == FC_ORIGIN_SECTION || o == FC_ORIGIN_WRAPPER || o == FC_ORIGIN_SEGMENT)
            return;
    }
    static const char *const names[] = {".nv_fatbin", "__nv_relfatbin", ".nvFatBinSegment"};
    char list[80] = "";
    unsigned n = 0, left = (unsigned)__builtin_popcount(seen->nobits);
    for (unsigned i = 0; i < 3; i++) {
        if (!(seen->nobits & (1u << i)))
            continue;
        left--;
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s%s", n++ ? (left ? ", " : " and ") : "", names[i]);
    }
    fc_builder_fail(b, FC_ERR_UNSUPPORTED,
                    "its %s section%s no bytes in this file (SHT_NOBITS: a debug-info file, or one whose code "
                    "was stripped out?): its CUDA code cannot be read here",
                    list, n > 1 ? "s hold" : " holds");
}

/* Whether section NAME (header SH, in an object of SIZE bytes) may hold registration records
 * a linker script moved out of .nvFatBinSegment: loaded, written by the dynamic linker or the
 * program (a record's address needs a relocation in a shared object: .data, .data.rel.ro or
 * any section of the script's), at a fixed address (not TLS), never code, and none of the
 * tables the loader or the unwinder reads entry by entry (a record there breaks them). */
static bool records_section(const char *name, const GElf_Shdr *sh, uint64_t size)
{
    return (sh->sh_flags & SHF_ALLOC) && (sh->sh_flags & SHF_WRITE) && !(sh->sh_flags & (SHF_EXECINSTR | SHF_TLS)) &&
           sh->sh_size >= FC_WRAPPER_SIZE && fc_range_ok(sh->sh_offset, sh->sh_size, size) &&
           (!is_structured_section(name) || strcmp(name, ".data.rel.ro") == 0);
}

/* Registration records outside .nvFatBinSegment, which is not there (elf_records.c): searched
 * for in the heads of the writable sections W[0..N) that the data-section search reads (not
 * .data.rel.ro), and in all of every one of them when containers were found outside the
 * registered sections, which records may show to be registered (or --embedded asked for all). */
static void find_records_elsewhere(fc_builder *b, const fc_image *img, uint64_t base, fc_region *w, size_t n,
                                   fc_elf_sections *seen)
{
    bool outside = b->opts->embedded == FC_EMBEDDED_ALL;
    for (size_t i = 0; i < b->obj.n_containers && !outside; i++)
        outside = !fc_origin_registered(b->containers[i].origin);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (outside || !is_structured_section(w[i].section))
            w[k++] = w[i];
    if (!k)
        return;
    fc_status st = fc_elf_records_elsewhere(b, img, base, w, k, b->opts->embedded_probe_size, outside,
                                            FC_WRAPPER_SIZE, &seen->records, &seen->n_records);
    if (st != FC_OK)
        fc_builder_fail(b, st, st == FC_ERR_NOMEM ? "out of memory" : "a data section could not be read");
    seen->records_elsewhere = seen->n_records > 0;
}

/* Scans one ELF object (a file, or an archive member at image offset BASE). */
static int scan_object(fc_scan_ctx *sc, const fc_image *img, Elf *elf, const char *path,
                       const char *member, uint64_t base, uint64_t size)
{
    fc_builder b;
    int rc;
    if (!fc_builder_start(sc, &b, path, member, &rc))
        return rc;
    b.obj.size = size;
    const uint8_t *data = img->data + base;
    b.obj.image = data;
    b.obj.image_reclaimable = img->own_mapping;

    GElf_Ehdr eh;
    size_t shstrndx, nsec;
    fc_region *regions = NULL, *fatbins = NULL, *writable = NULL; /* writable: where records may be */
    size_t n_regions = 0, n_fatbins = 0, n_writable = 0;
    GElf_Shdr table = {0};            /* .nvFatBinSegment, when there is one */
    fc_elf_sections seen = {0};       /* what the section table showed, for elf_segments.c */
    Elf_Scn *dynamic = NULL;          /* the dynamic section, for the libraries it needs */
    size_t registered = SIZE_MAX;     /* .nv_fatbin's index in fatbins */
    uint64_t registered_addr = 0, *starts = NULL;
    char why[300], odd[300] = ""; /* odd: said after decoding, unless decoding found worse */
    Elf_Scn **compressed = NULL;      /* registered sections stored compressed (elf_compressed.h) */
    uint64_t zip_from = 0;            /* where a zip appended to the file starts, read after it; 0: none */
    uint64_t pyi_lo = 0, pyi_hi = 0;  /* a PyInstaller program's archive, read after it */
    bool pydata_unread = false;       /* a section pydata holding no archive's cookie */
    size_t n_compressed = 0;
    if (fc_elf_header_problem(data, size, why, sizeof why)) {
        fc_builder_fail(&b, FC_ERR_FORMAT, "%s", why);
        goto deliver;
    }
    if (data[EI_DATA] != ELFDATA2LSB) { /* a consistent big-endian header */
        fc_builder_fail(&b, FC_ERR_UNSUPPORTED,
                        "a big-endian ELF file: not searched (CUDA code is built only for little-endian hosts)");
        goto deliver;
    }
    errno = 0;
    if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &nsec) != 0 || elf_getshdrstrndx(elf, &shstrndx) != 0) {
        if (libelf_out_of_memory())
            fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
        else
            fc_builder_fail(&b, FC_ERR_FORMAT, "bad ELF headers: %s", elf_errmsg(-1));
        goto deliver;
    }
    /* libelf answers "no sections" for a section table it cannot read; say why instead. */
    uint64_t table_end = 0, entries = eh.e_shnum ? eh.e_shnum : nsec; /* 0: extended numbering */
    if (eh.e_shoff && (!fc_add_ok(eh.e_shoff, entries * eh.e_shentsize, &table_end) || table_end > size)) {
        fc_builder_fail(&b, FC_ERR_FORMAT, "section header table (offset 0x%llx, %llu entries) lies past the end of the file",
                        (unsigned long long)eh.e_shoff, (unsigned long long)entries);
        goto deliver;
    }
    uint32_t arch;
    if (eh.e_machine == EM_CUDA) {
        if (fc_elf_cubin_header(&eh, &arch, odd, sizeof odd)) {
            b.obj.format = FC_FORMAT_CUBIN;
            decode_cubin(&b, elf, &eh, arch, data, size);
            goto deliver;
        }
    }
    b.obj.format = FC_FORMAT_ELF;
    /* Without a section table the loaded segments are what is read (elf_segments.c); a file
     * with neither (an object, whose code only its sections reach, stripped of them) would
     * read as holding no CUDA code. */
    if (nsec == 0 && no_loaded_segment(elf)) {
        fc_builder_fail(&b, FC_ERR_FORMAT, "neither a section table nor a loaded segment: nothing in it can be read");
        goto deliver;
    }
    /* Data sections can be tens of thousands (-fdata-sections): the lists grow as sections
     * are found rather than being sized by the section count. */
    size_t cap_regions = 0, cap_fatbins = 0, cap_writable = 0;
    /* First the sections, checked; then their contents, decoded on the scan's threads. */
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *name;
        errno = 0;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name))) {
            if (libelf_out_of_memory())
                fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
            else
                fc_builder_fail(&b, FC_ERR_FORMAT, "bad section header %zu: %s", elf_ndxscn(scn), elf_errmsg(-1));
            goto deliver;
        }
        if (sh.sh_type == SHT_DYNAMIC)
            dynamic = scn;
        if (sh.sh_type != SHT_PROGBITS || sh.sh_size == 0) {
            /* Retyped or emptied: the runtime still finds them (elf_segments.c). */
            seen.registered_unusable |= is_fatbin_section(name);
            seen.records_unusable |= strcmp(name, ".nvFatBinSegment") == 0;
            if (sh.sh_type == SHT_NOBITS && sh.sh_size)
                seen.nobits |= strcmp(name, ".nv_fatbin") == 0       ? FC_NOBITS_FATBIN
                               : strcmp(name, "__nv_relfatbin") == 0 ? FC_NOBITS_RELFATBIN
                               : strcmp(name, ".nvFatBinSegment") == 0 ? FC_NOBITS_RECORDS
                                                                       : 0u;
            continue;
        }
        if (strcmp(name, ".nvFatBinSegment") == 0 && fc_range_ok(sh.sh_offset, sh.sh_size, size))
            table = sh;
        if (strcmp(name, "pydata") == 0 && fc_range_ok(sh.sh_offset, sh.sh_size, size)) {
            /* PyInstaller's archive; its bootloader takes the last cookie in the file, which
             * need not end the section (bytes after it: red-team review of 2026-12-03). */
            uint64_t end = fc_pyinstaller_last_cookie(data, sh.sh_offset, sh.sh_offset + sh.sh_size);
            pyi_lo = base + sh.sh_offset;
            pyi_hi = end ? base + end : 0;
            pydata_unread = !end;
        }
        if (fc_elf_compressed_fatbin(name, &sh) && fc_range_ok(sh.sh_offset, sh.sh_size, size)) {
            Elf_Scn **more = realloc(compressed, (n_compressed + 1) * sizeof *compressed);
            if (!more) {
                fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
                goto deliver;
            }
            compressed = more;
            compressed[n_compressed++] = scn;
            /* Said first: nothing else about the file matters as much. */
            fc_builder_fail(&b, FC_ERR_FORMAT,
                            "section %s is stored compressed: the CUDA runtime reads it as it lies and cannot load it; "
                            "what it holds is listed apart, decompressed",
                            name);
            continue;
        }
        if (records_section(name, &sh, size) &&
            !push_region(&writable, &n_writable, &cap_writable,
                         (fc_region){.offset = sh.sh_offset, .size = sh.sh_size, .section = name, .addr = sh.sh_addr})) {
            fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
            goto deliver;
        }
        bool fatbin = is_fatbin_section(name);
        bool data_section = (sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) &&
                            sh.sh_size >= EMBEDDED_MIN_SECTION && !is_structured_section(name);
        if (!fatbin && !(data_section && sc->opts->embedded != FC_EMBEDDED_NONE))
            continue;
        if (!fc_range_ok(sh.sh_offset, sh.sh_size, size)) {
            fc_builder_fail(&b, FC_ERR_FORMAT, "section %s (offset 0x%llx, %llu bytes) runs past the end of the file",
                            name, (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size);
            goto deliver;
        }
        if (fatbin && !in_loaded_segment(elf, sh.sh_offset, sh.sh_size)) {
            seen.registered_unusable = true; /* the records and segments are read instead */
            snprintf(odd, sizeof odd,
                     "section %s (offset 0x%llx, %llu bytes) lies outside every loaded segment: the loader never maps "
                     "it, so the CUDA runtime cannot register what it holds; not read as registered code",
                     name, (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size);
            continue;
        }
        if (fatbin && registered == SIZE_MAX && strcmp(name, ".nv_fatbin") == 0) {
            registered = n_fatbins;
            registered_addr = sh.sh_addr;
        }
        fc_region g = {.offset = sh.sh_offset, .size = sh.sh_size, .section = name, .addr = sh.sh_addr};
        if (!(fatbin ? push_region(&fatbins, &n_fatbins, &cap_fatbins, g)
                     : push_region(&regions, &n_regions, &cap_regions, g))) {
            fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
            goto deliver;
        }
    }
    /* The registration table (.nvFatBinSegment): its records' addresses tell where containers
     * start in .nv_fatbin without walking its chain, so the walk can be split among threads
     * (hints only: sections.c takes a segment's results only where the chain leads to them),
     * and elf_segments.c follows them to containers the section table does not show. */
    if (table.sh_size) {
        fc_status st = fc_wrappers_read(img, base, table.sh_offset, table.sh_size, table.sh_addr, FC_WRAPPER_SIZE,
                                        &seen.records, &seen.n_records);
        /* Records not held for want of memory are not records that cannot be read: the file
         * lost its "device_link" and was reported whole (oom_cli_test.py). */
        if (st == FC_ERR_NOMEM) {
            fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
            goto deliver;
        }
        seen.records_unread = st != FC_OK;
    }
    if (registered != SIZE_MAX)
        starts = fc_region_set_starts(&fatbins[registered], seen.records, seen.n_records, registered_addr);
    /* A program that loads its own modules keeps its PTX text anywhere: search it all. */
    if (dynamic && fc_ptx_text_program(elf, dynamic))
        for (size_t i = 0; i < n_regions; i++)
            regions[i].search_in_full = true;
    /* Only a file that registers code with the runtime, a CUDA library, is worth reading all
     * its relocations for (cuBLASLt 13's 8.7 MB: its summary on dev went from 11.0-11.5 ms to
     * 14.4-14.9 ms; elf_pointers.c). */
    if (n_fatbins || table.sh_size) {
        unsigned threads = fc_thread_count(b.opts);
        /* Out of memory, a section that holds containers past its head may go unsearched:
         * not "no CUDA code" there but the run's failure (exit 4). */
        if (fc_elf_pointed_regions(img, base, size, elf, regions, n_regions, b.opts, fc_scan_pool(sc, threads),
                                   threads) == FC_ERR_NOMEM)
            fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
    }
    fc_decode_sections(sc, &b, img, base, fatbins, n_fatbins, regions, n_regions);
    seen.table_missing = nsec == 0;
    seen.records_offset = table.sh_offset;
    seen.records_size = table.sh_size;
    seen.records_addr = table.sh_addr;
    seen.registered = fatbins;
    seen.n_registered = n_fatbins;
    if (nsec && !table.sh_size && !seen.records_unusable && (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) &&
        eh.e_ident[EI_CLASS] == ELFCLASS64) { /* 24-byte records, as elf_segments.c follows */
        find_records_elsewhere(&b, img, base, writable, n_writable, &seen);
        seen.data = regions;
        seen.n_data = n_regions;
    }
    fc_elf_unlisted(&b, img, base, size, elf, &seen);
    note_code_elsewhere(&b, &seen);
    fc_elf_read_needs(&b, elf, &eh, img, base, data, size);
    /* The bytes after the image, [image_end, size): however few (an archive of a compressed
     * cubin fits in 1.5 KB), below the note's 4 KiB too. */
    uint64_t image_end = note_appended(&b, elf, &eh, size);
    /* A PyInstaller program's archive appended (macOS, older releases; else in pydata), found
     * as its bootloader finds it, by the last cookie from the end: bytes after it do not stop
     * the program (they hid the archive: red-team review of 2026-12-05). */
    uint64_t pyi_cookie_end = image_end < size && !pyi_hi
                                  ? fc_pyinstaller_appended_cookie(data, image_end, size) : 0;
    bool pyi_appended = pyi_cookie_end != 0;
    if (pyi_appended) {
        pyi_lo = base + image_end;
        pyi_hi = base + pyi_cookie_end;
        b.obj.appended_size = 0;
    }
    /* A zip appended to a program (a self-extracting zip, `cat stub x.zip`, `zip -A`) ends the
     * file with its end record (bytes after it allowed, as zipfile allows them: rv24): its
     * members are read as a package's, where packages are
     * opened (a file named, or --packages), rather than left as bytes not read. */
    if (image_end < size && !pyi_appended && fc_zip_has_members(data, size))
        zip_from = fc_appended_zip(sc, &b, image_end, size, path) ? image_end : 0;
    if (*odd)
        fc_builder_fail(&b, FC_ERR_FORMAT, "%s", odd);

deliver:
    free(regions);
    free(fatbins);
    free(writable);
    free(starts);
    free(seen.records);
    rc = fc_deliver(sc, &b);
    for (size_t i = 0; i < n_compressed && rc == 0; i++) {
        GElf_Shdr sh;
        const char *name = gelf_getshdr(compressed[i], &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        if (name) /* checked to lie in the file when found */
            rc = fc_elf_scan_compressed(sc, data + sh.sh_offset, sh.sh_size, gelf_getclass(elf) == ELFCLASS64,
                                        !(sh.sh_flags & SHF_COMPRESSED), name, path, member);
    }
    free(compressed);
    if (rc == 0)
        rc = fc_scan_carried(sc, img, base, size, path, member, &(fc_carried){pyi_lo, pyi_hi, pydata_unread, zip_from});
    return rc;
}

static int cmp_offset(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether the symbol table T lists a member inside the archive (AR_SIZE bytes) where the walk
 * met no member header (MET, N ascending): *FIRST the lowest such offset, *MORE how many other
 * offsets so. False too when memory runs out (MORE is then unknown: 0). */
static bool unmet_listed(const fc_ar_offsets *t, uint64_t ar_size, const uint64_t *met, size_t n, uint64_t *first,
                         uint64_t *more)
{
    uint64_t *unmet = NULL;
    size_t n_unmet = 0, cap = 0;
    for (uint64_t i = 0; i < t->count; i++) {
        uint64_t off = fc_ar_offset_at(t, i);
        if (!fc_range_ok(off, FC_AR_HEADER, ar_size) || bsearch(&off, met, n, sizeof *met, cmp_offset))
            continue; /* past the end: a cut, said on its own */
        uint64_t *room = fc_grow(unmet, &cap, n_unmet + 1, sizeof *unmet, 16);
        if (!room)
            break;
        (unmet = room)[n_unmet++] = off;
    }
    if (!n_unmet) {
        free(unmet);
        return false;
    }
    qsort(unmet, n_unmet, sizeof *unmet, cmp_offset);
    *first = unmet[0];
    *more = 0;
    for (size_t i = 1; i < n_unmet; i++) /* distinct offsets: symbols share members */
        *more += unmet[i] != unmet[i - 1];
    free(unmet);
    return true;
}

/* libelf could not go on for want of memory: said, and the walk ends with nothing more to
 * say of what it did not reach (*NEXT, *END_SAID). */
static int walk_out_of_memory(fc_scan_ctx *sc, const fc_image *img, const char *path, uint64_t *next,
                              bool *end_said)
{
    *next = img->size; /* not damage to say */
    *end_said = true;
    return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
}

/* The member NAME of the static archive PATH, at BASE in IMG (N bytes), which may carry files (a
 * package, a zip behind a stub, a PyInstaller archive): read as the same bytes named on their
 * own are, its files named as a package's members (rv27 F1: searched as bytes, a zip's
 * deflated library was "no CUDA code", exit 0, where the member named alone was read). Where
 * that reads nothing (an empty zip's end record, an archive's cookie met by chance), its bytes
 * are searched, as before (rv29 F1). PYINSTALLER: it is a PyInstaller archive, no package. */
static int scan_member_carrying(fc_scan_ctx *sc, const fc_image *img, uint64_t base, uint64_t n, const char *path,
                                const char *name, bool pyinstaller)
{
    const uint8_t *p = img->data + base;
    size_t before = sc->delivered, errors = sc->errors;
    fc_member_scope scope;
    if (!fc_member_enter(sc, &scope, path, name, n))
        return fc_report_error(sc, FC_ERR_NOMEM, path, name, "out of memory");
    fc_image own = {.data = p, .size = (size_t)n, .fd = -1};
    int rc;
    if (sc->depth + 1 >= sc->opts->max_package_depth) {
        rc = fc_report_error(sc, FC_ERR_LIMIT, path, NULL, "packages nested deeper than %u, not opened",
                             sc->opts->max_package_depth);
    } else {
        sc->depth++;
        /* (A PyInstaller archive is read by its cookie, which fc_scan_image looks for only in
         * a file named or one named as its program's side archive.) */
        rc = pyinstaller ? fc_pyinstaller_scan(sc, &own, 0, n, name) : fc_scan_image(sc, &own, name);
        sc->depth--;
    }
    fc_member_leave(sc, &scope);
    if (rc == 0 && sc->delivered == before && sc->errors == errors)
        rc = fc_scan_data(sc, img, base, n, path, name);
    return rc;
}

static int scan_archive(fc_scan_ctx *sc, const fc_image *img, Elf *ar, const char *path)
{
    int rc = 0;
    Elf_Cmd cmd = ELF_C_READ_MMAP;
    Elf *m;
    bool named = sc->named, archive_named = sc->archive_named;
    bool any = false;
    /* elf_next answers ELF_C_NULL after the last member (setting a range error that is not
     * one); a member cut short is caught by the bounds check below. */
    uint64_t next = 8; /* where the next member header should start: after "!<arch>\n" */
    uint64_t released = 0;
    const uint8_t *names = NULL; /* the long-name table ("//"), once seen */
    uint64_t names_size = 0;
    char name[4096], why[600], first_bad[700] = "";
    size_t n_bad = 0; /* members whose names lead nowhere: said once, when the walk is done */
    /* What the archive's tables list (ar_index.h): the highest member offset of its symbol
     * table, the last name of its long-name table, and the furthest name members used. */
    uint64_t listed = 0, names_last = 0, names_used = 0;
    bool any_listed = false, any_names = false, any_used = false;
    bool end_said = false; /* where and why the walk ended early is said already */
    char last_name[256];
    /* The member headers the walk met, ascending, for the symbol table's offsets to be found
     * among; the table, when the first member is one. */
    uint64_t *met = NULL;
    size_t n_met = 0, met_cap = 0, tables = 0;
    bool met_lost = false;
    fc_ar_offsets symtab;
    bool has_symtab = false;
    bool first_is_slash = false; /* the first member is "/", after which a Windows .lib has another */
    /* A BSD table, read when the walk is done in the byte order of the archive's first ELF
     * member (GNU ld's target's), whether or not it holds together (review of 2026-12-06, rv11 1). */
    const uint8_t *symdef = NULL;
    uint64_t symdef_size = 0;
    bool symdef_wide = false;
    int elf_data = 0; /* EI_DATA of the first ELF member */
    while (rc == 0 && cmd != ELF_C_NULL) {
        errno = 0;
        m = elf_begin(-1, cmd, ar);
        if (!m && libelf_out_of_memory()) {
            elf_errno(); /* clear */
            rc = walk_out_of_memory(sc, img, path, &next, &end_said);
            break;
        }
        if (!m) {
            int err = elf_errno();
            uint64_t skip;
            /* libelf stops at a long-name reference past its table: say which. */
            if (err && next + FC_AR_HEADER <= img->size && img->data[next] == '/' &&
                fc_ar_member_name(img->data + next, img->data + next + FC_AR_HEADER, 0, names, names_size, name,
                                  sizeof name, &skip, why, sizeof why) == FC_AR_NAME_BAD) {
                rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "member at offset 0x%llx: %s; the rest of the "
                                     "archive could not be read", (unsigned long long)next, why);
                next = img->size; /* said already */
                end_said = true;
            } else if (err && next < img->size) {
                /* (At the end of the bytes there is no member to fail: an archive of no
                 * members, "!<arch>\n" alone, as glibc 2.34 and later ship libdl.a,
                 * libpthread.a, librt.a, libutil.a and libanl.a, and `ar rc` writes.) */
                rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "bad archive: %s", elf_errmsg(err));
                next = img->size;
                end_said = true;
            }
            break;
        }
        Elf_Arhdr *h = elf_getarhdr(m);
        /* libelf quietly shortens a member that runs past the end of the archive; the size
         * its 60-byte header declares tells. (BSD names, "#1/len", count in that size.) */
        off_t hdr_at = elf_getbase(m) - 60;
        if (h && hdr_at >= 8 && (uint64_t)hdr_at + 60 <= img->size && memcmp(img->data + hdr_at, "#1/", 3) != 0) {
            char field[11];
            memcpy(field, img->data + hdr_at + 48, 10);
            field[10] = '\0';
            unsigned long long declared = strtoull(field, NULL, 10);
            if (declared != (unsigned long long)h->ar_size) {
                rc = fc_report_error(sc, FC_ERR_FORMAT, path, h->ar_name && h->ar_name[0] != '/' ? h->ar_name : NULL,
                                     "member declares %llu bytes at offset 0x%llx, but the archive ends first",
                                     declared, (unsigned long long)hdr_at);
                elf_end(m);
                next = img->size; /* said already */
                end_said = true;
                break;
            }
        }
        /* Its name as the header writes it (ar_name.h): libelf's is wrong for some. libelf
         * hands out the symbol table ("/") and the long-name table ("//") too. */
        off_t start = elf_getbase(m);
        bool inside = h && hdr_at >= 8 && start >= 0 && fc_range_ok((uint64_t)start, h->ar_size, img->size);
        uint64_t skip = 0;
        fc_ar_name_kind kind = inside ? fc_ar_member_name(img->data + hdr_at, img->data + start, h->ar_size, names,
                                                          names_size, name, sizeof name, &skip, why, sizeof why)
                                      : FC_AR_NAME_PLAIN;
        if (inside)
            next = (uint64_t)start + h->ar_size + ((uint64_t)start + h->ar_size) % 2;
        /* Only the first member "/" or "/SYM64/" is the symbol table (and a Windows .lib's
         * second linker member, "/" right after it, laid out otherwise): another so named is a
         * member, which GNU ld links when the table lists it (bfd names it ""). It was passed
         * over as a table (review of 2026-12-06, rt10 F2). */
        if (kind == FC_AR_NAME_TABLE && hdr_at != 8 && (strcmp(name, "/") == 0 || strcmp(name, "/SYM64/") == 0) &&
            !(tables == 1 && n_met == 0 && first_is_slash && strcmp(name, "/") == 0))
            kind = FC_AR_NAME_PLAIN;
        first_is_slash |= kind == FC_AR_NAME_TABLE && hdr_at == 8 && strcmp(name, "/") == 0;
        tables += kind == FC_AR_NAME_TABLE;
        /* Tables are no members the symbol table may list: one it lists is read by ld. */
        if (inside && kind != FC_AR_NAME_TABLE) {
            uint64_t *more = fc_grow(met, &met_cap, n_met + 1, sizeof *met, 64);
            if (more)
                (met = more)[n_met++] = (uint64_t)hdr_at;
            else
                met_lost = true;
        }
        if (kind == FC_AR_NAME_TABLE && strcmp(name, "//") == 0) {
            names = img->data + start;
            names_size = h->ar_size;
            any_names = fc_ar_names_last(names, names_size, &names_last, last_name, sizeof last_name);
        }
        /* Only the first member "/": a Windows .lib's second linker member is laid out otherwise. */
        if (kind == FC_AR_NAME_TABLE && hdr_at == 8 && (strcmp(name, "/") == 0 || strcmp(name, "/SYM64/") == 0)) {
            has_symtab = fc_ar_symtab_offsets(img->data + start, h->ar_size, name[1] == 'S', &symtab);
            any_listed = has_symtab && fc_ar_offsets_last(&symtab, &listed);
        }
        /* A BSD archive's ("#1/12" and "__.SYMDEF", or the name in the header) is its first member too. */
        if ((kind == FC_AR_NAME_BSD || kind == FC_AR_NAME_PLAIN) && inside && hdr_at == 8 &&
            (strcmp(name, "__.SYMDEF") == 0 || strcmp(name, "__.SYMDEF SORTED") == 0 ||
             strcmp(name, "__.SYMDEF_64") == 0 || strcmp(name, "__.SYMDEF_64 SORTED") == 0)) {
            any_listed = fc_ar_symdef_last(img->data + start + skip, h->ar_size - skip, name[9] == '_', img->data,
                                           img->size, &listed);
            symdef = img->data + start + skip;
            symdef_size = h->ar_size - skip;
            symdef_wide = name[9] == '_';
        }
        if (kind == FC_AR_NAME_LONG) { /* "/N", its digits checked by fc_ar_member_name */
            char digits[16];
            memcpy(digits, img->data + hdr_at + 1, 15);
            digits[15] = '\0';
            uint64_t used = strtoull(digits, NULL, 10);
            names_used = any_used && names_used > used ? names_used : used;
            any_used = true;
        }
        if (kind == FC_AR_NAME_BAD && !n_bad++) /* the member is read under what its header says */
            snprintf(first_bad, sizeof first_bad, "member at offset 0x%llx: %s", (unsigned long long)hdr_at, why);
        if (rc == 0 && h && h->ar_name && h->ar_name[0] != '/' && !inside) {
            rc = fc_report_error(sc, FC_ERR_FORMAT, path, h->ar_name, "member runs past the end of the archive");
        } else if (rc == 0 && inside && kind != FC_AR_NAME_TABLE) {
            /* A BSD name leads the member's data, where libelf looks for the ELF header:
             * the ELF file after it is read on its own. */
            Elf *own = kind == FC_AR_NAME_BSD ? elf_memory((char *)img->data + start + skip, h->ar_size - skip) : NULL;
            Elf *e = own ? own : m;
            if (!elf_data && elf_kind(e) == ELF_K_ELF) {
                size_t n_ident;
                const char *ident = elf_getident(e, &n_ident);
                if (ident && n_ident > EI_DATA)
                    elf_data = ident[EI_DATA];
            }
            if (elf_kind(e) == ELF_K_ELF && (kind != FC_AR_NAME_BSD || own)) {
                size_t before = sc->delivered;
                sc->named = false;
                sc->archive_named = named;
                rc = scan_object(sc, img, e, path, name, (uint64_t)start + skip, h->ar_size - skip);
                sc->named = named;
                sc->archive_named = archive_named;
                any |= sc->delivered != before;
            } else {
                /* Read as the same bytes named on their own are: COFF objects (a Windows
                 * static library, .lib), and bare fat binaries, PTX and data, which nvcc -lib
                 * or ar put there as they were given. */
                const uint8_t *p = img->data + start + skip;
                uint64_t n = h->ar_size - skip;
                bool nested;
                fc_format f = fc_sniff(p, (size_t)n, &nested);
                bool package = f == FC_FORMAT_UNKNOWN && (fc_sniff_package(p, (size_t)n) || fc_zip_has_members(p, n));
                size_t before = sc->delivered, errors = sc->errors;
                sc->named = false;
                sc->archive_named = named;
                if (f == FC_FORMAT_PE || f == FC_FORMAT_COFF)
                    rc = fc_scan_pe(sc, img, path, name, (uint64_t)start + skip, n, f);
                else if (f == FC_FORMAT_ELF && nested)
                    rc = fc_report_error(sc, FC_ERR_UNSUPPORTED, path, name, "an archive inside the archive: not read");
                else if (f == FC_FORMAT_ELF)
                    rc = fc_report_error(sc, FC_ERR_FORMAT, path, name, "%s",
                                         fc_elf_header_problem(p, n, why, sizeof why) ? why : "not a readable ELF file");
                else if (package || (f == FC_FORMAT_UNKNOWN && fc_pyinstaller_ends(p, 0, n)))
                    rc = scan_member_carrying(sc, img, (uint64_t)start + skip, n, path, name, !package);
                else
                    rc = fc_scan_data(sc, img, (uint64_t)start + skip, n, path, name);
                sc->named = named;
                sc->archive_named = archive_named;
                any |= sc->delivered != before || sc->errors != errors; /* an object not read is no "no CUDA code" */
            }
            if (own)
                elf_end(own);
        }
        /* libelf reads each member's headers through the mapping: drop the pages behind
         * the walk now and then, not member by member (members share pages, and each
         * release is a system call). */
        if (next >= released + RELEASE_STEP) {
            fc_image_release(img, released, next - released);
            released = next;
        }
        errno = 0;
        cmd = elf_next(m);
        bool next_failed = cmd == ELF_C_NULL && libelf_out_of_memory();
        elf_end(m);
        elf_errno();
        if (next_failed)
            rc = walk_out_of_memory(sc, img, path, &next, &end_said);
    }
    fc_image_release(img, released, img->size - released);
    if (rc == 0 && n_bad)
        rc = n_bad == 1 ? fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "%s", first_bad)
                        : fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "%s; and %zu more members' names lead nowhere",
                                          first_bad, n_bad - 1);
    /* Members libelf could not read end the walk without an error: what is left unread is
     * the damage. A long-name reference libelf could not follow is one such. */
    uint64_t skip;
    end_said |= rc == 0 && next + 1 < img->size; /* one of the two below */
    if (rc == 0 && next + FC_AR_HEADER <= img->size && img->data[next] == '/' &&
        fc_ar_member_name(img->data + next, img->data + next + FC_AR_HEADER, 0, names, names_size, name, sizeof name,
                          &skip, why, sizeof why) == FC_AR_NAME_BAD)
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL,
                             "member at offset 0x%llx: %s; the rest of the archive (%llu bytes) could not be read",
                             (unsigned long long)next, why, (unsigned long long)(img->size - next));
    else if (rc == 0 && next + 1 < img->size)
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL,
                             "damaged archive: no readable member at offset 0x%llx (%llu bytes left)",
                             (unsigned long long)next, (unsigned long long)(img->size - next));
    /* libelf ends the walk where the bytes end: a member the tables list past there was cut
     * off (ar_index.h). Names that lead nowhere, said above, prove nothing of the table. */
    bool cut = !end_said && any_listed && !fc_range_ok(listed, FC_AR_HEADER, img->size);
    if (rc == 0 && cut)
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL,
                             "the archive's symbol table lists a member at offset 0x%llx, but the archive ends at "
                             "0x%llx: it was cut short, and members after the cut are not seen",
                             (unsigned long long)listed, (unsigned long long)img->size);
    else if (rc == 0 && (cut = !end_said && !n_bad && any_names && (!any_used || names_used < names_last)))
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL,
                             "the archive's long-name table names a member %s that it does not hold: it was cut "
                             "short, and members after the cut are not seen", last_name);
    /* A member the symbol table lists where the walk met none (inside a table, or after
     * another member's bytes): GNU ld links it (review of 2026-12-06, rt10 F1). */
    if (symdef)
        has_symtab = fc_ar_symdef_offsets(symdef, symdef_size, symdef_wide, elf_data == ELFDATA2MSB, &symtab);
    uint64_t unmet = 0, unmet_more = 0;
    bool unmet_found = rc == 0 && !end_said && !cut && has_symtab && !met_lost &&
                       unmet_listed(&symtab, img->size, met, n_met, &unmet, &unmet_more);
    free(met);
    if (unmet_found) {
        char others[64] = "";
        if (unmet_more)
            snprintf(others, sizeof others, " (and %llu more)", (unsigned long long)unmet_more);
        rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL,
                             "the archive's symbol table lists a member at offset 0x%llx%s where no member of the "
                             "archive starts: GNU ld links what it finds there, which is not read",
                             (unsigned long long)unmet, others);
        cut = true;
    }
    if (rc == 0 && !any && named && !end_said && !cut) {
        /* Named directly, read whole: say that it holds no CUDA code rather than stay silent
         * (not when it ended early: what it holds is not known). */
        fc_builder b;
        if (!fc_builder_start(sc, &b, path, NULL, &rc))
            return rc;
        b.obj.format = FC_FORMAT_ELF;
        b.obj.size = img->size;
        rc = fc_deliver(sc, &b);
    }
    return rc;
}

int fc_scan_elf(fc_scan_ctx *sc, const fc_image *img, const char *path)
{
    /* A thin archive (ar rcT, which GNU ld links) holds only its members' names: a tree
     * holding one was "no CUDA code" by silence (review of 2026-12-03, M1). */
    if (img->size >= 8 && memcmp(img->data, "!<thin>\n", 8) == 0)
        return fc_report_error(sc, FC_ERR_UNSUPPORTED, path, NULL,
                               "a thin archive: its members are files outside it, which are not read here; "
                               "give fatcheck those files");
    if (!fc_libelf_init())
        return fc_report_error(sc, FC_ERR_UNSUPPORTED, path, NULL, "libelf is out of date");
    char why[200];
    if (!fc_elf_sections_ok(img, sc->opts->max_sections, why, sizeof why))
        return fc_report_error(sc, FC_ERR_LIMIT, path, NULL, "%s", why);
    elf_errno(); /* clear */
    errno = 0;
    /* libelf only reads the image: fatcheck maps it MAP_PRIVATE, so even a write could never
     * reach the file. */
    Elf *elf = elf_memory((char *)img->data, img->size);
    if (!elf && libelf_out_of_memory())
        return fc_report_error(sc, FC_ERR_NOMEM, path, NULL, "out of memory");
    if (!elf)
        return fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "not a readable ELF file: %s", elf_errmsg(-1));
    int rc;
    switch (elf_kind(elf)) {
    case ELF_K_AR:
        rc = scan_archive(sc, img, elf, path);
        break;
    case ELF_K_ELF:
        rc = scan_object(sc, img, elf, path, NULL, 0, img->size);
        break;
    default: {
        /* libelf takes no file whose class or byte order is out of range: say which. */
        if (img->size >= 4 && memcmp(img->data, "\177ELF", 4) == 0 &&
            fc_elf_header_problem(img->data, img->size, why, sizeof why))
            rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "%s", why);
        else
            rc = fc_report_error(sc, FC_ERR_FORMAT, path, NULL, "not a readable ELF file or archive");
        break;
    }
    }
    elf_end(elf);
    return rc;
}
