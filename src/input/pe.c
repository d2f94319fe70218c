/* pe.c - finding containers in Windows PE images (DLL, EXE, .pyd) and COFF objects (.obj).
 *
 * nvcc's host linker on Windows keeps the fat binaries in a section named .nv_fatb (image
 * section names are cut to 8 characters) and the runtime's registration records in .nvFatBi;
 * objects may name them in full through the string table ("/4" -> .nv_fatbin). The layout
 * follows Microsoft's PE/COFF specification; no distribution library reads it, so this is a
 * small reader of the headers and the section table, every offset checked against the file.
 * What the sections hold is decoded exactly as for ELF (sections.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "decode.h"
#include "image.h"
#include "input.h"
#include "pe.h"
#include "zip_end.h"

#define DOS_HEADER 64u
#define COFF_HEADER 20u
#define BIGOBJ_HEADER 56u
#define SECTION_HEADER 40u
#define SYMBOL_SIZE 18u
#define BIGOBJ_SYMBOL_SIZE 20u
#define OPTIONAL_PE32 0x10bu
#define OPTIONAL_PE32_PLUS 0x20bu

/* ANON_OBJECT_HEADER_BIGOBJ's class identifier, {D1BAA1C7-BAEE-4BA9-AF20-FAF66AA4DCB8},
 * as stored (the first three fields little-endian). */
static const uint8_t bigobj_class[16] = {0xc7, 0xa1, 0xba, 0xd1, 0xee, 0xba, 0xa9, 0x4b,
                                         0xaf, 0x20, 0xfa, 0xf6, 0x6a, 0xa4, 0xdc, 0xb8};

static bool known_machine(uint16_t m)
{
    switch (m) {
    case 0x8664: /* x64 */
    case 0x14c:  /* i386 */
    case 0xaa64: /* ARM64 */
    case 0xa641: /* ARM64EC */
    case 0xa64e: /* ARM64X */
    case 0x1c4:  /* ARM Thumb-2 */
        return true;
    default:
        return false;
    }
}

/* Where the PE signature is, or 0 when BUF is not an image. */
static uint32_t pe_header_at(const uint8_t *buf, size_t size)
{
    if (size < DOS_HEADER || buf[0] != 'M' || buf[1] != 'Z')
        return 0;
    uint32_t at = fc_rd32(buf + 0x3c);
    if (at < 4 || !fc_range_ok(at, 4 + COFF_HEADER, size) || memcmp(buf + at, "PE\0\0", 4) != 0)
        return 0;
    return at;
}

static bool is_bigobj(const uint8_t *buf, size_t size)
{
    return size >= BIGOBJ_HEADER && fc_rd16(buf) == 0 && fc_rd16(buf + 2) == 0xffff && fc_rd16(buf + 4) >= 2 &&
           memcmp(buf + 12, bigobj_class, sizeof bigobj_class) == 0;
}

/* Whether the first SEEN of an object's N section headers (at COFF_HEADER in BUF) look like
 * an object's: printable names, and data lying past the table. */
static bool object_sections(const uint8_t *buf, uint32_t seen, uint32_t n)
{
    for (uint32_t i = 0; i < seen; i++) {
        const uint8_t *s = buf + COFF_HEADER + (size_t)i * SECTION_HEADER;
        if (s[0] < 0x21 || s[0] > 0x7e)
            return false;
        uint32_t raw_size = fc_rd32(s + 16), raw_at = fc_rd32(s + 20);
        if (raw_size && raw_at < COFF_HEADER + n * SECTION_HEADER)
            return false;
    }
    return true;
}

fc_format fc_pe_sniff(const uint8_t *buf, size_t size)
{
    if (pe_header_at(buf, size))
        return FC_FORMAT_PE;
    if (is_bigobj(buf, size))
        return FC_FORMAT_COFF;
    /* A plain object: nothing but plausibility to go by. */
    if (size < COFF_HEADER || !known_machine(fc_rd16(buf)))
        return FC_FORMAT_UNKNOWN;
    uint16_t n = fc_rd16(buf + 2), optional = fc_rd16(buf + 16);
    if (n == 0 || optional != 0 || !fc_range_ok(COFF_HEADER, (uint64_t)n * SECTION_HEADER, size))
        return FC_FORMAT_UNKNOWN;
    return object_sections(buf, n, n) ? FC_FORMAT_COFF : FC_FORMAT_UNKNOWN;
}

bool fc_pe_head_undecided(const uint8_t *buf, size_t size)
{
    if (size >= DOS_HEADER && buf[0] == 'M' && buf[1] == 'Z') {
        uint32_t at = fc_rd32(buf + 0x3c);
        return at >= 4 && !fc_range_ok(at, 4 + COFF_HEADER, size);
    }
    if (size < COFF_HEADER || !known_machine(fc_rd16(buf)))
        return false;
    uint16_t n = fc_rd16(buf + 2), optional = fc_rd16(buf + 16);
    if (n == 0 || optional != 0 || fc_range_ok(COFF_HEADER, (uint64_t)n * SECTION_HEADER, size))
        return false; /* no object, or one fc_pe_sniff tells from these bytes */
    /* The sections whose headers are here must look like an object's, as fc_pe_sniff asks. */
    return object_sections(buf, (uint32_t)((size - COFF_HEADER) / SECTION_HEADER), n);
}

static fc_status fail(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static fc_status fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return FC_ERR_FORMAT;
}

/* The string table of an object (or of an image built by GNU ld): offset and size; size 0
 * when there is none (offset 0) or it lies past the end of the file (offset UINT64_MAX). */
static void string_table(const uint8_t *buf, size_t size, uint64_t symbols_at, uint64_t n_symbols,
                         uint64_t symbol_size, uint64_t *at, uint32_t *len)
{
    *at = 0;
    *len = 0;
    uint64_t start;
    if (!symbols_at)
        return;
    if (__builtin_mul_overflow(n_symbols, symbol_size, &start) || !fc_add_ok(start, symbols_at, &start) ||
        !fc_range_ok(start, 4, size)) {
        *at = UINT64_MAX; /* declared, but not in the file */
        return;
    }
    /* A table that claims to run past the end of the file is read up to it. */
    uint64_t n = fc_rd32(buf + start);
    if (n > size - start)
        n = size - start;
    if (n >= 4) {
        *at = start;
        *len = (uint32_t)n;
    }
}

/* "/123" (decimal) or "//AAAAAA" (base64, for offsets past 9,999,999) names a string table
 * entry. Returns false when NAME is not such a reference or does not parse. */
static bool long_name_offset(const uint8_t name[8], uint64_t *off)
{
    *off = 0;
    if (name[0] != '/')
        return false;
    if (name[1] == '/') {
        static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 2; i < 8; i++) {
            const char *d = name[i] ? strchr(digits, name[i]) : NULL;
            if (!d)
                return false;
            *off = *off * 64 + (uint64_t)(d - digits);
        }
        return true;
    }
    int i = 1;
    for (; i < 8 && name[i] >= '0' && name[i] <= '9'; i++)
        *off = *off * 10 + (uint64_t)(name[i] - '0');
    return i > 1 && (i == 8 || name[i] == '\0');
}

static fc_status read_name(const uint8_t *buf, const uint8_t raw[8], uint64_t strtab, uint32_t strtab_len,
                           fc_pe_section *s, size_t index, char *err, size_t err_size)
{
    uint64_t off;
    if (!long_name_offset(raw, &off)) {
        size_t k = 0;
        while (k < 8 && raw[k])
            k++;
        memcpy(s->short_name, raw, k);
        s->short_name[k] = '\0';
        s->name = s->short_name;
        return FC_OK;
    }
    if (!strtab_len)
        return fail(err, err_size, "section %zu: long name %.8s, but %s", index, (const char *)raw,
                    strtab ? "the string table lies past the end of the file" : "there is no string table");
    if (off < 4 || off >= strtab_len)
        return fail(err, err_size, "section %zu: long name %.8s lies outside the string table (%u bytes)", index,
                    (const char *)raw, strtab_len);
    if (!memchr(buf + strtab + off, '\0', strtab_len - off))
        return fail(err, err_size, "section %zu: long name %.8s runs past the string table", index,
                    (const char *)raw);
    s->name = (const char *)buf + strtab + off;
    return FC_OK;
}

/* The data directories an image's optional header OPT (LEN bytes) holds: exports, imports.
 * NumberOfRvaAndSizes and the directories follow the Windows-specific fields, which end at
 * 92 (PE32) or 108 (PE32+) bytes; a directory the header is too short for is absent. */
static void read_directories(const uint8_t *opt, uint16_t len, fc_pe *out)
{
    uint32_t count_at = out->pe32_plus ? 108 : 92, dirs = count_at + 4;
    if (len < dirs)
        return;
    uint32_t count = fc_rd32(opt + count_at);
    if (count > 0 && (uint32_t)len >= dirs + 8) {
        out->export_rva = fc_rd32(opt + dirs);
        out->export_size = fc_rd32(opt + dirs + 4);
    }
    if (count > 1 && (uint32_t)len >= dirs + 2 * 8) {
        out->import_rva = fc_rd32(opt + dirs + 8);
        out->import_size = fc_rd32(opt + dirs + 12);
    }
    if (count > 4 && (uint32_t)len >= dirs + 5 * 8) {
        out->cert_offset = fc_rd32(opt + dirs + 4 * 8);
        out->cert_size = fc_rd32(opt + dirs + 4 * 8 + 4);
    }
    if (count > 13 && (uint32_t)len >= dirs + 14 * 8) {
        out->delay_import_rva = fc_rd32(opt + dirs + 13 * 8);
        out->delay_import_size = fc_rd32(opt + dirs + 13 * 8 + 4);
    }
}

fc_status fc_pe_parse(const uint8_t *buf, size_t size, uint64_t max_sections, fc_pe *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    uint64_t table, n_sections, symbols_at, n_symbols, symbol_size = SYMBOL_SIZE;
    uint32_t at = pe_header_at(buf, size);
    if (at) {
        const uint8_t *coff = buf + at + 4;
        out->image = true;
        out->machine = fc_rd16(coff);
        n_sections = fc_rd16(coff + 2);
        symbols_at = fc_rd32(coff + 8);
        n_symbols = fc_rd32(coff + 12);
        uint16_t optional = fc_rd16(coff + 16);
        uint64_t opt_at = (uint64_t)at + 4 + COFF_HEADER;
        if (!fc_range_ok(opt_at, optional, size))
            return fail(err, err_size, "optional header (%u bytes at 0x%llx) runs past the end of the file",
                        optional, (unsigned long long)opt_at);
        uint16_t magic = optional >= 2 ? fc_rd16(buf + opt_at) : 0;
        out->pe32_plus = magic == OPTIONAL_PE32_PLUS;
        if (magic == OPTIONAL_PE32_PLUS && optional >= 32)
            out->image_base = fc_rd64(buf + opt_at + 24);
        else if (magic == OPTIONAL_PE32 && optional >= 32)
            out->image_base = fc_rd32(buf + opt_at + 28);
        else
            return fail(err, err_size, "optional header: magic 0x%x, %u bytes: neither PE32 nor PE32+", magic,
                        optional);
        table = opt_at + optional;
        read_directories(buf + opt_at, optional, out);
    } else if (is_bigobj(buf, size)) {
        out->machine = fc_rd16(buf + 6);
        n_sections = fc_rd32(buf + 44);
        symbols_at = fc_rd32(buf + 48);
        n_symbols = fc_rd32(buf + 52);
        symbol_size = BIGOBJ_SYMBOL_SIZE;
        table = BIGOBJ_HEADER;
    } else if (size >= COFF_HEADER && known_machine(fc_rd16(buf)) && fc_rd16(buf + 16) == 0) {
        out->machine = fc_rd16(buf);
        n_sections = fc_rd16(buf + 2);
        symbols_at = fc_rd32(buf + 8);
        n_symbols = fc_rd32(buf + 12);
        table = COFF_HEADER;
    } else {
        return fail(err, err_size, "not a PE image or COFF object");
    }
    /* A /bigobj object declares up to 4 billion sections, 40 bytes each in the file and about
     * 60 in memory here: refused before the table is read, as ELF objects are. */
    if (n_sections > max_sections) {
        snprintf(err, err_size, "%llu sections, more than the limit of %llu; not read", (unsigned long long)n_sections,
                 (unsigned long long)max_sections);
        return FC_ERR_LIMIT;
    }
    if (!fc_range_ok(table, n_sections * SECTION_HEADER, size))
        return fail(err, err_size, "section table (%llu sections at 0x%llx) runs past the end of the file",
                    (unsigned long long)n_sections, (unsigned long long)table);
    uint64_t strtab;
    uint32_t strtab_len;
    string_table(buf, size, symbols_at, n_symbols, symbol_size, &strtab, &strtab_len);
    /* A COFF symbol table and its strings (MinGW's images keep them) end the image's bytes. */
    if (strtab && strtab != UINT64_MAX)
        out->raw_end = strtab + strtab_len;
    if (n_sections && !(out->sections = calloc((size_t)n_sections, sizeof *out->sections))) {
        snprintf(err, err_size, "out of memory");
        return FC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n_sections; i++) {
        const uint8_t *h = buf + table + i * SECTION_HEADER;
        fc_pe_section *s = &out->sections[i];
        fc_status st = read_name(buf, h, strtab, strtab_len, s, i + 1, err, err_size);
        if (st != FC_OK) {
            fc_pe_free(out);
            return st;
        }
        s->virtual_size = fc_rd32(h + 8);
        s->virtual_address = out->image ? fc_rd32(h + 12) : 0;
        s->characteristics = fc_rd32(h + 36);
        uint32_t raw_size = fc_rd32(h + 16), raw_at = fc_rd32(h + 20);
        if (raw_at && raw_size && (uint64_t)raw_at + raw_size > out->raw_end)
            out->raw_end = (uint64_t)raw_at + raw_size;
        /* In an image the section's data ends at its virtual size (the rest of the raw data
         * is alignment padding), or at the raw size (the rest of the virtual size is zeros). */
        uint64_t len = out->image && s->virtual_size && s->virtual_size < raw_size ? s->virtual_size : raw_size;
        if (raw_at == 0 || len == 0)
            continue;
        if (!fc_range_ok(raw_at, len, size)) {
            snprintf(err, err_size, "section %s (offset 0x%x, %llu bytes) runs past the end of the file", s->name,
                     raw_at, (unsigned long long)len);
            fc_pe_free(out);
            return FC_ERR_FORMAT;
        }
        s->offset = raw_at;
        s->size = len;
    }
    out->n_sections = (size_t)n_sections;
    return FC_OK;
}

void fc_pe_free(fc_pe *pe)
{
    free(pe->sections);
    pe->sections = NULL;
    pe->n_sections = 0;
}

bool fc_pe_rva_offset(const fc_pe *pe, uint64_t rva, uint64_t *off, uint64_t *avail)
{
    for (size_t i = 0; i < pe->n_sections; i++) {
        const fc_pe_section *s = &pe->sections[i];
        if (s->size && rva >= s->virtual_address && rva - s->virtual_address < s->size) {
            *off = s->offset + (rva - s->virtual_address);
            *avail = s->size - (rva - s->virtual_address);
            return true;
        }
    }
    return false;
}

/* ---- Scanning ------------------------------------------------------------------------- */

/* Sections smaller than one container header and one entry header cannot hold one. */
#define MIN_DATA_SECTION (FC_CONTAINER_HEADER + FC_ENTRY_MIN_HEADER)

/* The sections the CUDA runtime registers, in full and as image names cut to 8 characters. */
static bool is_fatbin_section(const char *name)
{
    return strcmp(name, ".nv_fatbin") == 0 || strcmp(name, ".nv_fatb") == 0 ||
           strcmp(name, "__nv_relfatbin") == 0 || strcmp(name, "__nv_rel") == 0;
}

static bool is_wrapper_table(const char *name)
{
    return strcmp(name, ".nvFatBi") == 0 || strcmp(name, ".nvFatBinSegment") == 0;
}

/* Sections whose layout the format fixes (exception and import tables, base relocations,
 * TLS, the CRT's pointer arrays, debug information): a fat binary is never placed there. */
static bool is_structured_section(const char *name)
{
    static const char *const names[] = {".pdata", ".xdata", ".reloc", ".idata", ".edata", ".tls",
                                        ".CRT", ".didat", ".00cfg", ".gfids", ".drectve", ".pdb"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return is_wrapper_table(name) || strncmp(name, ".debug", 6) == 0;
}

static bool is_data_section(const fc_pe_section *s)
{
    uint32_t c = s->characteristics;
    return (c & FC_PE_SCN_CNT_INITIALIZED_DATA) &&
           !(c & (FC_PE_SCN_CNT_CODE | FC_PE_SCN_MEM_EXECUTE | FC_PE_SCN_LNK_INFO | FC_PE_SCN_LNK_REMOVE)) &&
           s->size >= MIN_DATA_SECTION && !is_structured_section(s->name);
}

/* Registration records outside .nvFatBi, which is not there (as elf.c does for ELF): the
 * runtime is handed their addresses and reads each container at the one a record holds,
 * whatever the sections are named or flagged, and link.exe's /MERGE or /SECTION may move or
 * mark them (review of 2026-12-06, rt10 F5: .nv_fatb merged into a code section and .nvFatBi
 * renamed, an image importing __cudaRegisterFatBinary from cudart64_12.dll was "no CUDA
 * code"; rv10 3 and rv11: into code, a table's name, or sections flagged neither way).
 * Searched for in the heads of every section with bytes (those of data the data-section
 * search reads already), and in all of each when containers were found outside registered
 * sections, the image imports the runtime that registers them (REGISTERS), or --embedded
 * asked for all; in 32-bit images, records of 4-byte addresses (rv11 3). */
static fc_status records_elsewhere(const fc_builder *b, const fc_image *img, uint64_t base, const fc_pe *pe,
                                   bool registers, fc_region *room, fc_wrapper **w, size_t *n)
{
    *w = NULL;
    *n = 0;
    if (!pe->image)
        return FC_OK;
    bool whole = registers || b->opts->embedded == FC_EMBEDDED_ALL;
    for (size_t i = 0; i < b->obj.n_containers && !whole; i++)
        whole = !fc_origin_registered(b->containers[i].origin);
    size_t k = 0;
    unsigned record_size = pe->pe32_plus ? FC_WRAPPER_SIZE : FC_WRAPPER_SIZE_32;
    for (size_t i = 0; i < pe->n_sections; i++) {
        const fc_pe_section *s = &pe->sections[i];
        if (s->size >= record_size && !(s->characteristics & (FC_PE_SCN_LNK_INFO | FC_PE_SCN_LNK_REMOVE)))
            room[k++] = (fc_region){.offset = s->offset, .size = s->size, .section = s->name,
                                    .addr = pe->image_base + s->virtual_address};
    }
    return k ? fc_elf_records_elsewhere(b, img, base, room, k, b->opts->embedded_probe_size, whole, record_size, w, n)
             : FC_OK;
}

/* The registration records of image PE, in TABLE: 24 bytes each, or 16 in 32-bit images
 * (4-byte pointers). *W is NULL when there are none. */
static fc_status read_records(const fc_image *img, uint64_t base, const fc_pe *pe, const fc_pe_section *table,
                              fc_wrapper **w, size_t *n)
{
    return fc_wrappers_read(img, base, table->offset, table->size, pe->image_base + table->virtual_address,
                            pe->pe32_plus ? FC_WRAPPER_SIZE : FC_WRAPPER_SIZE_32, w, n);
}

/* The loader's view of an image for fc_records_follow: an address at the preferred base is
 * in the section whose RVA range holds it, where the file gives it bytes (the rest of a
 * section is zeros). */
static bool section_at(const void *ctx, uint64_t va, uint64_t *off, uint64_t *avail, const char **section)
{
    const fc_pe *pe = ctx;
    if (va < pe->image_base)
        return false;
    uint64_t rva = va - pe->image_base;
    for (size_t i = 0; i < pe->n_sections; i++) {
        const fc_pe_section *s = &pe->sections[i];
        if (s->size && rva >= s->virtual_address && rva - s->virtual_address < s->size) {
            *section = s->name;
            return fc_pe_rva_offset(pe, rva, off, avail);
        }
    }
    return false;
}

/* Keeps of the records W[0..*N) found by searching image PE (at DATA) those a data section
 * holds, as ELF's are kept (one that leads to no container is the image's damage), and of the
 * others only those that lead to a container's magic: compiled code holds the record's first
 * eight bytes as a constant (clang -O2 of a struct so set: a DLL without CUDA code was "could
 * not be decoded", exit 3: review of 2026-12-06, rv11 4). */
static void keep_found_records(const fc_pe *pe, const uint8_t *data, fc_wrapper *w, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < *n; i++) {
        const fc_pe_section *in = NULL;
        for (size_t j = 0; j < pe->n_sections && !in; j++) {
            const fc_pe_section *s = &pe->sections[j];
            if (s->size && w[i].offset >= s->offset && w[i].offset - s->offset < s->size)
                in = s;
        }
        uint64_t off, avail;
        const char *section;
        bool kept = in && is_data_section(in);
        if (!kept && section_at(pe, w[i].data, &off, &avail, &section) && avail >= 4)
            kept = fc_rd32(data + off) == FC_FATBIN_MAGIC;
        if (kept)
            w[k++] = w[i];
    }
    *n = k;
}

int fc_scan_pe(fc_scan_ctx *sc, const fc_image *img, const char *path, const char *ar_member, uint64_t base,
               uint64_t size, fc_format format)
{
    const uint8_t *data = img->data + base;
    fc_pe pe;
    char why[512];
    fc_status st = fc_pe_parse(data, (size_t)size, sc->opts->max_sections, &pe, why, sizeof why);
    /* Too many sections to read is said as for ELF objects: no object, one line. */
    if (st == FC_ERR_LIMIT)
        return fc_report_error(sc, st, path, ar_member, "%s", why);
    fc_builder b;
    int rc;
    if (!fc_builder_start(sc, &b, path, ar_member, &rc)) {
        fc_pe_free(&pe);
        return rc;
    }
    b.obj.format = format;
    b.obj.size = size;
    b.obj.image = data;
    b.obj.image_reclaimable = img->own_mapping;
    fc_region *fatbins = NULL, *regions = NULL;
    size_t n_fatbins = 0, n_regions = 0, n_records = 0;
    uint64_t *starts = NULL;
    fc_wrapper *w = NULL;
    fc_container_index index = {0};
    uint64_t pyi_lo = 0, pyi_hi = 0; /* a PyInstaller program's archive, read after it */
    uint64_t zip_from = 0;           /* where a zip appended to the program starts, read after it; 0: none */
    if (st != FC_OK) {
        fc_builder_fail(&b, st, "%s: %s", format == FC_FORMAT_PE ? "bad PE image" : "bad COFF object", why);
        goto deliver;
    }
    size_t n = pe.n_sections ? pe.n_sections : 1;
    if (!(fatbins = malloc(n * sizeof *fatbins)) || !(regions = malloc(n * sizeof *regions))) {
        fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
        goto done;
    }
    const fc_pe_section *table = NULL, *registered_sec = NULL;
    size_t registered = SIZE_MAX; /* the first registered section, whose walk the records split */
    for (size_t i = 0; i < pe.n_sections; i++) {
        const fc_pe_section *s = &pe.sections[i];
        if (!s->size)
            continue;
        if (is_wrapper_table(s->name) && !table)
            table = s;
        fc_region g = {.offset = s->offset, .size = s->size, .section = s->name};
        if (is_fatbin_section(s->name)) {
            if (registered == SIZE_MAX && strncmp(s->name, ".nv_fatb", 8) == 0) {
                registered = n_fatbins;
                registered_sec = s;
            }
            fatbins[n_fatbins++] = g; /* one per section at most */
        } else if (sc->opts->embedded != FC_EMBEDDED_NONE && is_data_section(s)) {
            regions[n_regions++] = g;
        }
    }
    /* In an image the runtime is handed the records, and reads each container at the address
     * one holds, whatever the section there is named (objects leave the addresses to
     * relocations). */
    if (table && pe.image && read_records(img, base, &pe, table, &w, &n_records) != FC_OK) {
        fc_builder_fail(&b, FC_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (registered != SIZE_MAX)
        /* The addresses assume the preferred base (base relocations move them at load time). */
        starts = fc_region_set_starts(&fatbins[registered], w, n_records, pe.image_base + registered_sec->virtual_address);
    fc_decode_sections(sc, &b, img, base, fatbins, n_fatbins, regions, n_regions);
    fc_address_map map = {section_at, &pe, "every section's bytes in the file"};
    fc_records_follow(&b, &index, img, base, w, n_records, fatbins, n_fatbins, &map);
    fc_pe_needs needs = fc_pe_read_needs(&b, data, (size_t)size, &pe);
    if (!table) {
        bool registers = needs == FC_PE_NEEDS_RUNTIME || b.obj.imports_registration;
        fc_status found = records_elsewhere(&b, img, base, &pe, registers, regions, &w, &n_records);
        if (found != FC_OK)
            fc_builder_fail(&b, found, found == FC_ERR_NOMEM ? "out of memory" : "a section could not be read");
        keep_found_records(&pe, data, w, &n_records);
        if (n_records)
            fc_records_follow(&b, &index, img, base, w, n_records, fatbins, n_fatbins, &map);
    }
    /* Import tables that cannot be read leave the DLLs it needs unknown. */
    if (needs == FC_PE_NEEDS_UNKNOWN && b.obj.n_containers)
        b.obj.runtime_unknown = true;
    /* A static runtime, which imports nothing of CUDA's (pe_runtime.c): it dates the code the
     * image registers, and where it registers none (PTX kept as text, fat binaries kept as data,
     * a program of host code alone) it is what the driver must start. That image was "no CUDA
     * code", exit 0, where a CUDA 13 runtime cannot start on a CUDA 12 driver (review of
     * 2026-12-08: ONNX Runtime's TensorRT provider, CUDA samples' deviceQuery). */
    if (pe.image && needs != FC_PE_NEEDS_RUNTIME && !b.obj.imports_registration) {
        int cuda = fc_pe_static_runtime(img, base, data, size, &pe);
        if (cuda > 0)
            b.obj.runtime_calls_cuda = cuda;
        if (cuda > 0 && !fc_any_registered(b.containers, b.obj.n_containers))
            b.obj.static_runtime = true;
    }
    /* Bytes after the image's (its overlay), before the certificate table when the program is
     * signed: a PyInstaller program's archive, a zip (pip's console-script launchers, a
     * self-extracting zip), an installer's payload. Read as the ELF reader reads them, else said
     * as bytes appended (a PE overlay was passed over in silence: red-team review of
     * 2026-12-03). */
    uint64_t end = pe.cert_size && pe.cert_offset >= pe.raw_end && pe.cert_offset < size &&
                           size - pe.cert_offset == pe.cert_size ? pe.cert_offset : size;
    /* (A static archive's member's too: fc_scan_carried.) */
    if (pe.image && pe.raw_end && pe.raw_end < end) {
        uint64_t cookie_end = fc_pyinstaller_appended_cookie(data, pe.raw_end, end); /* as elf.c */
        if (cookie_end) {
            pyi_lo = base + pe.raw_end;
            pyi_hi = base + cookie_end;
        } else if (end == size && fc_zip_has_members(data, size)) {
            zip_from = fc_appended_zip(sc, &b, pe.raw_end, size, path) ? pe.raw_end : 0;
        } else if (end - pe.raw_end >= FC_APPENDED_MIN) {
            b.obj.appended_offset = pe.raw_end;
            b.obj.appended_size = end - pe.raw_end;
        }
    }
done:
    free(w);
    fc_container_index_free(&index);
    free(starts);
    free(fatbins);
    free(regions);
    fc_pe_free(&pe);
deliver:
    rc = fc_deliver(sc, &b);
    if (rc == 0)
        rc = fc_scan_carried(sc, img, base, size, path, ar_member, &(fc_carried){pyi_lo, pyi_hi, false, zip_from});
    return rc;
}
